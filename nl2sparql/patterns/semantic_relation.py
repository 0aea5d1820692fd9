"""SEMANTIC_RELATION: hyponymy and meronymy between CompL-it senses.

Direction (SCHEMA rule 1): ``?specific lexinfo:hyponym ?general`` and
``?part lexinfo:partMeronym ?whole``. Hyponyms of *animale* are senses ``?x``
with ``?x lexinfo:hyponym ?animaleSense``.
"""

from __future__ import annotations

import random
import re

from ..namespaces import COMPLIT_SERVICE, PREFIXES
from ..rules import Breach, Parsed, Rule
from ..sparql.model import IRI, Path, Triple
from .base import Facts, Frame, frag, pl, quote, related_to_named
from .reading import ARTICLE, VALUE, RelationKind, Text, reads
from .relations import RelationPattern

_LEX = PREFIXES["lexinfo"]
_GENERAL = re.compile(r"hypernym|hyperonym|iperonim|general|broader", re.I)
_SPECIFIC = re.compile(r"hyponym|iponim|specific|narrower", re.I)
_WHOLE = re.compile(r"whole|holonym|olonim|intero", re.I)
_PART = re.compile(r"part|meronym|meronim|component", re.I)
#: relation → (what its subject is, what its object is), as name patterns and as words.
_ENDS = {_LEX + "hyponym": (_SPECIFIC, _GENERAL, "?specific lexinfo:hyponym ?general"),
         _LEX + "hypernym": (_GENERAL, _SPECIFIC, "?general lexinfo:hypernym ?specific"),
         _LEX + "partMeronym": (_PART, _WHOLE, "?part lexinfo:partMeronym ?whole"),
         _LEX + "partHolonym": (_WHOLE, _PART, "?whole lexinfo:partHolonym ?part")}


def _named(name: str, kind: re.Pattern, other: re.Pattern) -> bool:
    return bool(kind.search(name)) and not other.search(name)


def _direction(query: str, parsed: Parsed):
    """Variables named for one end of a relation used at the other end (the names say what the author meant)."""
    for t in parsed.triples:
        if len(t.p_iris) != 1 or t.p_iris[0] not in _ENDS or t.s.kind != "var" or t.o.kind != "var":
            continue
        subject_kind, object_kind, right = _ENDS[t.p_iris[0]]
        s, o = (t.o, t.s) if t.inverse else (t.s, t.o)
        if _named(s.value, object_kind, subject_kind) or _named(o.value, subject_kind, object_kind):
            yield Breach(f"?{s.value} {short_relation(t.p_iris[0])} ?{o.value} reads the relation backwards: it is "
                         f"{right}")
            return


def short_relation(iri: str) -> str:
    """``lexinfo:hyponym`` for a lexinfo IRI."""
    return "lexinfo:" + iri[len(_LEX):]


RELATION_DIRECTION = Rule(
    "relation_direction", "warning",
    "Hypernymy points the 'wrong' way: ?specific lexinfo:hyponym ?general (hyponyms of animale are senses ?x with "
    "?x lexinfo:hyponym ?animaleSense) and ?general lexinfo:hypernym ?specific; ?part lexinfo:partMeronym ?whole.",
    _direction,
    broken="PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
           "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>\n"
           f"SELECT ?hyponym WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?animale ontolex:sense ?general . "
           "?general lexinfo:hyponym ?hyponym } }")

_REL = {
    "hyponym": "SELECT DISTINCT ?lemma ?g WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
               f"SERVICE <{COMPLIT_SERVICE}> {{ ?word ontolex:sense ?s . ?s lexinfo:hyponym ?gs . "
               "?gw ontolex:sense ?gs ; ontolex:canonicalForm ?gf . ?gf ontolex:writtenRep ?g } }",
    "meronym": "SELECT DISTINCT ?lemma ?g WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
               f"SERVICE <{COMPLIT_SERVICE}> {{ ?word ontolex:sense ?s . ?s lexinfo:partMeronym ?gs . "
               "?gw ontolex:sense ?gs ; ontolex:canonicalForm ?gf . ?gf ontolex:writtenRep ?g } }",
}


