"""The ontology catalogue: search it, show one term, export it whole."""

from __future__ import annotations

import difflib
from typing import Mapping

from ..checks import check_length
from ..errors import DataError
from .kbs import KBLike, using_kb
from .types import OntologySearchResult


def _weights(weights: str | Mapping[str, float] | None) -> dict | None:
    if weights is None or isinstance(weights, Mapping):
        return dict(weights) if weights else None
    from ..ontology.index import parse_weights
    return parse_weights(weights) or None


def search_ontology(query: str, *, k: int = 5, kb: KBLike = None, counts: bool = True,
                    patterns: Mapping[str, float] | None = None, weights: str | Mapping[str, float] | None = None,
                    embedder: str | None = None) -> OntologySearchResult:
    """The LiITA classes and properties that match a description in Italian or English.

    Multilingual embeddings and BM25 over labels and descriptions, boosted by
    the patterns the query mentions and (``counts``) by how often each term
    occurs in the KB (counted once per KB and cached). Each hit carries the
    term's meaning, domain, range, inverse, where it lives (graph, inside
    SERVICE or not), LiITA notes such as the hypernym direction, and a usage query.
    """
    from ..ontology import search_result

    if isinstance(query, str):
        check_length(query, "search text")  # (an empty one is the index's to refuse, with an example)
    parsed = _weights(weights)
    if counts:
        with using_kb(kb) as store:
            found = search_result(query, k, store, patterns, weights=parsed, embedder=embedder)
    else:
        found = search_result(query, k, None, patterns, weights=parsed, embedder=embedder)
    return OntologySearchResult(query=found["query"], hits=found["hits"],
                                detected_patterns=found["detected_patterns"],
                                named_words_ignored=found["named_words_ignored"], weights=found["weights"],
                                warnings=found["warnings"], kb=found["kb"])


def ontology_term(term: str, *, kb: KBLike = None, counts: bool = False) -> dict:
    """One catalogue entry (a CURIE such as ``lexinfo:hypernym`` or a full IRI), with its KB counts if asked."""
    from ..ontology import get, load_catalog, occurrence_counts

    entry = get(term) if isinstance(term, str) else None
    if entry is None:
        close = difflib.get_close_matches(str(term).strip(), [e.curie for e in load_catalog()], n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise DataError(f"unknown ontology term {term!r}; {hint}find terms with an ontology search")
    item = entry.to_dict()
    if counts:
        with using_kb(kb) as store:
            found = occurrence_counts(store)
        item.update(count=found.total(entry.curie), count_by_place=found.by_place.get(entry.curie),
                    counts_kb=found.kb)
    return item


def ontology_catalog(*, kb: KBLike = None, counts: bool = False) -> dict:
    """The whole catalogue as one JSON resource (prefixes, places, every entry; KB counts if asked)."""
    from ..ontology import export_catalog

    if not counts:
        return export_catalog(None)
    with using_kb(kb) as store:
        return export_catalog(store)


def ontology_prompt(hits: list[dict] | None = None, *, query: str | None = None, k: int = 5, usage: int = 2) -> str:
    """Compact text about ontology terms for LLM prompts: the given hits, or the top ``k`` for ``query``."""
    from ..ontology import format_for_prompt, get, search

    if hits is not None:
        entries = [get(h["curie"]) for h in hits if isinstance(h, Mapping) and get(h.get("curie", ""))]
        return format_for_prompt(entries, usage=usage)
    if not query:
        raise DataError("give hits or a query")
    return format_for_prompt(search(query, k), usage=usage)
