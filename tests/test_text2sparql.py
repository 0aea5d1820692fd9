"""``nl2sparql-gen ask --agent-text2sparql``: an agent behind the Text2SPARQL challenge API, played by a scripted
HTTP server on 127.0.0.1 (``GET /?question=…&dataset=…`` answering ``{dataset, question, query}``)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from typer.testing import CliRunner

from nl2sparql import api
from nl2sparql.cli.gen import app
from nl2sparql.fileio import read_pool

runner = CliRunner()
ODD = "Quali parole esprimono «paura» & gioia? ✨ 100% sì/no #1"


class Text2SparqlServer:
    """A scripted Text2SPARQL service: ``script`` maps a question to a query (a str) or to
    ``{"status": n, "body": str or dict, "sleep": s}``; every request's parameters are recorded."""

    def __init__(self, script: dict):
        self.script = script
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server API
                params = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                server.requests.append({"path": urlsplit(self.path).path, **params})
                action = server.script.get(params.get("question"), {"status": 404, "body": {"detail": "unknown"}})
                if isinstance(action, str):
                    action = {"body": {"dataset": params.get("dataset"), "question": params.get("question"),
                                       "query": action}}
                time.sleep(action.get("sleep", 0))
                body = action.get("body", "")
                data = (json.dumps(body) if isinstance(body, dict) else body).encode()
                self.send_response(action.get("status", 200))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):  # keep the test output clean
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "Text2SparqlServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def pool(tmp_path):
    """Six items of the shipped sample pool; the first question is full of characters a URL must escape."""
    items = [dict(i) for i in read_pool(api.resolve_pool("sample"))[0][:6]]
    items[0]["nl"] = ODD
    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path, items


def ask(*args: str):
    result = runner.invoke(app, ["ask", *args, "--json"])
    return result, (json.loads(result.stdout) if result.exit_code == 0 else None)


def test_a_text2sparql_service_answers_are_recorded_and_scored(pool, tmp_path):
    path, items = pool
    q = [i["nl"] for i in items]
    script = {q[0]: items[0]["sparql"], q[1]: items[1]["sparql"], q[2]: f"```sparql\n{items[2]['sparql']}\n```",
              q[3]: {"status": 500, "body": "Internal Server Error"},
              q[4]: {"body": {"dataset": "x", "question": q[4]}},  # no query
              q[5]: {"body": items[5]["sparql"], "sleep": 5}}  # far too slow (the handler thread is not waited for)
    out = tmp_path / "pred.jsonl"
    with Text2SparqlServer(script) as server:
        result, data = ask(str(path), "--out", str(out), "--agent-text2sparql", server.url,
                           "--dataset", "https://text2sparql.aksw.org/2026/liita/", "--timeout", "1",
                           "--concurrency", "2", "--score", "--report", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert (data["asked"], data["answered"], data["errors"]) == (6, 3, 3)
    # the question arrives exactly as written, with the dataset, on GET /
    assert {r["question"] for r in server.requests} == set(q)
    assert {(r["path"], r["dataset"]) for r in server.requests} == {("/", "https://text2sparql.aksw.org/2026/liita/")}
    records = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert records[items[2]["id"]]["sparql"].startswith(items[2]["sparql"].strip()[:20])
    errors = {items[k]["id"]: records[items[k]["id"]]["error"] for k in (3, 4, 5)}
    assert errors[items[3]["id"]].startswith("HTTP 500 from")
    assert "no \"query\" text" in errors[items[4]["id"]]
    assert errors[items[5]["id"]] == "timed out after 1 s"
    summary = data["score"]["summary"]
    assert summary["strict_accuracy"] == pytest.approx(3 / 6)
    assert summary["field"]["t2s_items"] >= 3  # the official measure sits beside ours in the same report


def test_a_service_that_is_down_is_one_line(pool, tmp_path):
    path, _ = pool
    with Text2SparqlServer({}) as server:
        url = server.url
    out = tmp_path / "pred.jsonl"
    result = runner.invoke(app, ["ask", str(path), "--out", str(out), "--agent-text2sparql", url, "--timeout", "2"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "the agent failed on the first 3 question(s)" in " ".join(result.output.split())
    assert f"cannot reach {url}" in " ".join(result.output.split())
    assert not out.exists() or out.read_text() == ""


@pytest.mark.parametrize("args,message", [
    (["--agent-text2sparql", "127.0.0.1:8000"], "--agent-text2sparql needs an http(s) URL"),
    (["--agent-text2sparql", "http://127.0.0.1:9/", "--dataset", " "], "--dataset must not be empty"),
    (["--agent-text2sparql", "http://127.0.0.1:9/", "--agent-cmd", "echo {question}"], "choose one agent"),
])
def test_bad_text2sparql_options_are_one_line(pool, tmp_path, args, message):
    path, _ = pool
    result = runner.invoke(app, ["ask", str(path), "--out", str(tmp_path / "p.jsonl"), *args])
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output
