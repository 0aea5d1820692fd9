"""The pattern catalogue: one module per LiITA query pattern label.

The generator, the tagger, the translator and the prompts all read this one
catalogue. ``CATALOGUE`` maps each label of SCHEMA.md to its pattern object.
"""

from __future__ import annotations

from . import (compositional, count_entities, emotion_lexicon, lexical_form, lexical_relation, meta_graph,
               morpho_regex, multi_translation, polarity, pos_filter, semantic_relation, sense_count,
               sense_definition, service_integration, translation)
from .base import Facts, Fragment, Frame, Pattern, PERSONAS, StandalonePattern

_MODULES = (emotion_lexicon, polarity, translation, multi_translation, sense_definition, sense_count,
            semantic_relation, lexical_relation, pos_filter, morpho_regex, count_entities, meta_graph,
            lexical_form, service_integration, compositional)

CATALOGUE: dict[str, Pattern] = {m.PATTERN.label: m.PATTERN for m in _MODULES}
LABELS: tuple[str, ...] = tuple(CATALOGUE)

#: The base fact every composition needs: Italian lemmas with a written form and a POS.
BASE_FACTS = {
    "lemma": "SELECT DISTINCT ?lemma ?wr ?pos WHERE { ?lemma dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ; "
             "a lila:Lemma ; ontolex:writtenRep ?wr ; lila:hasPOS ?pos }",
}


def detect_patterns(question: str) -> dict[str, float]:
    """Patterns a question asks for, with confidence (see :mod:`.detect`)."""
    from .detect import detect_patterns as _detect
    return _detect(question)


def fact_queries() -> dict[str, str]:
    """Every fact query of the catalogue (base facts first)."""
    out = dict(BASE_FACTS)
    for pattern in CATALOGUE.values():
        out.update(pattern.fact_queries)
    return out


__all__ = ["CATALOGUE", "LABELS", "BASE_FACTS", "Facts", "Fragment", "Frame", "Pattern", "PERSONAS",
           "StandalonePattern", "detect_patterns", "fact_queries"]
