"""Question generator: Italian and English questions in four personas from each query's plan.

Template realisation from the catalogue's fragments (no LLM); surface forms
vary with a per-item RNG seeded by the run seed and the candidate id, so the
same run gives the same questions. The LLM question generator plugs into the
same keys (see :mod:`nl2sparql.operators.llm`).
"""

from __future__ import annotations

import random

from ..patterns.base import Fragment
from ..patterns.phrasing import realise_all
from ..parallel import fork_imap
from .base import Operator, StepReport


class QuestionGenerator(Operator):
    """Adds ``nl``, ``nl_variants``, ``nl_en``, ``nl_en_variants``. Config: ``seed``, ``threads`` (processes
    that phrase, default 1; the questions do not depend on it)."""

    input_keys = ("cid", "shape", "fragments")
    output_keys = ("nl", "nl_variants", "nl_en", "nl_en_variants")

    def run(self, storage, input_key: str = "fragments", output_key: str = "nl") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        seed = self.config.get("seed", 0)
        def phrase(row: dict) -> dict:
            rng = random.Random(f"{seed}:q:{row['cid']}")
            fragments = [Fragment(f["kind"], f["text"]) for f in row[input_key]]
            return realise_all(fragments, row["shape"], rng, row.get("word"), row.get("limit"))

        phrased = fork_imap(phrase, rows, self.threads)
        for i, (row, questions) in enumerate(zip(rows, phrased)):
            row[output_key] = questions["it"]["generic"]
            row[f"{output_key}_variants"] = questions["it"]
            row[f"{output_key}_en"] = questions["en"]["generic"]
            row[f"{output_key}_en_variants"] = questions["en"]
            self.progress(i + 1, len(rows))
        storage.write(rows)
        report.kept = len(rows)
        return report
