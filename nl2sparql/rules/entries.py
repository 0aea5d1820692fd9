"""The multi-entry rule (SCHEMA.md rule 2) and what it needs to know about lemmas and entries.

Each resource has its own entry for a lemma (ELITA, Sentix, each dialect
glossary, CompL-it, the inflected forms). Which property marks which
resource's entry is pattern knowledge: :func:`entry_reuse` takes that table,
and the catalogue (:mod:`nl2sparql.patterns.rules`) builds the rule from what
its patterns declare.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..namespaces import (HYPOLEMMA_BASE, LEMMA_BANK, LEMMA_BASE, PARMIGIANO_LEMMA_BANK, PARMIGIANO_LEMMA_BASE,
                          PREFIXES, SICILIANO_LEMMA_BANK, SICILIANO_LEMMA_BASE)
from .base import Breach, Rule
from .query import Parsed, Term

ONTO = PREFIXES["ontolex"]
TRANSLATABLE = PREFIXES["vartrans"] + "translatableAs"
#: Lemma bank → which side of a translation its lemmas are on.
BANK_SIDE = {SICILIANO_LEMMA_BANK: "dialect", PARMIGIANO_LEMMA_BANK: "dialect", LEMMA_BANK: "italian"}
_LEMMA_BASES = ((SICILIANO_LEMMA_BASE, SICILIANO_LEMMA_BANK), (PARMIGIANO_LEMMA_BASE, PARMIGIANO_LEMMA_BANK),
                (LEMMA_BASE, LEMMA_BANK), (HYPOLEMMA_BASE, LEMMA_BANK))
_TAG_BANK = {"scn": SICILIANO_LEMMA_BANK, "roa": PARMIGIANO_LEMMA_BANK, "it": LEMMA_BANK}


def bank_of_entry(parsed: Parsed, entry: Term) -> str | None:
    """The lemma bank of the lemma an entry (``?e ontolex:canonicalForm ?lemma``) belongs to, if the query says."""
    for t in parsed.triples:
        if t.s == entry or (t.s.kind == entry.kind and t.s.value == entry.value):
            if t.predicate == ONTO + "canonicalForm":
                return bank_of_lemma(parsed, t.o)
    return None


def bank_of_lemma(parsed: Parsed, lemma: Term) -> str | None:
    """The lemma bank of a lemma: from its IRI, its ``dcterms:isPartOf`` or the language tag of its written form."""
    if lemma.kind == "iri":
        for base, bank in _LEMMA_BASES:
            if lemma.value.startswith(base):
                return bank
        return None
    for t in parsed.triples:
        if t.s.kind == lemma.kind and t.s.value == lemma.value:
            if t.predicate == PREFIXES["dcterms"] + "isPartOf" and t.o.value in BANK_SIDE:
                return t.o.value
            if t.predicate == ONTO + "writtenRep" and t.o.kind == "literal" and t.o.lang:
                return _TAG_BANK.get(t.o.lang.lower())
    return None


def side_of_entry(parsed: Parsed, entry: Term) -> str | None:
    """``italian`` or ``dialect`` for a glossary entry, when the query tells."""
    if entry.kind == "iri":
        if "/LexicalEntry/italian/" in entry.value:
            return "italian"
        if re.search(r"/LexicalEntry/(siciliano|parmigiano)/", entry.value):
            return "dialect"
    bank = bank_of_entry(parsed, entry)
    return None if bank is None else BANK_SIDE[bank]


def _reuse(families: dict[str, str]):
    def check(query: str, parsed: Parsed):
        names: dict[str, set[str]] = defaultdict(set)
        for t in parsed.triples:
            if t.s.kind in ("var", "bnode") and t.predicate in families:
                names[t.s.value].add(families[t.predicate])
        for var, found in names.items():
            if len(found) >= 2:
                yield Breach(f"?{var} is used as the entry of {' and '.join(sorted(found))}: each resource has its own "
                             "entry for a lemma; join through the lemma with a different variable per entry")
        dialects: dict[str, set[str]] = defaultdict(set)
        for t in parsed.triples:
            if t.predicate == TRANSLATABLE and t.s.kind == "var" and not t.inverse:
                bank = bank_of_entry(parsed, t.o)
                if bank in (SICILIANO_LEMMA_BANK, PARMIGIANO_LEMMA_BANK):
                    dialects[t.s.value].add(bank)
        for var, banks in dialects.items():
            if len(banks) >= 2:
                yield Breach(f"?{var} is used as the Italian entry of both the Parmigiano and the Sicilian glossary: "
                             "each glossary has its own Italian entry")
    return check


def entry_reuse(families: dict[str, str]) -> Rule:
    """The multi-entry rule for ``families``: entry property IRI → the resource whose entries carry it."""
    return Rule(
        "entry_reuse", "error",
        "When resources are combined, each one has its OWN entry for a lemma (" + ", ".join(
            dict.fromkeys(families.values())) + "). Join them through ?lemma, with a different variable for each "
        "entry (?emotionEntry, ?sentixEntry, ?itEntry…); reusing one entry variable across resources silently "
        "returns nothing.",
        _reuse(families),
        broken="PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX elita: <http://w3id.org/elita/>\n"
               "PREFIX marl: <http://www.gsi.upm.es/ontologies/marl/ns#>\nPREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
               "SELECT ?l WHERE { ?l a lila:Lemma . ?e ontolex:canonicalForm ?l ; elita:HasEmotion elita:Paura ; "
               "marl:hasPolarity marl:Negative }")
