"""What a catalogue pattern declares: everything the project knows about it, in one class.

A pattern module defines a subclass of :class:`Pattern` and ``PATTERN``, its
one instance. Every attribute and method has a default, so a pattern declares
only what it has. By concern:

* **catalogue**: ``label``, ``rank`` (catalogue order), ``kind`` (``content``,
  ``relation``, ``query`` or ``built``; see :attr:`Pattern.kind`);
* **SPARQL block and sampling** (the generator): ``fact_queries``, ``needs`` /
  ``needs_any``, :meth:`~Pattern.choose`, :meth:`~Pattern.build`,
  :meth:`~Pattern.matching`; how the composer may use it: ``compose``,
  ``excludes``, ``aggregates``, :meth:`~Pattern.compose_scope`,
  :meth:`~Pattern.compose_finish`; the phrasings are the fragments ``build``
  adds;
* **tagging and detection**: :meth:`~Pattern.sparql_weight`,
  :meth:`~Pattern.derived_weight`, ``question_cues``;
* **question reading**: ``slot_fields``, reader methods marked with
  :func:`~.reading.reads`, ``named_cues``, ``fact_nouns``,
  ``relation_kinds``, ``mention_cue``;
* **planning** (slots → catalogue steps): :meth:`~Pattern.constraint_steps`,
  :meth:`~Pattern.projection_steps`, :meth:`~Pattern.word_steps`,
  :meth:`~Pattern.scope_steps`, ``build_order``, :meth:`~Pattern.asks_count`,
  :meth:`~Pattern.readings`, :meth:`~Pattern.alternatives`;
* **rules and prompts**: ``resource`` / ``entry_properties`` (the
  multi-entry rule), ``rules``, ``guidance``, ``example``.
"""

from __future__ import annotations

import random
import re
from typing import ClassVar

from ..sparql.model import Select
from .base import Facts, Fragment, Frame

KINDS = ("content", "relation", "query", "built")


