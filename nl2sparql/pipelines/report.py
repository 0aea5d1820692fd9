"""Pool statistics: pattern and combination coverage, difficulty, splits (for ``run`` and ``pool stats``)."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ..patterns import LABELS


def strong_labels(item: dict, threshold: float = 0.5) -> tuple[str, ...]:
    """Labels with weight ≥ ``threshold``, sorted."""
    return tuple(sorted(k for k, v in item.get("patterns", {}).items() if v >= threshold))


def pool_stats(items: Iterable[dict]) -> dict:
    """Counts that describe a pool, in one pass (``items`` may be a stream)."""
    per_label: Counter = Counter()
    combos: Counter = Counter()
    difficulty: Counter = Counter()
    split: Counter = Counter()
    total = multi = english = 0
    for item in items:
        labels = strong_labels(item)
        total += 1
        per_label.update(labels)
        combos[labels] += 1
        multi += len(labels) >= 2
        difficulty[item.get("difficulty", "?")] += 1
        split[item.get("split", "?")] += 1
        english += bool(item.get("nl_en"))
    return {
        "items": total,
        "labels": {label: per_label.get(label, 0) for label in LABELS},
        "missing_labels": [label for label in LABELS if not per_label.get(label)],
        "combinations": len(combos),
        "multi_pattern_share": round(multi / total, 3) if total else 0.0,
        "top_combinations": [{"labels": list(k), "items": v} for k, v in combos.most_common(10)],
        "difficulty": dict(difficulty),
        "split": dict(split),
        "with_english": english,
    }
