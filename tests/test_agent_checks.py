"""The agent's verification: what the answer must be (from the translator's reading), each check, and the
examples of issue 25, answered right or honestly unverified, on the embedded sample."""

from __future__ import annotations

import pytest

from nl2sparql import api
from nl2sparql.agent import AgentContext, Run, checks
from nl2sparql.agent.testing import ScriptedTranslator
from nl2sparql.translate.offline import OfflineTranslator

P = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX elita: <http://w3id.org/elita/>\n"
     "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n"
     "PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>\n")
FEAR_NOUNS = P + ("SELECT DISTINCT ?wr WHERE {\n  ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .\n"
                  "  ?lemma lila:hasPOS lila:noun ; ontolex:writtenRep ?wr .\n}\n")


def expects(question: str) -> dict:
    """What the answer to ``question`` must be, read by the translator's reader (no concept model)."""
    return checks.expectations(question, OfflineTranslator(None).translate(question).to_dict())


# -- what the reading expects, and what a query leaves out -------------------------------------------------
def test_the_expectations_come_from_the_reading():
    fear = expects("Quali sostantivi esprimono paura?")
    assert fear["form"] == "rows" and not fear["words"] and not fear["gaps"]
    assert {(v["kind"], v["value"]) for v in fear["values"]} == {("emotion", "Paura"), ("pos", "noun")}
    assert expects("Quanti sostantivi esprimono paura?")["form"] == "count"
    assert expects("Does 'cane' have a Sicilian translation?")["form"] == "ask"
    assert expects("Can you find the words that end in '-mente'?")["form"] == "rows"  # a request, not yes/no
    amore = expects("Quali emozioni esprime la parola «amore»?")
    assert [w["word"] for w in amore["words"]] == ["amore"] and amore["shows"] == ["emotion"]
    assert not expects("Qual è il genere grammaticale di «mano»?")["gaps"]  # the reader reads the gender asked
    assert expects("Qual è il registro di «mano»?")["gaps"]  # no fact about «mano» was read


def test_a_query_that_leaves_the_question_out_is_caught_before_it_runs():
    fear = expects("Quali sostantivi esprimono paura?")
    assert checks.query_problems(fear, FEAR_NOUNS) == []
    joy = checks.query_problems(fear, FEAR_NOUNS.replace("Paura", "Gioia"))
    assert joy == ["the emotion 'Paura' is used nowhere in the query"]
    assert "yes/no" in checks.query_problems(expects("Is 'cane' a noun?"), FEAR_NOUNS)[0]
    amore = expects("Quali emozioni esprime la parola «amore»?")
    reversed_reading = FEAR_NOUNS.replace("elita:Paura", "elita:Amore")  # the words of the emotion Amore
    assert checks.query_problems(amore, reversed_reading) == ["the word 'amore' is used nowhere in the query"]
    suffix = expects("Which words end in '-mente'?")
    assert checks.query_problems(suffix, FEAR_NOUNS) == ["'mente' is searched nowhere in the query"]


def test_an_answer_of_another_type_or_of_every_lemma_is_never_verified():
    fear = expects("Quali sostantivi esprimono paura?")
    rows = {"form": "select", "rows": 3, "columns": ["wr"], "preview": [["ansia"], ["panico"], ["terrore"]]}
    assert checks.answer_problems(fear, rows) == []
    assert "every lemma" in checks.answer_problems(fear, {**rows, "rows": 763}, lemmas=763)[0]
    assert "one number" in checks.answer_problems(fear, {**rows, "rows": 1, "preview": [["12"]]})[0]
    count = expects("Quanti sostantivi esprimono paura?")
    assert "needs a number" in checks.answer_problems(count, rows)[0]
    amore = expects("Quali emozioni esprime la parola «amore»?")
    assert "emotion values" in checks.answer_problems(amore, rows)[0]
    assert checks.answer_problems(amore, {**rows, "preview": [["Amore"], ["Gioia"]]}) == []
    pairs = {"shows": ["pairs"], "form": "rows"}
    assert "pairs" in checks.answer_problems(pairs, rows)[0]


