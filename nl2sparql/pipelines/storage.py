"""Step storage compatible with DataFlow's ``FileStorage``.

Each operator reads the previous step's rows and writes its own step file
``<cache>/<prefix>_step<N>.jsonl``. Writes are atomic (temporary file, fsync,
``os.replace``), so a killed run never leaves a half-written step that looks
complete. With ``background=True`` the rows are serialised at once and the file
is written by a writer thread while the next step runs (:meth:`StepStorage.after_writes`
runs something once the pending files are down, in order; :meth:`StepStorage.flush`
waits for them and ends the thread). Operators may also report rejected rows with
their reasons (``write_rejects``); DataFlow's own storage lacks that method, and
operators then simply skip it.
"""

from __future__ import annotations

import copy
import os
import queue
import threading
from pathlib import Path
from typing import Any, Iterator

from ..errors import DataError
from ..fileio import (Checkpoint, OutputLock, atomic_write_text, iter_jsonl, jsonl_text,  # noqa: F401
                      write_jsonl)  # (re-exported)
from ..fileio import iter_pool as fileio_iter_pool


def read_jsonl(path: Path) -> list[dict]:
    """Read JSON lines (a clear error names the bad line)."""
    return [obj for _, obj in iter_jsonl(path)]


class _Writer:
    """One thread that runs file writes in the order they were handed over, from the first :meth:`submit`
    to the next :meth:`flush`; the first failure is raised by the next :meth:`submit` or :meth:`flush`."""

    def __init__(self):
        self._tasks: queue.Queue = queue.Queue()
        self._failure: BaseException | None = None
        self._thread: threading.Thread | None = None

    def _loop(self) -> None:
        while (task := self._tasks.get()) is not None:  # flush() ends the thread
            if self._failure is None:
                try:
                    task()
                except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
                    self._failure = exc

    def submit(self, task) -> None:
        self._raise()
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="nl2sparql-step-writer", daemon=True)
            self._thread.start()
        self._tasks.put(task)

    def flush(self) -> None:
        if self._thread is not None:
            self._tasks.put(None)
            self._thread.join()
            self._thread = None
        self._raise()

    def _raise(self) -> None:
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure


class StepStorage:
    """DataFlow-style storage: ``step()``, ``read(output_type)``, ``write(data)``."""

    def __init__(self, cache_path: Path | str = "cache", file_name_prefix: str = "nl2sparql",
                 first_entry_file_name: Path | str | None = None, cache_type: str = "jsonl",
                 background: bool = False):
        if cache_type != "jsonl":
            raise DataError(f"unsupported cache type {cache_type!r} (only jsonl)")
        self.cache_path = Path(cache_path)
        self.file_name_prefix = file_name_prefix
        self.first_entry_file_name = first_entry_file_name
        self.operator_step = -1
        # rows a step wrote, handed to the next step's read() without parsing its file again
        # (shared by the copies step() makes; the files are still written, for resuming)
        self._handoff: dict[int, list] = {}
        self._writer = _Writer() if background else None  # shared by the copies, like the handoff

    def step(self) -> "StepStorage":
        """Advance to the next operator's step; returns a copy bound to that step."""
        self.operator_step += 1
        return copy.copy(self)

    def file(self, step: int) -> Path:
        """The file of step ``step``."""
        return self.cache_path / f"{self.file_name_prefix}_step{step}.jsonl"

    def rejects_file(self, step: int) -> Path:
        """The rejects file of step ``step``."""
        return self.cache_path / f"{self.file_name_prefix}_step{step}_rejects.jsonl"

    def read(self, output_type: str = "dict") -> Any:
        """The previous step's rows (``dict``: a list of dicts; ``dataframe`` needs pandas)."""
        if self.operator_step == 0:
            rows = read_jsonl(Path(self.first_entry_file_name)) if self.first_entry_file_name else []
        elif self.operator_step - 1 in self._handoff:
            rows = self._handoff.pop(self.operator_step - 1)
        else:
            rows = read_jsonl(self.file(self.operator_step - 1))
        if output_type == "dataframe":
            import pandas as pd  # optional, as in DataFlow
            return pd.DataFrame(rows)
        if output_type != "dict":
            raise DataError(f"unsupported output type {output_type!r} (use 'dict' or 'dataframe')")
        return rows

    def write(self, data: Any) -> Path:
        """Write this step's rows atomically (a list of dicts or a DataFrame)."""
        if hasattr(data, "to_dict"):
            data = data.to_dict(orient="records")
        path = self.file(self.operator_step)
        self._write_rows(path, data)
        self._handoff.clear()
        if isinstance(data, list):
            self._handoff[self.operator_step] = data
        return path

    def write_rejects(self, rows: list[dict]) -> Path:
        """Write this step's rejected rows (each with a ``reason``)."""
        path = self.rejects_file(self.operator_step)
        self._write_rows(path, rows)
        return path

    def _write_rows(self, path: Path, rows) -> None:
        if self._writer is None:
            write_jsonl(path, rows)
            return
        text = jsonl_text(rows)  # now: later steps add fields to these rows
        self._writer.submit(lambda: atomic_write_text(path, text))

    def after_writes(self, task) -> None:
        """Run ``task()`` once every file handed over so far is written (at once without a writer thread)."""
        if self._writer is None:
            task()
        else:
            self._writer.submit(task)

    def flush(self) -> None:
        """Wait until every file handed over is written; raise the first write that failed."""
        if self._writer is not None:
            self._writer.flush()

    def checkpoint(self) -> Checkpoint:
        """The checkpoint log of the current step (long operators resume from it)."""
        return Checkpoint(self.file(self.operator_step).with_suffix(".partial.jsonl"))


