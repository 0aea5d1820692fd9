"""Syntax checking of SPARQL queries before they run anywhere.

The check never evaluates a query where it could do harm. The nesting depth
is bounded first (Oxigraph's recursive parser overflows its stack on a few
thousand nested brackets), then Oxigraph's SPARQL 1.1 parser reads the query
in a sandboxed worker process (:mod:`.sandbox`: no network, a memory cap, a
deadline) on an empty store. pyoxigraph has no parse-only call, and
``Store.query`` may start evaluating (a SERVICE call happens before any
result is read), so the sandbox is what makes it safe; SERVICE clauses are
also parsed as GRAPH clauses (their syntax is the same).
"""

from __future__ import annotations

import re
import threading

from ..errors import QuerySyntaxError, QueryTimeout, ResourceLimit
from .lexer import nesting_depth, tokenize
from .rewrite import complete_prefixes

#: Deepest bracket nesting accepted (real LiITA queries stay under 20).
MAX_NESTING = 100
#: Seconds the parser worker may take for one query.
PARSE_TIMEOUT = 15.0

_parser = None
_parser_lock = threading.Lock()


def check_nesting(query: str) -> None:
    """Raise :class:`ResourceLimit` (one line) when brackets nest deeper than :data:`MAX_NESTING`."""
    depth = nesting_depth(query)
    if depth > MAX_NESTING:
        raise ResourceLimit(f"the query nests brackets {depth} levels deep; at most {MAX_NESTING} are accepted "
                            "(flatten the nested groups or expressions)")


def _service_as_graph(query: str) -> str:
    tokens = tokenize(query)
    for tok in reversed(tokens):
        if tok.kind == "word" and tok.upper == "SERVICE":
            query = query[:tok.start] + "GRAPH" + query[tok.start + len(tok.text):]
        elif tok.kind == "word" and tok.upper == "SILENT":
            query = query[:tok.start] + query[tok.start + len(tok.text):]
    return query


_POSITION = re.compile(r"\berror at (\d+):(\d+)")


def relocate_error(message: str, lines_added: int) -> str:
    """Shift the ``error at LINE:COL`` of a parser message back over ``lines_added`` prepended lines.

    :func:`~nl2sparql.sparql.rewrite.complete_prefixes` prepends one line per
    missing PREFIX; the user should see positions in the text they wrote.
    """
    if not lines_added:
        return message

    def shift(m: re.Match) -> str:
        line = int(m.group(1))
        return f"error at {line - lines_added}:{m.group(2)}" if line > lines_added else m.group(0)
    return _POSITION.sub(shift, message, count=1)


def _empty_store():
    import pyoxigraph as ox
    return ox.Store()


def _parse(store, text: str):
    """In the worker: ``("parse", message)`` when Oxigraph cannot parse ``text``, else ``("ok", None)``."""
    try:
        store.query(text)  # results are never read; the store is empty and the process has no network
    except SyntaxError as exc:
        return ("parse", " ".join(str(exc).split()))
    except Exception:  # noqa: BLE001 - an evaluation error: the text parsed
        pass
    return ("ok", None)


def _parser_pool():
    global _parser
    with _parser_lock:
        if _parser is None:
            from .sandbox import WorkerPool
            _parser = WorkerPool(_empty_store, _parse, size=1, memory=512 << 20)
        return _parser


def check_syntax(query: str) -> None:
    """Raise :class:`QuerySyntaxError` (one line, with position) if ``query`` does not parse.

    Also raises :class:`ResourceLimit` for a query nested too deeply to parse.
    """
    check_nesting(query)
    text, added = complete_prefixes(query)

    def too_slow():
        return QueryTimeout(f"the query could not be parsed within {PARSE_TIMEOUT:g} s")
    status, message = _parser_pool().call(_service_as_graph(text), PARSE_TIMEOUT, too_slow)
    if status == "parse":
        message = relocate_error(message, len(added))
        raise QuerySyntaxError(f"the query does not parse: {message}")


def parses(query: str) -> bool:
    """True when ``query`` parses."""
    try:
        check_syntax(query)
    except (QuerySyntaxError, ResourceLimit):
        return False
    return True
