"""Words and phrases the slot extractor reads, in Italian and English.

Everything here is matched on *folded* text (lower case, accents stripped,
see :func:`fold_same_length`) with word boundaries, so ``pos`` never matches
inside ``possibile`` and ``perché`` is written ``perche``. The closed
vocabularies (emotions, parts of speech, genders, dialects, polarity classes)
come from :mod:`nl2sparql.patterns.vocab`; this module adds the inflected and
colloquial forms people use in questions.
"""

from __future__ import annotations

import re

from ..folding import fold_same_length  # noqa: F401 - the slot extractor reads it from here
from ..patterns.vocab import EMOTION

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
#: Lexical-form feature → folded words (LEXICAL_FORM's FEATURES keys).
FORM_FEATURES: tuple[tuple[str, str], ...] = (
    ("plural", r"plural[ei]?"),
    ("singular", r"singolar[ei]|singular"),
    ("imperfect", r"imperfett[oa]|imperfect"),
    ("future", r"futur[oe]"),
    ("subjunctive", r"congiuntivo|subjunctive"),
    ("conditional", r"condizionale|conditional"),
    ("past", r"passato(?: remoto)?|past(?: tense)?|preterite"),
    ("present", r"presente|present(?: tense)?"),
    ("indicative", r"indicativo|indicative"),
    ("feminine", r"(?:al|in the) femminile|(?:al|in the) feminine|femminile|feminine"),
)

#: Words that are never a named lemma (question words, heads, articles).
NOT_A_WORD = frozenset("""
il lo la i gli le l un una uno un' the a an of di del della dello dei degli delle dell d da in
parola parole word words lemma lemmi lemmas bank per con su tra fra for with to as on at by into termine termini term terms voce voci entry entries
cosa che what which who how come quale quali qual chi e ed and or o is are sono ha have has
si it its suo sua loro their questo questa this that quello quella cui discorso speech compl liita lila ontolex sense senses senso sensi
whole wholes intero intera interi almeno least only solo elita sentix complit ciascun ciascuna ogni each
""".split())

ARTICLE = r"(?:(?:il|lo|la|i|gli|le|un|una|uno|the|a|an)\s+|l'\s*|un'\s*)"
OF = r"(?:(?:di|del|dello|della|dei|degli|delle|of|for|per)\b|dell'|d')"
NAMED_HEAD = (r"(?:(?:la\s+)?parola|(?:il\s+)?lemma|(?:il\s+)?termine|(?:the\s+)?word|(?:the\s+)?lemma|"
              r"(?:the\s+)?term|(?:il\s+)?verbo|(?:the\s+)?verb|(?:il\s+)?sostantivo|(?:the\s+)?noun|"
              r"(?:l')?aggettivo|(?:the\s+)?adjective)")
WORD = r"([a-z][a-z'-]*[a-z]|[a-z])"


def words_regex(alternatives) -> re.Pattern:
    """A word-boundary regex for alternatives (each already a regex fragment)."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b")


EMOTION_RES = {name: words_regex(forms) for name, forms in EMOTION_WORDS.items()}
