"""The run context: what the nodes use but the state must never hold (clients, the KB, secrets, caches).

LangGraph passes it to every node as ``runtime.context`` (``context_schema``);
it is not checkpointed, so an API key inside the LLM client never reaches a
checkpoint file, and a resumed run gets a fresh context.

Every query goes through :func:`nl2sparql.service.execute` (:meth:`AgentContext.run_query`),
so Update refusal, time budgets, row caps and the SERVICE allow-list apply;
the agent never calls a URL itself.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import ConfigError, Nl2SparqlError

MAX_ATTEMPTS = 3
#: The number of Italian lemmas of each open KB, counted once (what "every lemma" means on it).
_LEMMAS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: Rows of an attempt kept in the state (the final answer keeps all of them, up to the row cap).
PREVIEW_ROWS = 5


@dataclass
class AgentContext:
    """Run-scoped handles and settings of one agent run.

    ``kb``: an open :class:`~nl2sparql.kb.KnowledgeBase`. ``translator``: an
    :class:`~nl2sparql.translate.offline.OfflineTranslator` (ranked readings and
    retrieval; ``None``: a catalogue-only translator is made). ``llm``: an
    :class:`~nl2sparql.llm.LLMClient` (``None``: every node works offline).
    ``max_attempts``: queries tried before falling back. ``timeout`` / ``max_rows``:
    per-query limits (``None``: the KB's). ``ontology``: search the ontology
    catalogue when exploring. ``notes``: what the context itself wants said in the
    trace (e.g. that the ontology catalogue is missing).
    """

    kb: Any
    translator: Any = None
    llm: Any = None
    max_attempts: int = MAX_ATTEMPTS
    timeout: Optional[float] = None
    max_rows: Optional[int] = None
    k: int = 5
    ontology: bool = True
    memo: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.translator is None:
            from ..translate.offline import OfflineTranslator
            self.translator = OfflineTranslator(None, k=self.k)
        if self.max_attempts < 1:
            raise ConfigError("max_attempts must be at least 1")

    def run_query(self, sparql: str) -> dict:
        """Run ``sparql`` through the API and describe the outcome as plain data (memoised per run).

        Keys: ``sparql``, ``form``, ``rows`` (count; ``None`` on error), ``columns``, ``kinds`` (per
        column: ``uri``, ``literal``, ``bnode``, ``mixed`` or ``empty``), ``boolean``, ``preview``
        (the first rows as strings), ``truncated``, ``error``, ``ms``.
        """
        key = " ".join(sparql.split())
        if key in self.memo:
            return dict(self.memo[key][0])
        from .. import service
        start = time.perf_counter()
        try:
            rows = service.execute(sparql, kb=self.kb, timeout=self.timeout, max_rows=self.max_rows)
        except Nl2SparqlError as exc:
            out = {"sparql": sparql, "form": None, "rows": None, "columns": [], "kinds": [], "boolean": None,
                   "preview": [], "truncated": False, "error": str(exc).splitlines()[0] if str(exc) else
                   type(exc).__name__, "ms": round((time.perf_counter() - start) * 1000, 2)}
            self.memo[key] = (out, None)
            return dict(out)
        out = {"sparql": sparql, "form": rows.form, "rows": rows.count, "columns": list(rows.variables),
               "kinds": column_kinds(rows), "boolean": rows.boolean, "preview": rows.values()[:PREVIEW_ROWS],
               "truncated": rows.truncated, "error": None, "ms": round((time.perf_counter() - start) * 1000, 2)}
        self.memo[key] = (out, rows)
        return dict(out)

    def lemma_total(self) -> int | None:
        """How many lemmas the KB's Italian Lemma Bank has (counted once per KB; ``None`` if it cannot say)."""
        from ..namespaces import LEMMA_BANK

        if self.kb not in _LEMMAS:
            run = self.run_query("SELECT (COUNT(DISTINCT ?lemma) AS ?n) WHERE { ?lemma dcterms:isPartOf "
                                 f"<{LEMMA_BANK}> }}")
            try:
                _LEMMAS[self.kb] = int(run["preview"][0][0])
            except (IndexError, TypeError, ValueError):
                return None
        return _LEMMAS[self.kb]

    def rows_of(self, sparql: str):
        """The :class:`~nl2sparql.service.Rows` of a query already run (run now when it was not)."""
        key = " ".join(sparql.split())
        if key not in self.memo:
            self.run_query(sparql)
        return self.memo[key][1]


def column_kinds(rows) -> list[str]:
    """The kind of value each column holds: ``uri``, ``literal``, ``bnode``, ``mixed`` or ``empty``."""
    kinds = []
    for i, _ in enumerate(rows.variables):
        seen = {row[i]["type"] for row in rows.rows if row[i] is not None}
        seen = {"literal" if k == "typed-literal" else k for k in seen}
        kinds.append(seen.pop() if len(seen) == 1 else "mixed" if seen else "empty")
    return kinds
