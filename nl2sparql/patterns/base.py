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
from ..sparql.model import IRI, Group, Lit, Optional_, Service, Triple, Values, Var
from .vocab import in_vocabulary

PERSONAS = ("generic", "linguist", "linked_data_expert", "pedagogical")
LANGS = ("it", "en")


@dataclass
class Fragment:
    """A piece of question text contributed by a pattern.

    ``kind`` says where it goes: ``head`` (the noun of a list: "sostantivi"),
    ``constraint`` (a plural verb phrase: "esprimono paura"), ``projection``
    (what else to show: "la loro traduzione in siciliano"; ``pair`` when each
    row is a pair the fact is required for: "e le loro traduzioni"), ``word_fact``
    (what to tell about a named word: "la definizione"), ``scope`` (where the
    lemmas come from), ``group`` (what a count is grouped by: "per ogni
    emozione"), ``standalone`` (a whole question). ``text[lang][register]``
    is a list of alternatives. Registers: ``plain`` (everyday wording),
    ``tech`` (the linked-data expert's wording), and optionally ``ling`` (the
    linguist's) and ``ask`` (a word fact as a whole question, ``{w}`` standing
    for the quoted word: "Come si dice {w} in siciliano?").

    An alternative is a string or, for noun phrases whose number the sentence
    must agree with, ``{"t": text, "n": "sg" | "pl"}`` (see :func:`sg`,
    :func:`pl`). Italian constraint texts write the plural ending that agrees
    with the head noun as ``{a}`` ("sono associat{a}": "associati" with
    «lemmi», "associate" with «parole»).
    """

    kind: str
    text: dict[str, dict[str, list]]

    def has(self, lang: str, register: str) -> bool:
        """True when the fragment has alternatives of its own for ``register``."""
        return bool(self.text[lang].get(register))

    @property
    def lead(self) -> str | None:
        """What the question is about, for the personas' frames (see :func:`frag`); ``None``: not said."""
        leads = self.text["it"].get("lead")
        return leads[0] if leads else None

    def pick_np(self, lang: str, register: str, rng: random.Random) -> tuple[str, dict]:
        """One alternative for a language and register, with its features (``n``: ``sg``/``pl``, default ``pl``)."""
        options = self.text[lang].get(register) or self.text[lang]["plain"]
        choice = rng.choice(options)
        if isinstance(choice, dict):
            return choice["t"], {"n": "pl", **{k: v for k, v in choice.items() if k != "t"}}
        return choice, {"n": "pl"}

    def pick(self, lang: str, register: str, rng: random.Random) -> str:
        """One alternative for a language and register."""
        return self.pick_np(lang, register, rng)[0]


def sg(text: str, always: bool = False) -> dict:
    """A singular noun phrase alternative ("la definizione"); ``always``: every entity has one (a count)."""
    return {"t": text, "n": "sg", **({"always": True} if always else {})}


def pl(text: str) -> dict:
    """A plural noun phrase alternative ("i sinonimi")."""
    return {"t": text, "n": "pl"}


def frag(kind: str, it, en, it_tech=None, en_tech=None, ask: tuple | None = None,
         ling: tuple | None = None, lead: str | None = None) -> Fragment:
    """Build a :class:`Fragment` from alternatives (a string or a dict is one alternative).

    ``ask`` and ``ling`` are ``(italian, english)`` alternatives for the
    ``ask`` and ``ling`` registers. ``lead`` says what the question is about, for the personas' frames
    (:data:`~.phrasing.LEADS`: ``kb``, ``italian``, ``dialect``, ``lexicon``): a learner asking a word's
    Sicilian translation is not "learning Italian".
    """
    def as_list(x):
        return [x] if isinstance(x, (str, dict)) else list(x)
    text = {"it": {"plain": as_list(it)}, "en": {"plain": as_list(en)}}
    for register, pair in (("tech", (it_tech, en_tech)), ("ask", ask or (None, None)),
                           ("ling", ling or (None, None)), ("lead", (lead, lead))):
        for lang, value in zip(("it", "en"), pair):
            if value is not None:
                text[lang][register] = as_list(value)
    return Fragment(kind, text)


