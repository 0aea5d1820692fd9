"""Small read-only helpers the web UI needs: browse a pool, list the pattern labels."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError


def pool_items(pool: str | Path, *, limit: int | None = None) -> list[dict]:
    """The items of a pool (a file, or a shipped pool's name), in file order; at most ``limit`` of them."""
    from ..fileio import read_pool
    from .pools import resolve_pool

    if limit is not None and limit < 0:
        raise ConfigError("limit must be 0 or more")
    items, _ = read_pool(resolve_pool(pool))
    return items if limit is None else items[:limit]


def pattern_labels() -> list[str]:
    """The labels of the LiITA query-pattern catalogue, in catalogue order."""
    from ..patterns import LABELS
    return list(LABELS)


def sparql_tokens(query: str) -> list[tuple[str, str]]:
    """The query cut into ``(kind, text)`` pieces that join back into it exactly (for highlighting).

    Kinds: ``keyword`` (SELECT, WHERE, FILTER, ``a``, functions…), ``var``, ``iri``, ``pname``,
    ``string``, ``number``, ``langtag``, ``comment``, ``ws``, ``op`` and ``other``.
    """
    from ..sparql.lexer import tokenize
    return [("keyword" if t.kind == "word" else t.kind, t.text) for t in tokenize(query or "", keep_trivia=True)]
