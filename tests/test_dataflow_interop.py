"""Our operators on open-dataflow's own ``FileStorage`` (optional ``[dataflow]`` extra).

Skipped when open-dataflow is not installed. DataFlow's storage reads step 0
from ``first_entry_file_name`` and writes operator N's output as
``{file_name_prefix}_step{N+1}.{cache_type}``; it has no ``write_rejects``
(our operators then skip writing rejects).
"""

from __future__ import annotations

import json

import pytest

from nl2sparql.operators import DifficultyClassifier, PatternTagger
from nl2sparql.operators.judge import CorrespondenceJudge

from test_llm_operators import JOY, MATCH, VERBS

storage_module = pytest.importorskip(
    "dataflow.utils.storage",
    reason="open-dataflow is not installed (pip install 'nl2sparql[dataflow]'); "
           "this test runs our operators with DataFlow's own FileStorage")
FileStorage = storage_module.FileStorage


def dataflow_storage(tmp_path, rows: list[dict]):
    first = tmp_path / "input.jsonl"
    first.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return FileStorage(first_entry_file_name=str(first), cache_path=str(tmp_path / "cache"),
                       file_name_prefix="nl2sparql", cache_type="jsonl")


def read_step(tmp_path, step: int) -> list[dict]:
    path = tmp_path / "cache" / f"nl2sparql_step{step}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


ROWS = [{"cid": "a", "sparql": JOY, "labels": {"EMOTION_LEXICON": 0.9}, "nl": "Quali lemmi esprimono gioia?",
         "nl_en": "Which lemmas express joy?", "result_count": 32},
        {"cid": "b", "sparql": VERBS, "labels": {"COUNT_ENTITIES": 0.9}, "nl": "Quanti verbi ci sono?",
         "nl_en": "How many verbs are there?", "result_count": 1}]


def test_tagger_and_difficulty_run_on_dataflow_file_storage(tmp_path):
    storage = dataflow_storage(tmp_path, ROWS)
    report = PatternTagger().run(storage=storage.step(), input_key="sparql", output_key="patterns")
    assert report.kept == 2
    tagged = read_step(tmp_path, 1)
    assert tagged[0]["patterns"]["EMOTION_LEXICON"] >= 0.5 and tagged[1]["patterns"]["COUNT_ENTITIES"] >= 0.5

    DifficultyClassifier().run(storage=storage.step(), input_key="sparql", output_key="difficulty")
    graded = read_step(tmp_path, 2)
    assert [r["cid"] for r in graded] == ["a", "b"] and all(r["difficulty"] in ("easy", "medium", "hard")
                                                            for r in graded)


def test_llm_judge_runs_on_dataflow_file_storage(tmp_path, fake_llm):
    from nl2sparql.llm import LLMClient, LLMConfig

    fake_llm.default_text = MATCH
    storage = dataflow_storage(tmp_path, ROWS)
    with LLMClient(LLMConfig.resolve(env=fake_llm.env())) as client:
        report = CorrespondenceJudge({}, client=client).run(storage=storage.step(), input_key="sparql",
                                                            question_key="nl", output_key="judge")
    assert report.kept == 2 and fake_llm.request_count == 2
    assert [r["judge"]["verdict"] for r in read_step(tmp_path, 1)] == ["match", "match"]
