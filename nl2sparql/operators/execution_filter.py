"""Execution filter: every candidate query is executed; only useful answers are kept.

Rejection reasons: ``parse``, ``execution``, ``timeout``, ``service``, ``empty``,
``oversized`` (more rows than ``max_result_rows``), ``degenerate`` (a single zero
count, or every cell unbound). Kept rows get ``result_count`` and an
``answer_signature`` (a hash of the sorted result rows).

An empty answer is useful in one case, declared by config (``keep_absent``): a
candidate composed to have none (marked ``absent`` by the composer, see
:mod:`.absent`). It is kept when its answer is empty, labelled
``empty_answer: absent_fact``, and rejected as ``not_absent`` otherwise. A
yes/no question answered no is kept as ever and labelled ``empty_answer:
answer_no``.
"""

from __future__ import annotations

import hashlib
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Callable, Iterable

from ..errors import QueryError
from ..kb.base import KnowledgeBase
from ..kb.results import ResultTable
from ..sparql.model import LIST_SEPARATOR, unordered_list
from .base import Operator, StepReport, checkpoint_for
from .dedup import answer_key


_FLOATING = ("http://www.w3.org/2001/XMLSchema#float", "http://www.w3.org/2001/XMLSchema#double")


def _signed(term) -> str:
    """A term as the signature reads it: N-Triples, a float or double to 6 significant digits, an
    aggregated list with its parts sorted.

    An engine sums floats, and joins a ``GROUP_CONCAT``, in the order it reads the rows, so the same
    answer differs between two stores (the embedded one and a server) in the last digits of an AVG
    and in the order of a list.
    """
    if term is None:
        return ""
    if term.kind == "literal" and term.datatype in _FLOATING:
        try:
            return f"{float(term.value):.6g}^^<{term.datatype}>"
        except ValueError:
            pass
    if term.kind == "literal" and LIST_SEPARATOR in term.value:
        return replace(term, value=unordered_list(term.value)).n3()
    return term.n3()


def answer_signature(table: ResultTable) -> str:
    """A short hash of the answer: sorted rows of N-Triples terms (order-insensitive; floats rounded)."""
    rows = sorted("\t".join(_signed(t) for t in row) for row in table.rows)
    return hashlib.sha1("\n".join(rows).encode()).hexdigest()[:16]


def degenerate(table: ResultTable) -> bool:
    """True for answers that carry no information."""
    if all(all(t is None for t in row) for row in table.rows):
        return True
    if len(table.rows) == 1 and len(table.variables) == 1:
        cell = table.rows[0][0]
        return cell is not None and cell.kind == "literal" and cell.value in ("0", "0.0")
    return False


def verdict(table: ResultTable, limit: int) -> tuple[str | None, int, str]:
    """``(reason or None, rows, answer signature)`` for an answer: why it is rejected, or kept."""
    if table.form == "ask":
        return None, 1, answer_signature(table)
    if not table.rows:
        return "empty", 0, ""
    if table.truncated or len(table.rows) > limit:
        return "oversized", len(table.rows), ""
    if degenerate(table):
        return "degenerate", len(table.rows), ""
    return None, len(table.rows), answer_signature(table)


def checked(table: ResultTable, limit: int) -> tuple[str | None, int, str, str | None]:
    """:func:`verdict` and what an empty answer is: ``empty`` (no rows), ``answer_no`` (an ASK answering false)."""
    empty = ("answer_no" if not table.boolean else None) if table.form == "ask" else None if table.rows else "empty"
    return (*verdict(table, limit), empty)


def _new_answer(row: dict, item: dict, answers: set) -> bool:
    """True for a passed check whose answer is not one of ``answers`` (then added).

    Answers are compared as the deduplicator compares them (:func:`~.dedup.answer_key`), here with the
    composer's labels, which the tagger's only extend.
    """
    if item["reason"] is not None:
        return False
    key = answer_key(item["info"], item["count"], row.get("labels"))
    if key is None:
        return True
    if key in answers:
        return False
    answers.add(key)
    return True


