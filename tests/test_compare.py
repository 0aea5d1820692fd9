"""``nl2sparql-gen compare``: several runs against one gold on the embedded sample, side by side."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.gen import app
from nl2sparql.score.data import load_gold

runner = CliRunner()
WRONG = "PREFIX elita: <http://w3id.org/elita/>\nSELECT ?e WHERE { ?e a elita:Emotion }"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Eight items of the sample's test split; run A answers each in Italian with its gold, run B in English, with
    two items wrong and one missing."""
    tmp = tmp_path_factory.mktemp("compare")
    items = load_gold(api.resolve_pool("sample"), "test")[:8]
    a = [{"id": i.id, "question": i.question, "sparql": i.sparql} for i in items]
    b = [{"id": i.id, "question": i.question_en, "sparql": WRONG if n in (1, 4) else i.sparql}
         for n, i in enumerate(items) if n != 6]
    paths = {}
    for name, records in (("a", a), ("b", b)):
        paths[name] = tmp / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return items, paths, tmp


def test_two_runs_side_by_side(runs):
    items, paths, tmp = runs
    out = tmp / "report"
    result = runner.invoke(app, ["compare", "--gold", "sample", "--split", "test", "--pred", f"gold-it={paths['a']}",
                                 "--pred", f"tuned-en={paths['b']}", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["runs"] == ["gold-it", "tuned-en"] and data["items"] == 8
    assert data["agents"]["gold-it"]["measures"]["strict_accuracy"] == 1.0
    assert data["agents"]["tuned-en"]["measures"]["strict_accuracy"] == pytest.approx(5 / 8)
    assert set(data["agents"]["tuned-en"]["measures"]) >= {"t2s_f1", "qald_macro_f1", "macro_f1"}
    # the language of each run is the language of the questions it answered
    assert set(data["by_language"]) == {"it", "en", "unknown"}
    assert data["by_language"]["it"]["gold-it"]["n"] == 8 and "tuned-en" not in data["by_language"]["it"]
    assert data["by_language"]["en"]["tuned-en"]["n"] == 7  # the missing one has no question
    assert set(data["by_difficulty"]) <= {"easy", "medium", "hard"}
    changed = {d["id"]: d for d in data["differences"]}
    assert set(changed) == {items[1].id, items[4].id, items[6].id}
    assert all(d["change"] == "broken" for d in changed.values())
    assert changed[items[6].id]["runs"]["tuned-en"]["error"] == "missing"
    assert "has no prediction for 1 of the 8 items" in result.output
    md = (out / "compare.md").read_text(encoding="utf-8")
    assert "tuned-en against gold-it: 0 fixed, 3 broken." in md and "Strict accuracy by language" in md
    png = (out / "compare.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_compare_reads_well_at_80_columns(runs):
    _, paths, tmp = runs
    result = runner.invoke(app, ["compare", "--gold", "sample", "--split", "test", "--pred", f"a={paths['a']}",
                                 "--pred", f"b={paths['b']}", "--out", str(tmp / "r80")], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "Text2SPARQL F1" in result.output and "item(s) where the runs differ" in result.output


@pytest.mark.parametrize("args,message", [
    (["--pred", "only=a.jsonl"], "compare needs at least two runs"),
    (["--pred", "x=a.jsonl", "--pred", "x=b.jsonl"], "each run needs a label of its own"),
    (["--pred", "a=a.jsonl", "--pred", "b=nope.jsonl"], "nope.jsonl"),
])
def test_bad_runs_are_one_line(runs, args, message):
    _, paths, tmp = runs
    args = [a.replace("a.jsonl", str(paths["a"])).replace("b.jsonl", str(paths["b"])) for a in args]
    result = runner.invoke(app, ["compare", "--gold", "sample", *args, "--out", str(tmp / "bad")])
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output
