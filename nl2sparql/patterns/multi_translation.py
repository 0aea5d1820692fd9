"""MULTI_TRANSLATION: translations into both dialects at once."""

from __future__ import annotations

import random
import re

from .base import Facts, Frame, frag, pl
from .pattern import Pattern
from .reading import Text, reads
from .translation import TRANSLATION_CUE, TRANSLATION_MENTION, add_translation, show_translation
from .vocab import DIALECT

#: "both", "every dialect": translations into all the dialects.
ALL_DIALECTS = r"\b(?:entramb[ie]|both|tutti e due|dialetti|dialects|ogni dialetto|each dialect)\b"


class MultiTranslation(Pattern):
    """Project the Parmigiano and the Sicilian translations of ``?lemma``."""

    label = "MULTI_TRANSLATION"
    rank = 40
    guidance = ("Both dialects: the translation path once per dialect, each with its own Italian entry variable "
                "(?itEntryParmigiano, ?itEntrySicilian).")
    example = ("word", "acqua", {})
    resource = "a dialect glossary"
    entry_properties = ("vartrans:translatableAs",)
    needs_any = ("translation_siciliano",)
    compose = {"projection": 2, "word": 3}
    excludes = ("TRANSLATION",)
    question_cues = [
        (r"\b(entramb\w*|both|tutti e due|sia .* sia|sia .* che|multipl\w*|pi[uù] dialetti|several dialects)\b", 0.6),
        (r"\b(parmigian\w*|parma)\b.*\b(sicilian\w*)\b|\b(sicilian\w*)\b.*\b(parmigian\w*|parma)\b", 0.9),
    ]

    mention_cue = TRANSLATION_MENTION
    fact_nouns = r"traduzion[ei]|equivalent[ei]|translations?|equivalents?"
    requirable = True

    @reads(101)
    def read_all_dialects(self, text: Text, slots) -> None:
        """A translation into "both" dialects names them all ("both" near the translation: not "both love and joy")."""
        folded = text.folded
        near = any(re.search(TRANSLATION_CUE + r"|parmigian\w*|sicilian\w*",
                             re.split(r"[?.!;]", folded[max(0, m.start() - 25):m.start()])[-1] + " " +
                             re.split(r"[?.!;]", folded[m.start():m.end() + 25])[0])
                   for m in re.finditer(ALL_DIALECTS, folded))
        if near and text.has(TRANSLATION_CUE):
            slots.dialects = ["parmigiano", "siciliano"]

    def projection_steps(self, slots) -> list[dict]:
        if slots.bank or slots.translation_pairs:
            return []  # a dialect-side list's Italian translations (DIALECT_SIDE), or named dialects' pairs
        return [{}] if slots.translation and len(slots.dialects) != 1 else []

    word_steps = projection_steps

    def alternatives(self, steps: list, shape: str, slots) -> list[tuple[list, float]]:
        """A translation that names no dialect: both dialects first (this pattern), then each dialect alone."""
        if not slots.translation or slots.dialects or shape == "standalone":
            return []
        return [([("TRANSLATION", {"dialect": dialect}) if label == self.label else (label, values)
                  for label, values in steps], 0.97) for dialect in ("siciliano", "parmigiano")]

    def applicable(self, facts: Facts, lemma: str) -> bool:
        return all(lemma in facts.by_lemma(f"translation_{d}") for d in DIALECT)

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        return {"required": True} if shape == "list" and rng.random() < 0.3 else {}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if slots.get("required"):
            return set.intersection(*(set(facts.lemmas(f"translation_{d}")) for d in DIALECT))
        return None  # shown next to the lemmas: it narrows nothing

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        required = frame.shape == "count" or (frame.shape == "list" and slots.get("required"))
        for dialect in ("parmigiano", "siciliano"):  # one facet each: a lemma with one translation keeps it
            (add_translation if required else show_translation)(frame, dialect)
        if frame.shape == "word":
            frame.fragments.append(frag(
                "word_fact", [pl("le traduzioni in parmigiano e in siciliano"), pl("gli equivalenti in parmigiano e in siciliano")],
                [pl("the Parmigiano and Sicilian translations"), pl("the Parmigiano and Sicilian equivalents")],
                "le voci parmigiane e siciliane collegate da vartrans:translatableAs",
                "the Parmigiano and Sicilian entries linked by vartrans:translatableAs",
                ask=(["Come si dice {w} in parmigiano e in siciliano?"],
                     ["How do you say {w} in Parmigiano and in Sicilian?"]), lead="dialect"))
        elif required:
            frame.fragments.append(frag(
                "constraint", ["hanno una traduzione sia in parmigiano sia in siciliano"],
                ["have both a Parmigiano and a Sicilian translation"],
                "con una voce parmigiana e una siciliana collegate da vartrans:translatableAs",
                "with a Parmigiano and a Sicilian entry linked by vartrans:translatableAs"))
        else:
            frame.fragments.append(frag(
                "projection", [pl("le loro traduzioni in parmigiano e in siciliano"),
                               pl("gli equivalenti in parmigiano e in siciliano")],
                [pl("their Parmigiano and Sicilian translations"), pl("the Parmigiano and Sicilian equivalents")],
                "le voci parmigiane e siciliane collegate da vartrans:translatableAs",
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
