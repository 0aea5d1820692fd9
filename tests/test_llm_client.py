"""The LLM client against a real (scripted) OpenAI-compatible HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading

import pytest
from llm_fake_server import FAKE_KEY, FakeLLMServer, Reply, completion, error, fake_llm  # noqa: F401

from nl2sparql.errors import ConfigError, Nl2SparqlError
from nl2sparql.llm import (LLMClient, LLMConfig, LLMError, LLMFormatError, ResponseCache, extract_sparql,
                           parse_json_verdict)

QUERY = "SELECT ?lemma WHERE { ?lemma a <http://lila-erc.eu/ontologies/lila/Lemma> } LIMIT 5"


class Sleeps(list):
    """An injectable sleep that records the delays instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make_client(server: FakeLLMServer, tmp_path=None, **settings) -> LLMClient:
    """A client for ``server``: no waiting between retries, cache only when ``tmp_path`` is given."""
    sleep = settings.pop("sleep") if "sleep" in settings else Sleeps()
    values = dict(model="m-default", api_key=FAKE_KEY, base_url=server.url, max_retries=3, timeout=5.0,
                  cache_path=(tmp_path / "cache.sqlite") if tmp_path else None)
    values.update(settings)
    return LLMClient(LLMConfig(**values), sleep=sleep)


def test_request_shape(fake_llm):
    fake_llm.enqueue("```sparql\n" + QUERY + "\n```")
    client = make_client(fake_llm, fast_model="m-fast")
    messages = [{"role": "system", "content": "You write SPARQL."}, {"role": "user", "content": "Lemmi?"}]
    answer = client.chat(messages, temperature=0.2, max_tokens=300, seed=7)
    assert extract_sparql(answer.text) == QUERY
    assert not answer.cached and answer.usage["total_tokens"] == 15 and answer.finish_reason == "stop"
    [request] = fake_llm.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {FAKE_KEY}"
    body = request.json
    assert body["model"] == "m-default" and body["messages"] == messages
    assert body["temperature"] == 0.2 and body["seed"] == 7 and body["max_tokens"] == 300
    assert "response_format" not in body

    client.chat("Parafrasi", tier="fast", response_format={"type": "json_object"})
    body = fake_llm.requests[-1].json
    assert body["model"] == "m-fast" and "seed" not in body
    assert body["messages"] == [{"role": "user", "content": "Parafrasi"}]
    assert body["response_format"] == {"type": "json_object"}


def test_local_server_needs_no_key(fake_llm):
    config = LLMConfig.resolve(env={"OPENAI_BASE_URL": fake_llm.url, "NL2SPARQL_LLM_MODEL": "llama",
                                    "NL2SPARQL_LLM_CACHE": "off", "HOME": "/nonexistent"})
    LLMClient(config).chat("hi")
    assert fake_llm.requests[0].headers["authorization"] == "Bearer EMPTY"


@pytest.mark.parametrize("failure", [error(500), error(503), error(429)])
def test_transient_errors_are_retried(fake_llm, failure):
    fake_llm.enqueue(failure, failure, "answer")
    sleeps = Sleeps()
    client = make_client(fake_llm, sleep=sleeps, backoff_base=1.0)
    assert client.chat("q").text == "answer"
    assert fake_llm.request_count == 3
    assert client.usage.retries == 2 and client.usage.requests == 3
    assert len(sleeps) == 2 and 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0  # 2^n with jitter


def test_retry_after_header_is_honoured(fake_llm):
    fake_llm.enqueue(error(429, retry_after="0.25"), "ok")
    sleeps = Sleeps()
    make_client(fake_llm, sleep=sleeps).chat("q")
    assert sleeps == [0.25]


def test_retries_run_out_into_one_clear_error(fake_llm):
    fake_llm.enqueue(*[error(500, "boom")] * 3)
    client = make_client(fake_llm, max_retries=2)
    with pytest.raises(LLMError) as info:
        client.chat("q")
    assert fake_llm.request_count == 3  # the SDK's own retries are off: only ours
    message = str(info.value)
    assert "\n" not in message and "3 attempt(s)" in message and "HTTP 500" in message and "boom" in message
    assert isinstance(info.value, Nl2SparqlError) and info.value.status == 500
    assert client.usage.failures == 1


