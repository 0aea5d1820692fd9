"""``nl2sparql-gen ask``: an external agent answers a pool's questions, reached by a command, an
OpenAI-compatible chat endpoint (the scripted server) or an MCP tool (our own server); each run is scored."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.gen import app
from nl2sparql.fileio import read_pool
from llm_fake_server import error, reply_by_content
from mcp_helpers import NL2SPARQL

AGENT = Path(__file__).with_name("scripted_agent.py")
NASTY = ["Quali parole? '; touch PWNED; echo \"$(touch PWNED2)\" `touch PWNED3` {question} \\ fine",
         "Riga uno\nriga due ✨ -- --answers /etc/passwd"]
RECORD_KEYS = {"id", "question", "sparql", "latency_ms", "error"}
runner = CliRunner()


@pytest.fixture
def pool(tmp_path) -> tuple[Path, list[dict]]:
    """Eight items of the shipped sample pool; two get questions full of shell metacharacters."""
    items = [dict(i) for i in read_pool(api.resolve_pool("sample"))[0][:8]]
    items[1]["nl"], items[6]["nl"] = NASTY
    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path, items


def command(tmp_path: Path, answers: dict, stdin: bool = False) -> str:
    (tmp_path / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    question = "" if stdin else " --question {question}"
    return f"{sys.executable} {AGENT} --answers {tmp_path / 'answers.json'} --log {tmp_path / 'calls.log'}{question}"


def calls(tmp_path: Path) -> list[dict]:
    log = tmp_path / "calls.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def records(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [json.loads(line) for line in lines]
    assert all(set(r) == RECORD_KEYS for r in out)
    return out


def invoke(*args: str):
    result = runner.invoke(app, ["ask", *args, "--json"])
    return result, (json.loads(result.stdout) if result.exit_code == 0 else None)


def script(items: list[dict]) -> dict:
    """Gold for five items (fenced, bare, after prose), a wrong query, a failing run, a garbage answer."""
    q = [i["nl"] for i in items]
    return {q[0]: f"```sparql\n{items[0]['sparql']}\n```", q[1]: items[1]["sparql"],
            q[2]: f"Sure! Here is the query:\n\n{items[2]['sparql']}\n\nIt lists what you asked.",
            q[3]: f"```\n{items[3]['sparql']}\n```", q[4]: f"```sparql\n{items[4]['sparql']}\n```",
            q[5]: "```sparql\nSELECT ?e WHERE { ?e a elita:Emotion }\n```",
            q[6]: {"stderr": "model crashed", "exit": 3}, q[7]: "I am not sure what you mean."}


# -- a command ---------------------------------------------------------------------------------------
def test_command_agent_answers_are_recorded_and_scored(pool, tmp_path, monkeypatch):
    path, items = pool
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "pred.jsonl"
    result, data = invoke(str(path), "--out", str(out), "--agent-cmd", command(tmp_path, script(items)),
                          "--concurrency", "1", "--score", "--report", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert (data["asked"], data["answered"], data["errors"]) == (8, 6, 2)
    assert data["score"]["summary"]["n"] == 8 and data["score"]["summary"]["strict_accuracy"] == pytest.approx(5 / 8)
    assert (tmp_path / "report" / "report.json").is_file()
    by_id = {r["id"]: r for r in records(out)}
    assert by_id[items[2]["id"]]["sparql"] == items[2]["sparql"].strip()
    assert by_id[items[6]["id"]]["sparql"] is None and by_id[items[6]["id"]]["error"] == "exit status 3: model crashed"
    assert by_id[items[7]["id"]]["error"].startswith("no SPARQL query in the answer: 'I am not sure")
    assert all(r["latency_ms"] > 0 for r in by_id.values())
    # the questions reached the agent byte for byte, as single arguments, and nothing ran in a shell
    assert {c["question"] for c in calls(tmp_path)} == {i["nl"] for i in items}
    assert by_id[items[1]["id"]]["question"] == NASTY[0]
    assert not list(tmp_path.glob("PWNED*")) and not list(Path.cwd().glob("PWNED*"))


def test_question_on_stdin_when_the_template_has_no_placeholder(pool, tmp_path):
    path, items = pool
    out = tmp_path / "pred.jsonl"
    result, data = invoke(str(path), "--out", str(out), "--limit", "2",
                          "--agent-cmd", command(tmp_path, script(items), stdin=True))
    assert result.exit_code == 0, result.output
    assert data["answered"] == 2 and [c["question"] for c in calls(tmp_path)][:2] != []
    assert {c["question"] for c in calls(tmp_path)} == {items[0]["nl"], items[1]["nl"]}


def test_resume_skips_answered_ids_repairs_a_torn_line_and_retries_errors(pool, tmp_path):
    path, items = pool
    answers = script(items)
    out = tmp_path / "pred.jsonl"
    cmd = command(tmp_path, answers)
    assert invoke(str(path), "--out", str(out), "--agent-cmd", cmd, "--limit", "3")[0].exit_code == 0
    assert len(calls(tmp_path)) == 3
    with open(out, "a", encoding="utf-8") as fh:
        fh.write('{"id": "torn", "quest')  # a run killed in the middle of a line
    result, data = invoke(str(path), "--out", str(out), "--agent-cmd", cmd, "--concurrency", "3")
    assert result.exit_code == 0, result.output
    assert (data["resumed"], data["asked"], len(calls(tmp_path))) == (3, 5, 8)
    assert sorted(r["id"] for r in records(out)) == sorted(i["id"] for i in items)
    answers[items[6]["nl"]] = items[6]["sparql"]  # the agent is fixed
    answers[items[7]["nl"]] = items[7]["sparql"]
    cmd = command(tmp_path, answers)
    result, data = invoke(str(path), "--out", str(out), "--agent-cmd", cmd, "--retry-errors")
    assert (data["asked"], data["answered"], data["errors"]) == (2, 2, 0)
    assert all(r["sparql"] for r in records(out)) and len(records(out)) == 8


def test_per_question_timeout(pool, tmp_path):
    path, items = pool
    answers = {i["nl"]: i["sparql"] for i in items[:4]}
    answers[items[2]["nl"]] = {"sleep": 20, "print": items[2]["sparql"]}
    out = tmp_path / "pred.jsonl"
    start = time.monotonic()
    result, data = invoke(str(path), "--out", str(out), "--agent-cmd", command(tmp_path, answers), "--limit", "4",
                          "--concurrency", "1", "--timeout", "1")
    assert result.exit_code == 0, result.output
    assert time.monotonic() - start < 15
    late = next(r for r in records(out) if r["id"] == items[2]["id"])
    assert late["error"] == "timed out after 1 s" and late["sparql"] is None and 900 < late["latency_ms"] < 5000
    assert data["answered"] == 3


def test_concurrency_is_bounded(pool, tmp_path):
    path, items = pool
    answers = {i["nl"]: {"sleep": 0.5, "print": i["sparql"]} for i in items}
    result, _ = invoke(str(path), "--out", str(tmp_path / "pred.jsonl"), "--agent-cmd", command(tmp_path, answers),
                       "--concurrency", "3")
    assert result.exit_code == 0, result.output
    spans = [(c["start"], c["end"]) for c in calls(tmp_path)]
    most = max(sum(1 for s, e in spans if s <= t < e) for t, _ in spans)
    assert most == 3


@pytest.mark.parametrize("template,message", [
    ("no-such-agent-binary --question {question}", "agent command not found: no-such-agent-binary"),
    ("python -c 'unbalanced", "cannot read the agent command"),
    (f"{sys.executable} -c 'import sys; sys.exit(\"quota exceeded\")' {{question}}",
     "the agent failed on the first 3 question(s), nothing was recorded: exit status 1: quota exceeded"),
])
def test_a_bad_agent_is_one_line_and_records_nothing(pool, tmp_path, template, message):
    path, _ = pool
    out = tmp_path / "pred.jsonl"
    result = runner.invoke(app, ["ask", str(path), "--out", str(out), "--agent-cmd", template])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not out.exists() or out.read_text() == ""


@pytest.mark.parametrize("args,message", [
    ([], "choose one agent: --agent-cmd, --agent-openai, --agent-mcp or --agent-text2sparql"),
    (["--agent-cmd", "echo {question}", "--agent-openai", "http://127.0.0.1:9/v1"], "choose one agent"),
    (["--agent-openai", "http://127.0.0.1:9/v1"], "--agent-openai needs --model"),
    (["--agent-mcp", "nl2sparql mcp serve"], "--agent-mcp needs --tool"),
    (["--agent-cmd", "echo {question}", "--lang", "fr"], "language must be it or en"),
])
def test_bad_options_are_one_line(pool, tmp_path, args, message):
    path, _ = pool
    result = runner.invoke(app, ["ask", str(path), "--out", str(tmp_path / "p.jsonl"), *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_predictions_file_that_is_not_one_is_refused(pool, tmp_path):
    path, _ = pool
    bad = tmp_path / "pred.jsonl"
    bad.write_text('{"id": "a", "sparql": null}\nnot json\n{"id": "b"}\n')
    result = runner.invoke(app, ["ask", str(path), "--out", str(bad), "--agent-cmd", "echo {question}"])
    assert result.exit_code == 2 and "line 2: not valid JSON" in result.output


# -- an OpenAI-compatible chat endpoint --------------------------------------------------------------
def test_openai_agent_against_the_scripted_chat_server(pool, tmp_path, fake_llm, monkeypatch):
    path, items = pool
    monkeypatch.setenv("AGENT_KEY", "sk-agent")
    answers = script(items)
    answers[items[6]["nl"]] = error(400, "this question is refused")
    fake_llm.handler = reply_by_content([(_pattern(q), a) for q, a in answers.items()])
    fake_llm.enqueue(error(503))  # one transient failure: retried
    out = tmp_path / "pred.jsonl"
    result, data = invoke(str(path), "--out", str(out), "--agent-openai", fake_llm.url, "--model", "agent-model",
                          "--api-key-env", "AGENT_KEY", "--concurrency", "2", "--score",
                          "--report", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert (data["answered"], data["errors"]) == (6, 2)
    assert data["score"]["summary"]["strict_accuracy"] == pytest.approx(5 / 8)
    first = fake_llm.requests[0]
    assert first.json["model"] == "agent-model" and first.headers["authorization"] == "Bearer sk-agent"
    system, user = first.json["messages"]
    assert "exactly one SPARQL query" in system["content"] and user["content"] in {i["nl"] for i in items}
    refused = next(r for r in records(out) if r["id"] == items[6]["id"])
    assert "this question is refused" in refused["error"]


def _pattern(question: str) -> str:
    """Matches a request whose last message (the user turn) is exactly ``question``."""
    return "\n" + re.escape(question) + r"\Z"


# -- an MCP tool: our own server ---------------------------------------------------------------------
def test_mcp_agent_is_our_own_servers_translate_tool(tmp_path):
    out = tmp_path / "pred.jsonl"
    result, data = invoke("sample", "--out", str(out), "--limit", "4", "--agent-mcp", f"{NL2SPARQL} mcp serve",
                          "--tool", "translate", "--arg", "question", "--tool-args", '{"mode": "offline"}',
                          "--concurrency", "2", "--score", "--report", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert data["agent"] == f"mcp: translate of {NL2SPARQL} mcp serve"
    assert (data["asked"], data["answered"], data["errors"]) == (4, 4, 0)
    assert all(r["sparql"].lstrip().startswith("PREFIX") for r in records(out))
    assert data["score"]["summary"]["n"] == 4 and data["score"]["summary"]["strict_accuracy"] >= 0.5
    assert (tmp_path / "report" / "report.md").is_file()


@pytest.mark.parametrize("args,message", [
    (["--agent-mcp", f"{NL2SPARQL} mcp serve", "--tool", "nope"], "the MCP server has no tool 'nope' (it has: "),
    (["--agent-mcp", f"{NL2SPARQL} mcp serve --transport carrier-pigeon", "--tool", "translate"],
     "unknown transport 'carrier-pigeon'"),
    (["--agent-mcp", "no-such-server", "--tool", "translate"], "MCP server command not found: no-such-server"),
    (["--agent-mcp", f"{NL2SPARQL} mcp serve", "--tool", "translate", "--tool-args", "[1]"],
     "--tool-args must be a JSON object"),
])
def test_a_bad_mcp_agent_is_one_line(tmp_path, args, message):
    result = runner.invoke(app, ["ask", "sample", "--out", str(tmp_path / "p.jsonl"), *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output
