"""META_GRAPH: the named graphs of the KB, what they contain, and GRAPH-scoped lemmas."""

from __future__ import annotations

import random
import re

from ..namespaces import (COMPLIT_LINKS_GRAPH, COMPLIT_SERVICE, ELITA_GRAPH, LIITA_GRAPH, PARMIGIANO_GRAPH,
                          SENTIX_GRAPH, SICILIANO_GRAPH)
from ..rules import Breach, Parsed, Rule
from ..sparql.lexer import apply_edits, tokenize
from ..sparql.model import IRI, Call, GraphBlock, Group, Select, Triple, Values, Var
from .base import Facts, Frame, frag
from .pattern import StandalonePattern
from .reading import Text, reads

#: How questions name a graph (folded regex → graph IRI).
GRAPH_NAMES = (
    (r"lemma ?bank|banca dei lemmi|liita\.it/data\b", LIITA_GRAPH),
    (r"\belita\b", ELITA_GRAPH),
    (r"\bsentix\b", SENTIX_GRAPH),
    (r"\bparmigian\w*|\bparma\b", PARMIGIANO_GRAPH),
    (r"\bsicilian\w*", SICILIANO_GRAPH),
    (r"\bcollegament\w* (?:a|con) compl-?it|\bcompl-?it links?\b|\blinks? to compl-?it", COMPLIT_LINKS_GRAPH),
    (r"\bcompl-?it\b", COMPLIT_SERVICE),
    (r"\bmorpholog\w*|\bmorfologi\w*", "http://liita.it/data/morphology"),
)

