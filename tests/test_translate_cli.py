"""``nl2sparql translate``, ``nl2sparql validate`` and ``evaluate`` with the offline translator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nl2sparql.cli.main import app
from translate_helpers import build_pool, write_pool

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()
FEAR_NOUNS = {"angoscia", "ansia", "buio", "paura", "ragno", "scorpione", "terrore", "vipera"}


@pytest.fixture(scope="module")
def pool_file(sample_kb, tmp_path_factory):
    return write_pool(build_pool(sample_kb, draws=120), tmp_path_factory.mktemp("pool") / "pool.jsonl")


def _env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NL2SPARQL_STORE", "NL2SPARQL_ENDPOINT"))}
    return env


def test_done_criterion_fresh_command_line():
    """`nl2sparql translate "Which nouns express fear?" --execute`: the rows are the nouns annotated with Paura."""
    exe = Path(sys.executable).with_name("nl2sparql")
    proc = subprocess.run([str(exe), "translate", "Which nouns express fear?", "--execute", "--json"],
                          capture_output=True, text=True, cwd=REPO, env=_env(), timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    column = data["rows"]["variables"].index("wr")
    words = {row[column]["value"] for row in data["rows"]["rows"]}
    assert FEAR_NOUNS <= words and len(words) == 26
    assert not words & {"pauroso", "temere", "spaventare", "pericoloso"}  # adjectives and verbs with Paura
    assert data["patterns"].keys() >= {"EMOTION_LEXICON", "POS_FILTER"}


def test_translate_pretty_output(pool_file):
    result = runner.invoke(app, ["translate", "Quali sostantivi esprimono paura?", "--execute", "--pool",
                                 str(pool_file), "--embedder", "none", "-k", "2"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "elita:HasEmotion elita:Paura" in out and "EMOTION_LEXICON" in out and "confidence" in out
    assert "Similar pool examples" in out and "Answer: 26 row(s)" in out and "angoscia" in out
    # the answer first, then the query, then the evidence
    assert out.index("angoscia") < out.index("elita:HasEmotion") < out.index("Similar pool examples")


def test_an_off_topic_question_is_said_to_be_off_topic(pool_file):
    result = runner.invoke(app, ["translate", "Che tempo fa a Roma domani?", "--execute", "--pool", str(pool_file),
                                 "--embedder", "none"])
    assert result.exit_code == 0, result.output
    assert "not a question about LiITA" in result.stdout
    assert "SELECT" not in result.stdout and "row(s)" not in result.stdout


def test_translate_json_without_execution(pool_file):
    result = runner.invoke(app, ["translate", "What does 'pecora' mean?", "--json", "--pool", str(pool_file),
                                 "--embedder", "none"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["shape"] == "word" and data["slots"]["word"] == "pecora" and data["rows"] is None
    assert "skos:definition" in data["sparql"] and len(data["examples"]) == 5
    assert {"sparql", "patterns", "slots", "examples", "confidence"} <= data.keys()


@pytest.mark.parametrize("args, message", [
    (["translate", "   "], "empty"),
    (["translate", "Which nouns?", "--pool", "/nonexistent/pool.jsonl"], "no such pool file"),
    (["translate", "Which nouns?", "--offline", "--llm"], "choose one"),
    (["validate", "/nonexistent/query.rq"], "no such query file"),
])
def test_bad_input_is_one_clear_line(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output


def test_validate_file_stdin_fix_and_exit_codes(tmp_path):
    good = tmp_path / "good.rq"
    good.write_text("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
                    "SELECT ?l WHERE { ?l a lila:Lemma } ORDER BY ?l\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(good)])
    assert result.exit_code == 0 and "no rule is broken" in result.stdout

    bad = 'SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr . FILTER(?wr = "casa") }'
    result = runner.invoke(app, ["validate", "-", "--no-execute"], input=bad)
    assert result.exit_code == 1 and "string_compare" in result.stdout and "missing_prefix" in result.stdout

    result = runner.invoke(app, ["validate", "-", "--fix"], input=bad)
    assert result.exit_code == 0, result.output
    assert "STR(?wr)" in result.stdout and "fixed:" in result.stdout

    result = runner.invoke(app, ["validate", "-", "--fix", "--json"], input=bad)
    data = json.loads(result.stdout)
    assert data["fixes"] and 'FILTER(STR(?wr) = "casa")' in data["fixed"] and data["issues_after_fix"] == []


def test_evaluate_uses_the_offline_translator(pool_file, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(app, ["evaluate", str(pool_file), "--split", "test", "--lang", "en", "--json",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert summary["n"] >= 10 and summary["strict_accuracy"] >= 0.8
    predictions = [json.loads(l) for l in (out / "predictions.jsonl").read_text().splitlines()]
    assert all(p["sparql"] for p in predictions)
