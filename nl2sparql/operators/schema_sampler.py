"""Schema sampler: profile a KB and sample the facts that pattern slots are drawn from."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ..kb.base import KnowledgeBase
from ..kb.results import ResultTable
from ..patterns import fact_queries
from .base import Operator, StepReport


def fact_rows(table: ResultTable) -> list[list[str]]:
    """The rows of a fact query as sorted lists of cell values (``""`` for an unbound cell)."""
    return [list(v) for v in sorted(tuple("" if t is None else t.value for t in row) for row in table.rows)]


class SchemaSampler(Operator):
    """Runs every fact query of the catalogue; one output row per fact: ``{fact, rows}``.

    Config: ``timeout`` (s, per fact query, default 300), ``max_rows`` (default 2,000,000),
    ``profile`` (also count graphs/classes/properties, default true), ``threads`` (fact
    queries run at once, default 1).
    """

    output_keys = ("fact", "rows")

    def __init__(self, config: dict | None = None, kb: KnowledgeBase | None = None, **kw):
        super().__init__(config, **kw)
        self.kb = kb

    def run(self, storage, output_key: str = "fact") -> StepReport:
        report = StepReport(self.name)
        queries = fact_queries()
        timeout = self.config.get("timeout", 300.0)

        def sample(query: str) -> list[list[str]]:
            # the rows are reduced to sorted values where the query ran (an embedded store's worker)
            return self.kb.digest(query, fact_rows, timeout=timeout, max_rows=self.config.get("max_rows", 2_000_000))

        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            profiled = None
            if self.config.get("profile", True):
                from ..kb.profile import profile_kb
                # first: one of the longest tasks, run alongside the fact queries rather than after them
                profiled = pool.submit(profile_kb, self.kb, timeout=timeout)
            futures = {name: pool.submit(sample, query) for name, query in queries.items()}
            rows = []
            for i, (name, future) in enumerate(futures.items()):
                rows.append({output_key: name, "rows": future.result()})
                report.extra.setdefault("facts", {})[name] = len(rows[-1]["rows"])
                self.progress(i + 1, len(queries))
            if profiled is not None:
                profile = profiled.result()
                report.extra["profile"] = {"triples": profile.triples,
                                           "graphs": {g.graph or "(default)": g.triples for g in profile.graphs},
                                           "classes": len(profile.classes()), "properties": len(profile.properties())}
        storage.write(rows)
        report.kept = len(rows)
        return report
