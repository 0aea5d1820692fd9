"""DIALECT_SIDE: questions that start from a dialect lemma bank ("Sicilian nouns starting with «z»").

The lemmas listed or counted are the Sicilian or Parmigiano bank's, not the
Italian Lemma Bank's: the frame's focus lemma is scoped to that bank, the
constraints that hold on any lemma (part of speech, gender, written form) test
the dialect lemma, and "with their Italian translation" follows the glossary
link back (always Italian entry → dialect entry), one row per pair::

    SELECT DISTINCT ?wr ?italian WHERE {
      ?lemma lila:hasPOS lila:noun . FILTER(STRSTARTS(STR(?wr), "z"))
      ?dialectEntry ontolex:canonicalForm ?lemma . ?itEntry vartrans:translatableAs ?dialectEntry ;
        ontolex:canonicalForm ?itLemma . ?itLemma dcterms:isPartOf <…/lemma/LemmaBank> ; ontolex:writtenRep ?italian .
      ?lemma dcterms:isPartOf <…/DialettoSiciliano/lemma/LemmaBank> ; ontolex:writtenRep ?wr .
    }

Like the other analytic patterns it writes its whole query around a plan's
constraints (:meth:`DialectSide.wrap`). A dialect adjective before an
Italian-only constraint ("Sicilian words that express joy") is no dialect-side
question: those are the Sicilian translations of the Italian words that express
joy (TRANSLATION's pairs).
"""

from __future__ import annotations

import random
import re

from ..namespaces import LEMMA_BANK
from ..sparql.model import IRI, Triple
from .analytics import phrases, restricted
from .base import Facts, Frame, frag
from .pattern import StandalonePattern
from .phrasing import gender
from .reading import Text, reads
from .vocab import DIALECT, DIALECT_FORMS, DIALECT_WORDS, POS, local_name

_DIALECT = "|".join(words for _, words in DIALECT_WORDS)
#: Heads of a list of lemmas a dialect adjective can qualify.
_HEADS = (r"parole|lemmi|lemma|termini|voci|sostantivi|nomi|verbi|aggettivi|avverbi|words?|lemmas|terms|entries|nouns|"
          r"verbs|adjectives|adverbs|vocaboli|vocabulary")
#: "Sicilian nouns", "parole siciliane", "lemmi del siciliano", "the Sicilian Lemma Bank's lemmas".
SIDE = (rf"\b(?P<d>{_DIALECT})\s+(?:(?:common|comuni)\s+)?(?:{_HEADS})\b",
        rf"\b(?:{_HEADS})\s+(?:(?:comuni|dialettali)\s+)?(?:in\s+|del\s+|dello\s+|della\s+|of\s+the\s+)?(?P<d>{_DIALECT})\b",
        rf"\b(?:lemma ?bank|banca dei lemmi|lessico|dizionario|lexicon|dictionary)\s+(?:del\s+|of\s+)?(?P<d>{_DIALECT})\b",
        rf"\b(?P<d>{_DIALECT})\s+(?:lemma ?bank|lexicon|dictionary)\b")
#: The translation words that ask for the way back to Italian.
WAY_BACK = r"\b(?:tradu\w*|translat\w*|equivalent\w*|correspond\w*|corrispondent\w*|italian\w*)\b"
#: Slot fields set by Italian-only patterns: with one of them, a dialect adjective asks for translations instead.
_ITALIAN_ONLY = ("emotions", "polarity", "threshold", "definition_contains", "relation", "min_senses", "absent")
#: The patterns whose steps hold on a dialect lemma too.
ON_ANY_LEMMA = ("POS_FILTER", "MORPHO_REGEX")
#: How often a generated list shows the Italian translations.
WITH_ITALIAN = 0.5


