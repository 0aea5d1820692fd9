"""The embedded Oxigraph knowledge base (in memory or on disk).

The query default graph is the union of the data graphs: every graph except
those that stand in for a SERVICE endpoint (CompL-it by default). ``SERVICE
<iri>`` for a mapped service is answered from the local graph of that IRI;
an unmapped SERVICE fails clearly.

The union is *materialised* into the store's default graph when data is
loaded: Oxigraph evaluates a query over one graph several times faster than
over a list of graphs (3–4 s instead of > 20 s for some LiITA reference
queries on the full mirror). Stores built by ``kb load`` carry a small marker
file saying so; other stores fall back to passing the graph list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

import pyoxigraph as ox

from ..errors import DataError, QuerySyntaxError, UnmappedService
from ..namespaces import COMPLIT_SERVICE
from ..sparql.dialect import normalise_dialect
from ..sparql.rewrite import complete_prefixes, missing_prefixes, rewrite_services
from ..sparql.syntax import relocate_error
from .base import KnowledgeBase, Limits, check_read_query
from .loader import check_files, graph_quads, load_files, phase
from .results import ResultTable
from .services import ServiceMap
from .workers import WorkerPool

DEFAULT_SERVICES = {COMPLIT_SERVICE: COMPLIT_SERVICE}
MARKER = "nl2sparql-store.json"


def materialise_default_graph(store: ox.Store, service_graphs: set[str]) -> None:
    """Copy every data graph (not a service graph) into the store's default graph.

    SPARQL ``ADD <g> TO DEFAULT`` runs inside Oxigraph (about twice as fast as
    copying quads through Python on the full mirror).
    """
    for graph in list(store.named_graphs()):
        if isinstance(graph, ox.NamedNode) and graph.value not in service_graphs:
            store.update(f"ADD <{graph.value}> TO DEFAULT")


def require_store(path: Path) -> None:
    """Raise a one-line :class:`DataError` unless ``path`` is an Oxigraph store directory."""
    if not (Path(path) / "CURRENT").is_file():  # every RocksDB store (so every Oxigraph one) has it
        raise DataError(f"{path}: no Oxigraph store here; build one with `nl2sparql-gen kb load FILES… --store DIR`")


class EmbeddedKB(KnowledgeBase):
    """A pyoxigraph store answering LiITA queries.

    Build one with :meth:`in_memory` (from RDF files, e.g. the shipped sample)
    or :meth:`on_disk` (a store directory made by ``nl2sparql-gen kb load``).
    Queries run in ``workers`` worker processes so that a timeout really stops
    them.
    """

    def __init__(self, store: ox.Store, *, path: Path | None = None,
                 services: dict[str, str] | None = None, limits: Limits | None = None,
                 workers: int = 1, description: str = "embedded", union_materialised: bool = False,
                 service_map: ServiceMap | None = None, origin: Iterable[Path] | None = None):
        super().__init__(limits)
        self.store = store
        self.path = path
        #: Where the content came from (the store directory, or the RDF files loaded): keys its
        #: per-KB artefacts (:mod:`.artefacts`); ``None`` for a store made in code.
        self.origin = tuple(Path(p) for p in origin) if origin is not None else ((path,) if path else None)
        self.services = dict(DEFAULT_SERVICES if services is None else services)
        #: Service IRIs the user mapped to another endpoint: refused here (no network from the store).
        self.remote_services: dict[str, str] = {}
        if service_map is not None:
            for iri in service_map.endpoints:
                self.services.pop(iri, None)
            self.services.update(service_map.graphs)
            self.remote_services = dict(service_map.endpoints)
        self.description = description
        service_graphs = set(self.services.values())
        self.data_graphs = sorted(g.value for g in store.named_graphs() if g.value not in service_graphs)
        if union_materialised:
            default_graph = None  # the store's own default graph already holds the union
        else:
            default_graph = [ox.NamedNode(g) for g in self.data_graphs] + [ox.DefaultGraph()]
        if path is None:
            opener = lambda: store  # noqa: E731 - forked workers inherit the in-memory store
        else:
            opener = lambda: ox.Store.read_only(str(path))  # noqa: E731
        self._workers = WorkerPool(opener, default_graph, size=workers)

    # -- construction ----------------------------------------------------
    @classmethod
    def in_memory(cls, files: Iterable[Path], progress: bool = False, **kw) -> "EmbeddedKB":
        """Load ``files`` into a fresh in-memory store."""
        files = list(files)
        store = ox.Store()
        load_files(store, files, progress=progress)
        services = kw.get("services")
        materialise_default_graph(store, set((DEFAULT_SERVICES if services is None else services).values()))
        return cls(store, union_materialised=True, origin=files, **kw)

    @classmethod
    def on_disk(cls, path: Path, memory: bool = False, **kw) -> "EmbeddedKB":
        """Open a store directory read-only; ``memory`` copies it into memory first (see :mod:`.memory`)."""
        path = Path(path)
        require_store(path)
        try:
            store = ox.Store.read_only(str(path))
        except OSError as exc:
            raise DataError(f"{path}: cannot open the Oxigraph store: {' '.join(str(exc).split())}") from None
        kw.setdefault("description", f"store:{path}" + (" (in memory)" if memory else ""))
        marker = path / MARKER
        materialised = False
        meta: dict = {}
        if marker.is_file():
            meta = json.loads(marker.read_text(encoding="utf-8"))
            kw.setdefault("services", {s: s for s in meta.get("service_graphs", [])})
            materialised = meta.get("default_graph") == "union-of-data-graphs"
        if memory:
            from .memory import copy_to_memory, fits_in_memory
            if not fits_in_memory(path):
                raise DataError(f"{path}: the store is too large to copy into the free memory; "
                                "run without --memory")
            # the graphs materialise_default_graph() copied into the default graph when the store was built
            union = {g.value for g in store.named_graphs()
                     if g.value not in set(meta.get("service_graphs", []))} if materialised else None
            return cls(copy_to_memory(store, union), union_materialised=materialised, origin=(path,), **kw)
        return cls(store, path=path, union_materialised=materialised, **kw)

    @staticmethod
    def build(path: Path, files: Iterable[Path], graph: str | None = None, progress: bool = True,
              service_graphs: Iterable[str] = (COMPLIT_SERVICE,), graphs: dict | None = None) -> int:
        """Create (or extend) an on-disk store at ``path`` from ``files``; returns quads loaded.

        The default graph is then re-materialised as the union of the data
        graphs (every graph but ``service_graphs``). ``progress`` reports each
        file and step on stderr; ``graphs`` (a dict) receives the quads of each
        named graph of the store.
        """
        path = Path(path)
        files = check_files(files)  # before anything is created on disk
        path.mkdir(parents=True, exist_ok=True)
        service_graphs = set(service_graphs)
        marker = path / MARKER
        marker.unlink(missing_ok=True)  # an interrupted build must not look complete
        store = ox.Store(str(path))
        try:
            loaded = load_files(store, files, graph=graph, bulk=True, progress=progress)
            with phase("building the union default graph (the data graphs, queried as one)", progress):
                materialise_default_graph(store, service_graphs)
            with phase("compacting the store", progress):
                store.flush()
                store.optimize()
            if graphs is not None:
                graphs.update(graph_quads(store))
        finally:
            del store
        tmp = marker.with_suffix(".tmp")
        tmp.write_text(json.dumps({"default_graph": "union-of-data-graphs",
                                   "service_graphs": sorted(service_graphs)}), encoding="utf-8")
        tmp.replace(marker)
        return loaded

    # -- execution -------------------------------------------------------
    def prepare(self, query: str) -> str:
        """The query as the store runs it: missing standard prefixes added, comments dropped, SERVICE mapped."""
        query, _ = complete_prefixes(query)
        try:
            return rewrite_services(query, self.services)
        except UnmappedService:
            if not self._needs_remote(query):
                raise
        raise UnmappedService(
            "a SERVICE in the query is mapped to another endpoint ("
            + ", ".join(f"{k}={v}" for k, v in sorted(self.remote_services.items()))
            + "); only a remote KB (--endpoint) can call it: the embedded store makes no network calls")

    def _needs_remote(self, query: str) -> bool:
        """True when the query's services are all mapped once the user's endpoint entries count."""
        if not self.remote_services:
            return False
        try:
            rewrite_services(query, self.services, self.remote_services)
        except UnmappedService:
            return False
        return True

    def _run(self, query: str, form: str, timeout: float, max_rows: int, reduce=None):
        added = len(missing_prefixes(query))
        try:
            return self._workers.run(self.prepare(query), form, timeout, max_rows, reduce)
        except QuerySyntaxError as exc:
            # positions in the user's text, not in the text with the added PREFIX lines
            message = relocate_error(str(exc), added) if added else str(exc)
            if normalise_dialect(query)[1]:
                message += ("; it looks like Virtuoso/ARQ syntax (SELECT COUNT(?x) AS ?n): standard SPARQL writes "
                            "(COUNT(?x) AS ?n), and `nl2sparql validate --fix` rewrites it")
            raise QuerySyntaxError(message) from None

    def digest(self, query: str, reduce, *, timeout: float | None = None, max_rows: int | None = None):
        """``reduce(table)`` computed in the worker process that ran ``query`` (see the base class)."""
        return self._run(query, check_read_query(query), *self.budget(timeout, max_rows), reduce)

    def close(self) -> None:
        self._workers.close()
