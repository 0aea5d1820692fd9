"""Checks of the predicted query itself, beside its answer.

An answer can be right by luck and wrong for reasons the answer does not
show. Three checks read the query:

* **hallucinated IRIs**: the classes, properties and individuals of its
  triple patterns that occur nowhere in the KB. Each distinct IRI costs one
  ASK (inside the same ``SERVICE`` when the triple is in one, so a CompL-it
  property is looked up where it lives), cached for the whole run;
* **broken LiITA rules**: the rules of the one registry
  (:data:`nl2sparql.patterns.RULES`) whose check finds an error in it;
* **empty answers**: it ran, and returned no rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..errors import Nl2SparqlError
from ..kb.base import KnowledgeBase
from ..kb.results import ResultTable
from ..sparql.model import IRI, Ask, Group, Service, Triple, Union_, Var, render

#: An IRI and the SERVICE it is used in (``None``: the KB itself).
Used = tuple[str, Optional[str]]


@dataclass(slots=True)
class QueryChecks:
    """What the checks found in one prediction (``unknown_iris`` among ``iris`` checked; ``rules`` broken)."""

    iris: int = 0
    unknown_iris: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    ran: bool = False
    empty: bool = False


class IriChecker:
    """Whether IRIs occur in a KB: one ASK per distinct IRI (and SERVICE), answers cached."""

    def __init__(self, kb: KnowledgeBase, timeout: Optional[float] = None, max_rows: Optional[int] = None):
        self.kb = kb
        self.timeout, self.max_rows = timeout, max_rows
        self._known: dict[Used, Optional[bool]] = {}
        self.asked = 0

    def exists(self, iri: str, service: Optional[str] = None) -> Optional[bool]:
        """True when ``iri`` is a subject, predicate or object somewhere; ``None`` when it cannot be asked."""
        key = (iri, service)
        if key not in self._known:
            self._known[key] = self._ask(iri, service)
        return self._known[key]

    def _ask(self, iri: str, service: Optional[str]) -> Optional[bool]:
        s, p, o = Var("s"), Var("p"), Var("o")
        try:
            term = IRI(iri)
            where = Group([Union_([Group([Triple(term, p, o)]), Group([Triple(s, p, term)]),
                                   Group([Triple(s, term, o)])])])
            query = render(Ask(Group([Service(IRI(service), where)]) if service else where))
        except ValueError:  # not an IRI the query model can write: it cannot be in the KB either
            return False
        self.asked += 1
        try:
            return bool(self.kb.execute(query, timeout=self.timeout, max_rows=self.max_rows).boolean)
        except Nl2SparqlError:  # the KB could not say (an unmapped SERVICE, a timeout): not counted
            return None


def used_iris(query: str) -> set[Used]:
    """The IRIs of the query's triple patterns (subjects, predicates and paths, objects), with their SERVICE."""
    from ..rules import parse

    found: set[Used] = set()
    for triple in parse(query).triples:
        for term in (triple.s, triple.o):
            if term.kind == "iri":
                found.add((term.value, triple.service))
        found.update((iri, triple.service) for iri in triple.p_iris)
    return found


def broken_rules(query: str) -> list[str]:
    """The ids of the LiITA rules whose check finds an error in ``query`` (each once, registry order)."""
    from ..patterns import RULES
    from ..rules import parse

    parsed = parse(query)
    return [rule.id for rule in RULES if any(i.severity == "error" for i in rule.issues(query, parsed))]


def check_query(query: str, iris: IriChecker, table: Optional[ResultTable]) -> QueryChecks:
    """Every check of one prediction; ``table`` is its answer (``None`` when it did not run)."""
    out = QueryChecks(ran=table is not None, empty=table is not None and table.form != "ask" and not table.rows)
    out.rules = broken_rules(query)
    if "syntax" in out.rules:
        return out  # its IRIs cannot be read reliably
    for iri, service in sorted(used_iris(query), key=lambda u: (u[0], u[1] or "")):
        known = iris.exists(iri, service)
        if known is None:
            continue
        out.iris += 1
        if not known:
            out.unknown_iris.append(iri)
    return out


def summarize_checks(checks: list[Optional[QueryChecks]]) -> dict:
    """Shares over the predictions: of IRIs unknown to the KB, of queries breaking a rule, of empty answers.

    ``None`` entries (no prediction) are not predictions and count for none of them.
    """
    present = [c for c in checks if c is not None]
    ran = [c for c in present if c.ran]
    iris = sum(c.iris for c in present)
    unknown = sum(len(c.unknown_iris) for c in present)
    by_rule: dict[str, int] = {}
    for c in present:
        for rule in c.rules:
            by_rule[rule] = by_rule.get(rule, 0) + 1
    return {
        "predictions": len(present),
        "iris_checked": iris,
        "unknown_iri_share": unknown / iris if iris else 0.0,
        "with_unknown_iri_share": sum(bool(c.unknown_iris) for c in present) / len(present) if present else 0.0,
        "rule_break_share": sum(bool(c.rules) for c in present) / len(present) if present else 0.0,
        "rules_broken": dict(sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0]))),
        "ran": len(ran),
        "empty_share": sum(c.empty for c in ran) / len(ran) if ran else 0.0,
    }
