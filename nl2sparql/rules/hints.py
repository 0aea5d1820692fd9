"""Hints for a query that returns nothing: which of its parts match nothing on their own."""

from __future__ import annotations

from .base import short
from .query import RDF_TYPE, Parsed


def empty_hints(parsed: Parsed, kb, limit: int = 12) -> list[str]:
    """Cheap probes on the KB naming the parts of an empty query that match nothing on their own."""
    probes: list[tuple[str, str]] = []
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind == "string" and i > 1 and toks[i - 1].text == "=" and toks[i - 2].text == ")":
                value = tok.text[1:-1]
                where = f"SERVICE <{e.service}> {{ ?x ontolex:writtenRep ?w . FILTER(STR(?w) = {tok.text}) }}" \
                    if e.service else f"?x ontolex:writtenRep ?w . FILTER(STR(?w) = {tok.text})"
                probes.append((f"ASK {{ {where} }}", f'no written form "{value}" exists'
                               + (" in CompL-it" if e.service else "")))
    seen = set()
    for t in parsed.triples:
        for iri in t.p_iris:
            if iri not in seen and iri != RDF_TYPE:
                seen.add(iri)
                body = f"?s <{iri}> ?o"
                probes.append((f"ASK {{ {_wrap(body, t.service)} }}", f"{short(iri)} does not occur"
                               + (" in CompL-it" if t.service else " outside SERVICE")))
        if t.o.kind == "iri" and t.o.value not in seen:
            seen.add(t.o.value)
            probes.append((f"ASK {{ {_wrap(f'?s ?p <{t.o.value}>', t.service)} }}", f"{short(t.o.value)} does not occur"))
    hints = []
    for query, hint in probes[:limit]:
        try:
            if not kb.ask(query, timeout=5):
                hints.append(hint)
        except Exception:  # noqa: BLE001 - a probe that fails tells nothing
            continue
    if not hints:
        hints.append("every part matches something on its own: the combination is empty (drop one constraint at a "
                     "time to find which one; check language tags and SERVICE joins)")
    return hints


def _wrap(body: str, service: str | None) -> str:
    return f"SERVICE <{service}> {{ {body} }}" if service else body
