"""The pattern catalogue: one module per LiITA query pattern label.

Everything the project knows about a pattern lives in its module: its SPARQL
block, slot sampling, phrasings, detection cues, how questions name it, its
LLM guidance and its rules. The generator, the tagger, the translator, the
validator and the prompts all read it from here. ``CATALOGUE`` maps each
label to its pattern object (found by :mod:`.catalogue`); ``RULES`` is the
one registry of LiITA rules (:mod:`.rules`).
"""

from __future__ import annotations

from .base import Facts, Fragment, Frame, PERSONAS
from .catalogue import BASE_FACTS, CATALOGUE, LABELS, fact_queries
from .detect import detect_patterns
from .pattern import Pattern, StandalonePattern
from .rules import RULES

__all__ = ["CATALOGUE", "LABELS", "BASE_FACTS", "RULES", "Facts", "Fragment", "Frame", "Pattern", "PERSONAS",
           "StandalonePattern", "detect_patterns", "fact_queries"]
