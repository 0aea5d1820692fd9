"""What ``explore`` looks at: the ontology catalogue and cheap probes on the KB.

* :func:`search_schema` asks the ontology catalogue (through the API) for the
  terms closest to the question; when the search fails the agent says so and
  relies on the probes alone.
* :func:`probe_word` asks where a word lives: which spellings and language
  tags exist, as what (Italian lemma, hypolemma, dialect lemma, inflected
  form), in which graph, which properties its Italian lemma has (IRI → count),
  and whether CompL-it has it, with how many senses and which relations link
  them to other senses (outgoing and incoming, as CURIEs).

Every probe is one bounded query through :meth:`AgentContext.run_query` (so
through :func:`nl2sparql.service.execute`); a probe that fails says so in its finding.
"""

from __future__ import annotations

from ..errors import Nl2SparqlError
from ..namespaces import (COMPLIT_SERVICE, COMPLIT_VOCAB, HYPOLEMMA_BASE, LEMMA_BANK, PARMIGIANO_LEMMA_BANK,
                          PREFIXES, SICILIANO_LEMMA_BANK)
from .query import literal

TAGS = ("it", "scn", "roa")
BANKS = {LEMMA_BANK: "italian", PARMIGIANO_LEMMA_BANK: "parmigiano", SICILIANO_LEMMA_BANK: "siciliano"}
#: Namespaces of the sense relations a probe reports, with their CURIE prefix.
RELATION_NAMESPACES = {PREFIXES["lexinfo"]: "lexinfo", COMPLIT_VOCAB: "complit"}


def curie(iri: str) -> str:
    """``lexinfo:…`` / ``complit:…`` for a sense relation IRI (the IRI itself otherwise)."""
    for base, prefix in RELATION_NAMESPACES.items():
        if iri.startswith(base):
            return f"{prefix}:{iri[len(base):]}"
    return iri


def relation_iri(name: str) -> str | None:
    """The IRI of a ``lexinfo:`` / ``complit:`` CURIE (``None`` for another prefix)."""
    prefix, _, local = name.partition(":")
    base = next((b for b, p in RELATION_NAMESPACES.items() if p == prefix), None)
    return base + local if base and local else None


def search_schema(question: str, patterns: dict | None, kb, k: int = 5) -> dict:
    """Ontology terms for ``question``: ``{"available", "hits", "text", "note"}`` (plain data).

    Uses :func:`nl2sparql.service.search_ontology` (counts measured on ``kb``) and
    :func:`nl2sparql.service.ontology_prompt`; when the search fails, ``available``
    is false, ``hits`` empty and ``note`` says why (the agent goes on with its
    KB probes).
    """
    from .. import service

    try:
        found = service.search_ontology(question, k=k, kb=kb, patterns=patterns or None)
        text = service.ontology_prompt(found.hits)
    except (Nl2SparqlError, OSError, ValueError) as exc:  # the search is optional: say why it is missing
        return {"available": False, "hits": [], "text": "", "note": f"ontology search failed: {exc}"}
    return {"available": True, "hits": [_hit_view(h) for h in found.hits], "text": text, "note": None}


def _hit_view(hit: dict) -> dict:
    """The parts of an ontology hit the agent keeps in its state."""
    keep = ("rank", "score", "curie", "kind", "label", "inverse", "symmetric", "count", "notes")
    return {k: hit.get(k) for k in keep if k in hit}


ACCENTED = {"a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù"}


def spellings(word: str) -> list[str]:
    """The word as written, in lower case and capitalised, and with its last vowel accented when it is
    written plain or with an apostrophe ("citta", "citta'" → "città"); no duplicates."""
    base = word.strip()
    forms = [base, base.lower(), base[:1].upper() + base[1:].lower()]
    plain = base.lower().rstrip("'’`")
    if plain and plain[-1] in ACCENTED:
        forms.append(plain[:-1] + ACCENTED[plain[-1]])
        if plain[-1] == "e":
            forms.append(plain[:-1] + "é")
    out = []
    for v in forms:
        if v and v not in out:
            out.append(v)
    return out


def probe_word(ctx, word: str) -> dict:
    """Where ``word`` lives in the KB (see the module docstring); plain data."""
    values = " ".join(f"{literal(s)}@{t}" for s in spellings(word) for t in TAGS)
    values += " " + " ".join(literal(s) for s in spellings(word))
    liita = ctx.run_query(
        "SELECT DISTINCT ?wr ?x ?type ?bank ?g WHERE {\n"
        f"  VALUES ?wr {{ {values} }}\n"
        "  GRAPH ?g { ?x ontolex:writtenRep ?wr }\n"
        f"  FILTER(?g != <{COMPLIT_SERVICE}>)\n"
        "  OPTIONAL { ?x rdf:type ?type }\n"
        "  OPTIONAL { ?x dcterms:isPartOf ?bank }\n"
        "} LIMIT 50")
    found = []
    for row in (ctx.rows_of(liita["sparql"]).rows if liita["error"] is None else []):
        wr, x, rtype, bank, graph = row
        found.append({"written": wr["value"], "lang": wr.get("xml:lang"), "kind": _kind(x, rtype, bank),
                      "graph": graph["value"] if graph else None})
    complit = _probe_complit(ctx, values)
    kinds = sorted({f["kind"] for f in found})
    where = kinds + (["complit"] if complit.get("senses") else [])
    properties = _lemma_properties(ctx, values) if "italian" in kinds else {}
    return {"word": word, "found": bool(where), "where": where, "liita": _dedupe(found), "complit": complit,
            "properties": properties, "errors": [e for e in (liita["error"], complit.get("error")) if e]}


