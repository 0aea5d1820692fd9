"""SERVICE_INTEGRATION: joining LiITA lemmas with CompL-it data behind SERVICE.

Every CompL-it pattern goes through :meth:`Frame.complit`, which adds the
link ``?word ontolex:canonicalForm ?lemma`` (LiITA side) and the SERVICE
block; this module adds the one thing that is only about the link: the
CompL-it part of speech of linked lemmas.
"""

from __future__ import annotations

import random

from ..namespaces import COMPLIT_SERVICE
from ..sparql.model import IRI, Triple
from .base import Frame, frag, sg
from .pattern import Pattern
from .reading import Text, reads

#: The part of speech (as CompL-it records it).
COMPLIT_POS = (r"\b(?:parte del discorso|part of speech|categoria grammatical\w*|grammatical category|"
               r"lexinfo:partofspeech)\b")


class ServiceIntegration(Pattern):
    """Project the CompL-it part-of-speech label of the linked word."""

    label = "SERVICE_INTEGRATION"
    rank = 140
    guidance = ("The part of speech CompL-it records: ?word lexinfo:partOfSpeech ?pos, inside SERVICE (?word is "
                "linked to ?lemma outside it).")
    example = ("word", "cane", {})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    kind = "built"
    fact_queries = {
        "complit": "SELECT DISTINCT ?lemma WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
                   f"SERVICE <{COMPLIT_SERVICE}> {{ ?word a ontolex:Word }} }}",
    }
    needs = ("complit",)
    question_cues = [(r"\b(compl-?it|collegat\w* a compl|linked to compl|lessico computazionale)\b", 0.8)]
    compose = {"projection": 5, "word": 10}
    slot_fields = {"complit_pos": False}
    mention_cue = COMPLIT_POS

    @reads(118)
    def read_request(self, text: Text, slots) -> None:
        """CompL-it's part of speech, when CompL-it (or lexinfo:partOfSpeech) is named."""
        if text.asks(COMPLIT_POS) and text.asks(r"compl-?it|lexinfo:partofspeech"):
            slots.complit_pos = True  # a named word's part of speech is LiITA's (POS_FILTER), unless CompL-it's is asked

    def projection_steps(self, slots) -> list[dict]:
        return [{}] if slots.complit_pos else []

    word_steps = projection_steps

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        word, facet = frame.complit_facet()
        pos, label = frame.fresh("complitPos"), frame.fresh("complitPosLabel")
        facet.group.add(Triple(word, IRI.of("lexinfo:partOfSpeech"), pos), Triple(pos, IRI.of("rdfs:label"), label))
        frame.show(facet, label, "complitPosLabels")
        if frame.shape == "word":
            frame.fragments.append(frag("word_fact", [sg("la parte del discorso registrata in CompL-it"),
                                                      sg("la categoria grammaticale in CompL-it")],
                                        [sg("the part of speech recorded in CompL-it"), sg("the CompL-it part of speech")],
                                        "il lexinfo:partOfSpeech della ontolex:Word CompL-it collegata",
                                        "the lexinfo:partOfSpeech of the linked CompL-it ontolex:Word",
                                        ask=(["Che parte del discorso è {w} in CompL-it?"],
                                             ["What part of speech is {w} in CompL-it?"])))
        elif frame.shape == "count":
            frame.fragments.append(frag("constraint", "hanno una parte del discorso in CompL-it",
                                        "have a part of speech in CompL-it",
                                        "con una ontolex:Word CompL-it collegata con lexinfo:partOfSpeech",
                                        "with a linked CompL-it ontolex:Word with lexinfo:partOfSpeech"))
        else:
            frame.fragments.append(frag("projection", [sg("la loro parte del discorso in CompL-it")],
                                        [sg("their part of speech in CompL-it")],
                                        "il lexinfo:partOfSpeech della ontolex:Word CompL-it collegata",
                                        "the lexinfo:partOfSpeech of the linked CompL-it ontolex:Word"))
        frame.slot("service", "CompL-it", "CompL-it", "CompL-it")
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if COMPLIT_SERVICE in f.services:
            return 0.9 if f.outside_iris - {COMPLIT_SERVICE} else 0.6
        return 0.0


PATTERN = ServiceIntegration()
