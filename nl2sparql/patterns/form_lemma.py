"""FORM_LEMMA: the lemma an inflected form belongs to ("di quale verbo è forma «vado»?").

"What lemma does 'fecero' belong to?", "«sono» è una forma di quale verbo?",
"What is the lemma of 'gatte'?" — the question names a form, not a lemma, and
asks for the lemma whose entry lists it among its ``ontolex:otherForm``::

    SELECT DISTINCT ?lemmaRep WHERE {
      VALUES ?form { "vado"@it }
      ?f ontolex:writtenRep ?form .
      ?formEntry ontolex:otherForm ?f ; ontolex:canonicalForm ?lemma .
      ?lemma ontolex:writtenRep ?lemmaRep .
    } ORDER BY ?lemmaRep

Only the inflected forms count: a word that is a lemma itself is looked up as
one (a named word's facts), not here.
"""

from __future__ import annotations

import random
import re

from ..folding import fold_same_length
from ..sparql.model import IRI, Select, Group, Triple, Values, Var
from .base import Facts, frag, italian, quote
from .pattern import StandalonePattern
from .reading import Text, reads

_HEAD_IT = r"(?:lemma|verbo|parola|sostantivo|nome|aggettivo|infinito|forma base|forma di citazione)"
_HEAD_EN = r"(?:lemma|verb|word|noun|adjective|dictionary form|base form|citation form|infinitive)"
#: The question asks which lemma a named form belongs to.
LEMMA_OF_FORM = (
    rf"\bdi (?:quale|che) {_HEAD_IT}\b.*\bforma\b|\bdi (?:quale|che) {_HEAD_IT} e \S+\s*\??\s*$|"
    rf"\bforma (?:flessa )?di (?:quale|che) {_HEAD_IT}\b|"
    rf"\b(?:a|da) (?:quale|che) {_HEAD_IT} (?:appartiene|corrisponde|deriva|viene)\b|"
    rf"\b(?:qual e|quale e) (?:il|l') ?{_HEAD_IT} (?:di|della forma|corrispondente a)\b|\blemmatizza\w*\b|"
    rf"\b(?:what|which) {_HEAD_EN}\b.*\b(?:belongs? to|comes? from|is (?:it )?an? (?:inflected )?form of|"
    rf"(?:an? )?(?:inflected )?form of|inflection of|derived? from)\b|"
    rf"\b(?:what|which) {_HEAD_EN} is\b.*\b(?:participle|gerund|plural|singular|feminine|masculine) of\b|"
    rf"\b(?:an? |the )?(?:inflected )?form of (?:what|which)\b|"
    rf"\b(?:what|which) is the {_HEAD_EN} (?:of|for|behind)\b|\blemmati[sz]e\b|\blemma of the form\b")
#: Forms of at most this many lemmas are sampled per lemma (the generator's variants).
FORMS_PER_LEMMA = 3


class FormLemma(StandalonePattern):
    """The lemma (or lemmas) whose entry has a named inflected form."""

    label = "FORM_LEMMA"
    rank = 129
    guidance = ("The lemma of an inflected form: ?f ontolex:writtenRep \"vado\"@it . ?e ontolex:otherForm ?f ; "
                "ontolex:canonicalForm ?lemma . ?lemma ontolex:writtenRep ?lemmaRep.")
    example = ("standalone", None, {"form": "vado"})
    fact_queries = {
        "form_reps": "SELECT DISTINCT ?lemma ?form WHERE { ?e ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f . "
                     "?f ontolex:writtenRep ?form . ?lemma a lila:Lemma ; ontolex:writtenRep ?wr . "
                     "FILTER(STR(?form) != STR(?wr)) }",
    }
    question_cues = [(LEMMA_OF_FORM, 0.8)]

    @reads(127)
    def read_whole(self, text: Text, slots) -> None:
        """A named word asked about as a form ("what lemma does «fecero» belong to?")."""
        # the whole question: the part of speech in "di quale verbo" was read (and masked) already
        # "which lemma does X belong to" is no holonym; "di quale parola è sinonimo X" is a synonym
        other_relation = slots.relation and slots.relation not in ("holonym", "meronym")
        if slots.standalone or not slots.word or slots.listed or other_relation or not re.search(
                LEMMA_OF_FORM, fold_same_length(slots.question)):
            return
        slots.standalone = (self.label, {"form": slots.word})
        slots.word, slots.pos, slots.forms, slots.relation = None, None, False, None

    def variants(self, facts: Facts) -> list[dict]:
        """A few forms of each lemma that has inflected forms (other than its citation form)."""
        out, seen = [], set()
        for rows in facts.by_lemma("form_reps").values():
            for (form,) in sorted(rows)[:FORMS_PER_LEMMA]:
                if form not in seen:
                    seen.add(form)
                    out.append({"form": form})
        return out

    def build(self, slots: dict, rng: random.Random):
        form = slots["form"]
        written, f, entry, lemma, lemma_rep = Var("form"), Var("f"), Var("formEntry"), Var("lemma"), Var("lemmaRep")
        where = Group([Values(written, [italian(form)]),
                       Triple(f, IRI.of("ontolex:writtenRep"), written),
                       Triple(entry, IRI.of("ontolex:otherForm"), f),
                       Triple(entry, IRI.of("ontolex:canonicalForm"), lemma),
                       Triple(lemma, IRI.of("ontolex:writtenRep"), lemma_rep)])
        query = Select([lemma_rep], where, distinct=True, order_by=[lemma_rep])
        q_it, q_en = quote("it", form), quote("en", form)
        f = frag("standalone", [f"Di quale lemma è forma {q_it}?", f"{q_it} è una forma di quale lemma?"],
                 [f"Which lemma is {q_en} a form of?", f"What lemma does {q_en} belong to?"],
                 f"Trova il lemma la cui voce ha tra le ontolex:otherForm una forma con ontolex:writtenRep {q_it}.",
                 f"Find the lemma whose entry has an ontolex:otherForm with ontolex:writtenRep {q_en}.",
                 ling=(f"Qual è il lemma della forma flessa {q_it}?", f"What is the lemma of the inflected form {q_en}?"),
                 lead="italian")
        return query, [f], {self.label: 0.9, "LEXICAL_FORM": 0.7}, [(form, form)]


PATTERN = FormLemma()
