"""Worker processes that run embedded-store queries under a real time limit.

Oxigraph cannot cancel a running query, so every embedded query runs in a
worker process; when the budget runs out the worker is killed (a generated
cartesian product cannot hang a pipeline) and a fresh one takes its place.
Workers are forked: an in-memory store is inherited copy-on-write, an on-disk
store is reopened read-only by each worker. Several workers let callers run
queries in parallel from threads.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import threading
import time
from typing import Callable, Optional

import pyoxigraph as ox

from ..errors import QueryError, QuerySyntaxError, QueryTimeout
from .results import ResultTable, Term

_MP = mp.get_context("fork")


def to_term(t) -> Optional[Term]:
    """Convert a pyoxigraph term to a :class:`Term`."""
    if t is None:
        return None
    if isinstance(t, ox.NamedNode):
        return Term("iri", t.value)
    if isinstance(t, ox.Literal):
        return Term.literal(t.value, t.datatype.value, t.language)
    if isinstance(t, ox.BlankNode):
        return Term("bnode", t.value)
    return Term("triple", str(t))


def run_on_store(store: ox.Store, query: str, form: str, default_graph, max_rows: int) -> ResultTable:
    """Evaluate a prepared query on ``store`` and normalise the result (in the calling process)."""
    start = time.perf_counter()
    result = store.query(query, default_graph=default_graph)
    if form == "ask":
        return ResultTable("ask", boolean=bool(result), elapsed=time.perf_counter() - start)
    rows = []
    truncated = False
    if form == "select":
        variables = [v.value for v in result.variables]
        width = len(variables)
        for solution in result:
            if len(rows) >= max_rows:
                truncated = True
                break
            rows.append(tuple(to_term(solution[i]) for i in range(width)))
    else:
        variables = ["s", "p", "o"]
        for triple in result:
            if len(rows) >= max_rows:
                truncated = True
                break
            rows.append((to_term(triple.subject), to_term(triple.predicate), to_term(triple.object)))
    return ResultTable("construct" if form != "select" else "select", variables, rows,
                       truncated=truncated, elapsed=time.perf_counter() - start)


def _worker_main(conn, open_store: Callable[[], ox.Store], default_graph) -> None:
    store = open_store()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        query, form, max_rows = msg
        try:
            conn.send(("ok", run_on_store(store, query, form, default_graph, max_rows)))
        except SyntaxError as exc:
            conn.send(("parse", " ".join(str(exc).split())))
        except Exception as exc:  # reported to the caller as an execution error
            conn.send(("error", f"{type(exc).__name__}: {' '.join(str(exc).split())}"))


class _Worker:
    def __init__(self, open_store, default_graph):
        self.conn, child = _MP.Pipe()
        self.process = _MP.Process(target=_worker_main, args=(child, open_store, default_graph),
                                   daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(timeout=2)
        self.kill()


class WorkerPool:
    """Up to ``size`` worker processes; :meth:`run` is thread-safe."""

    def __init__(self, open_store: Callable[[], ox.Store], default_graph, size: int = 1):
        self._open_store = open_store
        self._default_graph = default_graph
        self._size = max(1, size)
        self._idle: "queue.LifoQueue[_Worker]" = queue.LifoQueue()
        self._spawned = 0
        self._lock = threading.Lock()
        self._all: list[_Worker] = []
        self._owner_pid = os.getpid()

    def _acquire(self) -> _Worker:
        with self._lock:
            if self._idle.empty() and self._spawned < self._size:
                self._spawned += 1
                worker = _Worker(self._open_store, self._default_graph)
                self._all.append(worker)
                return worker
        return self._idle.get()

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        with self._lock:
            self._all.remove(worker)
            fresh = _Worker(self._open_store, self._default_graph)
            self._all.append(fresh)
        return fresh

    def run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        """Run one prepared query in a worker; kill and replace it on timeout."""
        worker = self._acquire()
        try:
            try:
                worker.conn.send((query, form, max_rows))
                ready = worker.conn.poll(timeout)
            except (OSError, BrokenPipeError):
                ready = None
            if ready is False:
                worker = self._replace(worker)
                raise QueryTimeout(f"query stopped after its {timeout:g} s time budget "
                                   "(raise it with --timeout, or make the query more selective)")
            try:
                status, payload = worker.conn.recv()
            except (EOFError, OSError):
                worker = self._replace(worker)
                raise QueryError("the query engine process died while running the query "
                                 "(out of memory?); it was restarted") from None
        finally:
            self._idle.put(worker)
        if status == "ok":
            return payload
        if status == "parse":
            raise QuerySyntaxError(f"the query does not parse: {payload}")
        raise QueryError(f"the query failed: {payload}")

    def close(self) -> None:
        """Stop every worker."""
        if os.getpid() != self._owner_pid:
            return
        with self._lock:
            workers, self._all = self._all, []
        for w in workers:
            w.stop()
