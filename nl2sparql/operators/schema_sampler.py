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
    queries run at once, default 1). The facts and the profile are asked once per KB content
    and kept (per-KB artefacts): a later run on the same KB reads them.
    """

    output_keys = ("fact", "rows")

    def __init__(self, config: dict | None = None, kb: KnowledgeBase | None = None, **kw):
        super().__init__(config, **kw)
        self.kb = kb

    def run(self, storage, output_key: str = "fact") -> StepReport:
        from ..kb.profile import kb_profile

        report = StepReport(self.name)
        queries = fact_queries()
        timeout = self.config.get("timeout", 300.0)
        max_rows = self.config.get("max_rows", 2_000_000)
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            # first: one of the longest tasks, run alongside the fact queries rather than after them
            profiled = pool.submit(kb_profile, self.kb, timeout=timeout) if self.config.get("profile", True) else None
            facts = sampled_facts(self.kb, queries, max_rows, lambda: self._sample(pool, queries, timeout, max_rows))
            rows = [{output_key: name, "rows": facts[name]} for name in queries]
            report.extra["facts"] = {name: len(facts[name]) for name in queries}
            self.progress(len(queries), len(queries))
            if profiled is not None:
                profile = profiled.result()
                report.extra["profile"] = {"triples": profile.triples,
                                           "graphs": {g.graph or "(default)": g.triples for g in profile.graphs},
                                           "classes": len(profile.classes()), "properties": len(profile.properties())}
        storage.write(rows)
        report.kept = len(rows)
        return report

    def _sample(self, pool, queries: dict[str, str], timeout: float, max_rows: int) -> dict[str, list]:
        """Every fact query's rows, asked ``threads`` at a time."""
        def sample(query: str) -> list[list[str]]:
            # the rows are reduced to sorted values where the query ran (an embedded store's worker)
            return self.kb.digest(query, fact_rows, timeout=timeout, max_rows=max_rows)

        futures = {name: pool.submit(sample, query) for name, query in queries.items()}
        out = {}
        for i, (name, future) in enumerate(futures.items()):
            out[name] = future.result()
            self.progress(i + 1, len(queries))
        return out


def sampled_facts(kb: KnowledgeBase, queries: dict[str, str], max_rows: int, sample) -> dict[str, list]:
    """The rows of the fact ``queries`` on ``kb``, made by ``sample()`` once per KB content and kept (a per-KB
    artefact, :mod:`nl2sparql.kb.artefacts`): its key holds the queries' text and the row cap."""
    import hashlib
    import json

    from ..kb.artefacts import builder_version, get_artefact

    version = builder_version(fact_rows, hashlib.sha256(json.dumps([queries, max_rows]).encode()).hexdigest())
    return get_artefact(kb, "facts", sample, version=version, what="the generator's sampled facts")
