"""HOMOGRAPH: written forms shared by several lemmas, and lemmas written in several ways.

"Find written forms that correspond to multiple lemmas with different parts of
speech", "Quali forme sono sia un sostantivo sia un verbo?", "Which lemmas have
more than one written form?" — groups of the Italian Lemma Bank, kept by a
``HAVING`` on their size::

    SELECT ?wr (COUNT(DISTINCT ?lemma) AS ?lemmas) WHERE {
      ?lemma dcterms:isPartOf <…/lemma/LemmaBank> ; ontolex:writtenRep ?wr ; lila:hasPOS ?pos .
    } GROUP BY ?wr HAVING (COUNT(DISTINCT ?pos) > 1)

Kinds: ``shared`` (one written form, several lemmas), ``pos`` (one written
form, several parts of speech), ``pair`` (one written form, a lemma of each of
two parts of speech), ``variants`` (one lemma, several written forms).
"""

from __future__ import annotations

import random
import re

from ..folding import fold_same_length
from ..namespaces import LEMMA_BANK
from ..sparql.model import IRI, LIST_SEPARATOR, Call, Group, Lit, Op, Select, SubSelect, Triple, Var
from .base import Facts, frag
from .pattern import StandalonePattern
from .reading import Text, reads
from .vocab import LILA, POS, POS_WORDS, local_name

#: Homographs: one written form, several lemmas.
SHARED = (r"\b(?:omograf\w*|homographs?|stess[ao] (?:forma|grafia)|same (?:spelling|written form)|"
          r"spelled the same|written the same|(?:scritt[ie]|si scrivono) (?:allo stesso modo|uguali)|"
          r"(?:forme|forms?|written forms?)\s+(?:that\s+|che\s+)?(?:correspond\w*|belong\w*|shared|condivis\w*|"
          r"corrispond\w*|appartengono)\s+(?:to\s+|a\s+)?(?:more than one|multiple|several|piu|diversi|vari)\b|"
          r"(?:shared by|condivis[aeio] da|correspond\w* to|corrispond\w* a|belong\w* to|have|has|hanno|with|con)\s+"
          r"(?:more than one|multiple|several|piu di un|piu|diversi|vari|molteplici)\s+(?:different\s+|distinct\s+)?"
          r"(?:lemm[ai]s?)\b)")
#: Variants: one lemma, several written forms.
VARIANTS = (r"\b(?:more than one|multiple|several|piu di una|piu|diverse|varie|molteplici)\s+(?:different\s+|distinct\s+)?"
            r"(?:written (?:forms?|representations?)|[\"'«]?(?:ontolex:)?writtenreps?[\"'»]?|spellings?|grafi[ae]|forme scritte|"
            r"forma scritta|"
            r"orthographic variants|varianti (?:grafiche|ortografiche))\b|\b(?:spelling|orthographic) variants\b|"
            r"\bvarianti (?:grafiche|ortografiche)\b|"
            r"\b(?:si scrivono|scritt[ie]|spelled|written)\s+in\s+(?:piu|diversi|vari|several|multiple|different|"
            r"more than one)\s+(?:modi|maniere|ways?)\b")
#: "different parts of speech" / "parti del discorso diverse".
DIFFERENT_POS = (r"\b(?:different|distinct|diverse|distinte|more than one|multiple|piu)\s+(?:parts? of speech|pos|"
                 r"parti del discorso|grammatical categor\w*|categorie grammaticali)\b|"
                 r"\b(?:parts? of speech|parti del discorso)\s+(?:different|diverse)\b|\bpos ambiguity\b|"
                 r"\bambiguita di parte del discorso\b|\bpart-of-speech ambiguity\b")