class ExecutionFilter(Operator):
    """Config: ``timeout`` (s, default 10), ``max_result_rows`` (default 1000), ``threads`` (default 1),
    ``stop_after`` (stop once this many candidates passed with answers of their own, in input order; 0: run
    them all).

    A passed candidate whose answer of several rows another passed one already gave counts once towards
    ``stop_after``: the deduplicator drops it later (a 10,000 run lost 7 % that way and fell short).
    """

    input_keys = ("cid", "sparql")
    output_keys = ("result_count", "answer_signature")

    def __init__(self, config: dict | None = None, kb: KnowledgeBase | None = None, **kw):
        super().__init__(config, **kw)
        self.kb = kb
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Stop a :meth:`run_streamed` soon (its candidates' source failed): no more queries, nothing written."""
        self._cancelled.set()

    def _check(self, row: dict, input_key: str) -> tuple[str | None, int, str, float, str | None]:
        start = time.perf_counter()
        reason, count, info, empty = self._verdict(row[input_key])
        if row.get("absent") and self.config.get("keep_absent"):
            if reason == "empty":
                reason, info, empty = None, "", "absent_fact"
            elif reason is None:
                reason = "not_absent"  # the facts missed it: the word has the fact after all
        return reason, count, info, round(time.perf_counter() - start, 4), empty

    def _verdict(self, sparql: str) -> tuple[str | None, int, str, str | None]:
        limit = int(self.config.get("max_result_rows", 1000))
        try:
            # judged where the query ran (an embedded store's worker): only the verdict crosses back
            return self.kb.digest(sparql, partial(checked, limit=limit),
                                  timeout=float(self.config.get("timeout", 10.0)), max_rows=limit + 1)
        except QueryError as exc:
            return exc.kind, 0, str(exc), None

    @staticmethod
    def _passed_in_order(rows: list[dict], done: dict, answers: set) -> int:
        """How many candidates passed with answers of their own before the first one not yet run (a resumed
        run's head start); ``answers`` gets their signatures."""
        passed = 0
        for r in rows:
            item = done.get(r["cid"])
            if item is None:
                break
            passed += _new_answer(r, item, answers)
        return passed

    def run(self, storage, input_key: str = "sparql", output_key: str = "result_count") -> StepReport:
        rows = storage.read("dict")
        checkpoint = checkpoint_for(storage)
        done = checkpoint.load() if checkpoint else {}
        stop_after = int(self.config.get("stop_after", 0)) or len(rows)
        answers: set = set()
        passed = self._passed_in_order(rows, done, answers)
        todo = [r for r in rows if r["cid"] not in done] if passed < stop_after else []
        passed = self._execute(todo, len(rows), len(rows) - len(todo), passed, done, answers, stop_after, checkpoint,
                               input_key)
        return self._finish(storage, rows, done, passed, stop_after, checkpoint, input_key, output_key)

    def run_streamed(self, storage, stream: Iterable[dict], expected: int, all_rows: Callable[[], list[dict]],
                     input_key: str = "sparql", output_key: str = "result_count") -> StepReport | None:
        """:meth:`run` on candidates that arrive while they are drawn (the composer's, overlapped with it).

        The candidates run in their order as they arrive, so the step's rows are those :meth:`run` gives
        on the same candidates. ``expected``: how many will come (for the progress); ``all_rows()``: every
        candidate, once ``stream`` has ended. No checkpoint is picked up (a fresh step). After
        :meth:`cancel`, nothing is written and ``None`` is returned.
        """
        checkpoint = checkpoint_for(storage)
        done: dict = {}
        stop_after = int(self.config.get("stop_after", 0)) or expected
        answers: set = set()
        self._cancelled.clear()
        passed = self._execute(stream, expected, 0, 0, done, answers, stop_after, checkpoint, input_key)
        for _ in stream:  # the rest the composer draws after enough passed
            pass
        if self._cancelled.is_set():
            return None
        return self._finish(storage, all_rows(), done, passed, stop_after, checkpoint, input_key, output_key)

    def _execute(self, todo: Iterable[dict], total: int, finished: int, passed: int, done: dict, answers: set,
                 stop_after: int, checkpoint, input_key: str) -> int:
        """Run the candidates of ``todo`` in their order until ``stop_after`` passed; returns how many passed.

        Every candidate is submitted as soon as it is there, so both workers stay busy (a slow query does not
        hold up a whole batch); results are consumed in input order and checkpointed every 64.
        """
        if passed >= stop_after:
            return passed
        pool = ThreadPoolExecutor(max_workers=self.threads)
        submitted: queue.Queue = queue.Queue()
        stop = threading.Event()

        def feed() -> None:
            try:
                for r in todo:
                    if stop.is_set():
                        break
                    submitted.put((r, pool.submit(self._check, r, input_key)))
            except RuntimeError:  # the pool was shut down: enough passed
                pass
            finally:
                submitted.put(None)

        feeder = threading.Thread(target=feed, name="nl2sparql-filter-feed", daemon=True)
        feeder.start()
        batch: list[dict] = []
        try:
            while (entry := submitted.get()) is not None:
                r, future = entry
                reason, count, info, seconds, empty = future.result()
                item = {"key": r["cid"], "reason": reason, "count": count, "info": info, "seconds": seconds}
                if empty and reason is None:
                    item["empty_answer"] = empty
                done[item["key"]] = item
                batch.append(item)
                finished += 1
                passed += _new_answer(r, item, answers)
                if len(batch) >= 64 or finished >= total or passed >= stop_after:
                    if checkpoint:
                        checkpoint.append(batch)
                    batch = []
                    self.progress(min(finished, total), total)
                if passed >= stop_after or self._cancelled.is_set():
                    break
        finally:
            stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
            if batch and checkpoint:
                checkpoint.append(batch)
            feeder.join()
            pool.shutdown(wait=True)
        return passed

    def _finish(self, storage, rows: list[dict], done: dict, passed: int, stop_after: int, checkpoint,
                input_key: str, output_key: str) -> StepReport:
        """The step's kept rows and rejects from the verdicts in ``done``."""
        report = StepReport(self.name, rows_in=len(rows))
        self.progress(len(rows), len(rows))
        kept, rejects = [], []
        ran = [r for r in rows if r["cid"] in done]
        if len(ran) < len(rows):
            report.extra["not_run"] = len(rows) - len(ran)  # enough had passed before them
        for r in ran:
            item = done[r["cid"]]
            if item["reason"] is None:
                kept.append({**r, output_key: item["count"], "answer_signature": item["info"],
                             "query_seconds": item.get("seconds"),
                             **({"empty_answer": item["empty_answer"]} if item.get("empty_answer") else {})})
            else:
                report.rejected[item["reason"]] += 1
                rejects.append({"cid": r["cid"], "reason": item["reason"], "detail": item["info"],
                                "query_seconds": item.get("seconds"), input_key: r[input_key]})
        times = sorted(item.get("seconds", 0.0) for item in done.values())
        if times:
            report.extra["query_seconds"] = {"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95)],
                                             "max": times[-1]}
        storage.write(kept)
        self.write_rejects(storage, rejects)
        if int(self.config.get("stop_after", 0)) and passed < stop_after:
            # every candidate ran and too few passed: the checkpoint stays, for a top-up (more candidates)
            report.extra["short"] = stop_after - passed
        elif checkpoint:
            checkpoint.discard()
        report.kept = len(kept)
        return report
