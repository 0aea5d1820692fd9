"""Scoring predictions by executing them: one item, or a whole pool.

Gold and prediction run on the same knowledge base with the same time budget
and row cap. The outcome of each item is an :class:`ItemScore`: strict and
relaxed verdicts, cell-level P/R/F1 and an error class:

``missing`` (no prediction), ``parse``, ``execution``, ``timeout`` (the
prediction failed), ``empty`` (it answered nothing), ``column_mismatch``,
``value_mismatch``, ``gold_error`` (the gold itself failed: the item still
counts as wrong, so accuracies stay comparable) and ``translator`` (used by
:mod:`nl2sparql.score.evaluate` when the translator raised).

A gold with an outer LIMIT and no outer ORDER BY names an arbitrary subset of
its answer; when the prediction does not equal it outright, the gold runs
again with its LIMIT/OFFSET removed (token-level, see
:func:`~nl2sparql.score.query.strip_outer_limit`) and the prediction is
judged by containment in that answer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Iterable, Mapping, Optional

from ..errors import QuerySyntaxError
from ..kb.base import KnowledgeBase
from ..kb.results import ResultTable
from ..sparql.dialect import normalise_dialect
from .checks import IriChecker, QueryChecks, check_query
from .data import GoldItem
from .field import FieldScores, field_scores
from .labels import Labels
from .matcher import GoldPlan, MatchOptions, MatchResult, PreparedTable, compare_prepared
from .metrics import PERFECT, CellScores, cell_scores
from .normalize import Normalizer
from .query import outer_limit, outer_order_by, strip_outer_limit

ERROR_CLASSES = ("missing", "parse", "execution", "timeout", "empty", "column_mismatch",
                 "value_mismatch", "gold_error", "translator")
"""Every error class an :class:`ItemScore` can carry, in report order."""

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class ItemScore:
    """The score of one prediction (``error`` is ``None`` exactly when ``strict`` holds)."""

    id: str
    strict: bool
    relaxed: bool
    precision: float
    recall: float
    f1: float
    error: Optional[str] = None
    detail: str = ""
    gold_rows: Optional[int] = None
    pred_rows: Optional[int] = None
    patterns: list[str] = field(default_factory=list)
    difficulty: Optional[str] = None
    pred_sparql: Optional[str] = None
    #: The measures other benchmarks publish (:mod:`.field`); ``None`` when the gold failed.
    field: Optional[FieldScores] = None
    #: What the checks of the predicted query found (:mod:`.checks`); ``None`` without a prediction.
    checks: Optional[QueryChecks] = None

    @staticmethod
    def failed(item_id: str, error: str, detail: str, **kw) -> "ItemScore":
        """A wrong item with no cell credit."""
        return ItemScore(item_id, False, False, 0.0, 0.0, 0.0, error, detail, **kw)

    def to_dict(self) -> dict:
        """Plain dict (for JSON reports)."""
        return asdict(self)


def error_class(exc: BaseException) -> str:
    """``parse``, ``timeout`` or ``execution`` for an exception raised while running a query."""
    kind = getattr(exc, "kind", None)
    if kind in ("parse", "timeout"):
        return kind
    if isinstance(exc, SyntaxError):
        return "parse"
    if isinstance(exc, TimeoutError):
        return "timeout"
    return "execution"


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


class Scorer:
    """Scores predictions against gold queries on one KB with fixed options and limits."""

    def __init__(self, kb: KnowledgeBase, options: Optional[MatchOptions] = None, *,
                 timeout: Optional[float] = None, max_rows: Optional[int] = None, cache_golds: bool = False):
        self.kb = kb
        self.iris = IriChecker(kb, timeout, max_rows)
        self.options = options or MatchOptions()
        self.relaxed_options = self.options.relaxed()
        self.timeout = timeout
        self.max_rows = max_rows
        self.normalizer = Normalizer(self.options.norm_options())
        self.labels = Labels(kb, timeout) if self.options.labels else None
        #: with ``cache_golds`` a gold runs once however many runs are scored (kept in memory: for one run, off)
        self._golds: Optional[dict[str, ResultTable | Exception]] = {} if cache_golds else None

    def _gold(self, query: str) -> ResultTable:
        if self._golds is None:
            return self._run_lenient(query)
        if query not in self._golds:
            try:
                self._golds[query] = self._run_lenient(query)
            except Exception as exc:  # noqa: BLE001 - kept, and raised again for every prediction of this gold
                self._golds[query] = exc
        found = self._golds[query]
        if isinstance(found, Exception):
            raise found
        return found

    def _run(self, query: str) -> ResultTable:
        return self.kb.execute(query, timeout=self.timeout, max_rows=self.max_rows)

    def _run_lenient(self, query: str) -> ResultTable:
        """Run a query; one written in Virtuoso/ARQ syntax runs in its standard form.

        Reference pools were often written against Virtuoso (``SELECT COUNT(?x) AS ?n``
        with implicit grouping), the engine behind the live LiITA endpoint. Such a
        query's meaning is clear, so gold and prediction alike are scored by it
        rather than left unscorable or failed for the dialect of their pool.
        """
        try:
            return self._run(query)
        except QuerySyntaxError:
            standard, edits = normalise_dialect(query)
            if not edits:
                raise
            return self._run(standard)

    def score(self, gold_sparql: str, pred_sparql: Optional[str], item_id: str = "") -> ItemScore:
        """Execute both queries and compare their answers (with the field measures and the query checks)."""
        predicted = bool(pred_sparql and pred_sparql.strip())
        try:
            gold_table = self._gold(gold_sparql)
        except Exception as exc:  # noqa: BLE001 - any backend failure is reported, not raised
            return ItemScore.failed(item_id, "gold_error",
                                    f"gold query failed ({error_class(exc)}): {_one_line(exc)}",
                                    pred_sparql=pred_sparql,
                                    checks=check_query(pred_sparql, self.iris, None) if predicted else None)
        gold = PreparedTable.build(gold_table, self.normalizer)
        gold_count = gold.n_rows if gold.form != "ask" else None
        plan = GoldPlan.of(gold_sparql, gold.variables, self.options)
        if not predicted:
            return ItemScore.failed(item_id, "missing", "no prediction", gold_rows=gold_count,
                                    field=field_scores(gold_table, None, plan.ordered))
        try:
            pred_table = self._run_lenient(pred_sparql)
        except Exception as exc:  # noqa: BLE001
            return ItemScore.failed(item_id, error_class(exc), _one_line(exc),
                                    gold_rows=gold_count, pred_sparql=pred_sparql,
                                    field=field_scores(gold_table, None, plan.ordered),
                                    checks=check_query(pred_sparql, self.iris, None))
        pred = PreparedTable.build(pred_table, self.normalizer)

        strict = compare_prepared(gold, pred, plan, self.options)
        full: Optional[PreparedTable] = None
        if not strict.match and not plan.ordered and gold.form == "select" and outer_limit(gold_sparql):
            full = self._unlimited(gold_sparql)
            if full is not None:
                strict = compare_prepared(gold, pred, plan, self.options, gold_full=full)
        relaxed = strict if strict.match else \
            compare_prepared(gold, pred, plan, self.relaxed_options, gold_full=full)
        if not relaxed.match and self.labels is not None:
            relaxed = self._relaxed_by_labels(gold_table, pred_table, plan)
        cells = PERFECT if strict.match else self._cells(gold, pred, full if strict.containment else None)
        detail = strict.detail
        if not strict.match and self._same_but_tags(gold_table, pred_table, plan):
            detail += " (the same answer with language tags ignored: --lang-tags ignore)"
        return ItemScore(item_id, strict.match, relaxed.match, cells.precision, cells.recall, cells.f1,
                         strict.error, detail, gold_count,
                         pred.n_rows if pred.form != "ask" else None, pred_sparql=pred_sparql,
                         field=field_scores(gold_table, pred_table, plan.ordered),
                         checks=check_query(pred_sparql, self.iris, pred_table))

    def _same_but_tags(self, gold: ResultTable, pred: ResultTable, plan: GoldPlan) -> bool:
        """Whether two answers that differ are the same once language tags are ignored (the tags are kept)."""
        if self.options.lang != "keep" or not any(t is not None and t.lang for table in (gold, pred)
                                                  for row in table.rows for t in row):
            return False
        return self._compare_as(replace(self.options, lang="ignore"), gold, pred, plan).match

    def _relaxed_by_labels(self, gold: ResultTable, pred: ResultTable, plan: GoldPlan) -> MatchResult:
        """The relaxed match with every IRI read as its label (language tags ignored: a label is a name)."""
        return self._compare_as(replace(self.relaxed_options, lang="ignore"), self.labels.table(gold),
                                self.labels.table(pred), plan)

    @staticmethod
    def _compare_as(options: MatchOptions, gold: ResultTable, pred: ResultTable, plan: GoldPlan) -> MatchResult:
        """Two answers compared under other options than the scorer's (normalised afresh for them)."""
        normalizer = Normalizer(options.norm_options())
        return compare_prepared(PreparedTable.build(gold, normalizer), PreparedTable.build(pred, normalizer),
                                plan, options)

    def compare(self, gold: ResultTable, pred: ResultTable, gold_sparql: Optional[str] = None) -> MatchResult:
        """Compare two tables already in hand with this scorer's options."""
        g = PreparedTable.build(gold, self.normalizer)
        p = PreparedTable.build(pred, self.normalizer)
        return compare_prepared(g, p, GoldPlan.of(gold_sparql, g.variables, self.options), self.options)

    def _unlimited(self, gold_sparql: str) -> Optional[PreparedTable]:
        if outer_order_by(gold_sparql):
            return None
        try:
            table = self._run_lenient(strip_outer_limit(gold_sparql))
        except Exception:  # noqa: BLE001 - fall back to comparing with the limited gold
            return None
        return PreparedTable.build(table, self.normalizer)

    def _cells(self, gold: PreparedTable, pred: PreparedTable,
               full: Optional[PreparedTable]) -> CellScores:
        o = self.options
        return cell_scores(gold, pred, duplicates=o.consider_duplicates, tolerance=o.float_tolerance,
                           penalise_extra_columns=o.require_same_columns, gold_full=full)


