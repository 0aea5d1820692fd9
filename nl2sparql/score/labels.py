"""Relaxed labels: an IRI read as its label, for the relaxed match when a user asks for it.

A gold that lists emotion labels (``"Paura"@it``) and a prediction that lists
the emotions themselves (``elita:Paura``) do not give the same answer, and by
default the scorer says so. With ``MatchOptions(labels=True)`` (``score
--labels``) the *relaxed* verdict reads every IRI of both answers as its label
(``rdfs:label``, ``skos:prefLabel`` or ``ontolex:writtenRep``; the smallest
when there are several), so such a prediction is relaxed-right and still
strict-wrong. Labels are looked up on the KB in batches and cached.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Optional

from ..errors import Nl2SparqlError
from ..kb.base import KnowledgeBase
from ..kb.results import ResultTable, Term
from ..sparql.model import IRI, Group, Select, Triple, Union_, Values, Var, render

#: The properties that name a resource in LiITA, in the order a label is preferred.
LABEL_PROPERTIES = ("rdfs:label", "skos:prefLabel", "ontolex:writtenRep")
BATCH = 200


class Labels:
    """IRI → label on one KB (``None``: it has none), cached."""

    def __init__(self, kb: KnowledgeBase, timeout: Optional[float] = None):
        self.kb, self.timeout = kb, timeout
        self._known: dict[str, Optional[Term]] = {}

    def fetch(self, iris: Iterable[str]) -> None:
        """Look up the labels of the IRIs not seen yet."""
        todo = sorted({i for i in iris if i not in self._known})
        x, label = Var("x"), Var("label")
        for start in range(0, len(todo), BATCH):
            batch = todo[start:start + BATCH]
            self._known.update(dict.fromkeys(batch))
            try:
                values = Values(x, [IRI(i) for i in batch])
                branches = [Group([Triple(x, IRI.of(p), label)]) for p in LABEL_PROPERTIES]
                table = self.kb.execute(render(Select([x, label], Group([values, Union_(branches)]))),
                                        timeout=self.timeout)
            except (ValueError, Nl2SparqlError):  # an IRI the query model cannot write, or the KB failed
                continue
            for iri, found in table.rows:
                if iri is None or found is None or found.kind != "literal":
                    continue
                kept = self._known.get(iri.value)
                if kept is None or found.value < kept.value:
                    self._known[iri.value] = found

    def table(self, table: ResultTable) -> ResultTable:
        """``table`` with every IRI that has a label replaced by it."""
        if table.form == "ask":
            return table
        self.fetch(t.value for row in table.rows for t in row if t is not None and t.kind == "iri")

        def cell(term: Optional[Term]) -> Optional[Term]:
            if term is None or term.kind != "iri":
                return term
            return self._known.get(term.value) or term

        return replace(table, rows=[tuple(cell(t) for t in row) for row in table.rows])
