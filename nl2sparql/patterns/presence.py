"""PRESENCE: lemmas that have, or lack, a fact of another resource (a translation, an emotion, a polarity).

"Italian words with a Sicilian but no Parmigiano translation", "Quali parole
che esprimono paura non hanno una traduzione siciliana?": the resource's
block joined (present) or under ``MINUS`` (absent), on the same
``?lemma``, without a column of its own::

    MINUS { ?itEntry ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d .
            ?d ontolex:canonicalForm ?dl . ?dl dcterms:isPartOf <…Parmigiano…/LemmaBank> }

``MINUS`` on ``?lemma``, always bound outside it, answers as ``FILTER NOT EXISTS`` would, and
Oxigraph runs it as one anti-join (20× faster on the mirror).

``MINUS`` rather than ``FILTER NOT EXISTS``: the same answers here (``?lemma`` is
bound by the rest of the query, and MINUS is written last), but Oxigraph runs a
NOT EXISTS group once per outer row (timeouts on the mirror) and a MINUS group once.
The composer adds an absence to a list or a count now and then, for a fact
the anchor lacks.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..sparql.model import IRI, Group, Minus, Triple
from .base import Facts, Frame, frag
from .pattern import Pattern
from .reading import Text, reads
from .vocab import DIALECT, DIALECT_WORDS


@dataclass(frozen=True)
class Facet:
    """A fact a lemma may have or lack: the fact sampled for it, how questions say it, and its block."""

    fact: str
    it: str
    en: str
    words: str
    #: The word each question says it with (Italian, English).
    mention: tuple[str, str] = ("", "")


def _dialect_facet(key: str) -> Facet:
    it, en = DIALECT[key][0], DIALECT[key][1]
    words = next(w for name, w in DIALECT_WORDS if name == key)
    return Facet(f"translation_{key}", f"una traduzione in {it}", f"a {en} translation",
                 rf"(?:(?:una |la |a |an |any )?(?:traduzion[ei]|translations?|equivalent[ei]?s?)\s+(?:in\s+)?)?"
                 rf"(?:{words})(?:\s+(?:translations?|equivalents?))?", (it, en))


FACETS = {
    "siciliano": _dialect_facet("siciliano"),
    "parmigiano": _dialect_facet("parmigiano"),
    "emotion": Facet("emotion", "un'emozione in ELITA", "an ELITA emotion",
                     r"(?:un'|una |alcuna |nessuna |an |any )?(?:elita\s+)?(?:emozion[ei]|emotions?)(?:\s+(?:in\s+)?elita)?",
                     ("emozione", "emotion")),
    "polarity": Facet("sentix", "una polarità in Sentix", "a Sentix polarity",
                      r"(?:una |la |a |any )?(?:sentix\s+)?(?:polarita|polarity)(?:\s+(?:in\s+|secondo\s+)?sentix)?",
                      ("polarità", "polarity")),
}
#: Words before a facet that say the lemmas lack it.
NEGATION = (r"\b(?:senza|privi di|prive di|non hanno|non ha|che non hanno|ma non|e non|ma nessuna|"
            r"without|with no|but no|and no|have no|has no|lacking|lack|that lack|but not|not)\s+")
#: How often the composer turns a list or a count into one that lacks a fact.
CHANCE = 0.12


def _block(frame: Frame, facet: str) -> list:
    """The triples that say ``?lemma`` has ``facet`` (fresh variables, on the lemma's own entries)."""
    entry = frame.fresh(f"{facet}Entry")
    if facet in DIALECT:
        d_entry, d_lemma = frame.fresh(f"{facet}DialectEntry"), frame.fresh(f"{facet}Lemma")
        return [Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                Triple(entry, IRI.of("vartrans:translatableAs"), d_entry),
                Triple(d_entry, IRI.of("ontolex:canonicalForm"), d_lemma),
                Triple(d_lemma, IRI.of("dcterms:isPartOf"), IRI(DIALECT[facet][2]))]
    prop = "elita:HasEmotion" if facet == "emotion" else "marl:hasPolarity"
    return [Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
            Triple(entry, IRI.of(prop), frame.fresh(f"{facet}Value"))]


class Presence(Pattern):
    """A fact that the lemmas have (joined) or lack (``MINUS``), with no column."""

    label = "PRESENCE"
    rank = 85
    guidance = ("Absence: MINUS { the resource's block on the same ?lemma } (a Sicilian but no Parmigiano "
                "translation: the Sicilian path, then MINUS { the Parmigiano path }; FILTER NOT EXISTS answers the "
                "same but runs far slower).")
    example = ("list", None, {"facet": "parmigiano", "absent": True})
    compose = {"finish": 3}
    build_order = 9
    question_cues = [(NEGATION + r"(?:\w+\s+){0,2}(?:traduzion\w*|translations?|emozion\w*|emotions?|polarita|"
                                 r"polarity|siciliano|sicilian|parmigiano)", 0.8)]
    slot_fields = {"absent": list}

    # -- generator ----------------------------------------------------------------------------
    def compose_finish(self, frame: Frame, facts: Facts, anchor: str, rng: random.Random) -> None:
        """Now and then, a list or a count also lacks a fact its anchor lacks (own RNG: other draws stay as they were)."""
        if frame.shape not in ("list", "count") or frame.aggregate:
            return
        own = random.Random(f"{self.label}:{anchor}:{len(frame.fragments)}:{frame.shape}")
        if own.random() >= CHANCE:
            return
        used = {label for label in frame.labels}
        options = [key for key, facet in FACETS.items() if anchor not in facts.by_lemma(facet.fact)
                   and not (key in DIALECT and used & {"TRANSLATION", "MULTI_TRANSLATION"})
                   and not (key == "emotion" and "EMOTION_LEXICON" in used)
                   and not (key == "polarity" and "POLARITY" in used)]
        if options:
            self.build(frame, {"facet": own.choice(options), "absent": True}, own)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        key, absent = slots["facet"], bool(slots.get("absent", True))
        facet = FACETS[key]
        block = _block(frame, key)
        if absent:
            frame.where.add(Minus(Group(block)))
            frame.fragments.append(frag("constraint", [f"non hanno {facet.it}", f"sono senza {facet.it}"],
                                        [f"have no {facet.en.split(' ', 1)[1]}", f"lack {facet.en}"],
                                        f"senza {facet.it} (MINUS)", f"without {facet.en} (MINUS)"))
        else:
            frame.where.add(*block)
            frame.fragments.append(frag("constraint", f"hanno {facet.it}", f"have {facet.en}",
                                        f"con {facet.it}", f"with {facet.en}"))
        frame.slot("absent" if absent else "present", key, *facet.mention)
        frame.tag(self.label, 0.9)

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        having = facts.lemmas(FACETS[slots["facet"]].fact)
        return None if slots.get("absent", True) else having

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        return 0.9 if {"NOT", "EXISTS"} <= f.words or "MINUS" in f.words else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(65)
    def read_absence(self, text: Text, slots) -> None:
        """"senza / non hanno / but no / without" followed by a facet: the lemmas lack it (the phrase is masked)."""
        for key, facet in FACETS.items():
            for m in re.finditer(NEGATION + rf"(?:\w+\s+){{0,2}}?(?:{facet.words})\b", text.folded):
                if key not in slots.absent:
                    slots.absent.append(key)
                text.mask(*m.span())

    def constraint_steps(self, slots) -> list[dict]:
        return [{"facet": key, "absent": True} for key in slots.absent]


PATTERN = Presence()