def score_item(kb: KnowledgeBase, gold_sparql: str, pred_sparql: Optional[str],
               options: Optional[MatchOptions] = None, *, timeout: Optional[float] = None,
               max_rows: Optional[int] = None, item_id: str = "") -> ItemScore:
    """Score one prediction against one gold query on ``kb``."""
    return Scorer(kb, options, timeout=timeout, max_rows=max_rows).score(gold_sparql, pred_sparql, item_id)


def score_pools(kb: KnowledgeBase, gold_items: Iterable[GoldItem], preds: Mapping[str, Optional[str]],
                options: Optional[MatchOptions] = None, progress: Optional[Progress] = None, *,
                timeout: Optional[float] = None, max_rows: Optional[int] = None) -> list[ItemScore]:
    """Score every gold item against its prediction (a missing id counts as wrong).

    ``progress(done, total)`` is called after each item.
    """
    items = list(gold_items)
    scorer = Scorer(kb, options, timeout=timeout, max_rows=max_rows)
    out = []
    for n, item in enumerate(items, 1):
        result = scorer.score(item.sparql, preds.get(item.id), item.id)
        result.patterns = item.pattern_labels
        result.difficulty = item.difficulty
        out.append(result)
        if progress is not None:
            progress(n, len(items))
    return out


__all__ = ["ERROR_CLASSES", "ItemScore", "Scorer", "score_item", "score_pools", "error_class"]
