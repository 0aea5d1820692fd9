"""``nl2sparql-gen score``: score predicted SPARQL against a gold pool by execution.

Also home of the matcher flags and the summary printer that ``nl2sparql
evaluate`` (:mod:`nl2sparql.cli.evaluate_cmd`) shares.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..api import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT
from .common import (EndpointOpt, JsonOpt, ServiceOpt, StoreOpt, TimeoutOpt, console, err_console, friendly, kb_choice,
                     print_json)

# -- shared matcher flags (panels of their own: the pairs of flag names need the width) ----
MATCHING = "Matching rows"
VALUES = "Matching values"
SameColumnsOpt = Annotated[bool, typer.Option(
    "--same-columns/--allow-extra-columns", rich_help_panel=MATCHING,
    help="Strict: the prediction must have exactly the gold's columns (else extra columns are allowed).")]
SameNamesOpt = Annotated[bool, typer.Option(
    "--same-names/--any-names", rich_help_panel=MATCHING,
    help="Mapped columns must have the same variable names.")]
DuplicatesOpt = Annotated[bool, typer.Option(
    "--duplicates/--no-duplicates", rich_help_panel=MATCHING, help="Compare rows as multisets (else as sets).")]
ToleranceOpt = Annotated[float, typer.Option(
    "--tolerance", min=0.0, rich_help_panel=VALUES, help="Numeric tolerance (absolute up to 1, relative above).")]
RoundOpt = Annotated[Optional[int], typer.Option(
    "--round", rich_help_panel=VALUES, help="Round numbers to this many decimal places before comparing.",
    show_default=False)]
IgnoreOrderOpt = Annotated[bool, typer.Option(
    "--ignore-order/--keep-order", rich_help_panel=MATCHING,
    help="Ignore row order (always kept when the gold has ORDER BY).")]
LangTagsOpt = Annotated[str, typer.Option(
    "--lang-tags", rich_help_panel=VALUES, help="Language tags: keep (\"gatto\"@it ≠ \"gatto\") or ignore.")]
LabelsOpt = Annotated[bool, typer.Option(
    "--labels", rich_help_panel=VALUES,
    help="Relaxed match: read each IRI as its label (rdfs:label…), so elita:Paura counts as \"Paura\".")]
MaxRowsOpt = Annotated[int, typer.Option("--max-rows", min=1, help="Row cap for gold and prediction alike.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Directory for report.json, report.md and the chart.")]

# -- shared question-selection flags (evaluate, ask) ---------------------------
LangOpt = Annotated[str, typer.Option("--lang", help="Question language: it or en.")]
SplitOpt = Annotated[Optional[str], typer.Option("--split", help="Only this split of the pool.", show_default=False)]
VariantOpt = Annotated[Optional[str], typer.Option(
    "--variant", help="Ask a style variant instead (generic, linguist, linked_data_expert, pedagogical).",
    show_default=False)]
LimitOpt = Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N questions.",
                                                 show_default=False)]


def match_options(same_columns: bool, same_names: bool, duplicates: bool, tolerance: float,
                  round_digits: Optional[int], ignore_order: bool, lang_tags: str, labels: bool = False) -> dict:
    """The matcher options of the CLI flags (``MatchOptions`` fields, as :func:`nl2sparql.api.score` takes them)."""
    return {"require_same_columns": same_columns, "require_same_column_names": same_names,
            "consider_duplicates": duplicates, "float_tolerance": tolerance, "round_digits": round_digits,
            "ignore_order": ignore_order, "lang": lang_tags, "labels": labels}


@contextmanager
def progress_bar(description: str, enabled: bool = True) -> Iterator:
    """A rich progress bar on stderr; yields ``update(done, total)`` (a no-op when not a terminal)."""
    if not enabled or not err_console.is_terminal:
        yield lambda done, total: None
        return
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(description, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_summary(summary: dict, paths: dict[str, str], title: str) -> None:
    """Rich tables: overall, by pattern, by difficulty, by error class."""
    overall = Table(title=title, title_justify="left")
    for head in ("items", "strict", "relaxed", "cell F1", "Text2SPARQL", "QALD F1"):
        overall.add_column(head, justify="right")
    field = summary.get("field") or {}
    overall.add_row(str(summary["n"]), _pct(summary["strict_accuracy"]),
                    _pct(summary["relaxed_accuracy"]), f"{summary['macro_f1']:.3f}",
                    *("–" if field.get(k) is None else f"{field[k]:.3f}" for k in ("t2s_score", "qald_macro_f1")))
    console.print(overall)
    checks = summary.get("checks") or {}
    if checks.get("predictions"):
        console.print(f"query checks: {_pct(checks['unknown_iri_share'])} of predicted IRIs not in the KB, "
                      f"{_pct(checks['rule_break_share'])} break a LiITA rule, "
                      f"{_pct(checks['empty_share'])} run and return nothing", highlight=False)
    for key, head in (("by_pattern", "pattern"), ("by_difficulty", "difficulty")):
        if not summary[key]:
            continue
        table = Table(header_style="bold")
        table.add_column(head)
        for col in ("items", "strict", "relaxed", "F1"):
            table.add_column(col, justify="right")
        for name, g in summary[key].items():
            table.add_row(name, str(g["n"]), _pct(g["strict"]), _pct(g["relaxed"]), f"{g['f1']:.3f}")
        console.print(table)
    if summary["by_error"]:
        table = Table(header_style="bold")
        table.add_column("error class")
        table.add_column("items", justify="right")
        for name, count in summary["by_error"].items():
            table.add_row(name, str(count))
        console.print(table)
    for kind, path in paths.items():
        console.print(f"wrote {kind}: {path}", highlight=False)


@friendly
def score(
    gold: Annotated[Path, typer.Option("--gold", help="Gold pool (JSONL: id, sparql, patterns, difficulty…).")],
    pred: Annotated[Path, typer.Option("--pred", help="Predictions (JSONL: id, sparql).")],
    out: OutOpt = Path("score-report"),
    split: Annotated[Optional[str], typer.Option("--split", help="Score only this split of the pool.",
                                                 show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    max_rows: MaxRowsOpt = DEFAULT_MAX_ROWS,
    same_columns: SameColumnsOpt = True,
    same_names: SameNamesOpt = False,
    duplicates: DuplicatesOpt = True,
    tolerance: ToleranceOpt = 0.0,
    round_digits: RoundOpt = None,
    ignore_order: IgnoreOrderOpt = True,
    lang_tags: LangTagsOpt = "keep",
    labels: LabelsOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Score predicted SPARQL against a gold pool by comparing what the queries return."""
    from .. import api

    options = match_options(same_columns, same_names, duplicates, tolerance, round_digits, ignore_order, lang_tags,
                            labels)
    with progress_bar("scoring") as update:
        result = api.score(gold, pred, split=split, kb=kb_choice(store, endpoint, timeout, max_rows, services=service),
                           match=options, out=out, progress=update)
    for warning in result.warnings:
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    if json_out:
        print_json({"summary": result.summary, "reports": result.reports})
    else:
        print_summary(result.summary, result.reports, f"Scores of {pred.name} against {gold.name}")
