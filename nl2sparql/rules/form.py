"""Rules on the form of a query: standard syntax, exact prefixes, ORDER BY with LIMIT."""

from __future__ import annotations

from ..errors import QueryError, QuerySyntaxError
from ..namespaces import ELITA_GRAPH, PREFIXES, prologue
from ..sparql.dialect import normalise_dialect
from ..sparql.lexer import apply_edits, declared_prefixes, has_limit, has_order_by, tokenize
from ..sparql.rewrite import complete_prefixes, missing_prefixes
from ..sparql.syntax import check_syntax
from .base import Breach, Rule
from .query import Parsed

_P = "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"


# -- syntax ---------------------------------------------------------------------------------------
def _syntax(query: str, parsed: Parsed):
    try:
        check_syntax(query)
    except QuerySyntaxError as exc:
        dialect = normalise_dialect(query)[1]
        yield Breach(str(exc), "; ".join(dialect) if dialect else None)
    except QueryError as exc:  # too deeply nested, or the parser ran past its deadline
        yield Breach(str(exc))


SYNTAX = Rule(
    "syntax", "error",
    "Write standard SPARQL 1.1: a projected aggregate goes in parentheses, (COUNT(DISTINCT ?x) AS ?n), and every "
    "other projected variable is grouped with GROUP BY (Virtuoso/Jena shortcuts do not parse).",
    _syntax, broken=_P + "SELECT ?l WHERE { ?l a lila:Lemma ", fix=normalise_dialect)


# -- prefixes -------------------------------------------------------------------------------------
def _missing_prefix(query: str, parsed: Parsed):
    for name in missing_prefixes(query):
        yield Breach(f"prefix {name}: is used but not declared", f"add PREFIX {name}: <{PREFIXES[name]}>")


def fix_missing_prefixes(query: str) -> tuple[str, list[str]]:
    """Declare the standard prefixes a query uses without declaring them."""
    completed, added = complete_prefixes(query)
    return completed, [f"added PREFIX {name}: <{PREFIXES[name]}>" for name in added]


MISSING_PREFIX = Rule(
    "missing_prefix", "warning", "Declare every prefix the query uses.",
    _missing_prefix, broken="SELECT ?l WHERE { ?l a lila:Lemma }", fix=fix_missing_prefixes)


def _stem(iri: str) -> str:
    return iri.rstrip("#/")


def _near_namespace(iri: str) -> str | None:
    """The standard namespace an IRI nearly (but not exactly) matches, if any."""
    if iri == ELITA_GRAPH or any(iri.startswith(ns) for ns in PREFIXES.values()):
        return None  # the ELITA graph IRI is the namespace without its slash, on purpose
    for ns in PREFIXES.values():
        if _stem(iri).startswith(_stem(ns)) and len(_stem(iri)) > len(_stem(ns)) and \
                iri[len(_stem(ns))] in "#/" and ns[len(_stem(ns)):] != iri[len(_stem(ns))]:
            return ns
        if iri == _stem(ns) and ns != ELITA_GRAPH + "/":
            return ns
    if "lexinfo.net/ontology/" in iri and not iri.startswith(PREFIXES["lexinfo"]):
        return PREFIXES["lexinfo"]
    return None


def _unknown_prefix(query: str, parsed: Parsed):
    declared = declared_prefixes(query)
    for name, iri in declared.items():
        if name in PREFIXES and iri != PREFIXES[name]:
            yield Breach(f"PREFIX {name}: <{iri}> is not the LiITA namespace <{PREFIXES[name]}> (a wrong prefix IRI "
                         f"silently returns nothing)", f"use <{PREFIXES[name]}>")
    reported = set(declared.values())
    seen = set()
    for tok in tokenize(query):
        if tok.kind == "pname":
            prefix = tok.text.split(":", 1)[0]
            if prefix not in declared and prefix not in PREFIXES and prefix not in seen:
                seen.add(prefix)
                yield Breach(f"prefix {prefix}: is neither declared nor a LiITA prefix")
        elif tok.kind == "iri":
            iri = tok.text[1:-1]
            near = _near_namespace(iri)
            if near and iri not in reported and near not in seen:
                seen.add(near)
                yield Breach(f"<{iri}> looks like the namespace <{near}> but does not match it exactly")


def fix_prefix_iris(query: str) -> tuple[str, list[str]]:
    """Point standard prefix names at their exact LiITA IRIs."""
    edits, fixes = [], []
    tokens = tokenize(query)
    for a, b, c in zip(tokens, tokens[1:], tokens[2:]):
        name = b.text[:-1] if b.kind == "pname" else None
        if a.upper == "PREFIX" and name in PREFIXES and c.kind == "iri" and c.text[1:-1] != PREFIXES[name]:
            edits.append((c.start, c.start + len(c.text), f"<{PREFIXES[name]}>"))
            fixes.append(f"PREFIX {name}: {c.text} → <{PREFIXES[name]}>")
    return apply_edits(query, edits), fixes


UNKNOWN_PREFIX = Rule(
    "unknown_prefix", "error",
    "Use exactly these prefixes (a wrong prefix IRI silently returns nothing):\n" + prologue().strip(),
    _unknown_prefix, broken="PREFIX lila: <http://lila-erc.eu/ontologies/lila#>\nSELECT ?l WHERE { ?l a lila:Lemma }",
    fix=fix_prefix_iris)


# -- determinism ----------------------------------------------------------------------------------
def _limit_order(query: str, parsed: Parsed):
    if has_limit(query) and not has_order_by(query):
        yield Breach("LIMIT without ORDER BY returns an arbitrary subset; add ORDER BY on the shown columns")


LIMIT_ORDER = Rule(
    "limit_order", "warning",
    "A LIMIT needs an ORDER BY (otherwise the subset is arbitrary); order the results.",
    _limit_order, broken=_P + "SELECT ?l WHERE { ?l a lila:Lemma } LIMIT 5")