#: Graph IRI → how plain questions name it: (Italian after «nel grafo», English before "graph").
GRAPH_LABELS = {
    LIITA_GRAPH: ("della Lemma Bank", "Lemma Bank"),
    ELITA_GRAPH: ("di ELITA", "ELITA"),
    SENTIX_GRAPH: ("di Sentix", "Sentix"),
    PARMIGIANO_GRAPH: ("del parmigiano", "Parmigiano"),
    SICILIANO_GRAPH: ("del siciliano", "Sicilian"),
    COMPLIT_LINKS_GRAPH: ("dei collegamenti a CompL-it", "CompL-it links"),
    "http://liita.it/data/morphology": ("della morfologia", "morphology"),
}

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
    compose = {"scope": 1}
    slot_fields = {"graph_scope": False, "graph": None}
    question_cues = [
        (r"\b(graf[oi]|graphs?|named graphs?|dataset|sorgent[ei]|sources?|risors[ae] lessical[ei]"
         r"|lexical resources?|classi|classes|propriet[aà]|propert(y|ies)|predicat[ie]|predicates?|schema)\b", 0.8),
        (r"\b(lemma bank|banca dei lemmi)\b", 0.5),
    ]

    @reads(120)
    def read_scope(self, text: Text, slots) -> None:
        """Lemmas of the Lemma Bank graph: its IRI, "the Lemma Bank graph", or "the nouns of the Lemma Bank"."""
        for iri in slots.iris:
            if iri.rstrip("/") == LIITA_GRAPH:
                slots.graph_scope = True
        if text.has(r"\b(?:grafo della lemma bank|lemma bank graph)\b"):
            slots.graph_scope = True
        elif slots.pos and not slots.dialects and text.has(r"\b(?:lemma ?bank|banca dei lemmi)\b"):
            # "the nouns of the Lemma Bank": the Italian lemmas only, not the dialect banks' lila:Lemma
            slots.graph_scope = True

    @reads(130)
    def read_whole(self, text: Text, slots) -> None:
        """Graph listings: which graphs, how large, their classes or properties, where the lemmas are."""
        f = text.folded
        if not re.search(r"\b(?:graf[oi]|graphs?|named graphs?|dataset)\b", f):
            return
        if (slots.count or slots.pos) and not re.search(r"\b(?:graf[oi]|graphs?)\b", f):
            return  # "how many verbs are there in the lemma dataset": the dataset only says where
        graph = self._graph_named(slots, f)
        if re.search(r"\b(?:quante triple|how many triples|conta le triple|count the triples|quanto e grande|"
                     r"how (?:large|big)|dimension\w*|size)\b", f):
            slots.standalone = (self.label, {"kind": "sizes"})
        elif re.search(r"\b(?:classi|classes)\b", f) and graph:
            slots.standalone = (self.label, {"kind": "classes", "graph": graph})
        elif re.search(r"\b(?:proprieta|properties|predicat[ie]|predicates)\b", f) and graph:
            slots.standalone = (self.label, {"kind": "properties", "graph": graph})
        elif re.search(r"\b(?:lemmi|lemmas|lila:lemma|lemma)\b", f) and not slots.graph_scope:
            slots.standalone = (self.label, {"kind": "lemma_graphs"})
        elif not (slots.graph_scope or slots.affixes or slots.emotions or slots.pos):
            slots.standalone = (self.label, {"kind": "list"})
        if slots.standalone:
            slots.graph = graph

    @staticmethod
    def _graph_named(slots, folded: str) -> str | None:
        for iri in slots.iris:
            if "://" in iri:
                return iri
        m = re.search(r"\b(?:grafo|graph)\b(.{0,40})", folded)
        around = (m.group(1) if m else "") + " " + folded[max(0, (m.start() if m else 0) - 30):(m.start() if m else 0)]
        for pattern, iri in GRAPH_NAMES:
            if re.search(pattern, around):
                return iri
        return None

    def scope_steps(self, slots, shape: str) -> list[dict]:
        return [{"graph": LIITA_GRAPH}] if slots.graph_scope and shape in ("list", "count") else []

    def scope(self, frame: Frame, values: dict) -> None:
        self.scope_lemmas(frame)

    def compose_scope(self, frame: Frame, rng: random.Random) -> None:
        """One list or count in ten is scoped to the Lemma Bank graph.

        The composer offers it only to compositions that can reach dialect lemmas (string and part-of-speech
        tests): every resource block already confines the lemmas to the Italian bank, so there the graph
        would filter nothing.
        """
        if frame.shape != "word" and rng.random() < 0.1:
            self.scope_lemmas(frame)

    def scope_lemmas(self, frame: Frame) -> None:
        """Scope ``?lemma a lila:Lemma`` to the Lemma Bank graph."""
        base = frame.where.elements[0]
        scoped = GraphBlock(IRI(LIITA_GRAPH), Group([base]))
        frame.where.elements[0] = scoped
        frame.base = [scoped if b is base else b for b in frame.base]
        frame.fragments.append(frag("scope", "nel grafo della Lemma Bank", "in the Lemma Bank graph",
                                    f"nel grafo <{LIITA_GRAPH}>", f"in the graph <{LIITA_GRAPH}>"))
        frame.slot("graph", LIITA_GRAPH, "Lemma Bank", "Lemma Bank")
        frame.tag(self.label, 0.7)

    def variants(self, facts: Facts) -> list[dict]:
        graphs = sorted(r[0] for r in facts.rows.get("graphs", []) if r[0] in GRAPH_LABELS)  # graphs a question can name
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
                     "List the named graphs (GRAPH ?g) holding at least one triple.",
                     ling=("Da quali grafi nominati è composto il dataset di LiITA?",
                           "Which named graphs make up the LiITA dataset?"))
            mentions.append(("grafi", "graphs"))
        elif kind == "sizes":
            proj = [g, (Call("COUNT", ()), Var("triples"))]
            where, group_by, order, distinct = Group([GraphBlock(g, Group([Triple(s, p, o)]))]), [g], [("DESC", Var("triples")), g], False
            f = frag("standalone", ["Quante triple contiene ciascun grafo?", "Quanto è grande ogni grafo di LiITA?"],
                     ["How many triples does each graph hold?", "How large is each LiITA graph?"],
                     "Conta le triple per named graph (GRAPH ?g, COUNT(*)).",
                     "Count the triples per named graph (GRAPH ?g, COUNT(*)).",
                     ling=("Qual è la dimensione in triple di ciascun grafo del dataset?",
                           "What is the size in triples of each graph of the dataset?"))
            mentions.append(("grafo", "graph"))
        elif kind == "lemma_graphs":
            proj, order = [g], [g]
            where = Group([GraphBlock(g, Group([Triple(s, IRI.of("rdf:type"), IRI.of("lila:Lemma"))]))])
            f = frag("standalone", ["In quali grafi ci sono lemmi?", "Quali grafi contengono lemmi?"],
                     ["Which graphs contain lemmas?", "In which graphs are there lemmas?"],
                     "Trova i named graph con istanze di lila:Lemma.", "Find the named graphs with lila:Lemma instances.",
                     ling=("Quali grafi del dataset descrivono lemmi?", "Which graphs of the dataset describe lemmas?"))
            mentions.append(("grafi", "graphs"))
        else:
            graph = slots["graph"]
            it_name, en_name = GRAPH_LABELS.get(graph, (f"<{graph}>", f"<{graph}>"))
            what = Var("class") if kind == "classes" else p
            triple = Triple(s, IRI.of("rdf:type"), what) if kind == "classes" else Triple(s, p, o)
            proj, order = [g, what], [what]  # the graph asked about, then its classes or properties
            where = Group([Values(g, [IRI(graph)]), GraphBlock(g, Group([triple]))])
            it, en = ("classi", "classes") if kind == "classes" else ("proprietà", "properties")
            f = frag("standalone", [f"Quali {it} sono usate nel grafo {it_name}?", f"Che {it} compaiono nel grafo {it_name}?"],
                     [f"Which {en} are used in the {en_name} graph?", f"What {en} appear in the {en_name} graph?"],
                     f"Elenca le {it} distinte in GRAPH <{graph}>.", f"List the distinct {en} in GRAPH <{graph}>.",
                     ling=(f"Quali {it} descrivono i dati del grafo {it_name}?",
                           f"Which {en} describe the data of the {en_name} graph?"))
            mentions.append((it_name.split()[-1], en_name.split()[0]))
        query = Select(proj, where, distinct=distinct, group_by=group_by, order_by=order)
        return query, [f], {self.label: 0.9}, mentions

    def sparql_weight(self, f) -> float:
        if f.graph_variable:
            return 0.9
        if f.graphs:
            return 0.7
        return 0.0


PATTERN = MetaGraph()
