"""A result table reduced to normalised cell keys, column by column (what the matcher and the metrics compare)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..kb.results import ResultTable
from .normalize import Normalizer
from .rows import Row


@dataclass(slots=True)
class PreparedTable:
    """A result table reduced to normalised keys, column by column."""

    form: str
    variables: list[str]
    columns: list[list[str]]
    n_rows: int
    boolean: Optional[bool] = None
    truncated: bool = False
    _rows: Optional[list[Row]] = None

    @staticmethod
    def build(table: ResultTable, normalizer: Normalizer) -> "PreparedTable":
        """Normalise every cell of ``table``."""
        width = len(table.variables)
        if table.form == "ask":
            return PreparedTable("ask", [], [], 0, bool(table.boolean), table.truncated)
        columns = normalizer.column_keys(table.rows, width)
        return PreparedTable(table.form, list(table.variables), columns, len(table.rows),
                             None, table.truncated)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.columns)

    def rows(self) -> list[Row]:
        """Rows as tuples of keys in column order (cached)."""
        if self._rows is None:
            self._rows = list(zip(*self.columns)) if self.columns else [()] * self.n_rows
        return self._rows

    def project(self, mapping: Sequence[int]) -> list[Row]:
        """Rows restricted (and reordered) to the given column indices."""
        if list(mapping) == list(range(self.width)):
            return self.rows()
        if not mapping:
            return [()] * self.n_rows
        return list(zip(*(self.columns[j] for j in mapping)))
