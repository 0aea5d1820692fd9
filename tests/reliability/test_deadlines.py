"""Issue 18, case 2: every path ends by a stated deadline (endpoint pre-check, LLM requests and rounds)."""

from __future__ import annotations

import json
import time

import pytest
from llm_fake_server import FAKE_KEY, FakeLLMServer, Reply, completion
from reliability_helpers import assert_one_line_error, gen, spawn

from nl2sparql.llm import LLMClient, LLMConfig, LLMError

#: A SERVICE that a naive lexer misses (see test_ssrf.py), to a server that never answers.
HIDDEN = 'SELECT * WHERE {{ VALUES (?a ?b) {{(1 2)}} FILTER(?a<?b)#x>"""\nSERVICE <{u}x> {{ ?s ?p ?o }}\n#"""\n}}'


def test_endpoint_mode_never_waits_on_a_local_check(hanging, endpoint, clean_env):
    start = time.monotonic()
    result = gen("kb", "query", HIDDEN.format(u=hanging.url), "--endpoint", endpoint.url + "sparql",
                 "--timeout", "2")
    assert time.monotonic() - start < 10
    assert_one_line_error(result, "SERVICE")
    assert hanging.count == 0 and endpoint.count == 0


def test_hanging_endpoint_ends_by_the_budget(hanging, clean_env):
    start = time.monotonic()
    result = gen("kb", "query", "SELECT * WHERE { ?s ?p ?o } LIMIT 1", "--endpoint", hanging.url + "sparql",
                 "--timeout", "2")
    assert time.monotonic() - start < 12
    assert_one_line_error(result, "did not answer within 2 s")


def test_llm_call_deadline_spans_retries():
    with FakeLLMServer(handler=lambda request: Reply(delay=60, body=completion("late"))) as server:
        client = LLMClient(LLMConfig(model="m", api_key=FAKE_KEY, base_url=server.url, timeout=1.0,
                                     max_retries=10, deadline=3.0, backoff_base=0.1, cache_path=None))
        start = time.monotonic()
        with pytest.raises(LLMError, match="deadline"):
            client.chat("q")
        assert time.monotonic() - start < 5
        client.close()


def test_translate_llm_against_a_hanging_server_falls_back_in_time(tmp_path, clean_env):
    with FakeLLMServer(handler=lambda request: Reply(delay=300, body=completion("late"))) as server:
        proc = spawn("nl2sparql", "translate", "Quali nomi esprimono paura?", "--llm", "--json",
                     "--embedder", "none", "--timeout", "2", env=server.env(tmp_path))
        start = time.monotonic()
        try:
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            proc.kill()
        elapsed = time.monotonic() - start
    assert proc.returncode == 0, stderr
    assert elapsed < 30, elapsed  # (rounds + 1) × --timeout = 6 s, plus start-up
    data = json.loads(stdout)
    assert data["source"] == "offline"
    assert any("6 s" in w or "deadline" in w for w in data["warnings"]), data["warnings"]
    assert "asking the LLM (round 1 of 3" in stderr


def test_a_server_that_answered_no_whole_call_is_not_asked_again():
    """Issue 31, case 4: a run asks the LLM many times; once one whole call got no answer, the client's later
    calls fail at once (the run ends within one call's deadline), unless a call brings its own deadline."""
    with FakeLLMServer(handler=lambda request: Reply(delay=60, body=completion("late"))) as server:
        config = LLMConfig(model="m", api_key=FAKE_KEY, base_url=server.url, timeout=0.3, max_retries=1,
                           backoff_base=0.05, backoff_max=0.1, cache_path=None)
        asked = LLMClient(config)
        with pytest.raises(LLMError, match="attempt"):
            asked.chat("q")  # two tries of 0.3 s
        sent = server.request_count
        start = time.monotonic()
        with pytest.raises(LLMError, match="not answering"):
            asked.chat("q")
        assert time.monotonic() - start < 0.2 and server.request_count == sent
        asked.close()
        own = LLMClient(config)  # one question of `ask`: its deadline, and the next question is still asked
        for _ in range(2):
            with pytest.raises(LLMError, match="deadline|attempt"):
                own.chat("q", deadline=time.monotonic() + 0.4)
        assert server.request_count > sent + 2
        own.close()