@dataclass
class Facet:
    """Something shown next to the entities ("also show X", a word's facts): its triples sit in ``OPTIONAL``.

    An entity that lacks the facet stays in the answer. ``group`` takes the
    facet's triples; ``columns`` are its projected variables with the name
    each gets when the facets are aggregated to one row per entity
    (:func:`~.compose.finish_query`).
    """

    #: ``None`` in a count, where the facet is required
    optional: Optional_ | None
    parent: Group
    group: Group
    columns: list = field(default_factory=list)


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
    #: the focus-lemma triples (``?lemma dcterms:isPartOf <the bank> ; ontolex:writtenRep ?wr``), placed last
    base: list = field(default_factory=list)
    #: what a list or a count is about: ``words`` (the Lemma Bank's lemmas and their hypolemmas, the participles and
    #: -mente adverbs LiITA records under a lemma) or ``lemmas`` (the lemmas only); see :func:`~.compose.start_frame`
    units: str = "words"
    #: the elements of ``base`` about the written form (``?wr`` and, in a list or a count, the test that it is the
    #: lemma's own form, its ``rdfs:label``): dropped together where the written form is not needed
    written: list = field(default_factory=list)
    #: the dialect bank the focus lemmas come from (``None``: the Italian Lemma Bank)
    bank: Optional[str] = None
    _service: Optional[Group] = None
    _word: Optional[Var] = None
    _sense_var: Optional[Var] = None
    _counters: dict = field(default_factory=dict)
    #: What the question asks to show next to the entities (see :meth:`facet`).
    facets: list = field(default_factory=list)
    #: ``(slot, value)`` pairs outside the vocabulary their slot claims (see :meth:`slot`).
    odd_slots: list = field(default_factory=list)
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
        """Record a slot value and the text the Italian / English questions must contain.

        A value outside the closed vocabulary its slot claims (an emotion that is no ``elita:Emotion``) is
        recorded in ``odd_slots``: the composer never draws such a candidate.
        """
        if not in_vocabulary(name, value):
            self.odd_slots.append((name, value))
        self.slots[name] = value
        self.mentions.append((it if it is not None else value, en if en is not None else (it or value)))

    def sense(self) -> tuple[Var, Group]:
        """The CompL-it sense of ``?word`` (shared by every sense-level pattern)."""
        word, service = self.complit()
        if self._sense_var is None:
            self._sense_var = self.fresh("sense")
            service.add(Triple(word, IRI.of("ontolex:sense"), self._sense_var))
        return self._sense_var, service

    def project(self, *variables: Var) -> None:
        """Add variables to the projection (once each)."""
        for v in variables:
            if v not in self.projection:
                self.projection.append(v)

    def facet(self, required: bool = False) -> Facet:
        """A new facet: an ``OPTIONAL`` group at the end of the query for its triples.

        A count shows nothing, so there a facet is required: "how many nouns
        have a definition" counts the nouns with one; ``required``: so it is
        in a list too ("which words have an emotion").
        """
        return self._facet(self.where, Group(), required)

    def complit_facet(self, required: bool = False) -> tuple[Var, Facet]:
        """A new CompL-it facet: a CompL-it word of ``?lemma`` and a group inside ``SERVICE`` for the facet.

        The link is optional too, ``OPTIONAL { ?wordN ontolex:canonicalForm ?lemma . SERVICE <CompL-it>
        { … } }``, so lemmas without a CompL-it word stay; it never shares a sense with a constraint (the
        definitions of a word are those of all its senses, not of the one a relation went through).
        ``required``: joined directly ("which words have a synonym").
        """
        word, inner = self.fresh("word"), Group()
        outer = Group([Triple(word, IRI.of("ontolex:canonicalForm"), self.lemma),
                       Service(IRI(COMPLIT_SERVICE), inner)])
        facet = self._facet(self.where, outer, required)
        facet.group = inner
        self.tag("SERVICE_INTEGRATION", 0.7)
        return word, facet

    def _facet(self, parent: Group, body: Group, required: bool = False) -> Facet:
        if self.shape == "count" or required:  # required: its triples join the parent directly
            parent.add(*body.elements)
            return Facet(None, parent, parent)
        optional = Optional_(body)
        parent.add(optional)
        facet = Facet(optional, parent, body)
        self.facets.append(facet)
        return facet

    def require(self, facet: Facet) -> None:
        """Make a facet required: its OPTIONAL's content takes the OPTIONAL's place (it leaves ``facets``)."""
        if facet.optional is None:
            return
        elements = facet.parent.elements
        at = next(i for i, e in enumerate(elements) if e is facet.optional)
        elements[at:at + 1] = facet.optional.group.elements
        self.facets = [f for f in self.facets if f is not facet]

    def show(self, facet: Facet, var: Var, name: str) -> None:
        """Project a facet column; ``name`` is its column once aggregated (``?definitions``)."""
        facet.columns.append((var, name))
        self.project(var)

    def confine(self, bank: str) -> None:
        """The focus lemmas are ``bank``'s (a dialect lemma bank's): its ``dcterms:isPartOf`` replaces the Italian
        words', and every written rep of a dialect lemma is its own (no label marks one as the lemma's)."""
        member = self.base[0]
        member.p, member.o = IRI.of("dcterms:isPartOf"), IRI(bank)
        self.any_written_rep()

    def any_written_rep(self) -> None:
        """``?wr`` is any written rep of the lemma, not only its own form: the word a question names may be
        spelt in any way LiITA records («giuoco» is *gioco*)."""
        extra = self.written[1:]
        self.written = self.written[:1]
        self.base = [b for b in self.base if not any(b is e for e in extra)]
        self.where.elements = [e for e in self.where.elements if not any(e is x for x in extra)]

    def complit(self) -> tuple[Var, Group]:
        """The CompL-it word linked to ``?lemma`` and the SERVICE group to add senses to.

        The link ``?word ontolex:canonicalForm ?lemma`` lives on the LiITA
        side, outside SERVICE; the same ``?word`` binds inside SERVICE (SCHEMA
        rule 3). Created once per frame and shared by every CompL-it pattern.
        """
        if self._service is None:
            self._word = self.fresh("word")
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
