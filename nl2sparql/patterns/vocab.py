"""LiITA's closed vocabularies: their names in Italian and English, and the words questions use for them.

Patterns phrase slot values with these tables (emotion names, parts of
speech, genders, dialects, polarity classes, the facets a count is grouped
by); question reading uses the ``*_WORDS`` tables, matched on folded text
(lower case, no accents, see :mod:`nl2sparql.patterns.reading`), to find the
same values in questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..namespaces import (PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEXICON, PREFIXES,
                          SICILIANO_LEMMA_BANK, SICILIANO_LEXICON)
from ..sparql.model import IRI, Term, Triple, Var

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

#: Dialect key → the Italian adjective's forms (masculine/feminine, singular/plural), for agreement:
#: «la traduzione siciliana», «gli equivalenti siciliani».
DIALECT_FORMS = {
    "siciliano": {"ms": "siciliano", "fs": "siciliana", "mp": "siciliani", "fp": "siciliane"},
    "parmigiano": {"ms": "parmigiano", "fs": "parmigiana", "mp": "parmigiani", "fp": "parmigiane"},
}


#: "sentimento", "sentiment": a word's feelings, read both as its emotions (ELITA) and as its polarity (Sentix).
SENTIMENT = r"sentiment\w*"

#: Emotion local name → folded word forms (nouns, adjectives, verbs) naming it.
EMOTION_WORDS: dict[str, tuple[str, ...]] = {
    "Gioia": ("gioia", "gioie", "gioios[oaie]", "joy", "joyful", "joyous", "happiness"),
    "Tristezza": ("tristezza", "tristezze", "triste", "tristi", "sadness", "sad"),
    "Paura": ("paura", "paure", "spaventos[oaie]", "pauros[oaie]", "fear", "fears", "fearful", "scary",
              "frightening", "afraid"),
    "Disgusto": ("disgusto", "disgustos[oaie]", "disgust", "disgusting"),
    "Rabbia": ("rabbia", "rabbios[oaie]", "arrabbiat[oaie]", "anger", "angry", "rage"),
    "Sorpresa": ("sorpresa", "sorprese", "sorprendent[ei]", "surprise", "surprising"),
    "Aspettativa": ("aspettativa", "aspettative", "anticipation", "expectation", "expectations"),
    "Fiducia": ("fiducia", "fiducios[oaie]", "trust", "trusting"),
    "Amore": ("amore", "amoros[oaie]", "love", "loving"),
}
for _name, (_it, _en) in EMOTION.items():  # the vocabulary's own names always count
    assert _it in EMOTION_WORDS[_name] and _en in EMOTION_WORDS[_name], _name
EMOTION_RES = {name: re.compile(r"\b(?:" + "|".join(forms) + r")\b") for name, forms in EMOTION_WORDS.items()}

#: POS local name → folded plural/singular forms (checked in this order: proper nouns first).
POS_WORDS: tuple[tuple[str, str], ...] = (
    ("proper_noun", r"nomi propri|nome proprio|proper nouns?"),
    ("noun", r"sostantiv[oi]|nomi comuni|nome comune|nouns?|nomi"),
    ("verb", r"verb[oi]|verbs?"),
    ("adjective", r"aggettiv[oi]|adjectives?"),
    ("adverb", r"avverb[oi]|adverbs?"),
    ("pronoun", r"pronom[ei]|pronouns?"),
    ("numeral", r"numeral[ei]|numerals?"),
    ("interjection", r"interiezion[ei]|interjections?"),
    ("adposition", r"preposizion[ei]|prepositions?|adpositions?"),
    ("determiner", r"determinant[ei]|determiners?"),
)
GENDER_WORDS: tuple[tuple[str, str], ...] = (
    ("masculine", r"maschil[ei]|masculine"),
    ("feminine", r"femminil[ei]|feminine"),
)
DIALECT_WORDS: tuple[tuple[str, str], ...] = (
    ("siciliano", r"sicilian[oaie]?|sicilia"),
    ("parmigiano", r"parmigian[oaie]?|parma|parmense|parmesan"),
)


@dataclass(frozen=True)
class Facet:
    """A closed vocabulary a count can be grouped by ("per ogni emozione", "for each part of speech").

    ``words``: the folded nouns questions use for it; ``prop``: the property
    whose values group the count, on the lemma itself or (``on_entry``) on the
    resource's own entry for the lemma; ``it``/``en``: how questions say
    "for each" of it; ``value_class``: the class its values must have, where
    the property also carries other values (ELITA's ``HasEmotion`` also points
    at the dimensions ``Valenza`` and ``Dominanza``, which are not emotions).
    """

    words: str
    prop: str
    on_entry: bool
    it: str
    en: str
    value_class: str | None = None

    def value_triples(self, subject: Term, value: Var) -> list[Triple]:
        """``subject <prop> value`` and, where the values are typed, ``value a <value_class>``."""
        triples = [Triple(subject, IRI.of(self.prop), value)]
        if self.value_class:
            triples.append(Triple(value, IRI.of("rdf:type"), IRI.of(self.value_class)))
        return triples


FACETS: dict[str, Facet] = {
    "pos": Facet(r"parte del discorso|part of speech|pos|categoria grammaticale", "lila:hasPOS", False,
                 "ciascuna parte del discorso", "part of speech"),
    "emotion": Facet(r"emozion\w*|emotions?", "elita:HasEmotion", True, "ciascuna emozione di ELITA", "ELITA emotion",
                     value_class="elita:Emotion"),
    "gender": Facet(r"genere|gender", "lila:hasGender", False, "ciascun genere grammaticale", "grammatical gender"),
    "polarity": Facet(r"polarita|polarity", "marl:hasPolarity", True, "ciascuna classe di polarità Sentix",
                      "Sentix polarity class"),
    "resource": Facet(r"risorsa(?: lessicale)?|(?:lexical )?resource|lemma bank|banca dei lemmi", "dcterms:isPartOf",
                      False, "ciascuna Lemma Bank", "lemma bank"),
}
#: Any facet noun (alternatives in :data:`FACETS` order).
FACET_WORDS = "|".join(f.words for f in FACETS.values())
#: "for each part of speech", "distribuzione per emozione": the facet noun is group ``key``.
PER_FACET = (r"\b(?:per ciascun[oa]?|per ogni|for each|for every|of each|of every|di ciascun[oa]?|di ogni|per|by|"
             r"from each|in each|da ciascun[oa]?|in ciascun[oa]?|in ogni|each|every|ogni|ciascun[oa]?|"
             r"distribuzione per|distribution by|"
             rf"raggruppa(?:re)? per|group(?:ed)? by)\s+(?:[a-z']+\s+){{0,2}}?(?P<key>{FACET_WORDS})")


#: The closed vocabulary each slot takes its values from (slot name → the table whose keys are its values): a slot
#: value outside it is an individual of another class (ELITA's *Valenza* is a dimension, not an emotion).
SLOT_VOCABULARIES: dict[str, dict] = {"emotion": EMOTION, "pos": POS, "gender": GENDER, "polarity": POLARITY,
                                      "dialect": DIALECT, "bank": DIALECT, "group_by": FACETS}


def in_vocabulary(slot: str, value: str) -> bool:
    """False when ``slot`` names a closed vocabulary and ``value`` is not one of its members."""
    table = SLOT_VOCABULARIES.get(slot)
    return table is None or value in table


def facet_named(word: str) -> str | None:
    """The facet a folded noun names (``None`` if none)."""
    return next((key for key, f in FACETS.items() if re.fullmatch(f.words, word)), None)


def local_name(iri: str) -> str:
    """The part of an IRI after its last ``/`` or ``#``."""
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
