"""LiITA prefixes and well-known IRIs: the single source for every module.

The prefix IRIs are exact (``../shared/liita/SCHEMA.md``): a wrong one
silently returns nothing, so nothing else in the project spells them out.
"""

from __future__ import annotations

PREFIXES: dict[str, str] = {
    "lila": "http://lila-erc.eu/ontologies/lila/",
    "ontolex": "http://www.w3.org/ns/lemon/ontolex#",
    "lime": "http://www.w3.org/ns/lemon/lime#",
    "vartrans": "http://www.w3.org/ns/lemon/vartrans#",
    "lexinfo": "http://www.lexinfo.net/ontology/3.0/lexinfo#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "elita": "http://w3id.org/elita/",
    "marl": "http://www.gsi.upm.es/ontologies/marl/ns#",
}

XSD = PREFIXES["xsd"]
XSD_STRING = XSD + "string"
RDF_LANGSTRING = PREFIXES["rdf"] + "langString"

# Graphs
LIITA_GRAPH = "http://liita.it/data"
ELITA_GRAPH = "http://w3id.org/elita"
COMPLIT_SERVICE = "https://klab.ilc.cnr.it/graphdb-compl-it/"
SENTIX_GRAPH = "http://liita.it/data/sentix"
PARMIGIANO_GRAPH = "http://liita.it/data/parmigiano"
SICILIANO_GRAPH = "http://liita.it/data/siciliano"
COMPLIT_LINKS_GRAPH = "http://liita.it/data/complit-links"

# Resources
LEMMA_BASE = "http://liita.it/data/id/lemma/"
HYPOLEMMA_BASE = "http://liita.it/data/id/hypolemma/"
LEMMA_BANK = "http://liita.it/data/id/lemma/LemmaBank"
PARMIGIANO_LEMMA_BASE = "http://liita.it/data/id/DialettoParmigiano/lemma/"
PARMIGIANO_LEMMA_BANK = "http://liita.it/data/id/DialettoParmigiano/lemma/LemmaBank"
SICILIANO_LEMMA_BASE = "http://liita.it/data/id/DialettoSiciliano/lemma/"
SICILIANO_LEMMA_BANK = "http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank"
# The typo "Reources" is in the real data.
PARMIGIANO_LEXICON = "http://liita.it/data/id/LexicalReources/DialettoParmigiano/Lexicon"
SICILIANO_LEXICON = "http://liita.it/data/id/LexicalResources/DialettoSiciliano/Wikizziunariu"
COMPLIT_WORD_BASE = "http://lexica/mylexicon#"
COMPLIT_VOCAB = "http://klab/lexicon/vocabulary/compl-it#"

#: Prefixes of the other vocabularies the ontology catalogue names (CompL-it's own relations,
#: the OntoLex synsem/decomp modules, VoID). Generated LiITA queries declare them only when used.
EXTRA_PREFIXES: dict[str, str] = {
    "complit": COMPLIT_VOCAB,
    "synsem": "http://www.w3.org/ns/lemon/synsem#",
    "decomp": "http://www.w3.org/ns/lemon/decomp#",
    "void": "http://rdfs.org/ns/void#",
}

EMOTIONS = ("Gioia", "Tristezza", "Paura", "Disgusto", "Rabbia", "Sorpresa",
            "Aspettativa", "Fiducia", "Amore")


def expand(curie: str) -> str:
    """Expand ``prefix:local`` to a full IRI using :data:`PREFIXES`."""
    prefix, _, local = curie.partition(":")
    return PREFIXES[prefix] + local


def prologue(used: set[str] | None = None) -> str:
    """The PREFIX lines for ``used`` prefixes (all of them when ``None``), in a stable order."""
    names = [p for p in PREFIXES if used is None or p in used]
    return "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in names)


def compact(iri: str) -> str:
    """``prefix:local`` for IRIs under a known prefix, else the IRI in angle brackets."""
    for prefix, ns in PREFIXES.items():
        if iri.startswith(ns) and iri != ns:
            return f"{prefix}:{iri[len(ns):]}"
    return f"<{iri}>"
