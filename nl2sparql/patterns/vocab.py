"""Names of LiITA's closed vocabularies in Italian and English.

Patterns phrase slot values with these tables (emotion names, parts of
speech, genders, dialects, polarity classes); the translator reads the same
tables backwards to extract slots from questions.
"""

from __future__ import annotations

from ..namespaces import (PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEXICON, PREFIXES,
                          SICILIANO_LEMMA_BANK, SICILIANO_LEXICON)

LILA = PREFIXES["lila"]
ELITA = PREFIXES["elita"]
MARL = PREFIXES["marl"]

# POS IRI local name → (Italian plural, English plural, Italian adjective for "lemmi …")
POS = {
    "noun": ("sostantivi", "nouns", "nominali"),
    "verb": ("verbi", "verbs", "verbali"),
    "adjective": ("aggettivi", "adjectives", "aggettivali"),
    "adverb": ("avverbi", "adverbs", "avverbiali"),
    "proper_noun": ("nomi propri", "proper nouns", "di nome proprio"),
    "pronoun": ("pronomi", "pronouns", "pronominali"),
    "numeral": ("numerali", "numerals", "numerali"),
    "interjection": ("interiezioni", "interjections", "interiettivi"),
    "adposition": ("preposizioni", "prepositions", "preposizionali"),
    "determiner": ("determinanti", "determiners", "determinanti"),
}

# Gender local name → (Italian masculine-plural adjective, feminine-plural adjective, English)
GENDER = {
    "masculine": ("maschili", "masculine"),
    "feminine": ("femminili", "feminine"),
}

# ELITA emotion local name → (Italian lower-case, English)
EMOTION = {
    "Gioia": ("gioia", "joy"),
    "Tristezza": ("tristezza", "sadness"),
    "Paura": ("paura", "fear"),
    "Disgusto": ("disgusto", "disgust"),
    "Rabbia": ("rabbia", "anger"),
    "Sorpresa": ("sorpresa", "surprise"),
    "Aspettativa": ("aspettativa", "anticipation"),
    "Fiducia": ("fiducia", "trust"),
    "Amore": ("amore", "love"),
}

# Sentix polarity individual local name → (Italian adjective, English adjective)
POLARITY = {
    "Positive": ("positiva", "positive"),
    "Negative": ("negativa", "negative"),
    "Neutral": ("neutra", "neutral"),
}

# Dialect key → (Italian adjective, English name, lemma bank IRI, lexicon IRI, language tag)
DIALECT = {
    "siciliano": ("siciliano", "Sicilian", SICILIANO_LEMMA_BANK, SICILIANO_LEXICON, "scn"),
    "parmigiano": ("parmigiano", "Parmigiano", PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEXICON, "roa"),
}


def local_name(iri: str) -> str:
    """The part of an IRI after its last ``/`` or ``#``."""
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
