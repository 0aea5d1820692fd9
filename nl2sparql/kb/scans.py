"""How many rows a query's first scan reads on a KB (see :mod:`nl2sparql.sparql.plan`)."""

from __future__ import annotations

from ..errors import QueryError, QueryTimeout
from ..sparql.plan import Scan
from .base import KnowledgeBase

#: Reported for a scan too large to count within the time budget.
HUGE = 10 ** 9


class ScanSizes:
    """Counts the rows of each distinct :class:`Scan` once (a COUNT query on the KB) and remembers them."""

    def __init__(self, kb: KnowledgeBase, timeout: float = 30.0):
        self.kb = kb
        self.timeout = timeout
        self.counted: dict[tuple, int | None] = {}

    def rows(self, scan: Scan) -> int | None:
        """Rows read by ``scan`` (``None`` when the KB could not count them)."""
        if scan.rows is not None:
            return scan.rows
        key = scan.key()
        if key not in self.counted:
            try:
                table = self.kb.select(scan.count_query(), timeout=self.timeout, max_rows=2)
                cell = table.rows[0][0] if table.rows else None
                self.counted[key] = int(cell.value) if cell is not None else 0
            except QueryTimeout:
                self.counted[key] = HUGE
            except (QueryError, ValueError):
                self.counted[key] = None
        return self.counted[key]
