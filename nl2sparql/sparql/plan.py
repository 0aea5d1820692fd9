"""Where a query's evaluation starts: the first scan of Oxigraph's join plan.

Oxigraph (sparopt) has no statistics. It flattens a group's joins, gives
each element a static size estimate (a VALUES block: its rows; a triple: by
which of its positions are constants, see :data:`TRIPLE_ESTIMATES`) and
starts from the smallest, the first written winning ties; every other
element is then looked up from the rows found so far. The work a query does
is therefore roughly the number of rows of that first scan, which can be
counted cheaply before running the query (a query that starts from all
122 k lemmas of the mirror takes about 1 s, one that starts from a VALUES
word a few ms). The generator uses this to draw fewer slow candidates.

A SERVICE block counts as its triples (the embedded store answers it from a
local graph and moves its FILTERs out, see :mod:`.rewrite`); a GRAPH block
holding a FILTER, OPTIONAL, UNION or a sub-select is one opaque unit that
is never the start.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import IRI, Ask, Filter, GraphBlock, Group, Lit, Path, Select, Service, SubSelect, Triple, Values

#: Oxigraph's static size estimate of a triple pattern, by which of subject, predicate, object are constants.
TRIPLE_ESTIMATES = {
    (True, True, True): 1, (True, True, False): 10, (True, False, True): 2, (False, True, True): 10_000,
    (True, False, False): 100, (False, False, False): 1_000_000_000, (False, True, False): 1_000_000,
    (False, False, True): 100_000,
}
PATH_ESTIMATE = 1_000_000_000


@dataclass(frozen=True)
class Scan:
    """The first element of a plan: a VALUES block (``rows`` known) or one triple pattern.

    ``graph`` is the GRAPH IRI the triple is read from (``"?"`` for a
    variable graph, ``None`` for the default graph) and ``service`` the
    SERVICE IRI; ``predicate`` and ``obj`` are rendered constants or
    ``None`` for variables.
    """

    graph: str | None = None
    service: str | None = None
    predicate: str | None = None
    obj: str | None = None
    rows: int | None = None

    def count_query(self) -> str:
        """A query counting the rows this scan reads (``?n``)."""
        pattern = f"?s {self.predicate or '?p'} {self.obj or '?o'} ."
        if self.service:
            pattern = f"SERVICE <{self.service}> {{ {pattern} }}"
        elif self.graph == "?":
            pattern = f"GRAPH ?g {{ {pattern} }}"
        elif self.graph:
            pattern = f"GRAPH <{self.graph}> {{ {pattern} }}"
        return f"SELECT (COUNT(*) AS ?n) WHERE {{ {pattern} }}"

    def key(self) -> tuple:
        """What identifies the rows counted (the subject variable does not matter)."""
        return (self.graph, self.service, self.predicate, self.obj)


def _const(term) -> bool:
    return isinstance(term, (IRI, Lit))


def _render(term) -> str | None:
    return term.render(set()) if _const(term) else None


def _candidates(group: Group, graph: str | None = None, service: str | None = None):
    """(estimate, Scan) for each element the planner may start from, in written order."""
    for el in group.elements:
        if isinstance(el, Values):
            yield len(el.values), Scan(rows=len(el.values))
        elif isinstance(el, Triple):
            if isinstance(el.p, Path):
                yield PATH_ESTIMATE, None
                continue
            estimate = TRIPLE_ESTIMATES[(_const(el.s), isinstance(el.p, IRI), _const(el.o))]
            pred = f"<{el.p.value}>" if isinstance(el.p, IRI) else None
            yield estimate, Scan(graph, service, pred, _render(el.o))
        elif isinstance(el, Service):
            yield from _candidates(Group([e for e in el.group.elements if not isinstance(e, Filter)]),
                                   service=el.endpoint.value)
        elif isinstance(el, SubSelect):  # an aggregate over a sub-select starts where the sub-select starts
            yield from _candidates(el.query.where, graph, service)
        elif isinstance(el, GraphBlock):
            if any(not isinstance(e, (Triple, Values)) for e in el.group.elements):
                continue  # opaque: joined as a whole, never the start
            inner = el.graph.value if isinstance(el.graph, IRI) else "?"
            yield from _candidates(el.group, inner, service)


def first_scan(query: Select | Ask) -> Scan | None:
    """The element Oxigraph starts the query's main join from (``None`` when nothing qualifies)."""
    best: tuple[int, Scan | None] | None = None
    for estimate, scan in _candidates(query.where, None):
        if best is None or estimate < best[0]:
            best = (estimate, scan)
    return best[1] if best else None
