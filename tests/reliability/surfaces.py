"""The ways in, as adapters: each turns a corpus operation into its own kind of call and reads back an Outcome.

* ``cli``: the ``nl2sparql`` / ``nl2sparql-gen`` commands in this process (typer's runner: a traceback
  shows as an exception that is not ``SystemExit``);
* ``api``: :mod:`nl2sparql.api` called directly (a project error is refused, anything else a traceback);
* ``mcp``: ``nl2sparql mcp serve`` over stdio, driven by the SDK's client (a tool error is refused; after
  every call the server must still answer);
* ``ui``: the web UI served on 127.0.0.1, driven through its HTTP API with ``gradio_client`` (an error
  is a message box in the page);
* ``agent``: :func:`nl2sparql.api.agent`, offline or with the scripted LLM.

An :class:`Outcome` is the same whatever the surface: refused (with its message), answered (with the
answer normalised into ``data``) or broken (a traceback, a generic "something went wrong").
"""

from __future__ import annotations

import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pyoxigraph as ox
from corpus import EMOTIONS, SERVED_BUDGET, Case, nested
from llm_fake_server import FAKE_KEY, FAKE_MODEL, Reply, completion, error
from process_cases import after_ask, agent_spec, ask_args, ask_pool, full_disk, kill_ask, stopped_after_a_call
from reliability_helpers import children_of, gen, main, spawn

from nl2sparql import api

#: What the UI shows for an error that is not the project's own (a defect when a case gets it).
GENERIC = ("something went wrong", "internal error", "Traceback", 'File "')
#: Which operations each surface can express.
OPS = {
    "cli": {"execute", "validate", "translate", "pool", "generate", "run_killed", "serve", "ask", "disk_full"},
    "api": {"execute", "validate", "translate", "pool", "generate", "ask"},
    "mcp": {"execute", "validate", "translate", "generate", "agent", "http_stop"},
    "ui": {"execute", "validate", "translate", "pool", "generate"},
    "agent": {"translate"},
}
#: Endpoints a server can be pointed at (the servers' KB is fixed when they start).
SERVER_ENDPOINTS = {"html", "fail", "busy", "badjson", "notresults", "hang", "trickle", "drop", "missing", "redirect",
                    "huge", "answer"}


def supports(surface: str, case: Case) -> bool:
    """True when ``surface`` can express ``case`` (its operation and arguments)."""
    a = case.args
    if case.op not in OPS[surface]:
        return False
    if surface in ("mcp", "ui"):
        if "env" in a or "files" in a or (a.get("endpoint") and a["endpoint"] not in SERVER_ENDPOINTS):
            return False
        if case.op == "generate" and set(a) != {"target"}:
            return False
        if case.op == "pool" and (surface == "mcp" or a.get("command") != "score" or "content" not in a):
            return False
        if case.op == "translate" and a.get("endpoint"):
            return False
    if surface == "agent" and (a.get("rounds") is not None or a.get("endpoint")):
        return False
    return True


@dataclass
class Outcome:
    """What one surface made of one case."""

    kind: str  # refused | answered | broken
    message: str = ""
    lines: int = 0
    error_class: str | None = None
    traceback: bool = False
    data: dict = field(default_factory=dict)
    seconds: float = 0.0
    #: What went wrong around the case itself (a concurrent writer's pool, ...), checked by the judge.
    problems: list[str] = field(default_factory=list)

    @property
    def clear(self) -> bool:
        """A refusal in one line that is the project's own message (no traceback, no generic text)."""
        return self.kind == "refused" and self.lines == 1 and not self.traceback and \
            not any(g.lower() in self.message.lower() for g in GENERIC)


# -- the scripted LLM ------------------------------------------------------------------------------------
LLM_QUERY = """PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX elita: <http://w3id.org/elita/>
SELECT DISTINCT ?wr WHERE { ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .
  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr ; lila:hasPOS lila:noun } ORDER BY ?wr"""


def llm_script(name: str, victim: str) -> Callable[[dict], Any]:
    """The scripted LLM server's handler for ``name`` (see ``corpus.LLM_SCRIPTS``)."""
    fence = lambda query: f"Here is the query:\n```sparql\n{query}\n```"  # noqa: E731
    replies = {
        "ok": fence(LLM_QUERY),
        "garbage": "lorem ipsum }}} {{ SELECT ?? WHERE",
        "empty": "",
        "update": fence('INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }'),
        "service": fence(f"SELECT * WHERE {{ SERVICE <{victim}llm> {{ ?s ?p ?o }} }}"),
        "service-cr": fence(f"SELECT * WHERE {{ # c\rSERVICE <{victim}llm-cr> {{ ?s ?p ?o }} }}"),
        "nested": fence(nested(1500)),
        "hang": Reply(delay=120, body=completion("too late")),
        "storm-429": error(429, "rate limited", retry_after="0"),
        "http-500": error(500, "upstream failure"),
        "not-a-completion": Reply(body="<html><body>proxy error</body></html>", content_type="text/html"),
    }
    reply = replies[name]
    return lambda request: reply


