"""Integrity of the frozen held-out sets in ``bench/heldout`` (issues 11, 14, 24 and 25).

Every gold query of the translator and agent sets runs on the embedded sample
and returns what its record says; ids are unique, the languages balanced,
every class of issue 14 is covered, LIMIT only comes with ORDER BY; every
Italian word of the word-pair list is a lemma of the sample with the stated
part of speech; and the files still match the hashes they were frozen with.

The people's set (``people_questions.jsonl``, issues 24 and 25) is checked
for its fields, its language and style balance and its classes without a KB;
its gold queries run on the LiITA mirror (``@pytest.mark.mirror``), where
each returns what its ``expect`` says.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from nl2sparql.fileio import iter_jsonl
from nl2sparql.kb import Limits
from nl2sparql.kb.embedded import EmbeddedKB
from nl2sparql.score.query import outer_limit, outer_order_by
from nl2sparql.sparql.lexer import declared_prefixes, query_form, used_prefixes
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

PEOPLE = "people_questions.jsonl"
PEOPLE_MIN = 128
PEOPLE_FIELDS = {"id", "lang", "style", "question", "class", "sparql", "expect", "note"}
PEOPLE_CLASSES = {
    "lookup", "quoted_word", "can_you_find", "not_in_kb", "pairs", "disjunction", "kb_aggregate",
    "relation_words", "affix", "homograph_variant", "inflection", "dialect_side", "listed_words",
    "comparison_yesno", "emotion_polarity", "complit",
}
PEOPLE_TIMEOUT = 30.0  # seconds per gold query on the mirror (each runs in under ~5 s)


def _records(name: str) -> list[dict]:
    return [obj for _, obj in iter_jsonl(HELDOUT / SETS[name][0])]


ALL = [(name, rec) for name in SETS for rec in _records(name)]
PEOPLE_RECORDS = [obj for _, obj in iter_jsonl(HELDOUT / PEOPLE)]


def test_files_match_their_frozen_hashes():
    lines = (HELDOUT / "FROZEN.sha256").read_text(encoding="utf-8").split("\n")
    frozen = dict(reversed(line.split(None, 1)) for line in lines if line.strip())
    assert set(frozen) == {"translator_questions.jsonl", "agent_questions.jsonl", "en_it_words.tsv", PEOPLE}
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
    ids = [rec["id"] for _, rec in ALL] + [rec["id"] for rec in PEOPLE_RECORDS]
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


def _share_ok(part: int, whole: int) -> bool:
    """``part`` is half of ``whole`` give or take 5 % of ``whole``."""
    return abs(2 * part - whole) <= 0.1 * whole


def test_people_set_fields_ids_and_balance():
    records = PEOPLE_RECORDS
    assert len(records) >= PEOPLE_MIN
    for rec in records:
        assert set(rec) == PEOPLE_FIELDS, f"{rec.get('id')}: fields {sorted(set(rec) ^ PEOPLE_FIELDS)}"
        assert rec["lang"] in ("it", "en") and rec["style"] in ("linguist", "casual"), rec["id"]
        assert rec["expect"] in ("rows", "empty", "ask"), rec["id"]
        assert rec["question"].strip() and rec["class"] in PEOPLE_CLASSES, rec["id"]
    ids = [rec["id"] for rec in records]
    assert ids == [f"p{i:03d}" for i in range(1, len(records) + 1)]
    langs = Counter(rec["lang"] for rec in records)
    assert _share_ok(langs["it"], len(records)), langs
    for lang in ("it", "en"):
        styles = Counter(rec["style"] for rec in records if rec["lang"] == lang)
        assert _share_ok(styles["linguist"], langs[lang]), (lang, styles)


def test_people_set_covers_every_class_in_both_languages():
    classes = Counter(rec["class"] for rec in PEOPLE_RECORDS)
    assert set(classes) == PEOPLE_CLASSES
    assert min(classes.values()) >= 5, classes
    for cls in PEOPLE_CLASSES:
        langs = {rec["lang"] for rec in PEOPLE_RECORDS if rec["class"] == cls}
        # quoted_word is by definition an English question naming an Italian word
        assert langs == ({"en"} if cls == "quoted_word" else {"it", "en"}), (cls, langs)
    assert {rec["expect"] for rec in PEOPLE_RECORDS if rec["class"] == "not_in_kb"} == {"empty"}


@pytest.mark.parametrize("rec", PEOPLE_RECORDS, ids=[rec["id"] for rec in PEOPLE_RECORDS])
def test_people_gold_is_well_formed(rec):
    sparql = rec["sparql"]
    undeclared = used_prefixes(sparql) - set(declared_prefixes(sparql))
    assert not undeclared, f"gold queries declare their prefixes: {sorted(undeclared)}"
    if outer_limit(sparql):
        assert outer_order_by(sparql), "LIMIT without ORDER BY is not deterministic"
    assert (query_form(sparql) == "ask") == (rec["expect"] == "ask")


@pytest.fixture(scope="module")
def people_kb(mirror_store):
    kb = EmbeddedKB.on_disk(mirror_store, limits=Limits(timeout=PEOPLE_TIMEOUT), workers=2)
    yield kb
    kb.close()


def _people_outcome(kb: EmbeddedKB, rec: dict) -> str | None:
    """Why the gold does not give what ``expect`` says, or ``None`` when it does."""
    try:
        table = kb.execute(rec["sparql"])
    except Exception as exc:  # a failed gold is reported with the others, not raised
        return f"{rec['id']}: {type(exc).__name__}: {exc}"
    if rec["expect"] == "ask":
        return None if table.form == "ask" else f"{rec['id']}: not an ASK answer"
    if table.truncated:
        return f"{rec['id']}: truncated at the row cap"
    if (len(table.rows) > 0) != (rec["expect"] == "rows"):
        return f"{rec['id']}: {len(table.rows)} rows, expected {rec['expect']}"
    return None


def _people_checked() -> list[dict]:
    """The first item of each (class, expect) pair: every kind of gold, in a few seconds rather than the
    two to three minutes all of them take (``bench/heldout_eval.py --set people`` runs every gold)."""
    seen, out = set(), []
    for rec in PEOPLE_RECORDS:
        if (rec["class"], rec["expect"]) not in seen:
            seen.add((rec["class"], rec["expect"]))
            out.append(rec)
    return out


@pytest.mark.mirror
@pytest.mark.timeout(300)
def test_people_golds_give_what_they_expect_on_the_mirror(people_kb):
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda rec: _people_outcome(people_kb, rec), _people_checked()))
    failures = [o for o in outcomes if o]
    assert not failures, "\n".join(failures)
