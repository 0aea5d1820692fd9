"""``nl2sparql-gen compare``: several agents' predictions scored against one gold, side by side.

Register with ``app.command("compare")(compare)`` in ``cli/gen.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..api import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT
from ..errors import ConfigError
from .common import EndpointOpt, JsonOpt, StoreOpt, TimeoutOpt, console, err_console, friendly, kb_choice, print_json
from .score_cmd import MaxRowsOpt, progress_bar

#: The rows of the measures table: (key in a run's figures, name).
SHOWN = (("strict_accuracy", "strict"), ("relaxed_accuracy", "relaxed"), ("macro_f1", "cell F1"),
         ("t2s_f1", "Text2SPARQL F1"), ("t2s_score", "T2S F1/NDCG"), ("qald_macro_f1", "QALD macro F1"))
CHECKS = (("unknown_iri_share", "IRIs not in KB"), ("rule_break_share", "rule broken"),
          ("empty_share", "empty answer"))


def _runs(values: list[str]) -> list[tuple[str, str]]:
    """``LABEL=FILE`` pairs (a bare FILE is labelled by its name without suffix)."""
    out = []
    for value in values:
        label, sep, path = value.partition("=")
        if not sep:
            label, path = Path(value).stem, value
        if not path:
            raise ConfigError(f"--pred {value!r}: give LABEL=predictions.jsonl")
        out.append((label, path))
    return out


def _fmt(value: Optional[float], share: bool = False) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" if share else f"{value:.3f}"


@friendly
def compare(
    gold: Annotated[str, typer.Option("--gold", help="Gold pool (JSONL, or a shipped pool: sample, handwritten).")],
    pred: Annotated[list[str], typer.Option(
        "--pred", metavar="LABEL=FILE", help="A run to compare: a label and its predictions file (two or more).",
        show_default=False)],
    out: Annotated[Path, typer.Option("--out", help="Directory for compare.json, compare.md and compare.png.")]
        = Path("compare-report"),
    split: Annotated[Optional[str], typer.Option("--split", help="Compare only this split of the pool.",
                                                 show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    max_rows: MaxRowsOpt = DEFAULT_MAX_ROWS,
    json_out: JsonOpt = False,
) -> None:
    """Score several agents' predictions against one gold: every measure, by pattern, difficulty and
    language, and the items where they differ."""
    from .. import api

    with progress_bar("scoring", enabled=not json_out) as update:
        result = api.compare(gold, _runs(pred), split=split, kb=kb_choice(store, endpoint, timeout, max_rows),
                             out=out, progress=update)
    for warning in result.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    if json_out:
        print_json(result.to_dict())
        return
    table = Table(title=f"{result.items} items compared", title_justify="left", header_style="bold")
    table.add_column("measure")
    for run in result.runs:
        table.add_column(escape(run), justify="right")
    for key, name in SHOWN:
        table.add_row(name, *(_fmt(result.agents[r]["measures"][key]) for r in result.runs))
    for key, name in CHECKS:
        table.add_row(name, *(_fmt(result.agents[r]["checks"][key], share=True) for r in result.runs))
    console.print(table)
    for key, title in (("by_difficulty", "difficulty"), ("by_language", "language")):
        grouped = Table(header_style="bold")
        grouped.add_column(title)
        for run in result.runs:
            grouped.add_column(escape(run), justify="right")
        for name, cells in getattr(result, key).items():
            grouped.add_row(name, *(_fmt(cells[r]["strict"], share=True) if r in cells else "–"
                                    for r in result.runs))
        console.print(grouped)
    console.print(f"{len(result.differences)} item(s) where the runs differ (listed in compare.md)", highlight=False)
    for kind, path in result.reports.items():
        console.print(f"wrote {kind}: {path}", highlight=False)