#: Retries of the scripted LLM's failures without long back-offs (the corpus checks they stop, not how slowly).
QUICK_RETRIES = {"backoff_base": 0.05, "backoff_max": 0.2, "max_retries": 2}


def llm_env(llm_url: str, folder: Path) -> dict[str, str]:
    """The environment that points nl2sparql at the scripted LLM: 1 s per request, quick retries (a config
    file written in ``folder``), no cache."""
    config = folder / "quick-llm.toml"
    config.write_text("".join(f"{k} = {v}\n" for k, v in QUICK_RETRIES.items()), encoding="utf-8")
    return {"OPENAI_BASE_URL": llm_url, "OPENAI_API_KEY": FAKE_KEY, "NL2SPARQL_LLM_MODEL": FAKE_MODEL,
            "NL2SPARQL_LLM_CACHE": "off", "NL2SPARQL_LLM_TIMEOUT": "1", "NL2SPARQL_LLM_CONFIG": str(config)}


# -- the rig: what a case runs against -----------------------------------------------------------------
@dataclass
class Rig:
    """Servers and folders for one (case, surface) run; ``lazy(name)`` starts session servers on first use."""

    victim: Any
    faults: Any
    switch: Any
    llm: Any
    work: Path
    lazy: Callable[[str], Any]
    monkeypatch: Any
    sleeper: subprocess.Popen | None = None
    first: subprocess.Popen | None = None
    #: What the first writer of a ``lock`` case must have written once it ends (``None``: the problem).
    first_check: Callable[[], str | None] | None = None
    busy: socket.socket | None = None

    def fill(self, value):
        """Placeholders replaced: ``{victim}``, ``{work}`` and ``{busy}`` (a port someone already listens on
        on every address), in strings, lists and dicts."""
        if isinstance(value, str):
            if "{busy}" in value:
                value = value.replace("{busy}", str(self.busy_port()))
            return value.replace("{victim}", self.victim.url).replace("{work}", str(self.work))
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        return value

    def endpoint(self, name: str | None) -> str | None:
        """The URL a case's ``endpoint`` names (for the surfaces that take a URL)."""
        if not name:
            return None
        if name.startswith("url:"):
            return name[4:]
        if name == "closed":
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                return f"http://127.0.0.1:{s.getsockname()[1]}/sparql"
        if name == "oxigraph":
            return self.lazy("corpus_oxigraph").url
        if name == "served":
            return self.lazy("corpus_served")[0]
        return f"{self.faults.url}{name}/sparql"

    def served_working(self) -> list[str]:
        """Once the served store's own budget has passed, its processes must use no CPU (a query stopped)."""
        pid = self.lazy("corpus_served")[1]
        time.sleep(SERVED_BUDGET)  # past the served store's budget, counted from the client's 1 s
        before = cpu_seconds(pid)
        time.sleep(1.0)
        spent = cpu_seconds(pid) - before
        return [f"the served store kept working after the client left ({spent:.1f} s of CPU in 1 s)"] \
            if spent > 0.3 else []

    def busy_port(self) -> int:
        """A port a socket of this case listens on, on every address."""
        if self.busy is None:
            self.busy = socket.socket()
            self.busy.bind(("0.0.0.0", 0))
            self.busy.listen()
        return self.busy.getsockname()[1]

    def prepare(self, case: Case) -> dict:
        """The case's arguments with placeholders filled, its files written and its environment set."""
        a = self.fill(dict(case.args))
        for name, text in (a.pop("files", None) or {}).items():
            (self.work / name).write_text(text, encoding="utf-8")
        if a.get("llm"):
            self.llm.handler = llm_script(a["llm"], self.victim.url)
            for name, value in llm_env(self.llm.url, self.work).items():
                self.monkeypatch.setenv(name, value)
        for name, value in (a.pop("env", None) or {}).items():
            if value:
                self.monkeypatch.setenv(name, value)
            else:
                self.monkeypatch.delenv(name, raising=False)
        return a

    def warm(self, case: Case, a: dict) -> None:
        """Start the session servers and files the case needs (their start is not part of the case)."""
        if a.get("file") == "large":
            self.lazy("large_pool")
        if case.op == "run_killed" or a.get("lock") == "run":
            self.lazy("reference_pool")
        if a.get("endpoint") in ("oxigraph", "served"):
            self.endpoint(a["endpoint"])

    def pool_file(self, a: dict) -> Path:
        """The pool file a ``pool`` case reads (written, missing, a directory, a FIFO or the large pool)."""
        kind = a.get("file")
        if "content" in a:
            path = self.work / "pool.jsonl"
            path.write_bytes(a["content"])
            return path
        if kind == "missing":
            return self.work / "missing.jsonl"
        if kind == "directory":
            (self.work / "adir").mkdir()
            return self.work / "adir"
        if kind == "fifo":
            os.mkfifo(self.work / "fifo.jsonl")
            return self.work / "fifo.jsonl"
        if kind == "large":
            return self.lazy("large_pool")
        return self.work / (kind or "keep.jsonl")

    def out_path(self, a: dict, default: str) -> Path:
        out = a.get("out", default)
        return Path(out) if out.startswith("/") else self.work / out

    def hold(self, a: dict, out: Path) -> None:
        """Make ``out`` held by another writer: ``lock: live`` a live process holding its kernel lock,
        ``lock: file`` a lock file nobody holds (left by a killed writer), ``lock: run`` a real ``run`` (the
        reference run's arguments) and ``lock: ask`` a real ``ask`` started first and writing it."""
        lock = Path(str(out) + ".lock")
        if a.get("lock") == "live":
            holder = "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); " \
                     "fcntl.flock(fd, fcntl.LOCK_EX); os.write(fd, b'%d\\n' % os.getpid()); time.sleep(60)"
            self.sleeper = subprocess.Popen([sys.executable, "-c", holder, str(lock)])
            self._wait_for(lambda: self._held(lock), self.sleeper)
        elif a.get("lock") == "file":
            lock.write_text("1\n")  # pid 1 is alive; the lock file is all that is left of a killed writer
        elif a.get("lock") == "run":
            assert out == self.work / "pool.jsonl", out
            self.first = spawn("nl2sparql-gen", *run_args(self.work))
            self.first_check = self._same_as_the_reference
            self._wait_for(lambda: self._held(lock), self.first)
        elif a.get("lock") == "ask":
            first = {"agent": "slow", "limit": 6, "concurrency": 1}
            self.first = spawn("nl2sparql-gen", *ask_args(self.work, first, out))
            self.first_check = lambda: after_ask(self.work, first, out) or (
                None if len(out.read_text().splitlines()) == 6 else "the first ask did not write its 6 answers")
            self._wait_for(lambda: self._held(lock), self.first)

    @staticmethod
    def _held(lock: Path) -> bool:
        """True once a writer holds ``lock`` (it writes its pid once it has the kernel lock)."""
        try:
            return bool(lock.read_text().strip())
        except OSError:
            return False

    @staticmethod
    def _wait_for(ready: Callable[[], Any], process: subprocess.Popen, seconds: float = 30.0) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and process.poll() is None and not ready():
            time.sleep(0.002)

    def _same_as_the_reference(self) -> str | None:
        out = self.work / "pool.jsonl"
        if not out.is_file() or out.read_bytes() != self.lazy("reference_pool").read_bytes():
            return "the first run's pool differs from the uninterrupted run's (interleaved writes?)"
        return None

    def settle(self) -> list[str]:
        """Wait for the first writer of a ``lock`` case: it must end well with all it had to write."""
        if self.first is None:
            return []
        try:
            _, stderr = self.first.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            return ["the first writer did not end within 120 s"]
        if self.first.returncode != 0:
            return [f"the first writer failed ({self.first.returncode}): {stderr[-300:]}"]
        problem = self.first_check()
        if problem:
            return [problem]
        left = [p.name for p in self.work.glob("*.lock")]
        return [f"the first writer left its lock behind: {left}"] if left else []

    def close(self) -> None:
        if self.first is not None and self.first.poll() is None:
            self.first.kill()
            self.first.communicate()
        if self.sleeper is not None:
            self.sleeper.kill()
            self.sleeper.wait()
        if self.busy is not None:
            self.busy.close()


