"""Rules on the SERVICE join between LiITA and CompL-it (SCHEMA.md rule 3)."""

from __future__ import annotations

from collections import defaultdict

from ..namespaces import COMPLIT_SERVICE, COMPLIT_VOCAB, PREFIXES
from .base import Breach, Rule, short
from .query import RDF_TYPE, Parsed

LEX, ONTO, LILA = PREFIXES["lexinfo"], PREFIXES["ontolex"], PREFIXES["lila"]
#: CompL-it data: only reachable inside SERVICE.
COMPLIT_PROPS = {ONTO + "sense", PREFIXES["skos"] + "definition", LEX + "senseExample"} | {
    LEX + r for r in ("hypernym", "hyponym", "partMeronym", "partHolonym", "memberMeronym", "memberHolonym",
                      "approximateSynonym", "antonym")}
COMPLIT_CLASSES = {ONTO + "LexicalSense", ONTO + "Word"}
#: LiITA data: never inside SERVICE.
LIITA_NAMESPACES = (LILA, PREFIXES["elita"], PREFIXES["marl"], PREFIXES["vartrans"], "http://liita.it/data/id/")
LIITA_PROPS = {PREFIXES["dcterms"] + "isPartOf", PREFIXES["lime"] + "entry"}
_P = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
      "PREFIX elita: <http://w3id.org/elita/>\n")


def _iris(t) -> set[str]:
    return set(t.p_iris) | ({t.o.value} if t.o.kind == "iri" and RDF_TYPE in t.p_iris else set())


def _service_missing(query: str, parsed: Parsed):
    seen = set()
    for t in parsed.triples:
        complit = sorted(i for i in _iris(t)
                         if i in COMPLIT_PROPS or i in COMPLIT_CLASSES or i.startswith(COMPLIT_VOCAB))
        if t.service is None and complit and complit[0] not in seen:
            seen.add(complit[0])
            yield Breach(f"{short(complit[0])} is CompL-it data: put it inside SERVICE <{COMPLIT_SERVICE}> "
                         "(outside it matches nothing)")


SERVICE_MISSING = Rule(
    "service_missing", "error",
    "CompL-it data (senses, definitions, semantic and lexical relations) is only reachable inside "
    f"SERVICE <{COMPLIT_SERVICE}> {{ … }}.",
    _service_missing, broken=_P + "SELECT ?d WHERE { ?w ontolex:sense ?s . ?s skos:definition ?d }")


def _service_scope(query: str, parsed: Parsed):
    seen = set()
    for t in parsed.triples:
        if t.service is not None:
            liita = sorted(i for i in _iris(t) | {t.s.value, t.o.value}
                           if i.startswith(LIITA_NAMESPACES) or i in LIITA_PROPS)
            if liita and liita[0] not in seen:
                seen.add(liita[0])
                yield Breach(f"{short(liita[0])} is LiITA data, not CompL-it: move it outside the SERVICE block "
                             "(only senses, definitions and relations are behind it)")
    for svc in {t.service for t in parsed.triples if t.service} | {e.service for e in parsed.expressions if e.service}:
        if svc != COMPLIT_SERVICE and svc not in seen:
            seen.add(svc)
            yield Breach(f"SERVICE <{svc}> is not the CompL-it service <{COMPLIT_SERVICE}>", severity="warning")
    yield from _link_inside_service(parsed)
    yield from _filters_out_of_scope(parsed)


def _link_inside_service(parsed: Parsed):
    lemmas_outside = {t.s.value for t in parsed.triples if t.service is None and t.s.kind == "var" and
                      any(i.startswith(LILA) for i in t.p_iris + ((t.o.value,) if t.o.kind == "iri" else ()))}
    for t in parsed.triples:
        if t.service and t.predicate == ONTO + "canonicalForm" and t.o.kind == "var" and t.o.value in lemmas_outside:
            yield Breach(f"?{t.o.value} is a LiITA lemma: the link ?{t.s.value} ontolex:canonicalForm ?{t.o.value} "
                         "lives outside SERVICE (same word variable on both sides)")
            return


def _filters_out_of_scope(parsed: Parsed):
    inside: dict[str, set[str]] = defaultdict(set)
    outside: set[str] = set()
    for t in parsed.triples:
        names = {x.value for x in (t.s, t.o) if x.kind == "var"}
        (inside[t.service] if t.service else outside).update(names)
    for e in parsed.expressions:
        if not e.service:
            continue
        for tok in e.tokens:
            name = tok.text[1:] if tok.kind == "var" else None
            if name and name not in inside[e.service] and name in outside:
                yield Breach(f"the FILTER inside SERVICE uses ?{name}, which is bound outside it (not visible "
                             "there): join on the word IRI or written form instead")
                return


SERVICE_SCOPE = Rule(
    "service_scope", "error",
    "The LiITA data (lemma bank, ELITA emotions, Sentix polarity, dialect glossaries, inflected forms) is queried "
    "without SERVICE. Join LiITA and CompL-it through the word IRI: ?word ontolex:canonicalForm ?lemma OUTSIDE the "
    "SERVICE block, then ?word ontolex:sense ?sense INSIDE it; a FILTER inside SERVICE cannot see variables bound "
    "outside it.",
    _service_scope,
    broken=_P + f"SELECT ?e WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?e elita:HasEmotion elita:Paura }} }}")
