"""Pattern composer: the SPARQL generator (candidates drawn from the catalogue)."""

from __future__ import annotations

from ..patterns import Facts
from ..patterns.compose import Composer
from .base import Operator, StepReport


class PatternComposer(Operator):
    """Draws ``candidates`` composed queries from the sampled facts.

    Config: ``candidates`` (how many draws), ``seed``, ``patterns`` (allowed labels or None),
    ``max_result_rows`` (skip draws whose answer, estimated from the facts, is larger).
    Exact duplicate queries are dropped here (reason ``duplicate_query``).
    """

    input_keys = ("fact", "rows")
    output_keys = ("cid", "sparql", "shape", "labels", "slots", "mentions", "fragments")

    def run(self, storage, input_key: str = "fact", output_key: str = "sparql") -> StepReport:
        report = StepReport(self.name)
        fact_rows = storage.read("dict")
        facts = Facts({r[input_key]: [tuple(x) for x in r["rows"]] for r in fact_rows})
        allowed = self.config.get("patterns")
        composer = Composer(facts, seed=int(self.config.get("seed", 0)), allowed=set(allowed) if allowed else None,
                            max_rows=int(self.config.get("max_result_rows", 0)))
        total = int(self.config.get("candidates", 100))
        seen: set[str] = set()
        out, rejects = [], []
        for i in range(total):
            cand = composer.draw(i)
            self.progress(i + 1, total)
            if isinstance(cand, str):
                report.rejected[cand] += 1
                continue
            row = cand.to_json()
            row[output_key] = row.pop("sparql")
            if row[output_key] in seen:
                report.rejected["duplicate_query"] += 1
                rejects.append({"cid": row["cid"], "reason": "duplicate_query", output_key: row[output_key]})
                continue
            seen.add(row[output_key])
            out.append(row)
        report.rows_in, report.kept = total, len(out)
        storage.write(out)
        self.write_rejects(storage, rejects)
        return report