# -- normalising answers ---------------------------------------------------------------------------------
def rows_data(count: int, truncated: bool, cap: int | None, stated: bool) -> dict:
    return {"rows": count, "truncated": truncated, "row_cap": cap, "stated": stated}


def one_line_error(text: str) -> tuple[str, int]:
    """The message of an error and how many lines it has."""
    text = text.strip()
    return " ".join(text.split()), len([line for line in text.splitlines() if line.strip()]) or 1


def python_outcome(call: Callable[[], dict]) -> Outcome:
    """Run an API call: a project error is a refusal, any other exception a traceback."""
    try:
        return Outcome("answered", data=call())
    except api.Nl2SparqlError as exc:
        message, lines = one_line_error(str(exc))
        return Outcome("refused", message, lines, type(exc).__name__)
    except Exception as exc:  # noqa: BLE001 - the corpus counts these
        return Outcome("broken", f"{type(exc).__name__}: {exc}", traceback=True, error_class=type(exc).__name__)


def cli_outcome(result, data: Callable[[], dict]) -> Outcome:
    """A CLI result: exit 0 is an answer; otherwise the ``error:`` line (or typer's usage error) is the message."""
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    if crashed or "Traceback (most recent call last)" in result.output:
        return Outcome("broken", repr(result.exception), traceback=True)
    if result.exit_code == 0:
        return Outcome("answered", data=data())
    stderr = result.stderr
    errors = [line[len("error: "):] for line in stderr.splitlines() if line.startswith("error: ")]
    if errors:
        return Outcome("refused", " ".join(errors), len(errors), data={"exit": result.exit_code})
    if "Usage:" in stderr:  # typer's own check of an option (a boxed message naming the option)
        box = " ".join(line.strip("│╭╮╰╯─ ") for line in stderr.splitlines()[2:])
        return Outcome("refused", " ".join(box.split()), 1, data={"exit": result.exit_code})
    message, lines = one_line_error(stderr or result.stdout)
    return Outcome("refused", message, lines, data={"exit": result.exit_code})


