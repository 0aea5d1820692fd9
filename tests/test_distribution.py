"""DISTRIBUTION, the pattern added in its own module only: generator, tagger, translator, validator and prompts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nl2sparql.patterns import CATALOGUE, LABELS, detect_patterns
from nl2sparql.patterns.compose import Candidate, Composer
from nl2sparql.patterns.phrasing import realise_all
from nl2sparql.patterns.tagger import tag_query
from nl2sparql.patterns.vocab import FACETS
from nl2sparql.translate import prompts
from nl2sparql.translate.offline import OfflineTranslator
from nl2sparql.translate.validate import is_blocking, validate
from translate_helpers import sample_facts

P = ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nPREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
     "PREFIX elita: <http://w3id.org/elita/>\nPREFIX marl: <http://www.gsi.upm.es/ontologies/marl/ns#>\n"
     "PREFIX dcterms: <http://purl.org/dc/terms/>\n")
# Gold queries written by hand for these tests (other variable names, other join order than the catalogue's);
# an Italian lemma is one of the Lemma Bank (the dialect banks' lemmas are lila:Lemma too).
NOUNS_PER_EMOTION = P + """SELECT ?e (COUNT(DISTINCT ?l) AS ?n) WHERE {
  ?x elita:HasEmotion ?e ; ontolex:canonicalForm ?l . ?e a elita:Emotion .
  ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; lila:hasPOS lila:noun ; ontolex:writtenRep ?w .
} GROUP BY ?e"""
FEAR_PER_POLARITY = P + """SELECT ?c (COUNT(DISTINCT ?l) AS ?n) WHERE {
  ?x elita:HasEmotion elita:Paura ; ontolex:canonicalForm ?l . ?s ontolex:canonicalForm ?l ; marl:hasPolarity ?c .
  ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; ontolex:writtenRep ?w .
} GROUP BY ?c"""
ZIONE_PER_POS = P + """SELECT ?p (COUNT(DISTINCT ?l) AS ?n) WHERE {
  ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; ontolex:writtenRep ?w ; lila:hasPOS ?p . FILTER(STRENDS(STR(?w), "zione"))
} GROUP BY ?p"""
NOUNS_PER_GENDER = P + """SELECT ?g (COUNT(DISTINCT ?l) AS ?n) WHERE {
  ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; ontolex:writtenRep ?w ; lila:hasPOS lila:noun ; lila:hasGender ?g .
} GROUP BY ?g"""
ADJECTIVES_PER_POLARITY = P + """SELECT ?c (COUNT(DISTINCT ?l) AS ?n) WHERE {
  ?s ontolex:canonicalForm ?l ; marl:hasPolarity ?c . ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; lila:hasPOS lila:adjective ; ontolex:writtenRep ?w .
} GROUP BY ?c"""

QUESTIONS = [
    ("Quanti sostantivi ci sono per ogni emozione?", NOUNS_PER_EMOTION),
    ("How many nouns are there for each emotion?", NOUNS_PER_EMOTION),
    ("Quante parole che esprimono paura ci sono per ciascuna classe di polarità?", FEAR_PER_POLARITY),
    ("How many words expressing fear are there for each polarity class?", FEAR_PER_POLARITY),
    ("How many words ending in -zione are there per part of speech?", ZIONE_PER_POS),
    ("Qual è la distribuzione per parte del discorso delle parole che finiscono in -zione?", ZIONE_PER_POS),
    ("How many nouns per gender?", NOUNS_PER_GENDER),
    ("Quanti aggettivi ci sono per ogni classe di polarità Sentix?", ADJECTIVES_PER_POLARITY),
]


def rows(kb, query: str) -> Counter:
    return Counter(tuple(t.value for t in row) for row in kb.execute(query).rows)


@pytest.fixture(scope="module")
def translator():
    return OfflineTranslator()


@pytest.mark.parametrize("question, gold", QUESTIONS)
def test_the_translator_builds_distributions(question, gold, translator, sample_kb):
    result = translator.translate(question)
    assert "DISTRIBUTION" in result.patterns and result.shape == "count", (question, result.patterns)
    assert "GROUP BY" in result.sparql and "ORDER BY DESC(?count)" in result.sparql
    assert not is_blocking(validate(result.sparql, sample_kb))
    got, want = rows(sample_kb, result.sparql), rows(sample_kb, gold)
    assert got == want and got, (question, got, want)
    counts = [int(row[1].value) for row in sample_kb.execute(result.sparql).rows]
    assert counts == sorted(counts, reverse=True)  # largest group first


def test_whole_kb_counts_per_facet_stay_counts_and_are_detected(translator, sample_kb):
    """With nothing to narrow the lemmas, COUNT_ENTITIES answers ("how many per …" of the whole KB)."""
    for question in ("Quante parole ci sono per ogni emozione?", "How many words per part of speech?"):
        assert "DISTRIBUTION" in detect_patterns(question)
        result = translator.translate(question)
        assert result.patterns == {"COUNT_ENTITIES": 0.9} and "GROUP BY" in result.sparql
        assert sample_kb.execute(result.sparql).rows
    listed = translator.translate("Elenca gli aggettivi per classe di polarità")  # no count: not a distribution
    assert "DISTRIBUTION" not in listed.patterns and listed.shape == "list"


def test_the_tagger_tags_grouped_counts_of_a_facet():
    for gold in (NOUNS_PER_EMOTION, ZIONE_PER_POS, NOUNS_PER_GENDER, ADJECTIVES_PER_POLARITY):
        tags = tag_query(gold)
        assert tags.get("DISTRIBUTION") == 0.9 and tags.get("COUNT_ENTITIES") == 0.9, tags
    senses = P + ("SELECT ?l (COUNT(DISTINCT ?s) AS ?n) WHERE { ?x elita:HasEmotion ?e ; ontolex:canonicalForm ?l . "
                  "?w ontolex:canonicalForm ?l . SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { "
                  "?w ontolex:sense ?s } } GROUP BY ?l")
    assert "DISTRIBUTION" not in tag_query(senses)
    plain = P + "SELECT (COUNT(DISTINCT ?l) AS ?n) WHERE { ?l dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; lila:hasPOS lila:noun }"
    assert "DISTRIBUTION" not in tag_query(plain)


@pytest.fixture(scope="module")
def facts(sample_kb):
    return sample_facts(sample_kb)


def test_the_generator_composes_distributions_in_every_persona(facts, sample_kb):
    composer = Composer(facts, seed=3)
    found = []
    for i in range(800):
        cand = composer.draw(i)
        if isinstance(cand, Candidate) and "DISTRIBUTION" in cand.labels:
            found.append(cand)
    assert len({c.slots["group_by"] for c in found}) >= 3, [c.slots for c in found]
    for cand in found:
        assert cand.shape == "count" and "GROUP BY" in cand.sparql and cand.labels["COUNT_ENTITIES"] == 0.9
        assert not is_blocking(validate(cand.sparql))
        questions = realise_all(cand.fragment_objects(), cand.shape, random.Random(cand.cid))
        facet = FACETS[cand.slots["group_by"]]
        said = {"it": facet.it.split(" ", 1)[1], "en": facet.en}  # "per ciascuna classe di polarità Sentix"
        for lang in ("it", "en"):
            for persona, text in questions[lang].items():
                assert "{" not in text and "}" not in text, text
                assert said[lang].lower() in text.lower(), (persona, text)
            for it, en in cand.mentions:  # the generic question names every slot value
                assert (it if lang == "it" else en).lower() in questions[lang]["generic"].lower()
    answered = [c for c in found if sample_kb.execute(c.sparql).rows]
    assert answered and all(tag_query(c.sparql).get("COUNT_ENTITIES") for c in answered)


def test_other_draws_do_not_change_when_distributions_are_allowed(facts):
    """The composer draws a distribution after every other draw of a candidate: the rest stays the same."""
    with_it = Composer(facts, seed=5)
    without = Composer(facts, seed=5, allowed=set(LABELS) - {"DISTRIBUTION"})
    changed = 0
    for i in range(400):
        a, b = with_it.draw(i), without.draw(i)
        if isinstance(a, Candidate) and "DISTRIBUTION" in a.labels:
            changed += 1
            continue
        assert (a.sparql if isinstance(a, Candidate) else a) == (b.sparql if isinstance(b, Candidate) else b), i
    assert changed
    assert not any(isinstance(c, Candidate) and "DISTRIBUTION" in c.labels for c in map(without.draw, range(400)))


def test_the_prompts_describe_it():
    system = prompts.system_prompt(["DISTRIBUTION"])
    assert CATALOGUE["DISTRIBUTION"].guidance in system and "GROUP BY ?emotion" in system
    assert LABELS.index("COUNT_ENTITIES") < LABELS.index("DISTRIBUTION") < LABELS.index("RANKING")  # among the counts
