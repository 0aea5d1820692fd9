"""Reading what people ask (issue 24): question kinds beyond one fact about one word.

Each question is translated offline, run on the sample and compared with a gold query written by hand
(values compared as sets of rows). The kinds: the lemma of an inflected form, one emotion but not another,
either of two affixes, the facet value with the most or fewest lemmas, every word at an extreme (ties
included), lemmas with spelling variants, words that must have a relation, how many lemmas share a
written form.
"""

from __future__ import annotations

import pytest

from nl2sparql.patterns.tagger import tag_query
from nl2sparql.sparql.model import unordered_list
from nl2sparql.translate.offline import OfflineTranslator

P = """PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX elita: <http://w3id.org/elita/>
PREFIX marl: <http://www.gsi.upm.es/ontologies/marl/ns#>
PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""
BANK = "<http://liita.it/data/id/lemma/LemmaBank>"
#: A word of the Lemma Bank, shown by its own written form (its label): a lemma or a hypolemma (README, "Words and
#: lemmas"; issue 26).
WORD = f"(dcterms:isPartOf|lila:isHypolemma/dcterms:isPartOf) {BANK} ; rdfs:label ?w"
C = "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>"
ANTONYMS = ("lexinfo:antonym|<http://klab/lexicon/vocabulary/compl-it#antonymGrad>|"
            "<http://klab/lexicon/vocabulary/compl-it#antonymComp>")


def lemma_of_form(form: str) -> str:
    return P + f"""SELECT DISTINCT ?w WHERE {{ ?f ontolex:writtenRep "{form}"@it . ?e ontolex:otherForm ?f ;
      ontolex:canonicalForm ?l . ?l ontolex:writtenRep ?w }}"""


def emotion_but_not(yes: str, no: str, pos: str | None = None) -> str:
    pos_triple = f"?l lila:hasPOS lila:{pos} ." if pos else ""
    return P + f"""SELECT DISTINCT ?w WHERE {{ ?l {WORD} . {pos_triple}
      ?e ontolex:canonicalForm ?l ; elita:HasEmotion elita:{yes} .
      FILTER NOT EXISTS {{ ?e2 ontolex:canonicalForm ?l ; elita:HasEmotion elita:{no} }} }}"""


def starting_with_either(a: str, b: str) -> str:
    return P + f"""SELECT DISTINCT ?w WHERE {{ ?l {WORD} .
      FILTER(STRSTARTS(STR(?w), "{a}") || STRSTARTS(STR(?w), "{b}")) }}"""


def top_facet(prop: str, on_entry: bool, most: bool) -> str:
    """The value of ``prop`` with the most (fewest) lemmas, with its count, ties included: the Lemma Bank's
    lemmas, or (``on_entry``, a resource's entries) every lemma the entries point to (hypolemmas are words too)."""
    link = f"?x ontolex:canonicalForm ?l ; {prop} ?v ." if on_entry else f"?l dcterms:isPartOf {BANK} ; {prop} ?v ."
    link2 = link.replace("?x ", "?x2 ").replace("?l ", "?l2 ").replace("?l ;", "?l2 ;").replace("?v", "?v2")
    pick = "MAX" if most else "MIN"
    return P + f"""SELECT ?v ?n WHERE {{
      {{ SELECT ?v (COUNT(DISTINCT ?l) AS ?n) WHERE {{ {link} }} GROUP BY ?v }}
      {{ SELECT ({pick}(?n2) AS ?best) WHERE {{
          {{ SELECT ?v2 (COUNT(DISTINCT ?l2) AS ?n2) WHERE {{ {link2} }} GROUP BY ?v2 }}
      }} }}
      FILTER(?n = ?best) }}"""


MOST_NEGATIVE = P + f"""SELECT DISTINCT ?w WHERE {{ ?l {WORD} .
  ?s ontolex:canonicalForm ?l ; marl:hasPolarity ?c ; marl:hasPolarityValue ?v .
  {{ SELECT (MIN(?v2) AS ?low) WHERE {{ ?l2 dcterms:isPartOf|lila:isHypolemma/dcterms:isPartOf {BANK} .
      ?s2 ontolex:canonicalForm ?l2 ; marl:hasPolarity ?c2 ; marl:hasPolarityValue ?v2 }} }}
  FILTER(?v = ?low) }}"""
SPELLING_VARIANTS = P + f"""SELECT ?l (GROUP_CONCAT(DISTINCT ?w; SEPARATOR=", ") AS ?ws) WHERE {{
  {{ SELECT ?l ?w WHERE {{ ?l dcterms:isPartOf {BANK} ; ontolex:writtenRep ?w }} ORDER BY ?w }}
  {{ SELECT ?l WHERE {{ ?l dcterms:isPartOf {BANK} ; ontolex:writtenRep ?w1 }} GROUP BY ?l
     HAVING(COUNT(DISTINCT ?w1) > 1) }} }} GROUP BY ?l"""
# antonymy read both ways: CompL-it stores some pairs one way only (issue 26)
WITH_AN_ANTONYM = P + f"""SELECT DISTINCT ?w ?a WHERE {{ ?l {WORD} ;
  lila:hasPOS lila:noun . ?x ontolex:canonicalForm ?l .
  {C} {{ ?x ontolex:sense ?s . {{ ?s {ANTONYMS} ?os }} UNION {{ ?os {ANTONYMS} ?s }}
    ?o ontolex:sense ?os ; ontolex:canonicalForm ?of . ?of ontolex:writtenRep ?a }} }}"""
LEMMAS_WRITTEN = P + """SELECT (COUNT(DISTINCT ?l) AS ?n) WHERE { ?l a lila:Lemma ; ontolex:writtenRep "riso"@it }"""


def fact_of(word: str, prop: str) -> str:
    return P + f"""SELECT DISTINCT ?v WHERE {{ ?l dcterms:isPartOf {BANK} ; ontolex:writtenRep "{word}"@it ; {prop} ?v }}"""

QUESTIONS = [
    ("form_lemma", "Di quale lemma è forma «venendo»?", lemma_of_form("venendo")),
    ("form_lemma", "What lemma does 'venendo' belong to?", lemma_of_form("venendo")),
    ("exclusion", "Quali parole esprimono gioia ma non tristezza?", emotion_but_not("Gioia", "Tristezza")),
    ("exclusion", "Which words express fear but not sadness?", emotion_but_not("Paura", "Tristezza")),
    ("exclusion", "Which nouns express anger but are not associated with fear?",
     emotion_but_not("Rabbia", "Paura", "noun")),
    ("affix_either", "Quali parole iniziano con «geo» o con «super»?", starting_with_either("geo", "super")),
    ("top_facet", "Quale emozione ha più parole?", top_facet("elita:HasEmotion", True, True)),
    ("top_facet", "Which part of speech has the fewest lemmas?", top_facet("lila:hasPOS", False, False)),
    ("top_facet", "Qual è il genere grammaticale con più lemmi?", top_facet("lila:hasGender", False, True)),
    ("extreme_ties", "Qual è la parola più negativa secondo Sentix?", MOST_NEGATIVE),
    ("variants", "Which lemmas have more than one written form?", SPELLING_VARIANTS),
    ("required_relation", "Which nouns have an antonym?", WITH_AN_ANTONYM),
    ("lemmas_written", "How many lemmas are written «riso»?", LEMMAS_WRITTEN),
    ("homograph_count", "Quanti lemmi hanno più di una forma scritta?",
     P + f"""SELECT (COUNT(DISTINCT ?l) AS ?n) WHERE {{ {{ SELECT ?l WHERE {{ ?l dcterms:isPartOf {BANK} ;
       ontolex:writtenRep ?w }} GROUP BY ?l HAVING(COUNT(DISTINCT ?w) > 1) }} }}"""),
    ("alternative", "«mano» è maschile o femminile?", fact_of("mano", "lila:hasGender")),
    ("alternative", "Is «casa» a noun or a verb?", fact_of("casa", "lila:hasPOS")),
    ("alternative", "«amare» è un verbo o un nome?", fact_of("amare", "lila:hasPOS")),
]


@pytest.fixture(scope="module")
def translator():
    return OfflineTranslator()


def _rows(kb, query: str) -> set[tuple]:
    """The rows as a set; a concatenated cell ("a, b") is compared as its sorted parts."""
    table = kb.execute(query)
    return {tuple(None if t is None else unordered_list(t.value) for t in row) for row in table.rows}


@pytest.mark.parametrize("kind, question, gold", QUESTIONS, ids=[f"{k}:{q}" for k, q, _ in QUESTIONS])
def test_each_kind_translates_to_the_gold_answer(kind, question, gold, translator, sample_kb):
    result = translator.translate(question)
    got, want = _rows(sample_kb, result.sparql), _rows(sample_kb, gold)
    assert want, "the gold answers on the sample"
    assert got == want, (question, result.slots.get("plan"), result.sparql)


def test_an_extreme_keeps_every_tied_word_and_is_tagged_a_ranking(translator, sample_kb):
    result = translator.translate("Qual è la parola più negativa secondo Sentix?")
    assert len(_rows(sample_kb, result.sparql)) > 1  # three words share the lowest value on the sample
    assert "LIMIT" not in result.sparql and tag_query(result.sparql).get("RANKING")


def test_a_relation_named_with_a_word_is_no_form_question(translator):
    result = translator.translate("Di quale parola è sinonimo «collera»?")
    assert "FORM_LEMMA" not in result.patterns and "LEXICAL_RELATION" in result.patterns


def test_an_excluded_emotion_is_an_absence_and_both_emotions_an_intersection(translator):
    excluded = translator.translate("Quali parole esprimono gioia ma non tristezza?")
    both = translator.translate("Quali parole esprimono sia gioia sia tristezza?")
    assert "MINUS" in excluded.sparql and tag_query(excluded.sparql).get("PRESENCE")
    assert "MINUS" not in both.sparql and "INTERSECTION" in both.patterns


def test_the_generator_writes_emotion_exclusions_that_read_back(translator, sample_kb):
    """Generated "X ma non Y" items (the composer's exclusion) translate back to the gold's answer."""
    import random

    from nl2sparql.patterns.compose import Candidate, Composer
    from nl2sparql.patterns.phrasing import realise_all
    from translate_helpers import sample_facts

    composer = Composer(sample_facts(sample_kb), seed=5)
    drawn = [c for c in (composer.draw(i) for i in range(600))
             if isinstance(c, Candidate) and "MINUS" in c.sparql and "HasEmotion elita:" in c.sparql.split("MINUS")[1]]
    assert len(drawn) >= 3
    for cand in drawn[:6]:
        want = _rows(sample_kb, cand.sparql)
        questions = realise_all(cand.fragment_objects(), cand.shape, random.Random(cand.cid), cand.word, cand.limit)
        for lang in ("it", "en"):
            question = questions[lang]["generic"]
            assert " e ma " not in question and " and but " not in question, question
            assert _rows(sample_kb, translator.translate(question).sparql) == want, question


def test_the_generator_writes_either_emotion_questions_that_read_back(translator, sample_kb):
    """Generated "paura o rabbia" items (either of two emotions, VALUES) translate back to the gold's answer."""
    import random

    from nl2sparql.patterns.compose import Candidate, Composer
    from nl2sparql.patterns.phrasing import realise_all
    from translate_helpers import sample_facts

    composer = Composer(sample_facts(sample_kb), seed=5)
    drawn = [c for c in (composer.draw(i) for i in range(800))
             if isinstance(c, Candidate) and "VALUES ?emotion" in c.sparql]
    assert len(drawn) >= 3
    for cand in drawn[:6]:
        assert "INTERSECTION" not in tag_query(cand.sparql)  # either of them, not both
        want = _rows(sample_kb, cand.sparql)
        questions = realise_all(cand.fragment_objects(), cand.shape, random.Random(cand.cid), cand.word, cand.limit)
        for lang in ("it", "en"):
            question = questions[lang]["generic"]
            assert _rows(sample_kb, translator.translate(question).sparql) == want, question
