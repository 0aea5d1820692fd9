"""The realiser: agreement, persona voices, facets said as optional, limits inside the question."""

from __future__ import annotations

import random
import re

import pytest

from nl2sparql.operators.defects import question_defects
from nl2sparql.patterns import CATALOGUE
from nl2sparql.patterns.base import PERSONAS
from nl2sparql.patterns.compose import finish_query, start_frame
from nl2sparql.patterns.phrasing import HEAD_NOUNS, plural_article, realise, realise_all


def built(shape, steps, word=None, limit=None):
    frame = start_frame(shape, word)
    for label, slots in steps:
        CATALOGUE[label].build(frame, dict(slots), random.Random(0))
    finish_query(frame, limit)
    return frame


def every_question(frame, shape, word=None, limit=None, seeds=range(12)):
    """Every question the realiser makes for a frame over a few seeds: {(lang, persona): {texts}}."""
    out: dict = {}
    for seed in seeds:
        for lang, by_persona in realise_all(frame.fragments, shape, random.Random(seed), word, limit).items():
            for persona, text in by_persona.items():
                out.setdefault((lang, persona), set()).add(text)
    return out


FEAR = ("EMOTION_LEXICON", {"mode": "constraint", "emotion": "Paura"})


def test_participles_and_quanti_agree_with_the_head_gender():
    # feminine heads («parole»): associate, quante, me le; masculine («sostantivi», «termini»): associati, quanti, me li
    words = every_question(built("list", [FEAR]), "list", seeds=range(60))
    nouns = every_question(built("list", [("POS_FILTER", {"pos": "noun"}), FEAR]), "list", seeds=range(60))
    texts = words[("it", "generic")] | words[("it", "pedagogical")] | nouns[("it", "generic")] | nouns[("it", "pedagogical")]
    seen = set()
    for text in texts:
        for head, ending in re.findall(r"\b(parole|termini|sostantivi)\b[^?]*?\bassociat([ie])\b", text):
            assert ending == ("e" if head == "parole" else "i"), text
            seen.add(head)
        for head, pronoun in re.findall(r"\b(parole|termini|sostantivi)\b[^?]*: me (li|le)\b", text):
            assert pronoun == ("le" if head == "parole" else "li"), text
    assert seen == {"parole", "termini", "sostantivi"}
    counts = every_question(built("count", [FEAR]), "count", seeds=range(30))
    assert any(q.startswith("Quante parole") for q in counts[("it", "generic")])
    assert any(q.startswith("Quanti termini") for q in counts[("it", "generic")])
    assert not any(re.search(r"Quanti parole|Quante termini", q) for q in counts[("it", "generic")])


def test_the_copula_agrees_with_the_facts_of_a_word():
    one = every_question(built("word", [("SENSE_DEFINITION", {})], word="cane"), "word", "cane", seeds=range(40))
    texts = one[("it", "generic")] | one[("en", "generic")]
    assert not any(re.match(r"Quali sono (la|il) |What are the (definition|meaning)\b", t) for t in texts)
    assert any(t.startswith("Qual è la definizione") for t in texts) and any(t.startswith("What are the definitions")
                                                                          for t in texts)
    assert any(t.startswith("Che cosa significa") or t.startswith("Cosa vuol dire") for t in one[("it", "generic")])
    two = every_question(built("word", [("LEXICAL_RELATION", {"relation": "synonym"}),
                                        ("TRANSLATION", {"dialect": "siciliano"})], word="casa"), "word", "casa")
    assert all(not t.startswith(("Qual è", "What is")) for t in two[("it", "generic")] | two[("en", "generic")])


def test_dialect_adjectives_agree_with_their_noun():
    frame = built("list", [FEAR, ("TRANSLATION", {"dialect": "parmigiano", "required": True})])
    texts = " ".join(q for qs in every_question(frame, "list").values() for q in qs)
    assert "voce parmigiana" in texts and "voce parmigiano" not in texts and "traduzione parmigiano" not in texts


def test_a_facet_is_said_to_be_optional_and_a_requirement_is_not():
    shown = every_question(built("list", [FEAR, ("TRANSLATION", {"dialect": "siciliano"})]), "list")
    assert all("se presente" in q or "se c'è" in q for q in shown[("it", "generic")] | shown[("it", "pedagogical")])
    assert all("if any" in q or "where available" in q for q in shown[("en", "generic")])
    assert all("OPTIONAL" in q for q in shown[("it", "linked_data_expert")])
    required = every_question(built("list", [FEAR, ("TRANSLATION", {"dialect": "siciliano", "required": True})]),
                              "list")
    assert all("hanno una traduzione in siciliano" in q or "hanno un equivalente siciliano" in q
               for q in required[("it", "generic")])
    assert not any("se presente" in q for q in required[("it", "generic")])


def test_the_limit_is_inside_the_question():
    questions = every_question(built("list", [FEAR]), "list", limit=5)
    for (lang, persona), texts in questions.items():
        for text in texts:
            assert "5" in text and "(i primi" not in text and "(the first" not in text
            if persona in ("generic", "pedagogical"):
                assert text.endswith("?"), text
    assert any("le prime 5 parole" in t for t in questions[("it", "generic")])


