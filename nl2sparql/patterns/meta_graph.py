"""META_GRAPH: the named graphs of the KB, what they contain, and GRAPH-scoped lemmas."""

from __future__ import annotations

import random

from ..namespaces import ELITA_GRAPH, LIITA_GRAPH
from ..rules import Breach, Parsed, Rule
from ..sparql.lexer import apply_edits, tokenize
from ..sparql.model import IRI, Call, GraphBlock, Group, Select, Triple, Var
from .base import Facts, Frame, StandalonePattern, frag

#: The ELITA graph IRI as people mistype it: with the slash of the ``elita:`` namespace.
ELITA_WITH_SLASH = ELITA_GRAPH + "/"


def _graph_iri(query: str, parsed: Parsed):
    if any(t.graph is not None and t.graph.kind == "iri" and t.graph.value == ELITA_WITH_SLASH for t in parsed.triples):
        yield Breach(f"GRAPH <{ELITA_WITH_SLASH}> is empty: the ELITA graph is <{ELITA_GRAPH}> (the namespace has the "
                     "slash, the graph IRI has none)", f"use GRAPH <{ELITA_GRAPH}>")


def fix_graph_iris(query: str) -> tuple[str, list[str]]:
    """``GRAPH <http://w3id.org/elita/>`` → ``GRAPH <http://w3id.org/elita>``."""
    edits, fixes = [], []
    tokens = tokenize(query)
    for a, b in zip(tokens, tokens[1:]):
        if a.upper == "GRAPH" and b.kind == "iri" and b.text[1:-1] == ELITA_WITH_SLASH:
            edits.append((b.start, b.start + len(b.text), f"<{ELITA_GRAPH}>"))
            fixes.append(f"GRAPH {b.text} → <{ELITA_GRAPH}>")
    return apply_edits(query, edits), fixes


GRAPH_IRI = Rule(
    "graph_iri", "error",
    f"The ELITA graph is GRAPH <{ELITA_GRAPH}> (no slash, although the elita: namespace has one); the Lemma Bank "
    f"graph is <{LIITA_GRAPH}>.",
    _graph_iri, fix=fix_graph_iris,
    broken="PREFIX elita: <http://w3id.org/elita/>\n"
           "SELECT ?e WHERE { GRAPH <http://w3id.org/elita/> { ?e elita:HasEmotion elita:Paura } }")


