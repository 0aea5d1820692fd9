"""Issue 18, case 1: no query makes the engine or an endpoint call a host outside the service map.

Each probe is first run on a bare pyoxigraph store to show that Oxigraph
really reads a SERVICE there (it calls the local ``victim`` server); then the
same text must be refused on every way in, with zero requests to the victim.
"""

from __future__ import annotations

import json
import socket

import pyoxigraph as ox
import pytest
from llm_fake_server import FakeLLMServer, reply_by_content
from reliability_helpers import assert_one_line_error, gen, main

from nl2sparql.errors import QueryError
from nl2sparql.pipelines.storage import read_jsonl

#: Texts where Oxigraph calls the SERVICE target ({u} is the victim's URL, {p} its port).
PROBES = {
    "comment ended by CR": "SELECT * WHERE {{ # c\rSERVICE <{u}cr> {{ ?s ?p ?o }} }}",
    "escaped IRI": "SELECT * WHERE {{ SERVICE <http\\u003a//127.0.0.1:{p}/esc> {{ ?s ?p ?o }} }}",
    "prefixed name": "PREFIX x: <{u}> SELECT * WHERE {{ SERVICE x:pn {{ ?s ?p ?o }} }}",
    "escaped local name": "PREFIX x: <{u}> SELECT * WHERE {{ SERVICE x:a\\~b {{ ?s ?p ?o }} }}",
    "SERVICE as a prefix": "PREFIX SERVICE: <{u}> SELECT * WHERE {{ SERVICE SERVICE:w {{ ?s ?p ?o }} }}",
    "lower case, no spaces": "SELECT * WHERE {{service<{u}lc>{{?s ?p ?o}}}}",
    "relative to BASE": "BASE <{u}> SELECT * WHERE {{ SERVICE <rel> {{ ?s ?p ?o }} }}",
    "in a subquery": "SELECT * WHERE {{ {{ SELECT * WHERE {{ SERVICE <{u}sub> {{ ?s ?p ?o }} }} }} }}",
    "in FILTER EXISTS": "SELECT * WHERE {{ BIND(1 AS ?z) FILTER EXISTS {{ SERVICE <{u}ex> {{ ?s ?p ?o }} }} }}",
    # '<' read as an operator by Oxigraph and as an IRI by a naive lexer: the '#' then starts a
    # comment for Oxigraph only, and the lexer's long string hides the SERVICE on the next line
    "operator or IRI": 'SELECT * WHERE {{ VALUES (?a ?b) {{(1 2)}} FILTER(?a<?b)#x>"""\nSERVICE <{u}op> {{ ?s ?p ?o }}\n#"""\n}}',
}
#: The probes the CLI paths are tried with (newline translation on reading a file or stdin
#: turns a lone CR into LF, so the second one matters there).
CLI_PROBES = ["comment ended by CR", "operator or IRI"]


def probe(victim, name: str) -> str:
    url = victim.url
    return PROBES[name].format(u=url, p=url.rsplit(":", 1)[1].strip("/"))


def engine_calls(query: str, victim) -> int:
    """Requests a bare Oxigraph store makes to the victim for ``query`` (the test's own control)."""
    before = victim.count
    try:
        result = ox.Store().query(query)
        if not isinstance(result, (bool, ox.QueryBoolean)):
            list(result)
    except (OSError, RuntimeError, SyntaxError):
        pass
    return victim.count - before


@pytest.mark.parametrize("name", sorted(PROBES))
def test_embedded_store_refuses_every_service_oxigraph_reads(name, victim, sample_kb):
    query = probe(victim, name)
    assert engine_calls(query, victim) >= 1, "the probe must be a live SERVICE for Oxigraph"
    before = victim.count
    with pytest.raises(QueryError) as info:
        sample_kb.execute(query)
    assert "\n" not in str(info.value)
    assert victim.count == before


@pytest.mark.parametrize("name", sorted(PROBES))
def test_endpoint_mode_sends_nothing(name, victim, endpoint, clean_env):
    result = gen("kb", "query", probe(victim, name), "--endpoint", endpoint.url + "sparql")
    assert_one_line_error(result)
    assert victim.count == 0 and endpoint.count == 0


