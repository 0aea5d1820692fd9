"""Structural pattern tagging of any SPARQL query (REF weight format ``{LABEL: weight}``).

Each pattern module reads the query's structural features (IRIs and where
they occur, functions, aggregates, GRAPH and SERVICE blocks,
:meth:`~.pattern.Pattern.sparql_weight`); then, in catalogue order, the
patterns whose weight follows from the others add it
(:meth:`~.pattern.Pattern.derived_weight`: a count, a compositional chain).
Nothing here looks at keywords of a question.
"""

from __future__ import annotations

from ..sparql.features import Features, analyze, without_negations
from .catalogue import CATALOGUE


#: The most a label gets for what the query reads only inside ``MINUS`` / ``NOT EXISTS`` (that is PRESENCE's).
NEGATED_WEIGHT = 0.3


def tag_features(features: Features, positive: Features | None = None) -> dict[str, float]:
    """Weights for every label whose cues fire (0.0 entries dropped).

    ``positive``: the features of the query without its negations (:func:`~..sparql.features.without_negations`);
    a label that fires only on what the negations read gets at most :data:`NEGATED_WEIGHT`.
    """
    weights = {}
    for label, pattern in CATALOGUE.items():
        w = pattern.sparql_weight(features)
        if positive is not None and w > 0 and not pattern.sparql_weight(positive):
            w = min(w, NEGATED_WEIGHT)
        if w > 0:
            weights[label] = round(w, 2)
    for label, pattern in CATALOGUE.items():
        w = pattern.derived_weight(weights, CATALOGUE, features)
        if w:
            weights[label] = w
    return dict(sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))


def tag_query(sparql: str) -> dict[str, float]:
    """Tag a query text."""
    full = analyze(sparql)
    positive = without_negations(sparql)
    return tag_features(full, None if positive == sparql else analyze(positive))
