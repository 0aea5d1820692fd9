"""Slot extraction (nl2sparql.translate.slots) and pattern detection cues, Italian and English."""

from __future__ import annotations

import pytest

from nl2sparql.patterns import detect_patterns
from nl2sparql.translate.slots import extract_slots, guess_language


@pytest.mark.parametrize("question, word", [
    ("Che cosa significa «gatto»?", "gatto"),
    ('What does "pecora" mean?', "pecora"),
    ("What does 'pecora' mean?", "pecora"),
    ("Che cosa significa \u201ccane\u201d?", "cane"),
    ("Qual è la definizione della parola cane?", "cane"),
    ("Give me the definition of the word casa", "casa"),
    ("Come si dice casa in siciliano?", "casa"),
    ("Quanti sensi ha la parola chiave?", "chiave"),
    ("Qual è il plurale di uovo?", "uovo"),
    ("Dimmi l'equivalente siciliano e la parte del discorso registrata in CompL-it della parola «buio».", "buio"),
])
def test_named_word_quoted_or_after_cue_words(question, word):
    assert extract_slots(question).word == word


def test_quoted_value_keeps_accents_and_cues_inside_quotes_never_fire():
    slots = extract_slots("Quanti sostantivi femminili finiscono in -ità?")
    assert slots.affixes == [("suffix", "ità")] and slots.count and slots.pos == "noun"
    # "inizio" inside quotes is a target word, not the cue "inizia" (prefix)
    slots = extract_slots('Which words are synonyms of "inizio" and contain "inci"?')
    assert slots.relation == "synonym" and slots.relation_target == "inizio"
    assert slots.affixes == [("contains", "inci")]


@pytest.mark.parametrize("question, emotions", [
    ("Quali sostantivi esprimono paura?", ["Paura"]),
    ("Which nouns express fear?", ["Paura"]),
    ("Quali aggettivi spaventosi ci sono?", ["Paura"]),
    ("Find the scary words", ["Paura"]),
    ("Parole associate all'emozione «gioia»", ["Gioia"]),
    ("Which words convey sadness and anger?", ["Tristezza", "Rabbia"]),
    ("Words that express love", ["Amore"]),
])
def test_emotions_from_names_and_adjectives(question, emotions):
    assert extract_slots(question).emotions == emotions


def test_named_words_are_not_emotions():
    slots = extract_slots("Dammi i sinonimi di paura")
    assert slots.emotions == [] and slots.word == "paura" and slots.relation == "synonym"
    assert slots.relation_mode == "project"


@pytest.mark.parametrize("question, kind, affix", [
    ("Quali parole iniziano con ri?", "prefix", "ri"),
    ("Show me the words starting with 'anti'", "prefix", "anti"),
    ("Elenca i verbi che cominciano per dis", "prefix", "dis"),
    ("Words ending in -zione", "suffix", "zione"),
    ("Quali aggettivi finiscono con «bile»?", "suffix", "bile"),
    ("Which verbs end in -are?", "suffix", "are"),
    ("Find adjectives containing 'oso'", "contains", "oso"),
    ("Parole che contengono la sequenza «geo»", "contains", "geo"),
])
def test_affixes(question, kind, affix):
    assert extract_slots(question).affixes == [(kind, affix)]


def test_definition_contains_is_not_an_affix():
    slots = extract_slots("Quali iponimi di «animale» hanno una definizione che contiene «velenoso»?")
    assert slots.affixes == [] and slots.definition_contains == "velenoso"
    assert (slots.relation, slots.relation_target, slots.relation_mode) == ("hypernym", "animale", "constraint")


@pytest.mark.parametrize("question, relation, mode, target, word", [
    ("Quali sono i tipi di mammifero?", "hypernym", "constraint", "mammifero", None),
    ("Quali sono le parti del corpo?", "holonym", "constraint", "corpo", None),
    ("What are the hypernyms of 'gatto'?", "hypernym", "project", None, "gatto"),
    ("Di che cosa fa parte il «dito»?", "holonym", "project", None, "dito"),
    ("What are the antonyms of 'caldo'?", "antonym", "project", None, "caldo"),
    ("Quali verbi sono contrari di «aprire»?", "antonym", "constraint", "aprire", None),
    ("Which words mean the same as 'rabbia'?", "synonym", "constraint", "rabbia", None),
    ("Quali lemmi hanno lo stesso significato di «viso»?", "synonym", "constraint", "viso", None),
    ("the words with the same meaning of \"bello\"", "synonym", "project", None, "bello"),
    ("Which terms are the opposite of \"amico\"?", "antonym", "constraint", "amico", None),
])
def test_relations_constraint_or_word_fact(question, relation, mode, target, word):
    slots = extract_slots(question)
    assert (slots.relation, slots.relation_mode, slots.relation_target, slots.word) == (relation, mode, target, word)


def test_part_of_speech_is_not_a_meronym_and_pos_needs_word_boundaries():
    slots = extract_slots("Dimmi la parte del discorso registrata in CompL-it della parola «casa»")
    assert slots.relation is None and slots.complit_pos and slots.word == "casa"
    # "pos" inside "possibile", "nomi" inside "nominali": no POS
    assert extract_slots("Quali parole contengono «possibile»?").pos is None
    assert extract_slots("Which words are possible?").pos is None
    assert detect_patterns("è possibile?").get("POS_FILTER") is None


@pytest.mark.parametrize("question, pos, gender", [
    ("Quali sostantivi femminili finiscono in -ezza?", "noun", "feminine"),
    ("Which masculine nouns express fear?", "noun", "masculine"),
    ("List the proper nouns", "proper_noun", None),
    ("Quali avverbi terminano in -mente?", "adverb", None),
])
def test_pos_and_gender(question, pos, gender):
    slots = extract_slots(question)
    assert (slots.pos, slots.gender) == (pos, gender)


