"""Constraint prompts for LLM translation, built from the rule registry and the pattern catalogue.

A prompt has two parts, both from :mod:`nl2sparql.patterns.guide`:

* **rules**: the prose of every LiITA rule in the one registry
  (:data:`nl2sparql.patterns.RULES`), the same rules the validator checks
  and the repair rounds report;
* **patterns**: for each pattern the question needs (detected from its cues,
  or found by the offline translator), its guidance and its canonical
  building block, rendered by the catalogue's own ``build()`` on example
  slots, so the prompt always shows the shape the generator and the offline
  translator use.

:func:`build_messages` adds the top retrieved examples (question → SPARQL) as
few-shot material; :func:`repair_message` turns validation issues into the
follow-up request of a repair round.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..patterns.guide import canonical_block, pattern_guide, rules_text

#: How the answer must look (not a LiITA rule: the contract of this prompt).
ANSWER = ("List queries return ?lemma ?wr ordered by ?wr. Answer with exactly one SPARQL SELECT query in a ```sparql "
          "code block and nothing else.")

__all__ = ["ANSWER", "build_messages", "canonical_block", "repair_message", "system_prompt"]


def system_prompt(labels: Iterable[str]) -> str:
    """The constraint prompt: every rule, then the patterns the question needs."""
    parts = ["You translate questions about LiITA (Linking Italian) into SPARQL. Rules:", *rules_text(), ANSWER]
    guide = pattern_guide(labels)
    if guide:
        parts.append("\nPatterns this question needs:")
        parts += guide
    return "\n".join(parts)


def build_messages(question: str, labels: Iterable[str], examples: Sequence = (),
                   draft: str | None = None) -> list[dict]:
    """Chat messages for one question: the constraint prompt, retrieved examples, optionally a draft query."""
    user = []
    if examples:
        user.append("Similar questions with their correct queries:")
        for e in examples:
            user.append(f"Q: {e.question}\n```sparql\n{e.sparql.strip()}\n```")
    if draft:
        user.append(f"A draft built from the pattern catalogue (fix it if it does not answer the question):\n"
                    f"```sparql\n{draft.strip()}\n```")
    user.append(f"Question: {question}")
    return [{"role": "system", "content": system_prompt(labels)}, {"role": "user", "content": "\n\n".join(user)}]


def repair_message(sparql: str | None, issues: Sequence) -> dict:
    """The user turn of a repair round: what was wrong with the last answer."""
    if sparql is None:
        text = "Your answer did not contain a SPARQL query. Answer with one query in a ```sparql block."
    else:
        lines = "\n".join(f"- {i.severity}: {i.message}" for i in issues)
        text = f"The query has these problems:\n{lines}\nReturn the corrected query in a ```sparql block."
    return {"role": "user", "content": text}
