"""The frame that patterns compose into, the question fragments they add, and the facts they sample.

A pattern (:class:`~.pattern.Pattern`, one module per label in this package)
adds its SPARQL building block to a :class:`Frame` (the query under
construction) and the :class:`Fragment` of question text that says it, in
Italian and English, for the four personas; it samples slot values from
:class:`Facts` read from a KB, so the composed query has at least its
*anchor* lemma as answer.

Frames have three shapes: ``list`` (lemmas that satisfy constraints, with
optional extra columns), ``word`` (facts about one named word) and ``count``
(a list turned into a COUNT). Standalone patterns (graphs, class counts)
build their whole query themselves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..namespaces import COMPLIT_SERVICE
from ..sparql.model import IRI, Group, Lit, Service, Triple, Values, Var

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
    #: What the question asked to see (the translator's request; empty: the catalogue's default columns).
    #: ``lemma_iri``: the lemma IRI column of a list (True: asked for, False: not wanted).
    answer: dict = field(default_factory=dict)
    #: the focus-lemma triples (``?lemma a lila:Lemma ; ontolex:writtenRep ?wr``), placed last
    base: list = field(default_factory=list)
    _service: Optional[Group] = None
    _word: Optional[Var] = None
    _sense_var: Optional[Var] = None
    _counters: dict = field(default_factory=dict)
    #: Callables that adjust the assembled :class:`~nl2sparql.sparql.model.Select` (a pattern that
    #: changes the query form registers one in its ``build``).
    finishers: list = field(default_factory=list)

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
