"""COUNT_ENTITIES: how many lemmas, entries or senses (overall, per class, per value)."""

from __future__ import annotations

import random
import re

from ..namespaces import COMPLIT_SERVICE, LEMMA_BANK
from ..sparql.model import IRI, Call, Filter, Group, Op, Select, Service, SubSelect, Triple, Var
from .base import Facts, Frame, frag
from .pattern import StandalonePattern
from .reading import Text, reads
from .vocab import DIALECT, DIALECT_FORMS, FACET_WORDS, FACETS, LILA, PER_FACET, POS, facet_named

#: Words that ask how many.
COUNT_WORDS = r"quant[ieoa]|how many|numero(?: totale)? di|number of|conta|contare|conteggia\w*|count|totale|total"
COUNT_CUE = rf"\b(?:{COUNT_WORDS})\b"
#: "which emotion has the most words", "qual è la parte del discorso con meno lemmi": the facet value at one end.
TOP_FACET = (rf"\b(?:quale|qual e|quali sono|which|what)\s+(?:[a-z]+\s+|[a-z]+'\s*){{0,3}}?(?P<key>{FACET_WORDS})\b"
             r".*?\b(?P<end>piu|most|maggior numero|highest number|largest number|meno|fewest|least|"
             r"minor numero|lowest number|smallest number)\b")
LEAST = r"meno|fewest|least|minor numero|lowest number|smallest number"
#: Each facet's Italian noun for "which …", with its definite article.
TOP_NOUN_IT = {"pos": ("la ", "parte del discorso"), "emotion": ("l'", "emozione di ELITA"),
               "gender": ("il ", "genere grammaticale"), "polarity": ("la ", "classe di polarità Sentix"),
               "resource": ("la ", "Lemma Bank")}


def _count(var: Var, name: str = "count") -> tuple:
    return (Call("COUNT", (var,), distinct=True), Var(name))


