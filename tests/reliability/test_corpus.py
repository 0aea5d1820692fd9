"""The reliability corpus on every way in: each (case, surface) pair of ``corpus.CASES``.

For every pair: the outcome is the one expected (refused with one clear line holding the expected
words and, on the Python surfaces, of the expected error class; answered and passing its check; or
fallen back to the offline translation with the reason shown), no traceback, within the case's time
bound, no request to a server that must stay untouched, nothing written lost (a witness pool next to
the case, and the KB's triples for refused updates). The servers are started once: the local victim
and faulty endpoints, the scripted LLM, the MCP servers (stdio; one on the sample, one on the
switchable faulty endpoint), the served web UI (the same two), a real Oxigraph server and
``nl2sparql-gen kb serve``.

With ``NL2SPARQL_CORPUS_RECORD=FILE`` each pair's outcome is appended to FILE as a JSON line
(``bench/reliability.py`` counts them per surface).
"""

from __future__ import annotations

import json
import os
import subprocess
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from corpus import SERVED_BUDGET, pairs
from llm_fake_server import FAKE_KEY, FAKE_MODEL, FakeLLMServer
from mcp_helpers import connected, server_env, stdio_params
from reliability_helpers import CountingServer, gen, spawn
from surfaces import LLM_QUERY, QUICK_RETRIES, Agent, Api, Cli, Mcp, Rig, Ui, check, llm_env, run, run_args

from nl2sparql import api

pytestmark = pytest.mark.filterwarnings("ignore::Warning:gradio.queueing")

PAIRS = pairs()
#: The witness pool next to every case: it must come out byte for byte as it went in.
WITNESS = "".join(json.dumps({"id": f"keep-{i}", "sparql": "ASK { ?s ?p ?o }", "nl": f"domanda {i}"}) + "\n"
                  for i in range(45))
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
UI_BUDGET = 2.0  # seconds per query in the served UI on the sample
FAULT_BUDGET = 1.0  # per try in the served UI on the faulty endpoint (the other surfaces take the case's own)


# -- session servers -----------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def corpus_servers():
    """The victim (answers 500; nobody may call it), the faulty endpoint (mode by path), the switchable one
    (for servers started with one URL) and the scripted LLM."""
    with ExitStack() as stack:
        victim = stack.enter_context(CountingServer("fail"))
        faults = stack.enter_context(CountingServer("answer", redirect_to=victim.url + "redirected"))
        switch = stack.enter_context(CountingServer("answer", redirect_to=victim.url + "redirected"))
        llm = stack.enter_context(FakeLLMServer(default_text=f"```sparql\n{LLM_QUERY}\n```"))
        yield victim, faults, switch, llm


@pytest.fixture(scope="session")
def corpus_oxigraph():
    """A real Oxigraph server on the sample whose own per-query limit (2 s) stops a runaway query."""
    from nl2sparql.kb.serve import OxigraphServer
    try:
        server = OxigraphServer(query_timeout=2).start()
    except api.ConfigError as exc:
        pytest.skip(f"the Oxigraph server is not installed: {exc}")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def corpus_served(tmp_path_factory):
    """``nl2sparql-gen kb serve`` on the sample (``SERVED_BUDGET`` s and 256 MiB per query, 1,000 rows per answer):
    its URL and pid."""
    work = tmp_path_factory.mktemp("served")
    server = spawn("nl2sparql-gen", "kb", "serve", "--query-timeout", str(SERVED_BUDGET), "--max-rows", "1000",
                   cwd=work, env=server_env(work, {"NL2SPARQL_WORKER_MEMORY": "256M"}))
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            pytest.fail(f"kb serve printed no URL: {url!r} {server.stderr.read()[-500:]}")
        yield url, server.pid
    finally:
        server.terminate()
        try:
            server.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


@pytest.fixture(scope="session")
def corpus_portal():
    with start_blocking_portal() as portal:
        yield portal


@dataclass
class McpSession:
    client: object
    portal: object

    def call(self, name: str, **args):
        return self.portal.call(self.client.call_tool, name, args)


def _mcp(portal, servers, tmp_path_factory, name: str, args: list[str]):
    _, _, _, llm = servers
    work = tmp_path_factory.mktemp(name)
    env = server_env(work, llm_env(llm.url, work))
    with connected(portal, "stdio", stdio_params(["--embedder", "none", *args], env, work),
                   work / "server.log") as client:
        yield McpSession(client, portal)


