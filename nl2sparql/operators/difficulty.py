"""Difficulty classifier: a structural score of the query → easy / medium / hard."""

from __future__ import annotations

from ..sparql.features import analyze
from .base import Operator, StepReport


def difficulty_score(sparql: str, patterns: dict[str, float] | None = None) -> float:
    """Triples, filters, SERVICE, aggregates, property paths and pattern count, weighted."""
    f = analyze(sparql)
    strong = [k for k, v in (patterns or {}).items() if v >= 0.5]
    score = 0.25 * f.triples + 0.5 * f.filters + 1.5 * bool(f.services) + 1.0 * bool(f.aggregates)
    score += 1.0 * f.group_by + 0.75 * ("HAVING" in f.words) + 0.5 * len(strong)
    score += 1.0 * any(t in sparql for t in ("+ ?", "* ?")) + 0.5 * bool(f.graphs or f.graph_variable)
    return round(score, 2)


def difficulty_label(score: float) -> str:
    """Bucket a score: < 4 easy, < 7 medium, else hard."""
    return "easy" if score < 4 else "medium" if score < 7 else "hard"


class DifficultyClassifier(Operator):
    """Adds ``difficulty`` and ``difficulty_score``."""

    input_keys = ("sparql", "patterns")
    output_keys = ("difficulty",)

    def run(self, storage, input_key: str = "sparql", output_key: str = "difficulty") -> StepReport:
        rows = storage.read("dict")
        for row in rows:
            score = difficulty_score(row[input_key], row.get("patterns"))
            row[f"{output_key}_score"] = score
            row[output_key] = difficulty_label(score)
        self.progress(len(rows), len(rows))
        storage.write(rows)
        return StepReport(self.name, rows_in=len(rows), kept=len(rows))
