"""COMPOSITIONAL: chains across resources, e.g. hyponyms of *animale* whose definition mentions *velenoso*.

Not a building block of its own: a query is compositional when a relation
(semantic or lexical) is combined with a constraint from another layer
(definition filter, emotion, polarity, part of speech, affix, translation).
The composer tags it; :meth:`sparql_weight` recognises it in any query.
"""

from __future__ import annotations

from .base import Pattern

RELATION_LABELS = ("SEMANTIC_RELATION", "LEXICAL_RELATION")
CONTENT_LABELS = ("EMOTION_LEXICON", "POLARITY", "TRANSLATION", "SENSE_DEFINITION", "POS_FILTER",
                  "MORPHO_REGEX", "MULTI_TRANSLATION", "LEXICAL_FORM", "SENSE_COUNT")


def compositional_weight(labels: dict[str, float]) -> float:
    """0.8 when a relation meets another content pattern, 0.6 for three or more content patterns."""
    strong = {k for k, v in labels.items() if v >= 0.5}
    relations = strong & set(RELATION_LABELS)
    content = strong & set(CONTENT_LABELS)
    if relations and content:
        return 0.8
    if len(content) >= 3:
        return 0.6
    return 0.0


class Compositional(Pattern):
    """Derived label (see module docstring)."""

    label = "COMPOSITIONAL"
    rank = 150
    guidance = ("Chain the constraints on the same ?lemma (and the same ?sense inside SERVICE).")
    role = "derived"
    shapes = ()
    question_cues = [
        (r"\b(che sono anche|which are also|that are also|e la cui|and whose|whose definition|la cui definizione)\b", 0.6),
    ]


PATTERN = Compositional()
