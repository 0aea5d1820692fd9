"""Execution-based scoring of NL→SPARQL predictions.

Compare what queries *return*, not how they are written:

* :mod:`~nl2sparql.score.normalize`: RDF-aware cell keys (numbers by value, lang-tag policy);
* :mod:`~nl2sparql.score.matcher`: :class:`MatchOptions` and :func:`compare_tables`
  (fingerprint-based column mapping, then row verification);
* :mod:`~nl2sparql.score.metrics`: cell-level precision / recall / F1;
* :mod:`~nl2sparql.score.runner`: :func:`score_item` and :func:`score_pools` on a KB;
* :mod:`~nl2sparql.score.report`: summaries, JSON / Markdown / PNG reports;
* :mod:`~nl2sparql.score.evaluate`: run a translator over questions and score it.
"""

from .data import GoldItem, load_gold, load_predictions
from .matcher import MatchOptions, MatchResult, compare_tables
from .metrics import CellScores
from .runner import ERROR_CLASSES, ItemScore, Scorer, score_item, score_pools

__all__ = ["MatchOptions", "MatchResult", "compare_tables", "CellScores", "ItemScore", "Scorer",
           "score_item", "score_pools", "ERROR_CLASSES", "GoldItem", "load_gold", "load_predictions"]
