"""From slots to query plans: which catalogue patterns to build, with which slot values.

A :class:`Plan` is a shape (``list``, ``count``, ``word`` or ``standalone``)
and an ordered list of ``(label, build slots)`` steps for the catalogue's
``build()``. What each pattern contributes comes from the pattern itself (its
constraint, projection, word-fact and scope steps, see
:class:`~nl2sparql.patterns.pattern.Pattern`); this module decides the shape.
:func:`plans_for` returns one plan when the question is clear and several
when it is not (a reading a pattern finds ambiguous, such as a relation that
may be a constraint or a word fact, or another plan a pattern offers, such as
a translation without a dialect); the offline translator then lets the
retrieved examples choose. :func:`render_plan` builds a plan with the
catalogue and renders it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..patterns import CATALOGUE
from ..patterns.base import italian
from ..patterns.compose import finish_query, start_frame
from ..sparql.model import Values, render
from ..patterns.reading import Slots


@dataclass
class Plan:
    """A shape plus catalogue steps; ``prior`` says how directly the question asked for it."""

    shape: str
    steps: list[tuple[str, dict]] = field(default_factory=list)
    word: str | None = None
    limit: int | None = None
    #: ``(label, values)`` applied before any step (the Lemma Bank graph scope).
    scopes: list[tuple[str, dict]] = field(default_factory=list)
    standalone: tuple[str, dict] | None = None
    prior: float = 1.0
    notes: list[str] = field(default_factory=list)
    #: How many leading steps narrow the lemmas (built first; the others add columns).
    constraints: int = 0
    #: What the question asked to see (:attr:`~nl2sparql.patterns.base.Frame.answer`).
    answer: dict = field(default_factory=dict)
    #: The words a list is confined to ("which of these express joy: notte, fuoco, festa").
    among: list = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """The labels of the steps (the standalone label for standalone plans)."""
        if self.standalone:
            return [self.standalone[0]]
        return [label for label, _ in self.steps]

    def describe(self) -> dict:
        """A JSON-ready summary."""
        return {"shape": self.shape, "steps": [{"pattern": l, "slots": s} for l, s in self.steps],
                "word": self.word, "limit": self.limit, "standalone": self.standalone and
                {"label": self.standalone[0], **self.standalone[1]}, "prior": self.prior}


def plans_for(slots: Slots) -> list[Plan]:
    """Candidate plans for the slots, most direct first (never empty)."""
    if slots.standalone:
        constraints = _steps(slots, "constraint")
        wrapped = _wrapped(Plan("list", constraints, constraints=len(constraints)), slots)
        return [wrapped if wrapped.standalone else Plan("standalone", standalone=slots.standalone)]
    readings = [reading for pattern in CATALOGUE.values() for reading in pattern.readings(slots)]
    plans: list[Plan] = []
    for reading, prior in readings or [(slots, 1.0)]:
        plans += [_wrapped(plan, reading) for plan in _shape_plans(reading, prior)]
    out: list[Plan] = []
    for plan in plans:
        out.append(plan)
        for pattern in CATALOGUE.values():
            for steps, factor in pattern.alternatives(plan.steps, plan.shape, slots):
                out.append(Plan(plan.shape, steps, plan.word, plan.limit, list(plan.scopes), plan.standalone,
                                plan.prior * factor, list(plan.notes), plan.constraints, dict(plan.answer),
                                list(plan.among)))
    return out or [Plan("list", prior=0.1, notes=["nothing recognised"])]


def _wrapped(plan: Plan, slots: Slots) -> Plan:
    """The plan as an analytic pattern's standalone query (a ranking, an aggregate…), when one asks for it."""
    if plan.standalone:
        return plan
    # a word plan's steps are facts about the word; its constraints (a yes/no question's) stay in the slots
    word = plan.shape == "word"
    constraints = _steps(slots, "constraint") if word else plan.steps[:plan.constraints]
    facts = [(l, dict(v)) for l, v in plan.steps] if word else []
    for label, pattern in CATALOGUE.items():
        values = pattern.wrap(slots, [(l, dict(v)) for l, v in constraints], plan.shape, facts)
        if values is not None:
            if "steps" in values:  # JSON-ready: [label, build slots] pairs
                values["steps"] = [[step, dict(built)] for step, built in values["steps"]]
            return Plan("standalone", standalone=(label, values), prior=max(plan.prior, 0.9))
    return plan


def _steps(slots: Slots, kind: str) -> list[tuple[str, dict]]:
    """Every pattern's ``kind`` steps (``constraint``, ``projection``, ``word``), in catalogue order."""
    return [(label, step) for label, pattern in CATALOGUE.items()
            for step in getattr(pattern, f"{kind}_steps")(slots)]


def _scopes(slots: Slots, shape: str) -> list[tuple[str, dict]]:
    return [(label, values) for label, pattern in CATALOGUE.items() for values in pattern.scope_steps(slots, shape)]