#: The type each known pool field must have when present (``None`` is allowed for all but sparql).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str, int), "sparql": (str,), "nl": (str,), "nl_en": (str,), "nl_variants": (dict,),
    "nl_en_variants": (dict,), "patterns": (dict,), "difficulty": (str,), "split": (str,),
    "result_count": (int,), "provenance": (dict,),
}


def check_item(item: dict, n: int, path: Path | str) -> dict:
    """``item`` (record ``n``) when every known field has its type; :class:`DataError` naming the record and field."""
    for name, types in _FIELD_TYPES.items():
        value = item.get(name)
        if value is None and name != "sparql":
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            want = " or ".join({str: "a string", int: "an integer", dict: "an object"}[t] for t in types)
            raise DataError(f"{path}: record {n}: field {name!r} should be {want}, got "
                            f"{'nothing' if value is None else type(value).__name__} (fix or drop the record)")
    for label, weight in (item.get("patterns") or {}).items():
        if isinstance(weight, bool) or not isinstance(weight, (int, float)):
            raise DataError(f"{path}: record {n}: pattern weight {label!r} should be a number, got "
                            f"{type(weight).__name__}")
    for name in ("nl_variants", "nl_en_variants"):
        if any(not isinstance(v, str) for v in (item.get(name) or {}).values() if v is not None):
            raise DataError(f"{path}: record {n}: every value of {name!r} should be a string")
    return item


def check_items(items: list[dict], path: Path | str) -> list[dict]:
    """``items`` when every known field of every record has its type (see :func:`check_item`)."""
    for n, item in enumerate(items, 1):
        check_item(item, n, path)
    return items


def iter_pool(path: Path) -> Iterator[dict]:
    """A pool's items one at a time, field types checked (JSON lines are streamed, never read whole)."""
    for n, item in enumerate(fileio_iter_pool(path), 1):
        yield check_item(item, n, path)


def read_pool(path: Path) -> list[dict]:
    """A pool file: JSON lines, or a JSON array (the reference format); field types are checked."""
    return list(iter_pool(path))


def check_output_path(path: Path, what: str = "--out") -> Path:
    """Fail now, before any work, when ``path`` cannot be written (a directory, an unwritable or odd place)."""
    path = Path(path)
    if path.is_dir():
        raise DataError(f"{what} {path} is a directory; name a file, e.g. {path / 'pool.jsonl'}")
    parent = path.parent
    probe = parent
    while not probe.exists():  # the nearest existing ancestor must let us create the rest
        probe = probe.parent
    if not probe.is_dir():
        raise DataError(f"{what} {path}: {probe} is a file, not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise DataError(f"{what} {path}: cannot write in {probe} (permission denied)")
    if path.exists() and not os.access(path, os.W_OK):
        raise DataError(f"{what} {path}: the file is read-only")
    return path


def same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` name the same file (or would, once created)."""
    a, b = Path(a), Path(b)
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


