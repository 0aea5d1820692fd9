"""``nl2sparql agent`` and ``nl2sparql agent-viz`` through the real Typer app (embedded sample)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nl2sparql.agent import NODES
from nl2sparql.cli.main import app

runner = CliRunner()
#: A question whose first query finds nothing: «spaventato» is a hypolemma, which the agent explores to.
QUESTION = "What is the Italian for the Sicilian word 'scantu'?"


@pytest.fixture(autouse=True)
def sample_only(monkeypatch):
    monkeypatch.delenv("NL2SPARQL_STORE", raising=False)
    monkeypatch.delenv("NL2SPARQL_ENDPOINT", raising=False)


def test_agent_viz_prints_the_mermaid_graph():
    result = runner.invoke(app, ["agent-viz"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "graph TD;" in out and all(f"\t{n}({n})" in out for n in NODES)
    for edge in ("verify -.-> refine;", "verify -.-> explore;", "verify -.-> output;", "refine --> retrieve;",
                 "explore --> generate;", "generate -.-> execute;", "output --> __end__;"):
        assert edge in out


def test_agent_shows_the_trace_the_query_the_attempts_and_the_rows():
    result = runner.invoke(app, ["agent", QUESTION])
    assert result.exit_code == 0, result.output
    out = result.output
    for piece in ("analyze", "explore", "'scantu' is in:", "explore:dialect",
                  "confidence 0.", "verified", "Attempts", "?wr"):
        assert piece in out


def test_agent_stream_prints_each_node_in_order():
    result = runner.invoke(app, ["agent", "--stream", QUESTION])
    assert result.exit_code == 0, result.output
    lines = [line.split()[1] for line in result.output.splitlines() if line[:3].strip().isdigit()]
    assert lines == ["analyze", "plan", "retrieve", "generate", "execute", "verify", "explore", "generate",
                     "execute", "verify", "output"]


def test_agent_json_and_json_stream():
    full = runner.invoke(app, ["agent", "--json", QUESTION])
    assert full.exit_code == 0, full.output
    data = json.loads(full.output)
    assert data["final"]["source"] == "explore:dialect" and data["rows"]["variables"] == ["wr"]
    assert [q["attempt"] for q in data["queries"]][-1] == 2
    streamed = runner.invoke(app, ["agent", "--stream", "--json", QUESTION])
    steps = [json.loads(line) for line in streamed.output.splitlines()]
    assert [s["node"] for s in steps] == [t["node"] for t in data["trace"]]
    assert steps[-1]["state"]["refinements"] == data["refinements"]


def test_agent_checkpoint_and_thread(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    first = runner.invoke(app, ["agent", "--json", "--checkpoint", db, "--thread", "t1", QUESTION])
    again = runner.invoke(app, ["agent", "--json", "--checkpoint", db, "--thread", "t1", QUESTION])
    assert (json.loads(first.output)["status"], json.loads(again.output)["status"]) == ("new", "finished")
    other = runner.invoke(app, ["agent", "--checkpoint", db, "--thread", "t1", "Quali parole esprimono gioia?"])
    assert other.exit_code == 2 and "another question" in other.output and "Traceback" not in other.output


@pytest.mark.parametrize("args, message", [
    (["agent", " "], "the question is empty"),
    (["agent", "--thread", "x", "Quali parole esprimono gioia?"], "needs a checkpoint file"),
    (["agent", "--checkpoint", "/no/such/dir/x.sqlite", "Quali parole esprimono gioia?"], "no such directory"),
])
def test_agent_bad_input_is_one_line(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1
