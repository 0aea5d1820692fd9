"""The ``score`` and ``evaluate`` commands (on a tiny app that registers them) and evaluate_items."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from nl2sparql.cli import evaluate_cmd, score_cmd
from nl2sparql.errors import ConfigError, DataError
from nl2sparql.score.data import GoldItem, load_gold
from nl2sparql.score.evaluate import (PREDICTORS, EvalContext, GarbagePredictor, Predictor,
                                      evaluate_items, make_predictor, perturb_query, register_predictor)

from test_score_runner import GOLD_QUERIES, pool_rows, write_jsonl
from test_score_support import TinyKB

runner = CliRunner()


@pytest.fixture
def app(monkeypatch) -> typer.Typer:
    kb = TinyKB()
    opened = lambda store, endpoint, timeout=None, max_rows=None, services=None: kb  # noqa: E731 - an open KB is used as is
    monkeypatch.setattr(score_cmd, "kb_choice", opened)
    monkeypatch.setattr(evaluate_cmd, "kb_choice", opened)
    app = typer.Typer(pretty_exceptions_enable=False)
    app.command("score")(score_cmd.score)
    app.command("evaluate")(evaluate_cmd.evaluate)
    return app


@pytest.fixture
def pool(tmp_path):
    return write_jsonl(tmp_path / "pool.jsonl", pool_rows())


def test_score_command_json_and_reports(app, pool, tmp_path):
    rows = pool_rows()
    preds = [{"id": r["id"], "sparql": r["sparql"]} for r in rows[1:]]
    preds.append({"id": "stranger", "sparql": "ASK {}"})
    pred = write_jsonl(tmp_path / "pred.jsonl", preds)
    out = tmp_path / "rep"
    result = runner.invoke(app, ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    n = len(rows)
    assert payload["summary"]["n"] == n
    assert payload["summary"]["strict_accuracy"] == pytest.approx((n - 1) / n)
    assert payload["summary"]["by_error"] == {"missing": 1}
    assert (out / "report.json").exists() and (out / "report.md").exists()
    assert (out / "accuracy_by_pattern.png").exists()
    assert "not in the gold pool" in result.stderr


def test_score_command_rich_summary_and_flags(app, pool, tmp_path):
    preds = [{"id": r["id"], "sparql": r["sparql"].replace("SELECT ?p WHERE", "SELECT ?p ?c WHERE")
              .replace("?p ex:colour ?c FILTER", "?p ex:colour ?c FILTER")} for r in pool_rows()]
    pred = write_jsonl(tmp_path / "pred.jsonl", preds)
    strict = runner.invoke(app, ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(tmp_path / "a"),
                                 "--json"])
    loose = runner.invoke(app, ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(tmp_path / "b"),
                                "--allow-extra-columns", "--json"])
    assert strict.exit_code == loose.exit_code == 0
    s, lo = json.loads(strict.stdout)["summary"], json.loads(loose.stdout)["summary"]
    assert s["strict_accuracy"] < 1.0 and lo["strict_accuracy"] == 1.0
    assert s["relaxed_accuracy"] == 1.0
    text = runner.invoke(app, ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(tmp_path / "c"),
                               "--split", "test", "--tolerance", "0.01", "--lang-tags", "ignore"])
    assert text.exit_code == 0
    assert "strict" in text.stdout and "column_mismatch" in text.stdout and "wrote markdown" in text.stdout


@pytest.mark.parametrize("args,message", [
    (["--pred", "MISSING"], "no such file"),
    (["--lang-tags", "drop"], "language-tag policy"),
    (["--split", "nope"], "no gold items in split 'nope'"),
])
def test_score_command_errors_are_one_line(app, pool, tmp_path, args, message):
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"id": "green", "sparql": "ASK {}"}])
    base = ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(tmp_path / "r")]
    if args[0] == "--pred":
        base[base.index("--pred") + 1] = str(tmp_path / args[1])
        args = []
    result = runner.invoke(app, base + args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_score_command_bad_json(app, pool, tmp_path):
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"id": "green", "sparql": "ASK {}"}\nnot json\n')
    result = runner.invoke(app, ["score", "--gold", str(pool), "--pred", str(pred), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "line 2: not valid JSON" in result.stderr


# -- evaluate -------------------------------------------------------------------------------------


@pytest.mark.parametrize("translator,expected", [("gold", 1.0), ("perturbed", None), ("garbage", 0.0)])
def test_evaluate_command_with_builtin_translators(app, pool, tmp_path, translator, expected):
    out = tmp_path / translator
    result = runner.invoke(app, ["evaluate", str(pool), "--translator", translator, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    if expected is None:
        assert summary["strict_accuracy"] < 0.5  # most perturbed queries answer differently
    else:
        assert summary["strict_accuracy"] == expected
    if translator == "garbage":
        assert summary["by_error"] == {"parse": summary["n"]}
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(predictions) == summary["n"] and {"id", "question", "sparql"} <= set(predictions[0])


def test_evaluate_command_english_split_and_question_file(app, pool, tmp_path):
    result = runner.invoke(app, ["evaluate", str(pool), "-t", "gold", "--lang", "en", "--split", "test",
                                 "--out", str(tmp_path / "en"), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert summary["n"] == sum(r["split"] == "test" for r in pool_rows()) and summary["strict_accuracy"] == 1.0
    qfile = write_jsonl(tmp_path / "q.jsonl", [{"id": k, "question": f"q {k}", "sparql": v}
                                               for k, v in GOLD_QUERIES.items()])
    plain = runner.invoke(app, ["evaluate", str(qfile), "-t", "gold", "--out", str(tmp_path / "q"), "--limit", "3"])
    assert plain.exit_code == 0, plain.output
    assert "100.0%" in plain.stdout


def test_evaluate_command_unknown_translator(app, pool, tmp_path):
    result = runner.invoke(app, ["evaluate", str(pool), "--translator", "nope", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "unknown translator 'nope'" in result.stderr
    default = runner.invoke(app, ["evaluate", str(pool), "--out", str(tmp_path / "y")])
    if "offline" not in PREDICTORS:
        assert default.exit_code == 2 and "'offline'" in default.stderr


def test_evaluate_command_bad_language(app, pool, tmp_path):
    result = runner.invoke(app, ["evaluate", str(pool), "-t", "gold", "--lang", "fr", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "language must be one of" in result.stderr


# -- evaluate_items and the registry -----------------------------------------------------------------


def test_registry_and_failing_translator(tmp_path):
    items = load_gold(write_jsonl(tmp_path / "p.jsonl", pool_rows()))

    class Flaky:
        def __init__(self, ctx: EvalContext):
            self.ctx = ctx

        def predict(self, question: str, lang: str) -> str:
            if "green" in question:
                raise RuntimeError("model exploded\nwith a second line")
            return next(i.sparql for i in self.ctx.items if i.text(lang) == question)

    register_predictor("flaky-test", Flaky)
    try:
        with pytest.raises(ConfigError):
            register_predictor("flaky-test", Flaky)
        predictor = make_predictor("flaky-test", EvalContext(items, None, "it"))
        assert isinstance(predictor, Predictor)
        run = evaluate_items(TinyKB(), items, predictor)
    finally:
        PREDICTORS.pop("flaky-test")
    by_id = {s.id: s for s in run.scores}
    assert by_id["green"].error == "translator" and by_id["green"].detail == "translator failed: model exploded"
    assert all(s.strict for i, s in by_id.items() if i != "green")
    assert by_id["green"].patterns == ["FILTER"]


def test_evaluate_items_skips_items_without_question():
    items = [GoldItem("a", GOLD_QUERIES["count"], question="quanti?"), GoldItem("b", GOLD_QUERIES["ask"])]
    run = evaluate_items(TinyKB(), items, make_predictor("gold", EvalContext(items)))
    assert run.skipped == ["b"] and [s.id for s in run.scores] == ["a"] and run.scores[0].strict
    with pytest.raises(DataError, match="no questions in en"):
        evaluate_items(TinyKB(), items, GarbagePredictor(), lang="en")


def test_perturb_query_changes_one_constant_outside_comments():
    q = '# "comment"\nSELECT ?x WHERE { ?x ?p "a" . ?x ?q "b" } LIMIT 5'
    assert perturb_query(q) == '# "comment"\nSELECT ?x WHERE { ?x ?p "a_perturbed" . ?x ?q "b" } LIMIT 5'
    assert perturb_query("SELECT ?x WHERE { ?x ?p 3 }") == "SELECT ?x WHERE { ?x ?p 4 }"
    assert perturb_query("SELECT ?x WHERE { ?x ?p ?o }") == "SELECT ?x WHERE { ?x ?p ?o  FILTER(false) }"


def test_translator_given_as_module_and_factory(app, pool, tmp_path):
    ctx = EvalContext([])
    assert isinstance(make_predictor("nl2sparql.score.evaluate:GarbagePredictor", ctx), GarbagePredictor)
    with pytest.raises(ConfigError, match="cannot import"):
        make_predictor("nl2sparql.no_such_module:Thing", ctx)
    with pytest.raises(ConfigError, match="no callable"):
        make_predictor("nl2sparql.score.evaluate:nothing_here", ctx)

    def broken(ctx):
        raise RuntimeError("no model weights")

    register_predictor("broken-test", broken)
    try:
        with pytest.raises(ConfigError, match="could not start: no model weights"):
            make_predictor("broken-test", ctx)
    finally:
        PREDICTORS.pop("broken-test")
    result = runner.invoke(app, ["evaluate", str(pool), "-t", "nl2sparql.score.evaluate:GoldPredictor",
                                 "--out", str(tmp_path / "m"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["strict_accuracy"] == 1.0
