"""The generation pipeline on the embedded sample: pool properties, determinism, key checks, resume."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nl2sparql import parallel
from nl2sparql.cli.gen import app
from nl2sparql.errors import ConfigError
from nl2sparql.operators import PatternTagger, PoolWriter
from nl2sparql.operators.dedup import normalise_query
from nl2sparql.patterns import LABELS
from nl2sparql.pipelines.generation import GenerationPipeline, RunConfig, Step, default_steps
from nl2sparql.pipelines.storage import read_jsonl

FIELDS = {"id", "sparql", "nl", "nl_variants", "patterns", "nl_en", "nl_en_variants", "result_count",
          "answer_signature", "difficulty", "provenance", "split"}
PERSONAS = {"generic", "linguist", "linked_data_expert", "pedagogical"}


@pytest.fixture(scope="module")
def pool300(tmp_path_factory):
    """One uninterrupted ``run --target 300 --seed 1`` (shared by the tests of this module)."""
    work = tmp_path_factory.mktemp("run300")
    out = work / "pool.jsonl"
    result = CliRunner().invoke(app, ["run", "--target", "300", "--seed", "1", "--out", str(out),
                                      "--cache-dir", str(work / "cache"), "--json"])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_pool_lines_have_every_field_and_valid_values(pool300):
    out, _ = pool300
    items = read_jsonl(out)
    assert len(items) == 300
    for item in items:
        assert FIELDS <= set(item), item["id"]
        assert set(item["nl_variants"]) == PERSONAS and set(item["nl_en_variants"]) == PERSONAS
        assert item["difficulty"] in ("easy", "medium", "hard")
        assert item["split"] in ("train", "dev", "test")
        assert item["result_count"] >= 1
        assert all(0 < w <= 1 for w in item["patterns"].values())
        assert {"kb", "seed", "operators"} <= set(item["provenance"])


def test_every_query_reexecutes_with_the_recorded_count(pool300, sample_kb):
    items = read_jsonl(pool300[0])
    for item in items:
        table = sample_kb.execute(item["sparql"])
        assert (1 if table.form == "ask" else len(table.rows)) == item["result_count"], item["id"]  # ASK: one answer


def test_questions_name_the_slot_values_and_have_no_placeholders(pool300):
    for item in read_jsonl(pool300[0]):
        texts = [item["nl"], item["nl_en"], *item["nl_variants"].values(), *item["nl_en_variants"].values()]
        assert not any("{" in t or "}" in t for t in texts), item["id"]
        for it, en in item["provenance"]["mentions"]:
            assert it.lower() in item["nl"].lower(), (item["id"], it, item["nl"])
            assert en.lower() in item["nl_en"].lower(), (item["id"], en, item["nl_en"])


def test_coverage_combinations_and_no_duplicate_queries(pool300):
    items = read_jsonl(pool300[0])
    labels = Counter(k for item in items for k, v in item["patterns"].items() if v >= 0.5)
    assert set(LABELS) <= set(labels), set(LABELS) - set(labels)
    multi = sum(1 for item in items if sum(v >= 0.5 for v in item["patterns"].values()) >= 2)
    assert multi / len(items) >= 0.30
    normalised = [normalise_query(item["sparql"]) for item in items]
    assert len(set(normalised)) == len(normalised)


def test_same_seed_same_pool_whatever_the_threads(pool300, tmp_path, monkeypatch):
    # --threads 2 also makes the composer's draws and the row steps in two forked processes (every step
    # forks here, however few its rows); the pool must not change
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 4)
    out = tmp_path / "again.jsonl"
    result = CliRunner().invoke(app, ["run", "--target", "300", "--seed", "1", "--out", str(out), "--threads", "2",
                                      "--cache-dir", str(tmp_path / "cache"), "--json"])
    assert result.exit_code == 0, result.output
    first = [dict(i, provenance=None) for i in read_jsonl(pool300[0])]
    again = [dict(i, provenance=None) for i in read_jsonl(out)]
    assert first == again


def test_a_different_seed_gives_a_different_pool(pool300, tmp_path):
    out = tmp_path / "other.jsonl"
    result = CliRunner().invoke(app, ["run", "--target", "50", "--seed", "2", "--out", str(out),
                                      "--cache-dir", str(tmp_path / "cache"), "--json"])
    assert result.exit_code == 0, result.output
    first = {i["sparql"] for i in read_jsonl(pool300[0])[:50]}
    assert {i["sparql"] for i in read_jsonl(out)} != first


def test_manifest_records_operators_parameters_and_rejections(pool300):
    summary = pool300[1]
    manifest = json.loads(Path(summary["manifest"]).read_text())
    assert manifest["finished"] and manifest["run"]["seed"] == 1
    names = [s["operator"] for s in manifest["steps"]]
    assert names[:3] == ["SchemaSampler", "PatternComposer", "ExecutionFilter"] and names[-1] == "PoolWriter"
    assert all("params" in s and "report" in s for s in manifest["steps"])
    assert sum(manifest["rejected"].values()) > 0


def test_execution_filter_stops_once_enough_candidates_passed(pool300):
    manifest = json.loads(Path(pool300[1]["manifest"]).read_text())
    step = next(s for s in manifest["steps"] if s["operator"] == "ExecutionFilter")
    report = step["report"]
    # it stops at enough_kept candidates with answers of their own: a repeated answer of several rows,
    # which the deduplicator drops, does not count
    passed = read_jsonl(Path(pool300[1]["manifest"]).parent / f"{manifest['run']['prefix']}_step{step['step']}.jsonl")
    assert len(passed) == report["kept"]
    repeated = [r for r in passed if r["result_count"] > 1]
    answers = {(r["answer_signature"], tuple(sorted(k for k, v in r["labels"].items() if v >= 0.5))) for r in repeated}
    distinct = len(passed) - len(repeated) + len(answers)
    assert distinct == RunConfig(target=300).enough_kept < report["kept"]
    assert report["not_run"] > 0 and report["kept"] + sum(report["rejected"].values()) + report["not_run"] == \
        report["rows_in"]
    assert pool300[1]["executed"] == report["rows_in"] - report["not_run"]


def test_the_filter_run_alongside_the_composer_keeps_what_it_keeps_after_it(pool300, sample_kb, tmp_path):
    """The pipeline executes candidates while the composer draws them; the filter's rows are those it writes
    when it reads the composer's finished step file."""
    from nl2sparql.operators import ExecutionFilter
    from nl2sparql.pipelines.storage import StepStorage

    manifest = json.loads(Path(pool300[1]["manifest"]).read_text())
    cache, prefix = Path(pool300[1]["manifest"]).parent, manifest["run"]["prefix"]
    storage = StepStorage(tmp_path, "again", first_entry_file_name=cache / f"{prefix}_step1.jsonl").step()
    params = next(s for s in manifest["steps"] if s["operator"] == "ExecutionFilter")["params"]
    report = ExecutionFilter(params, kb=sample_kb).run(storage)
    after = [dict(r, query_seconds=None) for r in read_jsonl(storage.file(0))]
    alongside = [dict(r, query_seconds=None) for r in read_jsonl(cache / f"{prefix}_step2.jsonl")]
    assert after == alongside and report.to_json()["rejected"] == manifest["steps"][2]["report"]["rejected"]