class MetaGraph(StandalonePattern):
    """Graph listings and per-graph profiles; as a modifier, ``GRAPH <http://liita.it/data> { ?lemma a lila:Lemma }``."""

    label = "META_GRAPH"
    rank = 120
    guidance = ("Graph listings and profiles: GRAPH ?g { … } (GRAPH ?g {} lists the graphs without reading them); "
                "lemmas of the Lemma Bank graph: GRAPH <http://liita.it/data> { ?lemma a lila:Lemma }.")
    example = ("standalone", None, {"kind": "lemma_graphs"})
    fact_queries = {"graphs": "SELECT DISTINCT ?g WHERE { GRAPH ?g { } }"}
    rules = (GRAPH_IRI,)
    shapes = ("list", "count")
    question_cues = [
        (r"\b(graf[oi]|graphs?|named graphs?|dataset|sorgent[ei]|sources?|risors[ae] lessical[ei]"
         r"|lexical resources?|classi|classes|propriet[aà]|propert(y|ies)|predicat[ie]|predicates?|schema)\b", 0.8),
        (r"\b(lemma bank|banca dei lemmi)\b", 0.5),
    ]

    def scope_lemmas(self, frame: Frame) -> None:
        """Scope ``?lemma a lila:Lemma`` to the Lemma Bank graph."""
        base = frame.where.elements[0]
        scoped = GraphBlock(IRI(LIITA_GRAPH), Group([base]))
        frame.where.elements[0] = scoped
        frame.base = [scoped if b is base else b for b in frame.base]
        frame.fragments.append(frag("scope", "nel grafo della Lemma Bank (<http://liita.it/data>)",
                                    "in the Lemma Bank graph (<http://liita.it/data>)",
                                    "nel grafo <http://liita.it/data>", "in the graph <http://liita.it/data>"))
        frame.slot("graph", LIITA_GRAPH, "http://liita.it/data", "http://liita.it/data")
        frame.tag(self.label, 0.7)

    def variants(self, facts: Facts) -> list[dict]:
        graphs = sorted(r[0] for r in facts.rows.get("graphs", []))
        out = [{"kind": "list"}, {"kind": "sizes"}, {"kind": "lemma_graphs"}]
        out += [{"kind": "classes", "graph": g} for g in graphs]
        out += [{"kind": "properties", "graph": g} for g in graphs]
        return out

    def build(self, slots: dict, rng: random.Random):
        kind = slots["kind"]
        g, s, p, o = Var("g"), Var("s"), Var("p"), Var("o")
        mentions: list[tuple[str, str]] = []
        group_by, order, distinct = [], [], True
        if kind == "list":
            # GRAPH ?g {} binds every named graph without scanning its triples
            proj, where, order = [g], Group([GraphBlock(g, Group([]))]), [g]
            f = frag("standalone", ["Quali grafi nominati ci sono nella base di conoscenza?", "Elenca i grafi di LiITA."],
                     ["Which named graphs does the knowledge base contain?", "List the graphs of LiITA."],
                     "Elenca i named graph (GRAPH ?g) che contengono almeno una tripla.",
                     "List the named graphs (GRAPH ?g) holding at least one triple.")
            mentions.append(("grafi", "graphs"))
        elif kind == "sizes":
            proj = [g, (Call("COUNT", ()), Var("triples"))]
            where, group_by, order, distinct = Group([GraphBlock(g, Group([Triple(s, p, o)]))]), [g], [("DESC", Var("triples")), g], False
            f = frag("standalone", ["Quante triple contiene ciascun grafo?", "Quanto è grande ogni grafo di LiITA?"],
                     ["How many triples does each graph hold?", "How large is each LiITA graph?"],
                     "Conta le triple per named graph.", "Count the triples per named graph.")
            mentions.append(("grafo", "graph"))
        elif kind == "lemma_graphs":
            proj, order = [g], [g]
            where = Group([GraphBlock(g, Group([Triple(s, IRI.of("rdf:type"), IRI.of("lila:Lemma"))]))])
            f = frag("standalone", ["In quali grafi ci sono lemmi (lila:Lemma)?", "Quali grafi contengono lemmi?"],
                     ["Which graphs contain lemmas (lila:Lemma)?", "In which graphs are there lemmas?"],
                     "Trova i named graph con istanze di lila:Lemma.", "Find the named graphs with lila:Lemma instances.")
            mentions.append(("grafi", "graphs"))
        else:
            graph = slots["graph"]
            what = Var("class") if kind == "classes" else p
            triple = Triple(s, IRI.of("rdf:type"), what) if kind == "classes" else Triple(s, p, o)
            proj, order = [what], [what]
            where = Group([GraphBlock(IRI(graph), Group([triple]))])
            it, en = ("classi", "classes") if kind == "classes" else ("proprietà", "properties")
            f = frag("standalone", [f"Quali {it} sono usate nel grafo <{graph}>?", f"Che {it} compaiono nel grafo <{graph}>?"],
                     [f"Which {en} are used in the graph <{graph}>?", f"What {en} appear in the graph <{graph}>?"],
                     f"Elenca le {it} distinte in GRAPH <{graph}>.", f"List the distinct {en} in GRAPH <{graph}>.")
            mentions.append((graph, graph))
        query = Select(proj, where, distinct=distinct, group_by=group_by, order_by=order)
        return query, [f], {self.label: 0.9}, mentions

    def sparql_weight(self, f) -> float:
        if f.graph_variable:
            return 0.9
        if f.graphs:
            return 0.7
        return 0.0


PATTERN = MetaGraph()
