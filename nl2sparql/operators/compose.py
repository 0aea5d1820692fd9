"""Pattern composer: the SPARQL generator (candidates drawn from the catalogue)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from ..kb.base import KnowledgeBase
from ..kb.scans import ScanSizes
from ..parallel import fork_imap
from ..patterns import Facts
from ..patterns.compose import Composer
from .absent import absent_candidates
from .base import Operator, StepReport

#: The composer stops after this many draws per wanted candidate, whatever it has by then.
MAX_DRAWS_PER_CANDIDATE = 5


class PatternComposer(Operator):
    """Draws composed queries from the sampled facts until it has ``candidates`` of them.

    Config: ``candidates`` (how many to produce), ``seed``, ``patterns`` (allowed labels or None),
    ``max_result_rows`` (skip draws whose answer, estimated from the facts, is larger),
    ``max_scan`` (with a ``kb`` service: draw fewer queries whose first scan reads more rows,
    see :meth:`~nl2sparql.patterns.compose.Composer.check_scan`; 0 turns it off), ``first_draw``
    (the index of the first draw, default 0: a shard's units draw from disjoint ranges), ``threads``
    (processes that make the draws, default 1; the candidates do not depend on it).
    ``absent`` (default 0): also this many word questions whose right answer is empty (see
    :mod:`.absent`), first, each marked ``absent`` (the pattern asked).
    Exact duplicate queries are dropped here (reason ``duplicate_query``). ``shared``: a dict
    kept across runs on the same facts (a shard's units), so the composer and its scan counts
    are built once.
    """

    input_keys = ("fact", "rows")
    output_keys = ("cid", "sparql", "shape", "labels", "slots", "mentions", "fragments")

    def __init__(self, config: dict | None = None, kb: KnowledgeBase | None = None, shared: dict | None = None,
                 **kw):
        super().__init__(config, **kw)
        self.kb = kb
        self.shared = shared
        self._last: _Drawn | None = None

    def _composer(self, storage, input_key: str) -> tuple[Composer, ScanSizes | None]:
        allowed = self.config.get("patterns")
        max_scan = int(self.config.get("max_scan", 0))
        key = (int(self.config.get("seed", 0)), tuple(allowed or ()), int(self.config.get("max_result_rows", 0)),
               max_scan, input_key)
        if self.shared is not None and self.shared.get("key") == key:
            return self.shared["composer"], self.shared["sizes"]
        facts = shared_facts(storage.read("dict"), input_key)
        sizes = ScanSizes(self.kb) if self.kb is not None and max_scan else None
        composer = Composer(facts, seed=key[0], allowed=set(allowed) if allowed else None, max_rows=key[2],
                            scan_rows=sizes.rows if sizes else None, max_scan=max_scan)
        if self.shared is not None:
            self.shared.update(key=key, composer=composer, sizes=sizes)
        return composer, sizes

    def run(self, storage, input_key: str = "fact", output_key: str = "sparql",
            sink: Callable[[dict], None] | None = None) -> StepReport:
        """Draw the candidates; ``sink(row)`` also receives each one as it is kept (a next step that runs
        alongside, see :meth:`~.execution_filter.ExecutionFilter.run_streamed`)."""
        composer, sizes = self._composer(storage, input_key)
        self._last = _Drawn(composer, sizes, StepReport(self.name))
        absent = int(self.config.get("absent", 0))
        if absent:
            for label, cand in absent_candidates(composer, absent):
                row = cand.to_json()
                row[output_key] = row.pop("sparql")
                row["absent"] = label
                self._last.out.append(row)
                self._last.seen.add(row[output_key])
                if sink is not None:
                    sink(row)
            self._last.report.extra["absent"] = len(self._last.out)
        return self._draw(storage, self._last, int(self.config.get("candidates", 100)) + absent, output_key, sink)

    def more(self, storage, candidates: int, input_key: str = "fact", output_key: str = "sparql") -> StepReport:
        """Continue the last run until it has ``candidates`` in all (a pipeline's top-up when the execution
        filter ran out); the rows are those a run asked for that many from the start would write."""
        if self._last is None:
            self.config["candidates"] = candidates
            return self.run(storage, input_key, output_key)
        return self._draw(storage, self._last, candidates, output_key)

    def release(self) -> None:
        """Forget the draws kept for :meth:`more` (once no top-up can come, they only hold memory)."""
        self._last = None

    def _draw(self, storage, drawn: "_Drawn", total: int, output_key: str,
              sink: Callable[[dict], None] | None = None) -> StepReport:
        composer, report = drawn.composer, drawn.report
        first = int(self.config.get("first_draw", 0))
        out, seen, rejects = drawn.out, drawn.seen, drawn.rejects
        # draws are made in ``threads`` processes, checked (the KB counts scans) and kept here in draw order,
        # so the candidates are the same whatever the number of processes
        indices = range(first + drawn.draws, first + total * MAX_DRAWS_PER_CANDIDATE)
        results = fork_imap(composer.draw_unchecked, indices, self.threads, chunk=128)
        try:
            for drawn_one in results:
                if len(out) >= total:  # enough (at once when a top-up asks for no more than the run has)
                    break
                cand = composer.check_scan(drawn_one)
                drawn.draws += 1
                self.progress(len(out), total)
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
                if sink is not None:
                    sink(row)
        finally:
            results.close()
        self.progress(total, total)
        report.rows_in, report.kept = drawn.draws, len(out)
        if drawn.sizes:
            report.extra["scan_rows"] = {" ".join(str(part) for part in key if part): n
                                         for key, n in sorted(drawn.sizes.counted.items(), key=str)}
        storage.write(out)
        self.write_rejects(storage, rejects)
        return report


_FACTS: list[tuple[list, list, Facts]] = []
_FACTS_LOCK = threading.Lock()


def shared_facts(fact_rows: list[dict], input_key: str = "fact") -> Facts:
    """The :class:`Facts` of the sampler's rows, shared by the runs of a process that read the same rows.

    The sampler hands every run on one KB the same row lists (a per-KB artefact kept in memory), so a
    long-lived server builds the facts' indexes and the standalone patterns' variants (seconds on the
    full KB) once, not per run. Only the last facts are kept; other rows get their own.
    """
    lists, names = [r["rows"] for r in fact_rows], [r[input_key] for r in fact_rows]
    with _FACTS_LOCK:
        for held, held_names, facts in _FACTS:
            if held_names == names and len(held) == len(lists) and all(a is b for a, b in zip(held, lists)):
                return facts
        facts = Facts({name: [tuple(x) for x in rows] for name, rows in zip(names, lists)})
        _FACTS[:] = [(lists, names, facts)]  # the row lists are held, so their identities stay theirs
        return facts


@dataclass
class _Drawn:
    """What a composer run has drawn so far (kept for a top-up)."""

    composer: Composer
    sizes: ScanSizes | None
    report: StepReport
    out: list[dict] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    rejects: list[dict] = field(default_factory=list)
    draws: int = 0