def strip_tags(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text or "")).split())


def ui_status(status: str) -> Outcome:
    """The status box of a UI answer: an error (or a warning that a check failed) is a refusal."""
    text = strip_tags(status)
    if any(g.lower() in (status or "").lower() for g in GENERIC[2:]) or "something went wrong" in text:
        return Outcome("broken", text, traceback="Traceback" in (status or ""))
    if 'class="nl2s-msg nl2s-error"' in (status or ""):
        return Outcome("refused", text.removeprefix("Error:").strip(), 1)
    return Outcome("answered", text)


# -- the adapters ----------------------------------------------------------------------------------------
class Cli:
    """``nl2sparql`` and ``nl2sparql-gen`` in this process."""

    name = "cli"

    def execute(self, rig: Rig, a: dict) -> Outcome:
        args = ["kb", "query", a["query"], "--json"]
        if a.get("endpoint"):
            args += ["--endpoint", rig.endpoint(a["endpoint"])]
        if a.get("timeout") is not None:
            args += ["--timeout", str(a["timeout"])]
        if a.get("max_rows") is not None:
            args += ["--max-rows", str(a["max_rows"])]
        result = gen(*args)

        def data():
            out = json.loads(result.stdout)
            rows = len(out.get("results", {}).get("bindings", [])) if "results" in out else 1
            return rows_data(rows, bool(out.get("truncated")), out.get("row_cap"), "row cap" in result.stderr)
        return cli_outcome(result, data)

    def validate(self, rig: Rig, a: dict) -> Outcome:
        path = rig.work / "query.rq"
        path.write_text(a["query"], encoding="utf-8")
        budget = ["--timeout", str(a["timeout"])] if a.get("timeout") is not None else []
        result = main("validate", str(path), "--json", *budget)
        if result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit) \
                and result.exit_code == 1:
            issues = [i for i in json.loads(result.stdout)["issues"] if i["severity"] == "error"]
            return Outcome("refused", issues[0]["message"], 1)
        return cli_outcome(result, lambda: {"ok": True})

    def translate(self, rig: Rig, a: dict) -> Outcome:
        args = ["translate", a["question"], "--json", "--embedder", "none"]
        if a.get("llm"):
            args += ["--llm"]
        if a.get("rounds") is not None:
            args += ["--rounds", str(a["rounds"])]
        result = main(*args)

        def data():
            out = json.loads(result.stdout)
            return {"sparql": out["sparql"], "source": out["source"], "reasons": out["warnings"]}
        return cli_outcome(result, data)

    def pool(self, rig: Rig, a: dict) -> Outcome:
        path = rig.pool_file(a)
        command = a["command"]
        if command == "stats":
            result = gen("pool", "stats", str(path), "--json")
            return cli_outcome(result, lambda: {"items": json.loads(result.stdout)["items"]})
        if command == "export":
            out = rig.out_path(a, "train.jsonl")
            result = gen("export", str(path), "--out", str(out))
            return cli_outcome(result, lambda: {"records": int(result.stdout.split()[1]), "out": str(out)})
        result = gen("score", "--gold", "handwritten", "--pred", str(path), "--out", str(rig.work / "report"))
        return cli_outcome(result, lambda: {"scored": True})

    def generate(self, rig: Rig, a: dict) -> Outcome:
        out = rig.out_path(a, "pool.jsonl")
        rig.hold(a, out)
        cache = rig.out_path({"out": a["cache_dir"]} if "cache_dir" in a else {}, "cache")
        args = ["run", "--target", str(a["target"]), "--seed", "1", "--out", str(out), "--cache-dir", str(cache),
                "--json"]
        for name in ("threads", "timeout", "shards"):
            if name in a:
                args += [f"--{name}", str(a[name])]
        if a.get("endpoint"):
            args += ["--endpoint", rig.endpoint(a["endpoint"])]
        if a.get("llm"):
            args += ["--llm"]
        result = gen(*args)
        outcome = cli_outcome(result, lambda: {"kept": json.loads(result.stdout)["kept"]})
        if a.get("progress") and not re.search(a["progress"], result.stderr):
            outcome.problems.append(f"no progress shown while the run waited: {result.stderr[-300:]!r}")
        return outcome

    def serve(self, rig: Rig, a: dict) -> Outcome:
        args = ["mcp", "serve", *a["args"]] if a["server"] == "mcp" else ["ui", *a["args"]]
        result = main(*args, input="")
        outcome = cli_outcome(result, lambda: {"served": True})
        if a.get("stderr") and a["stderr"] not in " ".join(result.stderr.split()):
            outcome.problems.append(f"stderr lacks {a['stderr']!r}: {result.stderr[-300:]!r}")
        return outcome

    def ask(self, rig: Rig, a: dict) -> Outcome:
        """``nl2sparql-gen ask``: in this process, or (``kill``) as a child process sent a signal midway."""
        out = rig.out_path(a, "pred.jsonl")
        rig.hold(a, out)
        if a.get("kill"):
            problem = kill_ask(spawn("nl2sparql-gen", *ask_args(rig.work, a, out)), rig.work, a["kill"])
            return Outcome("answered", data={"problem": problem})
        result = gen(*ask_args(rig.work, a, out), "--json")
        outcome = cli_outcome(result, lambda: {"answered": json.loads(result.stdout)["answered"]})
        problem = after_ask(rig.work, a, out)
        return outcome if problem is None else _with_problem(outcome, problem)

    def disk_full(self, rig: Rig, a: dict) -> Outcome:
        """A command whose output is on a file system that runs out of space midway."""
        done, problem = full_disk(rig.work, a["command"])
        if "Traceback (most recent call last)" in done.stderr:
            return Outcome("broken", done.stderr[-500:], traceback=True)
        errors = [line[len("error: "):] for line in done.stderr.splitlines() if line.startswith("error: ")]
        message, lines = (" ".join(errors), len(errors)) if errors else one_line_error(done.stderr or done.stdout)
        outcome = Outcome("answered" if done.returncode == 0 else "refused", message, lines)
        return outcome if problem is None else _with_problem(outcome, problem)

    def run_killed(self, rig: Rig, a: dict) -> Outcome:
        return killed_and_resumed(rig, a["moment"])


