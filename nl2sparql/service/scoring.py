"""Scoring predicted SPARQL against gold by execution."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

from ..errors import ConfigError, DataError
from .kbs import KBLike, limits, using_kb
from .types import CompareResult, ScoreResult

Progress = Callable[[int, int], None]
GoldLike = str | Path | Sequence[Mapping]
PredLike = str | Path | Mapping[str, str | None] | Sequence[Mapping]


def match_options(match=None):
    """A :class:`~nl2sparql.score.matcher.MatchOptions` from ``None`` (defaults), a dict of its fields, or itself."""
    from ..score.matcher import MatchOptions
    if match is None:
        return MatchOptions()
    if isinstance(match, MatchOptions):
        return match
    if isinstance(match, Mapping):
        known = set(MatchOptions.__dataclass_fields__)
        unknown = sorted(set(match) - known)
        if unknown:
            raise ConfigError(f"unknown match option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return MatchOptions(**match)
    raise ConfigError("match must be a dict of MatchOptions fields")


def _gold(gold: GoldLike, split: str | None):
    from ..score.data import gold_items, load_gold
    if isinstance(gold, (str, Path)):
        from .pools import resolve_pool
        return load_gold(resolve_pool(gold), split), str(gold)
    if not isinstance(gold, Sequence) or not gold:
        raise DataError("gold must be a pool file or a non-empty list of {id, sparql} items")
    return gold_items(enumerate(gold, 1), "gold", split), "gold items"


def _predictions(pred: PredLike) -> tuple[dict[str, str | None], str]:
    from ..score.data import load_predictions, prediction_map
    if isinstance(pred, (str, Path)):
        return load_predictions(Path(pred)), str(pred)
    if isinstance(pred, Mapping):
        rows = [{"id": k, "sparql": v} for k, v in pred.items()]
    elif isinstance(pred, Sequence):
        rows = list(pred)
    else:
        raise DataError("predictions must be a file, a {id: sparql} mapping or a list of {id, sparql} items")
    return prediction_map(enumerate(rows, 1), "predictions"), "predictions"


def score(gold: GoldLike, predictions: PredLike, *, split: str | None = None, kb: KBLike = None, match=None,
          out: str | Path | None = None, timeout: float | None = None, max_rows: int | None = None,
          progress: Progress | None = None) -> ScoreResult:
    """Run gold and predicted SPARQL on the same KB and compare what they return.

    ``gold``: a pool file (or a shipped pool's name) or a list of ``{id, sparql, patterns?, difficulty?}``;
    ``predictions``: a JSONL file of ``{id, sparql}``, a ``{id: sparql}`` mapping or such a list.
    ``match`` sets the comparison options (:class:`~nl2sparql.score.matcher.MatchOptions`
    fields). ``out`` also writes ``report.json``, ``report.md`` and a chart.
    """
    from ..score.report import summarize, write_reports
    from ..score.runner import score_pools

    options = match_options(match)
    items, gold_name = _gold(gold, split)
    preds, pred_name = _predictions(predictions)
    gold_ids = {item.id for item in items}
    warnings = []
    unknown = [i for i in preds if i not in gold_ids]
    if unknown and split is None:
        warnings.append(f"{len(unknown)} prediction id(s) are not in the gold pool (e.g. {unknown[0]}); they are ignored")
    timeout, max_rows = limits(kb, timeout, max_rows)
    with using_kb(kb) as store:
        scores = score_pools(store, items, preds, options, progress, timeout=timeout, max_rows=max_rows)
        kb_name = store.description
    meta = {"gold": gold_name, "pred": pred_name, "split": split or "all", "kb": kb_name, "timeout": timeout,
            "max_rows": max_rows, "missing_predictions": sum(1 for s in scores if s.error == "missing")}
    reports = {}
    if out is not None:
        reports = {k: str(v) for k, v in write_reports(Path(out), scores, options.to_dict(), meta).items()}
    return ScoreResult(summarize(scores), [s.to_dict() for s in scores], reports, meta, warnings=warnings)


def compare(gold: GoldLike, runs: Mapping[str, str | Path] | Sequence[tuple[str, str | Path]], *,
            split: str | None = None, kb: KBLike = None, match=None, out: str | Path | None = None,
            timeout: float | None = None, max_rows: int | None = None,
            progress: Progress | None = None) -> CompareResult:
    """Score several prediction files against one gold and set them side by side.

    ``runs`` maps a label to a predictions file (``{id, sparql, question?}`` JSONL, as ``ask`` and
    ``evaluate`` write; a list of ``(label, file)`` pairs keeps their order). The items compared are
    the gold's (of ``split``) that some run answered. ``out`` also writes ``compare.json``,
    ``compare.md`` and ``compare.png``.
    """
    from ..fileio import iter_jsonl
    from ..score.compare import Run, compare_runs, write_comparison
    from ..score.runner import Scorer

    pairs = list(runs.items()) if isinstance(runs, Mapping) else [tuple(r) for r in runs]
    if len(pairs) < 2:
        raise ConfigError("compare needs at least two runs (label=predictions.jsonl each)")
    labels = [str(label).strip() for label, _ in pairs]
    if any(not label for label in labels) or len(set(labels)) != len(labels):
        raise ConfigError(f"each run needs a label of its own, got: {', '.join(map(repr, labels))}")
    loaded = []
    for label, path in zip(labels, (Path(p) for _, p in pairs)):
        preds, _ = _predictions(path)
        questions = {str(o.get("id")): str(o.get("question") or "") for _, o in iter_jsonl(path)}
        loaded.append(Run(label, preds, questions))
    items, gold_name = _gold(gold, split)
    options = match_options(match)
    timeout, max_rows = limits(kb, timeout, max_rows)
    with using_kb(kb) as store:
        scorer = Scorer(store, options, timeout=timeout, max_rows=max_rows, cache_golds=True)
        result = compare_runs(scorer, items, loaded, progress)
        kb_name = store.description
    compared = [i.id for i in items if any(i.id in r.predictions for r in loaded)]
    warnings = [f"{run.label} has no prediction for {lacking} of the {len(compared)} items compared "
                "(counted as missing)"
                for run in loaded if (lacking := sum(1 for i in compared if i not in run.predictions))]
    meta = {"gold": gold_name, "split": split or "all", "kb": kb_name, "runs": ", ".join(
        f"{label} = {path}" for label, (_, path) in zip(labels, pairs)), "timeout": timeout, "max_rows": max_rows}
    reports = {}
    if out is not None:
        reports = {k: str(v) for k, v in write_comparison(Path(out), result, meta).items()}
    result.pop("scores")
    return CompareResult(**result, reports=reports, meta=meta, warnings=warnings)
