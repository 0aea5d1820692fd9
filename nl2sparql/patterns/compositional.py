"""COMPOSITIONAL: chains across resources, e.g. hyponyms of *animale* whose definition mentions *velenoso*.

Not a building block of its own: a query is compositional when a relation
(semantic or lexical: patterns of kind ``relation``) is combined with a
constraint from another layer (patterns of kind ``content``: definition
filter, emotion, polarity, part of speech, affix, translation…). Its weight
follows from the other labels (:meth:`Compositional.derived_weight`), for
the composer's queries and for any tagged query alike.
"""

from __future__ import annotations

from .pattern import Pattern


class Compositional(Pattern):
    """Derived label (see module docstring)."""

    label = "COMPOSITIONAL"
    rank = 150
    kind = "built"
    guidance = ("Chain the constraints on the same ?lemma (and the same ?sense inside SERVICE).")
    question_cues = [
        (r"\b(che sono anche|which are also|that are also|e la cui|and whose|whose definition|la cui definizione)\b", 0.6),
    ]

    def derived_weight(self, labels: dict[str, float], catalogue: dict, features=None) -> float:
        """0.8 when a relation meets another content pattern, 0.6 for three or more content patterns."""
        strong = [catalogue[k].kind for k, v in labels.items() if v >= 0.5 and k in catalogue]
        if "relation" in strong and "content" in strong:
            return 0.8
        if strong.count("content") >= 3:
            return 0.6
        return 0.0


PATTERN = Compositional()