def _lemma_properties(ctx, values: str) -> dict[str, int]:
    """The properties of the word's Italian Lemma Bank lemmas, with how many values each has."""
    run = ctx.run_query(
        "SELECT ?p (COUNT(*) AS ?n) WHERE {\n"
        f"  VALUES ?wr {{ {values} }}\n"
        f"  ?lemma dcterms:isPartOf <{LEMMA_BANK}> ; ontolex:writtenRep ?wr ; ?p ?o .\n"
        "} GROUP BY ?p")
    if run["error"] is not None:
        return {}
    return {prop: int(n) for prop, n in ctx.rows_of(run["sparql"]).values() if prop and n}


def _kind(x: dict, rtype: dict | None, bank: dict | None) -> str:
    """What a resource with a written representation is."""
    if bank and bank["value"] in BANKS:
        return BANKS[bank["value"]]
    if x["value"].startswith(HYPOLEMMA_BASE) or (rtype and rtype["value"].endswith("Hypolemma")):
        return "hypolemma"
    if rtype and rtype["value"] == PREFIXES["ontolex"] + "Form":
        return "form"
    if rtype and rtype["value"] == PREFIXES["lila"] + "Lemma":
        return "lemma"
    return "other"


def _dedupe(found: list[dict]) -> list[dict]:
    out = []
    for f in found:
        if f not in out:
            out.append(f)
    return out


def _probe_complit(ctx, values: str) -> dict:
    """CompL-it senses of the word and the counts of each sense relation, both ways."""
    run = ctx.run_query(
        "SELECT ?wr (COUNT(DISTINCT ?sense) AS ?senses) WHERE {\n"
        f"  SERVICE <{COMPLIT_SERVICE}> {{\n"
        f"    VALUES ?wr {{ {values} }}\n"
        "    ?form ontolex:writtenRep ?wr . ?w ontolex:canonicalForm ?form ; ontolex:sense ?sense .\n"
        "  }\n"
        "} GROUP BY ?wr")
    if run["error"] is not None:
        return {"senses": 0, "error": run["error"]}
    senses = sum(int(r[1]) for r in run["preview"] if r[1] is not None)
    spelled = [r[0] for r in run["preview"] if r[0] is not None]
    if not senses:
        return {"senses": 0}
    rels = ctx.run_query(
        "SELECT ?dir ?p (COUNT(*) AS ?n) WHERE {\n"
        f"  SERVICE <{COMPLIT_SERVICE}> {{\n"
        f"    VALUES ?wr {{ {values} }}\n"
        "    ?form ontolex:writtenRep ?wr . ?w ontolex:canonicalForm ?form ; ontolex:sense ?sense .\n"
        "    { ?sense ?p ?other . BIND(\"out\" AS ?dir) } UNION { ?other ?p ?sense . BIND(\"in\" AS ?dir) }\n"
        "    ?otherWord ontolex:sense ?other .\n"
        "  }\n"
        "} GROUP BY ?dir ?p")
    relations: dict[str, dict[str, int]] = {}
    if rels["error"] is None:
        for direction, prop, n in ctx.rows_of(rels["sparql"]).values():
            if prop != PREFIXES["ontolex"] + "sense":
                relations.setdefault(curie(prop), {})[direction] = int(n)
    return {"senses": senses, "spelled": spelled, "relations": relations,
            **({"error": rels["error"]} if rels["error"] else {})}


def word_summary(probe: dict) -> str:
    """One line saying where a probed word lives (for the trace and the LLM prompt)."""
    word = probe["word"]
    if not probe["found"]:
        return f"{word!r} is written nowhere in the KB (no lemma, form, dialect lemma or CompL-it word)"
    parts = [f"{word!r} is in: {', '.join(probe['where'])}"]
    cased = sorted({f["written"] for f in probe["liita"]} | set(probe["complit"].get("spelled") or []))
    if cased and word not in cased:
        parts.append(f"spelled {', '.join(repr(c) for c in cased)}")
    rels = probe["complit"].get("relations") or {}
    if rels:
        parts.append("its senses have " + ", ".join(
            f"{p} ({'/'.join(f'{d} {n}' for d, n in sorted(v.items()))})" for p, v in sorted(rels.items())))
    return "; ".join(parts)
