"""The measures other benchmarks publish, computed on the same answers as ours.

Two measures, so that a number can be set beside a paper's:

* **Text2SPARQL** (the official measure of the Text2SPARQL challenge,
  ESWC 2025/2026; we follow its client, ``AKSW/text2sparql-client``,
  ``utils/evaluation_metrics.py`` and ``commands/evaluate.py``): every bound
  value of the answer, of every column, is poured into one set of strings
  (the lexical form only: an IRI, a string and a number that are written
  alike are one value; an ASK answer is the one value ``"true"`` with
  relevance 1 or 0); gold and prediction sets are compared with
  ``pytrec_eval`` (``set_P``, ``set_recall``, ``set_F``), and, for a gold
  whose order matters (ours: the gold has an outer ORDER BY), ``ndcg``. The
  challenge's headline averages ``set_F``, with ``ndcg`` in its place for the
  ordered golds. Its quirks, kept on purpose so the numbers are the
  challenge's: a question whose gold answer is empty is not evaluated at all
  (it leaves the average); an ASK whose gold is *true* scores 1 whatever
  ASK answers it, one whose gold is *false* scores 0; NDCG ranks the
  predicted values by their (equal) scores, so it never sees the predicted
  order.
* **QALD macro F1** (GERBIL QA's "Macro F1 QALD", QALD-9/10): per question,
  precision and recall of the answer set (the same values as above; ASK:
  ``{"true"}`` or ``{"false"}``) with QALD's rules for empty answers (both
  empty: 1, 1, 1; an empty prediction for a non-empty gold: P 1, R 0; a
  non-empty prediction for an empty gold: 0, 0, 0); the run's figure is the
  harmonic mean of the macro-averaged precision and recall.

Ours (strict, relaxed, cell F1) compare typed cells column by column; these
compare untyped values in one bag, which is what makes them disagree: a wrong
answer whose values happen to coincide with the gold's scores right here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..kb.results import ResultTable

#: The one key an ASK answer becomes (the official client's ``"true": 1 or 0``).
ASK_KEY = "true"


@dataclass(frozen=True, slots=True)
class FieldScores:
    """Both field measures for one item.

    The ``t2s_*`` fields are ``None`` when the official measure does not
    evaluate the item (an empty gold answer, or a gold that failed);
    ``t2s_ndcg`` is set only for a gold whose order matters.
    """

    t2s_precision: Optional[float]
    t2s_recall: Optional[float]
    t2s_f1: Optional[float]
    t2s_ndcg: Optional[float]
    qald_precision: float
    qald_recall: float
    qald_f1: float

    @property
    def t2s_score(self) -> Optional[float]:
        """The challenge's per-question figure: NDCG for an ordered gold, else set F1."""
        return self.t2s_ndcg if self.t2s_ndcg is not None else self.t2s_f1


def relevance(table: Optional[ResultTable]) -> dict[str, int]:
    """The official client's view of an answer: ``{value: 1}`` for every bound value (``None``: no answer)."""
    if table is None:
        return {}
    if table.form == "ask":
        return {ASK_KEY: 1 if table.boolean else 0}
    return {term.value: 1 for row in table.rows for term in row if term is not None}


def answer_set(table: Optional[ResultTable]) -> set[str]:
    """QALD's answer set: the bound values, or ``{"true"}`` / ``{"false"}`` for an ASK."""
    if table is None:
        return set()
    if table.form == "ask":
        return {"true" if table.boolean else "false"}
    return {term.value for row in table.rows for term in row if term is not None}


def text2sparql(gold: dict[str, int], pred: dict[str, int], ordered: bool) -> Optional[dict[str, float]]:
    """``pytrec_eval``'s ``set_P``, ``set_recall``, ``set_F`` (and ``ndcg`` when ``ordered``); ``None`` when it
    does not evaluate the question (a gold with no values)."""
    import pytrec_eval

    measures = {"set_P", "set_recall", "set_F"} | ({"ndcg"} if ordered else set())
    result = pytrec_eval.RelevanceEvaluator({"q": gold}, measures).evaluate({"q": pred})
    return result.get("q")


def qald(gold: set[str], pred: set[str]) -> tuple[float, float, float]:
    """Precision, recall and F1 of one answer set under QALD's empty-answer rules (GERBIL QA)."""
    hits = len(gold & pred)
    if not hits:
        if not gold and not pred:
            return 1.0, 1.0, 1.0
        if not pred:
            return 1.0, 0.0, 0.0  # the system gave no answer: nothing it said was wrong
        return 0.0, 0.0, 0.0
    p, r = hits / len(pred), hits / len(gold)
    return p, r, 2 * p * r / (p + r)


def field_scores(gold: ResultTable, pred: Optional[ResultTable], ordered: bool) -> FieldScores:
    """Both field measures of one prediction (``pred`` ``None``: no answer, as the client reads a failed query)."""
    official = text2sparql(relevance(gold), relevance(pred), ordered and gold.form != "ask")
    qp, qr, qf = qald(answer_set(gold), answer_set(pred))
    if official is None:
        return FieldScores(None, None, None, None, qp, qr, qf)
    return FieldScores(official["set_P"], official["set_recall"], official["set_F"], official.get("ndcg"),
                       qp, qr, qf)


def summarize_field(scores: Sequence[Optional[FieldScores]]) -> dict:
    """Run-level figures: the Text2SPARQL averages over the items it evaluates, and QALD macro F1 over all.

    ``None`` entries (the gold failed) count for neither, as the official client drops them.
    """
    present = [s for s in scores if s is not None]
    counted = [s for s in present if s.t2s_f1 is not None]
    ordered = [s for s in counted if s.t2s_ndcg is not None]

    def mean(values: list[float]) -> Optional[float]:
        return sum(values) / len(values) if values else None

    p = mean([s.qald_precision for s in present])
    r = mean([s.qald_recall for s in present])
    return {
        "t2s_items": len(counted),
        "t2s_precision": mean([s.t2s_precision for s in counted]),
        "t2s_recall": mean([s.t2s_recall for s in counted]),
        "t2s_f1": mean([s.t2s_f1 for s in counted]),
        "t2s_ndcg": mean([s.t2s_ndcg for s in ordered]),
        "t2s_ordered_items": len(ordered),
        "t2s_score": mean([s.t2s_score for s in counted]),
        "qald_items": len(present),
        "qald_precision": p,
        "qald_recall": r,
        "qald_macro_f1": (2 * p * r / (p + r) if p is not None and r is not None and p + r else
                          (0.0 if present else None)),
    }