def _with_problem(outcome: Outcome, problem: str) -> Outcome:
    outcome.problems.append(problem)
    return outcome


class Api:
    """:mod:`nl2sparql.api`, called directly."""

    name = "api"

    def execute(self, rig: Rig, a: dict) -> Outcome:
        def call():
            url = rig.endpoint(a.get("endpoint"))
            rows = api.execute(a["query"], kb=api.KBChoice(endpoint=url) if url else None, timeout=a.get("timeout"),
                               max_rows=a.get("max_rows"))
            return rows_data(rows.count, rows.truncated, rows.row_cap, rows.truncated and rows.row_cap is not None)
        return python_outcome(call)

    def validate(self, rig: Rig, a: dict) -> Outcome:
        kb = api.KBChoice(timeout=a["timeout"]) if a.get("timeout") is not None else None
        outcome = python_outcome(lambda: {"result": api.validate(a["query"], kb=kb)})
        if outcome.kind == "answered" and not outcome.data["result"].ok:
            issue = next(i for i in outcome.data["result"].issues if i.severity == "error")
            return Outcome("refused", issue.message, 1)
        return outcome

    def translate(self, rig: Rig, a: dict) -> Outcome:
        def call():
            done = api.translate(a["question"], mode="llm" if a.get("llm") else "offline", embedder="none",
                                 rounds=a.get("rounds", 2))
            return {"sparql": done.sparql, "source": done.source, "reasons": done.warnings}
        return python_outcome(call)

    def pool(self, rig: Rig, a: dict) -> Outcome:
        path = rig.pool_file(a)
        if a["command"] == "stats":
            return python_outcome(lambda: {"items": api.pool_stats(path)["items"]})
        if a["command"] == "export":
            out = rig.out_path(a, "train.jsonl")
            return python_outcome(lambda: {"records": api.export_pool(path, out).records, "out": str(out)})
        return python_outcome(lambda: {"scored": bool(api.score("handwritten", path).items)})

    def generate(self, rig: Rig, a: dict) -> Outcome:
        out = rig.out_path(a, "pool.jsonl")
        rig.hold(a, out)
        cache = rig.out_path({"out": a["cache_dir"]} if "cache_dir" in a else {}, "cache")
        extra = {k: a[k] for k in ("threads", "timeout", "shards") if k in a}
        if a.get("endpoint"):
            extra["kb"] = api.KBChoice(endpoint=rig.endpoint(a["endpoint"]))
        notes: list[str] = []
        if a.get("llm"):
            extra.update(use_llm=True, notify=notes.append)
        outcome = python_outcome(lambda: {"kept": api.generate(a["target"], seed=1, out=out, cache_dir=cache,
                                                               **extra).kept})
        if a.get("progress") and not any(re.search(a["progress"], note) for note in notes):
            outcome.problems.append("no progress shown while the run waited")
        return outcome

    def ask(self, rig: Rig, a: dict) -> Outcome:
        out = rig.out_path(a, "pred.jsonl")
        rig.hold(a, out)
        outcome = python_outcome(lambda: {"answered": api.ask(
            ask_pool(rig.work, a), agent_spec(rig.work, a["agent"]), out=out, limit=a.get("limit", 3),
            timeout=a.get("timeout", 10), concurrency=a.get("concurrency", 2)).answered})
        problem = after_ask(rig.work, a, out)
        return outcome if problem is None else _with_problem(outcome, problem)


