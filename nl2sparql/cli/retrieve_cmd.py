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
from .common import EmbedderOpt, JsonOpt, console, err_console, friendly, print_json

#: Terminal width from which the table also shows the score's parts and the patterns.
WIDE = 120


@friendly
def retrieve(
    question: Annotated[str, typer.Argument(help="The question, in Italian or English.")],
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="How many examples to show.")] = 5,
    pool: Annotated[Optional[List[Path]], typer.Option(
        "--pool", help="Pool file (.jsonl or .json array) or a shipped pool's name (sample, handwritten); "
                       "repeat for several. Default: every shipped pool.", show_default=False)] = None,
    embedder: EmbedderOpt = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Build the index in memory only.")] = False,
    json_output: JsonOpt = False,
) -> None:
    """Retrieve the pool examples most similar to QUESTION (dense + BM25 + pattern overlap)."""
    from .. import api

    if not pool and not api.shipped_pools():
        raise DataError("no example pool is installed; pass one with --pool FILE")
    with EmbeddingProgress() as progress:
        result = api.retrieve(question, k=k, pools=pool, embedder=embedder, cache=not no_cache, progress=progress)
    if json_output:
        print_json(result.to_dict())
        return
    for note in result.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(note)}", highlight=False, soft_wrap=True)
    weights = ", ".join(f"{name} {value:.2f}" for name, value in result.weights.items() if value)
    console.print(f"[bold]{result.pool_size:,}[/] examples from {len(result.pools)} pool(s); weights: {weights}")
    if result.detected_patterns:
        console.print("detected patterns: " + escape(_patterns(result.detected_patterns)), highlight=False)
    wide = console.width >= WIDE
    columns = ["#", "score", "id", "question"] + (["dense", "bm25", "pattern", "patterns"] if wide else [])
    table = Table(*columns, title=f"Top {len(result.examples)} for: {escape(question)}", title_justify="left")
    table.columns[2].no_wrap = True  # the id is what looks an example up
    for hit in result.examples:
        c = hit.components
        row = [str(hit.rank), f"{hit.score:.3f}", escape(hit.id), escape(hit.question)]
        if wide:
            row += [_num(c.get("dense")), _num(c.get("bm25")), _num(c.get("pattern")), escape(_patterns(hit.patterns))]
        table.add_row(*row)
    console.print(table)
    if not wide:
        console.print("[dim](the score's parts and the patterns: a wider terminal or --json)[/]", highlight=False)


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


class EmbeddingProgress:
    """A progress bar on stderr, shown only while pool questions are embedded (the first use of a pool).

    Use as ``with EmbeddingProgress() as progress:`` and pass ``progress`` to the API.
    """

    def __init__(self):
        self._bar = None
        self._task = None

    def __enter__(self) -> "EmbeddingProgress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
