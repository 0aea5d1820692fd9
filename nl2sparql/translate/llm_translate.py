"""LLM translation with constraint prompts, validation, repair rounds and an offline fallback.

For one question: the offline translator runs first (it finds the patterns,
the retrieved examples and a draft query); the LLM gets the constraint prompt
for those patterns (:mod:`.prompts`), the top-k examples and the draft. Its
answer is extracted, auto-repaired (:func:`~.validate.repair`) and validated
(:func:`~.validate.validate`, executed on the KB when one is given); while
errors remain, up to ``rounds`` repair rounds send the issues back. When the
LLM fails (no answer, transport errors, still invalid after the last round)
the offline translation is returned with a warning saying why.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import Nl2SparqlError
from ..llm import LLMError, extract_sparql, why_no_sparql
from . import prompts
from .offline import OfflineResult, OfflineTranslator
from .validate import Issue, is_blocking, repair, validate


@dataclass
class LLMResult:
    """The outcome of the LLM path: the query, where it came from and what happened on the way."""

    sparql: str
    source: str  # "llm" or "offline"
    offline: OfflineResult
    rounds: int = 0
    issues: list[Issue] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON-ready summary (the offline result is summarised by the caller)."""
        return {"source": self.source, "rounds": self.rounds, "issues": [i.to_dict() for i in self.issues],
                "fixes": self.fixes, "warnings": self.warnings}


class LLMTranslator:
    """Translate with an :class:`~nl2sparql.llm.LLMClient`, falling back to ``offline``.

    ``kb`` (optional) executes every candidate: an empty answer triggers a
    repair round but is accepted at the end (it is a warning, not an error).
    ``deadline`` (seconds) bounds the LLM work for one question.
    """

    def __init__(self, client, offline: OfflineTranslator, kb=None, rounds: int = 2, examples: int = 5,
                 deadline: float | None = None):
        self.client = client
        self.offline = offline
        self.kb = kb
        self.rounds = max(0, int(rounds))
        self.examples = examples
        timeout = float(getattr(getattr(client, "config", None), "timeout", 60.0))
        self.deadline = float(deadline) if deadline is not None else timeout * (self.rounds + 1)

    def _notify(self, message: str) -> None:
        notify = getattr(self.client, "notify", None)
        if notify is not None:
            notify(message)

    def translate(self, question: str) -> LLMResult:
        """One question through the LLM (see the module docstring)."""
        draft = self.offline.translate(question)
        labels = set(draft.patterns)
        messages = prompts.build_messages(question, labels, draft.examples[: self.examples], draft.sparql)
        best: LLMResult | None = None
        issues: list[Issue] = []
        start = time.monotonic()
        deadline = start + self.deadline
        for round_no in range(self.rounds + 1):
            left = deadline - time.monotonic()
            if left <= 0:
                return self._fallback(draft, f"the LLM did not finish within its {self.deadline:g} s deadline "
                                             f"({round_no} round(s) done); using the offline translation", round_no)
            self._notify(f"asking the LLM (round {round_no + 1} of {self.rounds + 1}, {left:.0f} s left)")
            try:
                answer = self.client.chat(messages, tier="default", temperature=0.0, deadline=deadline)
            except LLMError as exc:
                return self._fallback(draft, f"the LLM failed ({exc}); using the offline translation", round_no)
            sparql = extract_sparql(answer.text)
            if sparql is None:
                issues, fixes, fixed = [Issue("syntax", "error", why_no_sparql(answer.text))], [], None
            else:
                try:
                    fixed, fixes = repair(sparql)
                    issues = validate(fixed, self.kb)
                except (Nl2SparqlError, RecursionError) as exc:  # e.g. nested too deeply to check
                    message = str(exc) if isinstance(exc, Nl2SparqlError) else "the query is nested too deeply"
                    fixed, fixes, issues = sparql, [], [Issue("syntax", "error", message)]
            if fixed is not None and not is_blocking(issues):
                result = LLMResult(fixed, "llm", draft, round_no, issues, fixes)
                if not any(i.rule == "empty_result" for i in issues):
                    return result
                best = best or result
            messages = messages + [{"role": "assistant", "content": answer.text or ""},
                                   prompts.repair_message(fixed, [i for i in issues if i.severity == "error"]
                                                          or issues)]
        if best is not None:
            best.warnings.append("the LLM query returns no rows on the KB")
            return best
        last = next((i for i in issues if i.severity == "error"), None)
        why = f" (last: [{last.rule}] {' '.join(last.message.split())})" if last is not None else ""
        return self._fallback(draft, f"the LLM query still breaks rules after {self.rounds} repair round(s){why}; "
                                     "using the offline translation", self.rounds + 1)

    @staticmethod
    def _fallback(draft: OfflineResult, why: str, rounds: int) -> LLMResult:
        return LLMResult(draft.sparql, "offline", draft, rounds, warnings=[why])
