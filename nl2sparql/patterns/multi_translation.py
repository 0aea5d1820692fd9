"""MULTI_TRANSLATION: translations into both dialects at once."""

from __future__ import annotations

import random

from .base import Facts, Frame, Pattern, frag
from .translation import add_translation
from .vocab import DIALECT


class MultiTranslation(Pattern):
    """Project the Parmigiano and the Sicilian translations of ``?lemma``."""

    label = "MULTI_TRANSLATION"
    rank = 40
    guidance = ("Both dialects: the translation path once per dialect, each with its own Italian entry variable "
                "(?itEntryParmigiano, ?itEntrySicilian).")
    example = ("word", "acqua", {})
    resource = "a dialect glossary"
    entry_properties = ("vartrans:translatableAs",)
    role = "projection"
    question_cues = [
        (r"\b(entramb\w*|both|tutti e due|sia .* sia|sia .* che|multipl\w*|pi[uù] dialetti|several dialects)\b", 0.6),
        (r"\b(parmigian\w*|parma)\b.*\b(sicilian\w*)\b|\b(sicilian\w*)\b.*\b(parmigian\w*|parma)\b", 0.9),
    ]

    def applicable(self, facts: Facts, lemma: str) -> bool:
        return all(lemma in facts.by_lemma(f"translation_{d}") for d in DIALECT)

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        return set.intersection(*(facts.lemmas(f"translation_{d}") for d in DIALECT))

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        for dialect in ("parmigiano", "siciliano"):
            frame.project(add_translation(frame, dialect))
        kind = "word_fact" if frame.shape == "word" else "projection"
        frame.fragments.append(frag(
            kind, ["le traduzioni in parmigiano e in siciliano", "gli equivalenti parmigiano e siciliano"],
            ["the Parmigiano and Sicilian translations", "the Parmigiano and Sicilian equivalents"],
            "le voci parmigiane e siciliane collegate con vartrans:translatableAs",
            "the Parmigiano and Sicilian entries linked by vartrans:translatableAs"))
        frame.slot("dialects", "parmigiano+siciliano", "parmigiano", "Parmigiano")
        frame.tag(self.label, 0.9)
        frame.tag("TRANSLATION", 0.6)

    def sparql_weight(self, f) -> float:
        banks = sum(1 for d in DIALECT.values() if d[2] in f.iris or d[3] in f.iris)
        translations = sum(1 for w in ("translatableAs",) if any(w in i for i in f.iris))
        if banks >= 2 or (translations and f.strings and sum(1 for s in f.strings if s in ("scn", "roa")) >= 2):
            return 0.9
        return 0.0


PATTERN = MultiTranslation()
