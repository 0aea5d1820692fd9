"""Pool writer: the final JSONL pool (reference format superset), trimmed to the target size."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..fileio import write_jsonl
from .base import Operator, StepReport

POOL_FIELDS = ("id", "sparql", "nl", "nl_variants", "patterns", "nl_en", "nl_en_variants", "result_count",
               "answer_signature", "difficulty", "provenance", "split")


#: The share of a pool in its evaluation splits (dev and test).
EVAL_SHARE = 0.2


def split_of(key: str, dev: float = 0.1, test: float = 0.1) -> str:
    """A stable train/dev/test assignment from a key's hash."""
    x = int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if x < test else "dev" if x < test + dev else "train"


def split_of_row(row: dict, empty_in_eval: bool) -> str:
    """A row's split; with ``empty_in_eval`` an item whose right answer is empty goes to dev or test only."""
    if empty_in_eval and row.get("empty_answer"):
        return split_of(row["cid"], dev=0.5, test=0.5)
    return split_of(row["cid"])


class PoolWriter(Operator):
    """Config: ``out`` (path), ``target`` (max items), ``seed``, ``kb`` (description),
    ``id_prefix``, ``operators`` (name → version, for provenance), ``provenance_fields``
    (row fields also copied into provenance when present, e.g. the LLM layer's ``judge``),
    ``empty_in_eval`` (items whose right answer is empty go to dev and test only).

    An item whose right answer is empty carries ``empty_answer``: why (``absent_fact``: the
    named word lacks the fact asked; ``answer_no``: a yes/no question answered no)."""

    input_keys = ("sparql", "nl", "nl_variants", "nl_en", "nl_en_variants", "patterns", "result_count",
                  "answer_signature", "difficulty")

    def run(self, storage, input_key: str = "sparql") -> StepReport:
        rows = storage.read("dict")
        target = int(self.config.get("target", len(rows)))
        prefix = self.config.get("id_prefix", f"gen-s{self.config.get('seed', 0)}")
        items = []
        for n, row in enumerate(rows[:target], 1):
            item = {
                "id": f"{prefix}-{n:05d}",
                "sparql": row[input_key],
                "nl": row["nl"], "nl_variants": row["nl_variants"],
                "patterns": row["patterns"],
                "nl_en": row["nl_en"], "nl_en_variants": row["nl_en_variants"],
                "result_count": row["result_count"], "answer_signature": row["answer_signature"],
                "difficulty": row["difficulty"],
                "provenance": {"kb": self.config.get("kb", "unknown"), "seed": self.config.get("seed", 0),
                               "candidate": row["cid"], "shape": row.get("shape"), "slots": row.get("slots", {}),
                               "mentions": row.get("mentions", []),
                               "composed_patterns": row.get("labels", {}),
                               "question_parts": [f["kind"] for f in row["fragments"]] if row.get("fragments") else None,
                               "generator": row.get("generator", "template"),
                               "operators": self.config.get("operators", {})},
                "split": split_of_row(row, bool(self.config.get("empty_in_eval"))),
            }
            if row.get("empty_answer"):
                item["empty_answer"] = row["empty_answer"]
            item["provenance"].update({k: row[k] for k in ("round_trip", *self.config.get("provenance_fields", ()))
                                       if k in row})
            items.append(item)
        self.progress(len(rows), len(rows))
        storage.write(items)
        out = self.config.get("out")
        if out:
            write_jsonl(Path(out), items)
        report = StepReport(self.name, rows_in=len(rows), kept=len(items))
        if len(rows) > target:
            report.rejected["over_target"] = len(rows) - target
        return report
