"""VALUE_SET: the values LiITA uses for a property, listed or counted.

"List all grammatical genders used in the knowledge base", "Display all verb
moods in alphabetical order", "How many different tenses are there?",
"Quali parti del discorso usa LiITA?", "Which properties describe a lemma?"::

    SELECT DISTINCT ?mood ?moodLabel WHERE { ?x lexinfo:verbFormMood ?mood . OPTIONAL { ?mood rdfs:label ?moodLabel } }
    ORDER BY ?moodLabel ?mood

A value comes with its label where the data gives one (LexInfo features, ELITA
emotions, Sentix polarity classes); a count counts the distinct values.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..namespaces import LEMMA_BANK
from ..sparql.model import IRI, Call, Group, Optional_, Select, Triple, Var
from .base import Facts, frag
from .pattern import StandalonePattern
from .reading import Text, reads
from .vocab import PER_FACET


@dataclass(frozen=True)
class ValueKind:
    """A property whose values a question may ask for.

    ``prop``: the property (``None``: the predicates themselves, of the Italian lemmas); ``labelled``:
    the values carry an ``rdfs:label``; ``words``: the folded plural nouns questions use; ``it``/``en``:
    the plural nouns the questions are written with.
    """

    prop: str | None
    labelled: bool
    words: str
    it: str
    en: str
    #: the Italian plural noun is feminine («quante parti del discorso»)
    fem: bool = False
    #: the class the values must have (see :class:`~.vocab.Facet`)
    value_class: str | None = None


KINDS: dict[str, ValueKind] = {
    "pos": ValueKind("lila:hasPOS", False,
                     r"parti del discorso|parts?[- ]of[- ]speech|pos tags?|pos|categorie grammaticali|grammatical categories|"
                     r"categorie lessicali|lexical categories|word classes|classi di parole",
                     "parti del discorso", "parts of speech", fem=True),
    "gender": ValueKind("lila:hasGender", False, r"generi(?: grammaticali)?|(?:grammatical )?genders",
                        "generi grammaticali", "grammatical genders"),
    "mood": ValueKind("lexinfo:verbFormMood", True, r"modi(?: verbali)?|(?:verb(?:al)? )?moods", "modi verbali",
                      "verb moods"),
    "tense": ValueKind("lexinfo:tense", True, r"tempi(?: verbali)?|(?:verb(?:al)? )?tenses", "tempi verbali",
                       "verb tenses"),
    "person": ValueKind("lexinfo:person", True, r"persone grammaticali|grammatical persons", "persone grammaticali",
                        "grammatical persons", fem=True),
    "emotion": ValueKind("elita:HasEmotion", True, r"emozioni|emotions", "emozioni", "emotions", fem=True,
                          value_class="elita:Emotion"),
    "polarity": ValueKind("marl:hasPolarity", True, r"classi di polarita|polarity classes|polarita|polarities",
                          "classi di polarità", "polarity classes", fem=True),
    "property": ValueKind(None, False, r"propriet[aà]|properties|predicat[ie]|predicates|attribut[ie]|attributes",
                          "proprietà", "properties", fem=True),
}
#: "all the …", "which …", "list the distinct …", "how many different …": a request for the values themselves,
#: right before their noun (a few function words between).
_ASK = (r"\b(?P<ask>tutt[ie]|all|quali|which|what|che|elenca\w*|list|show|explore|esplora|mostra\w*|display|visualizza|dammi|give|"
        r"quanti|quante|how many|numero di|number of)\s+(?:(?:the|all|of|are|is|me|distinct|different|possible|i|gli|le|"
        r"sono|tutti|tutte|diversi|diverse|distinti|distinte|possibili|\x01+)\s+){0,3}$")
_COUNT = r"quanti|quante|how many|numero di|number of"
#: What a property-of-lemmas question says about lemmas.
_OF_LEMMAS = r"\b(?:lemm[ai]|lemmas|lila:lemma)\b"


class ValueSet(StandalonePattern):
    """``SELECT DISTINCT ?value ?label WHERE { ?x <prop> ?value … }``, or ``COUNT(DISTINCT ?value)``."""

    label = "VALUE_SET"
    rank = 125
    guidance = ("The values a property takes in the KB: SELECT DISTINCT ?v WHERE { ?x lila:hasGender ?v } "
                "(with OPTIONAL { ?v rdfs:label ?label } for LexInfo features, emotions, polarity classes).")
    example = ("standalone", None, {"kind": "mood", "count": False})
    question_cues = [(r"\b(?:modi verbali|verb moods|tempi verbali|verb tenses|generi grammaticali|grammatical genders|"
                      r"parti del discorso|parts of speech|pos tags)\b", 0.6)]

    @reads(129)
    def read_whole(self, text: Text, slots) -> None:
        """All the values of one property, or how many there are; nothing else asked."""
        if slots.standalone or slots.word or slots.quoted or slots.affixes or slots.relation or slots.dialects \
                or slots.emotions or slots.polarity:
            return
        if slots.pos and re.search(r"\b(?:also show|mostra anche|with their|con le loro|con i loro)\b", text.folded):
            return  # "the adverbs, also show their emotions": lemmas with a facet, not a vocabulary
        f = text.folded
        if re.search(PER_FACET, f) or re.search(r"\b(?:distribu\w*|per ciascun\w*|for each|per ogni)\b", f):
            return  # counts of lemmas per value: DISTRIBUTION / COUNT_ENTITIES
        for kind, spec in KINDS.items():
            m = re.search(rf"\b(?:{spec.words})\b", f)
            if not m:
                continue
            if kind == "property" and not re.search(_OF_LEMMAS, f):
                return
            ask = re.search(_ASK, f[:m.start()])
            if ask:
                slots.standalone = (self.label, {"kind": kind, "count": bool(re.fullmatch(_COUNT, ask.group("ask")))})
                if kind in ("mood", "tense", "person"):
                    slots.pos = None  # "verb moods", "Italian verbs": what the values describe, not a filter
            return

    def variants(self, facts: Facts) -> list[dict]:
        return [{"kind": kind, "count": count} for kind in KINDS for count in (False, True)]

    def build(self, slots: dict, rng: random.Random):
        kind, count = slots["kind"], bool(slots.get("count"))
        spec = KINDS[kind]
        subject = Var("x")
        if spec.prop is None:
            value = Var("property")
            where = Group([Triple(subject, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK)), Triple(subject, value, Var("o"))])
        else:
            value = Var(kind)
            where = Group([Triple(subject, IRI.of(spec.prop), value)])
            if spec.value_class:
                where.add(Triple(value, IRI.of("rdf:type"), IRI.of(spec.value_class)))
        label = Var(f"{kind}Label")
        if spec.labelled and not count:
            where.add(Optional_(Group([Triple(value, IRI.of("rdfs:label"), label)])))
        if count:
            query = Select([(Call("COUNT", (value,), distinct=True), Var("count"))], where)
        else:
            projection = [value, label] if spec.labelled else [value]
            query = Select(projection, where, distinct=True, order_by=[label, value] if spec.labelled else [value])
        tech = (f"i valori distinti di {spec.prop}" if spec.prop else
                f"i predicati delle risorse con dcterms:isPartOf <{LEMMA_BANK}>")
        tech_en = (f"the distinct values of {spec.prop}" if spec.prop else
                   f"the predicates of the resources with dcterms:isPartOf <{LEMMA_BANK}>")
        q, e, a = ("Quante", "e", "e") if spec.fem else ("Quanti", "i", "i")  # agreement with the noun
        if spec.prop is None:  # the predicates of the lemmas: the question says so (not every property of LiITA)
            f = frag("standalone", ["Quante proprietà diverse hanno i lemmi di LiITA?",
                                    "Quante proprietà usano i lemmi di LiITA?"] if count else
                     ["Quali proprietà hanno i lemmi di LiITA?", "Elenca tutte le proprietà usate dai lemmi di LiITA."],
                     ["How many different properties do LiITA's lemmas have?",
                      "How many properties do the lemmas of LiITA use?"] if count else
                     ["Which properties do LiITA's lemmas have?", "List all the properties used by the lemmas of LiITA."],
                     f"{'Conta' if count else 'Elenca'} {tech}{' (COUNT DISTINCT)' if count else ''}.",
                     f"{'Count' if count else 'List'} {tech_en}{' (COUNT DISTINCT)' if count else ''}.",
                     ling=(f"{'Quante' if count else 'Quali'} proprietà distinte descrivono i lemmi di LiITA?",
                           f"{'How many' if count else 'Which'} distinct properties describe LiITA's lemmas?"))
        elif count:
            f = frag("standalone", [f"{q} {spec.it} divers{e} ci sono in LiITA?", f"{q} {spec.it} usa LiITA?"],
                     [f"How many different {spec.en} are there in LiITA?", f"How many {spec.en} does LiITA use?"],
                     f"Conta {tech} (COUNT DISTINCT).", f"Count {tech_en} (COUNT DISTINCT).",
                     ling=(f"{q} {spec.it} distint{e} sono attestat{a} in LiITA?",
                           f"How many distinct {spec.en} are attested in LiITA?"))
        else:
            all_it = f"tutte le {spec.it} usate" if spec.fem else f"tutti i {spec.it} usati"
            f = frag("standalone", [f"Quali {spec.it} ci sono in LiITA?", f"Elenca {all_it} in LiITA."],
                     [f"Which {spec.en} are there in LiITA?", f"List all the {spec.en} used in LiITA."],
                     f"Elenca {tech}.", f"List {tech_en}.",
                     ling=(f"Quali {spec.it} distint{e} sono attestat{a} in LiITA?",
                           f"Which distinct {spec.en} are attested in LiITA?"))
        return query, [f], {self.label: 0.9, "META_GRAPH": 0.4}, [(spec.it.split()[0], spec.en.split()[-1])]

    def sparql_weight(self, f) -> float:
        """A query that lists or counts the objects of one property with no lemma fixed."""
        return 0.0


PATTERN = ValueSet()