HYPERNYM = RelationKind(
    "hypernym", "SEMANTIC_RELATION",
    target=r"(?:iponim\w*|tipi|tipo|specie|sottotipi|kinds?|types?|sorts?|subtypes?|hyponyms?)",
    project=(r"\b(?:iperonim\w*|hypernyms?|categori\w* (?:piu )?(?:general\w*|ampi\w*)|"
             r"(?:broader|wider|more general|superordinate|parent) (?:terms?|categor\w*|concepts?|classes|words?)|"
             r"piu general\w*|more general|superordinat\w*)\b|\ba (?:kind|type|sort) of\s*(?:\?|$)|"
             r"\bwhat (?:categor\w*|class\w*)\b.*\bbelongs? to\b|\bdi (?:che|quale) categoria\b|"
             r"\b(?:di )?(?:che|quale) (?:cosa|tipo) (?:e|sia)\b|\bche tipo di cosa\b|\bdi che cosa e un"),
    markers=("hyponym",), always_list=True)
HOLONYM = RelationKind(
    "holonym", "SEMANTIC_RELATION",
    target=r"(?:parti|parte|parts?|meronim\w*|meronyms?|componenti|components?|pezzi)",
    project=(r"\b(?:olonim\w*|holonyms?|interi di cui|wholes?|belongs? to|fa parte|fanno parte|"
             r"is (?:a )?part of)\b|\bpart of\s*\??\s*$"),
    markers=("partmeronym",), always_list=True, not_after=r"\b(?:fa|fanno)\s+$|\bis\s+$")
#: Hyponyms at any depth ("direttamente o indirettamente"): the transitive closure lexinfo:hyponym+.
TRANSITIVE = (r"\b(?:direttamente o indirettamente|directly or indirectly|anche indirettamente|indirett\w*|"
              r"indirect\w*|transitiv\w*|a qualsiasi livello|at any (?:level|depth)|a ogni livello|"
              r"a tutti i livelli)\b|lexinfo:hyponym\+")


