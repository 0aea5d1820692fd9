"""Quality check: every question (four personas, two languages) and every gold query is checked for defects.

The defect classes are those of the question audit (see :mod:`.defects`). A row with a defect is
rejected with the reason ``defect_<class>`` (the first one found), so no defective item reaches a
pool; the report counts every defect found by class and by key, and the persona it was found in, so
a generator change that brings a defect back shows up in the manifest (and the pool tests fail on it).
"""

from __future__ import annotations

from collections import Counter

from ..parallel import fork_imap
from .base import Operator, StepReport
from .defects import item_defects


class QualityCheck(Operator):
    """Rejects rows with a defective question or gold. Config: ``reject`` (default true: false only counts),
    ``threads`` (processes that check rows, default 1)."""

    input_keys = ("cid", "sparql", "shape", "fragments", "nl_variants", "nl_en_variants", "patterns")

    def run(self, storage, input_key: str = "sparql") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        reject = bool(self.config.get("reject", True))
        by_class, by_key, by_persona = Counter(), Counter(), Counter()
        kept, rejects = [], []
        found = fork_imap(lambda row: item_defects({**row, "sparql": row[input_key]}), rows, self.threads)
        for i, (row, defects) in enumerate(zip(rows, found)):
            for cls, key, persona, lang in defects:
                by_class[cls] += 1
                by_key[f"{cls}:{key}"] += 1
                by_persona[persona] += 1
            if defects and reject:
                reason = f"defect_{defects[0][0]}"
                report.rejected[reason] += 1
                rejects.append({"cid": row["cid"], "reason": reason, input_key: row[input_key],
                                "defects": [list(d) for d in defects]})
            else:
                kept.append(row)
            self.progress(i + 1, len(rows))
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        report.extra["defects"] = {"by_class": dict(sorted(by_class.items())), "by_key": dict(sorted(by_key.items())),
                                   "by_persona": dict(sorted(by_persona.items()))}
        return report