def test_a_yes_stands_on_the_rows_of_its_positive_query():
    ask = P + ('ASK {\n  VALUES ?wr { "cane"@it }\n  ?lemma ontolex:writtenRep ?wr .\n'
               '  OPTIONAL { ?e ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?t . }\n}\n')
    positive = checks.positive_query(ask)
    assert "\nSELECT * WHERE {" in positive and positive.rstrip().endswith("LIMIT 20")
    assert checks.optional_only(ask) == {"e", "t"}
    word_only = {"columns": ["wr", "lemma", "e", "t"], "preview": [["cane", "l1", None, None]]}
    assert "optional" in checks.yes_problems(ask, word_only)[0]
    assert checks.yes_problems(ask, {**word_only, "preview": [["cane", "l1", "e1", "t1"]]}) == []
    assert checks.positive_query(FEAR_NOUNS) is None


# -- the examples of issue 25, end to end on the sample ------------------------------------------------------
def test_which_emotions_a_word_expresses_is_not_read_backwards(sample_kb):
    result = api.agent("Quali emozioni esprime la parola «amore»?", kb=sample_kb)
    assert result.final["verified"] and result.final["source"] == "catalogue"
    assert '"amore"@it' in result.sparql and "elita:Amore" not in result.sparql
    assert {v for (v,) in result.rows.values()} >= {"Amore"} and result.rows.count < 10


def test_the_gender_of_a_word_is_its_gender(sample_kb):
    result = api.agent("Qual è il genere grammaticale di «mano»?", kb=sample_kb)
    assert result.final["verified"] and "lila:hasGender" in result.sparql
    assert result.rows.values() == [["http://lila-erc.eu/ontologies/lila/feminine"]]


def test_a_reading_that_leaves_out_the_property_asked_is_repaired_through_it(sample_kb):
    # a reading that shows «mano»'s part of speech where its gender is asked: the ontology names lila:hasGender
    pos = P + ('SELECT DISTINCT ?pos WHERE {\n  VALUES ?wr { "mano"@it }\n  ?lemma dcterms:isPartOf '
               '<http://liita.it/data/id/lemma/LemmaBank> ; ontolex:writtenRep ?wr ; lila:hasPOS ?pos .\n}\n')
    ctx = AgentContext(kb=sample_kb, translator=ScriptedTranslator([pos]))
    state = Run("Qual è il genere grammaticale di «mano»?", ctx).invoke()
    first, final = state["attempts"][0], state["final"]
    assert first["verdict"] == "mismatch" and any("lila:hasGender" in p for p in first["problems"])
    assert final["verified"] and final["source"] == "property" and "lila:hasGender" in final["sparql"]


def test_a_yes_no_question_tests_its_fact_at_the_first_attempt(sample_kb):
    """The reading never asks through OPTIONAL (issue 26): no yes that only says the word exists to catch."""
    question = "Does 'animale' have a Sicilian translation?"
    result = api.agent(question, kb=sample_kb)
    assert [(a["verdict"], a["boolean"]) for a in result.attempts] == [("ok", False)]
    assert result.final["verified"] and result.rows.boolean is False and "OPTIONAL" not in result.sparql
    translations = P + ('SELECT ?t WHERE { ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; '
                        'ontolex:writtenRep "animale"@it . ?e ontolex:canonicalForm ?l ; '
                        'vartrans:translatableAs ?t . ?t ontolex:canonicalForm ?d . '
                        '?d dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> }')
    assert api.execute(translations, kb=sample_kb).count == 0  # the sample agrees: no Sicilian translation


def test_nonsense_is_not_a_question_about_liita_and_runs_nothing(sample_kb):
    result = api.agent("xyzzy plugh", kb=sample_kb)
    assert result.final["verdict"] == "off_topic" and result.sparql == "" and not result.queries
    assert result.final["reason"] == api.off_topic("xyzzy plugh")


@pytest.mark.parametrize("question", ["Can you find the words that end in '-mente'?",
                                      "Which words are hyponyms of 'vehicle'?"])
def test_a_request_is_not_a_yes_no_and_a_quoted_token_is_read_not_copied(sample_kb, question):
    result = api.agent(question, kb=sample_kb)
    assert result.rows.form == "select" and result.rows.count > 0 and result.final["verified"]
    assert "'-mente'" not in result.sparql and '"vehicle"' not in result.sparql


def test_an_empty_answer_is_never_the_verified_answer(sample_kb):
    result = api.agent("Qual è la definizione di «qwzxk»?", kb=sample_kb)
    assert not result.final["verified"] and result.confidence < 0.3
    assert result.final["reason"].startswith("no reading could be verified") and "tried 1." in result.final["reason"]
