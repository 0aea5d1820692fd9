"""Loading RDF files (Turtle, TriG, N-Triples, N-Quads; plain or .gz) into Oxigraph.

Quad formats keep their graphs; triple formats go to ``graph`` when given,
else to the store's default graph (which is part of the query default graph).
A rich progress bar follows the bytes read on a terminal; elsewhere (a log, a
pipe) each file gets a line when it is loaded. :func:`graph_quads` counts what
each graph holds once the load is done.
"""

from __future__ import annotations

import gzip
import io
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..errors import DataError

FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".turtle": ox.RdfFormat.TURTLE,
    ".trig": ox.RdfFormat.TRIG,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".ntriples": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".nquads": ox.RdfFormat.N_QUADS,
}
QUAD_FORMATS = {ox.RdfFormat.TRIG, ox.RdfFormat.N_QUADS}


def rdf_format(path: Path) -> ox.RdfFormat:
    """The RDF format of ``path`` from its extension (``.gz`` is looked through)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    fmt = FORMATS.get(suffixes[-1]) if suffixes else None
    if fmt is None:
        raise DataError(f"{path}: unknown RDF format; use .ttl, .trig, .nt or .nq (optionally .gz)")
    return fmt


class _CountingReader(io.RawIOBase):
    """A readable wrapper that reports compressed bytes consumed to a callback."""

    def __init__(self, raw, on_read):
        self._raw = raw
        self._on_read = on_read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self._on_read(n)
        return n


def _open(path: Path, on_read):
    raw = _CountingReader(open(path, "rb"), on_read)
    stream = io.BufferedReader(raw, buffer_size=1 << 20)
    if path.suffix.lower() == ".gz":
        return gzip.GzipFile(fileobj=stream)
    return stream


def check_files(files: Iterable[Path]) -> list[Path]:
    """The files as paths; :class:`DataError` if one is missing or of an unknown format."""
    paths = [Path(f) for f in files]
    for p in paths:
        if not p.is_file():
            raise DataError(f"{p}: no such file (check the path)")
        rdf_format(p)
    return paths


def load_files(store: ox.Store, files: Iterable[Path], graph: str | None = None,
               bulk: bool = False, progress: bool = True) -> int:
    """Load ``files`` into ``store``; returns the number of quads added.

    ``bulk`` uses Oxigraph's bulk loader (for on-disk stores and big dumps). With ``progress``
    a terminal shows a bar over the bytes read; anything else gets a line per file on stderr.
    """
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

    paths = check_files(files)
    before = len(store)
    total = sum(p.stat().st_size for p in paths)
    live = progress and sys.stderr.isatty()
    with Progress(TextColumn("[bold]loading[/] {task.description}"), BarColumn(), DownloadColumn(),
                  TimeElapsedColumn(), disable=not live, transient=True) as bar:
        task = bar.add_task("", total=total)
        for i, p in enumerate(paths, 1):
            fmt = rdf_format(p)
            bar.update(task, description=p.name)
            to_graph = None
            if fmt not in QUAD_FORMATS:
                to_graph = ox.NamedNode(graph) if graph else ox.DefaultGraph()
            start = time.perf_counter()
            what = f"loading {p.name} ({_size(p.stat().st_size)}, file {i} of {len(paths)})"
            with phase(what, progress and not live), _open(p, lambda n: bar.advance(task, n)) as stream:
                try:
                    if bulk:
                        store.bulk_load(stream, fmt, to_graph=to_graph)
                    else:
                        store.load(stream, fmt, to_graph=to_graph)
                except SyntaxError as exc:
                    raise DataError(f"{p}: not valid {fmt.name}: {_one_line(exc)}") from None
                except (OSError, EOFError) as exc:
                    raise DataError(f"{p}: cannot read: {_one_line(exc)}") from None
            if live:
                bar.console.print(f"{what}: {time.perf_counter() - start:.1f} s", highlight=False)
    return len(store) - before  # quads new to the store


@contextmanager
def phase(what: str, progress: bool) -> Iterator[None]:
    """Say on stderr (with ``progress``) that a step of a load runs, then on the same line how long it took.

    The step is named once it has run for a second (at its end when shorter), so a bad file that fails at
    once leaves its error line alone.
    """
    if not progress:
        yield
        return
    start = time.perf_counter()
    said, lock = threading.Event(), threading.Lock()

    def say() -> None:
        with lock:
            said.set()
            print(f"{what}…", end="", file=sys.stderr, flush=True)
    timer = threading.Timer(1.0, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    except BaseException:
        with lock:
            timer.cancel()
            if said.is_set():
                print(file=sys.stderr, flush=True)  # the error starts a line of its own
        raise
    with lock:
        timer.cancel()
        took = f" {time.perf_counter() - start:.1f} s"
        print(took if said.is_set() else f"{what}…{took}", file=sys.stderr, flush=True)


def graph_quads(store: ox.Store) -> dict[str, int]:
    """Quads per named graph of ``store``, largest first."""
    counts = {str(row["g"].value): int(row["n"].value) for row in store.query(
        "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")}
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
