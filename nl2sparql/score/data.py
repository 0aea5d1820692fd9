"""Reading gold pools, question files and prediction files (JSONL).

* a pool line: ``{id, sparql, nl, nl_en, nl_variants, nl_en_variants, patterns,
  difficulty, split, ...}``;
* a question file line: ``{id, question, sparql}`` (``question_en`` optional);
* a prediction line: ``{id, sparql}`` (``sparql`` may be null: no prediction).

Ids are compared as strings. Every problem is a :class:`~nl2sparql.errors.DataError`
naming the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from ..errors import DataError
from ..fileio import iter_jsonl

#: A pool item belongs to every pattern whose weight reaches this value.
PATTERN_THRESHOLD = 0.5


@dataclass(slots=True)
class GoldItem:
    """One gold question with its SPARQL and what the reports group by."""

    id: str
    sparql: str
    question: str = ""
    question_en: str = ""
    variants: dict[str, str] = field(default_factory=dict)
    variants_en: dict[str, str] = field(default_factory=dict)
    patterns: dict[str, float] = field(default_factory=dict)
    difficulty: Optional[str] = None
    split: Optional[str] = None

    @property
    def pattern_labels(self) -> list[str]:
        """Pattern labels with weight >= :data:`PATTERN_THRESHOLD`, heaviest first."""
        return [k for k, w in sorted(self.patterns.items(), key=lambda kv: -kv[1])
                if w >= PATTERN_THRESHOLD]

    def text(self, lang: str = "it", variant: Optional[str] = None) -> str:
        """The question in ``it`` or ``en``, or one of its style variants."""
        if variant:
            pool = self.variants if lang == "it" else self.variants_en
            return pool.get(variant, "")
        return self.question if lang == "it" else (self.question_en or "")


def _need_id(source: str, number: int, obj: dict) -> str:
    value = obj.get("id")
    if value is None or (isinstance(value, str) and not value.strip()):
        raise DataError(f"{source} line {number}: missing \"id\"")
    return str(value)


def _str_dict(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items() if v} if isinstance(value, dict) else {}


def load_gold(path: Path, split: Optional[str] = None) -> list[GoldItem]:
    """Gold items from a pool or a question file, optionally one split only."""
    return gold_items(iter_jsonl(path), str(path), split)


def gold_items(numbered: Iterable[tuple[int, dict]], source: str = "gold",
               split: Optional[str] = None) -> list[GoldItem]:
    """Gold items from ``(line number, object)`` pairs; errors name ``source`` and the line."""
    items: list[GoldItem] = []
    seen: set[str] = set()
    for number, obj in numbered:
        if not isinstance(obj, dict):
            raise DataError(f"{source} line {number}: expected a JSON object")
        item_id = _need_id(source, number, obj)
        sparql = obj.get("sparql")
        if not isinstance(sparql, str) or not sparql.strip():
            raise DataError(f"{source} line {number}: item {item_id} has no \"sparql\"")
        if item_id in seen:
            raise DataError(f"{source} line {number}: duplicate id {item_id}")
        seen.add(item_id)
        patterns = obj.get("patterns") or {}
        if not isinstance(patterns, dict):
            raise DataError(f"{source} line {number}: \"patterns\" must be an object {{label: weight}}")
        try:
            weights = {str(k): float(v) for k, v in patterns.items()}
        except (TypeError, ValueError):
            raise DataError(f"{source} line {number}: pattern weights must be numbers") from None
        item = GoldItem(
            id=item_id, sparql=sparql,
            question=str(obj.get("nl") or obj.get("question") or ""),
            question_en=str(obj.get("nl_en") or obj.get("question_en") or ""),
            variants=_str_dict(obj.get("nl_variants")),
            variants_en=_str_dict(obj.get("nl_en_variants")),
            patterns=weights,
            difficulty=str(obj["difficulty"]) if obj.get("difficulty") else None,
            split=str(obj["split"]) if obj.get("split") else None,
        )
        if split is None or item.split == split:
            items.append(item)
    if not items:
        where = f" in split {split!r}" if split else ""
        raise DataError(f"{source}: no gold items{where}")
    return items


def load_predictions(path: Path) -> dict[str, Optional[str]]:
    """``{id: sparql}`` from a prediction file (null or empty SPARQL is kept as ``None``)."""
    return prediction_map(iter_jsonl(path), str(path))


def prediction_map(numbered: Iterable[tuple[int, dict]], source: str = "predictions") -> dict[str, Optional[str]]:
    """``{id: sparql}`` from ``(line number, object)`` pairs; errors name ``source`` and the line."""
    out: dict[str, Optional[str]] = {}
    for number, obj in numbered:
        if not isinstance(obj, dict):
            raise DataError(f"{source} line {number}: expected a JSON object")
        item_id = _need_id(source, number, obj)
        if item_id in out:
            raise DataError(f"{source} line {number}: duplicate prediction for id {item_id}")
        sparql = obj.get("sparql")
        if sparql is not None and not isinstance(sparql, str):
            raise DataError(f"{source} line {number}: \"sparql\" must be a string or null")
        out[item_id] = sparql if sparql and sparql.strip() else None
    return out