@pytest.fixture(scope="session")
def corpus_mcp(corpus_portal, corpus_servers, tmp_path_factory):
    """``nl2sparql mcp serve`` on the sample (stdio), its LLM the scripted one."""
    yield from _mcp(corpus_portal, corpus_servers, tmp_path_factory, "mcp-sample",
                    ["--max-rows", "1000", "--timeout", "5"])


@pytest.fixture(scope="session")
def corpus_mcp_remote(corpus_portal, corpus_servers, tmp_path_factory):
    """``nl2sparql mcp serve --endpoint`` on the switchable faulty endpoint."""
    switch = corpus_servers[2]
    yield from _mcp(corpus_portal, corpus_servers, tmp_path_factory, "mcp-remote",
                    ["--endpoint", switch.url + "sparql", "--max-rows", "1000", "--timeout", "10"])


def _ui(ctx, tmp_path_factory):
    from gradio_client import Client
    from ui_helpers import served
    with served(ctx) as url:
        yield Client(url, verbose=False, download_files=str(tmp_path_factory.mktemp("ui-downloads")))
    ctx.cleanup()


@pytest.fixture(scope="session")
def corpus_ui(corpus_servers, tmp_path_factory):
    """The web UI on the sample (2 s per query), its LLM the scripted one."""
    from nl2sparql.llm import LLMConfig
    from nl2sparql.ui import Context
    llm = LLMConfig(model=FAKE_MODEL, api_key=FAKE_KEY, base_url=corpus_servers[3].url, timeout=1.0, cache_path=None,
                    **QUICK_RETRIES)
    yield from _ui(Context(kb=api.KBChoice(timeout=UI_BUDGET), llm=llm, workdir=tmp_path_factory.mktemp("ui")),
                   tmp_path_factory)


@pytest.fixture(scope="session")
def corpus_ui_remote(corpus_servers, tmp_path_factory):
    """The web UI on the switchable faulty endpoint."""
    from nl2sparql.ui import Context
    kb = api.KBChoice(endpoint=corpus_servers[2].url + "sparql", timeout=FAULT_BUDGET)
    yield from _ui(Context(kb=kb, workdir=tmp_path_factory.mktemp("ui-remote")), tmp_path_factory)


@pytest.fixture(scope="session")
def reference_pool(tmp_path_factory):
    """The pool of an uninterrupted ``run`` (what every killed-and-resumed run must end with)."""
    folder = tmp_path_factory.mktemp("reference")
    result = gen(*run_args(folder))
    assert result.exit_code == 0, result.output
    return folder / "pool.jsonl"


@pytest.fixture(scope="session")
def large_pool(tmp_path_factory):
    """A pool of 40,000 items (about 13 MB of JSON lines; read whole, it would take ten times that)."""
    path = tmp_path_factory.mktemp("large") / "large.jsonl"
    item = {"sparql": "SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr } ORDER BY ?wr LIMIT 20",
            "nl": "Quali lemmi ci sono, in ordine alfabetico? " * 2, "nl_en": "Which lemmas are there?",
            "patterns": {"POS_FILTER": 0.9}, "difficulty": "easy", "split": "train"}
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(40_000):
            fh.write(json.dumps({"id": f"big-{i}", **item}) + "\n")
    return path


# -- one case on one surface -------------------------------------------------------------------------
def _adapter(surface: str, request):
    if surface == "mcp":
        return Mcp(lambda rig: request.getfixturevalue("corpus_mcp"),
                   lambda rig: request.getfixturevalue("corpus_mcp_remote"))
    if surface == "ui":
        return Ui(lambda rig: request.getfixturevalue("corpus_ui"),
                  lambda rig: request.getfixturevalue("corpus_ui_remote"))
    return {"cli": Cli, "api": Api, "agent": Agent}[surface]()


def _snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_fifo()}


def _lost_rows(before: dict[Path, bytes], after_folder: Path) -> int:
    """Lines of the files that were there before the case and are missing from them after it."""
    lost = 0
    for path, data in before.items():
        now = path.read_bytes() if path.is_file() else b""
        if now != data:
            kept = set(now.splitlines())
            lost += sum(1 for line in data.splitlines() if line not in kept) or 1
    return lost