def agent_data(sparql: str, final: dict, trace: list[dict]) -> dict:
    """An agent's answer as a translation: its SPARQL, where it came from, the reasons its trace shows."""
    reasons = [step.get("summary", "") for step in trace] + [str(final.get("reason", ""))]
    return {"sparql": sparql, "source": "offline" if final.get("source") != "llm" else "llm", "reasons": reasons}


class Agent:
    """:func:`nl2sparql.api.agent`, offline or with the scripted LLM."""

    name = "agent"

    def translate(self, rig: Rig, a: dict) -> Outcome:
        def call():
            done = api.agent(a["question"], mode="llm" if a.get("llm") else "offline", embedder="none")
            return agent_data(done.sparql, done.final, done.trace)
        return python_outcome(call)


class Mcp:
    """A tool call to ``nl2sparql mcp serve`` (stdio); the server must answer a plain call afterwards."""

    name = "mcp"

    def __init__(self, session, remote):
        self.session, self.remote = session, remote

    def ready(self, rig: Rig, a: dict) -> None:
        """Start (once) the server this case calls."""
        (self.remote if a.get("endpoint") else self.session)(rig)

    def _call(self, rig: Rig, a: dict, tool: str, data: Callable[[dict], dict], **args) -> Outcome:
        session = self.session(rig)
        if a.get("endpoint"):
            rig.switch.mode = a["endpoint"]
            session = self.remote(rig)
        try:
            result = session.call(tool, **args)
        finally:
            rig.switch.mode = "answer"
        alive = session.call("get_constraints", patterns=["POLARITY"])
        if alive.is_error:
            return Outcome("broken", "the MCP server stopped answering after the call", traceback=True)
        text = result.content[0].text if result.content else ""
        if result.is_error:
            return Outcome("refused", text, len(text.splitlines()) or 1, traceback="Traceback" in text)
        return Outcome("answered", data=data(result.structured_content or {}))

    def execute(self, rig: Rig, a: dict) -> Outcome:
        args = {"sparql": a["query"]}
        if a.get("timeout") is not None:
            args["timeout"] = a["timeout"]
        if a.get("max_rows") is not None:
            args["limit"] = a["max_rows"]
        return self._call(rig, a, "execute_sparql",
                          lambda o: rows_data(len(o.get("rows") or []), bool(o.get("truncated")), o.get("row_cap"),
                                              bool(o.get("truncated")) and o.get("row_cap") is not None), **args)

    def validate(self, rig: Rig, a: dict) -> Outcome:
        outcome = self._call(rig, a, "validate_sparql", lambda o: o, sparql=a["query"])
        if outcome.kind == "answered" and not outcome.data.get("ok"):
            issue = next(i for i in outcome.data["issues"] if i["severity"] == "error")
            return Outcome("refused", issue["message"], 1)
        return outcome

    def translate(self, rig: Rig, a: dict) -> Outcome:
        mode = "llm" if a.get("llm") else "offline"
        return self._call(rig, a, "translate",
                          lambda o: {"sparql": o["sparql"], "source": o["source"], "reasons": o.get("warnings", [])},
                          question=a["question"], mode=mode)

    def generate(self, rig: Rig, a: dict) -> Outcome:
        return self._call(rig, a, "generate_examples", lambda o: {"kept": o["kept"]}, target=a["target"])

    def http_stop(self, rig: Rig, a: dict) -> Outcome:
        """``mcp serve --transport http``: one call of a tool, then a signal; the server must stop."""
        return Outcome("answered", data={"problem": stopped_after_a_call(rig.work, rig.lazy("corpus_portal"),
                                                                         a["tool"], a["args"], a["signal"])})

    def agent(self, rig: Rig, a: dict) -> Outcome:
        """The ``agent_translate`` tool."""
        return self._call(rig, a, "agent_translate", lambda o: agent_data(o["sparql"], o["final"], o["trace"]),
                          question=a["question"], mode="llm" if a.get("llm") else "offline")


