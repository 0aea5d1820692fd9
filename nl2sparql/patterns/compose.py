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
from dataclasses import asdict, dataclass, field
from typing import Callable

from ..sparql.model import IRI, Select, Triple, Values, Var, render
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


def start_frame(shape: str, word: str | None = None) -> Frame:
    """A frame with the focus lemma ``?lemma a lila:Lemma ; ontolex:writtenRep ?wr`` (and the word filter)."""
    frame = Frame(shape=shape)
    if shape == "word":
        # VALUES first: the engine starts from the named word (see base.complit_word_named)
        frame.where.add(Values(frame.wr, [italian(word)]))
        frame.slot("word", word)
    frame.base = [Triple(frame.lemma, IRI.of("rdf:type"), IRI.of("lila:Lemma")),
                  Triple(frame.lemma, IRI.of("ontolex:writtenRep"), frame.wr)]
    frame.where.add(*frame.base)
    return frame


def finish_query(frame: Frame, limit: int | None = None) -> Select:
    """Assemble the SELECT for a built frame (projection, grouping, ORDER BY with any LIMIT).

    Also records the derived COMPOSITIONAL label and the limit slot.
    """
    finisher = next((p for p in CATALOGUE.values() if p.finishes == frame.shape), None)
    if finisher is not None:
        finisher.finish_shape(frame)
    if frame.shape == "list":
        head = [frame.wr] if frame.answer.get("lemma_iri") is False else [frame.lemma, frame.wr]
        frame.projection = head + [p for p in frame.projection if p not in (frame.lemma, frame.wr)]
    if limit:
        frame.slot("limit", str(limit))
    if frame.shape in ("list", "count") and len(frame.where.elements) > len(frame.base):
        # Oxigraph follows the written order of joins: the selective blocks go first and
        # the broad "every lemma" triples last (0.2 s instead of 14 s on the full mirror).
        rest = [e for e in frame.where.elements if not any(e is b for b in frame.base)]
        frame.where.elements = rest + frame.base
    plain_vars = [p for p in frame.projection if isinstance(p, Var)]
    group_by = plain_vars if frame.aggregate else []
    if frame.shape == "count":
        order = []
    elif frame.shape == "list":
        order = [frame.wr, frame.lemma] if limit else [frame.wr]
    else:
        order = plain_vars[:1]
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
        """A JSON-ready dict."""
        return asdict(self)

    def fragment_objects(self) -> list[Fragment]:
        """The fragments as :class:`Fragment` objects."""
        return [Fragment(f["kind"], f["text"]) for f in self.fragments]


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
    shape_weights: dict[str, float] = field(default_factory=lambda: {"list": 0.5, "count": 0.15, "word": 0.25,
                                                                     "standalone": 0.1})

    def __post_init__(self):
        self._lemmas = sorted(self.facts.by_lemma("lemma"))
        for lemma, rows in self.facts.by_lemma("lemma").items():
            self.facts.labels.setdefault(lemma, rows[0][0])
        self._candidate_sets: dict[str, list[str]] = {}
        self._match_cache: dict[tuple, set[str] | None] = {}
        self._standalone = {label: p.variants(self.facts) for label, p in CATALOGUE.items()
                            if isinstance(p, StandalonePattern)}

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

    def _anchor(self, labels: list[str], rng: random.Random) -> str | None:
        pools = sorted((self._pool(lab) for lab in labels), key=len)
        smallest = pools[0] if pools else self._lemmas
        if not smallest:
            return None
        for lemma in rng.sample(smallest, min(len(smallest), 60)):
            if lemma in self.facts.labels and all(CATALOGUE[lab].applicable(self.facts, lemma) for lab in labels):
                return lemma
        return None

    def _pick_labels(self, pool: tuple[str, ...], k: int, rng: random.Random, chosen: list[str]) -> list[str]:
        options = [p for p in pool if self._ok(p) and p not in chosen]
        picked: list[str] = []
        rng.shuffle(options)
        for label in options:
            if len(picked) >= k:
                break
            if not compatible(set(chosen) | set(picked) | {label}):
                continue
            picked.append(label)
        return picked

    def _matching(self, label: str, slots: dict) -> set[str] | None:
        key = (label, tuple(sorted(slots.items())))
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
        sets.sort(key=len)
        return len(set.intersection(*sets)) if len(sets) > 1 else len(sets[0])

    def draw(self, index: int) -> Candidate | str:
        """The ``index``-th candidate for this seed, or why none was drawn (``no_anchor``, ``too_broad``)."""
        rng = random.Random(f"{self.seed}:{index}")
        shapes = [s for s in self.shape_weights if s != "standalone" or any(self._ok(l) for l in self._standalone)]
        shape = rng.choices(shapes, [self.shape_weights[s] for s in shapes])[0]
        if shape == "standalone":
            return self._standalone_candidate(rng, index)
        if shape == "word":
            labels = self._pick_labels(WORD_FACTS, rng.choices([1, 2, 3], [0.45, 0.4, 0.15])[0], rng, [])
            aggregating = [label for label in labels if CATALOGUE[label].aggregates]
            if aggregating:  # an aggregating fact is shown alone
                labels = aggregating[:1]
        else:
            k = rng.choices([1, 2, 3], [0.35, 0.45, 0.2])[0]
            labels = self._pick_labels(LIST_CONSTRAINTS, k, rng, [])
            if shape == "list":
                labels += self._pick_labels(LIST_PROJECTIONS, rng.choices([0, 1, 2], [0.45, 0.4, 0.15])[0], rng, labels)
        if not labels:
            return "no_labels"
        anchor = self._anchor(labels, rng)
        if anchor is None:
            return "no_anchor"
        word = self.facts.labels[anchor]
        frame = start_frame(shape, word if shape == "word" else None)
        for label in role("scope"):
            if self._ok(label):
                CATALOGUE[label].compose_scope(frame, rng)
        slots = {label: CATALOGUE[label].choose(self.facts, anchor, shape, rng) for label in labels}
        if shape != "word" and self.max_rows:
            estimate = self.estimate(slots)
            if estimate is not None and estimate > self.max_rows:
                return "too_broad"
        for label in self._by_selectivity(labels, slots):
            CATALOGUE[label].build(frame, slots[label], rng)
        for label in role("finish"):
            if self._ok(label):
                CATALOGUE[label].compose_finish(frame, self.facts, anchor, rng)
        limit = rng.choice([5, 10, 20]) if shape == "list" and not frame.aggregate and rng.random() < 0.1 else None
        query = finish_query(frame, limit)
        scan = self._scan_rows(query)
        if self._too_slow(scan, rng):
            return "slow_scan"
        return self._candidate(index, render(query), frame, word if shape == "word" else None, limit, anchor, scan)

    def _scan_rows(self, query) -> int | None:
        if self.scan_rows is None:
            return None
        scan = first_scan(query)
        return self.scan_rows(scan) if scan is not None else None

    def _too_slow(self, rows: int | None, rng: random.Random) -> bool:
        """Draw fewer queries that start from a large scan: keep one with probability (max_scan / rows)².

        A query's time grows with its first scan (about 1 s for all 122 k
        lemmas of the mirror, a few ms from a named word), so the expected
        time a draw costs falls as its scan grows, while every shape can
        still appear.
        """
        if not self.max_scan or rows is None or rows <= self.max_scan:
            return False
        return rng.random() >= (self.max_scan / rows) ** 2

    def _standalone_candidate(self, rng: random.Random, index: int) -> Candidate | None:
        labels = [l for l in self._standalone if self._ok(l) and self._standalone[l]]
        if not labels:
            return "no_labels"
        label = rng.choice(labels)
        slots = rng.choice(self._standalone[label])
        query, fragments, tags, mentions = CATALOGUE[label].build(slots, rng)
        scan = self._scan_rows(query)
        if self._too_slow(scan, rng):
            return "slow_scan"
        frame = Frame(shape="standalone", fragments=fragments, labels=dict(tags))
        frame.slots = {k: str(v) for k, v in slots.items()}
        frame.mentions = mentions
        return self._candidate(index, render(query), frame, None, None, None, scan)

    def _candidate(self, index, sparql, frame: Frame, word, limit, anchor, scan_rows=None) -> Candidate:
        cid = hashlib.sha1(f"{self.seed}:{index}:{sparql}".encode()).hexdigest()[:12]
        return Candidate(cid, sparql, frame.shape, dict(frame.labels), dict(frame.slots),
                         [list(m) for m in frame.mentions],
                         [{"kind": f.kind, "text": f.text} for f in frame.fragments], word, limit, anchor,
                         scan_rows)