class Pattern:
    """Base class of the catalogue entries (one subclass instance per label)."""

    # -- catalogue ---------------------------------------------------------------------------
    label: ClassVar[str] = ""
    #: Position in the catalogue (SCHEMA.md order): prompts, reports and ties follow it.
    rank: ClassVar[int] = 0
    #: ``content``: a constraint or a fact about the lemmas; ``relation``: a sense relation (with
    #: content, it makes a query COMPOSITIONAL); ``query``: what the query form asks (counts,
    #: graphs, distributions); ``built``: how a query is built rather than what it asks.
    kind: ClassVar[str] = "content"

    # -- SPARQL block and sampling -----------------------------------------------------------
    #: Fact name → SPARQL returning rows whose first column is a lemma IRI.
    fact_queries: ClassVar[dict[str, str]] = {}
    #: Fact names an anchor lemma must have (all of them), or at least one of (``needs_any``).
    needs: ClassVar[tuple[str, ...]] = ()
    needs_any: ClassVar[tuple[str, ...]] = ()
    #: How the composer may use the pattern: role → position in that role's draw list. Roles:
    #: ``constraint`` (narrows a list or count), ``projection`` (a list column), ``word`` (a fact
    #: about a named word), ``scope`` (:meth:`compose_scope`), ``finish`` (:meth:`compose_finish`).
    #: Positions only order the lists the composer shuffles with its seed (pools stay reproducible).
    compose: ClassVar[dict[str, int]] = {}
    #: Labels this pattern is never composed with.
    excludes: ClassVar[tuple[str, ...]] = ()
    #: The block aggregates per lemma: alone among the word facts, alone among the patterns of its
    #: resource, and dropped from counts (it cannot be counted over).
    aggregates: ClassVar[bool] = False

    # -- rules and prompts -------------------------------------------------------------------
    #: The LiITA resource whose own entry for a lemma this pattern reads, and the properties that
    #: mark such an entry (the multi-entry rule reads them: one variable per resource's entry).
    resource: ClassVar[str | None] = None
    entry_properties: ClassVar[tuple[str, ...]] = ()
    #: LiITA rules that belong to this pattern (:class:`~nl2sparql.rules.Rule`); the registry adds them.
    rules: ClassVar[tuple] = ()
    #: What an LLM must know to write this pattern's block (prompts show it with the canonical block).
    guidance: ClassVar[str] = ""
    #: ``(shape, named word, slots)``: the build the prompts render as this pattern's canonical block.
    example: ClassVar[tuple[str, str | None, dict] | None] = None

    # -- detection and question reading ------------------------------------------------------
    #: ``(regex, weight)`` cues over lower-cased, accent-folded questions: does it ask for this pattern?
    question_cues: ClassVar[list[tuple[str, float]]] = []
    #: Slot fields this pattern reads from questions → default (a type such as ``list``: a fresh value).
    slot_fields: ClassVar[dict[str, object]] = {}
    #: ``(position, regex)``: phrasings that introduce the named word (group ``v``), e.g. "come si dice X";
    #: all patterns' cues are tried by position.
    named_cues: ClassVar[tuple[tuple[float, str], ...]] = ()
    #: Nouns of the facts this pattern tells about a word ("le definizioni di X"), as a regex.
    fact_nouns: ClassVar[str | None] = None
    #: True when a shown column can also be required (build slot ``required``): "which nouns *have a*
    #: definition" keeps only the nouns with one; "nouns *with their* definitions" keeps them all.
    requirable: ClassVar[bool] = False
    #: The sense relations this pattern reads (:class:`~.reading.RelationKind`).
    relation_kinds: ClassVar[tuple] = ()
    #: Where a question mentions this pattern's word fact: facts are built in the order mentioned.
    mention_cue: ClassVar[str | None] = None

    # -- planning ----------------------------------------------------------------------------
    #: Where the offline planner builds this pattern's constraint among the others (lower first).
    build_order: ClassVar[int] = 99

    # -- sampling and building ---------------------------------------------------------------
    def applicable(self, facts: Facts, lemma: str) -> bool:
        """True when ``lemma`` has what this pattern needs."""
        return all(lemma in facts.by_lemma(n) for n in self.needs) and (
            not self.needs_any or any(lemma in facts.by_lemma(n) for n in self.needs_any))

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        """Slot values for an anchor lemma (so that the anchor satisfies the block)."""
        return {}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        """Add this pattern's building block to ``frame`` for explicit ``slots``.

        The translator calls this with slots extracted from a question; the
        generator with slots chosen by :meth:`choose`. ``rng`` only picks
        wording alternatives.
        """
        raise NotImplementedError

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        """The lemmas that satisfy this block with ``slots`` according to the facts (None: unknown).

        The composer intersects these sets to estimate a list's size before
        running it, and skips candidates that would be far too broad.
        """
        return None

    def has_block(self) -> bool:
        """True when the pattern builds a block of its own (a derived label such as COMPOSITIONAL does not)."""
        return type(self).build not in (Pattern.build, StandalonePattern.build)

    def apply(self, frame: Frame, facts: Facts, lemma: str, rng: random.Random) -> None:
        """Choose slots from the anchor, then build."""
        self.build(frame, self.choose(facts, lemma, frame.shape, rng), rng)

    def scope(self, frame: Frame, values: dict) -> None:
        """Scope the frame's lemmas before any block is built (a ``scope`` step of a plan)."""
        raise NotImplementedError

    def compose_scope(self, frame: Frame, rng: random.Random) -> None:
        """Composer role ``scope``: maybe scope a fresh frame, before its blocks are built."""

    def compose_finish(self, frame: Frame, facts: Facts, anchor: str, rng: random.Random) -> None:
        """Composer role ``finish``: maybe change a built frame (drawn last, so other draws stay as they were)."""

    def finish_shape(self, frame: Frame) -> None:
        """Turn a frame of the shape this pattern finishes into its final form (see ``finishes``)."""

    #: The frame shape :meth:`finish_shape` finishes (the count shape's COUNT).
    finishes: ClassVar[str | None] = None

    # -- tagging and detection ---------------------------------------------------------------
    def sparql_weight(self, features) -> float:
        """How strongly a query with these :class:`~nl2sparql.sparql.features.Features` shows this pattern."""
        return 0.0

    def derived_weight(self, labels: dict[str, float], catalogue: dict, features=None) -> float:
        """A weight that follows from the other labels (and the features, when tagging a query); 0: none."""
        return 0.0

    def question_weight(self, folded_question: str) -> float:
        """The strongest cue weight that matches a folded question (0 if none)."""
        best = 0.0
        for regex, weight in self._compiled():
            if regex.search(folded_question):
                best = max(best, weight)
        return best

    def _compiled(self):
        cache = self.__class__.__dict__.get("_compiled_cues")
        if cache is None:
            cache = [(re.compile(p), w) for p, w in self.question_cues]
            setattr(self.__class__, "_compiled_cues", cache)
        return cache

    # -- question reading --------------------------------------------------------------------
    def readers(self) -> list[tuple[float, object]]:
        """``(stage, bound method)`` for every reader this pattern has (see :mod:`.reading`)."""
        out = []
        for name in dir(type(self)):
            stage = getattr(getattr(type(self), name), "reading_stage", None)
            if stage is not None:
                out.append((stage, getattr(self, name)))
        return sorted(out, key=lambda pair: pair[0])

    def mention(self, slots) -> str | None:
        """The regex of this pattern's word fact in a question (defaults to ``mention_cue``)."""
        return self.mention_cue

    # -- planning ----------------------------------------------------------------------------
    def constraint_steps(self, slots) -> list[dict]:
        """Build slots of each constraint the question puts on the lemmas it lists or counts."""
        return []

    def projection_steps(self, slots) -> list[dict]:
        """Build slots of each column the question asks to show next to the lemmas."""
        return []

    def word_steps(self, slots) -> list[dict]:
        """Build slots of each fact the question asks about its named word."""
        return []

    def scope_steps(self, slots, shape: str) -> list[dict]:
        """Values for :meth:`scope`, applied before any block of a ``shape`` plan."""
        return []

    def asks_count(self, slots) -> bool:
        """True when the question asks for a count through this pattern (without a count word)."""
        return False

    def count_fallback(self, slots) -> tuple[dict, str] | None:
        """Standalone build slots (and a note saying so) for a count with nothing to count by (``None``: not ours)."""
        return None

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        """Values for this standalone pattern's query around a plan's constraint ``steps`` (``None``: not asked).

        Analytic patterns (a ranking, an aggregate, a yes/no question, a count of a word's facts) take
        the plan's constraints and, for a plan about a named word, its word ``facts``, and write their
        whole query around them; the planner asks every pattern, in catalogue order.
        """
        return None

    def readings(self, slots) -> list[tuple[object, float]]:
        """Other readings of ambiguous slots, with their priors (empty: the slots are clear)."""
        return []

    def alternatives(self, steps: list, shape: str, slots) -> list[tuple[list, float]]:
        """Other plans for the same question (their steps and a prior factor), tried after ``steps``."""
        return []

    #: Planner notes when an aggregating block is dropped: from a word's facts, from a count.
    alone_note: ClassVar[str] = ""
    uncountable_note: ClassVar[str] = ""


class StandalonePattern(Pattern):
    """A pattern that writes its whole query (graph listings, class counts)."""

    kind: ClassVar[str] = "query"

    def variants(self, facts: Facts) -> list[dict]:
        """Every slot assignment this pattern can build (enumerated, then sampled)."""
        raise NotImplementedError

    def build(self, slots: dict, rng: random.Random) -> tuple[Select, list[Fragment], dict[str, float], list[str]]:
        """The query, its question fragments, its labels and the slot mentions."""
        raise NotImplementedError
