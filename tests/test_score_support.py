"""Test support for the scorer tests: a tiny in-memory KB over pyoxigraph and table builders.

(Collected by pytest as a module without tests; imported by the other
``test_score_*`` modules.)
"""

from __future__ import annotations

import time

import pyoxigraph as ox

from nl2sparql.errors import QueryError, QuerySyntaxError
from nl2sparql.kb.base import KnowledgeBase
from nl2sparql.kb.results import ResultTable, Term

XSD = "http://www.w3.org/2001/XMLSchema#"
EX = "http://example.org/"

TINY_DATA = f"""
@prefix ex: <{EX}> .
@prefix xsd: <{XSD}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:p1 a ex:Product ; ex:id 1 ; ex:price 10.5 ; rdfs:label "mela"@it, "apple"@en ; ex:colour "red" .
ex:p2 a ex:Product ; ex:id 2 ; ex:price 3.0 ; rdfs:label "pera"@it, "pear"@en ; ex:colour "green" .
ex:p3 a ex:Product ; ex:id 3 ; ex:price 7.25 ; rdfs:label "uva"@it, "grape"@en ; ex:colour "green" .
ex:p4 a ex:Product ; ex:id 4 ; ex:price 3.0 ; rdfs:label "fico"@it, "fig"@en ; ex:colour "purple" .
ex:p5 a ex:Product ; ex:id 5 ; ex:price 12 ; rdfs:label "kiwi"@it, "kiwi"@en ; ex:colour "green" .
"""

PREFIXES = f"PREFIX ex: <{EX}>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"


def to_term(node) -> Term | None:
    """A pyoxigraph term as a :class:`Term`."""
    if node is None:
        return None
    if isinstance(node, ox.NamedNode):
        return Term.iri(node.value)
    if isinstance(node, ox.BlankNode):
        return Term.bnode(node.value)
    if isinstance(node, ox.Literal):
        return Term.literal(node.value, node.datatype.value, node.language)
    return Term("triple", str(node))


class TinyKB(KnowledgeBase):
    """A KnowledgeBase over an in-memory pyoxigraph store (for tests only)."""

    description = "tiny"

    def __init__(self, turtle: str = TINY_DATA):
        super().__init__()
        self.store = ox.Store()
        self.store.load(turtle.encode(), format=ox.RdfFormat.TURTLE)
        self.calls: list[str] = []

    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        self.calls.append(query)
        if "#sleep" in query:
            raise _Timeout("query ran past its time budget")
        if "#fail" in query:
            raise QueryError("the endpoint refused the query")
        start = time.perf_counter()
        try:
            result = self.store.query(query)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"SPARQL syntax error: {exc}") from None
        except OSError as exc:
            raise QueryError(f"query failed: {exc}") from None
        if isinstance(result, ox.QueryBoolean):
            return ResultTable("ask", boolean=bool(result), elapsed=time.perf_counter() - start)
        if form in ("construct", "describe"):
            rows = [(to_term(t.subject), to_term(t.predicate), to_term(t.object)) for t in result]
            return ResultTable("construct", ["s", "p", "o"], rows[:max_rows], truncated=len(rows) > max_rows)
        names = [v.value for v in result.variables]
        rows = []
        truncated = False
        for solution in result:
            if len(rows) >= max_rows:
                truncated = True
                break
            rows.append(tuple(to_term(solution[v]) for v in names))
        return ResultTable("select", names, rows, truncated=truncated, elapsed=time.perf_counter() - start)


class _Timeout(QueryError):
    kind = "timeout"


def num(value, datatype: str = "integer") -> Term:
    """A numeric literal."""
    return Term.literal(str(value), XSD + datatype)


def lit(value: str, lang: str | None = None) -> Term:
    """A plain or language-tagged literal."""
    return Term.literal(value, lang=lang)


def iri(local: str) -> Term:
    """An IRI in the example namespace."""
    return Term.iri(EX + local)


def table(variables, rows) -> ResultTable:
    """A SELECT table."""
    return ResultTable.from_rows(variables, rows)


def ask(value: bool) -> ResultTable:
    """An ASK result."""
    return ResultTable("ask", boolean=value)