def _shape_plans(slots: Slots, prior: float = 1.0) -> list[Plan]:
    word_facts = _word_steps(slots)
    constraints = _steps(slots, "constraint")
    named = slots.word or (list(slots.listed) if slots.listed else None)  # one word, or a list of them
    if slots.listed and constraints:
        plan = _list_plan(slots, constraints, prior)
        plan.among = list(slots.listed)
        return [plan]
    if slots.word and slots.count and not (word_facts or constraints):
        # "how many lemmas are written «riso»?": the lemmas with that written form, counted
        return [Plan("count", [], prior=prior * 0.9, among=[slots.word])]
    if named and (word_facts or not constraints):
        plans = [Plan("word", word_facts, word=named, prior=prior)]
        if not word_facts:
            plans[0].notes.append("no fact asked about the word: showing the lemma")
            plans[0].prior = prior * 0.6
        if constraints and not word_facts:
            plans.append(_list_plan(slots, constraints, prior * 0.6))
        aggregating = [step for step in word_facts if CATALOGUE[step[0]].aggregates]
        if aggregating and len(word_facts) > 1:
            plans[0].steps = aggregating[:1]
            plans[0].notes.append(CATALOGUE[aggregating[0][0]].alone_note)
        return plans
    if slots.word and constraints:
        plan = _list_plan(slots, constraints, prior * 0.95)
        plan.notes.append(f"the quoted word {slots.word!r} was not used")
        return [plan]
    if slots.count or any(pattern.asks_count(slots) for pattern in CATALOGUE.values()):
        # an aggregating block cannot be counted over, but a constraint it sets (at least 3 senses) can
        steps = constraints + [step for step in _steps(slots, "projection") if not CATALOGUE[step[0]].aggregates]
        wanted = constraints + _steps(slots, "projection")
        plan = Plan("count", steps, scopes=_scopes(slots, "count"), prior=prior, constraints=len(constraints))
        plan.notes += [CATALOGUE[label].uncountable_note for label in dict.fromkeys(
            label for label, _ in wanted if CATALOGUE[label].aggregates)]
        if not steps:
            return [_count_fallback(slots, prior)]
        return [plan]
    return [_list_plan(slots, constraints, prior)]


def _count_fallback(slots: Slots, prior: float) -> Plan:
    """Nothing to count by: the standalone count a pattern offers for it."""
    for label, pattern in CATALOGUE.items():
        fallback = pattern.count_fallback(slots)
        if fallback is not None:
            values, note = fallback
            return Plan("standalone", standalone=(label, values), prior=prior * 0.7, notes=[note])
    return Plan("list", prior=prior * 0.1, notes=["nothing to count by"])


def _list_plan(slots: Slots, constraints: list, prior: float) -> Plan:
    shown = _steps(slots, "projection")
    # "which nouns have a definition": a fact the lemmas must have is a constraint, not a column
    constraints = constraints + [(label, {**step, "required": True}) for label, step in shown
                                 if label in slots.required]
    steps = constraints + [(label, step) for label, step in shown if label not in slots.required]
    plan = Plan("list", steps, limit=slots.limit, scopes=_scopes(slots, "list"), prior=prior,
                constraints=len(constraints), answer=dict(slots.answer))
    if not steps:
        plan.prior = prior * 0.3
        plan.notes.append("no constraint recognised: listing lemmas")
    return plan


def _word_steps(slots: Slots) -> list[tuple[str, dict]]:
    """Word facts in the order the question mentions them (the first one orders the rows)."""
    return sorted(_steps(slots, "word"), key=lambda s: slots.order.get(s[0], 10_000))


def render_plan(plan: Plan, seed: int = 0) -> tuple[str, dict[str, float]]:
    """Build ``plan`` with the catalogue; returns the SPARQL and its pattern labels with weights."""
    rng = random.Random(seed)
    if plan.standalone:
        label, values = plan.standalone
        query, _, tags, _ = CATALOGUE[label].build(dict(values), rng)
        return render(query), dict(tags)
    frame = start_frame(plan.shape, plan.word if plan.shape == "word" else None)
    frame.answer = dict(plan.answer)
    if plan.among:
        frame.where.add(Values(frame.wr, [italian(w) for w in plan.among]))
        frame.slot("among", ", ".join(plan.among))
    for label, values in plan.scopes:
        CATALOGUE[label].scope(frame, dict(values))
    for label, values in (plan.steps if plan.shape == "word" else _ordered(plan)):
        CATALOGUE[label].build(frame, dict(values), rng)
    if plan.shape == "word" and not frame.projection:
        frame.project(frame.lemma, frame.wr)
    query = finish_query(frame, plan.limit if plan.shape == "list" else None)
    return render(query), dict(frame.labels)


def _ordered(plan: Plan) -> list[tuple[str, dict]]:
    """Constraints first, each group by the patterns' ``build_order`` (ties keep the plan's order)."""
    ranked = sorted(enumerate(plan.steps), key=lambda s: (s[0] >= plan.constraints, CATALOGUE[s[1][0]].build_order))
    return [step for _, step in ranked]
