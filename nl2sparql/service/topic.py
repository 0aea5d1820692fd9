"""Is a question about LiITA at all? The one decision every way in uses before translating.

Conservative on purpose: a question is *off topic* only when the question
reader finds no LiITA cue in it (no pattern, no slot: emotion, part of
speech, dialect, count, relation…), it quotes no word, and it uses no word of
LiITA's own vocabulary (the catalogue's class and property labels in Italian
and English, each label whole, the prefixes, the resources' names). "Che
tempo fa a Roma domani?" is off topic; "Dammi i lemmi", "«cane»" and "Quanti sinonimi ha
casa?" are not. Anything else goes to the translator as before.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..folding import fold, fold_same_length

#: Names of LiITA and its resources, and the words for what they hold, beyond the catalogue's labels.
LIITA_WORDS = ("liita", "lila", "elita", "sentix", "complit", "compl-it", "parmigiano", "siciliano", "sicilian",
               "dialetto", "dialect", "lessicale", "lexical", "sparql", "query", "lemmario", "vocabolario",
               "dizionario", "dictionary", "parola", "word", "termine", "term", "lemma", "significato", "meaning",
               "italiano", "italian", "inglese", "english", "knowledge base", "base di conoscenza",
               "catena", "chain", "gerarchia", "hierarchy")
#: "Quali animali …", "Which nouns …": a question after a kind of things, answerable with words.
WHICH_KIND = re.compile(r"^\W*(?:quali|which)\s+(?!(?:sono|is|are|was|were|do|does|did)\b)[a-z]{3,}")
#: The one line a person reads when a question is off topic.
OFF_TOPIC = ("not a question about LiITA: it quotes no word and names nothing the knowledge base records "
             "(lemmas, senses, definitions, emotions, polarity, parts of speech, dialect translations); ask about "
             "Italian words, e.g. \"Quali sostantivi esprimono paura?\" or \"Qual è la definizione di «bassotto»?\"")


def off_topic(question: str) -> str | None:
    """:data:`OFF_TOPIC` when ``question`` is certainly not about LiITA (see the module docstring), else ``None``."""
    from ..patterns import detect_patterns
    from ..patterns.reading import QUOTED
    from ..translate.slots import extract_slots

    if not isinstance(question, str) or not question.strip() or re.search(QUOTED, fold_same_length(question)):
        return None  # a quoted word: «casa», "casa", “casa”, 'casa'
    folded = fold(question)
    if WHICH_KIND.search(folded):
        return None
    words, phrases = _vocabulary()
    if any(_names(word, words) for word in re.findall(r"[a-z][a-z-]*", folded)):
        return None
    if any(re.search(rf"\b{re.escape(phrase)}", folded) for phrase in phrases):
        return None
    if detect_patterns(question):
        return None
    found = {k: v for k, v in extract_slots(question).to_dict().items() if k not in ("lang", "question")}
    if any(v not in (None, [], {}, "", False, 0) for v in found.values()):
        return None
    return OFF_TOPIC


def _stem(word: str) -> str:
    """A word without its last letter when it is long enough (``parole`` and ``parola`` meet as ``parol``)."""
    return word[:-1] if len(word) > 4 else word


def _names(word: str, stems: frozenset[str]) -> bool:
    """True when ``word`` is a vocabulary word or one of its inflections (``genders``, ``emozioni``, ``lemmi``)."""
    return any(word[:cut] in stems for cut in range(len(word), max(len(word) - 4, 2), -1))


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], tuple[str, ...]]:
    """LiITA's vocabulary: the stems of its one-word names, and its names of several words (whole)."""
    from ..namespaces import PREFIXES
    from ..ontology import load_catalog

    names = {fold(label) for entry in load_catalog() for label in entry.label.values()}
    names |= set(LIITA_WORDS) | set(PREFIXES)
    words = frozenset(_stem(name) for name in names if " " not in name)
    return words, tuple(sorted(name for name in names if " " in name))
