"""Asking an external agent every question of a pool, into a predictions file that ``score`` reads.

Each line of the predictions file is ``{id, question, sparql, latency_ms,
error}`` (``sparql`` is null when the agent failed; ``error`` says why).
Lines are appended whole, synced one at a time, and a line that does not fit
on the disk is taken back, so a full disk leaves no torn line and a killed run
loses at most the line being written: a resumed run drops a torn last line,
skips the ids already answered and asks the rest. One run writes a file at a
time (the lock of ``run``'s pool: :class:`~nl2sparql.fileio.OutputLock`). Questions are asked by at
most ``concurrency`` threads at once, each within its own time budget.

An agent that fails the first questions it is asked (and has not answered
one yet) is a bad agent: the run stops with one line naming the failure and
records none of those failures, so the fixed agent starts clean.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..errors import ConfigError, DataError
from ..fileio import DiskFull, LineLog, OutputLock, atomic_write_text
from .agents import Agent, AgentError
from .data import GoldItem

#: Failures in a row, before any answer, that make an agent a bad agent.
PROBE = 3
Progress = Callable[[int, int], None]


@dataclass
class AskRun:
    """What one run did (this run only; ``resumed`` counts the answers already in the file)."""

    asked: int = 0
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    resumed: int = 0
    skipped: int = 0
    latencies: list[float] = field(default_factory=list)


class PredictionLog:
    """The predictions file: read back on resume, appended to one whole line at a time."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._log = LineLog(self.path)
        self._lock = threading.Lock()

    def load(self, retry_errors: bool = False) -> dict[str, dict]:
        """Records by id; a torn last line (and with ``retry_errors`` each failed record) is dropped from the file."""
        if self.path.is_dir():
            raise DataError(f"{self.path} is a directory: give a predictions file (.jsonl)")
        if not self.path.exists():
            return {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        except UnicodeDecodeError:
            raise DataError(f"{self.path}: not UTF-8 text; is it a predictions file?") from None
        records: dict[str, dict] = {}
        dropped = False
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines) and not line.endswith("\n"):
                    dropped = True  # torn by a killed run
                    break
                raise DataError(f"{self.path} line {number}: not valid JSON; fix or remove the line") from None
            if not isinstance(record, dict) or record.get("id") in (None, ""):
                raise DataError(f"{self.path} line {number}: expected a prediction {{id, question, sparql, ...}}")
            records[str(record["id"])] = record
        if retry_errors:
            failed = [k for k, r in records.items() if r.get("error")]
            for key in failed:
                del records[key]
            dropped = dropped or bool(failed)
        if dropped:
            atomic_write_text(self.path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records.values()))
        return records

    def append(self, record: dict) -> None:
        """Append one record durably, whole or not at all (thread-safe)."""
        with self._lock:
            self._log.append(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._log.close()


def answer(agent: Agent, item: GoldItem, question: str, lang: str, timeout: float) -> dict:
    """One prediction record: the agent's query (or why there is none) and how long it took."""
    from ..llm import extract_sparql

    start = time.perf_counter()
    sparql = error = None
    try:
        raw = agent.ask(question, item_id=item.id, lang=lang, timeout=timeout)
        sparql = extract_sparql(raw)
        if sparql is None:
            flat = " ".join((raw or "").split())
            error = f"no SPARQL query in the answer: {flat[:80]!r}" if flat else "the agent gave an empty answer"
    except AgentError as exc:
        error = str(exc)
    return {"id": item.id, "question": question, "sparql": sparql,
            "latency_ms": round((time.perf_counter() - start) * 1000, 1), "error": error}


def ask_items(items: Sequence[GoldItem], agent: Agent, log: PredictionLog, *, lang: str = "it",
              variant: Optional[str] = None, concurrency: int = 4, timeout: float = 60.0,
              retry_errors: bool = False, progress: Optional[Progress] = None) -> AskRun:
    """Ask ``agent`` each item's question not yet in ``log``; see the module docstring."""
    with OutputLock(log.path):  # one writer per predictions file, as for a run's pool
        try:
            return _ask_items(items, agent, log, lang=lang, variant=variant, concurrency=concurrency,
                              timeout=timeout, retry_errors=retry_errors, progress=progress)
        except DiskFull as exc:
            raise exc.saying("free some space and ask again: the answers written are kept and not asked "
                             "again") from None


def _ask_items(items, agent: Agent, log: PredictionLog, *, lang, variant, concurrency, timeout, retry_errors,
               progress) -> AskRun:
    run = AskRun()
    done = log.load(retry_errors)
    todo = []
    for item in items:
        question = item.text(lang, variant)
        if not question:
            run.skipped += 1
        elif item.id in done:
            run.resumed += 1
        else:
            todo.append((item, question))
    held: list[dict] = []  # failures kept back until the agent has answered once
    probe = min(PROBE, len(todo))
    total = len(todo)
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="ask") as pool:
        pending = {pool.submit(answer, agent, item, q, lang, timeout) for item, q in todo}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    record = future.result()
                    run.asked += 1
                    if record["error"] and not run.answered:
                        held.append(record)
                        if len(held) >= probe:
                            raise ConfigError(f"the agent failed on the first {len(held)} question(s), nothing "
                                              f"was recorded: {held[0]['error']}")
                        continue
                    for kept in held + [record]:
                        log.append(kept)
                        if kept["error"]:
                            run.errors.append(kept["error"])
                        else:
                            run.answered += 1
                            run.latencies.append(kept["latency_ms"])
                    held = []
                    if progress:
                        progress(run.asked, total)
        finally:
            for future in pending:
                future.cancel()
            log.close()
    return run
