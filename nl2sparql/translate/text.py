"""Tokenisation of Italian and English questions for lexical (BM25) retrieval.

``tokenize`` lower-cases, folds accents (``perché`` → ``perche``), splits on
anything that is not a letter or digit (so ``dell'acqua`` → ``dell``, ``acqua``
and ``-mente`` → ``mente``), drops a small Italian + English stopword list and,
optionally, strips a light plural/gender ending (``sostantivi``, ``sostantivo``
→ ``sostantiv``; ``nouns`` → ``noun``). Matching is always on whole tokens,
never on substrings. Everything is deterministic and cached per word.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from ..folding import fold

#: Bump when tokenisation changes, so cached indexes are rebuilt.
TOKENIZER_VERSION = "1"

_WORD = re.compile(r"[^\W_]+")
# Typographic apostrophes and similar marks become plain separators.
_SEPARATORS = str.maketrans({"\u2019": " ", "\u2018": " ", "\u02bc": " ", "`": " ", "\u00b4": " "})

ITALIAN_STOPWORDS = frozenset("""
a ad agli ai al all alla alle allo anche c che chi ci come con cosa cui d da dagli dai dal dall dalla
dalle dallo degli dei del dell della delle dello di dove e ed gli ha hanno ho i il in io l la le lo
loro ma me mi ne negli nei nel nell nella nelle nello noi o per perche piu po qual quale quali
quella quelle quelli quello questa queste questi questo se si sia sono su sua sue sugli
sui sul sull sulla sulle sullo suo suoi ti tra tu tutti tutte tutto un una uno vi voi
""".split())

ENGLISH_STOPWORDS = frozenset("""
a about all am an and any are as at be been being but by can could did do does doing for from had
has have having he her here him his how i if in into is it its me my of on or our s she so some
such t than that the their them then there these they this those to too us was we were what when
where which who whom why will with would you your
""".split())

STOPWORDS = ITALIAN_STOPWORDS | ENGLISH_STOPWORDS

#: Item fields whose text is indexed; a field holding a mapping contributes all its string values.
DEFAULT_TEXT_FIELDS: tuple[str, ...] = ("nl", "nl_en", "nl_variants", "nl_en_variants")


def split_words(text: str) -> list[str]:
    """Folded words of ``text``, split at every non-alphanumeric character (apostrophes included)."""
    return _WORD.findall(fold(text).translate(_SEPARATORS))


def light_stem(word: str) -> str:
    """Strip one English plural ``s`` and then one final vowel from words of five letters or more.

    ``lemmas``/``lemma``/``lemmi`` → ``lemm``, ``emotions``/``emozioni`` → ``emotion``/``emozion``.
    Short words and digits are kept as they are, so stems never get shorter than four letters.
    """
    if len(word) < 5 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) >= 5 and word[-1] in "aeiou":
        word = word[:-1]
    return word


@lru_cache(maxsize=200_000)
def _term(word: str, stem: bool) -> str | None:
    if word in STOPWORDS:
        return None
    return light_stem(word) if stem else word


def tokenize(text: str, stem: bool = True) -> list[str]:
    """BM25 terms of ``text``: folded words without stopwords, lightly stemmed when ``stem``."""
    terms = []
    for word in split_words(text):
        term = _term(word, stem)
        if term is not None:
            terms.append(term)
    return terms


def item_texts(item: Mapping, fields: Sequence[str] = DEFAULT_TEXT_FIELDS) -> list[str]:
    """The distinct, non-empty questions of a pool item, in field order (``nl`` first)."""
    seen: dict[str, None] = {}
    for field in fields:
        for value in _strings(item.get(field)):
            value = value.strip()
            if value and value not in seen:
                seen[value] = None
    return list(seen)


def _strings(value) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for sub in value.values():
            if isinstance(sub, str):
                yield sub
    elif isinstance(value, (list, tuple)):
        for sub in value:
            if isinstance(sub, str):
                yield sub
