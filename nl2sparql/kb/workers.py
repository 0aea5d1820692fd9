"""Worker processes that run embedded-store queries under a real time limit.

Oxigraph cannot cancel a running query, so every embedded query runs in a
sandboxed worker process (:mod:`nl2sparql.sparql.sandbox`: no network, a
memory cap, gone with its parent); when the budget runs out the worker is
killed (a generated cartesian product cannot hang a pipeline) and a fresh one
takes its place. Workers are forked: an in-memory store is inherited
copy-on-write, an on-disk store is reopened read-only by each worker.
Several workers let callers run queries in parallel from threads.
"""

from __future__ import annotations

import time
from typing import Callable, Optional

import pyoxigraph as ox

from ..errors import QueryError, QuerySyntaxError, QueryTimeout
from ..sparql.rewrite import lateral_minus, lateral_optionals
from ..sparql.sandbox import WorkerPool as SandboxPool
from ..sparql.syntax import readable_parse_error
from .results import ResultTable, Term


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
    """Evaluate a prepared query on ``store`` and normalise the result (in the calling process).

    OPTIONAL groups run as ``LATERAL`` (:func:`~nl2sparql.sparql.rewrite.lateral_optionals`): the same
    answers, looked up per solution instead of read whole and joined by hash; so do the MINUS groups
    where that gives the same answers (:func:`~nl2sparql.sparql.rewrite.lateral_minus`).
    """
    start = time.perf_counter()
    result = store.query(lateral_optionals(lateral_minus(query)), default_graph=default_graph)
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


class _Query:
    """What a worker does: open the store once, then evaluate prepared queries on it."""

    def __init__(self, open_store: Callable[[], ox.Store], default_graph):
        self.open_store = open_store
        self.default_graph = default_graph

    def init(self) -> ox.Store:
        return self.open_store()

    def handle(self, store: ox.Store, msg):
        query, form, max_rows, reduce = msg
        try:
            table = run_on_store(store, query, form, self.default_graph, max_rows)
        except SyntaxError as exc:
            return ("parse", " ".join(str(exc).split()))
        return ("ok", table if reduce is None else reduce(table))


class WorkerPool:
    """Up to ``size`` sandboxed worker processes (see :mod:`nl2sparql.sparql.sandbox`); :meth:`run` is thread-safe."""

    def __init__(self, open_store: Callable[[], ox.Store], default_graph, size: int = 1,
                 memory: int | None = None):
        job = _Query(open_store, default_graph)
        self._pool = SandboxPool(job.init, job.handle, size=size, memory=memory)

    @property
    def memory(self) -> int:
        """The memory cap of each worker, in bytes."""
        return self._pool.memory

    def run(self, query: str, form: str, timeout: float, max_rows: int, reduce=None):
        """Run one prepared query in a worker (kill and replace it on timeout); its table, or ``reduce(table)``."""
        def stopped():
            return QueryTimeout(f"query stopped after its {timeout:g} s time budget "
                                "(raise it with --timeout, or make the query more selective)")
        status, payload = self._pool.call((query, form, max_rows, reduce), timeout, stopped)
        if status == "ok":
            return payload
        if status == "parse":
            raise QuerySyntaxError(f"the query does not parse: {readable_parse_error(payload, query)}")
        raise QueryError(f"the query failed: {payload}")

    def close(self) -> None:
        """Stop every worker."""
        self._pool.close()