def test_a_composer_that_fails_stops_the_filter_running_alongside(sample_kb, tmp_path, monkeypatch):
    from nl2sparql.operators import PatternComposer

    ran = []
    digest = sample_kb.digest
    monkeypatch.setattr(sample_kb, "digest", lambda q, *a, **kw: ran.append(q) or digest(q, *a, **kw))

    def failing_run(self, storage, input_key="fact", output_key="sparql", sink=None):
        for i in range(400):
            sink({"cid": f"c{i}", output_key: "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", "labels": {}})
        raise RuntimeError("the composer broke")
    monkeypatch.setattr(PatternComposer, "run", failing_run)
    config = RunConfig(target=300, seed=1, out=str(tmp_path / "p.jsonl"), cache_dir=str(tmp_path / "cache"))
    with pytest.raises(RuntimeError, match="the composer broke"):
        GenerationPipeline(config, sample_kb).run()
    assert len([q for q in ran if "LIMIT 1" in q]) < 400  # the candidates still queued were not run
    assert not (tmp_path / "p.jsonl").exists()


def test_a_filter_that_runs_out_of_candidates_gets_more_and_the_pool_is_the_same(pool300, sample_kb, tmp_path):
    config = RunConfig(target=300, seed=1, out=str(tmp_path / "p.jsonl"), cache_dir=str(tmp_path / "cache"))
    steps = default_steps(config, sample_kb)
    steps[1].operator.config["candidates"] = 120  # far too few: the execution filter runs out
    manifest = GenerationPipeline(config, sample_kb, steps=steps).run()
    composed, filtered = manifest["steps"][1]["report"], manifest["steps"][2]["report"]
    assert composed["top_ups"] >= 1 and composed["kept"] > 120 and "short" not in filtered
    assert not list((tmp_path / "cache").glob("*.partial.jsonl"))  # the filter's checkpoint is gone once done
    items = [dict(i, provenance=None) for i in read_jsonl(tmp_path / "p.jsonl")]
    assert items == [dict(i, provenance=None) for i in read_jsonl(pool300[0])]


