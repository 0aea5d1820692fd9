"""SENSE_DEFINITION: CompL-it sense definitions of Italian lemmas (through SERVICE)."""

from __future__ import annotations

import random
import re

from ..namespaces import COMPLIT_SERVICE
from ..sparql.model import IRI, Call, Filter, Lit, Triple, lcase, str_
from .base import Facts, Frame, Pattern, frag, quote

_STOP = {"della", "delle", "degli", "dello", "nella", "nelle", "sulla", "questo", "quella", "quello", "molto",
         "anche", "oppure", "essere", "avere", "dalla", "dalle", "come", "sono", "ogni", "alcuni", "altre",
         "altro", "altri", "proprio", "propria"}


class SenseDefinition(Pattern):
    """``?word ontolex:canonicalForm ?lemma . SERVICE <CompL-it> { ?word ontolex:sense ?sense . ?sense skos:definition ?definition }``."""

    label = "SENSE_DEFINITION"
    rank = 50
    guidance = ("Definitions: ?word ontolex:sense ?sense . ?sense skos:definition ?definition, inside SERVICE; search "
                "them with CONTAINS(LCASE(STR(?definition)), \"…\").")
    example = ("word", "cane", {})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    role = "projection"
    fact_queries = {
        "definition": "SELECT DISTINCT ?lemma ?d WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
                      f"SERVICE <{COMPLIT_SERVICE}> {{ ?word ontolex:sense ?s . ?s skos:definition ?d }} }}",
    }
    needs = ("definition",)
    question_cues = [
        (r"\b(definizion\w*|definition\w*|definit[oa]|defined|(?<!stesso )(?<!quanti )(?<!piu )significat[oi]|significa"
         r"|vuol dire|(?<!same )meaning|means?(?! the same)|che cos.e|what is an?|descrizion[ei]|description)\b", 0.8),
        (r"\b(compl-?it)\b", 0.3),
    ]

    @staticmethod
    def _keywords(definition: str) -> list[str]:
        words = re.findall(r"[a-zàèéìòù]{6,}", definition.lower())
        return [w for w in dict.fromkeys(words) if w not in _STOP]

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        keywords = [k for d in facts.by_lemma("definition")[lemma] for k in self._keywords(d[0])]
        if shape in ("list", "count") and keywords and rng.random() < 0.45:
            return {"contains": rng.choice(sorted(set(keywords)))}
        return {}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        rows = facts.by_lemma("definition")
        word = slots.get("contains")
        if not word:
            return set(rows)
        return {lemma for lemma, defs in rows.items() if any(word in d[0].lower() for d in defs)}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        sense, service = frame.sense()
        definition = frame.fresh("definition")
        service.add(Triple(sense, IRI.of("skos:definition"), definition))
        frame.project(definition)
        if frame.shape in ("list", "count") and slots.get("contains"):
            word = slots["contains"]
            service.add(Filter(Call("CONTAINS", (lcase(str_(definition)), Lit(word)))))
            frame.fragments.append(frag(
                "constraint", [f"hanno una definizione che contiene {quote('it', word)}",
                               f"nella definizione citano {quote('it', word)}"],
                [f"have a definition mentioning {quote('en', word)}", f"are defined with the word {quote('en', word)}"],
                f"con skos:definition (CompL-it) che contiene {quote('it', word)}",
                f"whose CompL-it skos:definition contains {quote('en', word)}"))
            frame.slot("definition_word", word)
            if frame.shape == "count":
                frame.projection.remove(definition)
        elif frame.shape == "word":
            frame.fragments.append(frag("word_fact", ["la definizione", "il significato", "le definizioni"],
                                        ["the definition", "the meaning", "the definitions"],
                                        "le skos:definition dei sensi CompL-it", "the skos:definition of its CompL-it senses"))
        else:
            if frame.shape == "count":
                frame.projection.remove(definition)
            frame.fragments.append(frag("projection", ["la loro definizione", "la definizione in CompL-it"],
                                        ["their definition", "their CompL-it definition"],
                                        "la skos:definition del senso CompL-it", "the skos:definition of the CompL-it sense"))
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses("skos:definition"):
            return 0.9
        if f.uses("lexinfo:senseExample") or f.uses("skos:example"):
            return 0.7
        return 0.0


PATTERN = SenseDefinition()
