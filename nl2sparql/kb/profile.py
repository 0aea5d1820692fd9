"""Profiling a knowledge base: graphs, classes and properties with counts.

Used by ``nl2sparql-gen kb info`` and by the schema sampler of the generation
pipeline. Everything is asked with SPARQL, so it works on any backend;
:func:`kb_profile` asks once per KB content (a per-KB artefact).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..namespaces import COMPLIT_SERVICE
from .base import KnowledgeBase


@dataclass
class GraphProfile:
    """Counts for one graph (``None`` = the store's default graph)."""

    graph: str | None
    triples: int
    classes: dict[str, int] = field(default_factory=dict)
    properties: dict[str, int] = field(default_factory=dict)


@dataclass
class KBProfile:
    """What a KB holds, graph by graph."""

    description: str
    graphs: list[GraphProfile]

    @property
    def triples(self) -> int:
        """Total triples over all graphs."""
        return sum(g.triples for g in self.graphs)

    def classes(self) -> dict[str, int]:
        """Instance counts per class over all graphs."""
        out: dict[str, int] = {}
        for g in self.graphs:
            for c, n in g.classes.items():
                out[c] = out.get(c, 0) + n
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def properties(self) -> dict[str, int]:
        """Triple counts per property over all graphs."""
        out: dict[str, int] = {}
        for g in self.graphs:
            for p, n in g.properties.items():
                out[p] = out.get(p, 0) + n
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"kb": self.description, "triples": self.triples,
                "graphs": [asdict(g) for g in self.graphs]}

    @staticmethod
    def from_json(data: dict, description: str | None = None) -> "KBProfile":
        """The profile :meth:`to_json` wrote (``description`` replaces the recorded one)."""
        return KBProfile(description or data["kb"], [GraphProfile(**g) for g in data["graphs"]])


def _counts(kb: KnowledgeBase, query: str, timeout: float) -> list[tuple]:
    table = kb.select(query, timeout=timeout, max_rows=100_000)
    return [tuple(None if t is None else t.value for t in row) for row in table.rows]


def profile_kb(kb: KnowledgeBase, timeout: float = 120.0) -> KBProfile:
    """Count triples, class instances and property uses per graph.

    The CompL-it graph of an embedded store is reached as the store reaches it
    (a named graph standing in for the SERVICE). The default graph's own
    triples (loaded without a graph) are reported as ``graph: null``.
    """
    graphs: dict[str | None, GraphProfile] = {}

    def graph(name):
        return graphs.setdefault(name, GraphProfile(name, 0))

    for g, n in _counts(kb, "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", timeout):
        graph(g).triples = int(n)
    for g, c, n in _counts(kb, "SELECT ?g ?c (COUNT(?s) AS ?n) WHERE { GRAPH ?g { ?s a ?c } } "
                               "GROUP BY ?g ?c", timeout):
        graph(g).classes[c] = int(n)
    for g, p, n in _counts(kb, "SELECT ?g ?p (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } "
                               "GROUP BY ?g ?p", timeout):
        graph(g).properties[p] = int(n)
    for g in graphs.values():
        g.classes = dict(sorted(g.classes.items(), key=lambda kv: -kv[1]))
        g.properties = dict(sorted(g.properties.items(), key=lambda kv: -kv[1]))
    ordered = sorted(graphs.values(), key=lambda g: (g.graph == COMPLIT_SERVICE, -g.triples))
    return KBProfile(kb.description, ordered)


def kb_profile(kb: KnowledgeBase, timeout: float = 120.0) -> KBProfile:
    """:func:`profile_kb`, computed once per KB content and kept (see :mod:`.artefacts`)."""
    from .artefacts import builder_version, get_artefact

    data = get_artefact(kb, "profile", lambda: profile_kb(kb, timeout=timeout).to_json(),
                        version=builder_version(profile_kb), what="the KB profile (graphs, classes, properties)")
    return KBProfile.from_json(data, kb.description)
