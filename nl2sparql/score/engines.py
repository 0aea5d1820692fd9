"""Do SPARQL engines answer the same queries alike? (real-server tests, ``bench/engines.py``)

Each query runs on a *reference* KB (the embedded store) and on every other
KB (an Oxigraph server, Virtuoso, …) over the same data. An outcome says
whether an engine executed the query and, when the reference answered it,
whether the engine's rows equal the reference's: *same* compares as the
scorer's strict match does (bags of normalised cells, numbers by value,
column names, order where the query has ORDER BY with ties in any order; a
LIMIT without ORDER BY may name any rows of the unlimited answer); *close*
also lets numbers differ by ``tolerance`` (engines print floats with
different precision).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Callable, Iterable, Mapping, Optional

from ..kb.base import KnowledgeBase
from .matcher import GoldPlan, MatchOptions, PreparedTable, compare_prepared
from .normalize import Normalizer
from .query import outer_limit, outer_order_by, strip_outer_limit
from .runner import _one_line, error_class


@dataclass(slots=True)
class EngineOutcome:
    """One query on one engine, next to the reference's answer.

    ``error`` is the engine's failure class (``parse``, ``execution``,
    ``timeout``) or, when it executed, why its rows differ
    (``value_mismatch``, ``empty``, ``column_mismatch``); ``reference`` is
    false when the reference could not answer (then nothing is compared).
    """

    id: str
    executed: bool
    same: bool = False
    close: bool = False
    reference: bool = True
    error: Optional[str] = None
    detail: str = ""
    rows: Optional[int] = None
    reference_rows: Optional[int] = None


def compare_engines(queries: Iterable[tuple[str, str]], reference: KnowledgeBase,
                    others: Mapping[str, KnowledgeBase], *, prepare: Callable[[str], str] = lambda q: q,
                    tolerance: float = 1e-6, max_rows: int = 1_000_000,
                    progress: Optional[Callable[[int], None]] = None) -> dict[str, list[EngineOutcome]]:
    """Run each ``(id, sparql)`` on ``reference`` and on ``others``; outcomes per engine name.

    The reference's own outcomes come under the name ``"reference"``.
    ``prepare`` turns the query text into what is sent (the same for every
    engine). ``max_rows`` is high so that no row cap hides a difference (a
    LIMIT without ORDER BY is judged against the whole unlimited answer).
    """
    strict = MatchOptions(require_same_column_names=True)
    tolerant = MatchOptions(require_same_column_names=True, float_tolerance=tolerance)
    normalizer = Normalizer(strict.norm_options())
    out: dict[str, list[EngineOutcome]] = {"reference": [], **{name: [] for name in others}}
    for n, (item_id, sparql) in enumerate(queries, 1):
        query = prepare(sparql)
        gold, outcome = _run(reference, item_id, query, normalizer, max_rows)
        out["reference"].append(outcome)
        outcome.reference = gold is not None
        if gold is not None:
            outcome.same = outcome.close = True
            plan = GoldPlan.of(query, gold.variables, strict)
            full = None
            if gold.form == "select" and outer_limit(query) and not outer_order_by(query):
                full, _ = _run(reference, item_id, strip_outer_limit(query), normalizer, max_rows)
        for name, kb in others.items():
            pred, outcome = _run(kb, item_id, query, normalizer, max_rows)
            out[name].append(outcome)
            outcome.reference = gold is not None
            if gold is None or pred is None:
                continue
            outcome.reference_rows = gold.n_rows if gold.form != "ask" else None
            same = compare_prepared(gold, pred, plan, strict, gold_full=full)
            close = same if same.match else compare_prepared(gold, pred, plan, tolerant, gold_full=full)
            outcome.same, outcome.close = same.match, close.match
            if not same.match:
                outcome.error, outcome.detail = same.error, same.detail
        if progress is not None:
            progress(n)
    return out


def _run(kb: KnowledgeBase, item_id: str, query: str, normalizer: Normalizer,
         max_rows: int) -> tuple[Optional[PreparedTable], EngineOutcome]:
    try:
        table = PreparedTable.build(kb.execute(query, max_rows=max_rows), normalizer)
    except Exception as exc:  # noqa: BLE001 - an engine's refusal is the finding
        return None, EngineOutcome(item_id, False, error=error_class(exc), detail=_one_line(exc))
    return table, EngineOutcome(item_id, True, rows=table.n_rows if table.form != "ask" else None)


def summarise(outcomes: list[EngineOutcome], examples: int = 5) -> dict:
    """Counts and failures by class; ``compared`` counts the queries the reference answered."""
    compared = [o for o in outcomes if o.reference]
    return {"queries": len(outcomes),
            "executed": sum(o.executed for o in outcomes),
            "compared": len(compared),
            "same": sum(o.same for o in compared),
            "close": sum(o.close for o in compared),
            "errors": dict(Counter(o.error for o in outcomes if o.error).most_common()),
            "examples": [asdict(o) for o in outcomes if o.error][:examples]}


__all__ = ["EngineOutcome", "compare_engines", "summarise"]
