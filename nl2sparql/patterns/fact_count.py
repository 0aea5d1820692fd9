"""FACT_COUNT: how many related words, translations or definitions a named word has.

"How many synonyms does «gioia» have?", "Quante traduzioni in siciliano ha
«gatto»?", "Quante definizioni ha «pianta»?": the word fact of another
pattern, built for the named word, counted::

    SELECT (COUNT(DISTINCT ?synonym) AS ?count) WHERE { VALUES ?wr { "gioia"@it } … ?synonym … }

(How many lemmas are hyponyms or parts of a word is a count of a constrained
list, COUNT_ENTITIES; how many senses a word has is SENSE_COUNT.)
"""

from __future__ import annotations

import random

from ..sparql.model import Call, Select, Var
from .analytics import constrained, written
from .base import Facts, frag, quote
from .pattern import StandalonePattern
from .phrasing import Agreement, plural_article

#: (label, build slots) of a countable word fact → the fact sampled for it, and its plural nouns (IT, EN).
COUNTED = {
    ("LEXICAL_RELATION", "synonym"): ("synonym", "sinonimi", "synonyms"),
    ("LEXICAL_RELATION", "antonym"): ("antonym", "contrari", "antonyms"),
    ("SEMANTIC_RELATION", "hypernym"): ("hypernym", "iperonimi", "hypernyms"),
    ("TRANSLATION", "siciliano"): ("translation_siciliano", "traduzioni in siciliano", "Sicilian translations"),
    ("TRANSLATION", "parmigiano"): ("translation_parmigiano", "traduzioni in parmigiano", "Parmigiano translations"),
    ("SENSE_DEFINITION", None): ("definition", "definizioni", "definitions"),
}


def _key(label: str, values: dict) -> tuple:
    return label, values.get("relation") or values.get("dialect")


class FactCount(StandalonePattern):
    """``COUNT(DISTINCT ?fact)`` of one word fact of a named word."""

    label = "FACT_COUNT"
    rank = 112
    guidance = ("How many synonyms / translations / definitions a word has: the word's fact as in a word question, "
                "then SELECT (COUNT(DISTINCT ?fact) AS ?count).")
    example = ("standalone", None, {"word": "gioia", "steps": [("LEXICAL_RELATION", {"relation": "synonym"})]})

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """A countable fact of a lemma that has it (sampled, reproducibly)."""
        rng = random.Random(self.label)
        out = []
        for (label, value), (fact, _, _) in COUNTED.items():
            having = sorted(facts.lemmas(fact) & facts.lemmas("lemma"))
            for lemma in rng.sample(having, min(len(having), 12)):
                step = {"relation": value} if "RELATION" in label else {"dialect": value} if value else {}
                out.append({"word": written(facts, lemma), "steps": [(label, step)]})
        return out

    def build(self, slots: dict, rng: random.Random):
        steps = [tuple(s) for s in slots["steps"]]
        word = slots["word"]
        frame = constrained(steps, "word", word, rng)
        counted = frame.projection[-1] if frame.projection else frame.lemma
        query = Select([(Call("COUNT", (counted,), distinct=True), Var("count"))], frame.where)
        label, values = steps[0]
        _, it, en = COUNTED.get(_key(label, values), (None, "valori", "values"))
        qi, qe = quote("it", word), quote("en", word)
        g = "f" if it.startswith(("traduz", "defin")) else "m"
        quanti = Agreement(g).quanti
        fragment = frag("standalone", [f"{quanti.capitalize()} {it} ha {qi}?", f"{quanti.capitalize()} sono {plural_article(it, g)} {it} di {qi}?"],
                        [f"How many {en} does {qe} have?", f"How many {en} are there for {qe}?"],
                        f"Conta, senza duplicati, {plural_article(it, g)} {it} del lemma con ontolex:writtenRep {qi}.",
                        f"Count the distinct {en} of the lemma whose ontolex:writtenRep is {qe}.",
                        ling=(f"{quanti.capitalize()} {it} registra LiITA per il lemma {qi}?",
                              f"How many {en} does LiITA record for the lemma {qe}?"),
                        lead="dialect" if label in ("TRANSLATION", "MULTI_TRANSLATION") else "italian")
        tags = {**frame.labels, self.label: 0.9, "COUNT_ENTITIES": 0.6}
        return query, [fragment], tags, [(word, word)] + list(frame.mentions)[1:]

    # -- tagger -------------------------------------------------------------------------------
    # No structural weight: a count of a named word's synonyms reads like a count of the lemmas that are synonyms
    # of that word (COUNT_ENTITIES) in every feature the tagger sees; the composer tags its own items.

    # -- translator ---------------------------------------------------------------------------
    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        """How many of a word's facts: a count asked of a word plan with one countable fact."""
        if shape != "word" or not slots.count or len(facts) != 1 or slots.yes_no:
            return None
        label, values = facts[0]
        if _key(label, values) not in COUNTED:
            return None
        return {"word": slots.word, "steps": [(label, values)]}


PATTERN = FactCount()