def test_no_retries_means_one_request(fake_llm):
    fake_llm.enqueue(error(502))
    with pytest.raises(LLMError):
        make_client(fake_llm, max_retries=0).chat("q")
    assert fake_llm.request_count == 1


def test_timeout_is_retried_then_reported(fake_llm):
    fake_llm.enqueue(Reply(delay=5, body=completion("late")), "in time")
    client = make_client(fake_llm, timeout=0.3, max_retries=1)
    assert client.chat("q").text == "in time"
    assert fake_llm.request_count == 2 and client.usage.retries == 1

    fake_llm.enqueue(*[Reply(delay=5, body=completion("late"))] * 2)
    with pytest.raises(LLMError) as info:
        client.chat("q2")
    assert fake_llm.request_count == 4
    assert "timed out after 0.3s" in str(info.value) and info.value.status is None


def test_connection_refused_is_reported():
    with FakeLLMServer() as server:
        url = server.url
    client = LLMClient(LLMConfig(model="m", base_url=url, cache_path=None, max_retries=1), sleep=Sleeps())
    with pytest.raises(LLMError, match="could not connect"):
        client.chat("q")
    assert client.usage.requests == 2


@pytest.mark.parametrize("status,hint", [(401, "OPENAI_API_KEY"), (404, "model name"), (400, "refused")])
def test_client_errors_are_not_retried(fake_llm, status, hint):
    fake_llm.enqueue(error(status, "nope"))
    with pytest.raises(LLMError, match=hint) as info:
        make_client(fake_llm).chat("q")
    assert fake_llm.request_count == 1 and info.value.status == status
    assert "\n" not in str(info.value)


def test_seed_rejected_is_retried_once_without_it(fake_llm):
    fake_llm.enqueue(error(400, "Unrecognized request argument supplied: seed"), "fine")
    client = make_client(fake_llm)
    assert client.chat("q", seed=42).text == "fine"
    assert fake_llm.requests[0].json["seed"] == 42 and "seed" not in fake_llm.requests[1].json
    client.chat("q2", seed=42)  # the client remembers: no more seeds to this server
    assert fake_llm.request_count == 3 and "seed" not in fake_llm.requests[2].json


def test_config_seed_is_the_default(fake_llm):
    make_client(fake_llm, seed=11).chat("q")
    assert fake_llm.requests[0].json["seed"] == 11


def test_garbage_answers(fake_llm):
    client = make_client(fake_llm)
    fake_llm.enqueue("I am sorry, I cannot help with that.",
                     Reply(body=completion('{"verdict": "yes", "reason": "the query matc', finish_reason="length")),
                     "```sparql\nSELECT ?x WHERE { ?x ?p \"unfinished")
    assert extract_sparql(client.chat("a").text) is None
    truncated = client.chat("b")
    assert truncated.truncated
    with pytest.raises(LLMFormatError, match="truncated"):
        parse_json_verdict(truncated.text)
    assert extract_sparql(client.chat("c").text) is None


def test_non_completion_bodies_are_clear_errors(fake_llm):
    client = make_client(fake_llm)
    fake_llm.enqueue(Reply(body="<html>proxy</html>", content_type="text/html"))
    with pytest.raises(LLMError, match="did not answer with a chat completion"):
        client.chat("a")
    fake_llm.enqueue(Reply(body="{not json"))
    with pytest.raises(LLMError, match="did not answer with a chat completion"):
        client.chat("b")
    fake_llm.enqueue(Reply(body=completion(None)))
    assert client.chat("c").text == ""


def test_cache_hit_makes_no_request(fake_llm, tmp_path):
    fake_llm.enqueue("first answer")
    first = make_client(fake_llm, tmp_path)
    assert first.chat("q", seed=1).text == "first answer"
    first.close()
    assert fake_llm.request_count == 1

    second = make_client(fake_llm, tmp_path)  # a new run over the same cache file
    again = second.chat("q", seed=1)
    assert again.text == "first answer" and again.cached
    assert fake_llm.request_count == 1
    usage = second.usage.to_dict()
    assert usage["cached"] == 1 and usage["requests"] == 0 and usage["prompt_tokens"] == 0

    second.chat("q", seed=2)  # another seed is another request
    second.chat("q", seed=1, temperature=0.5)  # and so is another temperature
    second.chat("q", seed=1, tier="fast", model="other")
    assert fake_llm.request_count == 4


