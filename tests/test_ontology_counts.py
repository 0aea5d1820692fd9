"""Occurrence counts of catalogue terms, measured on real stores and cached per KB."""

from __future__ import annotations

import json

import pytest

from nl2sparql.errors import QueryError
from nl2sparql.kb import KnowledgeBase
from nl2sparql.kb.embedded import EmbeddedKB
from nl2sparql.ontology import export_catalog
from nl2sparql.ontology.counts import kb_fingerprint, occurrence_counts

SERVICE = "https://klab.ilc.cnr.it/graphdb-compl-it/"
TINY = """@prefix lila: <http://lila-erc.eu/ontologies/lila/> .
@prefix ontolex: <http://www.w3.org/ns/lemon/ontolex#> .
@prefix lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#> .
<http://liita.it/data> {
  <http://liita.it/data/id/lemma/1> a lila:Lemma ; ontolex:writtenRep "uno"@it ; lila:hasPOS lila:noun .
  <http://liita.it/data/id/lemma/2> a lila:Lemma ; ontolex:writtenRep "due"@it ; lila:hasPOS lila:numeral .
}
<https://klab.ilc.cnr.it/graphdb-compl-it/> {
  <http://lexica/mylexicon#USem1uno> lexinfo:hyponym <http://lexica/mylexicon#USem2due> .
}
"""


def _independent_count(kb, triple: str, service: bool = False) -> int:
    body = f"SERVICE <{SERVICE}> {{ {triple} }}" if service else triple
    return int(kb.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {body} }}").rows[0][0].value)


@pytest.fixture
def tiny_kb(tmp_path):
    path = tmp_path / "tiny.trig"
    path.write_text(TINY, encoding="utf-8")
    kb = EmbeddedKB.in_memory([path], description="tiny")
    yield kb
    kb.close()


def test_sample_counts_are_real_numbers_for_the_main_terms(sample_kb, tmp_path):
    counts = occurrence_counts(sample_kb, cache_root=tmp_path)
    assert not counts.errors and not counts.from_cache
    for curie in ["lila:Lemma", "ontolex:writtenRep", "ontolex:canonicalForm", "lila:hasPOS", "elita:HasEmotion",
                  "marl:hasPolarity", "vartrans:translatableAs", "skos:definition", "ontolex:sense",
                  "lexinfo:hypernym", "lexinfo:hyponym", "lexinfo:partMeronym", "ontolex:otherForm",
                  "lexinfo:tense", "complit:antonymGrad", "complit:usedFor", "lila:noun", "elita:Gioia",
                  "marl:Positive", "ontolex:LexicalSense", "ontolex:Word"]:
        assert counts.total(curie) > 0, curie
    assert counts.total("ontolex:MultiwordExpression") == 0  # measured, absent: 0, not unknown
    assert counts.total("no:such") is None


def test_counts_agree_with_independent_queries(sample_kb, tmp_path):
    counts = occurrence_counts(sample_kb, cache_root=tmp_path)
    hyponym = "<http://www.lexinfo.net/ontology/3.0/lexinfo#hyponym>"
    assert counts.by_place["lexinfo:hyponym"] == {
        "outside": 0, "service": _independent_count(sample_kb, f"?s {hyponym} ?o", service=True)}
    lemma = "<http://lila-erc.eu/ontologies/lila/Lemma>"
    assert counts.total("lila:Lemma") == _independent_count(sample_kb, f"?s a {lemma}")
    noun = "<http://www.lexinfo.net/ontology/3.0/lexinfo#noun>"
    assert counts.by_place["lexinfo:noun"] == {"outside": _independent_count(sample_kb, f"?s ?p {noun}"),
                                               "service": _independent_count(sample_kb, f"?s ?p {noun}", True)}


def test_second_call_is_a_cache_hit_written_atomically(sample_kb, tmp_path):
    first = occurrence_counts(sample_kb, cache_root=tmp_path)
    files = list(tmp_path.iterdir())
    assert [f.name for f in files] == [f"{files[0].name}"] and files[0].name.startswith("counts-sample-")
    assert not [f for f in tmp_path.iterdir() if f.name.endswith(".tmp")]
    second = occurrence_counts(sample_kb, cache_root=tmp_path)
    assert second.from_cache and second.by_place == first.by_place and second.path == first.path
    assert json.loads(files[0].read_text(encoding="utf-8"))["fingerprint"] == kb_fingerprint(sample_kb)
    again = occurrence_counts(sample_kb, cache_root=tmp_path, refresh=True)
    assert not again.from_cache and again.by_place == first.by_place


