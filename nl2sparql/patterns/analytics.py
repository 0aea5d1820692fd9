"""What the analytic patterns share: frames built from other patterns' steps, the measures, and their wording.

The analytic patterns (RANKING, AGGREGATE, COMPARISON, YES_NO) write whole
queries around the constraints of the other patterns: "the 5 nouns
expressing joy with the highest Sentix polarity" is POS_FILTER and
EMOTION_LEXICON built on a frame (:func:`constrained`), ranked by a
:class:`Measure`. Their slots name those constraints as ``steps``, the
``(label, build slots)`` pairs a translator plan has, so the generator and
the translator build the same query from the same values.

A measure is a number per lemma: its Sentix polarity value or its number of
CompL-it senses. Rankings order by it, then by the written form, so a LIMIT
always cuts a total order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..sparql.model import IRI, Call, Group, Triple, Var
from .base import Facts, Frame, quote
from .phrasing import Agreement, agree, gender, join, plural_article

#: How the technical wording says an order's direction (Italian, English).
ORDER_WORDS = {"desc": ("decrescente", "descending"), "asc": ("crescente", "ascending")}
#: What a lemma list is called when no part of speech names it.
DEFAULT_HEAD = {"it": "parole", "en": "words"}


@dataclass(frozen=True)
class Measure:
    """A number per lemma that rankings, comparisons and aggregates use.

    ``it``/``en``: the noun phrase ("la polarità Sentix"); ``more``/``less``:
    the superlative phrase for the top and the bottom of a ranking;
    ``fact``: the sampled fact that has it (``None``: every lemma).
    """

    name: str
    it: str
    en: str
    more: tuple[str, str]
    less: tuple[str, str]
    fact: str
    tech: str


MEASURES = {
    "polarity": Measure("polarity", "la polarità Sentix", "the Sentix polarity",
                        ("la polarità Sentix più alta", "the highest Sentix polarity"),
                        ("la polarità Sentix più bassa", "the lowest Sentix polarity"), "sentix",
                        "marl:hasPolarityValue"),
    "senses": Measure("senses", "il numero di sensi in CompL-it", "the number of CompL-it senses",
                      ("più sensi in CompL-it", "the most CompL-it senses"),
                      ("meno sensi in CompL-it", "the fewest CompL-it senses"), "senses",
                      "COUNT(DISTINCT ontolex:sense)"),
    "length": Measure("length", "la lunghezza in lettere", "the length in letters",
                      ("più lettere", "the most letters"), ("meno lettere", "the fewest letters"),
                      "lemma", "STRLEN(STR(ontolex:writtenRep))"),
}


def measure_value(facts: Facts, measure: str, lemma: str) -> float | None:
    """The measure of ``lemma`` according to the sampled facts (``None``: it has none)."""
    rows = facts.by_lemma(MEASURES[measure].fact).get(lemma)
    if not rows:
        return None
    if measure == "length":
        return float(len(rows[0][0]))
    return float(rows[0][1]) if measure == "polarity" else float(rows[0][0])


def written(facts: Facts, lemma: str) -> str | None:
    """The written form of a lemma in the facts."""
    rows = facts.by_lemma("lemma").get(lemma)
    return rows[0][0] if rows else None


def constrained(steps, shape: str = "list", word: str | None = None, rng: random.Random | None = None,
                by_label: bool | None = None) -> Frame:
    """A frame with the catalogue's blocks for ``steps`` (``(label, build slots)`` pairs) built on it
    (``by_label``: see :func:`~.compose.start_frame`)."""
    from .catalogue import CATALOGUE  # the catalogue discovers this package's modules: import it late
    from .compose import start_frame
    rng = rng or random.Random(0)
    frame = start_frame(shape, word, by_label=by_label)
    for label, values in steps:
        CATALOGUE[label].build(frame, dict(values), rng)
    return frame


def add_measure(frame: Frame, measure: str) -> tuple[object, bool]:
    """Add the blocks that bind ``measure`` for ``?lemma``; returns its expression and whether it aggregates."""
    if measure == "polarity":
        entry, value = frame.fresh("sentixEntry"), frame.fresh("polarity")
        # marl:hasPolarity keeps the entry a Sentix one: ELITA entries carry marl:hasPolarityValue too
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("marl:hasPolarity"), frame.fresh("polarityClass")),
                        Triple(entry, IRI.of("marl:hasPolarityValue"), value))
        frame.tag("POLARITY", 0.7)
        return value, False
    if measure == "length":
        # an expression over the written form, not a BIND: Oxigraph plans no join across a BIND (50 s instead of 0.1 s)
        frame.tag("MORPHO_REGEX", 0.5)
        return Call("STRLEN", (Call("STR", (frame.wr,)),)), False
    sense, _ = frame.sense()
    frame.tag("SENSE_COUNT", 0.7)
    return Call("COUNT", (sense,), distinct=True), True


def body(frame: Frame, keep_written: bool = True) -> Group:
    """The frame's WHERE group, selective blocks first and the focus-lemma triples last.

    ``keep_written=False`` leaves out the written form (``frame.written``: nothing an aggregate needs).
    """
    base = [b for b in frame.base if keep_written or not any(b is w for w in frame.written)]
    if frame.shape == "word":
        return Group(list(frame.where.elements))
    rest = [e for e in frame.where.elements if not any(e is b for b in frame.base)]
    return Group(rest + base)


def step_labels(steps) -> dict[str, float]:
    """The labels the steps' patterns contribute (as their builds tag them)."""
    return {label: 0.9 for label, _ in steps}


