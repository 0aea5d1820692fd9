"""The first scan of Oxigraph's plan (sparql/plan.py) and the composer's use of it."""

from __future__ import annotations

import time

from nl2sparql.kb.scans import ScanSizes
from nl2sparql.namespaces import COMPLIT_SERVICE, LIITA_GRAPH
from nl2sparql.sparql.model import IRI, Filter, GraphBlock, Group, Lit, Path, Select, Service, Triple, Values, Var
from nl2sparql.sparql.plan import Scan, first_scan

LEMMA, WR, E = Var("lemma"), Var("wr"), Var("entry")
IS_LEMMA = Triple(LEMMA, IRI.of("rdf:type"), IRI.of("lila:Lemma"))
HAS_WR = Triple(LEMMA, IRI.of("ontolex:writtenRep"), WR)
NOUN = Triple(LEMMA, IRI.of("lila:hasPOS"), IRI.of("lila:noun"))


def select(*elements) -> Select:
    return Select([LEMMA], Group(list(elements)))


def test_values_block_is_the_start():
    scan = first_scan(select(IS_LEMMA, HAS_WR, Values(WR, [Lit("cane", "it")])))
    assert scan == Scan(rows=1)


def test_constant_object_beats_open_triples_and_first_written_wins_ties():
    assert first_scan(select(HAS_WR, NOUN, IS_LEMMA)).obj == "lila:noun"
    assert first_scan(select(HAS_WR, IS_LEMMA, NOUN)).obj == "lila:Lemma"


def test_open_triple_when_nothing_is_constant():
    scan = first_scan(select(Triple(E, IRI.of("elita:HasEmotion"), Var("emotion")), HAS_WR))
    assert scan.predicate == "<http://w3id.org/elita/HasEmotion>" and scan.obj is None and scan.graph is None


def test_service_triples_join_the_plan_but_filtered_graph_blocks_do_not():
    defs = Group([Triple(Var("sense"), IRI.of("skos:definition"), Var("d")),
                  Triple(Var("sense"), IRI.of("rdf:type"), IRI.of("ontolex:LexicalSense")),
                  Filter(Var("d"))])
    scan = first_scan(select(HAS_WR, Service(IRI(COMPLIT_SERVICE), defs)))
    assert scan.service == COMPLIT_SERVICE and scan.obj == "ontolex:LexicalSense"
    scan = first_scan(select(HAS_WR, GraphBlock(IRI(COMPLIT_SERVICE), defs)))
    assert scan.service is None and scan.predicate.endswith("writtenRep>")


def test_graph_block_and_paths():
    scan = first_scan(select(GraphBlock(IRI(LIITA_GRAPH), Group([IS_LEMMA])), HAS_WR))
    assert scan.graph == LIITA_GRAPH and "GRAPH <" in scan.count_query()
    hyper = Triple(LEMMA, Path("+", (IRI.of("lexinfo:hyponym"),)), Var("h"))
    assert first_scan(select(hyper, HAS_WR)).predicate.endswith("writtenRep>")


def test_scan_sizes_count_on_the_kb_once(sample_kb):
    sizes = ScanSizes(sample_kb)
    lemmas = sizes.rows(first_scan(select(HAS_WR, IS_LEMMA)))
    assert lemmas == len(sample_kb.select("SELECT ?l WHERE { ?l a lila:Lemma }", max_rows=100_000))
    definitions = Group([Triple(Var("sense"), IRI.of("skos:definition"), Var("d"))])
    assert sizes.rows(first_scan(select(Service(IRI(COMPLIT_SERVICE), definitions)))) == 587
    assert sizes.rows(Scan(rows=3)) == 3
    start = time.perf_counter()
    assert sizes.rows(first_scan(select(IS_LEMMA))) == lemmas  # remembered, not asked again
    assert time.perf_counter() - start < 0.01
    assert len(sizes.counted) == 2


def test_composer_draws_fewer_queries_that_start_from_a_large_scan(sample_kb):
    from nl2sparql.patterns.compose import Composer
    from translate_helpers import sample_facts

    facts, sizes = sample_facts(sample_kb), ScanSizes(sample_kb)

    def drawn(max_scan: int):
        composer = Composer(facts, seed=3, max_rows=1000, scan_rows=sizes.rows, max_scan=max_scan)
        results = [composer.draw(i) for i in range(300)]
        return [c for c in results if not isinstance(c, str)], results.count("slow_scan")

    unlimited, refused = drawn(0)
    # only a graph listing (GRAPH ?g { }) has no scan to start from
    assert refused == 0 and all(c.scan_rows is not None or "GRAPH ?g { }" in c.sparql for c in unlimited)
    unlimited = [c for c in unlimited if c.scan_rows is not None]
    large = sum(c.scan_rows > 100 for c in unlimited) / len(unlimited)
    limited, refused = drawn(100)
    assert large > 0.15 and refused > 0
    limited = [c for c in limited if c.scan_rows is not None]
    assert sum(c.scan_rows > 100 for c in limited) / len(limited) < large / 2
    # the draws that pass are the same queries as without the limit (same seed, same index)
    assert {c.cid for c in limited} <= {c.cid for c in unlimited}
