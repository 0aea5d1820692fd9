"""The catalogue: every pattern module of this package, found at import time, in catalogue order.

A pattern module is any module of this package outside :data:`MACHINERY`;
it defines ``PATTERN``, an instance of a :class:`~.base.Pattern` subclass, and
the pattern's ``rank`` places it (SCHEMA.md order; a new pattern takes a free
number). Nothing else lists the patterns: adding a module adds the pattern to
the generator, the tagger, the translator, the validator and the prompts.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from .pattern import Pattern

#: Modules of this package that are machinery, not patterns (those that read the catalogue must be here).
MACHINERY = frozenset({"analytics", "base", "catalogue", "compose", "detect", "guide", "pattern", "phrasing", "reading", "relations",
                       "rules", "tagger", "vocab"})

#: The base fact every composition needs: Italian lemmas with their own written form (the one their ``rdfs:label``
#: gives, not an abbreviation or a variant spelling: slot words are words people write) and a POS.
BASE_FACTS = {
    "lemma": "SELECT DISTINCT ?lemma ?wr ?pos WHERE { ?lemma dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; "
             "a lila:Lemma ; rdfs:label ?label ; ontolex:writtenRep ?wr ; lila:hasPOS ?pos . "
             "FILTER(STR(?wr) = STR(?label)) }",
}


def _discover() -> list[Pattern]:
    found = []
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name in MACHINERY or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        pattern = getattr(module, "PATTERN", None)
        if not isinstance(pattern, Pattern):
            raise ImportError(f"{module.__name__} is neither machinery nor a pattern module (no PATTERN)")
        found.append(pattern)
    ranks = [p.rank for p in found]
    if len(set(ranks)) != len(ranks):
        raise ImportError(f"two patterns share a rank: {sorted((p.rank, p.label) for p in found)}")
    return sorted(found, key=lambda p: p.rank)


CATALOGUE: dict[str, Pattern] = {p.label: p for p in _discover()}
LABELS: tuple[str, ...] = tuple(CATALOGUE)


def fact_queries() -> dict[str, str]:
    """Every fact query of the catalogue (base facts first)."""
    out = dict(BASE_FACTS)
    for pattern in CATALOGUE.values():
        out.update(pattern.fact_queries)
    return out
