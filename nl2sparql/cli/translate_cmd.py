"""``nl2sparql translate`` and ``nl2sparql validate``.

Register with ``app.command("translate")(translate)`` and
``app.command("validate")(validate)`` in ``cli/main.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from ..errors import DataError
from .common import (KB_PANEL, LLM_PANEL, EmbedderOpt, EndpointOpt, JsonOpt, KOpt, LLMBaseUrlOpt, LLMConfigOpt,
                     LLMModelOpt, ServiceOpt, StoreOpt, TimeoutOpt, console, err_console, friendly, kb_choice,
                     llm_settings, print_json)

MAX_ROWS_SHOWN = 50


@friendly
def translate(
    question: Annotated[str, typer.Argument(help="The question, in Italian or English.", show_default=False)],
    execute: Annotated[bool, typer.Option("--execute", "-x", help="Run the query and show the answer first.")] = False,
    json_out: JsonOpt = False,
    pool: Annotated[Optional[List[Path]], typer.Option(
        "--pool", help="Example pool (.jsonl) for retrieval; repeat for several. Default: the shipped pools.",
        show_default=False)] = None,
    k: KOpt = 5,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", rich_help_panel=KB_PANEL,
        help="Per-query time budget in seconds [default: 20]; with --llm also each LLM request's, "
             "and (rounds + 1) × it bounds the whole LLM translation.", show_default=False)] = None,
    offline: Annotated[bool, typer.Option("--offline", rich_help_panel=LLM_PANEL,
                                          help="Compose from the pattern catalogue (the default).")] = False,
    llm: Annotated[bool, typer.Option("--llm", rich_help_panel=LLM_PANEL,
                                      help="Ask the configured LLM (constraint prompt, validation, repair "
                                           "rounds; falls back to offline).")] = False,
    rounds: Annotated[int, typer.Option("--rounds", min=0, rich_help_panel=LLM_PANEL,
                                        help="LLM repair rounds.")] = 2,
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
) -> None:
    """Translate QUESTION into a LiITA SPARQL query (offline by default, in milliseconds).

    Prints the answer first (with --execute), then the query, how the question
    was read, and the pool examples that resemble it.
    """
    from .. import api
    from .retrieve_cmd import EmbeddingProgress

    if offline and llm:
        raise DataError("choose one of --offline and --llm")
    settings = llm_settings(llm, llm_model, llm_base_url, llm_config, timeout=timeout)
    with EmbeddingProgress() as progress:
        result = api.translate(question, mode="llm" if llm else "offline", execute=execute,
                               kb=kb_choice(store, endpoint, 20.0 if timeout is None else timeout, services=service),
                               pools=pool, k=k, embedder=embedder, llm=settings, rounds=rounds, progress=progress,
                               notify=lambda line: err_console.print(f"[dim]{escape(line)}[/]", highlight=False))
    if json_out:
        print_json(result.to_dict())
        return
    _show(result)


def _show(result) -> None:
    """Print a :class:`~nl2sparql.api.TranslationResult` for a person: the answer first, then the evidence."""
    for note in result.notes:
        err_console.print(f"[yellow]note:[/] {escape(note)}", highlight=False, soft_wrap=True)
    if result.off_topic:
        console.print(f"[yellow]{escape(result.off_topic)}[/]", highlight=False)
        return
    if result.rows is not None:
        show_rows(result.rows)
    for w in result.warnings:
        console.print(f"[yellow]warning:[/] {escape(w)}", highlight=False, soft_wrap=True)
    title = f"SPARQL ({result.mode}, {result.source}, {result.elapsed_ms:.1f} ms)"
    console.print(Panel(Syntax(result.sparql.strip(), "sparql", word_wrap=True), title=title, expand=False))
    patterns = ", ".join(f"{k} {v:.1f}" for k, v in result.patterns.items()) or "—"
    console.print(f"[bold]read as[/] {result.shape}   [bold]confidence[/] {result.confidence:.2f}   "
                  f"[bold]patterns[/] {escape(patterns)}", highlight=False)
    slots = {k: v for k, v in result.slots.items() if k not in ("plan", "lang")}
    if slots:
        console.print("[bold]slots[/] " + escape(", ".join(f"{k}={v}" for k, v in slots.items())), highlight=False)
    for fix in result.fixes:
        console.print(f"[green]fixed:[/] {escape(fix)}", highlight=False, soft_wrap=True)
    for issue in result.issues:
        colour = "red" if issue.severity == "error" else "yellow"
        console.print(f"[{colour}]{issue.severity}:[/] {escape(f'[{issue.rule}]')} {escape(issue.message)}",
                      highlight=False, soft_wrap=True)
    if result.examples:
        table = Table("#", "score", "id", "similar example question", title="Similar pool examples",
                      title_justify="left")
        for n, e in enumerate(result.examples, 1):
            table.add_row(str(n), f"{e['score']:.3f}", Text(str(e.get("id", "")), no_wrap=True),
                          escape(e["question"]))
        console.print(table)


def show_rows(rows) -> None:
    """The answer of an :class:`~nl2sparql.api.Rows`: ASK as yes/no, else a table of the first rows."""
    if rows.form == "ask":
        console.print(f"[bold]answer:[/] {'yes' if rows.boolean else 'no'}")
        return
    console.print(f"[bold]Answer:[/] {rows.count} row(s)" + (" (cut at the row cap)" if rows.truncated else ""),
                  highlight=False)
    out = Table(*[f"?{v}" for v in rows.variables])
    for row in rows.values()[:MAX_ROWS_SHOWN]:
        out.add_row(*[escape(cell) if cell is not None else "" for cell in row])
    console.print(out)
    if rows.count > MAX_ROWS_SHOWN:
        console.print(f"… {rows.count - MAX_ROWS_SHOWN} more row(s) (use --json for all)")


@friendly
def validate(
    query_file: Annotated[str, typer.Argument(help="A .rq file, or - to read the query from stdin.",
                                              show_default=False)],
    execute: Annotated[bool, typer.Option("--execute/--no-execute",
                                          help="Also run the query on the KB (empty answers get hints).")] = True,
    fix: Annotated[bool, typer.Option("--fix", help="Print the query with every safe fix applied.")] = False,
    json_out: JsonOpt = False,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: TimeoutOpt = 20.0,
) -> None:
    """Check a SPARQL query against the LiITA rules (syntax, prefixes, SERVICE, entries, strings, execution)."""
    from .. import api

    query = _read_query(query_file)
    kb = kb_choice(store, endpoint, timeout, services=service)
    if fix:
        repaired = api.fix(query, kb=kb, execute=execute)
        issues, fixed, fixes = repaired.issues_before, repaired.fixed, repaired.fixes
        after = repaired.issues_after if fixes else None
    else:
        issues, fixed, fixes, after = api.validate(query, kb=kb, execute=execute).issues, None, [], None
    if json_out:
        print_json({"issues": [i.to_dict() for i in issues], "fixed": fixed, "fixes": fixes,
                    "issues_after_fix": [i.to_dict() for i in after] if after is not None else None})
    else:
        if not issues:
            console.print("[green]ok:[/] no rule is broken")
        for issue in issues:
            colour = "red" if issue.severity == "error" else "yellow"
            hint = f" [dim](fix: {escape(issue.fix)})[/]" if issue.fix else ""
            console.print(f"[{colour}]{issue.severity}:[/] {escape(f'[{issue.rule}]')} {escape(issue.message)}{hint}",
                          highlight=False, soft_wrap=True)
        if fix:
            for line in fixes:
                console.print(f"[green]fixed:[/] {escape(line)}", highlight=False, soft_wrap=True)
            if fixes:
                console.print(Panel(Syntax(fixed.strip(), "sparql", word_wrap=True), title="fixed query", expand=False))
                for issue in after or []:
                    still = f"{issue.severity}: [{issue.rule}] {issue.message}"
                    console.print(f"[dim]still:[/] {escape(still)}", highlight=False, soft_wrap=True)
    final = after if after is not None else issues
    if any(i.severity == "error" for i in final):
        raise typer.Exit(1)


def _read_query(source: str) -> str:
    if source == "-":
        text = sys.stdin.read()
    else:
        path = Path(source)
        if not path.is_file():
            raise DataError(f"{path}: no such query file (check the path)")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise DataError(f"{path}: not UTF-8 text") from None
    if not text.strip():
        raise DataError("the query is empty")
    return text