def _triples(surface: str, request) -> int:
    if surface == "mcp":
        result = request.getfixturevalue("corpus_mcp").call("execute_sparql", sparql=COUNT_ALL)
        return int(result.structured_content["rows"][0][0]["value"])
    return int(api.execute(COUNT_ALL).values()[0][0])


def _holds(text: str, word: str) -> bool:
    """``word`` (or one of its ``|``-separated alternatives) is in ``text``, ignoring case."""
    return any(w.lower() in text.lower() for w in word.split("|"))


def _judge(case, surface: str, outcome, rig: Rig) -> list[str]:
    """Everything wrong with ``outcome`` for ``case`` on ``surface``."""
    expect = case.expected(surface)
    problems = list(outcome.problems)
    if outcome.traceback or outcome.kind == "broken":
        return [f"no clear answer (a traceback or a generic failure): {outcome.message[:500]}"]
    if outcome.seconds > case.bound:
        problems.append(f"took {outcome.seconds:.1f} s (bound {case.bound:g} s)")
    if expect.outcome == "refused":
        if outcome.kind != "refused":
            return problems + [f"expected a refusal, got an answer: {outcome.data or outcome.message}"]
        if not outcome.clear:
            problems.append(f"not one clear line ({outcome.lines} lines): {outcome.message[:500]}")
        missing = [w for w in expect.words if not _holds(outcome.message, w)]
        if missing:
            problems.append(f"the message lacks {missing}: {outcome.message[:500]}")
        if expect.kind and outcome.error_class and outcome.error_class != expect.kind:
            problems.append(f"error class {outcome.error_class}, expected {expect.kind}")
        return problems
    if outcome.kind != "answered":
        return problems + [f"expected an answer, got a refusal: {outcome.message[:500]}"]
    if expect.outcome == "fallback":
        if outcome.data.get("source") != "offline":
            problems.append(f"expected the offline fallback, got source {outcome.data.get('source')!r}")
        reasons = " ".join(outcome.data.get("reasons") or [])
        missing = [w for w in expect.words if not _holds(reasons, w)]
        if missing:
            problems.append(f"the reason shown lacks {missing}: {reasons[:500]}")
    why = check(expect.check, outcome, rig)
    return problems + ([why] if why else [])


@pytest.mark.parametrize("case, surface", PAIRS, ids=[f"{surface}:{case.id}" for case, surface in PAIRS])
def test_corpus(case, surface, request, corpus_servers, tmp_path, monkeypatch, clean_env):
    victim, faults, switch, llm = corpus_servers
    work = tmp_path / "work"
    work.mkdir()
    (work / "keep.jsonl").write_text(WITNESS, encoding="utf-8")
    rig = Rig(victim, faults, switch, llm, work, request.getfixturevalue, monkeypatch)
    adapter = _adapter(surface, request)
    before = _snapshot(work)
    hits = {"victim": victim.count, "endpoint": faults.count + switch.count}
    triples = _triples(surface, request) if case.kb_intact else None
    try:
        outcome = run(adapter, rig, case)
    finally:
        rig.close()
        llm.handler = None
    problems = _judge(case, surface, outcome, rig)
    calls = {"victim": victim.count - hits["victim"], "endpoint": faults.count + switch.count - hits["endpoint"]}
    problems += [f"{name} got {calls[name]} request(s)" for name in case.untouched if calls[name]]
    lost = _lost_rows(before, work)
    if triples is not None:
        lost += max(0, triples - _triples(surface, request))
    if lost:
        problems.append(f"{lost} row(s) written before the case were lost")
    leftovers = [p.name for p in work.rglob(".*.tmp")]
    if leftovers:
        problems.append(f"temporary files left behind: {leftovers}")
    _record(case, surface, outcome, problems, lost)
    assert not problems, f"{surface}:{case.id} — " + "; ".join(problems)


def _record(case, surface, outcome, problems, lost) -> None:
    path = os.environ.get("NL2SPARQL_CORPUS_RECORD")
    if not path:
        return
    row = {"case": case.id, "group": case.group, "surface": surface, "expected": case.expected(surface).outcome,
           "outcome": outcome.kind, "clear": outcome.clear, "traceback": outcome.traceback,
           "hang": outcome.seconds > case.bound, "lost": lost, "seconds": round(outcome.seconds, 3),
           "passed": not problems, "problems": problems, "message": outcome.message[:300],
           "memory_mb": round(outcome.data.get("memory_mb", 0.0), 1)}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
