"""Structural pattern tagging of any SPARQL query (REF weight format ``{LABEL: weight}``).

Each pattern module reads the query's structural features (IRIs and where
they occur, functions, aggregates, GRAPH and SERVICE blocks); nothing here
looks at keywords of a question.
"""

from __future__ import annotations

from ..sparql.features import Features, analyze
from .catalogue import CATALOGUE
from .compositional import compositional_weight


def tag_features(features: Features) -> dict[str, float]:
    """Weights for every label whose cues fire (0.0 entries dropped)."""
    weights = {}
    for label, pattern in CATALOGUE.items():
        w = pattern.sparql_weight(features)
        if w > 0:
            weights[label] = round(w, 2)
    if features.aggregates & {"COUNT"} and "COUNT_ENTITIES" not in weights:
        weights["COUNT_ENTITIES"] = 0.9 if "SENSE_COUNT" not in weights else 0.4
    elif features.aggregates & {"AVG", "SUM", "MIN", "MAX"} and features.group_by and "COUNT_ENTITIES" not in weights:
        weights["COUNT_ENTITIES"] = 0.6  # statistics per group (averages, totals)
    comp = compositional_weight(weights)
    if comp:
        weights["COMPOSITIONAL"] = comp
    return dict(sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))


def tag_query(sparql: str) -> dict[str, float]:
    """Tag a query text."""
    return tag_features(analyze(sparql))
