"""Token-level facts about the outer query that the scorer needs.

The checks look only at the *outer* query's solution modifiers (brace depth
0), so an ``ORDER BY … LIMIT`` inside a sub-select does not make the whole
answer ordered, and a ``LIMIT`` inside a string or a comment is never seen:
everything goes through :func:`nl2sparql.sparql.lexer.tokenize`.
"""

from __future__ import annotations

from typing import Optional

from ..sparql.lexer import Token, tokenize

_MODIFIER_STOP = {"LIMIT", "OFFSET", "VALUES", "GROUP", "HAVING", "ORDER"}


def _outer_tokens(tokens: list[Token]) -> list[tuple[int, Token]]:
    """``(index, token)`` for every token at brace depth 0."""
    out = []
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.kind == "op" and tok.text == "{":
            depth += 1
            continue
        if tok.kind == "op" and tok.text == "}":
            depth = max(0, depth - 1)
            continue
        if depth == 0:
            out.append((i, tok))
    return out


def outer_order_by(query: str) -> bool:
    """True when the outer query has an ORDER BY clause."""
    outer = [t for _, t in _outer_tokens(tokenize(query))]
    return any(a.kind == "word" and a.upper == "ORDER" and b.kind == "word" and b.upper == "BY"
               for a, b in zip(outer, outer[1:]))


def outer_limit(query: str) -> bool:
    """True when the outer query has a LIMIT or OFFSET clause."""
    return any(t.kind == "word" and t.upper in ("LIMIT", "OFFSET")
               for _, t in _outer_tokens(tokenize(query)))


def order_variables(query: str) -> Optional[list[str]]:
    """The variables of the outer ORDER BY, or ``None`` when it is not that simple.

    ``ORDER BY ?a DESC(?b) ASC(?c)`` gives ``["a", "b", "c"]``; any other
    expression (``ORDER BY STRLEN(?x)``) gives ``None``, and so does a query
    without ORDER BY.
    """
    outer = [t for _, t in _outer_tokens(tokenize(query))]
    start = None
    for i in range(len(outer) - 1):
        if outer[i].kind == "word" and outer[i].upper == "ORDER" and outer[i + 1].upper == "BY":
            start = i + 2
    if start is None:
        return None
    names: list[str] = []
    i = start
    while i < len(outer):
        tok = outer[i]
        if tok.kind == "word" and tok.upper in _MODIFIER_STOP:
            break
        if tok.kind == "var":
            names.append(tok.text[1:])
            i += 1
            continue
        if tok.kind == "word" and tok.upper in ("ASC", "DESC"):
            i += 1
            tok = outer[i] if i < len(outer) else tok
        if (tok.kind == "op" and tok.text == "(" and i + 2 < len(outer)
                and outer[i + 1].kind == "var" and outer[i + 2].text == ")"):
            names.append(outer[i + 1].text[1:])
            i += 3
            continue
        return None
    return names or None


def strip_outer_limit(query: str) -> str:
    """The query without its outer ``LIMIT n`` and ``OFFSET n`` (text otherwise unchanged)."""
    tokens = tokenize(query, keep_trivia=True)
    drop: set[int] = set()
    significant = [(i, t) for i, t in _outer_tokens(tokens) if t.kind not in ("ws", "comment")]
    for pos, (i, tok) in enumerate(significant):
        if tok.kind == "word" and tok.upper in ("LIMIT", "OFFSET"):
            drop.add(i)
            if pos + 1 < len(significant) and significant[pos + 1][1].kind == "number":
                drop.add(significant[pos + 1][0])
    return "".join(t.text for i, t in enumerate(tokens) if i not in drop)
