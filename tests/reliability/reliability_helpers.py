"""Helpers of the reliability corpus: local HTTP servers that count what reaches them, CLI runners.

Every server binds 127.0.0.1 on an ephemeral port and stops after its test.
:class:`CountingServer` records each request (method, path, form fields) and
answers according to its mode (:data:`MODES`): the first segment of the
request's path when it names a mode (``http://127.0.0.1:PORT/html/sparql``), so
one server plays every faulty endpoint at once, else :attr:`CountingServer.mode`,
which a test may switch while a long-lived client keeps one URL.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

EMPTY_SELECT = b'{"head": {"vars": ["s"]}, "results": {"bindings": []}}'
#: Rows in the ``huge`` answer (about 30 MB of SPARQL JSON, made while it is sent).
HUGE_ROWS = 300_000
#: What each mode answers.
MODES = {
    "fail": "HTTP 500, every time",
    "hang": "accepts the request and never answers (until the server stops)",
    "answer": "an empty SPARQL JSON result: a working endpoint",
    "html": "HTTP 200 with an HTML page instead of results",
    "badjson": "HTTP 200 with SPARQL JSON cut off in the middle",
    "notresults": "HTTP 200 with JSON that is not SPARQL results",
    "trickle": "HTTP 200 headers, then one byte every 50 ms, forever",
    "huge": f"HTTP 200 with {HUGE_ROWS:,} result rows",
    "busy": "HTTP 429 with Retry-After: 0, every time (a 429 storm)",
    "drop": "closes the connection without answering",
    "missing": "HTTP 404",
    "redirect": "HTTP 302 to the URL in CountingServer.redirect_to",
}


class CountingServer:
    """A local HTTP server that records every request; see the module docstring and :data:`MODES`."""

    def __init__(self, mode: str = "fail", redirect_to: str = "http://127.0.0.1:9/elsewhere"):
        self.mode = mode
        self.redirect_to = redirect_to
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def _any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                form = urllib.parse.parse_qs(body) if "urlencoded" in (self.headers.get("Content-Type") or "") else {}
                with server._lock:
                    server.requests.append({"method": self.command, "path": self.path, "body": body, "form": form})
                first = self.path.strip("/").split("/")[0]
                try:
                    server._answer(self, first if first in MODES else server.mode)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, as it should

            do_GET = do_POST = _any

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def _answer(self, http: BaseHTTPRequestHandler, mode: str) -> None:
        if mode == "hang":
            self._stop.wait(120)
            return
        if mode == "drop":
            http.close_connection = True
            return
        if mode == "trickle":
            http.send_response(200)
            http.send_header("Content-Type", "application/sparql-results+json")
            http.end_headers()
            while not self._stop.wait(0.05):
                http.wfile.write(b" ")
                http.wfile.flush()
            return
        if mode == "huge":
            http.send_response(200)
            http.send_header("Content-Type", "application/sparql-results+json")
            http.end_headers()
            http.wfile.write(b'{"head": {"vars": ["s", "o"]}, "results": {"bindings": [')
            row = '{"s": {"type": "uri", "value": "http://example.org/r%d"}, "o": {"type": "literal", "value": "v%d"}}'
            for start in range(0, HUGE_ROWS, 1000):
                chunk = ",".join(row % (i, i) for i in range(start, min(start + 1000, HUGE_ROWS)))
                http.wfile.write((("," if start else "") + chunk).encode())
                if self._stop.is_set():
                    return
            http.wfile.write(b"]}}")
            return
        status, ctype, body, headers = {
            "answer": (200, "application/sparql-results+json", EMPTY_SELECT, {}),
            "html": (200, "text/html", b"<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>", {}),
            "badjson": (200, "application/sparql-results+json", b'{"head": {"vars": ["s"]}, "results": {"bind', {}),
            "notresults": (200, "application/json", b'{"status": "ok", "results": 5}', {}),
            "busy": (429, "text/plain", b"slow down", {"Retry-After": "0"}),
            "missing": (404, "text/plain", b"no such page", {}),
            "redirect": (302, "text/plain", b"", {"Location": self.redirect_to}),
        }.get(mode, (500, "text/plain", b"", {}))
        http.send_response(status)
        http.send_header("Content-Type", ctype)
        http.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            http.send_header(name, value)
        http.end_headers()
        http.wfile.write(body)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/`` (append a path)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/"

    @property
    def count(self) -> int:
        """Requests received so far."""
        with self._lock:
            return len(self.requests)

    def __enter__(self) -> "CountingServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def victim():
    """A server no query may make the engine or an endpoint call (answers 500)."""
    with CountingServer("fail") as server:
        yield server


@pytest.fixture
def endpoint():
    """A SPARQL endpoint answering every query with an empty result, recording ``query=`` / ``update=``."""
    with CountingServer("answer") as server:
        yield server


@pytest.fixture
def hanging():
    """A server that accepts requests and never answers."""
    with CountingServer("hang") as server:
        yield server


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No KB, LLM or service settings from the environment or a user config file."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_FAST_MODEL",
                 "NL2SPARQL_LLM_CONFIG", "NL2SPARQL_LLM_CACHE", "NL2SPARQL_STORE", "NL2SPARQL_ENDPOINT",
                 "NL2SPARQL_SERVICES", "NL2SPARQL_WORKER_MEMORY", "NL2SPARQL_LLM_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


runner = CliRunner()


def gen(*args: str, **kw):
    """``nl2sparql-gen ARGS`` in this process (typer's runner)."""
    from nl2sparql.cli.gen import app
    return runner.invoke(app, list(args), **kw)


def main(*args: str, **kw):
    """``nl2sparql ARGS`` in this process (typer's runner)."""
    from nl2sparql.cli.main import app
    return runner.invoke(app, list(args), **kw)


def spawn(tool: str, *args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    """``nl2sparql`` or ``nl2sparql-gen`` as a child process (output piped)."""
    module = "main" if tool == "nl2sparql" else "gen"
    code = f"import sys; from nl2sparql.cli.{module} import app; sys.argv[0] = {tool!r}; app()"
    return subprocess.Popen([sys.executable, "-P", "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **(env or {})}, **kw)


def assert_one_line_error(result, *fragments: str, code: int = 2) -> str:
    """Exit status ``code``, one ``error:`` line on stderr holding every fragment, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment.lower() in lines[0].lower(), lines[0]
    return lines[0]


def children_of(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
