"""Row verification once columns are mapped: bags, sets, order runs and containment.

Rows are tuples of normalised keys (see :mod:`nl2sparql.score.normalize`).
Exact comparisons are hash-based; under a numeric tolerance, rows that are
not equal are bucketed by their non-numeric cells and paired inside each
bucket by bipartite matching. Every ``verify_*`` function returns ``None``
when the rows agree, else a one-line reason.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import Optional, Sequence

from .bipartite import max_matching
from .normalize import coarse_key, describe_key, keys_close

Row = tuple

#: Groups of rows larger than this are paired under tolerance only after
#: exact pairs are removed (exact search beyond it would be quadratic).
FULL_TOLERANT_SEARCH = 400


def same_bag(a: Counter, b: Counter) -> bool:
    """Equality of two counters built from iterables (C-level ``dict`` comparison)."""
    return len(a) == len(b) and dict.__eq__(a, b)


def _show(row: Row) -> str:
    return "(" + ", ".join(describe_key(k) for k in row) + ")"


def _dedupe(rows: Sequence[Row]) -> list[Row]:
    return list(dict.fromkeys(rows))


def _rows_close(a: Row, b: Row, tol: float) -> bool:
    return all(keys_close(x, y, tol) for x, y in zip(a, b))


def _coarse(row: Row) -> Row:
    return tuple(coarse_key(k) for k in row)


def _cover(left: Sequence[Row], right: Sequence[Row], tol: float, injective: bool) -> list[Row]:
    """Rows of ``left`` that find no close row in ``right`` (one-to-one when ``injective``)."""
    groups: dict[Row, list[Row]] = {}
    for r in right:
        groups.setdefault(_coarse(r), []).append(r)
    by_group: dict[Row, list[Row]] = {}
    for r in left:
        by_group.setdefault(_coarse(r), []).append(r)
    unmatched: list[Row] = []
    for key, rows in by_group.items():
        pool = groups.get(key, [])
        if not injective:
            unmatched.extend(r for r in rows if not any(_rows_close(r, q, tol) for q in pool))
            continue
        adj = [[k for k, q in enumerate(pool) if _rows_close(r, q, tol)] for r in rows]
        match = max_matching(adj, len(pool))
        unmatched.extend(r for r, m in zip(rows, match) if m < 0)
    return unmatched


def bag_equal(gold: Sequence[Row], pred: Sequence[Row], dup: bool, tol: float) -> bool:
    """Whether two row lists are equal as bags (``dup``) or sets, numerics within ``tol``."""
    if dup:
        if len(gold) != len(pred):
            return False
        g, p = Counter(gold), Counter(pred)
        if same_bag(g, p):
            return True
        if tol <= 0:
            return False
        rest_g, rest_p = list((g - p).elements()), list((p - g).elements())
        if not _cover(rest_g, rest_p, tol, True):
            return True
        return len(gold) <= FULL_TOLERANT_SEARCH and not _cover(gold, pred, tol, True)
    gs, ps = set(gold), set(pred)
    if gs == ps:
        return True
    if tol <= 0:
        return False
    return not _cover(list(gs - ps), list(ps), tol, False) and not _cover(list(ps - gs), list(gs), tol, False)


def verify_unordered(gold: Sequence[Row], pred: Sequence[Row], dup: bool, tol: float) -> Optional[str]:
    """Rows must agree as bags (``dup``) or as sets, in any order."""
    if bag_equal(gold, pred, dup, tol):
        return None
    g, p = (Counter(gold), Counter(pred)) if dup else (Counter(set(gold)), Counter(set(pred)))
    missing, extra = g - p, p - g
    parts = []
    if missing:
        parts.append(f"{sum(missing.values())} gold row(s) missing, e.g. {_show(next(iter(missing)))}")
    if extra:
        parts.append(f"{sum(extra.values())} unexpected row(s), e.g. {_show(next(iter(extra)))}")
    return "; ".join(parts) or "rows differ"


def _segments(rows: Sequence[Row], key_columns: Optional[tuple[int, ...]]) -> list[tuple[int, int]]:
    """Runs of consecutive rows with equal ORDER BY keys (single rows when the keys are unknown)."""
    if key_columns is None:
        return [(i, i + 1) for i in range(len(rows))]
    get = itemgetter(*key_columns)
    out = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or get(rows[i]) != get(rows[start]):
            out.append((start, i))
            start = i
    return out


def verify_ordered(gold: Sequence[Row], pred: Sequence[Row], key_columns: Optional[tuple[int, ...]],
                    dup: bool, tol: float) -> Optional[str]:
    """Rows must agree in order; rows whose ORDER BY keys tie may come in any order."""
    if not dup:
        gold, pred = _dedupe(gold), _dedupe(pred)
    if len(gold) != len(pred):
        return f"prediction has {len(pred)} rows, gold has {len(gold)}"
    if list(gold) == list(pred):
        return None
    for start, end in _segments(gold, key_columns):
        g, p = gold[start:end], pred[start:end]
        if g == p:
            continue
        if end - start == 1:
            if tol > 0 and _rows_close(g[0], p[0], tol):
                continue
        elif bag_equal(g, p, True, tol):
            continue
        if bag_equal(gold, pred, True, tol):
            return f"rows are out of order from row {start + 1} (order matters here)"
        return f"row {start + 1} differs: gold {_show(g[0])}, prediction {_show(p[0])}"
    return None


def verify_containment(gold: Sequence[Row], full: Sequence[Row], pred: Sequence[Row],
                        dup: bool, tol: float) -> Optional[str]:
    """As many rows as the (limited) gold, each found in the un-limited gold answer ``full``."""
    size_gold = len(gold) if dup else len(set(gold))
    pred_rows = list(pred) if dup else _dedupe(pred)
    if len(pred_rows) != size_gold:
        return (f"prediction has {len(pred_rows)} rows, gold has {size_gold} "
                "(gold has LIMIT without ORDER BY: any rows of its answer count)")
    full_bag = Counter(full) if dup else Counter(set(full))
    outside = Counter(pred_rows) - full_bag
    if not outside:
        return None
    if tol > 0:
        spare = list((full_bag - Counter(pred_rows)).elements()) if dup else list(full_bag)
        left = _cover(list(outside.elements()), spare, tol, dup)
        if not left:
            return None
        if dup and len(pred_rows) <= FULL_TOLERANT_SEARCH and not _cover(pred_rows, list(full), tol, True):
            return None
        outside = Counter(left)
    return (f"{sum(outside.values())} predicted row(s) are not in the gold answer, "
            f"e.g. {_show(next(iter(outside)))}")
