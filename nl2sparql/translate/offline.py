"""The offline translator: question → catalogue patterns + slots → SPARQL, no LLM, no network.

Steps, for one question:

1. :func:`~nl2sparql.translate.slots.extract_slots` reads the slots;
2. :func:`~nl2sparql.translate.plans.plans_for` turns them into one plan, or
   several when the question is ambiguous;
3. the retriever (optional, built once per pool set and cached by
   :mod:`nl2sparql.translate.translator`) returns the most similar pool
   examples; each plan gets ``prior + 0.3 × vote``, where ``vote`` is the
   score-weighted agreement (same shape, pattern-set Jaccard) of the top
   examples with the plan's shape and patterns;
4. the best plan is built with the catalogue and rendered.

When nothing in the question is recognised, the best example's query is
returned (low confidence). The confidence is
``0.4·clarity + 0.3·coverage + 0.3·vote``: clarity is 1 for an unambiguous
reading (the plan's prior otherwise), coverage is the share of strongly cued
patterns (``detect_patterns`` ≥ 0.8) that the plan uses, vote as above (equal
to coverage when there are no examples).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ..patterns import CATALOGUE, StandalonePattern, detect_patterns
from ..sparql.lexer import tokenize
from .concepts import NOT_IN_KB
from .plans import Plan, plans_for, render_plan
from .slots import Slots, extract_slots

#: Labels that say how a query is built rather than what it asks (ignored when comparing plans).
AUTO_LABELS = {label for label, pattern in CATALOGUE.items() if pattern.kind == "built"}
#: Labels of patterns that write whole queries (graph listings, whole-KB counts).
STANDALONE_LABELS = {label for label, pattern in CATALOGUE.items() if isinstance(pattern, StandalonePattern)}
STRONG_CUE = 0.8
#: A retrieved example at least this similar may lend its reading to a question the cues cannot read.
ADAPT_SCORE = 0.55
SHAPES = ("list", "count", "word", "standalone")


@dataclass
class Example:
    """A retrieved pool example as the translator reports it."""

    id: str
    score: float
    question: str
    patterns: list[str]
    shape: str
    sparql: str

    def to_dict(self) -> dict:
        """JSON-ready (the SPARQL is left out; the pool has it)."""
        return {"id": self.id, "score": round(self.score, 4), "question": self.question,
                "patterns": self.patterns, "shape": self.shape}


@dataclass
class OfflineResult:
    """What the offline translator produced for one question."""

    question: str
    sparql: str
    shape: str
    patterns: dict[str, float]
    slots: dict
    examples: list[Example] = field(default_factory=list)
    confidence: float = 0.0
    warnings: list[str] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)
    source: str = "catalogue"

    def to_dict(self) -> dict:
        """JSON-ready view."""
        return {"question": self.question, "sparql": self.sparql, "shape": self.shape, "patterns": self.patterns,
                "slots": self.slots, "examples": [e.to_dict() for e in self.examples],
                "confidence": self.confidence, "warnings": self.warnings, "alternatives": self.alternatives,
                "source": self.source}


class OfflineTranslator:
    """Compose LiITA queries from the pattern catalogue; ``retriever`` (optional) breaks ties.

    ``retriever`` is anything with ``retrieve(question, k)`` returning hits
    with ``item`` and ``score`` (a :class:`~nl2sparql.translate.retrieval.HybridRetriever`).
    """

    def __init__(self, retriever=None, k: int = 5, concepts=None):
        self.retriever = retriever
        self.k = k
        #: a :class:`~.concepts.ConceptMapper` (``None``: words are taken as written)
        self.concepts = concepts
        self._shapes: dict[str, str] = {}

    def read(self, question: str) -> tuple[Slots, list[str]]:
        """The question's slots, with English content words mapped to Italian lemmas; and what was mapped."""
        slots = extract_slots(question)
        notes = []
        if self.concepts is not None:
            for m in self.concepts.map_slots(slots):
                slots.concepts.append(m.to_dict())
                others = ", ".join(f"«{w}» {s:.2f}" for w, s in m.alternatives)
                notes.append(f"«{m.written}» read as the Italian lemma «{m.lemma}» (similarity {m.score:.2f}"
                             + (f"; other candidates: {others})" if others else ")"))
            notes += self.concepts.warnings
        notes += [f"«{n[len(NOT_IN_KB):]}» is not in LiITA (no lemma is written so, and it is no English word to map): "
                  "the answer is empty" for n in slots.notes if n.startswith(NOT_IN_KB)]
        return slots, notes

    def translate(self, question: str) -> OfflineResult:
        """Translate one question (Italian or English)."""
        from ..errors import DataError
        if not isinstance(question, str) or not question.strip():
            raise DataError("the question is empty")
        slots, mapped = self.read(question)
        examples = self.examples(question)
        plans = plans_for(slots)
        cues = {k: v for k, v in detect_patterns(question).items() if v >= STRONG_CUE}
        scored = _rank(plans, examples)
        best_score, plan, sparql, labels, vote = scored[0]
        warnings = mapped + list(plan.notes)
        coverage = _coverage(labels, cues, plan)
        if vote is None:
            vote = coverage
        clarity = 1.0 if len(plans) == 1 else min(1.0, plan.prior)
        source = "catalogue"
        adapted = self._adapted(slots, plan, examples) if _weak(plan) else None
        if adapted is not None:
            plan, example = adapted
            sparql, labels = render_plan(plan)
            source, clarity, vote = "adapted", 0.5, example.score
            warnings = mapped + [f"no fact asked about «{plan.word}» in words the cues know: read like the closest "
                                 f"example {example.id} ({', '.join(plan.labels)})"]
        elif plan.prior <= 0.3 and examples and examples[0].score >= 0.5:
            sparql, labels, source = examples[0].sparql, {p: 0.9 for p in examples[0].patterns}, "example"
            warnings.append(f"nothing recognised in the question: using the query of example {examples[0].id}")
            clarity, vote = 0.2, examples[0].score
        if len(plans) > 1:
            warnings.append(f"ambiguous question: {len(plans)} readings, chose the one the examples support")
        confidence = round(max(0.0, min(1.0, 0.4 * clarity + 0.3 * coverage + 0.3 * vote)), 2)
        if any(n.startswith(NOT_IN_KB) for n in slots.notes):
            confidence = round(confidence * 0.3, 2)  # about a word LiITA does not have
        alternatives = [{"score": round(s, 3), **p.describe()} for s, p, *_ in scored[1:4]]
        return OfflineResult(question, sparql, plan.shape if source != "example" else examples[0].shape,
                             _clean_labels(labels), _slot_view(slots, plan), examples, confidence, warnings,
                             alternatives, source)

    @staticmethod
    def _adapted(slots: Slots, plan: Plan, examples: Sequence[Example]) -> tuple[Plan, Example] | None:
        """The closest word example's reading (its facts) for the question's named word (``None``: none fits).

        A question that names a word but asks for nothing the cues know ("«lutto»: che vuol dire in breve?")
        borrows the facts of the most similar retrieved question about a word, read by the same reader.
        """
        if not slots.word:
            return None
        for example in examples[:3]:
            if example.score < ADAPT_SCORE or example.shape != "word":
                continue
            theirs = plans_for(extract_slots(example.question))[0]
            if theirs.shape == "word" and theirs.steps:
                return Plan("word", [(label, dict(values)) for label, values in theirs.steps], word=slots.word,
                            prior=0.5), example
        return None

    def ranked(self, question: str, examples: Sequence[Example] | None = None,
               changes: dict | None = None) -> list[dict]:
        """Every reading of ``question`` rendered as SPARQL, best first (the first is :meth:`translate`'s plan).

        Each item: ``score``, ``sparql``, ``shape``, ``patterns`` (labels with weights), ``plan``
        (:meth:`Plan.describe`) and ``notes``. ``examples`` (default: retrieved now) cast the votes;
        ``changes`` replaces slot values before planning (``{"word": None, "translation_target": "scantu"}``).
        """
        slots, _ = self.read(question)
        if changes:
            try:
                slots = slots.copy(**changes)
            except AttributeError as exc:  # a slot no pattern declares
                raise ValueError(str(exc)) from None
        examples = self.examples(question) if examples is None else list(examples)
        return [{"score": round(score, 4), "sparql": sparql, "shape": plan.shape, "patterns": _clean_labels(labels),
                 "plan": plan.describe(), "notes": list(plan.notes)}
                for score, plan, sparql, labels, _ in _rank(plans_for(slots), examples)]

    def examples(self, question: str) -> list[Example]:
        """The top-``k`` retrieved examples (empty without a retriever)."""
        if self.retriever is None:
            return []
        out = []
        for hit in self.retriever.retrieve(question, k=self.k):
            item = hit.item
            sparql = str(item.get("sparql") or "")
            key = str(item.get("id", id(item)))
            if key not in self._shapes:
                known = (item.get("provenance") or {}).get("shape") if isinstance(item.get("provenance"), dict) else None
                self._shapes[key] = known if known in SHAPES else example_shape(sparql, item.get("patterns") or {})
            patterns = sorted(k for k, v in (item.get("patterns") or {}).items() if _num(v) >= 0.5)
            out.append(Example(key, float(hit.score), hit.matched_text, patterns, self._shapes[key], sparql))
        return out


