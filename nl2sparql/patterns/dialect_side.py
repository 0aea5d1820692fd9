"""DIALECT_SIDE: questions that start from a dialect lemma bank ("Sicilian nouns starting with «z»").

The lemmas listed or counted are the Sicilian or Parmigiano bank's, not the
Italian Lemma Bank's: the frame's focus lemma is scoped to that bank, the
constraints that hold on any lemma (part of speech, gender, written form) test
the dialect lemma, and "with their Italian translation" follows the glossary
link back (always Italian entry → dialect entry)::

    SELECT DISTINCT ?wr ?italian WHERE {
      ?lemma lila:hasPOS lila:noun . FILTER(STRSTARTS(STR(?wr), "z"))
      ?lemma dcterms:isPartOf <…/DialettoSiciliano/lemma/LemmaBank> ; ontolex:writtenRep ?wr .
      ?dialectEntry ontolex:canonicalForm ?lemma . ?itEntry vartrans:translatableAs ?dialectEntry ;
        ontolex:canonicalForm ?itLemma . ?itLemma dcterms:isPartOf <…/lemma/LemmaBank> ; ontolex:writtenRep ?italian .
    }

A dialect adjective before an Italian-only constraint ("Sicilian words that
express joy") is no dialect-side question: those are the Sicilian translations
of the Italian words that express joy (TRANSLATION's pairs).
"""

from __future__ import annotations

import random
import re

from ..namespaces import LEMMA_BANK
from ..sparql.model import IRI, Triple
from .base import Facts, Frame, frag, sg
from .pattern import Pattern
from .reading import Text, reads
from .vocab import DIALECT, DIALECT_FORMS, DIALECT_WORDS

_DIALECT = "|".join(words for _, words in DIALECT_WORDS)
#: Heads of a list of lemmas a dialect adjective can qualify.
_HEADS = (r"parole|lemmi|lemma|termini|voci|sostantivi|nomi|verbi|aggettivi|avverbi|words?|lemmas|terms|entries|nouns|"
          r"verbs|adjectives|adverbs|vocaboli|vocabulary")
#: "Sicilian nouns", "parole siciliane", "lemmi del siciliano", "the Sicilian Lemma Bank's lemmas".
SIDE = (rf"\b(?P<d>{_DIALECT})\s+(?:(?:common|comuni)\s+)?(?:{_HEADS})\b",
        rf"\b(?:{_HEADS})\s+(?:(?:comuni|dialettali)\s+)?(?:in\s+|del\s+|dello\s+|della\s+|of\s+the\s+)?(?P<d>{_DIALECT})\b",
        rf"\b(?:lemma ?bank|banca dei lemmi|lessico|dizionario|lexicon|dictionary)\s+(?:del\s+|of\s+)?(?P<d>{_DIALECT})\b",
        rf"\b(?P<d>{_DIALECT})\s+(?:lemma ?bank|lexicon|dictionary)\b")
#: "… and their Italian translations", "con l'equivalente italiano": the way back to Italian.
ITALIAN_WAY_BACK = (r"\b(?:italian[oaie]?|italian)\s+(?:translations?|equivalents?|correspond\w*|forms?|words?|lemmas?)\b|"
                    r"\b(?:traduzion[ei]|equivalent[ei]|corrispondent[ei])\s+(?:in\s+)?italian[oaie]?\b|"
                    r"\b(?:in|into)\s+italian[oaie]?\b|\bmean in italian\b")
#: Slot fields set by Italian-only patterns: with one of them, a dialect adjective asks for translations instead.
_ITALIAN_ONLY = ("emotions", "polarity", "threshold", "definition_contains", "relation", "min_senses", "absent")


