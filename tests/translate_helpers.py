"""Helpers shared by the translator tests: a small pool generated from the sample KB.

The pool is built with the real generator pieces (catalogue fact queries on
the embedded sample, :class:`~nl2sparql.patterns.compose.Composer`,
:func:`~nl2sparql.patterns.phrasing.realise_all`) and every query is executed,
so only answerable items are kept. Items get ``train`` / ``dev`` / ``test``
splits deterministically (one in five is ``test``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from nl2sparql.patterns import Facts, fact_queries
from nl2sparql.patterns.compose import Composer
from nl2sparql.patterns.phrasing import realise_all

REPO = Path(__file__).resolve().parents[1]
HANDWRITTEN = REPO / "tests" / "data" / "handwritten_questions.jsonl"


def sample_facts(kb) -> Facts:
    """The catalogue's facts sampled from ``kb``."""
    rows = {}
    for name, query in fact_queries().items():
        table = kb.select(query, timeout=60, max_rows=1_000_000)
        rows[name] = sorted(tuple("" if t is None else t.value for t in row) for row in table.rows)
    return Facts(rows)


def build_pool(kb, draws: int = 150, seed: int = 7) -> list[dict]:
    """Pool items (``id, sparql, nl, nl_variants, nl_en, nl_en_variants, patterns, split, provenance``)."""
    composer = Composer(sample_facts(kb), seed=seed)
    items, seen = [], set()
    for i in range(draws):
        cand = composer.draw(i)
        if cand is None or isinstance(cand, str) or cand.sparql in seen:
            continue
        seen.add(cand.sparql)
        table = kb.execute(cand.sparql, timeout=20)
        if not table.rows:
            continue
        questions = realise_all(cand.fragment_objects(), cand.shape, random.Random(f"{seed}:{cand.cid}"),
                                cand.word, cand.limit)
        items.append({"id": f"t{seed}-{i:04d}", "sparql": cand.sparql, "nl": questions["it"]["generic"],
                      "nl_variants": questions["it"], "nl_en": questions["en"]["generic"],
                      "nl_en_variants": questions["en"], "patterns": cand.labels,
                      "result_count": len(table.rows), "split": "test" if i % 5 == 4 else "train",
                      "provenance": {"shape": cand.shape, "slots": cand.slots}})
    return items


def write_pool(items: list[dict], path: Path) -> Path:
    """Write items as JSONL; returns ``path``."""
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return path


def handwritten() -> list[dict]:
    """The hand-written questions with their gold queries."""
    return [json.loads(line) for line in HANDWRITTEN.read_text(encoding="utf-8").splitlines() if line.strip()]


def answer(kb, query: str, ordered: bool | None = None):
    """The answer as the scorer compares it: a boolean, an ordered list (ORDER BY) or a bag of rows.

    Numbers are rounded to 6 places (averages of floats differ in the last digits with the join order).
    """
    table = kb.execute(query)
    if table.form == "ask":
        return table.boolean
    rows = [tuple(None if t is None else _cell(t.value) for t in row) for row in table.rows]
    return rows if (ordered if ordered is not None else "ORDER BY" in query) else Counter(rows)


def _cell(value: str):
    try:
        return round(float(value), 6)
    except ValueError:
        return value


def written_rows(rows):
    """An answer without lemma IRI cells (list answers of the catalogue also name the lemma)."""
    def keep(row):
        return tuple(c for c in row if not (isinstance(c, str) and c.startswith("http://liita.it/data/id/lemma/")))
    if isinstance(rows, Counter):
        return Counter(keep(r) for r in rows.elements())
    return rows if isinstance(rows, bool) else [keep(r) for r in rows]
