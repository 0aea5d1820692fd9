"""INTERSECTION: lemmas marked with two (or more) ELITA emotions at once.

"Quali parole esprimono sia gioia sia sorpresa?", "Which words are associated
with both sadness and fear?": one ELITA entry per emotion on the same lemma
(an entry may carry several emotions; two entry variables keep the rule of
one variable per resource entry simple)::

    ?emotionEntry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Gioia .
    ?emotionEntry2 ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Sorpresa .

The composer turns a list or a count constrained by one emotion into one of
two, now and then, when the anchor has a second emotion.
"""

from __future__ import annotations

import random
import re

from ..sparql.model import IRI, Triple
from .base import Facts, Frame, frag
from .pattern import Pattern
from .vocab import ELITA, EMOTION, local_name

HAS_EMOTION = IRI.of("elita:HasEmotion")
#: How often the composer adds a second emotion.
CHANCE = 0.35


def _emotion_constraints(frame: Frame) -> list[str]:
    """The emotions the frame's blocks require (local names), in the order built."""
    return [local_name(e.o.value) for e in frame.where.elements
            if isinstance(e, Triple) and e.p == HAS_EMOTION and isinstance(e.o, IRI)]


def _both(names: list[str], lang: str) -> str:
    words = [EMOTION.get(n, (n.lower(), n.lower()))[0 if lang == "it" else 1] for n in names]
    if lang == "it":
        return "sia " + " sia ".join(words)
    return "both " + " and ".join(words) if len(words) == 2 else ", ".join(words[:-1]) + " and " + words[-1]


class Intersection(Pattern):
    """Two or more ``elita:HasEmotion`` constraints on the same lemma."""

    label = "INTERSECTION"
    rank = 15
    guidance = ("Both emotions: one ELITA entry per emotion on the same lemma (?e1 … elita:HasEmotion elita:Gioia . "
                "?e2 … elita:HasEmotion elita:Sorpresa), never two emotions on one FILTER.")
    example = ("list", None, {"emotions": ["Gioia", "Sorpresa"]})
    resource = "ELITA"
    compose = {"finish": 2}
    build_order = 3
    question_cues = [(r"\b(?:sia\s+\w+\s+(?:sia|che)|both\s+\w+\s+and|at the same time|allo stesso tempo|"
                      r"contemporaneamente|insieme)\b", 0.6)]

    # -- generator ----------------------------------------------------------------------------
    def compose_finish(self, frame: Frame, facts: Facts, anchor: str, rng: random.Random) -> None:
        """A list or count of one emotion's lemmas becomes one of two emotions (own RNG: other draws stay as they were)."""
        if frame.shape not in ("list", "count"):
            return
        names = _emotion_constraints(frame)
        if len(names) != 1:
            return
        own = random.Random(f"{self.label}:{anchor}:{names[0]}")
        # the basic emotions only: the mirror's ELITA also has other values (valence…) under elita:HasEmotion
        others = sorted({local_name(r[0]) for r in facts.by_lemma("emotion").get(anchor, [])} & set(EMOTION) - set(names))
        if not others or own.random() >= CHANCE:
            return
        second = own.choice(others)
        # the one-emotion phrase gives way to «sia X sia Y»: the question names each emotion once
        said = re.compile(rf"elita:HasEmotion elita:{names[0]}\b")
        old = next((f for f in frame.fragments if f.kind == "constraint"
                    and said.search(" ".join(f.text["it"].get("tech", [])))), None)
        if old is not None:
            frame.fragments.remove(old)
        self._add(frame, [second], names)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        self._add(frame, list(slots["emotions"]), [])

    def _add(self, frame: Frame, new: list[str], built: list[str]) -> None:
        for name in new:
            entry = frame.fresh("emotionEntry")
            frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                            Triple(entry, HAS_EMOTION, IRI(ELITA + name)))
            frame.slot("emotion", name, *EMOTION.get(name, (name, name)))
        names = built + new
        tech = " e ".join(f"elita:HasEmotion elita:{n}" for n in names)
        tech_en = " and ".join(f"elita:HasEmotion elita:{n}" for n in names)
        frame.fragments.append(frag("constraint", [f"esprimono {_both(names, 'it')}", f"evocano {_both(names, 'it')}"],
                                    [f"express {_both(names, 'en')}", f"are associated with {_both(names, 'en')}"],
                                    f"con voci ELITA per ciascuna emozione ({tech})",
                                    f"with ELITA entries for each emotion ({tech_en})"))
        frame.tag("EMOTION_LEXICON", 0.9)
        frame.tag(self.label, 0.9)

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        wanted = {ELITA + n for n in slots["emotions"]}
        return {lemma for lemma, rows in facts.by_lemma("emotion").items() if wanted <= {r[0] for r in rows}}

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        """Two or more distinct ELITA emotions required by one query."""
        emotions = {i for i in f.iris if i.startswith(ELITA) and local_name(i) in EMOTION}
        return 0.9 if len(emotions) >= 2 else 0.0

    # -- translator ---------------------------------------------------------------------------
    def constraint_steps(self, slots) -> list[dict]:
        # "paura o rabbia" is either emotion (EMOTION_LEXICON's "any"), not both
        return [{"emotions": list(slots.emotions)}] if len(slots.emotions) >= 2 and not slots.emotions_any else []


PATTERN = Intersection()