def test_bad_wiring_is_refused_before_running(sample_kb, tmp_path):
    config = RunConfig(target=5, out=str(tmp_path / "p.jsonl"), cache_dir=str(tmp_path))
    steps = [Step(PatternTagger(), {"input_key": "sparql"}), Step(PoolWriter({"out": "x"}), {"input_key": "sparql"})]
    with pytest.raises(ConfigError, match="needs"):
        GenerationPipeline(config, sample_kb, steps=steps).check_keys()
    assert not list(tmp_path.glob("*step*"))


@pytest.mark.parametrize("args, message", [(["--patterns", "NOPE"], "unknown pattern label"),
                                           (["--max-scan", "-5"], "--max-scan")])
def test_bad_run_options_are_one_clear_line(tmp_path, args, message):
    result = CliRunner().invoke(app, ["run", "--target", "5", *args, "--out", str(tmp_path / "p.jsonl")])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_patterns_option_restricts_the_composition(tmp_path):
    out = tmp_path / "p.jsonl"
    result = CliRunner().invoke(app, ["run", "--target", "30", "--seed", "4", "--patterns", "EMOTION_LEXICON,POS_FILTER",
                                      "--out", str(out), "--cache-dir", str(tmp_path / "c"), "--json"])
    assert result.exit_code == 0, result.output
    allowed = {"EMOTION_LEXICON", "POS_FILTER", "COUNT_ENTITIES", "SERVICE_INTEGRATION", "COMPOSITIONAL"}
    items = read_jsonl(out)
    assert items and all(set(i["provenance"]["composed_patterns"]) <= allowed for i in items)


def _run_cli(args: list[str]) -> subprocess.Popen:
    code = "import sys; from nl2sparql.cli.gen import app; sys.argv[0] = 'nl2sparql-gen'; app()"
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def test_killed_run_resumes_to_the_same_pool(pool300, tmp_path):
    out, cache = tmp_path / "pool.jsonl", tmp_path / "cache"
    args = ["run", "--target", "300", "--seed", "1", "--out", str(out), "--cache-dir", str(cache), "--json"]
    proc = _run_cli(args)
    partial = cache / "pool_s1_step2.partial.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and not partial.exists() and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not out.exists()
    manifest = json.loads((cache / "pool_s1_manifest.json").read_text())
    assert not manifest["finished"]
    resumed = _run_cli([*args, "--resume"])
    assert resumed.wait(timeout=300) == 0
    manifest = json.loads((cache / "pool_s1_manifest.json").read_text())
    assert manifest["finished"] and any(s.get("resumed") for s in manifest["steps"])
    strip = lambda items: [dict(i, provenance=None) for i in items]  # noqa: E731
    assert strip(read_jsonl(out)) == strip(read_jsonl(pool300[0]))


def test_resume_with_other_settings_is_refused(pool300, tmp_path):
    out = tmp_path / "p.jsonl"
    CliRunner().invoke(app, ["run", "--target", "20", "--seed", "1", "--out", str(out), "--cache-dir", str(tmp_path)])
    result = CliRunner().invoke(app, ["run", "--target", "21", "--seed", "1", "--out", str(out),
                                      "--cache-dir", str(tmp_path), "--resume"])
    assert result.exit_code == 2 and "--resume" in result.output


def test_pool_stats_and_export(pool300, tmp_path):
    out, _ = pool300
    stats = CliRunner().invoke(app, ["pool", "stats", str(out), "--json"])
    assert stats.exit_code == 0
    assert json.loads(stats.stdout)["items"] == 300
    for fmt in ("alpaca", "sharegpt", "openai"):
        target = tmp_path / f"{fmt}.jsonl"
        result = CliRunner().invoke(app, ["export", str(out), "--format", fmt, "--out", str(target), "--lang", "it"])
        assert result.exit_code == 0, result.output
        records = read_jsonl(target)
        assert len(records) == 300
    bad = CliRunner().invoke(app, ["export", str(out), "--format", "csv", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "unknown format" in bad.output


def test_step_files_are_written_in_the_background_and_a_failed_write_is_raised(tmp_path):
    from nl2sparql.pipelines.storage import StepStorage
    storage = StepStorage(tmp_path / "cache", "t", background=True)
    first = storage.step()
    first.write([{"a": 1}])
    done = []
    first.after_writes(lambda: done.append((tmp_path / "cache" / "t_step0.jsonl").read_text()))
    storage.flush()
    assert done == ['{"a": 1}\n']
    assert "nl2sparql-step-writer" not in {t.name for t in threading.enumerate()}  # the thread ends with flush
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory should be")
    bad = StepStorage(blocked / "cache", "t", background=True).step()
    bad.write([{"a": 1}])  # handed over; the writer thread fails
    with pytest.raises(OSError):
        bad.flush()
