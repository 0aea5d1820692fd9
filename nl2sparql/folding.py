"""Case and accent folding of questions, shared by question reading and retrieval.

``fold`` gives the comparison form of a text (``Perché È`` → ``perche e``);
``fold_same_length`` keeps exactly one character per input character, so a
position in the folded copy is a position in the original (question reading
uses it to keep accents in extracted values).
"""

from __future__ import annotations

import unicodedata

#: Typographic apostrophes and quotes that fold to their ASCII forms.
_APOSTROPHES = "\u2019\u2018\u02bc`\u00b4"
_DOUBLE_QUOTES = "\u201c\u201d"


def fold(text: str) -> str:
    """Lower-case and strip accents: ``Perché È`` → ``perche e``."""
    text = text.lower()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold_same_length(text: str) -> str:
    """Lower-case, accent-free copy of ``text`` with exactly one character per input character.

    Typographic quotes become ASCII ones, so positions in the folded copy are
    positions in the original (used to keep accents in extracted values).
    """
    out = []
    for ch in text:
        if ch in _APOSTROPHES:
            out.append("'")
            continue
        if ch in _DOUBLE_QUOTES:
            out.append('"')
            continue
        low = ch.lower()
        decomposed = unicodedata.normalize("NFKD", low)
        base = "".join(c for c in decomposed if not unicodedata.combining(c))
        out.append(base[:1] if base else " ")
    return "".join(out)
