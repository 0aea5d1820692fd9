"""POS_FILTER: lemmas of one part of speech (and gender), e.g. "feminine nouns"."""

from __future__ import annotations

import random
import re

from ..sparql.model import IRI, Triple, Values
from .base import Facts, Frame, frag, sg
from .pattern import Pattern
from .reading import Text, reads
from .vocab import FACETS, GENDER, GENDER_WORDS, LILA, POS, POS_WORDS, local_name


def _value_index(facts: Facts) -> dict[str, set[str]]:
    """POS and gender IRI → the lemmas that have it."""
    index: dict[str, set[str]] = {}
    for lemma, rows in facts.by_lemma("lemma").items():
        for row in rows:
            index.setdefault(row[1], set()).add(lemma)
    for lemma, rows in facts.by_lemma("gender").items():
        for row in rows:
            index.setdefault(row[0], set()).add(lemma)
    return index


#: A named word's part of speech or gender asked for.
POS_ASKED = (r"\b(?:(?:che|quale|which|what)\s+)?(?:parte del discorso|part of speech|categoria grammaticale|"
             r"grammatical category|pos)\b|\bwhat kind of word\b|\bche tipo di parola\b")
GENDER_ASKED = r"\b(?:genere(?: grammaticale)?|(?:grammatical )?gender)\b"