class Homograph(StandalonePattern):
    """Groups of the Lemma Bank with more than one lemma per written form, or written form per lemma."""

    label = "HOMOGRAPH"
    rank = 127
    guidance = ("Homographs: GROUP BY ?wr HAVING (COUNT(DISTINCT ?lemma) > 1) over the Lemma Bank's written forms; "
                "spelling variants: GROUP BY ?lemma HAVING (COUNT(DISTINCT ?wr) > 1).")
    example = ("standalone", None, {"kind": "pos"})
    question_cues = [(SHARED, 0.8), (VARIANTS, 0.8)]
    fact_queries = {
        # the base facts give each lemma by its own written form only (slot words are words people write): whether
        # some lemma has another written rep (an abbreviation, a variant spelling) is asked here, once
        "written_variant": "SELECT ?lemma ?wr WHERE { ?lemma dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> "
                           "; rdfs:label ?label ; ontolex:writtenRep ?wr . FILTER(STR(?wr) != STR(?label)) } LIMIT 1",
    }

    @reads(128)
    def read_whole(self, text: Text, slots) -> None:
        """Homographs, homographs across parts of speech, a form of two named parts of speech, spelling variants."""
        if slots.standalone or slots.listed or (slots.word and not re.search(r"writtenrep", slots.word.lower())):
            return
        f = fold = text.folded
        both = re.search(r"\b(?:both|sia)\b", fold)
        named_pos = [name for name, words in POS_WORDS if re.search(rf"\b(?:{words})\b", slots.question.lower())]
        if re.search(VARIANTS, fold_same_length(slots.question)):  # quotes kept: "more than one 'writtenRep'"
            slots.standalone = (self.label, {"kind": "variants"})
        elif (re.search(SHARED, f) or both) and len(named_pos) >= 2 and not slots.emotions:
            slots.standalone = (self.label, {"kind": "pair", "pos": named_pos[:2]})
        elif re.search(SHARED, f):
            slots.standalone = (self.label, {"kind": "pos" if re.search(DIFFERENT_POS, f) else "shared"})
        elif re.search(DIFFERENT_POS, f) and re.search(r"\b(?:forme|forms?|omograf\w*|homographs?)\b", f):
            slots.standalone = (self.label, {"kind": "pos"})  # "forms that belong to lemmas of different POS"
        if slots.standalone and slots.standalone[0] == self.label:
            slots.pos, slots.word = None, None
            if slots.count:  # "how many written forms are shared by several lemmas?"
                slots.standalone = (self.label, {**slots.standalone[1], "count": True})

    def variants(self, facts: Facts) -> list[dict]:
        """The kinds the KB has an answer for, by its Lemma Bank facts (a sample may have no homograph)."""
        lemmas_of: dict[str, set[str]] = {}
        pos_of: dict[str, set[str]] = {}
        for lemma, rows in facts.by_lemma("lemma").items():
            for wr, pos, *_ in rows:
                lemmas_of.setdefault(wr, set()).add(lemma)
                pos_of.setdefault(wr, set()).add(local_name(pos))
        out = []
        if any(len(v) > 1 for v in lemmas_of.values()):
            out.append({"kind": "shared"})
        if any(len(v) > 1 for v in pos_of.values()):
            out.append({"kind": "pos"})
        if facts.rows.get("written_variant"):
            out.append({"kind": "variants"})
        for pair in (("noun", "verb"), ("noun", "adjective"), ("adjective", "adverb")):
            if any(set(pair) <= v for v in pos_of.values()):
                out.append({"kind": "pair", "pos": list(pair)})
        return out + [{**v, "count": True} for v in out]

    def build(self, slots: dict, rng: random.Random):
        """The list of one kind, or (``count``) how many there are: a whole-KB list is thousands of rows on
        LiITA, its count one number."""
        query, fragments, tags, mentions = self._list(slots)
        if not slots.get("count"):
            return query, fragments, tags, mentions
        key = query.projection[0]  # the form or the lemma the list is of; its other columns are not counted
        inner = Select([key], query.where, distinct=query.distinct, group_by=query.group_by, having=query.having)
        counted = Select([(Call("COUNT", (key,), distinct=True), Var("count"))], Group([SubSelect(inner)]))
        for f in fragments:
            f.text = {lang: {register: [_as_count(lang, register, t) for t in texts]
                             if register in ("plain", "ling", "tech") else texts
                             for register, texts in by_register.items()}
                      for lang, by_register in f.text.items()}
        return counted, fragments, {**tags, "COUNT_ENTITIES": 0.9}, mentions

    def _list(self, slots: dict):
        kind = slots["kind"]
        lemma, wr, pos = Var("lemma"), Var("wr"), Var("pos")
        in_bank = Triple(lemma, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK))
        if kind == "variants":
            where = Group([in_bank, Triple(lemma, IRI.of("ontolex:writtenRep"), wr)])
            forms = Call("GROUP_CONCAT", (Call("STR", (wr,)),), distinct=True, separator=LIST_SEPARATOR)
            query = Select([lemma, (forms, Var("forms"))], where, group_by=[lemma],
                           having=[Op(">", (Call("COUNT", (wr,), distinct=True), Lit(1)))], order_by=[lemma])
            f = frag("standalone", ["Quali lemmi hanno più di una forma scritta?", "Quali lemmi si scrivono in più modi?"],
                     ["Which lemmas have more than one written form?", "Which lemmas can be spelled in several ways?"],
                     "Trova i lemmi della Lemma Bank con più di un ontolex:writtenRep (GROUP BY, HAVING).",
                     "Find the Lemma Bank's lemmas with more than one ontolex:writtenRep (GROUP BY, HAVING).",
                     ling=("Quali lemmi presentano varianti grafiche?", "Which lemmas have spelling variants?"))
            return query, [f], {self.label: 0.9, "COUNT_ENTITIES": 0.5}, [("lemmi", "lemmas")]
        if kind == "pair":
            first, second = slots["pos"]
            other = Var("other")
            where = Group([Triple(lemma, IRI.of("lila:hasPOS"), IRI(LILA + first)), in_bank,
                           Triple(lemma, IRI.of("ontolex:writtenRep"), wr),
                           Triple(other, IRI.of("ontolex:writtenRep"), wr),
                           Triple(other, IRI.of("lila:hasPOS"), IRI(LILA + second)),
                           Triple(other, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK))])
            query = Select([wr], where, distinct=True, order_by=[wr])
            (it1, en1, _), (it2, en2, _) = POS[first], POS[second]
            sg_it = {"sostantivi": "un sostantivo", "verbi": "un verbo", "aggettivi": "un aggettivo", "avverbi": "un avverbio"}
            sg_en = {"nouns": "a noun", "verbs": "a verb", "adjectives": "an adjective", "adverbs": "an adverb"}
            a_it, b_it = sg_it.get(it1, it1), sg_it.get(it2, it2)
            a_en, b_en = sg_en.get(en1, en1), sg_en.get(en2, en2)
            f = frag("standalone", [f"Quali forme scritte sono sia {a_it} sia {b_it}?",
                                    f"Quali parole si scrivono allo stesso modo come {a_it} e come {b_it}?"],
                     [f"Which written forms are both {a_en} and {b_en}?",
                      f"Which words are spelled the same as {a_en} and as {b_en}?"],
                     f"Trova gli ontolex:writtenRep condivisi da un lemma con lila:hasPOS lila:{first} e uno con "
                     f"lila:hasPOS lila:{second}.",
                     f"Find the ontolex:writtenRep shared by a lemma with lila:hasPOS lila:{first} and one with "
                     f"lila:hasPOS lila:{second}.",
                     ling=(f"Quali omografi hanno un lemma {a_it[3:] if a_it.startswith('un ') else a_it} e uno "
                           f"{b_it[3:] if b_it.startswith('un ') else b_it}?",
                           f"Which homographs have {a_en} lemma and {b_en} lemma?"))
            return query, [f], {self.label: 0.9, "POS_FILTER": 0.7}, [(a_it[3:], a_en.split()[-1]), (b_it[3:], b_en.split()[-1])]
        where = Group([in_bank, Triple(lemma, IRI.of("ontolex:writtenRep"), wr)])
        lemmas = Call("COUNT", (lemma,), distinct=True)
        if kind == "pos":
            where.add(Triple(lemma, IRI.of("lila:hasPOS"), pos))
            tags = Call("GROUP_CONCAT", (Call("STR", (pos,)),), distinct=True, separator=LIST_SEPARATOR)
            query = Select([wr, (lemmas, Var("lemmas")), (tags, Var("partsOfSpeech"))], where, group_by=[wr],
                           having=[Op(">", (Call("COUNT", (pos,), distinct=True), Lit(1)))], order_by=[wr])
            f = frag("standalone", ["Quali forme scritte corrispondono a lemmi di parti del discorso diverse?",
                                    "Quali forme scritte hanno lemmi di parti del discorso diverse?"],
                     ["Which written forms belong to lemmas with different parts of speech?",
                      "Which written forms have lemmas of different parts of speech?"],
                     "Raggruppa gli ontolex:writtenRep della Lemma Bank e tieni quelli con più di un lila:hasPOS.",
                     "Group the Lemma Bank's ontolex:writtenRep and keep those with more than one lila:hasPOS.",
                     ling=("Quali forme omografe creano ambiguità di parte del discorso?",
                           "Which homograph forms create part-of-speech ambiguity?"))
            return query, [f], {self.label: 0.9, "POS_FILTER": 0.6, "COUNT_ENTITIES": 0.5}, [("forme", "forms")]
        query = Select([wr, (lemmas, Var("lemmas"))], where, group_by=[wr],
                       having=[Op(">", (lemmas, Lit(1)))], order_by=[wr])
        f = frag("standalone", ["Quali forme scritte corrispondono a più di un lemma?",
                                "Quali forme scritte sono condivise da più lemmi?"],
                 ["Which written forms belong to more than one lemma?", "Which written forms are shared by several lemmas?"],
                 "Raggruppa gli ontolex:writtenRep della Lemma Bank e tieni quelli di più di un lemma (HAVING).",
                 "Group the Lemma Bank's ontolex:writtenRep and keep those of more than one lemma (HAVING).",
                 ling=("Quali omografi registra la Lemma Bank?", "Which homographs does the Lemma Bank record?"))
        return query, [f], {self.label: 0.9, "COUNT_ENTITIES": 0.5}, [("forme", "forms")]

    def sparql_weight(self, f) -> float:
        return 0.0


#: "Which …" made "how many …", per language (the list's own question words).
_COUNT_WORDS = {"it": (("Quali forme", "Quante forme"), ("Quali lemmi", "Quanti lemmi"), ("Quali parole", "Quante parole"),
                       ("Quali omografi", "Quanti omografi")),
                "en": (("Which written forms", "How many written forms"), ("Which homograph", "How many homograph"),
                       ("Which lemmas", "How many lemmas"), ("Which words", "How many words"))}


def _as_count(lang: str, register: str, text: str) -> str:
    """A list question asked as a count ("Quali lemmi …?" → "Quanti lemmi …?"); the technical text says "count"."""
    if register == "tech":
        return ("Conta i risultati: " if lang == "it" else "Count the results: ") + text[0].lower() + text[1:]
    for which, how_many in _COUNT_WORDS[lang]:
        if text.startswith(which):
            return how_many + text[len(which):]
    return text


PATTERN = Homograph()
