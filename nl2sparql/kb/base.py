"""The one execution interface every knowledge base implements.

``select``, ``ask`` and ``construct`` (and ``execute``, which dispatches on the
query form) return a :class:`~nl2sparql.kb.results.ResultTable`. Every backend
applies the same safety rules before a query runs: the query must be a read
query (SPARQL Update is refused), it must parse, and it runs under a time
budget and a row cap.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, TypeVar

from ..checks import MAX_ROWS, MAX_TIMEOUT, check_count, check_text, check_timeout  # noqa: F401 - re-exported
from ..errors import QueryError, UpdateRefused
from ..sparql.lexer import query_form
from ..sparql.syntax import check_nesting
from .results import ResultTable

T = TypeVar("T")

DEFAULT_TIMEOUT = 20.0
DEFAULT_MAX_ROWS = 10_000
@dataclass(frozen=True)
class Limits:
    """Per-query time budget (seconds) and row cap, checked when made."""

    timeout: float = DEFAULT_TIMEOUT
    max_rows: int = DEFAULT_MAX_ROWS

    def __post_init__(self):
        object.__setattr__(self, "timeout", check_timeout(self.timeout))
        object.__setattr__(self, "max_rows", check_count(self.max_rows, "--max-rows"))


def check_read_query(query: str, expected: str | None = None) -> str:
    """Return the form of a read query; refuse updates, unknown or mismatched forms and deep nesting."""
    if not isinstance(query, str) or not query.strip():
        from ..errors import QuerySyntaxError
        raise QuerySyntaxError("the query is empty")
    check_text(query, "query")
    check_nesting(query)
    form = query_form(query)
    if form == "update":
        raise UpdateRefused("SPARQL Update is refused: the knowledge base is read-only "
                            "(use SELECT, ASK, CONSTRUCT or DESCRIBE)")
    if form == "unknown":
        from ..errors import QuerySyntaxError
        raise QuerySyntaxError("not a SPARQL query: expected SELECT, ASK, CONSTRUCT or DESCRIBE "
                               "after the PREFIX lines")
    if expected is not None and form != expected and not (expected == "construct" and form == "describe"):
        raise QueryError(f"expected a {expected.upper()} query, got {form.upper()}")
    return form


class KnowledgeBase(ABC):
    """A SPARQL-answering knowledge base (embedded store or remote endpoint)."""

    #: Short description for provenance records and ``kb info`` (e.g. ``sample``).
    description: str = "kb"

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()

    @abstractmethod
    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        """Execute a checked read query and return its normalised table."""

    def execute(self, query: str, *, timeout: float | None = None,
                max_rows: int | None = None) -> ResultTable:
        """Run any read query; the result's ``form`` tells which kind it was."""
        return self._run(query, check_read_query(query), *self.budget(timeout, max_rows))

    def budget(self, timeout: float | None, max_rows: int | None) -> tuple[float, int]:
        """The checked time budget and row cap of one query (``None``: the KB's defaults)."""
        return (self.limits.timeout if timeout is None else check_timeout(timeout),
                self.limits.max_rows if max_rows is None else check_count(max_rows, "--max-rows"))

    def digest(self, query: str, reduce: Callable[[ResultTable], T], *, timeout: float | None = None,
               max_rows: int | None = None) -> T:
        """``reduce`` applied to the answer of ``query`` (what :meth:`execute` returns).

        An embedded store applies it in its worker process, so only the (small)
        result of ``reduce`` comes back, not every row; ``reduce`` must then be
        picklable (a module-level function or a ``functools.partial`` of one).
        An exception in ``reduce`` is reported as a :class:`QueryError`.
        """
        table = self.execute(query, timeout=timeout, max_rows=max_rows)
        try:
            return reduce(table)
        except QueryError:
            raise
        except Exception as exc:  # noqa: BLE001 - the same report as from a worker
            raise QueryError(f"the query failed: {type(exc).__name__}: {' '.join(str(exc).split())}") from None

    def select(self, query: str, **kw) -> ResultTable:
        """Run a SELECT query."""
        check_read_query(query, "select")
        return self.execute(query, **kw)

    def ask(self, query: str, **kw) -> bool:
        """Run an ASK query and return its boolean."""
        check_read_query(query, "ask")
        return bool(self.execute(query, **kw).boolean)

    def construct(self, query: str, **kw) -> ResultTable:
        """Run a CONSTRUCT or DESCRIBE query; the table has columns ``s p o``."""
        check_read_query(query, "construct")
        return self.execute(query, **kw)

    def close(self) -> None:
        """Release workers, files and connections."""

    def with_limits(self, limits: Limits) -> "KnowledgeBase":
        """This KB with other default limits for the queries that name none (its workers and connections
        shared; closing the view leaves them open)."""
        return LimitedKB(self, limits)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LimitedKB(KnowledgeBase):
    """A view of a KB with its own default limits (see :meth:`KnowledgeBase.with_limits`): one shared KB serves
    callers whose limits differ, and every query a caller makes, its own and those made for it (validation,
    hints, counts), runs under the caller's limits."""

    def __init__(self, kb: KnowledgeBase, limits: Limits):
        super().__init__(limits)
        self.kb = kb.kb if isinstance(kb, LimitedKB) else kb
        self.description = self.kb.description

    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        return self.kb._run(query, form, timeout, max_rows)

    def digest(self, query: str, reduce: Callable[[ResultTable], T], *, timeout: float | None = None,
               max_rows: int | None = None) -> T:
        """``reduce`` of the answer, where the KB computes it (see :meth:`KnowledgeBase.digest`)."""
        return self.kb.digest(query, reduce, timeout=self.limits.timeout if timeout is None else timeout,
                              max_rows=self.limits.max_rows if max_rows is None else max_rows)

    def __getattr__(self, name: str):
        if name == "kb":  # not set yet (a copy being made): no backend to ask
            raise AttributeError(name)
        return getattr(self.kb, name)  # what the backend has beyond the interface (prepare, data_graphs, ...)