class SemanticRelation(RelationPattern):
    """Hyponyms / parts of a named word (constraint), or hypernyms / wholes of a word (word fact)."""

    label = "SEMANTIC_RELATION"
    rank = 70
    guidance = ("Hyponyms of X: ?sense lexinfo:hyponym ?xSense; parts of X: ?sense lexinfo:partMeronym ?xSense; X's "
                "sense belongs to a CompL-it word written X (STR(?xwr) = \"X\"), inside SERVICE.")
    example = ("list", None, {"relation": "hypernym", "target": "animale"})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    fact_queries = {"hypernym": _REL["hyponym"], "holonym": _REL["meronym"]}
    rules = (RELATION_DIRECTION,)
    needs_any = ("hypernym", "holonym")
    compose = {"constraint": 5, "word": 6}
    build_order = 5
    relation_kinds = (HYPERNYM, HOLONYM)
    named_cues = (
        (2.5, rf"\bwhat (?:is|are)\s+{ARTICLE}?{VALUE}\s+(?:(?:a|an)\s+)?(?:kinds?|types?|sorts?|parts?)\s+of\b"),
        (14, rf"\b(?:di )?(?:che )?cosa (?:e un tipo|fa parte)\s+{ARTICLE}?{VALUE}"),
    )
    fact_nouns = r"iperonimi|olonimi|hypernyms|holonyms"
    question_cues = [
        (r"\b(iponim\w*|iperonim\w*|hyponym\w*|hypernym\w*|tipi di|types? of|kinds? of|specie di"
         r"|pi[uù] specific\w*|more specific|broader|pi[uù] general\w*|categori\w*(?! grammatical))\b", 0.85),
        (r"\b(meronim\w*|olonim\w*|meronym\w*|holonym\w*|parti? di|parts? of(?! speech)|componenti|components?"
         r"|fa(nno)? parte|is part of|made up of)\b", 0.85),
    ]

    @reads(59)
    def read_transitive(self, text: Text, slots) -> None:
        """Hyponyms at any depth."""
        if text.has(TRANSITIVE):
            slots.transitive = True

    def relation_step(self, slots, target: str | None) -> dict:
        step = super().relation_step(slots, target)
        if slots.transitive and slots.relation == "hypernym" and target:
            step["transitive"] = True
        return step

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        kind = rng.choice([k for k in ("hypernym", "holonym") if lemma in facts.by_lemma(k)])
        if shape == "word":
            return {"relation": kind}
        return {"relation": kind, "target": rng.choice(facts.by_lemma(kind)[lemma])[0],
                "transitive": kind == "hypernym" and rng.random() < 0.25}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        kind, target = slots["relation"], slots.get("target")
        # a relation shown next to the lemmas narrows nothing; the transitive closure is wider: no estimate
        if not target or slots.get("transitive"):
            return None
        return facts.lemmas_related_to(kind, target)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        kind = slots["relation"]
        prop = IRI.of("lexinfo:hyponym" if kind == "hypernym" else "lexinfo:partMeronym")
        if frame.shape == "word" or not slots.get("target"):
            self._build_facet(frame, kind, prop)
            return
        target, transitive = slots["target"], bool(slots.get("transitive"))
        related_to_named(frame, Path("+", (prop,)) if transitive else prop, target)
        qi, qe = quote("it", target), quote("en", target)
        path = f"lexinfo:hyponym{'+' if transitive else ''}"
        if kind == "hypernym" and transitive:
            f = frag("constraint", [f"sono iponimi di {qi} a qualsiasi livello", f"sono tipi di {qi}, anche indiretti"],
                     [f"are direct or indirect hyponyms of {qe}", f"are kinds of {qe} at any depth"],
                     f"con un senso legato da {path} a un senso di {qi}",
                     f"with a sense linked by {path} to a sense of {qe}")
        elif kind == "hypernym":
            f = frag("constraint", [f"sono iponimi di {qi}", f"sono tipi di {qi}"],
                     [f"are hyponyms of {qe}", f"are kinds of {qe}"],
                     f"con un senso legato da {path} a un senso di {qi}",
                     f"with a sense linked by {path} to a sense of {qe}")
        else:
            f = frag("constraint", [f"sono parti di {qi}", f"indicano parti di {qi}"],
                     [f"are parts of {qe}", f"name parts of {qe}"],
                     f"con un senso legato da lexinfo:partMeronym a un senso di {qi}",
                     f"with a sense linked by lexinfo:partMeronym to a sense of {qe}")
        frame.fragments.append(f)
        frame.slot("related_word", target)
        frame.tag(self.label, 0.9)

    def _build_facet(self, frame: Frame, kind: str, prop: IRI) -> None:
        """The hypernyms (or wholes) of a word's senses, or of each listed lemma, kept optional."""
        word, facet = frame.complit_facet()
        sense, other_sense, other_word = frame.fresh("sense"), frame.fresh("relatedSense"), frame.fresh("relatedWord")
        form, other_wr = frame.fresh("relatedForm"), frame.fresh("hypernym" if kind == "hypernym" else "whole")
        facet.group.add(Triple(word, IRI.of("ontolex:sense"), sense), Triple(sense, prop, other_sense),
                        Triple(other_word, IRI.of("ontolex:sense"), other_sense),
                        Triple(other_word, IRI.of("ontolex:canonicalForm"), form),
                        Triple(form, IRI.of("ontolex:writtenRep"), other_wr))
        frame.show(facet, other_wr, "hypernyms" if kind == "hypernym" else "wholes")
        listed = frame.shape != "word"
        if kind == "hypernym":
            f = frag("projection" if listed else "word_fact",
                     [pl("i loro iperonimi")] if listed else [pl("gli iperonimi"), pl("le categorie più generali")],
                     [pl("their hypernyms")] if listed else [pl("the hypernyms"), pl("the broader terms")],
                     "gli iperonimi (?senso lexinfo:hyponym ?generale)", "the hypernyms (?sense lexinfo:hyponym ?general)",
                     ask=None if listed else (["Di che cosa è un tipo {w}?"], ["What is {w} a kind of?"]))
        else:
            f = frag("projection" if listed else "word_fact",
                     [pl("gli interi di cui fanno parte")] if listed else [pl("gli olonimi")],
                     [pl("the wholes they are part of")] if listed else [pl("the holonyms"), pl("the wholes it belongs to")],
                     "gli olonimi (?parte lexinfo:partMeronym ?intero)", "the holonyms (?part lexinfo:partMeronym ?whole)",
                     ask=None if listed else (["Di che cosa fa parte {w}?"], ["What is {w} a part of?"]))
        frame.fragments.append(f)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses_any("lexinfo:hypernym", "lexinfo:hyponym", "lexinfo:partMeronym", "lexinfo:partHolonym",
                      "lexinfo:memberMeronym", "lexinfo:memberHolonym"):
            return 0.9
        return 0.0


PATTERN = SemanticRelation()
