"""The hand-written pool ``nl2sparql/data/pools/handwritten.jsonl``: record format, SCHEMA rules, answers on the sample.

Every record is a question/query pair written by hand for the project. The
checks here keep it honest: the fields follow the pool format, every pattern
label is one of SCHEMA.md's and each appears at least twice, queries declare
the prefixes they use and order any limited result, and every query returns the
recorded ``result_count`` rows (and ``answer_signature``) on the embedded sample.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from nl2sparql.namespaces import COMPLIT_SERVICE
from nl2sparql.operators.execution_filter import answer_signature

POOL = Path(__file__).resolve().parents[1] / "nl2sparql" / "data" / "pools" / "handwritten.jsonl"

LABELS = {"EMOTION_LEXICON", "POLARITY", "TRANSLATION", "MULTI_TRANSLATION", "SENSE_DEFINITION",
          "SENSE_COUNT", "SEMANTIC_RELATION", "LEXICAL_RELATION", "POS_FILTER", "MORPHO_REGEX",
          "COUNT_ENTITIES", "META_GRAPH", "LEXICAL_FORM", "SERVICE_INTEGRATION", "COMPOSITIONAL"}
PERSONAS = {"generic", "linguist", "linked_data_expert", "pedagogical"}
FIELDS = {"id", "sparql", "nl", "nl_variants", "patterns", "nl_en", "nl_en_variants", "result_count",
          "answer_signature", "difficulty", "provenance", "split"}
PROVENANCE = {"kb": "sample", "generator": "handwritten", "author": "nl2sparql project"}


def _load() -> list[dict]:
    with POOL.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = _load()


def _code(sparql: str) -> str:
    """The query without PREFIX lines, comments, IRIs and string literals."""
    text = re.sub(r"^\s*PREFIX.*$", "", sparql, flags=re.M | re.I)
    text = re.sub(r"<[^<>\s]*>", " ", text)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', " ", text)
    return re.sub(r"#.*$", "", text, flags=re.M)


# -- the file as a whole ----------------------------------------------------------------------

def test_size_and_unique_ids():
    assert 35 <= len(RECORDS) <= 45
    ids = [r["id"] for r in RECORDS]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"hw-\d{3}", i) for i in ids)


def test_every_label_appears_at_least_twice():
    seen = Counter(label for r in RECORDS for label in r["patterns"])
    missing = {label: seen[label] for label in LABELS if seen[label] < 2}
    assert not missing, f"labels used fewer than 2 times: {missing}"


def test_questions_are_not_repeated():
    for field in ("nl", "nl_en"):
        texts = [r[field] for r in RECORDS]
        assert len(set(texts)) == len(texts), field


def test_all_difficulties_are_present():
    assert {r["difficulty"] for r in RECORDS} == {"easy", "medium", "hard"}


# -- each record ------------------------------------------------------------------------------

@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_record_fields(rec):
    assert set(rec) == FIELDS
    assert isinstance(rec["sparql"], str) and rec["sparql"].strip()
    for main, variants in (("nl", "nl_variants"), ("nl_en", "nl_en_variants")):
        assert set(rec[variants]) == PERSONAS
        assert all(isinstance(q, str) and q.strip() for q in rec[variants].values())
        assert len(set(rec[variants].values())) == 4, f"{variants}: the four phrasings must differ"
        assert rec[main] == rec[variants]["generic"]
    assert rec["patterns"] and set(rec["patterns"]) <= LABELS
    assert set(rec["patterns"].values()) <= {0.9, 0.6}
    assert 0.9 in rec["patterns"].values(), "one primary label (0.9) at least"
    assert isinstance(rec["result_count"], int) and rec["result_count"] >= 1
    assert rec["difficulty"] in {"easy", "medium", "hard"}
    assert rec["provenance"] == PROVENANCE
    assert rec["split"] == "train"


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_query_follows_schema_rules(rec):
    sparql = rec["sparql"]
    code = _code(sparql)
    declared = set(re.findall(r"^\s*PREFIX\s+([A-Za-z][\w-]*)?:", sparql, flags=re.M | re.I))
    used = set(re.findall(r"(?<![\w?$])([A-Za-z][\w-]*):", code))
    assert used <= declared, f"prefixes used without a PREFIX line: {sorted(used - declared)}"
    assert declared <= used, f"PREFIX lines never used: {sorted(declared - used)}"
    if re.search(r"\bLIMIT\b", code, flags=re.I):
        assert re.search(r"\bORDER\s+BY\b", code, flags=re.I), "LIMIT without ORDER BY"
    services = re.findall(r"SERVICE\s+(?:SILENT\s+)?<([^>]*)>", sparql, flags=re.I)
    assert set(services) <= {COMPLIT_SERVICE}
    if services:
        assert "SERVICE_INTEGRATION" in rec["patterns"]
    # written forms are compared as strings, never as language-tagged literals
    assert not re.search(r'"@(it|roa|scn)\b', sparql)


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_query_answers_on_the_sample(rec, sample_kb):
    table = sample_kb.execute(rec["sparql"])
    assert len(table.rows) == rec["result_count"]
    assert answer_signature(table) == rec["answer_signature"]
