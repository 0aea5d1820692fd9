"""``nl2sparql-gen kb``: inspect, build and query the knowledge base."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.table import Table

from ..errors import DataError
from .common import (EndpointOpt, JsonOpt, ServiceOpt, StoreOpt, TimeoutOpt, console, err_console, friendly, kb_choice,
                     print_json)

app = typer.Typer(help="Inspect, build and query the knowledge base (embedded sample by default).",
                  no_args_is_help=True)


@app.command("info")
@friendly
def info(store: StoreOpt = None, endpoint: EndpointOpt = None, service: ServiceOpt = None,
         timeout: TimeoutOpt = 120.0, json_output: JsonOpt = False,
         top: Annotated[int, typer.Option(help="Classes and properties to list per graph.")] = 15) -> None:
    """Graphs, triple counts, classes and properties (with counts) of the KB."""
    from .. import api
    from ..checks import check_count
    from ..namespaces import compact

    check_count(top, "--top", 1, 100_000)
    with console.status("profiling the knowledge base…", spinner="dots"):
        info = api.kb_info(kb=kb_choice(store, endpoint, timeout, services=service), timeout=timeout)
    if json_output:
        print_json(info.to_dict())
        return
    console.print(f"[bold]{info.kb}[/]: {info.triples:,} triples in {len(info.graphs)} graphs")
    graphs = Table("graph", "triples", "classes", "properties", title="Graphs")
    for g in info.graphs:
        graphs.add_row(g["graph"] or "(default graph)", f"{g['triples']:,}", str(len(g["classes"])),
                       str(len(g["properties"])))
    console.print(graphs)
    for title, column, key in (("Classes", "class", "classes"), ("Properties", "property", "properties")):
        counts = _totals(info.graphs, key)
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
    from .. import api

    done = api.load_store(files, store, graph=graph, progress=True)
    console.print(f"loaded {done.quads:,} quads from {len(files)} file(s) into {store} in {done.seconds:.1f} s")
    table = Table("graph", "quads", title="Quads per graph in the store")
    for name, quads in done.graphs.items():
        table.add_row(name, f"{quads:,}")
    console.print(table)


def _totals(graphs: list[dict], key: str) -> dict[str, int]:
    """Counts of ``key`` (classes or properties) summed over the graphs, largest first."""
    out: dict[str, int] = {}
    for g in graphs:
        for iri, n in g[key].items():
            out[iri] = out.get(iri, 0) + n
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def read_query_argument(query: str) -> str:
    """A query given inline, as ``@file.rq``, or ``-`` for standard input."""
    if query == "-":
        return sys.stdin.read()
    if query.startswith("@"):
        path = Path(query[1:])
        if not path.is_file():
            raise DataError(f"{path}: no such query file")
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise DataError(f"{path}: not UTF-8 text (save the query as UTF-8)") from None
    return query


def print_table(rows, limit: int = 50) -> None:
    """Show an :class:`~nl2sparql.api.Rows` answer with rich (first ``limit`` rows)."""
    if rows.form == "ask":
        console.print("[bold]true[/]" if rows.boolean else "[bold]false[/]")
        return
    out = Table(*rows.variables, show_lines=False)
    for row in rows.rows[:limit]:
        out.add_row(*("" if c is None else (f"<{c['value']}>" if c["type"] == "uri" else c["value"]) for c in row))
    console.print(out)
    more = f", showing {limit}" if rows.count > limit else ""
    cap = f" (row cap of {rows.row_cap:,} reached)" if rows.truncated else ""
    console.print(f"{rows.count} row(s){more}{cap} in {rows.elapsed_ms / 1000:.3f} s", style="dim")


@app.command("query")
@friendly
def query(query: Annotated[str, typer.Argument(help="SPARQL text, @file.rq, or - for stdin.")],
          store: StoreOpt = None, endpoint: EndpointOpt = None, timeout: TimeoutOpt = 20.0,
          service: ServiceOpt = None,
          max_rows: Annotated[int, typer.Option(help="Row cap.")] = 10_000,
          json_output: JsonOpt = False,
          csv_output: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False) -> None:
    """Run a read-only query and print the result table."""
    from .. import api

    text = read_query_argument(query)
    rows = api.execute(text, kb=kb_choice(store, endpoint, timeout, max_rows, services=service))
    if json_output:
        print_json(rows.to_sparql_json())
    elif csv_output:
        sys.stdout.write(rows.to_csv())
    else:
        print_table(rows)
        return
    if rows.truncated:
        err_console.print(f"note: the answer was cut at the row cap of {rows.row_cap:,} rows (--max-rows)",
                          highlight=False, soft_wrap=True)


@app.command("serve")
@friendly
def serve(store: StoreOpt = None,
          port: Annotated[Optional[int], typer.Option(
              help="Port on 127.0.0.1 (default: a free one).", show_default=False)] = None,
          query_timeout: Annotated[float, typer.Option(
              help="The server's own per-query limit in seconds (a query past it is stopped).")] = 60.0,
          max_rows: Annotated[Optional[int], typer.Option(
              help="Most rows in one answer (default 100,000; a cut answer says so).", show_default=False)]
          = None) -> None:
    """Serve the sample or a store over SPARQL on 127.0.0.1, with the embedded store's bounds, until Ctrl-C."""
    from .. import api

    def ready(url: str) -> None:
        print(url, flush=True)  # the first stdout line: scripts read it
        err_console.print(f"serving {store or 'the embedded sample'} read-only; use "
                          f"--endpoint {url} (Ctrl-C stops)", highlight=False, soft_wrap=True)

    api.serve_kb(store=store, port=port, query_timeout=query_timeout, max_rows=max_rows, ready=ready)
