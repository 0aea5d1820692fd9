"""INTERSECTION: lemmas marked with two (or more) ELITA emotions at once, or with one and not another.

"Quali parole esprimono sia gioia sia sorpresa?", "Which words are associated
with both sadness and fear?": one ELITA entry per emotion on the same lemma
(an entry may carry several emotions; two entry variables keep the rule of
one variable per resource entry simple)::

    ?emotionEntry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Gioia .
    ?emotionEntry2 ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Sorpresa .

"Parole che esprimono gioia ma non tristezza", "words of fear but not of
sadness": the excluded emotion is a ``MINUS`` group on the lemma (the
positive emotion stays EMOTION_LEXICON's block; the query is tagged PRESENCE,
an absence, as the tagger reads any resource used only inside ``MINUS``)::

    MINUS { ?emotionEntry2 ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Tristezza }

The composer turns a list or a count constrained by one emotion into one of
two, now and then, when the anchor has a second emotion.
"""

from __future__ import annotations

import random
import re

from ..folding import fold_same_length
from ..sparql.model import IRI, Group, Minus, Triple
from .base import Facts, Frame, frag
from .pattern import Pattern
from .reading import Text, reads
from .vocab import ELITA, EMOTION, EMOTION_RES, local_name

HAS_EMOTION = IRI.of("elita:HasEmotion")
#: How often the composer adds a second emotion, and how often it excludes one the anchor lacks.
CHANCE = 0.35
EXCLUDE_CHANCE = 0.15
#: Right before an emotion's name: the question excludes it ("ma non", "but not", "tranne", "except").
EXCLUDING = (r"\b(?:(?:(?:ma|e|pero|but|and|yet)\s+)?(?:(?:do|does|are|is)\s+)?(?:non|not)|(?:don't|doesn't)|tranne|"
             r"eccetto|except|excluding|escludendo|senza esprimere|without expressing)\s+"
             r"(?:(?:esprim\w*|evoc\w*|express\w*|convey\w*|sono|are|associat[eoi]\w*|with|a|di|of|la|il|the|l'|"
             r"lo|all'|emozione|emotion)\s*){0,4}$")


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
    slot_fields = {"emotions_excluded": list}

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
        had = {local_name(r[0]) for r in facts.by_lemma("emotion").get(anchor, [])}
        others = sorted(had & set(EMOTION) - set(names))
        draw = own.random()
        if draw >= CHANCE + EXCLUDE_CHANCE:
            return
        if draw >= CHANCE or not others:  # "… ma non tristezza": an emotion the anchor lacks
            lacking = sorted(set(EMOTION) - had)
            if lacking and draw >= CHANCE:
                self._exclude(frame, [own.choice(lacking)])
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
        if slots.get("exclude"):
            self._exclude(frame, list(slots["exclude"]))
        else:
            self._add(frame, list(slots["emotions"]), [])

    def _exclude(self, frame: Frame, names: list[str]) -> None:
        """``MINUS`` one ELITA entry per excluded emotion on the lemma."""
        for name in names:
            entry = frame.fresh("emotionEntry")
            frame.where.add(Minus(Group([Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                                         Triple(entry, HAS_EMOTION, IRI(ELITA + name))])))
        words_it = " né ".join(EMOTION.get(n, (n.lower(),))[0] for n in names)
        words_en = " nor ".join(EMOTION.get(n, (n, n.lower()))[1] for n in names)
        tech = ", ".join(f"elita:{n}" for n in names)
        frame.fragments.append(frag("constraint", [f"non esprimono {words_it}", f"non evocano {words_it}"],
                                    [f"do not express {words_en}", f"are not associated with {words_en}"],
                                    f"senza voci ELITA con {tech} (MINUS)", f"with no ELITA entry for {tech} (MINUS)"))
        # an emotion read only inside MINUS is an absence: the query is tagged PRESENCE, as the tagger reads it
        frame.tag("PRESENCE", 0.9)

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
        if slots.get("exclude"):
            return None  # everything but some lemmas: no useful estimate
        wanted = {ELITA + n for n in slots["emotions"]}
        return {lemma for lemma, rows in facts.by_lemma("emotion").items() if wanted <= {r[0] for r in rows}}

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        """Two or more distinct ELITA emotions required by one query (each the object of its own
        ``elita:HasEmotion`` triple: emotions listed in VALUES are either of them, not both)."""
        required = {o for _, p, o in f.triple_list if p == ELITA + "HasEmotion" and not o.startswith("?")}
        return 0.9 if len(required) >= 2 else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(91)
    def read_excluded(self, text: Text, slots) -> None:
        """"gioia ma non tristezza": an emotion named right after "but not" is excluded, when another one is asked."""
        if len(slots.emotions) < 2:
            return
        folded = fold_same_length(slots.question)
        for name in list(slots.emotions):
            m = EMOTION_RES[name].search(folded)
            if m and re.search(EXCLUDING, folded[max(0, m.start() - 40):m.start()]) and len(slots.emotions) > 1:
                slots.emotions.remove(name)
                slots.emotions_excluded.append(name)
        if slots.emotions_excluded and len(slots.emotions) == 1:
            slots.emotions_any = False

    def constraint_steps(self, slots) -> list[dict]:
        # "paura o rabbia" is either emotion (EMOTION_LEXICON's "any"), not both
        both = [{"emotions": list(slots.emotions)}] if len(slots.emotions) >= 2 and not slots.emotions_any else []
        return both + ([{"exclude": list(slots.emotions_excluded)}] if slots.emotions_excluded else [])


PATTERN = Intersection()
