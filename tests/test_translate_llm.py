"""The LLM path: constraint prompts, validation, repair rounds and the offline fallback (fake server on 127.0.0.1)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from llm_fake_server import error
from nl2sparql.cli.main import app
from nl2sparql.llm import LLMClient, LLMConfig
from nl2sparql.patterns import CATALOGUE
from nl2sparql.translate import prompts
from nl2sparql.translate.llm_translate import LLMTranslator
from nl2sparql.translate.offline import OfflineTranslator

runner = CliRunner()
GOOD = """```sparql
PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX elita: <http://w3id.org/elita/>
SELECT DISTINCT ?lemma ?wr WHERE {
  ?lemma a lila:Lemma ; lila:hasPOS lila:noun ; ontolex:writtenRep ?wr .
  ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .
} ORDER BY ?wr
```"""
# reuses one entry variable for ELITA and Sentix: an error the validator catches
BAD = """```sparql
SELECT ?lemma WHERE { ?lemma a lila:Lemma . ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura ;
  marl:hasPolarity marl:Negative }
```"""
# fixable by repair alone: missing prefixes and a case-sensitive emotion label
FIXABLE = """SELECT DISTINCT ?lemma ?wr WHERE { ?lemma a lila:Lemma ; lila:hasPOS lila:noun ; ontolex:writtenRep ?wr .
  ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion ?em . ?em rdfs:label ?l . FILTER(STR(?l) = "paura") } ORDER BY ?wr"""


@pytest.fixture
def client(fake_llm, tmp_path):
    env = fake_llm.env(tmp_path)
    config = LLMConfig.resolve(env=env, no_cache=True)
    with LLMClient(config, sleep=lambda s: None) as c:
        yield c


def _translator(client, kb, rounds=2):
    return LLMTranslator(client, OfflineTranslator(), kb=kb, rounds=rounds)


def _nouns(kb, sparql):
    return sorted(str(r[-1]) for r in kb.execute(sparql).rows)


def test_good_answer_is_used(client, fake_llm, sample_kb):
    fake_llm.enqueue(GOOD)
    result = _translator(client, sample_kb).translate("Which nouns express fear?")
    assert result.source == "llm" and result.rounds == 0 and fake_llm.request_count == 1
    assert len(_nouns(sample_kb, result.sparql)) == 26


def test_prompt_is_built_from_the_catalogue(client, fake_llm, sample_kb):
    fake_llm.enqueue(GOOD)
    _translator(client, sample_kb).translate("Quali sostantivi esprimono paura e hanno polarità negativa in Sentix?")
    messages = fake_llm.requests[0].json["messages"]
    system, user = messages[0]["content"], messages[1]["content"]
    assert "PREFIX elita: <http://w3id.org/elita/>" in system and "lexinfo:hyponym" in system
    assert "EMOTION_LEXICON" in system and "POLARITY" in system and "its OWN entry" in system
    assert "elita:HasEmotion elita:Paura" in system  # canonical block rendered by the catalogue
    assert "Question: Quali sostantivi" in user and "draft" in user


def test_repair_round_sends_the_issues_back(client, fake_llm, sample_kb):
    fake_llm.enqueue(BAD, GOOD)
    result = _translator(client, sample_kb).translate("Which nouns express fear?")
    assert result.source == "llm" and result.rounds == 1 and fake_llm.request_count == 2
    follow_up = fake_llm.requests[1].json["messages"][-1]["content"]
    assert "entry" in follow_up and "problems" in follow_up


def test_safe_fixes_are_applied_and_reported(client, fake_llm, sample_kb):
    fake_llm.enqueue(FIXABLE)
    result = _translator(client, sample_kb).translate("Which nouns express fear?")
    assert result.source == "llm" and result.rounds == 0
    assert any("case-insensitive" in f for f in result.fixes) and any("PREFIX" in f for f in result.fixes)
    assert len(_nouns(sample_kb, result.sparql)) == 26


def test_falls_back_to_offline_after_the_last_round(client, fake_llm, sample_kb):
    fake_llm.enqueue("I cannot help with that.", BAD, BAD)
    result = _translator(client, sample_kb, rounds=2).translate("Which nouns express fear?")
    assert result.source == "offline" and fake_llm.request_count == 3
    assert "offline" in result.warnings[0] and len(_nouns(sample_kb, result.sparql)) == 26


def test_falls_back_to_offline_when_the_server_fails(fake_llm, tmp_path, sample_kb):
    config = LLMConfig.resolve(env={**fake_llm.env(tmp_path), }, no_cache=True, max_retries=0)
    fake_llm.enqueue(error(500))
    with LLMClient(config, sleep=lambda s: None) as client:
        result = _translator(client, sample_kb).translate("Quali sostantivi esprimono paura?")
    assert result.source == "offline" and "LLM failed" in result.warnings[0]


def test_prompt_parts():
    system = prompts.system_prompt(["POS_FILTER"])
    assert "POS_FILTER" in system and "EMOTION_LEXICON" not in system
    for label, pattern in CATALOGUE.items():
        block = prompts.canonical_block(label)
        assert (block is None) == (pattern.example is None), label
        assert block is None or block.lstrip().startswith(("PREFIX", "SELECT")), label
    message = prompts.repair_message(None, [])
    assert "did not contain" in message["content"]


def test_cli_llm_without_configuration_is_one_line(monkeypatch, tmp_path):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "NL2SPARQL_LLM_MODEL", "NL2SPARQL_LLM_FAST_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    result = runner.invoke(app, ["translate", "Which nouns express fear?", "--llm", "--embedder", "none"])
    assert result.exit_code == 2
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "OPENAI_API_KEY" in lines[0] and "NL2SPARQL_LLM_MODEL" in lines[0]


def test_cli_llm_json(fake_llm, tmp_path, monkeypatch):
    for name, value in fake_llm.env(tmp_path).items():
        monkeypatch.setenv(name, value)
    fake_llm.enqueue(GOOD)
    result = runner.invoke(app, ["translate", "Which nouns express fear?", "--llm", "--json", "--embedder", "none"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "llm" and data["source"] == "llm" and data["llm"]["rounds"] == 0