def _rank(plans: Sequence[Plan], examples: Sequence[Example]) -> list[tuple]:
    """``(score, plan, sparql, labels, vote)`` per plan, best first: ``prior + 0.3 × vote``."""
    scored = []
    for plan in plans:
        sparql, labels = render_plan(plan)
        vote = _vote(plan.shape, labels, examples) if examples else None
        scored.append((plan.prior + 0.3 * (vote or 0.0), plan, sparql, labels, vote))
    scored.sort(key=lambda s: -s[0])
    return scored


def _weak(plan: Plan) -> bool:
    """True when the cues found nothing to ask about the question's named word (or nothing at all)."""
    return plan.prior <= 0.3 or (plan.shape == "word" and not plan.steps)


def _num(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _content(labels) -> set[str]:
    return {l for l in labels if l not in AUTO_LABELS and (not isinstance(labels, dict) or labels[l] >= 0.5)}


def _vote(shape: str, labels: dict[str, float], examples: Sequence[Example]) -> float:
    """Score-weighted agreement of the examples with a plan: ½ same shape + ½ pattern Jaccard."""
    mine = _content(labels)
    total = sum(e.score for e in examples) or 1.0
    agree = 0.0
    for e in examples:
        theirs = _content(e.patterns)
        union = mine | theirs
        jaccard = len(mine & theirs) / len(union) if union else 1.0
        agree += e.score * (0.5 * (e.shape == shape) + 0.5 * jaccard)
    return agree / total


def _coverage(labels: dict[str, float], cues: dict[str, float], plan: Plan) -> float:
    wanted = {c for c in cues if c not in AUTO_LABELS}
    if not wanted:
        return 1.0 if labels else 0.0
    return len(wanted & set(labels)) / len(wanted)


def _clean_labels(labels: dict[str, float]) -> dict[str, float]:
    return dict(sorted(((k, round(v, 2)) for k, v in labels.items() if v > 0), key=lambda kv: (-kv[1], kv[0])))


def _slot_view(slots: Slots, plan: Plan) -> dict:
    view = slots.to_dict()
    view.pop("quoted", None)
    if plan.word:
        view["word"] = plan.word
    view["plan"] = [{"pattern": label, **values} for label, values in plan.steps]
    if plan.standalone:
        view["plan"] = [{"pattern": plan.standalone[0], **plan.standalone[1]}]
    return view


_STR_EQ = re.compile(r"STR\s*\(\s*\?\w+\s*\)\s*=\s*[\"']|\bVALUES\s+\?\w+\s*\{\s*[\"']", re.I)


def example_shape(sparql: str, patterns: dict) -> str:
    """The shape of a pool query: ``word`` (one named lemma), ``count``, ``standalone`` or ``list``."""
    outside = _outside_service(sparql)
    labels = {k for k, v in patterns.items() if _num(v) >= 0.5}
    content = labels - AUTO_LABELS - STANDALONE_LABELS
    if labels & STANDALONE_LABELS and not content:
        return "standalone"
    if _STR_EQ.search(outside):
        return "word"
    if re.search(r"\bCOUNT\s*\(", outside, re.I) and not re.search(r"\bGROUP\s+BY\b", outside, re.I):
        return "count"
    return "list"


def _outside_service(sparql: str) -> str:
    """The query text without the bodies of SERVICE blocks (tokens, so strings never confuse it)."""
    tokens = tokenize(sparql)
    keep, depth, skip_from = [], 0, None
    pending = False
    for tok in tokens:
        if tok.upper == "SERVICE":
            pending = True
        elif tok.text == "{":
            depth += 1
            if pending and skip_from is None:
                skip_from, pending = depth, False
        elif tok.text == "}":
            if skip_from is not None and depth == skip_from:
                skip_from = None
            depth -= 1
            continue
        if skip_from is None:
            keep.append(tok.text)
    return " ".join(keep)