def test_only_the_linked_data_expert_writes_iris_and_prefixed_names():
    frame = built("list", [("MORPHO_REGEX", {"kind": "suffix", "affix": "zione"})])
    CATALOGUE["META_GRAPH"].scope_lemmas(frame)
    questions = every_question(frame, "list")
    for (lang, persona), texts in questions.items():
        for text in texts:
            has_terms = "<http://liita.it/data>" in text or "ontolex:" in text
            assert has_terms == (persona == "linked_data_expert"), (persona, text)


def test_each_persona_has_a_voice_of_its_own():
    frame = built("list", [("POS_FILTER", {"pos": "adjective"}), FEAR])
    for seed in range(10):
        for lang in ("it", "en"):
            texts = {p: realise(frame.fragments, "list", lang, p, random.Random(seed)) for p in PERSONAS}
            assert len(set(texts.values())) == len(PERSONAS), texts


def test_a_suffix_is_called_a_suffix_only_when_it_is_one():
    real = every_question(built("list", [("MORPHO_REGEX", {"kind": "suffix", "affix": "zione"})]), "list",
                          seeds=range(40))
    string = every_question(built("list", [("MORPHO_REGEX", {"kind": "suffix", "affix": "ino"})]), "list",
                            seeds=range(40))
    assert any("suffisso «-zione»" in q for q in real[("it", "generic")])
    assert not any("suffisso" in q or "suffix" in q for qs in string.values() for q in qs)


@pytest.mark.parametrize("shape,steps,word", [
    ("list", [("POS_FILTER", {"pos": "noun", "gender": "feminine"}), FEAR, ("SENSE_DEFINITION", {})], None),
    ("list", [("SEMANTIC_RELATION", {"relation": "hypernym", "target": "animale", "transitive": True}),
              ("MULTI_TRANSLATION", {})], None),
    ("count", [("POLARITY", {"polarity": "Negative"}), ("MORPHO_REGEX", {"kind": "prefix", "affix": "anti"})], None),
    ("word", [("SENSE_COUNT", {})], "piano"),
    ("word", [("LEXICAL_FORM", {"feature": "plural"}), ("POLARITY", {})], "uovo"),
    ("word", [("SEMANTIC_RELATION", {"relation": "holonym"})], "braccio"),
])
def test_realised_questions_have_no_defect(shape, steps, word):
    questions = every_question(built(shape, steps, word), shape, word, seeds=range(25))
    for (lang, persona), texts in questions.items():
        for text in texts:
            assert question_defects(text, lang, persona) == [], (lang, persona, text)


def test_head_articles():
    assert plural_article("aggettivi", "m") == "gli" and plural_article("sostantivi", "m") == "i"
    assert plural_article("parole", "f") == "le" and plural_article("pronomi", "m") == "i"


def test_head_genders_are_those_of_the_lemma_bank(mirror_store):
    """The realiser's head nouns carry the gender the Lemma Bank gives their singular (lila:hasGender)."""
    from nl2sparql.kb import open_kb

    singulars = {singular: g for g, singular in HEAD_NOUNS.values()}
    values = " ".join(f'"{s}"@it' for s in singulars)
    query = ("SELECT ?wr ?g WHERE { VALUES ?wr { " + values + " } ?l ontolex:writtenRep ?wr ; "
             "dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; lila:hasPOS lila:noun ; "
             "lila:hasGender ?g }")
    with open_kb(store=mirror_store) as kb:
        found = {row[0].value: row[1].value.rsplit("/", 1)[-1][0] for row in kb.select(query).rows}
    assert set(found) == set(singulars)
    assert found == singulars


def test_facets_and_facts_of_each_lemma_agree():
    """«la loro traduzione» after no «per ciascuno»; «ciascuna … aggregata» after feminine facts; Italian keys."""
    shown = every_question(built("list", [FEAR, ("TRANSLATION", {"dialect": "siciliano"})]), "list", seeds=range(30))
    for (lang, persona), texts in shown.items():
        for text in texts:
            assert not [d for d in question_defects(text, lang, persona) if d[1] == "each_their"], text
    assert any("Mi aiuterebbe vedere anche" in t for t in shown[("it", "pedagogical")])
    feminine = every_question(built("word", [("POLARITY", {}), ("EMOTION_LEXICON", {"mode": "project"}),
                                             ("TRANSLATION", {"dialect": "parmigiano"})], word="ragno"), "word")
    assert all("ciascuna in un OPTIONAL e aggregata" in t for t in feminine[("it", "linked_data_expert")])
    mixed = every_question(built("word", [("LEXICAL_RELATION", {"relation": "synonym"}), ("POLARITY", {})],
                                 word="ragno"), "word")
    assert all("ciascuno in un OPTIONAL e aggregato" in t for t in mixed[("it", "linked_data_expert")])
    fact_count = CATALOGUE["FACT_COUNT"]
    for steps in ([("LEXICAL_RELATION", {"relation": "synonym"})], [("SENSE_DEFINITION", {})]):
        _, fragments, _, _ = fact_count.build({"word": "gatto", "steps": steps}, random.Random(0))
        tech = realise(fragments, "standalone", "it", "linked_data_expert", random.Random(0))
        assert question_defects(tech, "it", "linked_data_expert") == [] and "(" not in tech, tech
