"""What LLM prompts say about LiITA, built from the catalogue: every rule's prose, each pattern's guidance.

Both prompts (the translator's, :mod:`nl2sparql.translate.prompts`, and the
LLM query generator's, :mod:`nl2sparql.operators.llm_sparql`) take their LiITA
knowledge from here, so a rule or a pattern is described once.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable

from ..sparql.model import render
from .catalogue import CATALOGUE, LABELS
from .compose import finish_query, start_frame
from .rules import RULES


def rules_text() -> list[str]:
    """Every rule's prose, numbered, in registry order."""
    return [f"{i}. {rule.prose}" for i, rule in enumerate(RULES, 1)]


@lru_cache(maxsize=None)
def canonical_block(label: str) -> str | None:
    """The catalogue's rendering of ``label`` on its example slots (``None`` for patterns without an example)."""
    pattern = CATALOGUE.get(label)
    if pattern is None or pattern.example is None:
        return None
    shape, word, slots = pattern.example
    rng = random.Random(0)
    if shape == "standalone":
        query, *_ = pattern.build(dict(slots), rng)
        return render(query)
    frame = start_frame(shape, word)
    pattern.build(frame, dict(slots), rng)
    return render(finish_query(frame))


def pattern_guide(labels: Iterable[str], blocks: bool = True) -> list[str]:
    """For each label (catalogue order): ``LABEL: guidance`` and, with ``blocks``, its canonical block."""
    wanted = set(labels)
    out = []
    for label in (l for l in LABELS if l in wanted):
        text = f"{label}: {CATALOGUE[label].guidance}".strip()
        block = canonical_block(label) if blocks else None
        if block:
            text += f"\nCanonical block:\n```sparql\n{block.strip()}\n```"
        out.append(text)
    return out
