"""Helpers for testing the agent with real components and a known script.

* :class:`ScriptedTranslator` stands in for the offline translator: it reads
  the question as the real reader does (so the checks expect what they would),
  but its readings are the queries given, in order, and it retrieves no
  examples, so a test decides exactly what ``generate`` tries (every query
  still runs on a real KB through the API).
* :class:`InterruptingKB` wraps a real KB and raises :class:`Interrupted` (not a
  project error, so the run stops as a crash would) at the first query that
  contains a given text: a checkpointed run can then be resumed by thread id.
"""

from __future__ import annotations

from typing import Sequence

from ..kb.base import KnowledgeBase


class ScriptedTranslator:
    """A translator whose readings are ``queries`` (for any question) and that retrieves nothing."""

    def __init__(self, queries: Sequence[str], shape: str = "list"):
        self.queries = list(queries)
        self.shape = shape
        self.asked: list[tuple[str, dict | None]] = []

    def translate(self, question: str):
        """The real reading of ``question`` (what the checks expect); the scripted readings stand for its plans."""
        from ..translate.offline import OfflineTranslator

        result = OfflineTranslator(None).translate(question)
        result.source, result.alternatives = "catalogue", []
        return result

    def ranked(self, question: str, examples=None, changes: dict | None = None) -> list[dict]:
        """The scripted queries as readings (none when slots are changed: no re-reading)."""
        self.asked.append((question, changes))
        if changes:
            return []
        return [{"score": 1.0 - n / 100, "sparql": q, "shape": self.shape, "patterns": {}, "plan": {}, "notes": []}
                for n, q in enumerate(self.queries)]

    def examples(self, question: str) -> list:
        """No pool: no examples."""
        return []


class Interrupted(Exception):
    """Raised by :class:`InterruptingKB` (deliberately not an ``Nl2SparqlError``)."""


class InterruptingKB(KnowledgeBase):
    """A real KB that fails hard once, at the first query containing ``fail_on`` (``None``: never)."""

    def __init__(self, inner: KnowledgeBase, fail_on: str | None):
        super().__init__(inner.limits)
        self.inner, self.fail_on, self.calls = inner, fail_on, 0
        self.description = inner.description
        self.services = getattr(inner, "services", {})

    def execute(self, query: str, *, timeout: float | None = None, max_rows: int | None = None):
        """The inner KB's answer, unless this is the query to fail at."""
        self.calls += 1
        if self.fail_on is not None and self.fail_on in query:
            self.fail_on = None
            raise Interrupted(f"interrupted at query {self.calls}")
        return self.inner.execute(query, timeout=timeout, max_rows=max_rows)

    def _run(self, query, form, timeout, max_rows):  # pragma: no cover - execute is overridden
        return self.inner._run(query, form, timeout, max_rows)