class PosFilter(Pattern):
    """``?lemma lila:hasPOS lila:noun`` [``; lila:hasGender lila:feminine``]."""

    label = "POS_FILTER"
    rank = 90
    guidance = ("Part of speech and gender on the lemma: lila:hasPOS lila:noun ; lila:hasGender lila:feminine.")
    example = ("list", None, {"pos": "noun", "gender": "feminine"})
    fact_queries = {
        "gender": "SELECT DISTINCT ?lemma ?gender WHERE { ?lemma a lila:Lemma ; lila:hasGender ?gender . "
                  "FILTER(STRSTARTS(STR(?lemma), \"http://liita.it/data/id/lemma/\")) }",
    }
    question_cues = [
        (r"\b(sostantiv[oi]|nom[ei] comun[ei]|verb[oi]|aggettiv[oi]|avverb[oi]|nouns?|verbs?|adjectives?|adverbs?"
         r"|parte del discorso|part of speech|pos)\b", 0.8),
        (r"\b(" + "|".join(words for _, words in GENDER_WORDS) + f"|{FACETS['gender'].words})\\b", 0.7),
    ]
    compose = {"constraint": 1, "word": 11}
    build_order = 1
    slot_fields = {"pos": None, "gender": None, "pos_any": list, "pos_asked": False, "gender_asked": False}
    fact_nouns = r"parte del discorso|part of speech|categoria grammaticale|grammatical category|genere(?: grammaticale)?|gender"
    mention_cue = POS_ASKED + "|" + GENDER_ASKED

    @reads(102)
    def read_pos(self, text: Text, slots) -> None:
        """The parts of speech named: the first one (proper nouns before nouns), and every one when the question
        names several ("sostantivi o aggettivi", "nouns and verbs": a lemma has one, so either of them)."""
        found = []
        for name, words in POS_WORDS:
            m = re.search(rf"\b(?:{words})\b", text.folded)
            if m:
                found.append((m.start(), name, m.span()))
                text.mask(*m.span())
        if found:
            found.sort()
            slots.pos = found[0][1]
            if len(found) >= 2:
                slots.pos_any = [name for _, name, _ in found]

    @reads(101)
    def read_asked(self, text: Text, slots) -> None:
        """A named word's part of speech or gender asked for ("qual è il genere di «mano»?"), before the POS and
        gender names below read "genere" and "nome" as values."""
        if not slots.word:
            return
        if text.has(POS_ASKED) and not text.has(r"compl-?it|lexinfo:partofspeech"):  # CompL-it's: SERVICE_INTEGRATION
            slots.pos_asked = True
            text.mask(*text.search(POS_ASKED).span())
        if text.has(GENDER_ASKED):
            slots.gender_asked = True
            text.mask(*text.search(GENDER_ASKED).span())

    @reads(103)
    def read_gender(self, text: Text, slots) -> None:
        """A grammatical gender (the last one named)."""
        for name, words in GENDER_WORDS:
            if re.search(rf"\b(?:{words})\b", text.folded):
                slots.gender = name

    def word_steps(self, slots) -> list[dict]:
        return [{"show": fact} for fact, asked in (("pos", slots.pos_asked), ("gender", slots.gender_asked)) if asked]

    def constraint_steps(self, slots) -> list[dict]:
        if len(slots.pos_any) >= 2:
            return [{"pos": slots.pos_any[0], "any": list(slots.pos_any)}]
        if not (slots.pos or slots.gender):
            return []
        step = {"pos": slots.pos or "noun"}
        if slots.gender and not (slots.word and slots.forms):  # "al femminile" of a word is a form feature
            step["gender"] = slots.gender
        return [step] if slots.pos or "gender" in step else []

    def applicable(self, facts: Facts, lemma: str) -> bool:
        rows = facts.by_lemma("lemma").get(lemma)
        return bool(rows) and local_name(rows[0][1]) in POS

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        pos = local_name(facts.by_lemma("lemma")[lemma][0][1])
        genders = [local_name(g[0]) for g in facts.by_lemma("gender").get(lemma, [])]
        if shape == "word":  # a fact about the named word: its part of speech, or its gender when it has one
            return {"show": rng.choice(["pos", "gender"] if genders else ["pos"])}
        slots = {"pos": pos}
        if pos in ("noun", "adjective") and len(genders) == 1 and genders[0] in GENDER and rng.random() < 0.35:
            slots["gender"] = genders[0]
        return slots

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if "pos" not in slots:
            return None  # a fact shown about a named word narrows nothing
        by_value = facts.derived("pos_gender_index", _value_index)
        out = by_value.get(LILA + slots["pos"], set())
        if slots.get("gender"):
            out = out & by_value.get(LILA + slots["gender"], set())
        return out

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        if slots.get("show"):
            self._build_fact(frame, slots["show"])
            return
        if slots.get("any"):
            self._build_any(frame, list(slots["any"]))
            return
        pos, gender = slots["pos"], slots.get("gender")
        it_pl, en_pl, _ = POS[pos]
        frame.where.add(Triple(frame.lemma, IRI.of("lila:hasPOS"), IRI(LILA + pos)))
        if gender:
            frame.where.add(Triple(frame.lemma, IRI.of("lila:hasGender"), IRI(LILA + gender)))
        # every persona says "nouns": «lemmi nominali» would be the lemmas alone, and a list is of words (WORDS)
        it_head, en_head = it_pl, en_pl
        it_tech, en_tech = f"con lila:hasPOS lila:{pos}", f"with lila:hasPOS lila:{pos}"
        if gender:
            g_it, g_en = GENDER[gender]
            it_head, en_head = f"{it_pl} {g_it}", f"{g_en} {en_pl}"
            it_tech += f" e lila:hasGender lila:{gender}"
            en_tech += f" and lila:hasGender lila:{gender}"
            frame.slot("gender", gender, g_it, g_en)
        frame.slot("pos", pos, it_pl, en_pl)
        frame.fragments.append(frag("head", it_head, en_head, it_tech, en_tech))
        frame.tag(self.label, 0.9)

    def _build_fact(self, frame: Frame, fact: str) -> None:
        """A named word's part of speech or gender (the LiLa individual, e.g. lila:noun, lila:feminine)."""
        facet = frame.facet()
        prop = "lila:hasPOS" if fact == "pos" else "lila:hasGender"
        value = frame.fresh(fact)
        facet.group.add(Triple(frame.lemma, IRI.of(prop), value))
        frame.show(facet, value, "partsOfSpeech" if fact == "pos" else "genders")
        if fact == "pos":
            frame.fragments.append(frag("word_fact", sg("la parte del discorso"), sg("the part of speech"),
                                        f"il suo {prop}", f"its {prop}",
                                        ask=(["Che parte del discorso è {w}?", "Qual è la parte del discorso di {w}?"],
                                             ["What part of speech is {w}?", "Which part of speech is {w}?"]),
                                        ling=(sg("la categoria grammaticale"), sg("the grammatical category"))))
        else:
            frame.fragments.append(frag("word_fact", sg("il genere grammaticale"), sg("the grammatical gender"),
                                        f"il suo {prop}", f"its {prop}",
                                        ask=(["Di che genere è {w}?", "Qual è il genere grammaticale di {w}?"],
                                             ["What is the gender of {w}?", "Which grammatical gender does {w} have?"])))
        frame.tag(self.label, 0.9)

    def _build_any(self, frame: Frame, names: list[str]) -> None:
        """Lemmas of any of the parts of speech: ``VALUES ?pos { lila:noun lila:adjective } ?lemma lila:hasPOS ?pos``."""
        pos = frame.fresh("pos")
        frame.where.add(Values(pos, [IRI(LILA + n) for n in names]), Triple(frame.lemma, IRI.of("lila:hasPOS"), pos))
        it = " o ".join(POS[n][0] for n in names)
        en = " or ".join(POS[n][1] for n in names)
        tech = " ".join(f"lila:{n}" for n in names)
        frame.fragments.append(frag("head", it, en, f"con lila:hasPOS tra {tech}", f"with lila:hasPOS among {tech}"))
        for name in names:
            frame.slot("pos", name, POS[name][0], POS[name][1])
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses("lila:hasPOS") or f.uses_any("lila:hasGender"):
            return 0.9
        # a CompL-it part of speech counts only as a filter (a constant), not as a projected column
        pos_iri = IRI.of("lexinfo:partOfSpeech").value
        if any(p == pos_iri and not o.startswith("?") for _, p, o in f.triple_list):
            return 0.6
        return 0.0


PATTERN = PosFilter()
