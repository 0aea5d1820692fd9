"""Deduplicator: one example per normalised query, per answer, per question.

* normalised query: comments and whitespace removed, variables renamed in
  order of appearance (so ``?x``/``?y`` renamings collapse);
* answer: same answer signature *and* same strong pattern set (two different
  questions with the same single number are both kept);
* question: near-identical Italian question (folded, punctuation removed).
"""

from __future__ import annotations

import re

from ..parallel import fork_map
from ..sparql.lexer import tokenize
from ..translate.text import fold
from .base import Operator, StepReport


def normalise_query(sparql: str) -> str:
    """Canonical text of a query: tokens only, variables renamed ``?v1, ?v2, …``."""
    names: dict[str, str] = {}
    out = []
    for tok in tokenize(sparql):
        if tok.kind == "var":
            key = tok.text[1:]
            names.setdefault(key, f"?v{len(names) + 1}")
            out.append(names[key])
        elif tok.kind == "word":
            out.append(tok.upper)
        else:
            out.append(tok.text)
    return " ".join(out)


def normalise_question(text: str) -> str:
    """Folded question without punctuation."""
    return " ".join(re.findall(r"\w+", fold(text)))


def answer_key(signature: str | None, result_count: int, labels: dict | None) -> tuple | None:
    """What two examples with the same answer share, or ``None`` for a one-row answer (a count, a yes/no),
    which many questions may rightly share: the answer's signature with the strong pattern labels."""
    if result_count <= 1:
        return None
    return signature, tuple(sorted(k for k, v in (labels or {}).items() if v >= 0.5))


class Deduplicator(Operator):
    """Drops duplicates (first occurrence kept, input order preserved). Config: ``threads`` (processes that
    normalise, default 1)."""

    input_keys = ("sparql", "answer_signature", "nl", "patterns")

    def run(self, storage, input_key: str = "sparql", question_key: str = "nl") -> StepReport:
        rows = storage.read("dict")
        report = StepReport(self.name, rows_in=len(rows))
        queries, answers, questions = set(), set(), set()
        kept, rejects = [], []
        normalised = fork_map(lambda row: (normalise_query(row[input_key]), normalise_question(row[question_key])),
                              rows, self.threads)
        for row, (q, question) in zip(rows, normalised):
            answer = answer_key(row.get("answer_signature"), row.get("result_count", 0), row.get("patterns"))
            reason = ("duplicate_query" if q in queries else
                      "duplicate_answer" if answer is not None and answer in answers else
                      "duplicate_question" if question in questions else None)
            if reason:
                report.rejected[reason] += 1
                rejects.append({"cid": row["cid"], "reason": reason, input_key: row[input_key]})
                continue
            queries.add(q)
            questions.add(question)
            if answer is not None:
                answers.add(answer)
            kept.append(row)
        self.progress(len(rows), len(rows))
        storage.write(kept)
        self.write_rejects(storage, rejects)
        report.kept = len(kept)
        return report
