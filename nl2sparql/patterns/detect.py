"""Pattern detection in questions (Italian and English), from the catalogue's question cues.

Questions are lower-cased and accent-folded (``perché`` → ``perche``); cues are
word-boundary regular expressions, so "pos" never matches inside "possibile".
"""

from __future__ import annotations

from ..folding import fold
from .catalogue import CATALOGUE


def detect_patterns(question: str) -> dict[str, float]:
    """``{label: confidence}`` for every pattern whose cues fire, strongest first."""
    folded = fold(question)
    found = {}
    for label, pattern in CATALOGUE.items():
        w = pattern.question_weight(folded)
        if w > 0:
            found[label] = w
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))