class DialectSide(StandalonePattern):
    """Lists and counts over a dialect lemma bank, with the Italian translations when asked."""

    label = "DIALECT_SIDE"
    rank = 35
    guidance = ("Questions about dialect lemmas start from their bank: ?lemma dcterms:isPartOf <the dialect LemmaBank>; "
                "their Italian translation: ?d ontolex:canonicalForm ?lemma . ?it vartrans:translatableAs ?d ; "
                "ontolex:canonicalForm ?itLemma.")
    example = ("standalone", None, {"bank": "siciliano", "italian": True, "count": False,
                                    "steps": [("POS_FILTER", {"pos": "noun"})]})
    fact_queries = {
        f"dialect_lemma_{d}": f"SELECT DISTINCT ?lemma ?wr ?pos WHERE {{ ?lemma dcterms:isPartOf <{bank}> ; "
                              "ontolex:writtenRep ?wr . OPTIONAL { ?lemma lila:hasPOS ?pos } }"
        for d, (_, _, bank, _, _) in DIALECT.items()
    }
    question_cues = [(rf"\b(?:{_DIALECT})\s+(?:{_HEADS})\b|\b(?:{_HEADS})\s+(?:{_DIALECT})\b", 0.7)]
    slot_fields = {"bank": None, "italian_translation": False}

    # -- translator ---------------------------------------------------------------------------
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
                slots.italian_translation = text.has(WAY_BACK)
                return

    @reads(121)
    def read_pairs(self, text: Text, slots) -> None:
        """"Sicilian words that express joy": an Italian-only constraint makes it the Italian words' translations."""
        if slots.bank and any(getattr(slots, name) for name in _ITALIAN_ONLY):
            slots.dialects = [slots.bank]
            slots.translation = True
            slots.translation_pairs = True
            slots.bank, slots.italian_translation = None, False

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        """The plan's constraints on a dialect bank's lemmas (only those that hold on any lemma)."""
        if not slots.bank or shape not in ("list", "count") or slots.standalone:
            return None  # (a whole-question reading, such as the bank's count, was read already)
        kept = [(label, dict(values)) for label, values in steps if label in ON_ANY_LEMMA]
        return {"bank": slots.bank, "steps": kept, "count": shape == "count",
                "italian": bool(slots.italian_translation and shape == "list")}

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """Dialect lemmas of a part of speech, with a first letter, or both; listed (with their Italian translation
        or not) or counted (sampled, reproducibly)."""
        rng = random.Random(self.label)
        out: list[dict] = []
        for dialect in DIALECT:
            rows = facts.rows.get(f"dialect_lemma_{dialect}", [])
            pos_of = {local_name(r[2]) for r in rows if len(r) > 2 and r[2]} & set(POS)
            letters = sorted({r[1][0].lower() for r in rows if r[1][:1].isalpha()})
            for _ in range(min(len(rows), 12)):
                steps = []
                if pos_of and rng.random() < 0.7:
                    steps.append(("POS_FILTER", {"pos": rng.choice(sorted(pos_of))}))
                if letters and (not steps or rng.random() < 0.5):
                    steps.append(("MORPHO_REGEX", {"kind": "prefix", "affix": rng.choice(letters), "regex": False}))
                count = rng.random() < 0.25
                out.append({"bank": dialect, "steps": steps, "count": count,
                            "italian": not count and rng.random() < WITH_ITALIAN})
        return out

    def build(self, slots: dict, rng: random.Random):
        from .compose import finish_query, start_frame  # compose reads the catalogue: import it late
        bank, count = slots["bank"], bool(slots.get("count"))
        frame = start_frame("count" if count else "list")
        self.scope(frame, bank)
        from .catalogue import CATALOGUE
        for label, values in slots.get("steps") or []:
            CATALOGUE[label].build(frame, dict(values), rng)
        if slots.get("italian"):
            self._italian(frame)
        query = finish_query(frame)
        tags = dict(frame.labels)
        tags[self.label] = 0.9
        return query, [self._question(frame, bank, count, bool(slots.get("italian")), rng)], tags, list(frame.mentions)

    @staticmethod
    def scope(frame: Frame, bank: str) -> None:
        """The focus lemmas are the dialect bank's: its ``dcterms:isPartOf`` replaces the Lemma Bank's."""
        bank_iri = DIALECT[bank][2]
        frame.confine(bank_iri)
        frame.bank = bank
        frame.slot("bank", bank, DIALECT_FORMS[bank]["ms"][:-1], DIALECT[bank][1])  # «sicilian-i/-e/-a/-o»

    @staticmethod
    def _italian(frame: Frame) -> None:
        """The Italian translation of each dialect lemma (required: one row per pair)."""
        d_entry, it_entry, it_lemma, italian = (frame.fresh("dialectEntry"), frame.fresh("itEntry"),
                                                frame.fresh("itLemma"), frame.fresh("italian"))
        frame.where.add(Triple(d_entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(it_entry, IRI.of("vartrans:translatableAs"), d_entry),
                        Triple(it_entry, IRI.of("ontolex:canonicalForm"), it_lemma),
                        Triple(it_lemma, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK)),
                        Triple(it_lemma, IRI.of("ontolex:writtenRep"), italian))
        frame.project(italian)
        frame.tag("TRANSLATION", 0.7)

    @staticmethod
    def _question(frame: Frame, bank: str, count: bool, italian: bool, rng: random.Random):
        en_name = DIALECT[bank][1]
        forms = DIALECT_FORMS[bank]
        head_it, vps_it = phrases(frame, "it", "plain", rng)
        head_en, vps_en = phrases(frame, "en", "plain", rng)
        fem = gender(head_it) == "f"  # «parole siciliane», «interiezioni siciliane», «sostantivi siciliani»
        art, q = ("le", "Quante") if fem else ("i", "Quanti")
        set_it = restricted(f"{head_it} {forms['fp'] if fem else forms['mp']}", vps_it, "it")
        noun_en = f"{en_name} {head_en}"
        # "Which Sicilian nouns start with «z»?" (the constraint is the verb) / "Which Sicilian nouns are there?"
        which_en = f"Which {noun_en} {vps_en}" if vps_en else f"Which {noun_en} are there"
        bank_it = f"della Lemma Bank {forms['fs']}"
        _, tech_it = phrases(frame, "it", "tech", rng)
        _, tech_en = phrases(frame, "en", "tech", rng)
        bank_iri = DIALECT[bank][2]
        lemmas_it = f"i lemmi con dcterms:isPartOf <{bank_iri}>" + (f" {tech_it}" if tech_it else "")
        lemmas_en = f"the lemmas with dcterms:isPartOf <{bank_iri}>" + (f" {tech_en}" if tech_en else "")
        if count:
            return frag("standalone", [f"{q} sono {art} {set_it}?", f"{q} {set_it} registra LiITA?"],
                        [f"How many {restricted(noun_en, vps_en, 'en')} are there?",
                         f"How many {restricted(noun_en, vps_en, 'en')} does LiITA record?"],
                        f"Conta {lemmas_it}.", f"Count {lemmas_en}.",
                        ling=(f"{q} {head_it} {bank_it} {vps_it or 'registra LiITA'}?",
                              f"How many {head_en} of the {en_name} Lemma Bank {vps_en or 'does LiITA record'}?"),
                        lead="dialect")
        if italian:
            return frag("standalone", [f"Quali sono {art} {set_it} e le loro traduzioni in italiano?",
                                       f"Elenca {art} {set_it} con l'equivalente italiano di ciascun{'a' if fem else 'o'}."],
                        [f"{which_en}, and what are their Italian translations?",
                         f"List the {restricted(noun_en, vps_en, 'en')} with the Italian equivalent of each."],
                        f"Restituisci {lemmas_it} e la voce italiana collegata (vartrans:translatableAs verso di loro), "
                        "una riga per coppia.",
                        f"Return {lemmas_en} and the Italian entry linked to them (vartrans:translatableAs), "
                        "one row per pair.",
                        ling=(f"Quali {head_it} {bank_it} {vps_it or 'registra LiITA'}, e con quale lemma italiano "
                              "sono tradott{}?".format("e" if fem else "i"),
                              f"Which {head_en} of the {en_name} Lemma Bank {vps_en or 'does LiITA record'}, and which "
                              "Italian lemma translates each?"), lead="dialect")
        return frag("standalone", [f"Quali sono {art} {set_it}?", f"Elenca {art} {set_it}."],
                    [f"{which_en}?", f"List the {restricted(noun_en, vps_en, 'en')}."],
                    f"Restituisci {lemmas_it}.", f"Return {lemmas_en}.",
                    ling=(f"Quali {head_it} {bank_it} {vps_it or 'registra LiITA'}?",
                          f"Which {head_en} of the {en_name} Lemma Bank {vps_en or 'does LiITA record'}?"),
                    lead="dialect")

    def sparql_weight(self, f) -> float:
        """A query whose lemmas are a dialect bank's, without going through the glossary from an Italian lemma."""
        banks = {DIALECT[d][2] for d in DIALECT}
        if any(p.endswith("isPartOf") and o.strip("<>") in banks and s == "?lemma" for s, p, o in f.triple_list):
            return 0.9
        return 0.0


PATTERN = DialectSide()
