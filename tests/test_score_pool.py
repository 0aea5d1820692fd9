"""The scorer on the shipped pool: every item matches itself; one changed filter value breaks the match."""

from __future__ import annotations

import re

import pytest

from nl2sparql.paths import pools_dir
from nl2sparql.pipelines.storage import read_jsonl
from nl2sparql.score.runner import Scorer


@pytest.fixture(scope="module")
def pool_items():
    return read_jsonl(pools_dir() / "sample_pool.jsonl")


def test_every_pool_item_scored_against_itself_is_a_strict_match(pool_items, sample_kb):
    scorer = Scorer(sample_kb)
    failures = [item["id"] for item in pool_items[:400]
                if not scorer.score(item["sparql"], item["sparql"], item["id"]).strict]
    assert failures == []


def _change_one_filter(sparql: str) -> str | None:
    """Change the first filtered or named value of a query (an emotion, a word, an affix, a POS)."""
    for old, new in (("elita:Paura", "elita:Gioia"), ("elita:Gioia", "elita:Paura"),
                     ("lila:noun", "lila:verb"), ("lila:verb", "lila:noun"), ("lila:adjective", "lila:noun")):
        if old in sparql:
            return sparql.replace(old, new, 1)
    match = re.search(r'(STRSTARTS|STRENDS|CONTAINS)\((?:LCASE\()?STR\(\?\w+\)\)?, "([^"]+)"\)', sparql)
    if match:
        value = match.group(2)
        return sparql.replace(f'"{value}")', f'"{value[:-1] or "x"}q")', 1)
    match = re.search(r'VALUES \?\w+ \{ "([^"]+)"@it \}', sparql)
    if match:
        return sparql.replace(f'"{match.group(1)}"@it', '"casa"@it' if match.group(1) != "casa" else '"cane"@it', 1)
    return None


def test_a_changed_filter_is_a_mismatch(pool_items, sample_kb):
    scorer = Scorer(sample_kb)
    checked = 0
    for item in pool_items[:300]:
        changed = _change_one_filter(item["sparql"])
        if changed is None:
            continue
        gold = sample_kb.execute(item["sparql"])
        pred_rows = {tuple(r) for r in sample_kb.execute(changed).rows}
        if pred_rows == {tuple(r) for r in gold.rows}:
            continue  # the change happened not to alter the answer (e.g. a word with the same facts)
        checked += 1
        assert not scorer.score(item["sparql"], changed, item["id"]).strict, (item["id"], changed)
    assert checked >= 100