class DialectSide(Pattern):
    """Lists and counts over a dialect lemma bank, with the Italian translations when asked."""

    label = "DIALECT_SIDE"
    rank = 35
    kind = "content"
    guidance = ("Questions about dialect lemmas start from their bank: ?lemma dcterms:isPartOf <the dialect LemmaBank>; "
                "their Italian translation: ?d ontolex:canonicalForm ?lemma . ?it vartrans:translatableAs ?d ; "
                "ontolex:canonicalForm ?itLemma.")
    example = ("list", None, {"bank": "siciliano", "italian": True})
    fact_queries = {
        f"dialect_lemma_{d}": f"SELECT DISTINCT ?lemma ?wr WHERE {{ ?lemma dcterms:isPartOf <{bank}> ; ontolex:writtenRep ?wr }}"
        for d, (_, _, bank, _, _) in DIALECT.items()
    }
    question_cues = [(rf"\b(?:{_DIALECT})\s+(?:{_HEADS})\b|\b(?:{_HEADS})\s+(?:{_DIALECT})\b", 0.7)]
    slot_fields = {"bank": None, "italian_translation": False}

    @reads(99)
    def read_side(self, text: Text, slots) -> None:
        """A list or count of dialect lemmas (the dialect adjective is masked: it is no translation request)."""
        if slots.word or slots.listed or slots.translation_target:
            return
        for pattern in SIDE:
            m = text.search(pattern)
            if m:
                slots.bank = next(name for name, words in DIALECT_WORDS if re.fullmatch(words, m.group("d")))
                text.mask(*m.span("d"))
                slots.italian_translation = text.has(ITALIAN_WAY_BACK) or text.has(
                    r"\b(?:tradu\w*|translat\w*|equivalent\w*|correspond\w*)\b")
                return

    @reads(121)
    def read_pairs(self, text: Text, slots) -> None:
        """"Sicilian words that express joy": an Italian-only constraint makes it the Italian words' translations."""
        if slots.bank and any(getattr(slots, name) for name in _ITALIAN_ONLY):
            slots.dialects = [slots.bank]
            slots.translation = True
            slots.translation_pairs = True
            slots.bank, slots.italian_translation = None, False

    def scope_steps(self, slots, shape: str) -> list[dict]:
        return [{"bank": slots.bank}] if slots.bank and shape in ("list", "count") else []

    def projection_steps(self, slots) -> list[dict]:
        return [{"italian": True}] if slots.bank and slots.italian_translation else []

    def scope(self, frame: Frame, values: dict) -> None:
        """The focus lemmas are the dialect bank's: its ``dcterms:isPartOf`` replaces the Lemma Bank's."""
        bank_iri = DIALECT[values["bank"]][2]
        frame.confine(bank_iri)
        frame.bank = values["bank"]
        it, en = DIALECT[values["bank"]][0], DIALECT[values["bank"]][1]
        forms = DIALECT_FORMS[values["bank"]]
        frame.fragments.append(frag("scope", [f"del {it}", f"della Lemma Bank {forms['fs']}"],
                                    [f"in {en}", f"of the {en} Lemma Bank"],
                                    f"con dcterms:isPartOf <{bank_iri}>", f"with dcterms:isPartOf <{bank_iri}>",
                                    lead="dialect"))
        frame.slot("bank", values["bank"], it, en)
        frame.tag(self.label, 0.9)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        """The Italian translation of each dialect lemma (required: one row per pair)."""
        d_entry, it_entry, it_lemma, italian = (frame.fresh("dialectEntry"), frame.fresh("itEntry"),
                                                frame.fresh("itLemma"), frame.fresh("italian"))
        frame.where.add(Triple(d_entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(it_entry, IRI.of("vartrans:translatableAs"), d_entry),
                        Triple(it_entry, IRI.of("ontolex:canonicalForm"), it_lemma),
                        Triple(it_lemma, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK)),
                        Triple(it_lemma, IRI.of("ontolex:writtenRep"), italian))
        frame.project(italian)
        frame.fragments.append(frag("pair", [sg("la traduzione italiana"), sg("l'equivalente italiano")],
                                    [sg("the Italian translation"), sg("the Italian equivalent")],
                                    "la voce italiana collegata da vartrans:translatableAs",
                                    "the Italian entry linked by vartrans:translatableAs", lead="dialect"))
        frame.tag(self.label, 0.9)
        frame.tag("TRANSLATION", 0.7)

    def sparql_weight(self, f) -> float:
        return 0.0


PATTERN = DialectSide()
