"""Testing an external agent: ask it every question of a pool, then score its SPARQL by execution."""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Callable

from ..checks import check_timeout
from ..errors import ConfigError
from .kbs import KBLike
from .types import AskResult

Progress = Callable[[int, int], None]
MAX_CONCURRENCY = 64


def ask(pool: str | Path, agent, *, out: str | Path = "predictions.jsonl", lang: str = "it",
        split: str | None = None, variant: str | None = None, limit: int | None = None, concurrency: int = 4,
        timeout: float = 60.0, retry_errors: bool = False, score: bool = False, report: str | Path | None = None,
        kb: KBLike = None, match=None, progress: Progress | None = None) -> AskResult:
    """Send each question of ``pool`` (a file or a shipped pool's name; ``split``, ``lang``, ``variant``,
    the first ``limit``) to an external agent and append its SPARQL to ``out``.

    ``agent`` is a connector (:mod:`nl2sparql.score.agents`) or a spec:
    ``{"cmd": "my-agent --question {question}"}``, ``{"openai": url, "model": name}`` or
    ``{"mcp": "server command line", "tool": name, "arg": "question"}`` or
    ``{"text2sparql": url, "dataset": iri}`` (the Text2SPARQL challenge API). Ids already in
    ``out`` are not asked again (``retry_errors`` re-asks those that failed). At
    most ``concurrency`` questions are in flight, each within ``timeout`` seconds.
    With ``score`` the answers are scored against the pool's gold on ``kb``
    (``report``: also write the report files there).
    """
    from ..score.agents import make_agent
    from ..score.ask import PredictionLog, ask_items
    from ..score.data import load_gold
    from .scoring import score as score_predictions
    from .pools import resolve_pool

    if lang not in ("it", "en"):
        raise ConfigError(f"language must be it or en, not {lang!r}")
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ConfigError(f"concurrency must be between 1 and {MAX_CONCURRENCY}, got {concurrency}")
    timeout = check_timeout(timeout, "--timeout (seconds per question)")
    if limit is not None and limit < 1:
        raise ConfigError("limit must be at least 1")
    items = load_gold(resolve_pool(pool), split)[:limit]
    made = isinstance(agent, Mapping)
    connector = make_agent(dict(agent), timeout=timeout, concurrency=concurrency) if made else agent
    start = time.perf_counter()
    try:
        run = ask_items(items, connector, PredictionLog(Path(out)), lang=lang, variant=variant,
                        concurrency=concurrency, timeout=timeout, retry_errors=retry_errors, progress=progress)
    finally:
        if made:
            connector.close()
    seconds = round(time.perf_counter() - start, 2)
    warnings = []
    if run.skipped:
        which = f" ({variant})" if variant else ""
        warnings.append(f"{run.skipped} item(s) have no question in {lang}{which} and were not asked")
    scored = None
    if score:
        gold = [{"id": i.id, "sparql": i.sparql, "patterns": i.patterns, "difficulty": i.difficulty}
                for i in items if i.text(lang, variant)]
        scored = score_predictions(gold, Path(out), kb=kb, match=match, out=report)
    return AskResult(predictions=str(out), agent=connector.label, asked=run.asked, answered=run.answered,
                     errors=len(run.errors), resumed=run.resumed, skipped=run.skipped, seconds=seconds,
                     latency_ms=_latency(run.latencies), error_examples=sorted(set(run.errors))[:5], score=scored,
                     warnings=warnings)


def _latency(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1), "max": ordered[-1]}
