"""Questions whose right answer is empty: ``run --empty-answers SHARE`` on the embedded sample, and how they score."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.gen import app
from nl2sparql.errors import ConfigError
from nl2sparql.pipelines.generation import RunConfig
from nl2sparql.score.runner import Scorer

runner = CliRunner()


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    """``run --target 120 --seed 3 --empty-answers 0.3`` once for the module."""
    work = tmp_path_factory.mktemp("empty")
    out = work / "pool.jsonl"
    result = runner.invoke(app, ["run", "--target", "120", "--seed", "3", "--empty-answers", "0.3", "--out", str(out),
                                 "--cache-dir", str(work / "cache"), "--json"])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()], json.loads(result.stdout)


def test_a_labelled_share_lands_in_the_evaluation_splits_only(pool):
    items, _ = pool
    empty = [i for i in items if i.get("empty_answer")]
    absent = [i for i in empty if i["empty_answer"] == "absent_fact"]
    assert len(absent) == RunConfig(target=120, empty_answers=0.3).absent == 10
    assert {i["split"] for i in empty} <= {"dev", "test"}
    evaluation = [i for i in items if i["split"] in ("dev", "test")]
    assert 0.2 <= len(empty) / len(evaluation) <= 0.5
    assert all(i["result_count"] == 0 for i in absent)
    assert {i["empty_answer"] for i in empty} <= {"absent_fact", "answer_no"}


def test_each_empty_gold_is_empty_on_the_kb_and_names_a_word_of_the_lemma_bank(pool, sample_kb):
    items, _ = pool
    for item in (i for i in items if i.get("empty_answer") == "absent_fact"):
        assert sample_kb.execute(item["sparql"]).rows == []
        word = item["provenance"]["slots"]["word"]
        assert sample_kb.ask(f'ASK {{ ?l a lila:Lemma ; ontolex:writtenRep "{word}"@it }}')
        assert f"«{word}»" in item["nl"] and f'"{word}"' in item["nl_en"]


def test_the_scorer_counts_both_empty_as_right_and_an_answer_as_wrong(pool, sample_kb):
    items, _ = pool
    item = next(i for i in items if i.get("empty_answer") == "absent_fact")
    scorer = Scorer(sample_kb)
    same = scorer.score(item["sparql"], item["sparql"])
    assert same.strict and same.f1 == 1.0 and same.field.qald_f1 == 1.0
    always = item["sparql"].replace(f'VALUES ?wr {{ "{item["provenance"]["slots"]["word"]}"@it }}', "")
    guessed = scorer.score(item["sparql"], always)
    assert guessed.pred_rows and not guessed.strict and not guessed.relaxed and guessed.f1 == 0.0
    assert guessed.error == "value_mismatch"


def test_off_by_default_and_refused_out_of_range(tmp_path):
    assert RunConfig(target=300).absent == 0 and "empty_answers" not in RunConfig(target=300).identity()
    with pytest.raises(ConfigError, match="--empty-answers must be a share between 0 and 0.5"):
        RunConfig(empty_answers=0.9)
    with pytest.raises(ConfigError, match="--empty-answers is for a plain run"):
        api.generate(10, out=tmp_path / "p.jsonl", shards=2, empty_answers=0.1)