class CountEntities(StandalonePattern):
    """Counts: a ``COUNT(DISTINCT …)`` over a list frame, or one of the catalogue's standalone counts."""

    label = "COUNT_ENTITIES"
    rank = 110
    guidance = ("Counts use COUNT(DISTINCT ?x) (with GROUP BY for per-value counts).")
    example = ("standalone", None, {"kind": "by", "by": "pos"})
    finishes = "count"
    question_cues = [
        (rf"\b({COUNT_WORDS})\b", 0.9),
        (r"\b(distribuzione|distribution|per ciascun\w*|for each|per ogni)\b", 0.6),
    ]

    slot_fields = {"count": False}

    def finish_shape(self, frame: Frame) -> None:
        """Turn a count frame into a count of its lemmas."""
        frame.projection = [_count(frame.lemma)]
        frame.tag(self.label, 0.9)

    def derived_weight(self, labels: dict[str, float], catalogue: dict, features=None) -> float:
        """A query that counts (or computes statistics per group) is a count, weakly next to a sense count."""
        if features is None or self.label in labels:
            return 0.0
        if features.aggregates & {"COUNT"}:
            return 0.9 if not any(catalogue[l].aggregates for l in labels) else 0.4
        if features.aggregates & {"AVG", "SUM", "MIN", "MAX"} and features.group_by:
            return 0.6  # statistics per group (averages, totals)
        return 0.0

    @reads(113)
    def read_count(self, text: Text, slots) -> None:
        """How many."""
        slots.count = text.asks(COUNT_CUE)

    @reads(126)
    def read_top(self, text: Text, slots) -> None:
        """The facet value with the most (or fewest) lemmas: "which emotion has the most words"."""
        m = re.search(TOP_FACET, text.folded)
        if slots.standalone or not m or slots.word or slots.listed or slots.emotions or slots.pos or slots.polarity:
            return
        end = "asc" if re.fullmatch(LEAST, m.group("end")) else "desc"
        slots.standalone = (self.label, {"kind": "by", "by": facet_named(m.group("key")), "top": end})

    @reads(131)
    def read_whole(self, text: Text, slots) -> None:
        """Whole-KB counts: per facet, hypolemmas, CompL-it senses, glossary translations, a lemma bank, a POS."""
        f = text.folded
        if slots.standalone or not (slots.count or slots.senses_count or re.search(
                r"\b(?:distribuzione|distribution|raggruppa|group)\b", f)):
            return
        constraints = slots.affixes or slots.emotions or slots.polarity or slots.threshold is not None or \
            slots.relation or slots.definition_contains or slots.min_senses or slots.gender or slots.word or \
            slots.absent or slots.translation_target or slots.min_forms is not None or slots.min_senses is not None or \
            slots.lengths or slots.listed
        by = re.search(PER_FACET, f)
        if by and not (constraints or slots.pos):
            slots.standalone = (self.label, {"kind": "by", "by": facet_named(by.group("key"))})
            return
        if constraints:
            return
        if re.search(r"\b(?:ipolemm\w*|hypolemmas?|lila:hypolemma)\b", f):
            slots.standalone = (self.label, {"kind": "hypolemmas"})
        elif slots.senses_count and re.search(r"compl-?it", f):
            slots.standalone = (self.label, {"kind": "senses"})
        elif slots.dialects and re.search(r"\b(?:traduzion\w*|translations?|coppie|pairs|collegamenti|links)\b", f):
            slots.standalone = (self.label, {"kind": "translations", "dialect": slots.dialects[0]})
        elif (re.search(r"\blemma ?bank|banca dei lemmi\b", f) and not slots.pos) or \
                ((slots.dialects or slots.bank) and not slots.pos) or \
                re.search(r"\b(?:lemmi|lemmas)\b.*\b(?:in|nella|di) liita\b", f) and not slots.pos:
            bank = slots.dialects[0] if slots.dialects else slots.bank or "italian"
            slots.standalone = (self.label, {"kind": "bank", "bank": bank})
        elif slots.pos in ("noun", "verb", "adjective", "adverb") and not (slots.translation or slots.graph_scope
                                                                             or slots.bank):
            slots.standalone = (self.label, {"kind": "pos", "pos": slots.pos})

    def count_fallback(self, slots) -> tuple[dict, str] | None:
        """Nothing to count by: the lemma bank the question is about (the Italian Lemma Bank by default)."""
        bank = slots.bank or "italian"
        return {"kind": "bank", "bank": bank}, f"nothing to count by: counting the {bank} lemma bank"

    def variants(self, facts: Facts) -> list[dict]:
        out = [{"kind": "bank", "bank": b} for b in ("italian", *DIALECT)]
        out += [{"kind": "by", "by": b} for b in FACETS]
        out += [{"kind": "by", "by": b, "top": end} for b in FACETS for end in ("desc", "asc")]
        out += [{"kind": "pos", "pos": p} for p in ("noun", "verb", "adjective", "adverb")]
        out += [{"kind": "senses"}, {"kind": "hypolemmas"}]
        out += [{"kind": "translations", "dialect": d} for d in DIALECT]
        return out

    def build(self, slots: dict, rng: random.Random):
        kind = slots["kind"]
        lemma = Var("lemma")
        mentions: list[tuple[str, str]] = []
        order = []
        group_by = []
        if kind == "bank":
            if slots["bank"] == "italian":
                bank, it_name, en_name = LEMMA_BANK, "italiana di LiITA", "Italian LiITA"
            else:
                it_name, en_name, bank = DIALECT_FORMS[slots["bank"]]["fs"], DIALECT[slots["bank"]][1], DIALECT[slots["bank"]][2]
            where = Group([Triple(lemma, IRI.of("dcterms:isPartOf"), IRI(bank))])
            proj = [_count(lemma)]
            f = frag("standalone", [f"Quanti lemmi contiene la Lemma Bank {it_name}?", f"Quanti lemmi ci sono nella Lemma Bank {it_name}?"],
                     [f"How many lemmas are in the {en_name} Lemma Bank?", f"How many lemmas does the {en_name} Lemma Bank contain?"],
                     f"Conta le risorse con dcterms:isPartOf <{bank}> (Lemma Bank {it_name}).",
                     f"Count the resources with dcterms:isPartOf <{bank}> ({en_name} Lemma Bank).",
                     ling=(f"Quanti lemmi registra la Lemma Bank {it_name}?",
                           f"How many lemmas does the {en_name} Lemma Bank record?"))
            mentions.append((it_name.split()[0], en_name.split()[0]))
        elif kind == "pos":
            it_pl, en_pl, _ = POS[slots["pos"]]
            it_sg = {"noun": "sostantivo", "verb": "verbo", "adjective": "aggettivo", "adverb": "avverbio"}[slots["pos"]]
            where = Group([Triple(lemma, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK)),
                           Triple(lemma, IRI.of("lila:hasPOS"), IRI(LILA + slots["pos"]))])
            proj = [_count(lemma)]
            # the Lemma Bank's lemmas (no hypolemma): said "lemmas" («Quanti aggettivi …» would be words, README)
            f = frag("standalone", [f"Quanti lemmi di LiITA sono {it_pl}?", f"Quanti lemmi sono {it_pl}?"],
                     [f"How many LiITA lemmas are {en_pl}?", f"How many lemmas are {en_pl}?"],
                     f"Conta i lemmi della Lemma Bank con lila:hasPOS lila:{slots['pos']} ({it_pl}).",
                     f"Count the Lemma Bank's lemmas with lila:hasPOS lila:{slots['pos']}.",
                     ling=(f"Quanti lemmi di LiITA hanno come parte del discorso {it_sg}?",
                           f"How many LiITA lemmas have the part of speech {en_pl[:-1]}?"))
            mentions.append((it_pl, en_pl))
        elif kind == "by":
            by = slots["by"]
            facet = FACETS[by]
            key = Var(by)
            if facet.on_entry:
                lemma = Var("entry")
                where = Group(facet.value_triples(lemma, key))
            elif by == "resource":  # every bank's lemmas, grouped by the bank
                where = Group([Triple(lemma, IRI.of("rdf:type"), IRI.of("lila:Lemma")),
                               *facet.value_triples(lemma, key)])
            else:  # the Italian lemmas (the dialect banks' are lila:Lemma too)
                where = Group([Triple(lemma, IRI.of("dcterms:isPartOf"), IRI(LEMMA_BANK)),
                               *facet.value_triples(lemma, key)])
            it, en = facet.it, facet.en
            proj = [key, _count(lemma)]
            group_by = [key]
            order = [("DESC", Var("count")), key]
            it_bare = it.split(" ", 1)[1]
            top = slots.get("top")
            if top:
                if facet.on_entry:  # "the emotion with the most lemmas": the entries' lemmas are counted
                    where.add(Triple(lemma, IRI.of("ontolex:canonicalForm"), Var("lemma")))
                    proj = [key, _count(Var("lemma"))]
                return self._top(by, key, where, proj, top)
            f = frag("standalone", [f"Quante voci ci sono per {it}?", f"Qual è la distribuzione per {it_bare}?"],
                     [f"How many entries are there for each {en}?", f"What is the distribution by {en}?"],
                     f"Raggruppa per {it_bare} ({facet.prop}) e conta le risorse distinte.",
                     f"Group by {en} ({facet.prop}) and count the distinct resources.",
                     ling=(f"Come si distribuiscono i lemmi per {it_bare}?", f"How are the lemmas distributed by {en}?"))
            mentions.append((it_bare.split()[0], en.split()[-1]))
        elif kind == "senses":
            sense = Var("sense")
            where = Group([Service(IRI(COMPLIT_SERVICE), Group([Triple(sense, IRI.of("rdf:type"), IRI.of("ontolex:LexicalSense"))]))])
            proj = [_count(sense)]
            f = frag("standalone", ["Quanti sensi contiene CompL-it?", "Quanti sensi lessicali ha CompL-it?"],
                     ["How many senses does CompL-it contain?", "How many lexical senses are in CompL-it?"],
                     "Conta le ontolex:LexicalSense nel servizio CompL-it.", "Count the ontolex:LexicalSense in the CompL-it service.",
                     ling=("Quante accezioni registra CompL-it?", "How many word senses does CompL-it record?"))
            mentions.append(("CompL-it", "CompL-it"))
        elif kind == "hypolemmas":
            where = Group([Triple(lemma, IRI.of("rdf:type"), IRI.of("lila:Hypolemma"))])
            proj = [_count(lemma)]
            f = frag("standalone", ["Quanti ipolemmi ci sono in LiITA?", "Quanti ipolemmi contiene LiITA?"],
                     ["How many hypolemmas are there in LiITA?", "How many hypolemmas does LiITA contain?"],
                     "Conta le istanze di lila:Hypolemma.", "Count the instances of lila:Hypolemma.",
                     ling=("Quanti ipolemmi registra la Lemma Bank di LiITA?",
                           "How many hypolemmas does the LiITA Lemma Bank record?"))
            mentions.append(("ipolemmi", "hypolemmas"))
        else:
            it_name, en_name, bank = DIALECT[slots["dialect"]][0], DIALECT[slots["dialect"]][1], DIALECT[slots["dialect"]][2]
            it_entries = DIALECT_FORMS[slots["dialect"]]["fp"]
            it_entry, d_entry, d_lemma = Var("itEntry"), Var("dEntry"), Var("dLemma")
            where = Group([Triple(it_entry, IRI.of("vartrans:translatableAs"), d_entry),
                           Triple(d_entry, IRI.of("ontolex:canonicalForm"), d_lemma),
                           Triple(d_lemma, IRI.of("dcterms:isPartOf"), IRI(bank))])
            lemma = d_entry
            proj = [(Call("COUNT", (), distinct=False), Var("count"))]
            f = frag("standalone", [f"Quante traduzioni in {it_name} ci sono nel glossario?", f"Quante coppie italiano-{it_name} contiene LiITA?"],
                     [f"How many {en_name} translations are in the glossary?", f"How many Italian-{en_name} pairs does LiITA contain?"],
                     f"Conta i collegamenti vartrans:translatableAs verso voci {it_entries}.",
                     f"Count the vartrans:translatableAs links to {en_name} entries.",
                     ling=(f"Quante corrispondenze italiano-{it_name} registra il glossario?",
                           f"How many Italian-{en_name} correspondences does the glossary record?"))
            mentions.append((it_name, en_name))
        query = Select(proj, where, group_by=group_by, order_by=order)
        return query, [f], {self.label: 0.9}, mentions

    def _top(self, by: str, key: Var, where: Group, proj: list, top: str):
        """The grouped count kept at its most (``desc``) or least (``asc``) frequent value, ties included::

            SELECT ?pos ?count WHERE { { SELECT ?pos (COUNT(…) AS ?count) … GROUP BY ?pos }
              { SELECT (MAX(?count) AS ?extreme) WHERE { { the same grouped count } } }
              FILTER(?count = ?extreme) } ORDER BY ?pos
        """
        facet = FACETS[by]
        count, extreme = Var("count"), Var("extreme")
        grouped = Select(proj, where, group_by=[key])
        best = Select([(Call("MAX" if top == "desc" else "MIN", (count,)), extreme)], Group([SubSelect(grouped)]))
        query = Select([key, count], Group([SubSelect(grouped), SubSelect(best), Filter(Op("=", (count, extreme)))]),
                       order_by=[key])
        the_it, noun_it = TOP_NOUN_IT[by]
        more_it, more_en = ("più", "the most") if top == "desc" else ("meno", "the fewest")
        it_q = [f"Quale {noun_it} ha {more_it} lemmi?", f"Qual è {the_it}{noun_it} con {more_it} lemmi?"]
        en_q = [f"Which {facet.en} has {more_en} lemmas?", f"What is the {facet.en} with {more_en} lemmas?"]
        keep_it, keep_en = ("il valore più frequente", "the most frequent value") if top == "desc" else \
            ("il valore meno frequente", "the least frequent value")
        f = frag("standalone", it_q, en_q,
                 f"Raggruppa per {noun_it} ({facet.prop}), conta le risorse distinte e tieni {keep_it}.",
                 f"Group by {facet.en} ({facet.prop}), count the distinct resources and keep {keep_en}.",
                 ling=(f"A quale {noun_it} è associato il numero {'maggiore' if top == 'desc' else 'minore'} di lemmi?",
                       f"Which {facet.en} accounts for {'the largest' if top == 'desc' else 'the smallest'} "
                       "number of lemmas?"))
        return query, [f], {self.label: 0.9, "RANKING": 0.6}, [(noun_it.split()[0], facet.en.split()[-1])]


PATTERN = CountEntities()
