"""Queries and the knowledge base: execute, validate, fix, profile, load."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

from ..checks import check_text, check_timeout
from ..errors import DataError
from .kbs import KBLike, limits, using_kb
from .types import FixResult, Issue, KBInfo, LoadResult, Rows, ValidationResult


#: The most rows one answer of ``kb serve`` holds (an answer cut there says so).
SERVE_MAX_ROWS = 100_000


def _need_query(query: str) -> str:
    """``query`` when it is a non-empty text that is not SPARQL Update (refused with the KB's own message)."""
    from ..kb.base import check_read_query
    from ..sparql.lexer import query_form

    if not isinstance(query, str) or not query.strip():
        raise DataError("the query is empty: give a SPARQL SELECT, ASK, CONSTRUCT or DESCRIBE query")
    check_text(query, "query")
    if query_form(query) == "update":
        check_read_query(query)
    return query


def _issues(found) -> list[Issue]:
    return [Issue(i.rule, i.severity, i.message, i.fix) for i in found]


def execute(query: str, *, kb: KBLike = None, timeout: float | None = None,
            max_rows: int | None = None) -> Rows:
    """Run a read-only query on the KB and return its answer.

    SPARQL Update is refused, the query runs under a time budget (``timeout``
    seconds) and a row cap (``max_rows``; ``Rows.truncated`` says when it cut
    the answer), missing standard LiITA prefixes are added, and ``SERVICE`` is
    allowed only to the services the KB maps.
    """
    _need_query(query)
    timeout, max_rows = limits(kb, timeout, max_rows)
    with using_kb(kb) as store:
        table = store.execute(query, timeout=timeout, max_rows=max_rows)
        cap = max_rows if max_rows is not None else store.limits.max_rows
    return Rows.from_table(table, row_cap=cap)


def validate(query: str, *, kb: KBLike = None, execute: bool = True) -> ValidationResult:
    """Check a query against the LiITA rules (syntax, prefixes, graphs, SERVICE, entries, strings, direction).

    With ``execute`` it also runs on the KB: an error is an issue, and an
    empty answer is a warning with hints about what to change.
    """
    from ..translate.validate import is_blocking, validate as run_rules

    _need_query(query)
    if execute:
        with using_kb(kb) as store:
            found = run_rules(query, store)
    else:
        found = run_rules(query, None, execute=False)
    ran = execute and not any(i.rule in ("syntax", "execution") for i in found)
    return ValidationResult(query, not is_blocking(found), _issues(found), executed=ran)


def fix(query: str, *, kb: KBLike = None, execute: bool = False) -> FixResult:
    """Apply every safe fix (prefix IRIs, the ELITA graph IRI, ``STR()`` around tagged values, missing
    PREFIX lines, case-insensitive labels, Virtuoso/ARQ projections) and list them."""
    from ..translate.validate import repair

    before = validate(query, kb=kb, execute=execute)
    fixed, fixes = repair(query)
    after = validate(fixed, kb=kb, execute=execute).issues if fixes else before.issues
    return FixResult(query, fixed, fixes, before.issues, after)


def kb_info(*, kb: KBLike = None, timeout: float = 120.0) -> KBInfo:
    """Graphs with their triple counts, classes and properties (with counts) of the KB.

    Measured once per KB content and kept (see :mod:`nl2sparql.kb.artefacts`): later calls, in any
    process, read it."""
    from ..kb.profile import kb_profile

    with using_kb(kb) as store:
        profile = kb_profile(store, timeout=timeout).to_json()
    return KBInfo(profile["kb"], profile["triples"], profile["graphs"])


def load_store(files: Sequence[str | Path], store: str | Path, *, graph: str | None = None,
               progress: bool = False) -> LoadResult:
    """Build (or extend) an on-disk Oxigraph store from RDF dumps (``.ttl .trig .nt .nq``, optionally ``.gz``)."""
    from ..kb.embedded import EmbeddedKB

    start = time.perf_counter()
    graphs: dict[str, int] = {}
    quads = EmbeddedKB.build(Path(store), [Path(f) for f in files], graph=graph, progress=progress, graphs=graphs)
    return LoadResult(str(store), [str(f) for f in files], quads, round(time.perf_counter() - start, 2), graphs)


def serve_kb(*, store: str | Path | None = None, port: int | None = None, query_timeout: float = 60.0,
             max_rows: int | None = None, workers: int = 2, services=None,
             ready: Callable[[str], None] | None = None) -> None:
    """Serve the sample (or a store built by :func:`load_store`) read-only over SPARQL, on 127.0.0.1.

    The endpoint answers as the embedded store does, with its bounds (:mod:`nl2sparql.kb.endpoint`):
    each query stopped after ``query_timeout`` seconds and capped in memory, at most ``max_rows`` rows
    (default :data:`SERVE_MAX_ROWS`; an answer cut there says so), ``workers`` queries at once, ``SERVICE <CompL-it>`` answered from
    the store's own graph and no call out (``services``: more ``IRI=graph`` entries). Runs until
    Ctrl-C or SIGTERM; ``ready(url)`` is called once the endpoint answers. Use the URL as ``kb=``
    (or ``--endpoint``) from another process.
    """
    from ..kb import open_kb
    from ..kb.endpoint import serve_kb as serve

    check_timeout(query_timeout, "--query-timeout")
    rows = SERVE_MAX_ROWS if max_rows is None else max_rows
    with open_kb(store=store, timeout=query_timeout, max_rows=rows, workers=workers, services=services,
                 use_env=False) as kb:
        serve(kb, port=port, ready=ready)
