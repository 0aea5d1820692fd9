"""The agent's state: plain JSON-ready data only (strings, numbers, booleans, lists, dicts, ``None``).

Nothing here holds a client, a KB handle or a secret: those travel in the run
context (:class:`~nl2sparql.agent.context.AgentContext`), so a checkpoint can be
written to disk, inspected and resumed anywhere.

The histories (``attempts``, ``refinements``, ``exploration``, ``trace``) are
append-only channels: a node returns only its new items and LangGraph adds
them to what is there, so the streamed state after each node always carries
the whole history.

========================  ===============================================================
key                       what
========================  ===============================================================
``question``              the question as asked
``analysis``              the translator's reading: language, cues, slots, shape, complexity, its
                          query and alternatives (``reading``), what the answer must be (``expects``,
                          :mod:`.checks`), ontology hits; or ``off_topic`` and nothing else
``plan``                  ``subtasks`` (what the query must do, in order) and the reading chosen
``examples``              retrieved pool examples (id, score, question, patterns, sparql)
``candidates``            the queue of queries still to try (sparql, source, why, what it leaves out)
``current``               the attempt being executed and verified
``route``                 where the run goes next (set by ``generate`` and ``verify``)
``attempts``              every finished attempt: its query, every query run for it (with the
                          error or row count), the fixes applied, the verdict and its problems
``exploration``           findings of ``explore``: ontology hits, word probes, relation probes
``refinements``           what ``refine`` and ``explore`` did after each failed attempt, and why
``trace``                 one record per node run: node, milliseconds, a one-line summary
``schema``                ontology context (text) for prompts, from the last exploration
``final``                 the answer: sparql, source, confidence, attempt, fallback, verified, rows,
                          verdict, reason (what was tried, when nothing could be verified)
========================  ===============================================================
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Optional, TypedDict


class AgentState(TypedDict, total=False):
    """The state of one agent run (see the module docstring)."""

    question: str
    analysis: dict[str, Any]
    plan: dict[str, Any]
    examples: list[dict]
    candidates: list[dict]
    tried: list[str]
    current: Optional[dict]
    route: str
    attempts: Annotated[list[dict], operator.add]
    exploration: Annotated[list[dict], operator.add]
    refinements: Annotated[list[dict], operator.add]
    trace: Annotated[list[dict], operator.add]
    schema: str
    final: Optional[dict]


def initial_state(question: str) -> AgentState:
    """The state a run starts from."""
    return AgentState(question=question, analysis={}, plan={}, examples=[], candidates=[], tried=[], current=None,
                      route="", attempts=[], exploration=[], refinements=[], trace=[], schema="", final=None)


def attempt_ok(attempt: dict) -> bool:
    """True when the attempt's query ran without an error (its answer may still be empty or off-shape)."""
    return attempt.get("error") is None and attempt.get("rows") is not None


def answered(attempt: dict) -> bool:
    """True when the attempt ran and returned something (rows, or an ASK answer)."""
    return attempt_ok(attempt) and (attempt.get("form") == "ask" or attempt.get("rows", 0) > 0)


def normalise_query(sparql: str) -> str:
    """A query's text with whitespace collapsed: two candidates are the same when this is."""
    return " ".join(sparql.split())
