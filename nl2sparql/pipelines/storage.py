"""Step storage compatible with DataFlow's ``FileStorage``.

Each operator reads the previous step's rows and writes its own step file
``<cache>/<prefix>_step<N>.jsonl``. Writes are atomic (temporary file, fsync,
``os.replace``), so a killed run never leaves a half-written step that looks
complete. Operators may also report rejected rows with their reasons
(``write_rejects``); DataFlow's own storage lacks that method, and operators
then simply skip it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..fileio import Checkpoint, atomic_write_text, iter_jsonl, write_jsonl  # noqa: F401 - re-exported
from ..fileio import read_pool as fileio_read_pool


def read_jsonl(path: Path) -> list[dict]:
    """Read JSON lines (a clear error names the bad line)."""
    return [obj for _, obj in iter_jsonl(path)]


class StepStorage:
    """DataFlow-style storage: ``step()``, ``read(output_type)``, ``write(data)``."""

    def __init__(self, cache_path: Path | str = "cache", file_name_prefix: str = "nl2sparql",
                 first_entry_file_name: Path | str | None = None, cache_type: str = "jsonl"):
        if cache_type != "jsonl":
            raise DataError(f"unsupported cache type {cache_type!r} (only jsonl)")
        self.cache_path = Path(cache_path)
        self.file_name_prefix = file_name_prefix
        self.first_entry_file_name = first_entry_file_name
        self.operator_step = -1

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
        write_jsonl(path, data)
        return path

    def write_rejects(self, rows: list[dict]) -> Path:
        """Write this step's rejected rows (each with a ``reason``)."""
        path = self.rejects_file(self.operator_step)
        write_jsonl(path, rows)
        return path

    def checkpoint(self) -> Checkpoint:
        """The checkpoint log of the current step (long operators resume from it)."""
        return Checkpoint(self.file(self.operator_step).with_suffix(".partial.jsonl"))


def read_pool(path: Path) -> list[dict]:
    """A pool file: JSON lines, or a JSON array (the reference format)."""
    return fileio_read_pool(path)[0]
