"""``nl2sparql ontology``: search, show and export the LiITA ontology catalogue.

Register with ``app.add_typer(ontology_cmd.app, name="ontology")`` in ``cli/main.py``.
Occurrence counts come from the KB in use (``--store`` / ``--endpoint``, else the
embedded sample) unless ``--no-counts``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from ..errors import DataError
from .common import (EmbedderOpt, EndpointOpt, JsonOpt, ServiceOpt, StoreOpt, console, err_console, friendly, kb_choice,
                     print_json)

app = typer.Typer(name="ontology", no_args_is_help=True, rich_markup_mode="rich",
                  help="Search, show and export the catalogue of LiITA classes and properties.")

NoCountsOpt = Annotated[bool, typer.Option("--no-counts", help="Do not measure occurrence counts on a KB.")]


@app.command("search")
@friendly
def search(
    description: Annotated[str, typer.Argument(help="What you are looking for, in Italian or English, "
                                                    "e.g. \"broader meaning\" or \"termine più generale\".")],
    k: Annotated[int, typer.Option("-k", "--k", help="How many terms to show.")] = 5,
    weights: Annotated[Optional[str], typer.Option(
        "--weights", help="Component weights, e.g. dense=0.6,bm25=0.3,pattern=0.1,occurrence=0.1.",
        show_default=False)] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    no_counts: NoCountsOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Find the classes and properties that match DESCRIPTION (embeddings + BM25 + pattern and occurrence boosts)."""
    from .. import api

    result = api.search_ontology(description, k=k, kb=kb_choice(store, endpoint, services=service),
                                 counts=not no_counts, weights=weights, embedder=embedder)
    if json_output:
        print_json(result.to_dict())
        return
    for note in result.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(note)}", highlight=False, soft_wrap=True)
    table = Table("#", "score", "term", "label (en / it)", "count", "where",
                  title=f"Ontology terms for: {escape(description)}", title_justify="left")
    table.columns[2].no_wrap = True  # the CURIE is what the user needs whole
    for hit in result.hits:
        count = "—" if hit["count"] is None else f"{hit['count']:,}"
        label = escape(f"{hit['label']['en']} / {hit['label']['it']}")
        table.add_row(str(hit["rank"]), f"{hit['score']:.3f}", escape(hit["curie"]), label, count,
                      ", ".join(hit["where"]))
    console.print(table)
    for hit in result.hits:
        for note in hit["notes"]:
            console.print(f"[bold]{escape(hit['curie'])}[/]: {escape(note)}", highlight=False)


@app.command("show")
@friendly
def show(
    term: Annotated[str, typer.Argument(help="A CURIE (lexinfo:hypernym) or a full IRI.")],
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    no_counts: NoCountsOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Show one catalogue entry: meaning, domain and range, inverse, where it lives, notes and a usage query."""
    from .. import api

    try:
        item = api.ontology_term(term, kb=kb_choice(store, endpoint, services=service), counts=not no_counts)
    except DataError as exc:
        raise DataError(f"{exc} (`nl2sparql ontology search \"...\"`)") from None
    if json_output:
        print_json(item)
        return
    console.print(f"[bold]{escape(item['curie'])}[/]  {item['kind']}  [dim]<{escape(item['iri'])}>[/]",
                  highlight=False)
    console.print(f"[bold]{escape(item['label']['en'])}[/] / {escape(item['label']['it'])}", highlight=False)
    console.print(escape(item["description"]["en"]), highlight=False)
    console.print(f"[dim]{escape(item['description']['it'])}[/]", highlight=False)
    console.print()
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    for name in ("domain", "range", "inverse", "parent"):
        if item[name]:
            facts.add_row(name, escape(item[name]))
    if item.get("symmetric"):
        facts.add_row("symmetric", "yes")
    facts.add_row("where", escape(item["placement"]))
    if "count" in item:
        facts.add_row("count", _count(item))
    if item.get("patterns"):
        facts.add_row("patterns", ", ".join(item["patterns"]))
    console.print(facts, highlight=False)
    if item.get("notes"):
        console.print("\n[bold]Notes[/]")
        notes = Table.grid(padding=(0, 1))
        notes.add_column(no_wrap=True)
        notes.add_column()
        for note in item["notes"]:
            notes.add_row(" •", escape(note))
        console.print(notes, highlight=False)
    console.print("\n[bold]Usage[/]")
    console.print(Syntax(item["usage"], "sparql", word_wrap=True))


def _count(item: dict) -> str:
    """``238 in sample (238 inside the CompL-it SERVICE, 0 outside it)``; unknown places left out."""
    places = item.get("count_by_place") or {}
    parts = [f"{places['service']:,} inside the CompL-it SERVICE" if places.get("service") is not None else "",
             f"{places['outside']:,} outside it" if places.get("outside") is not None else ""]
    where = ", ".join(p for p in parts if p)
    total = "unknown" if item["count"] is None else f"{item['count']:,}"
    return escape(f"{total} in {item['counts_kb']}" + (f" ({where})" if where else ""))


@app.command("export")
@friendly
def export(
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the JSON here (default: stdout).",
                                                show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    no_counts: NoCountsOpt = False,
) -> None:
    """Export the whole catalogue as one JSON resource (with occurrence counts from the KB in use)."""
    import json

    from .. import api
    from ..fileio import atomic_write_text

    resource = api.ontology_catalog(kb=kb_choice(store, endpoint, services=service), counts=not no_counts)
    if out is None:
        print_json(resource)
        return
    if out.is_dir():
        raise DataError(f"{out} is a directory; give a file name for --out")
    atomic_write_text(out, json.dumps(resource, ensure_ascii=False, indent=2) + "\n")
    err_console.print(f"wrote {resource['entries_total']} entries to {escape(str(out))}", highlight=False)