def test_dialects_translation_and_both_dialects():
    assert extract_slots("List nouns with their Sicilian translation").dialects == ["siciliano"]
    both = extract_slots("Quali sono le traduzioni in parmigiano e in siciliano di «acqua»?")
    assert set(both.dialects) == {"parmigiano", "siciliano"} and both.translation
    assert extract_slots("Traduci «cuore» in parmigiano").dialects == ["parmigiano"]


def test_polarity_class_threshold_and_projection():
    assert extract_slots("Quante parole hanno polarità negativa secondo Sentix?").polarity == "Negative"
    slots = extract_slots("Which nouns have a Sentix polarity above 0.8?")
    assert (slots.threshold, slots.threshold_op) == (0.8, ">")
    slots = extract_slots("Quali aggettivi hanno una polarità Sentix inferiore a -0,7?")
    assert (slots.threshold, slots.threshold_op) == (-0.7, "<")
    assert extract_slots("What is the polarity of 'morte' according to Sentix?").polarity_project


def test_counting_senses_limits_and_forms():
    assert extract_slots("How many verbs convey sadness?").count
    senses = extract_slots("How many meanings does 'vespa' have?")
    assert senses.senses_count and not senses.count and senses.word == "vespa"
    assert extract_slots("Quali lemmi hanno più di un significato?").min_senses == 2
    assert extract_slots("Which nouns have at least 3 senses?").min_senses == 3
    assert extract_slots("Dammi i primi 5 aggettivi che finiscono in -oso").limit == 5
    assert extract_slots("the first 10 nouns").limit == 10
    forms = extract_slots("How is 'essere' conjugated in the future tense?")
    assert forms.forms and forms.form_feature == "future" and forms.word == "essere"


@pytest.mark.parametrize("question, label, values", [
    ("How many lemmas are there in the Sicilian lemma bank?", "COUNT_ENTITIES", {"kind": "bank", "bank": "siciliano"}),
    ("Quanti verbi ci sono in LiITA?", "COUNT_ENTITIES", {"kind": "pos", "pos": "verb"}),
    ("How many lemmas are there for each part of speech?", "COUNT_ENTITIES", {"kind": "by", "by": "pos"}),
    ("Quante voci ci sono per ciascuna emozione di ELITA?", "COUNT_ENTITIES", {"kind": "by", "by": "emotion"}),
    ("Quali grafi contiene la base di conoscenza?", "META_GRAPH", {"kind": "list"}),
    ("In which graphs are there lemmas?", "META_GRAPH", {"kind": "lemma_graphs"}),
    ("How many hypolemmas does LiITA have?", "COUNT_ENTITIES", {"kind": "hypolemmas"}),
    ("How many senses are there in CompL-it?", "COUNT_ENTITIES", {"kind": "senses"}),
    ("Quante traduzioni siciliane ci sono nel glossario?", "COUNT_ENTITIES",
     {"kind": "translations", "dialect": "siciliano"}),
])
def test_standalone_questions(question, label, values):
    assert extract_slots(question).standalone == (label, values)


def test_counting_with_constraints_is_not_standalone():
    slots = extract_slots("Per farmi un'idea del lessico: quanti sostantivi hanno polarità negativa secondo Sentix?")
    assert slots.standalone is None and slots.count and slots.polarity == "Negative"


def test_language_guess_and_odd_input():
    assert guess_language("Which nouns express fear?") == "en"
    assert guess_language("Quali sostantivi esprimono paura?") == "it"
    for text in ("", "???", "«»", "'", "<http://x>", "0.5 > 0.7"):
        extract_slots(text)  # never raises
    assert extract_slots("Qual è la parola per «acqua»?").to_dict()["word"] == "acqua"


def test_detection_cues_are_word_boundary_and_accent_aware():
    assert "POLARITY" in detect_patterns("Qual è la polarità di «guerra»?")
    assert "TRANSLATION" in detect_patterns("Come si dice casa in siciliano?")
    assert "SENSE_COUNT" in detect_patterns("Quanti significati ha «chiave»?")


@pytest.mark.parametrize("question, dialect, target", [
    ('Which Italian words are translated into Sicilian as "scantu"?', "siciliano", "scantu"),
    ("Quali parole italiane si traducono in siciliano con «scantu»?", "siciliano", "scantu"),
    ('Which nouns have "fradél" as their Parmigiano translation?', "parmigiano", "fradél"),
    ("Quali sostantivi in parmigiano si dicono «fradél»?", "parmigiano", "fradél"),
    ("Quali lemmi hanno «scantu» come traduzione in siciliano?", "siciliano", "scantu"),
])
def test_inverse_translation_names_the_dialect_word(question, dialect, target):
    slots = extract_slots(question)
    assert (slots.translation_target, slots.dialects, slots.word, slots.translation) == \
        (target, [dialect], None, False)


@pytest.mark.parametrize("question", ['How do you say "casa" in Sicilian?', "What is the Sicilian word for «cuore»?",
                                      "Come si dice casa in siciliano?"])
def test_forward_translation_is_not_inverse(question):
    slots = extract_slots(question)
    assert slots.translation_target is None and slots.translation and slots.word in ("casa", "cuore")


def test_meanings_of_a_word_and_nouns_of_the_lemma_bank():
    assert extract_slots('What meanings does the word "cuore" have?').definition
    assert extract_slots("Quali significati ha la parola «cuore»?").definition
    several = extract_slots("Which adjectives have more than one meaning?")
    assert several.min_senses == 2 and not several.definition
    nouns = extract_slots("How many nouns are there in the Lemma Bank?")
    assert nouns.count and nouns.pos == "noun" and nouns.graph_scope and nouns.standalone is None
