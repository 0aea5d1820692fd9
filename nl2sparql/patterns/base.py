"""What a LiITA query pattern is, and the frame that patterns compose into.

A *pattern* (one module per label in this package) knows four things:

* its SPARQL building block: :meth:`Pattern.apply` adds triples, filters and
  projected variables to a :class:`Frame` (the query under construction);
* its slots and how to sample them: :attr:`Pattern.fact_queries` ask the KB
  for the facts that make a slot value non-empty (e.g. which lemmas carry
  which ELITA emotion); :meth:`Pattern.choose` picks slot values for an
  *anchor* lemma, so the composed query has at least that lemma as answer;
* its phrasings: the :class:`Fragment` it adds, in Italian and English, for
  the four personas;
* its detection cues: :meth:`Pattern.sparql_weight` reads structural
  features of any query, :attr:`Pattern.question_cues` are word-boundary
  regular expressions over questions.

Frames have three shapes: ``list`` (lemmas that satisfy constraints, with
optional extra columns), ``word`` (facts about one named word) and ``count``
(a list turned into a COUNT). Standalone patterns (graphs, class counts)
build their whole query themselves.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Optional

from ..namespaces import COMPLIT_SERVICE
from ..sparql.model import IRI, Group, Lit, Select, Service, Triple, Values, Var

PERSONAS = ("generic", "linguist", "linked_data_expert", "pedagogical")
LANGS = ("it", "en")


@dataclass
class Fragment:
    """A piece of question text contributed by a pattern.

    ``kind`` says where it goes: ``head`` (the noun of a list: "sostantivi"),
    ``constraint`` (a relative clause: "che esprimono paura"), ``projection``
    (what else to show: "la loro traduzione siciliana"), ``word_fact`` (what
    to tell about a named word: "la definizione"). ``text[lang][register]`` is
    a list of alternatives; registers are ``plain`` and ``tech`` (the linked-
    data expert's wording).
    """

    kind: str
    text: dict[str, dict[str, list[str]]]

    def pick(self, lang: str, register: str, rng: random.Random) -> str:
        """One alternative for a language and register."""
        options = self.text[lang].get(register) or self.text[lang]["plain"]
        return rng.choice(options)


def frag(kind: str, it: list[str] | str, en: list[str] | str,
         it_tech: list[str] | str | None = None, en_tech: list[str] | str | None = None) -> Fragment:
    """Build a :class:`Fragment` from alternatives (a string is one alternative)."""
    def as_list(x):
        return [x] if isinstance(x, str) else list(x)
    text = {"it": {"plain": as_list(it)}, "en": {"plain": as_list(en)}}
    if it_tech is not None:
        text["it"]["tech"] = as_list(it_tech)
    if en_tech is not None:
        text["en"]["tech"] = as_list(en_tech)
    return Fragment(kind, text)


@dataclass
class Frame:
    """A query under construction around a focus lemma ``?lemma`` / ``?wr``."""

    shape: str = "list"
    lemma: Var = Var("lemma")
    wr: Var = Var("wr")
    where: Group = field(default_factory=Group)
    projection: list = field(default_factory=list)
    order_by: list = field(default_factory=list)
    group_by: list = field(default_factory=list)
    having: list = field(default_factory=list)
    fragments: list[Fragment] = field(default_factory=list)
    slots: dict[str, str] = field(default_factory=dict)
    mentions: list[tuple[str, str]] = field(default_factory=list)
    labels: dict[str, float] = field(default_factory=dict)
    aggregate: bool = False
    #: the focus-lemma triples (``?lemma a lila:Lemma ; ontolex:writtenRep ?wr``), placed last
    base: list = field(default_factory=list)
    _service: Optional[Group] = None
    _word: Optional[Var] = None
    _sense_var: Optional[Var] = None
    _counters: dict = field(default_factory=dict)

    def fresh(self, base: str) -> Var:
        """A new variable name that no other pattern uses (``base``, then ``base2``, …)."""
        n = self._counters.get(base, 0) + 1
        self._counters[base] = n
        return Var(base if n == 1 else f"{base}{n}")

    def tag(self, label: str, weight: float) -> None:
        """Record that ``label`` contributes to this query (highest weight wins)."""
        self.labels[label] = max(weight, self.labels.get(label, 0.0))

    def slot(self, name: str, value: str, it: str | None = None, en: str | None = None) -> None:
        """Record a slot value and the text the Italian / English questions must contain."""
        self.slots[name] = value
        self.mentions.append((it if it is not None else value, en if en is not None else (it or value)))

    def sense(self) -> tuple[Var, Group]:
        """The CompL-it sense of ``?word`` (shared by every sense-level pattern)."""
        word, service = self.complit()
        if self._sense_var is None:
            self._sense_var = Var("sense")
            service.add(Triple(word, IRI.of("ontolex:sense"), self._sense_var))
        return self._sense_var, service

    def project(self, *variables: Var) -> None:
        """Add variables to the projection (once each)."""
        for v in variables:
            if v not in self.projection:
                self.projection.append(v)

    def complit(self) -> tuple[Var, Group]:
        """The CompL-it word linked to ``?lemma`` and the SERVICE group to add senses to.

        The link ``?word ontolex:canonicalForm ?lemma`` lives on the LiITA
        side, outside SERVICE; the same ``?word`` binds inside SERVICE (SCHEMA
        rule 3). Created once per frame and shared by every CompL-it pattern.
        """
        if self._service is None:
            self._word = Var("word")
            self.where.add(Triple(self._word, IRI.of("ontolex:canonicalForm"), self.lemma))
            self._service = Group()
            self.where.add(Service(IRI(COMPLIT_SERVICE), self._service))
            self.tag("SERVICE_INTEGRATION", 0.7)
        return self._word, self._service


def italian(word: str) -> Lit:
    """An Italian written form: ``"casa"@it`` (LiITA and CompL-it tag Italian written reps)."""
    return Lit(word, lang="it")


def related_to_named(frame: Frame, prop, written: str) -> None:
    """Inside SERVICE: ``?sense prop ?relatedSense`` where the related sense belongs to a word written ``written``.

    The named word comes first, as ``VALUES ?cwr { "animale"@it }`` rather than
    ``FILTER(STR(?cwr) = "animale")``: the same answers for tagged written reps,
    and Oxigraph (which joins in written order) starts from the bound value
    instead of scanning every form: 0.05 s instead of 25 s on the full mirror.
    """
    sense, service = frame.sense()
    other_sense, other_word = frame.fresh("relatedSense"), frame.fresh("relatedWord")
    form, wr = frame.fresh("form"), frame.fresh("cwr")
    block = [Values(wr, [italian(written)]),
             Triple(form, IRI.of("ontolex:writtenRep"), wr),
             Triple(other_word, IRI.of("ontolex:canonicalForm"), form),
             Triple(other_word, IRI.of("ontolex:sense"), other_sense),
             Triple(sense, prop, other_sense)]
    service.elements[0:0] = block


def quote(lang: str, value: str) -> str:
    """A quoted word as it appears in questions."""
    return f"«{value}»" if lang == "it" else f'"{value}"'


@dataclass
class Facts:
    """Per-lemma facts sampled from a KB, keyed by fact name.

    ``rows[name]`` is a list of tuples (first element: the lemma IRI);
    ``by_lemma(name)`` indexes them. ``labels`` maps lemma IRI → written form.
    """

    rows: dict[str, list[tuple]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    _index: dict = field(default_factory=dict, repr=False)

    def by_lemma(self, name: str) -> dict[str, list[tuple]]:
        """``{lemma: [row tail, …]}`` for one fact."""
        if name not in self._index:
            index: dict[str, list[tuple]] = {}
            for row in self.rows.get(name, []):
                index.setdefault(row[0], []).append(tuple(row[1:]))
            self._index[name] = index
        return self._index[name]

    def lemmas(self, name: str) -> set[str]:
        """The lemmas that have fact ``name``."""
        return set(self.by_lemma(name))

    def derived(self, key: str, build: Callable[["Facts"], object]):
        """A structure derived from the facts, built once (e.g. a sorted index of written forms)."""
        cache_key = ("derived", key)
        if cache_key not in self._index:
            self._index[cache_key] = build(self)
        return self._index[cache_key]

    def lemmas_related_to(self, fact: str, target: str) -> set[str]:
        """Lemmas having a ``fact`` row whose first value is ``target`` (an index built once per fact)."""
        def build(facts: "Facts") -> dict[str, set[str]]:
            index: dict[str, set[str]] = {}
            for lemma, values in facts.by_lemma(fact).items():
                for v in values:
                    index.setdefault(v[0], set()).add(lemma)
            return index
        return set(self.derived(f"related_to:{fact}", build).get(target, ()))

    def to_json(self) -> dict:
        """A JSON-ready dict (for the pipeline's step files)."""
        return {"rows": {k: [list(r) for r in v] for k, v in self.rows.items()}, "labels": self.labels}

    @staticmethod
    def from_json(obj: dict) -> "Facts":
        """Read :meth:`to_json` output."""
        return Facts({k: [tuple(r) for r in v] for k, v in obj["rows"].items()}, dict(obj["labels"]))


class Pattern:
    """Base class of the catalogue entries (one subclass instance per label)."""

    label: ClassVar[str] = ""
    #: Position in the catalogue (SCHEMA.md order): prompts, reports and ties follow it.
    rank: ClassVar[int] = 0
    #: ``constraint`` (narrows a list), ``projection`` (adds columns or word facts),
    #: ``modifier`` (changes the query form) or ``standalone``.
    role: ClassVar[str] = "constraint"
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
    #: Fact name → SPARQL returning rows whose first column is a lemma IRI.
    fact_queries: ClassVar[dict[str, str]] = {}
    #: ``(regex, weight)`` cues over lower-cased, accent-folded questions (IT and EN).
    question_cues: ClassVar[list[tuple[str, float]]] = []
    #: Fact names an anchor lemma must have for this pattern to apply to it.
    needs: ClassVar[tuple[str, ...]] = ()
    shapes: ClassVar[tuple[str, ...]] = ("list", "count", "word")

    def applicable(self, facts: Facts, lemma: str) -> bool:
        """True when ``lemma`` has what this pattern needs."""
        return all(lemma in facts.by_lemma(n) for n in self.needs)

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

    def apply(self, frame: Frame, facts: Facts, lemma: str, rng: random.Random) -> None:
        """Choose slots from the anchor, then build."""
        self.build(frame, self.choose(facts, lemma, frame.shape, rng), rng)

    def sparql_weight(self, features) -> float:
        """How strongly a query with these :class:`~nl2sparql.sparql.features.Features` shows this pattern."""
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


class StandalonePattern(Pattern):
    """A pattern that writes its whole query (graph listings, class counts)."""

    role: ClassVar[str] = "standalone"
    shapes: ClassVar[tuple[str, ...]] = ()

    def variants(self, facts: Facts) -> list[dict]:
        """Every slot assignment this pattern can build (enumerated, then sampled)."""
        raise NotImplementedError

    def build(self, slots: dict, rng: random.Random) -> tuple[Select, list[Fragment], dict[str, float], list[str]]:
        """The query, its question fragments, its labels and the slot mentions."""
        raise NotImplementedError
