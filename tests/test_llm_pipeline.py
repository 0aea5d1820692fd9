"""``nl2sparql-gen run --llm --judge`` end to end against the scripted server on 127.0.0.1.

The fake server writes SPARQL (good queries and garbage), questions and
verdicts, routed by prompt content; the pipeline runs on the embedded sample.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from typer.testing import CliRunner

from llm_fake_server import FAKE_KEY, error, reply_by_content
from nl2sparql.cli.gen import app
from nl2sparql.errors import ConfigError
from nl2sparql.pipelines.generation import GenerationPipeline, RunConfig
from nl2sparql.pipelines.llm_steps import build_pipeline, llm_steps
from nl2sparql.pipelines.storage import read_jsonl

from test_llm_operators import ADVERBS, GARBAGE, JOY, MATCH, PFX, fence

runner = CliRunner()

GOOD = [JOY, ADVERBS] + [
    PFX + "SELECT DISTINCT ?lemma ?wr WHERE {\n  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n"
          f"  ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:{emotion} .\n}} ORDER BY ?wr"
    for emotion in ("Paura", "Tristezza", "Rabbia", "Amore")]
LLM_ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_FAST_MODEL",
                "NL2SPARQL_LLM_CONFIG", "NL2SPARQL_LLM_CACHE", "NL2SPARQL_STORE", "NL2SPARQL_ENDPOINT")


def write_queries(request: dict) -> str:
    """Two good queries (which ones depend on the request's seed) and a garbage one."""
    i = int(request.get("seed") or 0) % len(GOOD)
    return "\n".join(fence(q) for q in (GOOD[i], GOOD[(i + 1) % len(GOOD)], GARBAGE))


def write_question(request: dict) -> str:
    """A question naming the query it was asked about (so LLM rows never collide in dedup)."""
    user = request["messages"][-1]["content"]
    query = re.search(r"```sparql\n(.*?)```", user, re.DOTALL).group(1)
    tag = hashlib.sha1(query.encode()).hexdigest()[:6]
    term = " (lila:Lemma)" if "linked-data expert" in user else ""  # that persona names the classes, as asked
    return f"Quali lemmi{term} risponde la query {tag}?" if "in Italian" in user else \
        f"Which lemmas{term} does query {tag} return?"


def script(server) -> None:
    server.handler = reply_by_content([
        (r"You check natural-language", MATCH),
        (r"Write \d+ different SPARQL queries", write_queries),
        (r"You write the natural-language question", write_question),
    ])


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No LLM or KB settings from the environment or a user config file."""
    for name in LLM_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def run_cli(tmp_path, env: dict, *extra: str):
    args = ["run", "--target", "10", "--seed", "3", "--out", str(tmp_path / "pool.jsonl"),
            "--cache-dir", str(tmp_path / "cache"), *extra]
    return runner.invoke(app, args, env=env)


def test_full_run_with_llm_and_judge(tmp_path, fake_llm, clean_env):
    script(fake_llm)
    env = fake_llm.env(tmp_path)
    result = run_cli(tmp_path, env, "--llm", "--judge", "--llm-concurrency", "4")
    assert result.exit_code == 0, result.output
    assert "LLM:" in result.output and "kept 10 examples" in result.output
    pool = read_jsonl(tmp_path / "pool.jsonl")
    assert len(pool) == 10
    llm_items = [i for i in pool if i["provenance"]["generator"] == "llm"]
    assert llm_items and len(llm_items) < len(pool)
    for item in llm_items:
        assert item["nl"].startswith("Quali lemmi risponde la query") and item["nl_en"].startswith("Which lemmas")
        assert set(item["nl_variants"]) == {"generic", "linguist", "linked_data_expert", "pedagogical"}
        assert item["sparql"] in GOOD and item["provenance"]["llm_model"] == "fake-model"
        assert item["provenance"]["llm_questions"]["candidates"] == 3
    for item in pool:
        assert item["provenance"]["judge"]["verdict"] == "match" and item["provenance"]["judge"]["attempts"] == 1
    assert any(i["provenance"]["generator"] == "template" for i in pool)

    manifest_path = tmp_path / "cache" / "pool_s3_manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert FAKE_KEY not in manifest_path.read_text()
    operators = [s["operator"] for s in manifest["steps"]]
    assert operators == ["SchemaSampler", "PatternComposer", "LLMSparqlGenerator", "ExecutionFilter",
                         "QuestionGenerator", "LLMQuestionGenerator", "PatternTagger", "QualityCheck", "Deduplicator",
                         "CorrespondenceJudge", "DifficultyClassifier", "ProvenancePoolWriter"]
    assert manifest["rejected"]["parse"] >= 1  # the scripted garbage query
    llm = manifest["llm"]
    assert llm["flags"] == {"llm": True, "judge": True, "round_trip": False}
    assert llm["config"]["model"] == "fake-model" and llm["config"]["base_url"] == fake_llm.url
    assert llm["usage"]["requests"] == fake_llm.request_count > 0 and llm["usage"]["cached"] == 0
    assert manifest["run"]["extra"]["llm_model"] == "fake-model"

    # the same run again: every answer comes from the response cache
    before = fake_llm.request_count
    again = run_cli(tmp_path, env, "--llm", "--judge", "--llm-concurrency", "4", "--json", "--force")
    assert again.exit_code == 0, again.output
    assert fake_llm.request_count == before
    summary = json.loads(again.stdout)
    assert summary["llm"]["requests"] == 0 and summary["llm"]["cached"] == summary["llm"]["calls"] > 0
    assert read_jsonl(tmp_path / "pool.jsonl") == pool


@pytest.mark.parametrize("flag", ["--llm", "--judge"])
def test_llm_flags_without_configuration_fail_in_one_line(tmp_path, clean_env, flag):
    result = run_cli(tmp_path, {}, flag)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert all(name in lines[0] for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL"))
    assert not (tmp_path / "pool.jsonl").exists()


def test_step_wiring_follows_the_flags(sample_kb):
    def names(**flags):
        config = RunConfig(target=5, extra=flags)
        steps = llm_steps(config, sample_kb, client=object() if flags.get("llm") or flags.get("judge") else None,
                          predictor=lambda question: None)
        GenerationPipeline(config, sample_kb, steps=steps).check_keys()
        return [s.operator.name for s in steps]

    assert "LLMSparqlGenerator" not in names(round_trip=True)
    assert names(round_trip=True)[-4:] == ["Deduplicator", "RoundTripCheck", "DifficultyClassifier",
                                           "ProvenancePoolWriter"]
    judged = names(judge=True)
    assert judged[judged.index("Deduplicator") + 1:][:2] == ["CorrespondenceJudge", "DifficultyClassifier"]
    assert "RoundTripCheck" not in judged  # the round trip is opt-in
    full = names(llm=True, judge=True, round_trip=True)
    assert full.index("LLMSparqlGenerator") == full.index("PatternComposer") + 1
    assert full.index("LLMQuestionGenerator") == full.index("QuestionGenerator") + 1
    assert full.index("RoundTripCheck") == full.index("CorrespondenceJudge") + 1
    with pytest.raises(ConfigError, match="NL2SPARQL_LLM_MODEL"):
        llm_steps(RunConfig(extra={"llm": True}), sample_kb, client=None)


def test_a_refusing_server_stops_the_run_with_one_line(tmp_path, fake_llm, clean_env):
    fake_llm.handler = lambda request: error(401, "invalid api key")
    result = run_cli(tmp_path, fake_llm.env(), "--judge")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip() and "━" not in line]
    assert len(lines) == 1 and "HTTP 401" in lines[0] and "check OPENAI_API_KEY" in lines[0], result.output


def test_round_trip_with_the_offline_translator(tmp_path, sample_kb):
    config = RunConfig(target=4, seed=5, out=str(tmp_path / "rt.jsonl"), cache_dir=str(tmp_path / "cache"),
                       extra={"round_trip": True})
    manifest = build_pipeline(config, sample_kb).run()
    pool = read_jsonl(tmp_path / "rt.jsonl")
    assert len(pool) == 4 and "round_trip_failed" not in manifest["rejected"].items()
    for item in pool:
        trip = item["provenance"]["round_trip"]
        assert {"strict", "relaxed", "f1", "error"} <= set(trip) and isinstance(trip["strict"], bool)
        assert set(trip["nl"]) == set(trip["nl_en"]) == {"strict", "relaxed", "f1", "error"}  # one per language
        assert 0.0 <= trip["f1"] <= 1.0 and (trip["error"] is None) == trip["strict"]


def test_round_trip_annotates_the_pool(tmp_path, sample_kb):
    gold = {}

    def predictor(question: str):
        return gold.get(question)

    config = RunConfig(target=6, seed=2, out=str(tmp_path / "rt.jsonl"), cache_dir=str(tmp_path / "cache"),
                       extra={"round_trip": True})
    pipeline = build_pipeline(config, sample_kb, predictor=predictor)
    manifest = pipeline.run()
    pool = read_jsonl(tmp_path / "rt.jsonl")
    assert len(pool) == 6 and manifest["finished"]
    for item in pool:  # annotate only: nothing was rejected though every prediction is missing
        missing = {"strict": False, "relaxed": False, "f1": 0.0, "error": "missing"}
        assert item["provenance"]["round_trip"] == {**missing, "nl": missing, "nl_en": missing}
        assert item["provenance"]["generator"] == "template"