# -- wording ------------------------------------------------------------------------------------
_IT_ARTICLE = {"le": "delle", "gli": "degli", "i": "dei"}


def it_article(head: str) -> str:
    """The Italian plural definite article of a head noun (``le parole``, ``gli aggettivi``, ``i verbi``)."""
    return plural_article(head.split()[0], gender(head))


def it_of(head: str) -> str:
    """``delle parole``, ``degli aggettivi``, ``dei sostantivi``."""
    return f"{_IT_ARTICLE[it_article(head)]} {head}"


def phrases(frame: Frame, lang: str, register: str, rng: random.Random) -> tuple[str, str]:
    """The head noun and the joined constraint phrases of a built frame (``"sostantivi"``, ``"esprimono gioia"``),
    their participles agreeing with the head (the realiser's :class:`~.phrasing.Agreement`)."""
    heads = [f for f in frame.fragments if f.kind == "head"]
    head = heads[0].pick(lang, "plain", rng) if heads else DEFAULT_HEAD[lang]
    ag = Agreement(gender(head) if lang == "it" else "m")
    parts = [agree(f.pick(lang, register, rng), ag) for f in frame.fragments if f.kind == "constraint"]
    if register == "tech":
        parts = [f.pick(lang, "tech", rng) for f in heads] + parts
    return head, join(parts, lang)


def restricted(head: str, vps: str, lang: str) -> str:
    """``parole che esprimono gioia`` / ``words that express joy`` (``head`` alone without constraints)."""
    if not vps:
        return head
    return f"{head} che {vps}" if lang == "it" else f"{head} that {vps}"


def quoted_list(words, lang: str, conj: str | None = None) -> str:
    """«a», «b» e «c» / "a", "b" and "c" (``conj``: another conjunction, such as " or ")."""
    quoted = [quote(lang, w) for w in words]
    conj = conj or (" e " if lang == "it" else " and ")
    return ", ".join(quoted[:-1]) + conj + quoted[-1] if len(quoted) > 1 else quoted[0]


def constraint_options(facts: Facts, anchor: str, rng: random.Random, most: int = 2,
                       labels: tuple[str, ...] = ("POS_FILTER", "EMOTION_LEXICON", "POLARITY", "TRANSLATION",
                                                  "SEMANTIC_RELATION")) -> list[tuple[str, dict]]:
    """Up to ``most`` constraint steps the anchor satisfies, chosen by the patterns themselves (list shape)."""
    from .catalogue import CATALOGUE
    usable = [label for label in labels if label in CATALOGUE and CATALOGUE[label].applicable(facts, anchor)]
    rng.shuffle(usable)
    steps = []
    for label in usable[:rng.randint(0, most)]:
        values = CATALOGUE[label].choose(facts, anchor, "list", rng)
        if label == "EMOTION_LEXICON" and values.get("mode") != "constraint":
            continue
        if label == "TRANSLATION" and not values.get("target"):
            continue
        if label == "POLARITY":
            values.pop("threshold", None)
        steps.append((label, values))
    return steps


def matching(facts: Facts, steps) -> set[str] | None:
    """The lemmas the steps' blocks match according to the facts (``None``: unknown)."""
    from .catalogue import CATALOGUE
    found = None
    for label, values in steps:
        matched = CATALOGUE[label].matching(facts, dict(values))
        if matched is None:
            return None
        found = matched if found is None else found & matched
    return found


def var(name: str) -> Var:
    """A variable (shorthand for the analytic modules)."""
    return Var(name)
