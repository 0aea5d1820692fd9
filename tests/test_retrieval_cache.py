"""Pool reading and the on-disk index cache of the retriever (reuse, invalidation, corruption)."""

from __future__ import annotations

import json

import pytest

import numpy as np

from nl2sparql.errors import DataError
from nl2sparql.translate.embed_cache import embed_texts, text_cache
from nl2sparql.translate.index_cache import cache_dir_for, load_or_build, read_pool
from nl2sparql.translate.retrieval import HybridRetriever

from test_retrieval import ITEMS, BowEmbedder, stub_detector


def write_jsonl(path, items):
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Each test starts with an empty project cache (the question vectors cached by text live there)."""
    monkeypatch.setenv("NL2SPARQL_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def pool(tmp_path):
    return write_jsonl(tmp_path / "pool.jsonl", ITEMS)


def test_read_pool_jsonl_and_json_array(tmp_path, pool):
    items, digest = read_pool(pool)
    assert [i["id"] for i in items] == [i["id"] for i in ITEMS] and len(digest) == 64
    array = tmp_path / "pool.json"
    array.write_text(json.dumps(ITEMS), encoding="utf-8")
    assert read_pool(array)[0] == items


def test_read_pool_reports_bad_lines(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"nl": "ok"}\n\n{not json}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.jsonl line 3"):
        read_pool(bad)
    bad.write_text('["a question"]', encoding="utf-8")
    with pytest.raises(DataError, match="not a JSON object"):
        read_pool(bad)


def test_second_build_loads_from_disk_without_embedding(pool):
    first = BowEmbedder()
    r1 = HybridRetriever.from_pools([pool], embedder=first, pattern_detector=stub_detector)
    assert first.calls > 0 and r1.index.from_cache == {"lexical": False, "dense": False}
    assert cache_dir_for(pool).is_dir()
    second = BowEmbedder()
    r2 = HybridRetriever.from_pools([pool], embedder=second, pattern_detector=stub_detector)
    assert r2.index.from_cache == {"lexical": True, "dense": True}
    question = "Quanti sostantivi ci sono?"
    # Only the question itself is embedded by the second retriever.
    assert second.texts == 0
    hits1, hits2 = r1.retrieve(question), r2.retrieve(question)
    assert second.texts == 1
    assert [(h.item["id"], h.score) for h in hits1] == [(h.item["id"], h.score) for h in hits2]
    assert r1.index_key == r2.index_key
    assert hits2[0].pool == str(pool)


def test_changed_pool_rebuilds_and_prunes_stale_files(pool):
    HybridRetriever.from_pools([pool], embedder=BowEmbedder())
    before = HybridRetriever.from_pools([pool], embedder=BowEmbedder()).index_key
    write_jsonl(pool, ITEMS + [{"id": "new", "nl": "Quali verbi sono intransitivi?"}])
    embedder = BowEmbedder()
    retriever = HybridRetriever.from_pools([pool], embedder=embedder)
    assert embedder.calls > 0 and retriever.index_key != before
    assert retriever.retrieve("verbi intransitivi", k=1)[0].item["id"] == "new"
    files = sorted(p.name for p in cache_dir_for(pool).iterdir())
    assert len([f for f in files if f.startswith("lexical-")]) == 1
    assert len([f for f in files if f.startswith("dense-")]) == 1


def test_other_embedder_reuses_lexical_index_only(pool):
    HybridRetriever.from_pools([pool], embedder=BowEmbedder())

    class OtherEmbedder(BowEmbedder):
        name = "test-other"

    other = OtherEmbedder()
    retriever = HybridRetriever.from_pools([pool], embedder=other)
    assert other.calls > 0
    assert retriever.index.from_cache == {"lexical": True, "dense": False}
    lexical_only = HybridRetriever.from_pools([pool], embedder="none")
    assert lexical_only.index.from_cache["lexical"] and lexical_only.embedder is None


def test_corrupt_cache_is_rebuilt(pool):
    HybridRetriever.from_pools([pool], embedder=BowEmbedder())
    for path in [*cache_dir_for(pool).iterdir(), text_cache(BowEmbedder()).path]:
        path.write_bytes(b"definitely not numpy")
    embedder = BowEmbedder()
    retriever = HybridRetriever.from_pools([pool], embedder=embedder)
    assert embedder.calls > 0 and retriever.retrieve("avverbi -mente", k=1)[0].item["id"] == "adv"
    assert HybridRetriever.from_pools([pool], embedder=BowEmbedder()).index.from_cache["dense"]


def test_truncated_dense_cache_is_rebuilt(pool):
    HybridRetriever.from_pools([pool], embedder=BowEmbedder())
    dense = next(p for p in cache_dir_for(pool).iterdir() if p.name.startswith("dense-"))
    dense.write_bytes(dense.read_bytes()[:100])
    embedder = BowEmbedder()
    rebuilt = HybridRetriever.from_pools([pool], embedder=embedder)
    assert not rebuilt.index.from_cache["dense"] and embedder.calls == 0  # rebuilt from the vectors cached by text
    assert HybridRetriever.from_pools([pool], embedder=BowEmbedder()).index.from_cache["dense"]


def test_unwritable_cache_location_warns_but_works(tmp_path, pool):
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    items, index, warnings = load_or_build(pool, BowEmbedder(), cache_root=blocker)
    assert len(items) == len(ITEMS) and index.embeddings is not None
    assert warnings and "could not cache" in warnings[0]


def test_no_cache_writes_nothing(pool):
    HybridRetriever.from_pools([pool], embedder=BowEmbedder(), cache=False)
    assert not cache_dir_for(pool).exists()


def test_several_pools_are_merged(tmp_path, pool):
    extra = write_jsonl(tmp_path / "extra.jsonl", [
        {"id": "syn", "nl": "Quali sono i sinonimi di 'casa'?", "patterns": {"SEMANTIC_RELATION": 0.9}}])
    array = tmp_path / "array.json"
    array.write_text(json.dumps([{"id": "ipo", "nl": "Quali sono gli iponimi di 'animale'?"}]), encoding="utf-8")
    retriever = HybridRetriever.from_pools([pool, extra, array], embedder=BowEmbedder())
    assert len(retriever) == len(ITEMS) + 2
    hit = retriever.retrieve("sinonimi di casa", k=1)[0]
    assert hit.item["id"] == "syn" and hit.pool == str(extra)
    assert retriever.retrieve("iponimi animale", k=1)[0].item["id"] == "ipo"
    alone = HybridRetriever.from_pools([pool], embedder=BowEmbedder())
    assert alone.index_key != retriever.index_key
    assert alone.index.from_cache["dense"]  # each pool keeps its own cache


def test_from_pools_without_pools_is_an_error():
    with pytest.raises(DataError, match="--pool"):
        HybridRetriever.from_pools([])


def test_questions_embedded_before_are_not_embedded_again(tmp_path, pool):
    first = BowEmbedder()
    HybridRetriever.from_pools([pool], embedder=first)
    grown = write_jsonl(tmp_path / "grown.jsonl", ITEMS + [{"id": "new", "nl": "Quali verbi sono intransitivi?"}])
    second = BowEmbedder()
    retriever = HybridRetriever.from_pools([grown], embedder=second)
    assert second.texts == 1  # only the new question: the others come from the cache by text
    assert retriever.retrieve("verbi intransitivi", k=1)[0].item["id"] == "new"
    again = write_jsonl(tmp_path / "again.jsonl", ITEMS[::-1])
    third = BowEmbedder()
    HybridRetriever.from_pools([again], embedder=third, cache=False)
    assert third.texts > 0  # cache=False: nothing read or written


def test_identical_questions_are_embedded_once_and_rounded_like_the_stored_ones():
    embedder = BowEmbedder()
    texts = ["Quali verbi?", "Quanti nomi?", "Quali verbi?"]
    vectors = embed_texts(embedder, texts)
    assert embedder.texts == 2 and vectors.dtype == np.float32
    assert np.array_equal(vectors[0], vectors[2])
    fresh = BowEmbedder().encode(texts[:1])[0]
    assert np.array_equal(vectors[0], fresh.astype(np.float16).astype(np.float32))
    assert np.abs(vectors[0] - fresh).max() < 1e-3
