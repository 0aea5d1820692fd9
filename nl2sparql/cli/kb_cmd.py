"""``nl2sparql-gen kb``: inspect, build and query the knowledge base."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.table import Table

from ..errors import DataError
from .common import (EndpointOpt, JsonOpt, StoreOpt, TimeoutOpt, console, err_console, friendly,
                     open_kb_from_options, print_json)

app = typer.Typer(help="Inspect, build and query the knowledge base (embedded sample by default).",
                  no_args_is_help=True)


@app.command("info")
@friendly
def info(store: StoreOpt = None, endpoint: EndpointOpt = None, timeout: TimeoutOpt = 120.0,
         json_output: JsonOpt = False,
         top: Annotated[int, typer.Option(help="Classes and properties to list per graph.")] = 15) -> None:
    """Graphs, triple counts, classes and properties (with counts) of the KB."""
    from ..kb.profile import compact, profile_kb

    with open_kb_from_options(store, endpoint, timeout) as kb:
        with console.status("profiling the knowledge base…", spinner="dots"):
            profile = profile_kb(kb, timeout=timeout)
    if json_output:
        print_json(profile.to_json())
        return
    console.print(f"[bold]{profile.description}[/]: {profile.triples:,} triples in "
                  f"{len(profile.graphs)} graphs")
    graphs = Table("graph", "triples", "classes", "properties", title="Graphs")
    for g in profile.graphs:
        graphs.add_row(g.graph or "(default graph)", f"{g.triples:,}", str(len(g.classes)),
                       str(len(g.properties)))
    console.print(graphs)
    for title, column, counts in (("Classes", "class", profile.classes()),
                                  ("Properties", "property", profile.properties())):
        table = Table(column, "count", title=f"{title} (top {top} of {len(counts)})")
        for iri, n in list(counts.items())[:top]:
            table.add_row(compact(iri), f"{n:,}")
        console.print(table)


@app.command("load")
@friendly
def load(files: Annotated[List[Path], typer.Argument(help="RDF files: .ttl .trig .nt .nq, optionally .gz.")],
         store: Annotated[Path, typer.Option("--store", help="Store directory to create or extend.")],
         graph: Annotated[Optional[str], typer.Option(
             help="Named graph for triple files (.ttl/.nt); quad files keep their graphs.")] = None) -> None:
    """Build an on-disk Oxigraph store from RDF dumps (e.g. ../shared/liita/mirror/*.nq.gz)."""
    from ..kb.embedded import EmbeddedKB

    start = time.perf_counter()
    added = EmbeddedKB.build(store, files, graph=graph, progress=sys.stderr.isatty())
    console.print(f"loaded {added:,} quads from {len(files)} file(s) into {store} "
                  f"in {time.perf_counter() - start:.1f} s")


def read_query_argument(query: str) -> str:
    """A query given inline, as ``@file.rq``, or ``-`` for standard input."""
    if query == "-":
        return sys.stdin.read()
    if query.startswith("@"):
        path = Path(query[1:])
        if not path.is_file():
            raise DataError(f"{path}: no such query file")
        return path.read_text(encoding="utf-8")
    return query


def print_table(table, limit: int = 50) -> None:
    """Show a result table with rich (first ``limit`` rows)."""
    if table.form == "ask":
        console.print("[bold]true[/]" if table.boolean else "[bold]false[/]")
        return
    out = Table(*table.variables, show_lines=False)
    for row in table.rows[:limit]:
        out.add_row(*("" if t is None else (t.value if t.kind != "iri" else f"<{t.value}>") for t in row))
    console.print(out)
    more = f", showing {limit}" if len(table.rows) > limit else ""
    cap = " (row cap reached)" if table.truncated else ""
    console.print(f"{len(table.rows)} row(s){more}{cap} in {table.elapsed:.3f} s", style="dim")


@app.command("query")
@friendly
def query(query: Annotated[str, typer.Argument(help="SPARQL text, @file.rq, or - for stdin.")],
          store: StoreOpt = None, endpoint: EndpointOpt = None, timeout: TimeoutOpt = 20.0,
          max_rows: Annotated[int, typer.Option(help="Row cap.")] = 10_000,
          json_output: JsonOpt = False,
          csv_output: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False) -> None:
    """Run a read-only query and print the result table."""
    from ..kb import open_kb

    text = read_query_argument(query)
    with open_kb(store=store, endpoint=endpoint, timeout=timeout, max_rows=max_rows) as kb:
        table = kb.execute(text)
    if json_output:
        print_json(table.to_json())
    elif csv_output:
        sys.stdout.write(table.to_csv())
    else:
        print_table(table)


@app.command("serve")
@friendly
def serve(store: StoreOpt = None,
          port: Annotated[Optional[int], typer.Option(
              help="Port on 127.0.0.1 (default: a free one).", show_default=False)] = None,
          query_timeout: Annotated[float, typer.Option(
              help="The server's own per-query limit in seconds.")] = 60.0) -> None:
    """Serve the sample or a store over SPARQL with the Oxigraph server, on 127.0.0.1, until Ctrl-C."""
    from ..kb.serve import OxigraphServer, serve_until_stopped

    def ready(server) -> None:
        print(server.url, flush=True)  # the first stdout line: scripts read it
        err_console.print(f"serving {store or 'the embedded sample'} read-only; use "
                          f"--endpoint {server.url} (Ctrl-C stops)", highlight=False, soft_wrap=True)

    serve_until_stopped(OxigraphServer(store, port=port, query_timeout=query_timeout), ready)
