"""Composition rules: 1 to 4+ patterns combined into one query, anchored on a real lemma.

The composer picks a shape and a compatible set of patterns, then an
*anchor* lemma that every chosen pattern applies to; each pattern takes its
slot values from the anchor's facts (its POS, its emotion, its hypernym…),
so the composed query has at least the anchor as an answer. The execution
filter still runs every query: it is checked, never trusted.

Rules kept here (SCHEMA.md): hypernym direction and SERVICE joins live in
the pattern blocks; one variable per resource entry comes from
:meth:`Frame.fresh`; translations go Italian → dialect; every LIMIT comes
with an ORDER BY.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Callable

from ..namespaces import LEMMA_BANK
from ..sparql.model import (IRI, LIST_SEPARATOR, Call, Filter, Group, Optional_, Path, Select, Service, SubSelect,
                             Triple, Values, Var, eq, render, str_)
from ..sparql.plan import Scan, first_scan
from .base import Facts, Fragment, Frame, italian
from .catalogue import CATALOGUE
from .pattern import StandalonePattern


def role(name: str) -> tuple[str, ...]:
    """The labels the composer may draw for a role (``constraint``, ``projection``, ``word``…), in draw order."""
    return tuple(sorted((l for l, p in CATALOGUE.items() if name in p.compose), key=lambda l: CATALOGUE[l].compose[name]))


LIST_CONSTRAINTS = role("constraint")
LIST_PROJECTIONS = role("projection")
WORD_FACTS = role("word")


def excluded(label: str, others) -> bool:
    """True when ``label`` is never composed with one of ``others`` (either side's ``excludes``)."""
    def excludes(name: str) -> tuple[str, ...]:
        return CATALOGUE[name].excludes if name in CATALOGUE else ()
    return any(o in excludes(label) or label in excludes(o) for o in others)


def compatible(labels) -> bool:
    """True when the labels can share a query: no excluded pair, no aggregating block next to its resource's others."""
    labels = set(labels)
    for label in labels:
        pattern = CATALOGUE[label]
        if excluded(label, labels - {label}):
            return False
        if pattern.aggregates and sum(CATALOGUE[o].resource == pattern.resource for o in labels) > 1:
            return False
    return True


#: Units of a list or a count: ``words`` are the Lemma Bank's lemmas and their hypolemmas (``lila:Hypolemma``:
#: the participles and -mente adverbs LiITA records under a lemma, ``?h lila:isHypolemma ?lemma``); ``lemmas``
#: the lemmas only. A question that says "words", "nouns", «parole» asks for words; one that says "lemmas",
#: «lemmi», for lemmas (README, "Words and lemmas").
WORDS, LEMMAS = "words", "lemmas"
#: A word of the Italian Lemma Bank: one of its lemmas, or a hypolemma of one.
IN_BANK_AS_WORD = Path("alt", (IRI.of("dcterms:isPartOf"), Path("seq", (Path("+", (IRI.of("lila:isHypolemma"),)),
                                                                         IRI.of("dcterms:isPartOf")))))


def start_frame(shape: str, word: str | list[str] | None = None, units: str = WORDS,
                by_label: bool | None = None) -> Frame:
    """A frame with the focus lemma, a word of the Italian Lemma Bank (and the word filter: one named word, or
    a list of them, whose rows say which word each is about).

    ``?lemma (dcterms:isPartOf|lila:isHypolemma+/dcterms:isPartOf) <…/lemma/LemmaBank> ; ontolex:writtenRep ?wr``
    (``units`` ``lemmas``: ``dcterms:isPartOf`` alone): the dialect lemma banks' lemmas are ``lila:Lemma`` too,
    so the class alone would let Sicilian and Parmigiano lemmas into "Italian nouns". A count (and whatever
    is built on it) reads each lemma by its own written form, the one its ``rdfs:label`` gives, so a lemma's
    other written reps (abbreviations «a.», «cav.», variant and archaic spellings «giuoco») never count
    twice. A list shows every written form LiITA records for its lemmas, as people's own queries do (on our
    held-out questions written by people, listing the label alone lost 11 of 159 answers); ``by_label``: a
    list read by label all the same (a ranking or an aggregate over lemmas, where «a.» must not win with the
    senses of every lemma it abbreviates). A named word matches any written rep LiITA records (one may ask
    about «giuoco»).
    """
    frame = Frame(shape=shape, units=units)
    if shape == "word":
        # VALUES first: the engine starts from the named word(s) (see base.complit_word_named)
        words = [word] if isinstance(word, str) else list(word)
        frame.where.add(Values(frame.wr, [italian(w) for w in words]))
        frame.slot("word", ", ".join(words))
    member = IN_BANK_AS_WORD if units == WORDS else IRI.of("dcterms:isPartOf")
    frame.written = [Triple(frame.lemma, IRI.of("ontolex:writtenRep"), frame.wr)]
    if by_label if by_label is not None else shape not in ("word", "list"):
        label = frame.fresh("label")
        frame.written += [Triple(frame.lemma, IRI.of("rdfs:label"), label), Filter(eq(str_(frame.wr), str_(label)))]
    frame.base = [Triple(frame.lemma, member, IRI(LEMMA_BANK)), *frame.written]
    frame.where.add(*frame.base)
    return frame


def finish_query(frame: Frame, limit: int | None = None) -> Select:
    """Assemble the SELECT for a built frame (projection, grouping, ORDER BY with any LIMIT).

    The projection is what the question asks: a list's written form first, then its lemma and what it
    shows next to them; a word's facts; a count. Facets (:class:`~.base.Facet`) stay ``OPTIONAL``, except
    a word's only fact, which is what the question asks. Two or more facets (or a facet next to an
    aggregate) are aggregated with ``GROUP_CONCAT``, one row per lemma, so independent multi-valued
    facets never multiply rows. A count keeps no triple it does not use. Also records the derived
    COMPOSITIONAL label and the limit slot.
    """
    finisher = next((p for p in CATALOGUE.values() if p.finishes == frame.shape), None)
    if frame.shape == "word" and len(frame.facets) == 1:
        frame.require(frame.facets[0])
    if finisher is not None:
        finisher.finish_shape(frame)
    _complit_native(frame)
    if frame.shape == "word" and frame.projection and frame.wr not in frame.projection and _several_words(frame):
        frame.projection.insert(0, frame.wr)  # several words asked about: each row says which one
    if frame.shape == "list":
        # the words a question asks for are their written forms; the lemma IRIs only when it asks for them
        head = [frame.wr, frame.lemma] if frame.answer.get("lemma_iri") else [frame.wr]
        frame.projection = head + [p for p in frame.projection if p not in (frame.lemma, frame.wr)]
    if frame.shape == "count":
        _drop_unused_written_form(frame)
    if limit:
        frame.slot("limit", str(limit))
    if frame.shape in ("list", "count") and len(frame.where.elements) > len(frame.base):
        # Oxigraph follows the written order of joins: the selective blocks go first, the broad
        # "every lemma" triples next (0.2 s instead of 14 s on the full mirror), and what is shown
        # next to the lemmas last, once the lemmas are known.
        rest = [e for e in frame.where.elements if not any(e is b for b in frame.base)]
        optional = [e for e in rest if isinstance(e, Optional_)]
        frame.where.elements = [e for e in rest if not isinstance(e, Optional_)] + frame.base + optional
    if frame.shape == "count" and frame.having:
        # "how many lemmas have at least 3 senses": the HAVING tests each lemma's group, the count counts them
        frame.where = Group([SubSelect(Select([frame.lemma], frame.where, group_by=[frame.lemma], having=frame.having))])
        frame.having, frame.aggregate = [], False
    if frame.shape in ("list", "word") and (len(frame.facets) > 1 or (frame.aggregate and frame.facets)):
        _aggregate_facets(frame)
    plain_vars = [p for p in frame.projection if isinstance(p, Var)]
    group_by = plain_vars if frame.aggregate else []
    if group_by and frame.shape in ("list", "word") and frame.lemma not in group_by:
        # one row per lemma, shown by its written form: lemmas that share a written form («a.» of *anno* and
        # of *altezza*) keep their own facts, and no group mixes a lemma that has a fact with one that has none
        group_by = [frame.lemma] + group_by
    if frame.shape == "count":
        order = []
    elif frame.shape == "list":
        order = [frame.wr, frame.lemma] if limit and frame.lemma in frame.projection else [frame.wr]
    else:  # a word's facts, by the first of them (the word itself is the same on every row)
        order = [v for v in plain_vars if v != frame.wr][:1] or plain_vars[:1]
    for pattern in CATALOGUE.values():
        weight = pattern.derived_weight(frame.labels, CATALOGUE)
        if weight:
            frame.tag(pattern.label, weight)
    frame.labels = {k: v for k, v in frame.labels.items() if v > 0}
    query = Select(frame.projection, frame.where, distinct=not frame.aggregate and frame.shape != "count",
                   group_by=group_by, having=frame.having, order_by=order, limit=limit)
    for finish in frame.finishers:
        finish(query)
    return query


def _several_words(frame: Frame) -> bool:
    """True when the frame is about more than one named word (its VALUES lists several)."""
    return any(isinstance(e, Values) and e.var == frame.wr and len(e.values) > 1 for e in _all_elements(frame.where))


def _all_elements(group):
    """Every element of a group and of the groups inside it (a SERVICE's, an OPTIONAL's)."""
    for element in group.elements:
        yield element
        inner = getattr(element, "group", None)
        if inner is not None:
            yield from _all_elements(inner)


def _complit_native(frame: Frame) -> None:
    """A question only about CompL-it words is answered in CompL-it: its words, not the LiITA lemmas they link to.

    When everything a frame asks lives in its CompL-it ``SERVICE`` group (senses, definitions, sense
    relations) and nothing on the LiITA side narrows or shows the lemmas, the focus becomes the
    CompL-it word itself: ``?word ontolex:canonicalForm [ ontolex:writtenRep ?wr ]`` inside the
    SERVICE, the named word's VALUES with it. Projecting through ``?word ontolex:canonicalForm ?lemma``
    would add the Lemma Bank's spelling variants and drop the CompL-it words no lemma links to. The
    word IRI stands in for the lemma IRI.
    """
    if frame.facets:
        return
    services = [e for e in frame.where.elements if isinstance(e, Service)]
    links = [e for e in frame.where.elements if isinstance(e, Triple) and e.o == frame.lemma
             and e.p == IRI.of("ontolex:canonicalForm")]
    if len(services) != 1 or len(links) != 1:
        return
    service, link, word = services[0].group, links[0], links[0].s
    values = [e for e in frame.where.elements if isinstance(e, Values) and e.var == frame.wr]
    known = [*frame.base, link, *values, services[0]]
    if any(not any(e is k for k in known) for e in frame.where.elements):
        return  # something on the LiITA side narrows or shows the lemmas
    form = frame.fresh("canonicalForm")
    anchor = [Triple(word, IRI.of("ontolex:canonicalForm"), form), Triple(form, IRI.of("ontolex:writtenRep"), frame.wr)]
    if values:  # the named word first, so the engine starts from it; else the selective blocks first
        service.elements[0:0] = [*values, *anchor]
    elif frame.shape != "count":  # a count counts the words; it needs no written form
        service.elements += anchor
    frame.where.elements = [services[0]]
    frame.base = []
    frame.projection = [_replace_var(p, frame.lemma, word) for p in frame.projection]
    frame.lemma = word


def _replace_var(item, old: Var, new: Var):
    """A projection item with ``old`` read as ``new`` (a variable, or an ``(expression, alias)`` pair)."""
    if item == old:
        return new
    if isinstance(item, tuple):
        expr, alias = item
        if isinstance(expr, Call):
            expr = Call(expr.name, tuple(_replace_var(a, old, new) for a in expr.args), expr.distinct, expr.separator)
        return expr, alias
    return item


def _aggregate_facets(frame: Frame) -> None:
    """One row per lemma: each facet column becomes ``GROUP_CONCAT(DISTINCT STR(?x); separator=", ")``.

    ``STR`` always: over numbers a GROUP_CONCAT is unbound, and over language-tagged words
    Oxigraph keeps the common tag where Virtuoso answers a plain string (the same answer everywhere).
    """
    names = {var: name for facet in frame.facets for var, name in facet.columns}
    frame.projection = [(Call("GROUP_CONCAT", (Call("STR", (p,)),), distinct=True,
                              separator=LIST_SEPARATOR), Var(names[p]))
                        if isinstance(p, Var) and p in names else p for p in frame.projection]
    frame.aggregate = True


def _drop_unused_written_form(frame: Frame) -> None:
    """A count that tests nothing on ``?wr`` does not need its written form (``frame.written``)."""
    def written(e) -> bool:
        return any(e is w for w in frame.written)
    others = [e for e in frame.where.elements if not written(e)]
    if frame.written and not uses(others, frame.wr) and not uses(frame.having, frame.wr):
        frame.where.elements = others
        frame.base = [b for b in frame.base if not written(b)]
        frame.written = []


def uses(node, var: Var) -> bool:
    """True when ``var`` occurs anywhere in a query-model node (or a list of them)."""
    if node == var:
        return True
    if isinstance(node, (list, tuple)):
        return any(uses(n, var) for n in node)
    if is_dataclass(node) and not isinstance(node, type):
        return any(uses(getattr(node, f.name), var) for f in fields(node))
    return False


@dataclass
class Candidate:
    """A composed query with everything later operators need (serialisable)."""

    cid: str
    sparql: str
    shape: str
    labels: dict[str, float]
    slots: dict[str, str]
    mentions: list[list[str]]
    fragments: list[dict]
    word: str | None = None
    limit: int | None = None
    anchor: str | None = None
    #: Rows of the query's first scan on the KB (None: not counted), see :mod:`nl2sparql.sparql.plan`.
    scan_rows: int | None = None

    def to_json(self) -> dict:
        """A JSON-ready dict (it shares the nested lists and dicts; ``asdict``'s deep copy cost 15 % of a draw)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def fragment_objects(self) -> list[Fragment]:
        """The fragments as :class:`Fragment` objects."""
        return [Fragment(f["kind"], f["text"]) for f in self.fragments]


@dataclass
class Draw:
    """One draw before its cost check: the candidate or why none was drawn, the candidate query's first
    scan (None: not counted) and the draw's last random number, which the check compares."""

    result: Candidate | str
    scan: Scan | None = None
    chance: float = 0.0


def askable(word: str) -> bool:
    """True for a word a question may name: three letters or more, letters (and an apostrophe) only."""
    return len(word) >= 3 and word.replace("'", "").isalpha()


def _choose_count(weights: dict[int, float], rng: random.Random) -> int:
    """A count drawn with the given weights."""
    return rng.choices(list(weights), list(weights.values()))[0]


def _pairs(*rows: tuple[str, str, float]) -> dict[frozenset, float]:
    return {frozenset((a, b)): w for a, b, w in rows}


@dataclass
class Naturalness:
    """What people ask, as weights the composer draws compositions with (measurable and tunable).

    The evidence (``bench/naturalness.py`` measures the composer against it): the reference project's
    curated questions, the hand-written pools and test questions, and the translator-breadth
    development set (issue 14; the frozen held-out sets are never read). In all of them a list names one thing, often with a part of speech and
    sometimes a second constraint or one column to show; a word question asks one fact, now and then
    two that belong together (synonyms and definitions); three unrelated constraints are rare. So:

    * ``shapes``: how often each shape is drawn;
    * ``constraints``: how many constraints (other than the part of speech) a list or count has;
    * ``head``: how often a list or count names a part of speech ("Quali sostantivi …");
    * ``projections``: how many columns a list shows next to its lemmas;
    * ``facts``: how many facts a word question asks;
    * ``labels``: how often people ask about each pattern;
    * ``pairs``: how well two patterns go together (1: a common pair; 0: never drawn together); pairs
      not listed get ``other_pair``. A candidate label's weight is its ``labels`` weight times its
      pair weight with every label already drawn, so unrelated stacks are rare.
    """

    # tuned with bench/naturalness.py --weights (issue 15; before → after in bench/RESULTS.md)
    shapes: dict[str, float] = field(default_factory=lambda: {"list": 0.66, "count": 0.1, "word": 0.13,
                                                              "standalone": 0.11})
    constraints: dict[int, float] = field(default_factory=lambda: {1: 0.94, 2: 0.06})
    head: float = 0.25
    projections: dict[int, float] = field(default_factory=lambda: {0: 0.8, 1: 0.2})
    facts: dict[int, float] = field(default_factory=lambda: {1: 0.91, 2: 0.08, 3: 0.01})
    labels: dict[str, float] = field(default_factory=lambda: {
        "POS_FILTER": 1.0, "EMOTION_LEXICON": 1.0, "TRANSLATION": 0.9, "MORPHO_REGEX": 0.8,
        "SEMANTIC_RELATION": 0.8, "SENSE_DEFINITION": 0.7, "POLARITY": 0.6, "LEXICAL_RELATION": 0.6,
        "LEXICAL_FORM": 0.4, "SENSE_COUNT": 0.35, "MULTI_TRANSLATION": 0.3, "SERVICE_INTEGRATION": 0.15})
    pairs: dict[frozenset, float] = field(default_factory=lambda: _pairs(
        ("POS_FILTER", "MORPHO_REGEX", 1.0), ("POS_FILTER", "EMOTION_LEXICON", 1.0),
        ("POS_FILTER", "POLARITY", 0.8), ("POS_FILTER", "TRANSLATION", 0.8), ("POS_FILTER", "MULTI_TRANSLATION", 0.6),
        ("POS_FILTER", "SENSE_DEFINITION", 0.7), ("POS_FILTER", "SENSE_COUNT", 0.5),
        ("POS_FILTER", "SEMANTIC_RELATION", 0.2), ("POS_FILTER", "LEXICAL_RELATION", 0.15),
        ("POS_FILTER", "SERVICE_INTEGRATION", 0.0),
        ("EMOTION_LEXICON", "POLARITY", 1.0), ("EMOTION_LEXICON", "TRANSLATION", 0.9),
        ("EMOTION_LEXICON", "MULTI_TRANSLATION", 0.6), ("EMOTION_LEXICON", "SENSE_DEFINITION", 0.6),
        ("EMOTION_LEXICON", "MORPHO_REGEX", 0.4), ("EMOTION_LEXICON", "SEMANTIC_RELATION", 0.3),
        ("SEMANTIC_RELATION", "SENSE_DEFINITION", 0.9), ("SEMANTIC_RELATION", "TRANSLATION", 0.9),
        ("SEMANTIC_RELATION", "MULTI_TRANSLATION", 0.6),
        ("LEXICAL_RELATION", "SENSE_DEFINITION", 0.8), ("LEXICAL_RELATION", "TRANSLATION", 0.7),
        ("LEXICAL_RELATION", "POLARITY", 0.4),
        ("SENSE_DEFINITION", "TRANSLATION", 0.7), ("SENSE_DEFINITION", "MORPHO_REGEX", 0.5),
        ("SENSE_DEFINITION", "LEXICAL_FORM", 0.5), ("SENSE_DEFINITION", "POLARITY", 0.4),
        ("MORPHO_REGEX", "TRANSLATION", 0.5), ("MORPHO_REGEX", "POLARITY", 0.5), ("MORPHO_REGEX", "SENSE_COUNT", 0.4),
        ("POLARITY", "TRANSLATION", 0.6), ("LEXICAL_FORM", "TRANSLATION", 0.5)))
    other_pair: float = 0.2

    def weight(self, label: str, chosen) -> float:
        """How likely ``label`` joins the labels already ``chosen``."""
        w = self.labels.get(label, 0.3)
        for other in chosen:
            w *= self.pairs.get(frozenset((label, other)), self.other_pair)
        return w

    def to_json(self) -> dict:
        """The weights, JSON-ready (pairs as ``"A+B"`` keys)."""
        out = asdict(self)
        out["pairs"] = {"+".join(sorted(k)): v for k, v in self.pairs.items()}
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Naturalness":
        """Default weights updated by ``data`` (the form :meth:`to_json` writes; a partial dict is fine)."""
        model = cls()
        for key, value in data.items():
            if key == "pairs":
                model.pairs.update({frozenset(k.split("+")): float(v) for k, v in value.items()})
            elif key in ("labels", "shapes"):
                getattr(model, key).update(value)
            elif key in ("constraints", "projections", "facts"):
                setattr(model, key, {int(k): float(v) for k, v in value.items()})
            elif key in ("head", "other_pair"):
                setattr(model, key, float(value))
            else:
                raise ValueError(f"unknown naturalness weight {key!r}")
        return model


@dataclass
class Composer:
    """Draws candidates from a KB's facts, deterministically for a seed."""

    facts: Facts
    seed: int = 0
    allowed: set[str] | None = None
    #: Candidates whose estimated answer is larger are not drawn (0: no estimate).
    max_rows: int = 0
    #: Counts the rows a query's first scan reads (None: no cost model).
    scan_rows: Callable[[Scan], int | None] | None = None
    #: Candidates whose first scan reads more rows are kept only with probability (max_scan / rows)² (0: all kept).
    max_scan: int = 0
    #: The naturalness model the compositions are drawn with.
    naturalness: Naturalness = field(default_factory=Naturalness)

    def __post_init__(self):
        self._lemmas = sorted(self.facts.by_lemma("lemma"))
        for lemma, rows in self.facts.by_lemma("lemma").items():
            self.facts.labels.setdefault(lemma, rows[0][0])
        self._candidate_sets: dict[str, list[str]] = {}
        self._match_cache: dict[tuple, set[str] | None] = {}
        self._estimates: dict[frozenset, int] = {}  # by the ids of the _match_cache sets, which live as long
        # built once per facts (a process reusing its facts reuses them; they depend on nothing else)
        self._standalone = {label: self.facts.derived(f"variants:{label}", p.variants)
                            for label, p in CATALOGUE.items() if isinstance(p, StandalonePattern)}
        # written forms of two or more lemmas («avere» the verb and the noun): a question that names one
        # cannot say which lemma it means, so no such form is named
        spelled = Counter(self.facts.labels.values())
        self._homographs = {form for form, n in spelled.items() if n > 1}

    def _ok(self, label: str) -> bool:
        # a pattern of kind "built" (how a query is built, e.g. the SERVICE join) is never filtered out
        return self.allowed is None or label in self.allowed or CATALOGUE[label].kind == "built"

    def _pool(self, label: str) -> list[str]:
        """Lemmas the pattern may apply to (a superset, checked with ``applicable``)."""
        if label not in self._candidate_sets:
            pattern = CATALOGUE[label]
            sets = [self.facts.lemmas(n) for n in pattern.needs]
            if pattern.needs_any:
                sets.append(set().union(*(self.facts.lemmas(n) for n in pattern.needs_any)))
            pool = set.intersection(*sets) if sets else None
            self._candidate_sets[label] = sorted(pool) if pool is not None else self._lemmas
        return self._candidate_sets[label]

    def _anchor(self, labels: list[str], rng: random.Random, named: bool = False) -> str | None:
        """A lemma every label applies to; ``named``: the question will name it, so it must be a word people ask about."""
        pools = sorted((self._pool(lab) for lab in labels), key=len)
        smallest = pools[0] if pools else self._lemmas
        if not smallest:
            return None
        for lemma in rng.sample(smallest, min(len(smallest), 60)):
            if lemma in self.facts.labels and all(CATALOGUE[lab].applicable(self.facts, lemma) for lab in labels) \
                    and (not named or (askable(self.facts.labels[lemma])
                                       and self.facts.labels[lemma] not in self._homographs)):
                return lemma
        return None

    def _pick_labels(self, pool: tuple[str, ...], k: int, rng: random.Random, chosen: list[str]) -> list[str]:
        """Up to ``k`` labels of ``pool``, each drawn by its naturalness weight next to those chosen so far."""
        picked: list[str] = []
        for _ in range(k):
            taken = chosen + picked
            options = [p for p in pool if self._ok(p) and p not in taken and compatible(set(taken) | {p})]
            weights = [self.naturalness.weight(p, taken) for p in options]
            if not options or not any(weights):
                break
            picked.append(rng.choices(options, weights)[0])
        return picked

    def _draw_labels(self, shape: str, rng: random.Random) -> list[str]:
        """The labels of one composition, by the naturalness model."""
        model = self.naturalness
        if shape == "word":
            labels = self._pick_labels(WORD_FACTS, _choose_count(model.facts, rng), rng, [])
            aggregating = [label for label in labels if CATALOGUE[label].aggregates]
            return aggregating[:1] if aggregating else labels  # an aggregating fact is shown alone
        labels = ["POS_FILTER"] if "POS_FILTER" in LIST_CONSTRAINTS and self._ok("POS_FILTER") and \
            rng.random() < model.head else []
        others = tuple(label for label in LIST_CONSTRAINTS if label != "POS_FILTER")
        labels += self._pick_labels(others, _choose_count(model.constraints, rng), rng, labels)
        if shape == "list":
            labels += self._pick_labels(LIST_PROJECTIONS, _choose_count(model.projections, rng), rng, labels)
        return labels

    def _matching(self, label: str, slots: dict) -> set[str] | None:
        key = (label, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in slots.items())))
        if key not in self._match_cache:
            self._match_cache[key] = CATALOGUE[label].matching(self.facts, slots)
        return self._match_cache[key]

    def _by_selectivity(self, labels: list[str], slots: dict[str, dict]) -> list[str]:
        """Labels ordered by how few lemmas their block matches (unknown sizes last)."""
        def size(label: str) -> int:
            found = self._matching(label, slots[label])
            return len(found) if found is not None else 10 ** 9
        return sorted(labels, key=size)

    def estimate(self, slots: dict[str, dict]) -> int | None:
        """How many lemmas a list with these blocks returns, according to the facts (None: unknown)."""
        sets = [s for s in (self._matching(label, value) for label, value in slots.items()) if s is not None]
        if not sets:
            return None
        if len(sets) == 1:
            return len(sets[0])
        # the same few large sets meet again and again (a part of speech and an emotion): count each meeting once
        key = frozenset(map(id, sets))
        if key not in self._estimates:
            sets.sort(key=len)
            self._estimates[key] = len(set.intersection(*sets))
        return self._estimates[key]

    def draw(self, index: int) -> Candidate | str:
        """The ``index``-th candidate for this seed, or why none was drawn (``no_anchor``, ``too_broad``…)."""
        return self.check_scan(self.draw_unchecked(index))

    def draw_unchecked(self, index: int) -> Draw:
        """The ``index``-th draw before its cost check: pure (the KB is not asked), so draws can be
        made in other processes and checked here (:meth:`check_scan`) in order."""
        rng = random.Random(f"{self.seed}:{index}")
        weights = self.naturalness.shapes
        shapes = [s for s in weights if s != "standalone" or any(self._ok(l) for l in self._standalone)]
        shape = rng.choices(shapes, [weights[s] for s in shapes])[0]
        if shape == "standalone":
            return self._standalone_candidate(rng, index)
        labels = self._draw_labels(shape, rng)
        if not labels:
            return Draw("no_labels")
        anchor = self._anchor(labels, rng, named=shape == "word")
        if anchor is None:
            return Draw("no_anchor")
        word = self.facts.labels[anchor]
        frame = start_frame(shape, word if shape == "word" else None)
        if not any(CATALOGUE[label].resource for label in labels):
            # only string and part-of-speech tests can reach dialect lemmas: a graph scope filters only there
            for label in role("scope"):
                if self._ok(label):
                    CATALOGUE[label].compose_scope(frame, rng)
        slots = {label: CATALOGUE[label].choose(self.facts, anchor, shape, rng) for label in labels}
        if shape != "word" and self.max_rows:
            estimate = self.estimate(slots)
            if estimate is not None and estimate > self.max_rows:
                return Draw("too_broad")
        if shape == "list" and sum(self._matching(label, value) is not None for label, value in slots.items()) > 1:
            estimate = self.estimate(slots)
            if estimate is not None and estimate < 2:
                return Draw("too_narrow")  # several constraints met by the anchor alone: built backwards from one answer
        for label in self._by_selectivity(labels, slots):
            CATALOGUE[label].build(frame, slots[label], rng)
        if frame.odd_slots:
            return Draw("odd_slot")  # a value of another class than its slot claims (never sampled: a guard)
        if shape != "word" and not any(f.kind in ("head", "constraint") for f in frame.fragments):
            return Draw("no_constraint")  # every lemma with some columns: nobody asks that
        for label in role("finish"):
            if self._ok(label):
                CATALOGUE[label].compose_finish(frame, self.facts, anchor, rng)
        limit = rng.choice([5, 10, 20]) if shape == "list" and not frame.aggregate and rng.random() < 0.1 else None
        query = finish_query(frame, limit)
        return self._draw(query, rng, index, frame, word if shape == "word" else None, limit, anchor)

    def _draw(self, query, rng: random.Random, index: int, frame: Frame, word, limit, anchor) -> Draw:
        # the draw's last random number decides the cost check; drawn now, the check needs no generator
        return Draw(self._candidate(index, render(query), frame, word, limit, anchor),
                    first_scan(query) if self.scan_rows is not None else None, rng.random())

    def check_scan(self, drawn: Draw) -> Candidate | str:
        """The candidate of a draw, or ``slow_scan``: queries that start from a large scan are drawn less.

        A candidate whose first scan reads more than ``max_scan`` rows is kept with probability
        (max_scan / rows)². A query's time grows with its first scan (about 1 s for all 122 k lemmas
        of the mirror, a few ms from a named word), so the expected time a draw costs falls as its
        scan grows, while every shape can still appear. The rows are counted on the KB (``scan_rows``).
        """
        if isinstance(drawn.result, str):
            return drawn.result
        rows = self.scan_rows(drawn.scan) if self.scan_rows is not None and drawn.scan is not None else None
        if self.max_scan and rows is not None and rows > self.max_scan \
                and drawn.chance >= (self.max_scan / rows) ** 2:
            return "slow_scan"
        drawn.result.scan_rows = rows
        return drawn.result

    def _standalone_candidate(self, rng: random.Random, index: int) -> Draw:
        labels = [l for l in self._standalone if self._ok(l) and self._standalone[l]]
        if not labels:
            return Draw("no_labels")
        label = rng.choice(labels)
        slots = rng.choice(self._standalone[label])
        query, fragments, tags, mentions = CATALOGUE[label].build(slots, rng)
        frame = Frame(shape="standalone", fragments=fragments, labels=dict(tags))
        frame.slots = {k: str(v) for k, v in slots.items()}
        frame.mentions = mentions
        return self._draw(query, rng, index, frame, None, None, None)

    def _candidate(self, index, sparql, frame: Frame, word, limit, anchor) -> Candidate:
        cid = hashlib.sha1(f"{self.seed}:{index}:{sparql}".encode()).hexdigest()[:12]
        return Candidate(cid, sparql, frame.shape, dict(frame.labels), dict(frame.slots),
                         [list(m) for m in frame.mentions],
                         [{"kind": f.kind, "text": f.text} for f in frame.fragments], word, limit, anchor)
