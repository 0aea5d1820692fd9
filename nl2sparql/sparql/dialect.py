"""Virtuoso / Jena-ARQ projections rewritten into standard SPARQL 1.1.

Queries written for Virtuoso (the engine behind many LiITA examples) or Jena
ARQ often use two extensions that standard SPARQL, and so Oxigraph, rejects:

* a projected expression without parentheses: ``SELECT ?e COUNT(?x) AS ?n``
  → ``SELECT ?e (COUNT(?x) AS ?n)``;
* aggregates next to plain variables with no ``GROUP BY``, which those
  engines group by the plain variables implicitly → ``GROUP BY ?e`` is added.

:func:`normalise_dialect` makes both edits at token offsets (strings and
comments are never touched) and reports one line per edit. It changes
nothing in a query that has neither.
"""

from __future__ import annotations

from .lexer import Token, apply_edits, closing, tokenize

AGGREGATES = {"COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT"}
#: Solution modifiers that may follow the WHERE group (a GROUP BY goes before the first of them).
_AFTER_WHERE = ("GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "VALUES")


def _projection(tokens: list[Token]) -> tuple[int, int] | None:
    """Token range of the outermost SELECT's projection (after DISTINCT/REDUCED, up to WHERE or ``{``)."""
    select = next((i for i, t in enumerate(tokens) if t.upper == "SELECT" and t.kind == "word"), None)
    if select is None:
        return None
    start = select + 1
    if start < len(tokens) and tokens[start].upper in ("DISTINCT", "REDUCED"):
        start += 1
    end = next((k for k in range(start, len(tokens)) if tokens[k].upper in ("WHERE", "FROM") or tokens[k].text == "{"),
               None)
    return (start, end) if end is not None else None


def normalise_dialect(query: str) -> tuple[str, list[str]]:
    """Standard-SPARQL text for Virtuoso/ARQ projections, and one line per edit made."""
    tokens = tokenize(query)
    span = _projection(tokens)
    if span is None:
        return query, []
    start, end = span
    edits: list[tuple[int, int, str]] = []
    fixes: list[str] = []
    plain: list[str] = []
    aggregated = False
    k = start
    while k < end:
        tok = tokens[k]
        if tok.kind == "var":
            plain.append(tok.text)
            k += 1
            continue
        if tok.text == "(":  # already standard: (expr AS ?v)
            close = closing(tokens, k)
            if close is None:
                return query, []
            aggregated |= any(t.upper in AGGREGATES for t in tokens[k:close])
            k = close + 1
            continue
        # a bare expression: NAME( … ) AS ?v
        if tok.kind in ("word", "pname") and k + 1 < end and tokens[k + 1].text == "(":
            close = closing(tokens, k + 1)
            if close is None or close + 2 >= len(tokens) or tokens[close + 1].upper != "AS" \
                    or tokens[close + 2].kind != "var":
                return query, []
            var = tokens[close + 2]
            text = query[tok.start:var.start + len(var.text)]
            edits.append((tok.start, var.start + len(var.text), f"({text})"))
            fixes.append(f"SELECT {text} → ({text})")
            aggregated |= any(t.upper in AGGREGATES for t in tokens[k:close])
            k = close + 3
            continue
        return query, []  # something this normaliser does not know: leave the query alone
    if aggregated and plain and not any(t.upper == "GROUP" for t in tokens[end:]):
        at = _group_by_position(query, tokens, end)
        if at is not None:
            edits.append((at, at, f"\nGROUP BY {' '.join(plain)}\n"))
            fixes.append(f"added GROUP BY {' '.join(plain)} (the implicit grouping of Virtuoso and ARQ)")
    return apply_edits(query, edits), fixes


def _group_by_position(query: str, tokens: list[Token], where: int) -> int | None:
    """Offset where a GROUP BY goes: before the first solution modifier after the WHERE group, else at the end."""
    brace = next((k for k in range(where, len(tokens)) if tokens[k].text == "{"), None)
    end = closing(tokens, brace) if brace is not None else None
    if end is None:
        return None
    modifier = next((t for t in tokens[end + 1:] if t.upper in _AFTER_WHERE), None)
    return modifier.start if modifier is not None else tokens[end].start + 1