@pytest.mark.parametrize("name", CLI_PROBES)
@pytest.mark.parametrize("how", ["inline", "stdin"])
def test_kb_query(how, name, victim, clean_env):
    query = probe(victim, name)
    result = gen("kb", "query", query) if how == "inline" else gen("kb", "query", "-", input=query)
    assert_one_line_error(result, "SERVICE")
    assert victim.count == 0


@pytest.mark.parametrize("name", CLI_PROBES)
def test_validate_no_execute_only_parses(name, victim, tmp_path, clean_env):
    path = tmp_path / "q.rq"
    path.write_text(probe(victim, name), encoding="utf-8")
    result = main("validate", str(path), "--no-execute")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert victim.count == 0


@pytest.mark.parametrize("name", CLI_PROBES)
def test_score_pred(name, victim, tmp_path, clean_env):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(json.dumps({"id": "g1", "sparql": "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", "nl": "x"}) + "\n")
    pred.write_text(json.dumps({"id": "g1", "sparql": probe(victim, name)}) + "\n")
    result = gen("score", "--gold", str(gold), "--pred", str(pred), "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert victim.count == 0


@pytest.mark.parametrize("name", CLI_PROBES)
def test_translate_llm_falls_back(name, victim, tmp_path, monkeypatch, clean_env):
    with FakeLLMServer(default_text="```sparql\n" + probe(victim, name) + "\n```") as llm:
        for name, value in llm.env(tmp_path).items():
            monkeypatch.setenv(name, value)
        result = main("translate", "Quali nomi esprimono paura?", "--llm", "--json", "--embedder", "none")
        assert result.exit_code == 0, result.output
        assert llm.request_count >= 1
    data = json.loads(result.stdout)
    assert data["source"] == "offline"
    assert victim.count == 0


@pytest.mark.parametrize("name", CLI_PROBES)
def test_run_llm_keeps_such_queries_out_of_the_pool(name, victim, tmp_path, monkeypatch, clean_env):
    evil = probe(victim, name)
    with FakeLLMServer() as llm:
        llm.handler = reply_by_content([(r"Write \d+ different SPARQL queries", "```sparql\n" + evil + "\n```")],
                                       default="Quali lemmi?")
        for name, value in llm.env(tmp_path).items():
            monkeypatch.setenv(name, value)
        out = tmp_path / "pool.jsonl"
        result = gen("run", "--target", "5", "--seed", "3", "--out", str(out), "--cache-dir",
                     str(tmp_path / "cache"), "--llm")
    assert result.exit_code == 0, result.output
    assert victim.count == 0
    assert not any(victim.url in item["sparql"] for item in read_jsonl(out))


def test_workers_cannot_open_network_sockets():
    """Defence in depth: the sandboxed worker gets EPERM for an inet socket, keeps AF_UNIX."""
    from nl2sparql.sparql.sandbox import WorkerPool

    def init():
        return None

    def handle(_, family):
        try:
            socket.socket(family, socket.SOCK_STREAM).close()
        except OSError as exc:
            return exc.errno
        return 0

    pool = WorkerPool(init, handle, size=1)
    try:
        import errno
        assert pool.call(socket.AF_INET, 10, TimeoutError) == errno.EPERM
        assert pool.call(socket.AF_INET6, 10, TimeoutError) == errno.EPERM
        assert pool.call(socket.AF_UNIX, 10, TimeoutError) == 0
    finally:
        pool.close()


def test_a_service_the_checks_missed_still_reaches_nobody(victim):
    """Hand the raw probe to a worker directly (no checks): the engine's call fails inside the sandbox."""
    from nl2sparql.kb.workers import WorkerPool

    pool = WorkerPool(ox.Store, None)
    try:
        with pytest.raises(QueryError, match="not permitted"):
            pool.run(probe(victim, "comment ended by CR"), "select", 10, 10)
    finally:
        pool.close()
    assert victim.count == 0
