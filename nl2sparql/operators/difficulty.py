"""Difficulty classifier: a structural score of the query → easy / medium / hard."""

from __future__ import annotations

from ..parallel import fork_map
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


def solve_rate(round_trip: dict | None) -> float | None:
    """The share of an item's generic questions the offline translator answered strictly (None: not tried)."""
    if not round_trip:
        return None
    parts = [v for v in round_trip.values() if isinstance(v, dict)] or [round_trip]
    return sum(bool(p.get("strict")) for p in parts) / len(parts)


#: How much an item the offline translator cannot solve adds to its structural score.
UNSOLVED_WEIGHT = 2.0


class DifficultyClassifier(Operator):
    """Adds ``difficulty`` and ``difficulty_score``: the structural score, plus :data:`UNSOLVED_WEIGHT`
    times the share of its generic questions the offline translator could not answer (the row's
    ``round_trip``, when the round-trip check ran). Config: ``threads`` (processes that score, default 1)."""

    input_keys = ("sparql", "patterns")
    output_keys = ("difficulty",)
    version = "2"

    def run(self, storage, input_key: str = "sparql", output_key: str = "difficulty") -> StepReport:
        rows = storage.read("dict")
        scores = fork_map(lambda row: difficulty_score(row[input_key], row.get("patterns")), rows, self.threads)
        for row, score in zip(rows, scores):
            solved = solve_rate(row.get("round_trip"))
            if solved is not None:
                score = round(score + UNSOLVED_WEIGHT * (1 - solved), 2)
            row[f"{output_key}_score"] = score
            row[output_key] = difficulty_label(score)
        self.progress(len(rows), len(rows))
        storage.write(rows)
        return StepReport(self.name, rows_in=len(rows), kept=len(rows))
