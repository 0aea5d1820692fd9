"""From slots to query plans: which catalogue patterns to build, with which slot values.

A :class:`Plan` is a shape (``list``, ``count``, ``word`` or ``standalone``)
and an ordered list of ``(label, build slots)`` steps for the catalogue's
``build()``. :func:`plans_for` returns one plan when the question is clear
and several when it is not (a relation that may be a constraint or a word
fact, a translation without a dialect, a named word next to list cues); the
offline translator then lets the retrieved examples choose.
:func:`render_plan` builds a plan with the catalogue and renders it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from ..patterns import CATALOGUE
from ..patterns.compose import finish_query, start_frame
from ..patterns.lexical_relation import ANTONYM_PROPS
from ..sparql.model import IRI, Path, Triple, render
from .slots import Slots

#: Build order: constraints first, then projections (the composer's order).
CONSTRAINT_ORDER = ("POS_FILTER", "MORPHO_REGEX", "EMOTION_LEXICON", "POLARITY", "SEMANTIC_RELATION",
                    "LEXICAL_RELATION", "SENSE_COUNT", "SENSE_DEFINITION")


@dataclass
class Plan:
    """A shape plus catalogue steps; ``prior`` says how directly the question asked for it."""

    shape: str
    steps: list[tuple[str, dict]] = field(default_factory=list)
    word: str | None = None
    limit: int | None = None
    scope: bool = False
    standalone: tuple[str, dict] | None = None
    prior: float = 1.0
    notes: list[str] = field(default_factory=list)

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
        return [Plan("standalone", standalone=slots.standalone)]
    plans: list[Plan] = []
    if slots.relation and slots.relation_mode == "ambiguous":
        as_word = _copy(slots, word=slots.word or slots.relation_target, relation_mode="project")
        as_list = _copy(slots, relation_mode="constraint")
        plans += _shape_plans(as_word, prior=0.9) + _shape_plans(as_list, prior=0.88)
    else:
        plans += _shape_plans(slots)
    out: list[Plan] = []
    for plan in plans:
        out += _dialect_variants(plan, slots)
    return out or [Plan("list", prior=0.1, notes=["nothing recognised"])]


def _copy(slots: Slots, **changes) -> Slots:
    return replace(slots, **changes)


def _shape_plans(slots: Slots, prior: float = 1.0) -> list[Plan]:
    word_facts = _word_steps(slots)
    constraints = _constraint_steps(slots)
    if slots.word and (word_facts or not constraints):
        plans = [Plan("word", word_facts, word=slots.word, prior=prior)]
        if not word_facts:
            plans[0].notes.append("no fact asked about the word: showing the lemma")
            plans[0].prior = prior * 0.6
        if constraints and not word_facts:
            plans.append(_list_plan(slots, constraints, prior * 0.6))
        if slots.senses_count and len(word_facts) > 1:
            plans[0].steps = [("SENSE_COUNT", {})]
            plans[0].notes.append("a sense count cannot be combined with other facts; only the count is shown")
        return plans
    if slots.word and constraints:
        plan = _list_plan(slots, constraints, prior * 0.95)
        plan.notes.append(f"the quoted word {slots.word!r} was not used")
        return [plan]
    if slots.count or (slots.senses_count and not slots.word and slots.min_senses is None):
        steps = [s for s in constraints + _projection_steps(slots) if s[0] != "SENSE_COUNT"]
        plan = Plan("count", steps, scope=slots.graph_scope, prior=prior)
        if len(steps) < len(constraints + _projection_steps(slots)):
            plan.notes.append("a sense-count condition cannot be counted over; it was left out")
        if not steps:
            return [Plan("standalone", standalone=("COUNT_ENTITIES", {"kind": "bank", "bank": "italian"}),
                         prior=prior * 0.7, notes=["nothing to count by: counting the Italian Lemma Bank"])]
        return [plan]
    return [_list_plan(slots, constraints, prior)]


def _list_plan(slots: Slots, constraints: list, prior: float) -> Plan:
    steps = constraints + _projection_steps(slots)
    plan = Plan("list", steps, limit=slots.limit, scope=slots.graph_scope, prior=prior)
    if not steps:
        plan.prior = prior * 0.3
        plan.notes.append("no constraint recognised: listing lemmas")
    return plan


def _constraint_steps(slots: Slots) -> list[tuple[str, dict]]:
    steps: list[tuple[str, dict]] = []
    if slots.translation_target:
        steps.append(("TRANSLATION", {"dialect": slots.dialects[0], "target": slots.translation_target}))
    if slots.pos or slots.gender:
        pos_slots = {"pos": slots.pos or "noun"}
        if slots.gender and not (slots.word and slots.forms):
            pos_slots["gender"] = slots.gender
        if slots.pos or "gender" in pos_slots:
            steps.append(("POS_FILTER", pos_slots))
    for kind, affix in slots.affixes:
        steps.append(("MORPHO_REGEX", {"kind": kind, "affix": affix,
                                       "regex": "regex" in slots.notes and kind != "contains"}))
    for emotion in slots.emotions:
        steps.append(("EMOTION_LEXICON", {"mode": "constraint", "emotion": emotion}))
    if slots.threshold is not None:
        sign = 1 if slots.threshold_op == ">" else -1
        steps.append(("POLARITY", {"polarity": "Positive" if sign > 0 else "Negative",
                                   "threshold": sign * slots.threshold}))
    elif slots.polarity:
        steps.append(("POLARITY", {"polarity": slots.polarity}))
    if slots.relation and slots.relation_mode == "constraint" and slots.relation_target:
        steps.append(_relation_step(slots, slots.relation_target))
    if slots.min_senses:
        steps.append(("SENSE_COUNT", {"min_senses": slots.min_senses}))
    if slots.definition_contains:
        steps.append(("SENSE_DEFINITION", {"contains": slots.definition_contains}))
    return steps


def _relation_step(slots: Slots, target: str | None) -> tuple[str, dict]:
    kind = slots.relation
    step: dict = {"relation": kind}
    if target:
        step["target"] = target
    if kind in ("hypernym", "holonym"):
        if slots.transitive and kind == "hypernym" and target:
            step["transitive"] = True
        return "SEMANTIC_RELATION", step
    if slots.relation_property:
        step["property"] = slots.relation_property
    return "LEXICAL_RELATION", step


def _projection_steps(slots: Slots) -> list[tuple[str, dict]]:
    steps: list[tuple[str, dict]] = []
    if slots.relation and slots.relation_mode == "project":
        steps.append(_relation_step(slots, None))
    if slots.translation:
        steps.append(_translation_step(slots))
    if slots.definition and not slots.definition_contains and not slots.senses_count:
        steps.append(("SENSE_DEFINITION", {}))
    if slots.emotion_project:
        steps.append(("EMOTION_LEXICON", {"mode": "project"}))
    if slots.polarity_project:
        steps.append(("POLARITY", {}))
    if slots.complit_pos:
        steps.append(("SERVICE_INTEGRATION", {}))
    return steps


def _translation_step(slots: Slots) -> tuple[str, dict]:
    if len(slots.dialects) >= 2 or not slots.dialects:
        return "MULTI_TRANSLATION", {}
    return "TRANSLATION", {"dialect": slots.dialects[0]}


_FACT_OF = {"SENSE_COUNT": "senses", "SEMANTIC_RELATION": "relation", "LEXICAL_RELATION": "relation",
            "TRANSLATION": "translation", "MULTI_TRANSLATION": "translation", "SENSE_DEFINITION": "definition",
            "EMOTION_LEXICON": "emotion", "POLARITY": "polarity", "LEXICAL_FORM": "forms",
            "SERVICE_INTEGRATION": "complit_pos"}


def _word_steps(slots: Slots) -> list[tuple[str, dict]]:
    """Word facts in the order the question mentions them (the first one orders the rows)."""
    steps = _word_facts(slots)
    return sorted(steps, key=lambda s: slots.order.get(_FACT_OF[s[0]], 10_000))


def _word_facts(slots: Slots) -> list[tuple[str, dict]]:
    steps: list[tuple[str, dict]] = []
    if slots.senses_count:
        steps.append(("SENSE_COUNT", {}))
    if slots.relation and slots.relation_mode == "project":
        steps.append(_relation_step(slots, None))
    if slots.translation:
        steps.append(_translation_step(slots))
    if slots.definition and not slots.senses_count:
        steps.append(("SENSE_DEFINITION", {}))
    if slots.emotion_project or slots.emotions:
        steps.append(("EMOTION_LEXICON", {"mode": "project"}))
    if slots.polarity_project or slots.polarity or slots.threshold is not None:
        steps.append(("POLARITY", {}))
    if slots.forms:
        steps.append(("LEXICAL_FORM", {"feature": slots.form_feature} if slots.form_feature else {}))
    if slots.complit_pos:
        steps.append(("SERVICE_INTEGRATION", {}))
    return steps


def _dialect_variants(plan: Plan, slots: Slots) -> list[Plan]:
    """A translation request that names no dialect: both dialects first, then each one."""
    if not slots.translation or slots.dialects or plan.shape == "standalone":
        return [plan]
    out = [plan]
    for dialect in ("siciliano", "parmigiano"):
        steps = [("TRANSLATION", {"dialect": dialect}) if label == "MULTI_TRANSLATION" else (label, s)
                 for label, s in plan.steps]
        out.append(Plan(plan.shape, steps, plan.word, plan.limit, plan.scope, plan.standalone,
                        plan.prior * 0.97, list(plan.notes)))
    return out


def render_plan(plan: Plan, seed: int = 0) -> tuple[str, dict[str, float]]:
    """Build ``plan`` with the catalogue; returns the SPARQL and its pattern labels with weights."""
    rng = random.Random(seed)
    if plan.standalone:
        label, values = plan.standalone
        query, _, tags, _ = CATALOGUE[label].build(dict(values), rng)
        return render(query), dict(tags)
    frame = start_frame(plan.shape, plan.word if plan.shape == "word" else None)
    if plan.scope and plan.shape != "word":
        CATALOGUE["META_GRAPH"].scope_lemmas(frame)
    for label, values in (plan.steps if plan.shape == "word" else _ordered(plan.steps)):
        CATALOGUE[label].build(frame, dict(values), rng)
        if label == "LEXICAL_RELATION" and values.get("relation") == "antonym" and not values.get("property"):
            _all_antonym_properties(frame)
    if plan.shape == "word" and not frame.projection:
        frame.project(frame.lemma, frame.wr)
    query = finish_query(frame, plan.limit if plan.shape == "list" else None)
    return render(query), dict(frame.labels)


def _ordered(steps: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    rank = {label: i for i, label in enumerate(CONSTRAINT_ORDER)}
    return sorted(steps, key=lambda s: (0 if "contains" in s[1] or "min_senses" in s[1] or "target" in s[1]
                                        or s[1].get("mode") == "constraint" or s[0] in ("POS_FILTER", "MORPHO_REGEX")
                                        or "polarity" in s[1] else 1, rank.get(s[0], 99)))


def _all_antonym_properties(frame) -> None:
    """Antonyms in CompL-it use three properties: match any of them unless the question named one."""
    alt = Path("alt", tuple(IRI(p) for p in ANTONYM_PROPS))
    service = frame._service
    for element in service.elements if service is not None else ():
        if isinstance(element, Triple) and isinstance(element.p, IRI) and element.p.value == ANTONYM_PROPS[0]:
            element.p = alt