class Ui:
    """The served web UI through its HTTP API (what the page sends)."""

    name = "ui"

    def __init__(self, client, remote):
        self.client, self.remote = client, remote

    def ready(self, rig: Rig, a: dict) -> None:
        """Serve (once) the app this case calls."""
        (self.remote if a.get("endpoint") else self.client)(rig)

    def _predict(self, rig: Rig, a: dict, *args, api_name: str):
        client = self.client(rig)
        if a.get("endpoint"):
            rig.switch.mode = a["endpoint"]
            client = self.remote(rig)
        try:
            if any(isinstance(arg, str) and SURROGATE.search(arg) for arg in args):
                outputs = raw_predict(client.src, api_name, list(args))
            else:
                outputs = client.predict(*args, api_name=api_name)
        finally:
            rig.switch.mode = "answer"
        return outputs if isinstance(outputs, (list, tuple)) else (outputs,)

    def execute(self, rig: Rig, a: dict) -> Outcome:
        outputs = self._predict(rig, a, a["query"], a.get("max_rows", 1000), api_name="/execute")
        outcome = ui_status(outputs[0])
        if outcome.kind == "answered":
            caption = strip_tags(outputs[1])
            match = re.search(r"row cap \((\d+) rows\)", caption)
            count = re.match(r"(\d+) rows?", caption)
            outcome.data = rows_data(int(count.group(1)) if count else 0, bool(match),
                                     int(match.group(1)) if match else None, bool(match))
        return outcome

    def validate(self, rig: Rig, a: dict) -> Outcome:
        status, checks = self._predict(rig, a, a["query"], api_name="/check")
        outcome = ui_status(status)
        if outcome.kind == "answered" and 'nl2s-warn' in status:
            return Outcome("refused", strip_tags(checks), 1)
        return outcome

    def translate(self, rig: Rig, a: dict) -> Outcome:
        outputs = self._predict(rig, a, a["question"], "llm" if a.get("llm") else "offline", api_name="/translate")
        outcome = ui_status(outputs[0])
        if outcome.kind == "answered":
            how = re.search(r"\((offline|llm), (\w+), confidence", outcome.message)
            outcome.data = {"sparql": outputs[1], "source": how.group(2) if how else "?", "reasons": [outcome.message]}
        return outcome

    def pool(self, rig: Rig, a: dict) -> Outcome:
        from gradio_client import handle_file
        path = rig.pool_file(a)
        outputs = self._predict(rig, a, "handwritten", None, handle_file(str(path)), "all", 5, api_name="/score")
        outcome = ui_status(outputs[0])
        outcome.data = {"scored": True}
        return outcome

    def generate(self, rig: Rig, a: dict) -> Outcome:
        outputs = self._predict(rig, a, a["target"], 1, [], api_name="/generate")
        outcome = ui_status(outputs[0])
        if outcome.kind == "answered":
            kept = re.search(r"Kept (\d+)", outcome.message)
            outcome.data = {"kept": int(kept.group(1)) if kept else 0}
        return outcome


#: A lone surrogate: ``gradio_client`` cannot encode one, a browser's JSON (``"\\ud800"``) carries it.
SURROGATE = re.compile("[\ud800-\udfff]")


def raw_predict(src: str, api_name: str, data: list) -> list:
    """Call the UI's ``api_name`` as a page does, with JSON escapes (what gets a lone surrogate through)."""
    import httpx

    base = src.rstrip("/") + "/gradio_api/call/" + api_name.lstrip("/")
    event = httpx.post(base, content=json.dumps({"data": data}), headers={"content-type": "application/json"},
                       timeout=30).json()["event_id"]
    stream = httpx.get(f"{base}/{event}", timeout=60).text
    lines = stream.splitlines()
    done = [lines[i + 1][len("data: "):] for i, line in enumerate(lines[:-1]) if line == "event: complete"]
    return json.loads(done[0]) if done else [f"something went wrong: {stream[-300:]}"]


def cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and its live descendants (from /proc)."""
    ticks = 0
    for p in {pid} | children_of(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _status_kib(field_name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1])
    raise KeyError(field_name)


def run(adapter, rig: Rig, case: Case) -> Outcome:
    """Run ``case`` on ``adapter``, timing it and, for the surfaces in this process, measuring how much its
    peak memory grew (``data["memory_mb"]``; the peak is reset first through ``/proc/self/clear_refs``)."""
    a = rig.prepare(case)
    rig.warm(case, a)
    if hasattr(adapter, "ready"):
        adapter.ready(rig, a)
    in_process = adapter.name != "mcp"
    if in_process:
        Path("/proc/self/clear_refs").write_text("5")  # the peak RSS (VmHWM) starts again from now
        base = _status_kib("VmRSS")
    start = time.monotonic()
    outcome = getattr(adapter, case.op)(rig, a)
    outcome.seconds = time.monotonic() - start
    outcome.problems += rig.settle()
    if a.get("idle"):
        outcome.problems += rig.served_working()
    if in_process:
        outcome.data["memory_mb"] = (_status_kib("VmHWM") - base) / 1024
    return outcome


# -- checks of an answer ---------------------------------------------------------------------------------
#: The most a capped answer may add to the process's peak memory.
CAPPED_MB = 64

def parses(sparql: str) -> bool:
    """True when ``sparql`` (standard prefixes completed) parses as a read query."""
    from nl2sparql.sparql.rewrite import complete_prefixes
    try:
        ox.Store().query(complete_prefixes(sparql)[0])
    except SyntaxError:
        return False
    except (OSError, RuntimeError):
        return True
    return True


def injected(sparql: str) -> bool:
    """True when the text outside string literals carries a pattern a question tried to inject."""
    from nl2sparql.sparql.lexer import tokenize
    code = " ".join(t.text for t in tokenize(sparql) if t.kind not in ("string", "comment", "ws"))
    code = code.replace("GRAPH ?g { ?s ?p ?o .", "")  # META_GRAPH's own shape (the triples of a named graph)
    return bool(re.search(r"\?s \?p \?o|FILTER \( \"|127\.0\.0\.1:9|DROP|INSERT", code))


def check(name: str | None, outcome: Outcome, rig: Rig) -> str | None:
    """Why the answer fails the named check (``None`` when it passes)."""
    d = outcome.data
    if name is None:
        return None
    if name == "rows":
        return None if d.get("rows", 0) >= 0 else "no rows"
    if name == "some-rows":
        return None if d.get("rows", 0) > 0 else f"expected rows, got {d}"
    if name.startswith("capped:"):
        cap = int(name.split(":")[1])
        if d.get("rows") != cap or not d.get("truncated"):
            return f"expected {cap} rows cut at the row cap, got {d}"
        if d.get("memory_mb", 0) > CAPPED_MB:
            return f"memory grew by {d['memory_mb']:.0f} MB for {cap} rows (more than {CAPPED_MB} MB)"
        return None if d.get("stated") else f"the row cap is not stated to the user: {d}"
    if name == "safe":
        sparql = d.get("sparql") or ""
        if not parses(sparql):
            return f"the translation does not parse: {sparql[:200]!r}"
        return f"injected text reached the query structure: {sparql[:300]!r}" if injected(sparql) else None
    if name == "written":
        return None if Path(d["out"]).is_file() and d["records"] > 0 else f"nothing written: {d}"
    if name == "streamed":
        size = rig.lazy("large_pool").stat().st_size / 2 ** 20
        if "memory_mb" not in d or d["memory_mb"] > size / 2:
            return f"memory grew by {d.get('memory_mb', float('nan')):.0f} MB reading a {size:.0f} MB pool: not streamed"
        return None
    if name in ("identical", "clean"):  # a problem the adapter found after the case (None: there is none)
        return d.get("problem")
    raise KeyError(name)


# -- runs killed and resumed -------------------------------------------------------------------------------
RUN_TARGET = 200
RUN_SEED = 7
#: When to kill the run: the file (under the cache folder, ``{p}`` its prefix) whose appearance marks the moment.
MOMENTS = {"started": "../pool.jsonl.lock", "sampled": "{p}_step0.jsonl", "filtering": "{p}_step2.partial.jsonl",
           "phrased": "{p}_step3.jsonl", "deduped": "{p}_step5.jsonl"}


def run_args(folder: Path, *extra: str) -> list[str]:
    return ["run", "--target", str(RUN_TARGET), "--seed", str(RUN_SEED), "--out", str(folder / "pool.jsonl"),
            "--cache-dir", str(folder / "cache"), *extra]


def killed_and_resumed(rig: Rig, moment: str) -> Outcome:
    """``run`` killed with SIGKILL when ``moment`` is reached, then ``run --resume``: the pool must be the
    uninterrupted run's, byte for byte, with no duplicate and no torn line."""
    reference = rig.lazy("reference_pool").read_bytes()
    folder = rig.work / "run"
    marker = folder / "cache" / MOMENTS[moment].format(p=f"pool_s{RUN_SEED}")
    proc = spawn("nl2sparql-gen", *run_args(folder))
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and proc.poll() is None and not marker.exists():
            time.sleep(0.002)
        if proc.poll() is not None:
            return Outcome("broken", f"the run ended ({proc.returncode}) before {moment}: {proc.stderr.read()[-300:]}")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.communicate()
    result = gen(*run_args(folder, "--resume", "--json"))

    def data():
        text = (folder / "pool.jsonl").read_bytes()
        lines = text.decode("utf-8").splitlines()
        items = [json.loads(line) for line in lines]  # a torn line would not parse
        ids = [item["id"] for item in items]
        problem = None
        if len(set(ids)) != len(ids) or len({i["sparql"] for i in items}) != len(items):
            problem = "duplicates in the resumed pool"
        elif text != reference:
            problem = f"the resumed pool differs from the uninterrupted run ({len(items)} items)"
        elif Path(str(folder / "pool.jsonl") + ".lock").exists():
            problem = "the lock was left behind"
        return {"problem": problem, "items": len(items)}
    return cli_outcome(result, data)

