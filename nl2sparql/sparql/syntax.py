"""Syntax checking of SPARQL queries before they run anywhere.

The check parses the query with Oxigraph's SPARQL 1.1 parser (on an empty
store, so nothing is evaluated against data). SERVICE clauses are checked as
GRAPH clauses: their syntax is the same.
"""

from __future__ import annotations


import pyoxigraph as ox

from ..errors import QuerySyntaxError
from .lexer import tokenize
from .rewrite import complete_prefixes

_EMPTY = ox.Store()


def _service_as_graph(query: str) -> str:
    tokens = tokenize(query)
    for tok in reversed(tokens):
        if tok.kind == "word" and tok.upper == "SERVICE":
            query = query[:tok.start] + "GRAPH" + query[tok.start + len(tok.text):]
        elif tok.kind == "word" and tok.upper == "SILENT":
            query = query[:tok.start] + query[tok.start + len(tok.text):]
    return query


def check_syntax(query: str) -> None:
    """Raise :class:`QuerySyntaxError` (one line, with position) if ``query`` does not parse."""
    text, _ = complete_prefixes(query)
    try:
        result = _EMPTY.query(_service_as_graph(text))
        if hasattr(result, "__iter__") and not isinstance(result, bool):
            for _ in result:
                break
    except SyntaxError as exc:
        raise QuerySyntaxError(f"the query does not parse: {' '.join(str(exc).split())}") from None
    except OSError:
        pass


def parses(query: str) -> bool:
    """True when ``query`` parses."""
    try:
        check_syntax(query)
    except QuerySyntaxError:
        return False
    return True