def test_each_kb_has_its_own_counts(sample_kb, tiny_kb, tmp_path):
    sample = occurrence_counts(sample_kb, cache_root=tmp_path)
    tiny = occurrence_counts(tiny_kb, cache_root=tmp_path)
    assert not tiny.from_cache and tiny.path != sample.path
    assert tiny.total("lila:Lemma") == 2 and tiny.total("lila:noun") == 1
    assert tiny.by_place["lexinfo:hyponym"] == {"outside": 0, "service": 1}
    assert tiny.total("elita:HasEmotion") == 0 < sample.total("elita:HasEmotion")
    assert kb_fingerprint(tiny_kb).startswith("content=") and kb_fingerprint(tiny_kb) != kb_fingerprint(sample_kb)


def test_a_corrupt_cache_file_is_measured_again(sample_kb, tmp_path):
    first = occurrence_counts(sample_kb, cache_root=tmp_path)
    for path in tmp_path.iterdir():
        path.write_text("{not json", encoding="utf-8")
    again = occurrence_counts(sample_kb, cache_root=tmp_path)
    assert not again.from_cache and again.by_place == first.by_place
    assert occurrence_counts(sample_kb, cache_root=tmp_path).from_cache


class _NoGroupedQueries(KnowledgeBase):
    """A real KB (the sample) that refuses grouped count queries and one chosen term."""

    description = "picky"

    def __init__(self, inner, refuse: str):
        super().__init__(inner.limits)
        self.inner, self.refuse = inner, refuse

    def _run(self, query, form, timeout, max_rows):
        if "GROUP BY" in query and query.count("<http") > 3:
            raise QueryError("grouped query refused")
        if self.refuse in query:
            raise QueryError("term refused")
        return self.inner._run(query, form, timeout, max_rows)


def test_a_failing_grouped_query_falls_back_to_one_query_per_term(sample_kb, tmp_path):
    kb = _NoGroupedQueries(sample_kb, refuse="http://w3id.org/elita/Paura>")
    counts = occurrence_counts(kb, cache_root=tmp_path)
    expected = occurrence_counts(sample_kb, cache_root=tmp_path / "ok")
    assert counts.total("lexinfo:hyponym") == expected.total("lexinfo:hyponym") > 0
    assert counts.total("lila:Lemma") == expected.total("lila:Lemma")
    assert counts.total("elita:Paura") is None
    assert counts.errors and all("elita:Paura" in e for e in counts.errors)
    assert not list(tmp_path.glob("counts-picky-*"))  # a partial result is not cached


def test_export_with_a_kb_carries_the_counts(sample_kb):
    resource = export_catalog(sample_kb)
    by_curie = {e["curie"]: e for e in resource["entries"]}
    assert resource["counts_kb"] == "sample" and resource["counts_fingerprint"].startswith("content=")
    assert by_curie["lexinfo:hypernym"]["count"] > 0
    assert by_curie["lexinfo:hypernym"]["count_by_place"]["outside"] == 0


@pytest.mark.mirror
def test_mirror_counts_match_the_mirror_manifest(mirror_store, shared_dir, tmp_path):
    from nl2sparql.kb import open_kb

    manifest = json.loads((shared_dir / "liita" / "mirror" / "manifest.json").read_text(encoding="utf-8"))
    relations = manifest["stats"]["complit_relations"]
    kb = open_kb(store=mirror_store)
    try:
        counts = occurrence_counts(kb, cache_root=tmp_path)
    finally:
        kb.close()
    assert not counts.errors
    for name, n in relations.items():
        curie = name.replace("compl-it:", "complit:")
        assert counts.by_place[curie] == {"outside": 0, "service": n}, curie
    assert counts.total("elita:HasEmotion") == manifest["stats"]["elita_HasEmotion"]


def test_counts_over_http_with_an_unreachable_service(monkeypatch):
    """A real SPARQL endpoint on 127.0.0.1 whose SERVICE clauses fail: LiITA counts, bounded retries."""
    from test_kb_remote import Scripted, SparqlServer

    from nl2sparql.kb import Limits
    from nl2sparql.kb.remote import RemoteKB
    from nl2sparql.ontology.counts import GIVE_UP_AFTER

    server = SparqlServer()
    evaluate = server._evaluate
    monkeypatch.setattr(server, "_evaluate", lambda q: Scripted(502, b"no federation here")
                        if q and "SERVICE" in q else evaluate(q))
    server.start()
    try:
        kb = RemoteKB(server.url, limits=Limits(timeout=5), retries=0)
        counts = occurrence_counts(kb, cache=False)
    finally:
        server.stop()
    assert counts.kb == f"endpoint:{server.url}" and counts.fingerprint.endswith("service=?")
    assert counts.by_place["lila:Lemma"] == {"outside": 3, "service": None}
    assert counts.total("lila:Lemma") == 3 and counts.total("lila:verb") == 1
    assert counts.by_place["skos:definition"] == {"outside": 0, "service": None}  # known 0, unknown
    assert any("not counted after" in e for e in counts.errors)
    service_requests = [r for r in server.requests if r.query and "SERVICE" in r.query]
    assert len(service_requests) <= 1 + 3 * (1 + GIVE_UP_AFTER)  # fingerprint + per kind: grouped + tries
