"""The agent with an LLM: the scripted chat-completions server on 127.0.0.1, the real SDK client.

The translator reads the question (one reading, with or without an LLM), the fast tier plans and
the default tier writes; the same graph as offline. The
server answers by the system prompt of each request, so the tests see which tier asked
what, and what reached the generator (sub-tasks, failed attempts, exploration findings).
"""

from __future__ import annotations

import json

import pytest
from llm_fake_server import FAKE_KEY, error, reply_by_content

from nl2sparql import api

FAST = "fast-model"
PROLOGUE = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX elita: <http://w3id.org/elita/>\n"
            "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n")
FEAR = PROLOGUE + ("SELECT DISTINCT ?wr WHERE {\n  ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .\n"
                   "  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n}")
NOTHING = PROLOGUE + 'SELECT ?wr WHERE { VALUES ?wr { "qwzx"@it } ?l a lila:Lemma ; ontolex:writtenRep ?wr . }'
QUESTION = "Quali parole esprimono paura?"
PLAN = json.dumps({"subtasks": ["entries with elita:HasEmotion elita:Paura", "their lemmas' written forms"]})
ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_FAST_MODEL",
            "NL2SPARQL_LLM_CONFIG", "NL2SPARQL_LLM_CACHE")


@pytest.fixture
def llm_env(fake_llm, monkeypatch, tmp_path):
    """The client configured from the environment, pointing at the scripted server (no response cache)."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for name, value in fake_llm.env(None, fast_model=FAST).items():
        monkeypatch.setenv(name, value)
    return fake_llm


def script(server, *queries: str) -> None:
    """The plan for the fast tier; the default tier answers ``queries`` in turn (then the last)."""
    answers = list(queries)

    def write(_request):
        text = answers.pop(0) if len(answers) > 1 else answers[0]
        return f"Here it is:\n```sparql\n{text}\n```"

    server.handler = reply_by_content([(r"You plan SPARQL", PLAN),
                                       (r"You translate questions about LiITA", write)])


def requests_by_tier(server):
    return [(r.json["model"], r.json["messages"]) for r in server.requests]


def test_same_graph_with_the_llm_fast_tier_plans(llm_env, sample_kb):
    script(llm_env, FEAR)
    result = api.agent(QUESTION, mode="llm", kb=sample_kb)
    assert result.final["source"] == "llm" and result.final["attempt"] == 1 and result.mode == "llm"
    models = [m for m, _ in requests_by_tier(llm_env)]
    assert models == [FAST, "fake-model"]  # the question is read once, by the translator's reader
    assert result.analysis["slots"]["emotions"] == ["Paura"] and result.plan["source"] == "llm"
    assert result.rows.count == api.execute(FEAR, kb=sample_kb).count and result.final["verified"]
    assert result.llm["usage"]["calls"] == 2


def test_plan_subtasks_examples_and_question_reach_the_generator(llm_env, sample_kb):
    script(llm_env, FEAR)
    api.agent(QUESTION, mode="llm", kb=sample_kb)
    system, user = requests_by_tier(llm_env)[1][1]
    assert "You translate questions about LiITA" in system["content"] and "EMOTION_LEXICON" in system["content"]
    assert "1. entries with elita:HasEmotion elita:Paura" in user["content"]
    assert "2. their lemmas' written forms" in user["content"]
    assert "Similar questions with their correct queries" in user["content"]
    assert user["content"].rstrip().endswith(f"Question: {QUESTION}")


def test_failed_attempts_and_findings_go_back_to_the_generator(llm_env, sample_kb):
    script(llm_env, NOTHING, FEAR)
    result = api.agent(QUESTION, mode="llm", kb=sample_kb)
    assert [a["verdict"] for a in result.attempts] == ["empty", "ok"]
    assert [t["node"] for t in result.trace].count("explore") == 1
    second = requests_by_tier(llm_env)[2][1][1]["content"]
    assert "Earlier attempts that did not answer" in second and '"qwzx"@it' in second
    assert "the query returns no rows" in second
    assert "What exploring the knowledge base found" in second


def test_the_llm_query_is_put_in_the_form_the_reading_asks(llm_env, sample_kb):
    per_lemma = PROLOGUE + ("SELECT ?wr (COUNT(DISTINCT ?e) AS ?entries) WHERE {\n  ?e ontolex:canonicalForm ?lemma ; "
                            "elita:HasEmotion elita:Paura .\n  ?lemma ontolex:writtenRep ?wr .\n} GROUP BY ?wr\n")
    script(llm_env, per_lemma)
    result = api.agent("Quante parole esprimono paura?", mode="llm", kb=sample_kb)
    attempt = result.attempts[0]  # a count of the groups, since the question asks how many
    assert attempt["source"] == "llm" and "COUNT(*)" in attempt["sparql"] and attempt["shaped"]
    assert result.rows.values() == [[str(api.execute(per_lemma, kb=sample_kb).count)]]


def test_an_unusable_llm_answer_falls_back_to_the_offline_candidates(llm_env, sample_kb):
    llm_env.handler = reply_by_content([(r"You plan SPARQL", error(400)),
                                        (r"You translate questions about LiITA", "I cannot write SPARQL.")])
    result = api.agent(QUESTION, mode="llm", kb=sample_kb)
    assert result.final["source"] == "catalogue" and result.final["verdict"] == "ok"
    summaries = " ".join(t["summary"] for t in result.trace)
    assert "kept the catalogue's plan" in summaries
    assert "holds no SPARQL" in summaries


def test_no_secret_reaches_the_state_or_the_checkpoint(llm_env, sample_kb, tmp_path):
    script(llm_env, NOTHING, FEAR)
    db = tmp_path / "llm.sqlite"
    result = api.agent(QUESTION, mode="llm", kb=sample_kb, checkpoint=db, thread="secret")
    text = json.dumps(result.to_dict())
    assert FAKE_KEY not in text and result.llm["usage"]["calls"] >= 3
    for path in tmp_path.glob("llm.sqlite*"):
        assert FAKE_KEY.encode() not in path.read_bytes()
    assert any(r.headers.get("authorization") == f"Bearer {FAKE_KEY}" for r in llm_env.requests)


def test_an_llm_that_repeats_itself_hands_over_to_the_offline_candidates(llm_env, sample_kb):
    script(llm_env, NOTHING)
    result = api.agent(QUESTION, mode="llm", kb=sample_kb)
    assert [(a["source"], a["verdict"]) for a in result.attempts] == [("llm", "empty"), ("catalogue", "ok")]
    assert "already tried" in " ".join(t["summary"] for t in result.trace)
