"""Cell-level precision, recall and F1 (QALD / Text2SPARQL style).

An answer is the bag (or set) of cells of each column. Gold columns are
paired with predicted columns by greatest overlap (names ignored); the
overlap of the paired columns counts as correct cells. Precision divides by
the predicted cells, recall by the gold cells. Conventions for edge cases:

* ASK: 1 when the booleans agree, else 0;
* gold empty and prediction empty: 1; gold empty, prediction not: P 0, R 1, F1 0;
* prediction empty, gold not: 0;
* a gold with LIMIT and no ORDER BY (``gold_full`` given): predicted cells
  are correct when they occur in the un-limited answer, and recall is capped
  by the limited gold.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from .normalize import is_numeric_key, numbers_close, numeric_value
from .prepared import PreparedTable


@dataclass(frozen=True, slots=True)
class CellScores:
    """Precision, recall and F1 of one prediction, each in [0, 1]."""

    precision: float
    recall: float
    f1: float

    @staticmethod
    def of(correct: float, predicted: float, gold: float) -> "CellScores":
        """Scores from counts of correct, predicted and gold cells."""
        p = correct / predicted if predicted else 0.0
        r = correct / gold if gold else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return CellScores(p, r, f)


PERFECT = CellScores(1.0, 1.0, 1.0)
ZERO = CellScores(0.0, 0.0, 0.0)


def _bag(column: Sequence[str], duplicates: bool) -> Counter:
    return Counter(column) if duplicates else Counter(set(column))


def close_numbers_paired(a: list[float], b: list[float], tolerance: float) -> int:
    """How many values of ``a`` can be paired one-to-one with a close value of ``b``.

    Both lists are sorted here; a two-pointer sweep pairs each value with the
    smallest unused close partner, which is maximal for interval-shaped
    closeness.
    """
    a = sorted(a)
    b = sorted(b)
    i = j = paired = 0
    while i < len(a) and j < len(b):
        if numbers_close(a[i], b[j], tolerance):
            paired += 1
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return paired


def has_close(value: float, sorted_values: list[float], tolerance: float) -> bool:
    """Whether ``sorted_values`` holds a value close to ``value``."""
    pos = bisect_left(sorted_values, value)
    for k in (pos - 1, pos, pos + 1):
        if 0 <= k < len(sorted_values) and numbers_close(value, sorted_values[k], tolerance):
            return True
    return value != value and any(v != v for v in sorted_values)


def bag_overlap(a: Counter, b: Counter, tolerance: float) -> int:
    """Size of the intersection of two bags of keys, numeric keys paired within ``tolerance``.

    Under a tolerance, all numeric values are paired afresh by a sorted sweep
    (pairing equal values first could strand near neighbours).
    """
    if tolerance <= 0:
        return sum(min(a[k], b[k]) for k in a.keys() & b.keys())
    num_a = [numeric_value(k) for k, n in a.items() if is_numeric_key(k) for _ in range(n)]
    num_b = [numeric_value(k) for k, n in b.items() if is_numeric_key(k) for _ in range(n)]
    other = sum(min(a[k], b[k]) for k in a.keys() & b.keys() if not is_numeric_key(k))
    if not num_a or not num_b:
        return other
    return other + close_numbers_paired(num_a, num_b, tolerance)


def greedy_column_pairs(overlap: list[list[int]]) -> list[tuple[int, int, int]]:
    """Pair gold columns (rows of ``overlap``) with predicted columns, biggest overlap first.

    Returns ``(gold index, pred index, overlap)`` for pairs with positive overlap.
    """
    cells = sorted(((v, i, j) for i, row in enumerate(overlap) for j, v in enumerate(row) if v > 0),
                   key=lambda c: (-c[0], c[1] != c[2], c[1], c[2]))
    used_g: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for v, i, j in cells:
        if i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
        pairs.append((i, j, v))
    return pairs


def cell_scores(gold: PreparedTable, pred: PreparedTable, *, duplicates: bool = True,
                tolerance: float = 0.0, penalise_extra_columns: bool = True,
                gold_full: Optional[PreparedTable] = None) -> CellScores:
    """Cell-level P/R/F1 of ``pred`` against ``gold`` (see the module notes)."""
    if gold.form == "ask" or pred.form == "ask":
        same = gold.form == pred.form and bool(gold.boolean) == bool(pred.boolean)
        return PERFECT if same else ZERO
    if gold.n_rows == 0:
        return PERFECT if pred.n_rows == 0 else CellScores(0.0, 1.0, 0.0)
    if pred.n_rows == 0 or not pred.columns or not gold.columns:
        return ZERO
    reference = gold_full if gold_full is not None else gold
    ref_bags = [_bag(c, duplicates) for c in reference.columns]
    gold_sizes = [sum(_bag(c, duplicates).values()) for c in gold.columns] if gold_full is not None \
        else [sum(b.values()) for b in ref_bags]
    pred_bags = [_bag(c, duplicates) for c in pred.columns]
    overlap = [[bag_overlap(g, p, tolerance) for p in pred_bags] for g in ref_bags]
    pairs = greedy_column_pairs(overlap)
    correct = sum(min(v, gold_sizes[i]) for i, _, v in pairs)
    counted = {j for _, j, _ in pairs}
    unpaired = [j for j in range(len(pred_bags)) if j not in counted]
    if not penalise_extra_columns:
        # predicted columns beyond the gold width are extras and do not count
        unpaired = unpaired[:max(0, len(gold.columns) - len(counted))]
    predicted = sum(sum(pred_bags[j].values()) for j in [*counted, *unpaired])
    return CellScores.of(correct, predicted, sum(gold_sizes))
