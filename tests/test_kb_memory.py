"""Copying an on-disk store into memory (``open_kb(memory=True)``, ``run --memory``) and answering in workers."""

from __future__ import annotations

import json
from functools import partial

import pyoxigraph as ox
import pytest

from nl2sparql.errors import DataError, QueryError
from nl2sparql.kb import open_kb
from nl2sparql.kb.embedded import EmbeddedKB
from nl2sparql.kb.memory import copy_to_memory
from nl2sparql.operators.execution_filter import answer_signature, verdict
from nl2sparql.paths import sample_files

QUERIES = [
    "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
    "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g",
    "SELECT ?l ?wr WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr } ORDER BY ?wr ?l LIMIT 50",
    "SELECT ?w ?def WHERE { SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> "
    "{ ?w ontolex:sense ?s . ?s skos:definition ?def } } ORDER BY ?w ?def LIMIT 20",
]


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "sample"
    EmbeddedKB.build(path, sample_files(), progress=False)
    return path


def _signatures(kb) -> list[str]:
    return [answer_signature(kb.execute(q)) for q in QUERIES]


def test_the_memory_copy_answers_as_the_store_on_disk(sample_store):
    with open_kb(store=sample_store) as disk, open_kb(store=sample_store, memory=True) as mem:
        assert mem.path is None and disk.path is not None
        assert mem.description == f"store:{sample_store} (in memory)"
        assert _signatures(mem) == _signatures(disk)
        assert disk.select(QUERIES[0]).rows[0][0].value != "0"


def test_the_copy_keeps_every_quad(sample_store):
    disk = ox.Store.read_only(str(sample_store))
    mem = copy_to_memory(disk)  # the default graph copied as it is
    assert set(mem) == set(disk)
    meta = json.loads((sample_store / "nl2sparql-store.json").read_text())
    union = {g.value for g in disk.named_graphs() if g.value not in meta["service_graphs"]}
    assert set(copy_to_memory(disk, union)) == set(disk)  # the default graph rebuilt from the data graphs


def test_blank_nodes_shared_across_graphs_survive_the_copy(tmp_path):
    disk_path = tmp_path / "bnodes"
    store = ox.Store(str(disk_path))
    b = ox.BlankNode("shared")
    p, o = ox.NamedNode("http://example.org/p"), ox.NamedNode("http://example.org/o")
    for g in ("http://example.org/g1", "http://example.org/g2"):
        store.add(ox.Quad(b, p, o, ox.NamedNode(g)))
    store.flush()
    del store
    mem = copy_to_memory(ox.Store.read_only(str(disk_path)))
    ask = "ASK { GRAPH <http://example.org/g1> { ?b ?p ?o } GRAPH <http://example.org/g2> { ?b ?p ?o } }"
    assert mem.query(ask)


@pytest.mark.parametrize("text", ["x", "_:x"])  # "_:" in a literal: copied the slow way, still exact
def test_copies_of_many_graphs_are_exact(tmp_path, text):
    """More graphs than dump threads, with the default graph copied or rebuilt as the union."""
    disk_path = tmp_path / "many"
    store = ox.Store(str(disk_path))
    p = ox.NamedNode("http://example.org/p")
    graphs = [f"http://example.org/g{i}" for i in range(7)]
    for i, g in enumerate(graphs):
        for k in range(50):
            quad = ox.Quad(ox.NamedNode(f"http://example.org/s{k}"), p, ox.Literal(f"{text} {i} {k}"), ox.NamedNode(g))
            store.add(quad)
            store.add(ox.Quad(quad.subject, quad.predicate, quad.object, ox.DefaultGraph()))
    store.flush()
    del store
    disk = ox.Store.read_only(str(disk_path))
    for dumpers in (1, 2, 3):
        assert set(copy_to_memory(disk, set(graphs), dumpers=dumpers)) == set(disk)
        assert set(copy_to_memory(disk, dumpers=dumpers)) == set(disk)


class _FailingDisk:
    """A store whose third dump fails."""

    def __init__(self):
        self.dumps = 0

    def named_graphs(self):
        return [ox.NamedNode(f"http://example.org/g{i}") for i in range(6)]

    def dump(self, format, from_graph):
        self.dumps += 1
        if self.dumps == 3:
            raise OSError("disk gone")
        return f"<http://example.org/s> <http://example.org/p> <{from_graph.value}> .\n".encode()


def test_a_failing_dump_is_raised_not_hung():
    with pytest.raises(OSError, match="disk gone"):
        copy_to_memory(_FailingDisk(), union_graphs=set())


def test_a_store_too_large_for_the_free_memory_is_one_clear_error(sample_store, monkeypatch):
    monkeypatch.setattr("nl2sparql.kb.memory.store_bytes", lambda path: 1 << 50)
    with pytest.raises(DataError, match="too large to copy into the free memory; run without --memory"):
        open_kb(store=sample_store, memory=True)


def test_digest_runs_in_the_worker_and_returns_only_its_result(sample_kb):
    query = "SELECT ?l WHERE { ?l a lila:Lemma } LIMIT 7"
    reason, rows, signature = sample_kb.digest(query, partial(verdict, limit=1000))
    assert (reason, rows) == (None, 7) and signature == answer_signature(sample_kb.execute(query))
    assert sample_kb.digest(query, partial(verdict, limit=5))[0] == "oversized"
    with pytest.raises(QueryError, match="ZeroDivisionError"):
        sample_kb.digest(query, _broken)


def _broken(table):
    return 1 / 0
