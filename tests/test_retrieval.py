"""Tokenisation, BM25, scoring and fallbacks of the hybrid example retriever (fast, no USE)."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from nl2sparql.errors import ConfigError, DataError
from nl2sparql.translate.bm25 import BM25Index, TokenTable
from nl2sparql.translate.embedders import get_embedder, normalize_rows
from nl2sparql.translate.retrieval import HybridRetriever
from nl2sparql.translate.text import item_texts, light_stem, split_words, tokenize


class BowEmbedder:
    """A tiny deterministic bag-of-words embedder that counts its calls."""

    name = "test-bow"
    dim = 64

    def __init__(self):
        self.calls = 0
        self.texts = 0

    def encode(self, texts):
        self.calls += 1
        self.texts += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in split_words(text):
                out[row, zlib.crc32(word.encode()) % self.dim] += 1.0
        return normalize_rows(out)


def stub_detector(question: str) -> dict[str, float]:
    """Keyword stand-in for the real pattern detector."""
    q = question.lower()
    found = {}
    if any(w in q for w in ("emozion", "emotion", "gioia", "joy", "paura")):
        found["EMOTION_LEXICON"] = 0.9
    if any(w in q for w in ("quant", "how many", "count", "conta")):
        found["COUNT_ENTITIES"] = 0.8
    return found


ITEMS = [
    {"id": "emo", "nl": "Quali lemmi esprimono gioia?", "nl_en": "Which lemmas express joy?",
     "nl_variants": {"generic": "Trova le parole associate all'emozione gioia."},
     "patterns": {"EMOTION_LEXICON": 0.9, "POS_FILTER": 0.3}},
    {"id": "count", "nl": "Quanti sostantivi ci sono nel lessico?", "nl_en": "How many nouns are in the lexicon?",
     "patterns": {"COUNT_ENTITIES": 1.0, "POS_FILTER": 0.6}},
    {"id": "adv", "nl": "Quali avverbi finiscono in -mente?", "nl_en": "Which adverbs end in -mente?",
     "patterns": {"MORPHO_REGEX": 0.9, "POS_FILTER": 0.8}},
    {"id": "trans", "nl": "Qual è la traduzione siciliana di 'acqua'?",
     "nl_en": "What is the Sicilian translation of 'acqua'?", "patterns": {"TRANSLATION": 0.9}},
    {"id": "parte", "nl": "Elenca le parti del discorso dei lemmi.", "patterns": {"POS_FILTER": 0.9}},
]


# -- tokenisation --------------------------------------------------------------------------------

def test_accents_are_folded_but_words_kept():
    assert split_words("Perché È così?") == ["perche", "e", "cosi"]
    assert tokenize("perché", stem=False) == []  # an Italian stopword once folded
    assert tokenize("Università città", stem=False) == ["universita", "citta"]


def test_apostrophes_split_words():
    assert split_words("dell'acqua") == ["dell", "acqua"]
    assert split_words("l\u2019anno dell\u2019Italia") == ["l", "anno", "dell", "italia"]
    assert tokenize("dell'acqua", stem=False) == ["acqua"]


def test_hyphens_and_punctuation_split():
    assert split_words("-mente, (suffisso) e_poi 42") == ["mente", "suffisso", "e", "poi", "42"]


def test_stopwords_both_languages_but_negation_kept():
    assert tokenize("Which are the nouns of the lexicon", stem=False) == ["nouns", "lexicon"]
    assert tokenize("Quali sono i sostantivi del lessico", stem=False) == ["sostantivi", "lessico"]
    assert "non" in tokenize("lemmi che non hanno traduzione", stem=False)
    assert "not" in tokenize("lemmas that do not have a translation", stem=False)


def test_light_stemming_merges_plural_and_gender():
    assert light_stem("sostantivi") == light_stem("sostantivo") == "sostantiv"
    assert light_stem("lemmas") == light_stem("lemmi") == light_stem("lemma") == "lemm"
    assert light_stem("emotions") == "emotion"
    assert light_stem("cane") == "cane"  # short words stay whole
    assert light_stem("class") == "class" and light_stem("2024") == "2024"


def test_no_substring_accidents():
    assert "art" not in tokenize("particolare parte")
    assert tokenize("parte")[0] != tokenize("arte")[0]
    retriever = HybridRetriever(ITEMS, embedder="none")
    hits = retriever.retrieve("arte", k=5)
    assert all(hit.components["bm25"] == 0.0 for hit in hits)


def test_tokenize_is_deterministic():
    text = "Quali sono le forme flesse del verbo 'essere' nell'italiano antico?"
    assert tokenize(text) == tokenize(text)


def test_item_texts_collects_all_questions_once():
    item = {"nl": "A?", "nl_en": "B?", "nl_variants": {"generic": "C?", "linguist": "A?"},
            "nl_en_variants": {"generic": " D? "}, "sparql": "SELECT * {}"}
    assert item_texts(item) == ["A?", "B?", "C?", "D?"]
    assert item_texts(item, ("nl",)) == ["A?"]
    assert item_texts({"nl": "", "nl_variants": None}) == []


# -- BM25 ----------------------------------------------------------------------------------------

def _corpus(seed=3):
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(30)]
    return [[rng.choice(words[: rng.randint(2, 30)]) for _ in range(rng.randint(0, 10))]
            for _ in range(200)]


@pytest.mark.parametrize("query", [["w1", "w2"], ["w0", "w0", "unknown"], ["w29"], []])
def test_bm25_matches_rank_bm25(query):
    docs = _corpus()
    reference = BM25Okapi(docs).get_scores(query)
    ours = BM25Index(TokenTable.from_docs(docs)).scores(query)
    np.testing.assert_allclose(ours, reference, rtol=1e-12, atol=1e-12)


def test_bm25_over_concatenated_tables_matches_single_table():
    docs = _corpus(7)
    whole = BM25Index(TokenTable.from_docs(docs)).scores(["w3", "w5"])
    parts = TokenTable.concat([TokenTable.from_docs(docs[:50]), TokenTable.from_docs(docs[50:120]),
                               TokenTable.from_docs(docs[120:])])
    np.testing.assert_allclose(BM25Index(parts).scores(["w3", "w5"]), whole)


def test_bm25_empty_corpus():
    assert BM25Index(TokenTable.from_docs([])).scores(["x"]).shape == (0,)


# -- scoring -------------------------------------------------------------------------------------

def test_components_are_normalised_and_score_is_their_weighted_sum():
    retriever = HybridRetriever(ITEMS, embedder=BowEmbedder(), pattern_detector=stub_detector)
    assert pytest.approx(sum(retriever.weights.values())) == 1.0
    for question in ("Quanti sostantivi?", "which lemmas express joy", "traduzione in siciliano",
                     "avverbi -mente", "zzz qqq"):
        hits = retriever.retrieve(question, k=5)
        assert len(hits) == 5 and [h.rank for h in hits] == [1, 2, 3, 4, 5]
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        for hit in hits:
            assert 0.0 <= hit.score <= 1.0
            assert all(0.0 <= value <= 1.0 for value in hit.components.values())
            expected = sum(retriever.weights[name] * value for name, value in hit.components.items())
            assert hit.score == pytest.approx(expected)
            assert hit.matched_text in item_texts(hit.item)
        best_bm25 = max(h.components["bm25"] for h in hits)
        assert best_bm25 in (0.0, pytest.approx(1.0))  # divided by the best BM25 score


def test_matched_text_is_the_best_question_of_the_item():
    retriever = HybridRetriever(ITEMS, embedder="none")
    hit = retriever.retrieve("How many nouns are in the lexicon?", k=1)[0]
    assert hit.item["id"] == "count"
    assert hit.matched_text == "How many nouns are in the lexicon?"
    assert hit.components["bm25"] == pytest.approx(1.0)


def test_pattern_component_is_weighted_jaccard():
    retriever = HybridRetriever(ITEMS, embedder="none", pattern_detector=lambda q: {"EMOTION_LEXICON": 0.9})
    hits = {h.item["id"]: h for h in retriever.retrieve("nothing in common", k=5)}
    # min(0.9, 0.9) / (max(0.9, 0.9) + 0.3)
    assert hits["emo"].components["pattern"] == pytest.approx(0.9 / 1.2)
    assert hits["count"].components["pattern"] == 0.0
    assert next(iter(hits)) == "emo"


def test_pattern_boost_breaks_lexical_ties():
    items = [{"id": "a", "nl": "Mostra i lemmi", "patterns": {"POS_FILTER": 0.9}},
             {"id": "b", "nl": "Mostra i lemmi", "patterns": {"COUNT_ENTITIES": 0.9}}]
    plain = HybridRetriever(items, embedder="none")
    assert [h.item["id"] for h in plain.retrieve("mostra lemmi", k=2)] == ["a", "b"]  # pool order on ties
    boosted = HybridRetriever(items, embedder="none", pattern_detector=lambda q: {"COUNT_ENTITIES": 0.8})
    assert [h.item["id"] for h in boosted.retrieve("mostra lemmi", k=2)] == ["b", "a"]


def test_unknown_detected_patterns_lower_the_overlap():
    retriever = HybridRetriever(ITEMS, embedder="none",
                                pattern_detector=lambda q: {"TRANSLATION": 0.9, "NEW_THING": 0.9})
    hit = retriever.retrieve("x", k=1)[0]
    assert hit.item["id"] == "trans" and hit.components["pattern"] == pytest.approx(0.5)


def test_default_weights_and_renormalisation():
    full = HybridRetriever(ITEMS, embedder=BowEmbedder(), pattern_detector=stub_detector)
    assert full.weights == pytest.approx({"dense": 0.4, "bm25": 0.3, "pattern": 0.3})
    no_patterns = HybridRetriever(ITEMS, embedder=BowEmbedder())
    assert no_patterns.weights == pytest.approx({"dense": 0.4 / 0.7, "bm25": 0.3 / 0.7, "pattern": 0.0})
    lexical = HybridRetriever(ITEMS, embedder="none", pattern_detector=stub_detector)
    assert lexical.weights == pytest.approx({"dense": 0.0, "bm25": 0.5, "pattern": 0.5})
    custom = HybridRetriever(ITEMS, embedder=BowEmbedder(), pattern_detector=stub_detector,
                             weights={"dense": 2, "bm25": 1, "pattern": 1})
    assert custom.weights == pytest.approx({"dense": 0.5, "bm25": 0.25, "pattern": 0.25})


def test_bad_weights_are_config_errors():
    with pytest.raises(ConfigError, match="unknown retrieval weight"):
        HybridRetriever(ITEMS, embedder="none", weights={"lexical": 1})
    with pytest.raises(ConfigError, match=">= 0"):
        HybridRetriever(ITEMS, embedder="none", weights={"bm25": -1})
    with pytest.raises(ConfigError, match=">= 0"):
        HybridRetriever(ITEMS, embedder="none", weights={"bm25": "a lot"})


def test_all_zero_active_weights_fall_back_to_bm25():
    retriever = HybridRetriever(ITEMS, embedder="none", weights={"bm25": 0})
    assert retriever.weights["bm25"] == 1.0
    assert any("BM25 only" in w for w in retriever.warnings)


def test_weights_change_the_ranking():
    items = [{"id": "lex", "nl": "zebra giraffa"}, {"id": "pat", "nl": "altro", "patterns": {"P": 1.0}}]
    items += [{"id": f"filler{i}", "nl": f"riempitivo numero {i}"} for i in range(5)]  # idf needs > 2 docs
    detector = lambda q: {"P": 1.0}  # noqa: E731
    lexical = HybridRetriever(items, embedder="none", pattern_detector=detector,
                              weights={"bm25": 0.9, "pattern": 0.1})
    pattern = HybridRetriever(items, embedder="none", pattern_detector=detector,
                              weights={"bm25": 0.1, "pattern": 0.9})
    assert lexical.retrieve("zebra", k=1)[0].item["id"] == "lex"
    assert pattern.retrieve("zebra", k=1)[0].item["id"] == "pat"


def test_candidates_do_not_change_the_top_hits():
    rng = random.Random(5)
    words = "lemma sostantivo verbo aggettivo emozione gioia paura traduzione siciliano forma".split()
    items = [{"id": i, "nl": " ".join(rng.choice(words) for _ in range(5)),
              "patterns": {rng.choice(["A", "B", "C"]): rng.random()}} for i in range(300)]
    exact = HybridRetriever(items, embedder=BowEmbedder(), pattern_detector=lambda q: {"A": 0.7},
                            candidates=10_000)
    narrow = HybridRetriever(items, embedder=BowEmbedder(), pattern_detector=lambda q: {"A": 0.7},
                             candidates=50)
    for question in ("gioia e paura", "forma del verbo", "traduzione siciliano lemma"):
        assert ([h.item["id"] for h in narrow.retrieve(question, k=5)]
                == [h.item["id"] for h in exact.retrieve(question, k=5)])


def test_item_vector_mode_matches_text_vector_mode():
    rng = random.Random(8)
    words = "lemma sostantivo verbo aggettivo emozione gioia paura traduzione siciliano forma".split()
    items = [{"id": i, "nl": " ".join(rng.choice(words) for _ in range(4)),
              "nl_variants": {"generic": " ".join(rng.choice(words) for _ in range(4))}} for i in range(200)]
    texts = HybridRetriever(items, embedder=BowEmbedder(), dense_mode="texts")
    vectors = HybridRetriever(items, embedder=BowEmbedder(), dense_mode="items", candidates=200)
    assert not texts._faiss_items and vectors._faiss_items and vectors._faiss.ntotal == 200
    for question in ("gioia paura", "forma del verbo siciliano", "traduzione lemma"):
        got, want = vectors.retrieve(question, k=5), texts.retrieve(question, k=5)
        assert [h.item["id"] for h in got] == [h.item["id"] for h in want]
        assert [h.score for h in got] == pytest.approx([h.score for h in want])


def test_auto_dense_mode_switches_to_item_vectors_on_large_pools(monkeypatch):
    import nl2sparql.translate.retrieval as retrieval
    assert not HybridRetriever(ITEMS, embedder=BowEmbedder())._faiss_items
    monkeypatch.setattr(retrieval, "AUTO_ITEMS_ABOVE", 3)
    retriever = HybridRetriever(ITEMS, embedder=BowEmbedder())
    assert retriever._faiss_items and retriever._faiss.ntotal == len(ITEMS)
    assert retriever.retrieve("How many nouns are in the lexicon?", k=1)[0].item["id"] == "count"
    with pytest.raises(ConfigError, match="dense mode"):
        HybridRetriever(ITEMS, embedder=BowEmbedder(), dense_mode="hnsw")


# -- fallbacks and edge cases --------------------------------------------------------------------

def test_unknown_sentence_transformers_model_falls_back_to_bm25_and_patterns():
    model, reason = get_embedder("some-org/not-a-cached-model")
    assert model is None and "some-org/not-a-cached-model" in reason
    retriever = HybridRetriever(ITEMS, embedder="some-org/not-a-cached-model", pattern_detector=stub_detector)
    assert retriever.embedder is None
    assert len(retriever.warnings) == 1 and "BM25 + patterns" in retriever.warnings[0]
    assert retriever.weights["dense"] == 0.0
    hits = retriever.retrieve("Quanti sostantivi ci sono?", k=3)
    assert hits[0].item["id"] == "count"
    assert all(h.components["dense"] is None for h in hits)


def test_embedder_none_switches_dense_off():
    retriever = HybridRetriever(ITEMS, embedder="none")
    assert retriever.embedder is None and "switched off" in retriever.warnings[0]


def test_items_without_questions_are_skipped_with_a_warning():
    retriever = HybridRetriever(ITEMS + [{"id": "empty", "sparql": "ASK {}"}], embedder="none")
    assert len(retriever) == len(ITEMS)
    assert any("no question text" in w for w in retriever.warnings)
    assert all(h.item["id"] != "empty" for h in retriever.retrieve("sparql ask", k=10))


def test_empty_pool_and_empty_question():
    assert HybridRetriever([], embedder="none").retrieve("ciao") == []
    with pytest.raises(DataError):
        HybridRetriever(ITEMS, embedder="none").retrieve("   ")


def test_k_larger_than_pool():
    assert len(HybridRetriever(ITEMS, embedder="none").retrieve("lemmi", k=50)) == len(ITEMS)
