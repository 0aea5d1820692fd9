"""Integrity of the frozen held-out sets in ``bench/heldout`` (issues 11 and 14).

Every gold query runs on the embedded sample and returns what its record
says; ids are unique, the languages balanced, every class of issue 14 is
covered, LIMIT only comes with ORDER BY; every Italian word of the word-pair
list is a lemma of the sample with the stated part of speech; and the files
still match the hashes they were frozen with.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from pathlib import Path

import pytest

from nl2sparql.fileio import iter_jsonl
from nl2sparql.score.query import outer_limit, outer_order_by
from nl2sparql.sparql.rewrite import missing_prefixes

HELDOUT = Path(__file__).resolve().parents[1] / "bench" / "heldout"
SETS = {"translator": ("translator_questions.jsonl", 60), "agent": ("agent_questions.jsonl", 40)}
ISSUE14_CLASSES = {
    "english_concept", "relation_count", "relation_symmetric", "relation_direction",
    "relation_synonym_use", "relation_opposite", "relation_chain", "analytic_distribution",
    "analytic_aggregate", "analytic_intersection", "analytic_comparison", "analytic_presence",
    "analytic_ask", "analytic_topn", "answer_columns", "phrasing",
}
FIELDS = {"id", "lang", "question", "class", "sparql", "expected_rows", "note"}


def _records(name: str) -> list[dict]:
    return [obj for _, obj in iter_jsonl(HELDOUT / SETS[name][0])]


ALL = [(name, rec) for name in SETS for rec in _records(name)]


def test_files_match_their_frozen_hashes():
    lines = (HELDOUT / "FROZEN.sha256").read_text(encoding="utf-8").split("\n")
    frozen = dict(reversed(line.split(None, 1)) for line in lines if line.strip())
    assert set(frozen) == {"translator_questions.jsonl", "agent_questions.jsonl", "en_it_words.tsv"}
    for name, digest in frozen.items():
        actual = hashlib.sha256((HELDOUT / name).read_bytes()).hexdigest()
        assert actual == digest, (f"{name} changed after it was frozen: fix golds only in a commit of "
                                  "their own that updates FROZEN.sha256 and says why")


@pytest.mark.parametrize("name", sorted(SETS))
def test_set_size_fields_ids_and_language_balance(name):
    records = _records(name)
    assert len(records) >= SETS[name][1]
    for rec in records:
        assert FIELDS <= set(rec), f"{rec.get('id')}: missing {FIELDS - set(rec)}"
        assert rec["lang"] in ("it", "en") and rec["question"].strip() and rec["class"].strip()
    langs = Counter(rec["lang"] for rec in records)
    assert abs(langs["it"] - langs["en"]) <= len(records) // 10, langs
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids))


def test_ids_unique_across_sets():
    ids = [rec["id"] for _, rec in ALL]
    assert len(ids) == len(set(ids))


def test_translator_set_covers_every_issue14_class():
    classes = Counter(rec["class"] for rec in _records("translator"))
    assert set(classes) == ISSUE14_CLASSES
    assert min(classes.values()) >= 5, classes


@pytest.mark.parametrize("name,rec", ALL, ids=[rec["id"] for _, rec in ALL])
def test_gold_runs_on_the_sample_as_recorded(sample_kb, name, rec):
    sparql = rec["sparql"]
    assert not missing_prefixes(sparql), "gold queries declare their prefixes"
    if outer_limit(sparql):
        assert outer_order_by(sparql), "LIMIT without ORDER BY is not deterministic"
    table = sample_kb.execute(sparql)
    if table.form == "ask":
        assert rec["expected_rows"] == 1
        assert table.boolean is rec["expected_boolean"]
    else:
        assert "expected_boolean" not in rec
        assert len(table.rows) == rec["expected_rows"] > 0
        assert not table.truncated


def test_word_pairs_name_italian_lemmas_of_the_sample(sample_kb):
    with (HELDOUT / "en_it_words.tsv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert len(rows) >= 100
    assert len({(r["english"], r["pos"]) for r in rows}) == len(rows)
    table = sample_kb.select("""
        PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
        PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
        PREFIX dcterms: <http://purl.org/dc/terms/>
        SELECT ?wr ?pos WHERE {
          ?lemma dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ;
                 ontolex:writtenRep ?wr ; lila:hasPOS ?pos .
        }""")
    lemmas = {(wr.value, pos.value.rsplit("/", 1)[-1]) for wr, pos in table.rows}
    missing = [r for r in rows if (r["italian"], r["pos"]) not in lemmas]
    assert not missing, f"not a lemma of the sample with that POS: {missing[:5]}"
    assert Counter(r["pos"] for r in rows).keys() >= {"noun", "verb", "adjective", "adverb"}
