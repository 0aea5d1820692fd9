"""Pool statistics: pattern and combination coverage, difficulty, splits (for ``run`` and ``pool stats``)."""

from __future__ import annotations

from collections import Counter

from ..patterns import LABELS


def strong_labels(item: dict, threshold: float = 0.5) -> tuple[str, ...]:
    """Labels with weight ≥ ``threshold``, sorted."""
    return tuple(sorted(k for k, v in item.get("patterns", {}).items() if v >= threshold))


def pool_stats(items: list[dict]) -> dict:
    """Counts that describe a pool."""
    per_label = Counter(label for item in items for label in strong_labels(item))
    combos = Counter(strong_labels(item) for item in items)
    multi = sum(1 for item in items if len(strong_labels(item)) >= 2)
    return {
        "items": len(items),
        "labels": {label: per_label.get(label, 0) for label in LABELS},
        "missing_labels": [label for label in LABELS if not per_label.get(label)],
        "combinations": len(combos),
        "multi_pattern_share": round(multi / len(items), 3) if items else 0.0,
        "top_combinations": [{"labels": list(k), "items": v} for k, v in combos.most_common(10)],
        "difficulty": dict(Counter(item.get("difficulty", "?") for item in items)),
        "split": dict(Counter(item.get("split", "?") for item in items)),
        "with_english": sum(1 for item in items if item.get("nl_en")),
    }
