"""Syntax checking of SPARQL queries before they run anywhere.

The check parses the query with Oxigraph's SPARQL 1.1 parser (on an empty
store, so nothing is evaluated against data). SERVICE clauses are checked as
GRAPH clauses: their syntax is the same.
"""

from __future__ import annotations

import re

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


def check_syntax(query: str) -> None:
    """Raise :class:`QuerySyntaxError` (one line, with position) if ``query`` does not parse."""
    text, added = complete_prefixes(query)
    try:
        result = _EMPTY.query(_service_as_graph(text))
        if hasattr(result, "__iter__") and not isinstance(result, bool):
            for _ in result:
                break
    except SyntaxError as exc:
        message = relocate_error(" ".join(str(exc).split()), len(added))
        raise QuerySyntaxError(f"the query does not parse: {message}") from None
    except OSError:
        pass


def parses(query: str) -> bool:
    """True when ``query`` parses."""
    try:
        check_syntax(query)
    except QuerySyntaxError:
        return False
    return True


