"""How likely the agent's answer is right: a probability, calibrated on open question sets.

The confidence of an answer is the share of right answers among past answers
that looked like it, read off a small table keyed by what the agent knows at
the end of a run:

* whether the answer was **verified** (:mod:`.checks` found nothing left out);
* where it came from: the translator's own reading, another reading of the
  question, or a query that exploring or a repair produced;
* how sure the translator was of its reading (its confidence, which weighs an
  unambiguous reading, the cues covered and the examples' vote).

The figures were measured on the open sets (the development sets in
``bench/`` and the reference examples on the mirror), never on the held-out
sets, which only check them (``bench/agent.py``, ``bench/reference_eval.py
--agent``: the reliability table in ``bench/RESULTS.md``).
"""

from __future__ import annotations

from .state import answered

#: (verified, origin) → (confidence when the translator was sure, confidence otherwise).
TABLE = {
    (True, "reading"): (0.9, 0.75),
    (True, "other reading"): (0.6, 0.5),
    (True, "explored"): (0.6, 0.5),
    (False, "reading"): (0.35, 0.25),
    (False, "other reading"): (0.2, 0.15),
    (False, "explored"): (0.2, 0.15),
}
#: The translator is "sure" of its reading at this confidence or more.
SURE = 0.9
#: An unverified answer that returned nothing.
EMPTY = 0.1


def origin(attempt: dict) -> str:
    """``reading`` (the translator's own query), ``other reading`` or ``explored``."""
    source = attempt.get("source") or ""
    if source in ("catalogue", "adapted", "example"):
        return "reading"
    if source in ("reading", "concept", "llm") or source.startswith("example:"):
        return "other reading"
    return "explored"


def confidence(attempt: dict, analysis: dict, verified: bool) -> float:
    """The probability that ``attempt`` answers the question (see the module docstring)."""
    if not verified and not answered(attempt):
        return EMPTY
    sure, unsure = TABLE[(verified, origin(attempt))]
    translator = float((analysis.get("reading") or {}).get("confidence") or 0.0)
    return sure if translator >= SURE else unsure