def test_failures_are_not_cached(fake_llm, tmp_path):
    fake_llm.enqueue(error(400, "bad"), "good")
    client = make_client(fake_llm, tmp_path)
    with pytest.raises(LLMError):
        client.chat("q")
    assert client.chat("q").text == "good" and len(client.cache) == 1


def test_chat_many_bounds_concurrency_and_keeps_order(fake_llm, tmp_path):
    fake_llm.handler = lambda request: Reply(delay=0.15, body=completion("echo " + request["messages"][-1]["content"]))
    client = make_client(fake_llm, tmp_path, max_concurrency=3)
    prompts = [f"q{i}" for i in range(12)]
    answers = client.chat_many(prompts)
    assert [a.text for a in answers] == [f"echo {p}" for p in prompts]
    assert 2 <= fake_llm.max_in_flight <= 3
    assert fake_llm.request_count == 12 and len(client.cache) == 12

    fake_llm.max_in_flight = 0
    client.chat_many(prompts + ["new"], max_concurrency=2)  # the cache is shared by all threads
    assert fake_llm.request_count == 13 and fake_llm.max_in_flight == 1


def test_chat_many_can_return_exceptions(fake_llm):
    fake_llm.handler = lambda request: error(400) if request["messages"][0]["content"] == "bad" else "ok"
    client = make_client(fake_llm, max_concurrency=2)
    results = client.chat_many(["a", "bad", "c"], return_exceptions=True)
    assert results[0].text == "ok" and isinstance(results[1], LLMError) and results[2].text == "ok"
    with pytest.raises(LLMError):
        client.chat_many(["a", "bad"])


def test_generate_from_input_is_the_dataflow_interface(fake_llm):
    fake_llm.handler = lambda request: "A: " + request["messages"][-1]["content"]
    client = make_client(fake_llm, fast_model="m-fast")
    assert client.generate_from_input(["uno", "due"], system_prompt="Sei un assistente.") == ["A: uno", "A: due"]
    assert fake_llm.requests[0].json["messages"][0] == {"role": "system", "content": "Sei un assistente."}

    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    serving = client.serving("fast")
    serving.start_serving()
    assert serving.generate_from_input(["tre"], json_schema=schema) == ["A: tre"]
    body = fake_llm.requests[-1].json
    assert body["model"] == "m-fast" and body["messages"] == [{"role": "user", "content": "tre"}]
    assert body["response_format"] == {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}


def test_usage_and_cost(fake_llm, tmp_path):
    fake_llm.enqueue(Reply(body=completion("x", prompt_tokens=1000, completion_tokens=500)), error(500), "y")
    prices = {"m-default": {"prompt": 2.0, "completion": 8.0}}
    client = make_client(fake_llm, tmp_path, prices=prices)
    client.chat("a")
    client.chat("b")
    client.chat("a")
    usage = client.usage.to_dict()
    assert usage["calls"] == 3 and usage["requests"] == 3 and usage["retries"] == 1 and usage["cached"] == 1
    assert usage["prompt_tokens"] == 1010 and usage["completion_tokens"] == 505 and usage["total_tokens"] == 1515
    assert usage["cost_usd"] == pytest.approx((1010 * 2.0 + 505 * 8.0) / 1e6)
    assert usage["by_model"]["m-default"]["requests"] == 2
    json.dumps({"llm": client.config.to_dict(), "usage": usage})  # fit for a run manifest
    assert FAKE_KEY not in json.dumps(client.config.to_dict())


def test_no_configuration_is_one_clear_line(tmp_path):
    with pytest.raises(ConfigError) as info:
        LLMClient.from_settings(env={"HOME": str(tmp_path)})
    message = str(info.value)
    assert "\n" not in message
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "--llm-model"):
        assert name in message


def test_cache_is_thread_safe(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")

    def writer(n):
        for i in range(50):
            cache.put(f"{n}-{i}", "m", {"text": str(i)})
            assert cache.get(f"{n}-{i}") == {"text": str(i)}

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 200
    cache.close()
    assert len(ResponseCache(tmp_path / "c.sqlite")) == 200
