"""Pattern tagger: structural tags from the query itself, merged with what the composer built."""

from __future__ import annotations

from ..patterns.tagger import tag_query
from ..parallel import fork_imap
from .base import Operator, StepReport


class PatternTagger(Operator):
    """Writes ``patterns`` (``{LABEL: weight}``): the structural tagger's weights, raised to the
    composer's where the composer knows better (it built the query). Config: ``threads`` (processes that
    tag, default 1)."""

    input_keys = ("sparql",)
    output_keys = ("patterns",)

    def run(self, storage, input_key: str = "sparql", output_key: str = "patterns") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        agree = 0
        tagged = fork_imap(lambda row: tag_query(row[input_key]), rows, self.threads)
        for i, (row, tags) in enumerate(zip(rows, tagged)):
            composed = row.get("labels") or {}
            strong_tags = {k for k, v in tags.items() if v >= 0.5}
            strong_comp = {k for k, v in composed.items() if v >= 0.5}
            agree += strong_tags == strong_comp
            merged = dict(tags)
            for label, weight in composed.items():
                merged[label] = max(weight, merged.get(label, 0.0))
            row[output_key] = dict(sorted(merged.items(), key=lambda kv: (-kv[1], kv[0])))
            self.progress(i + 1, len(rows))
        storage.write(rows)
        report.kept = len(rows)
        report.extra["tagger_agrees_with_composer"] = agree
        return report
