"""The LiITA ontology catalogue: what each class and property means, where it lives, how to query it.

>>> from nl2sparql import ontology
>>> hits = ontology.search("termine più generale", k=3)        # lexinfo:hypernym / hyponym first
>>> print(ontology.format_for_prompt(hits))                     # compact text for prompts and the agent
>>> ontology.get("lexinfo:hyponym").to_dict()                  # one entry
>>> ontology.export_catalog()                                   # the JSON resource (for the MCP server)

``search(..., kb=kb)`` adds the occurrence boost with counts measured on that
KB (cached per KB, see :mod:`.counts`). Heavy pieces (the embedder, numpy,
the pattern catalogue) load on first use, so importing this package is cheap.
"""

from __future__ import annotations

from typing import Mapping, Sequence

__all__ = ["search", "search_result", "get", "format_for_prompt", "export_catalog", "load_catalog",
           "occurrence_counts",
           "Entry", "Hit", "Counts", "OntologyIndex", "DEFAULT_WEIGHTS"]


def load_catalog():
    """The loaded :class:`~nl2sparql.ontology.catalog.Catalog` (every entry, in file order; cached)."""
    from .catalog import load_catalog as _load
    return _load()


def get(name: str):
    """The :class:`~nl2sparql.ontology.catalog.Entry` for a CURIE or IRI, or ``None``; ``.to_dict()`` is JSON."""
    return load_catalog().get(name)


def occurrence_counts(kb, **kw):
    """Occurrence counts of every catalogue term in ``kb``, cached per KB (see :mod:`.counts`)."""
    from .counts import occurrence_counts as _counts
    return _counts(kb, **kw)


def search(query: str, k: int = 5, kb=None, patterns: Mapping[str, float] | None = None, *,
           weights: Mapping[str, float] | None = None, embedder: str | None = None) -> list:
    """The ``k`` catalogue entries that best match ``query`` (Italian or English), best first.

    ``kb`` (a :class:`~nl2sparql.kb.KnowledgeBase`) enables the occurrence boost
    with counts measured on it; ``patterns`` (``{label: confidence}``) replaces
    the patterns detected in ``query``; ``weights`` override the component
    weights; ``embedder`` picks the dense model (``"none"``: BM25 + boosts).
    Returns :class:`~nl2sparql.ontology.index.Hit` objects (``.to_dict()`` is JSON).
    """
    from .index import get_index
    index = get_index(embedder, weights)
    counts = occurrence_counts(kb) if kb is not None else None
    return index.search(query, k, counts=counts, patterns=patterns)


def search_result(query: str, k: int = 5, kb=None, patterns: Mapping[str, float] | None = None, *,
                  weights: Mapping[str, float] | None = None, embedder: str | None = None) -> dict:
    """:func:`search` as one JSON-ready dict: the hits plus what produced them.

    Keys: ``query``, ``k``, ``detected_patterns`` (or the ``patterns`` given),
    ``named_words_ignored`` (words the question names as data, left out of the matching),
    ``weights`` (the active components, renormalised), ``warnings`` (e.g. dense
    search off), ``kb`` and ``counts_fingerprint`` (``None`` without a KB), ``hits``.
    """
    from ..translate.text import fold
    from .index import COMPONENTS, get_index, named_words
    index = get_index(embedder, weights)
    counts = occurrence_counts(kb) if kb is not None else None
    if patterns is None:
        from ..patterns import detect_patterns
        patterns = detect_patterns(query) if (query or "").strip() else {}
    hits = index.search(query, k, counts=counts, patterns=patterns)
    active = {c: index.weights[c] for c in COMPONENTS
              if not (c == "dense" and index.embeddings is None) and not (c == "occurrence" and counts is None)}
    total = sum(active.values()) or 1.0
    ignored = [w for w in named_words(query) if fold(w) not in index.label_words]
    return {"query": query, "k": k, "detected_patterns": dict(patterns), "named_words_ignored": ignored,
            "weights": {c: round(w / total, 4) for c, w in active.items()},
            "warnings": list(index.warnings) + (counts.errors if counts is not None else []),
            "kb": counts.kb if counts is not None else None,
            "counts_fingerprint": counts.fingerprint if counts is not None else None,
            "hits": [hit.to_dict() for hit in hits]}


def format_for_prompt(hits: Sequence, *, usage: int = 2) -> str:
    """Compact text describing ``hits`` for LLM prompts and the agent.

    One block per hit: CURIE, kind and labels, domain → range, inverse, where
    the term lives, its occurrences, its notes (the LiITA direction rules come
    first) and, for the first ``usage`` hits, the usage query without PREFIX lines.
    """
    if not hits:
        return "No ontology term matched."
    lines = ["Ontology terms (most relevant first):"]
    for n, hit in enumerate(hits, 1):
        entry = getattr(hit, "entry", hit)
        head = f"{n}. {entry.curie} ({entry.kind}) — {entry.label['en']} / {entry.label['it']}"
        lines.append(head)
        lines.append(f"   {entry.description['en']}")
        shape = []
        if entry.domain or entry.range:
            shape.append(f"{entry.domain or '?'} → {entry.range or '?'}")
        if entry.inverse:
            shape.append(f"inverse {entry.inverse}")
        if entry.symmetric:
            shape.append("symmetric")
        if shape:
            lines.append("   " + "; ".join(shape))
        count = getattr(hit, "count", None)
        where = entry.placement() + (f"; {count:,} occurrences in this KB" if count is not None else "")
        lines.append(f"   Where: {where}")
        lines.extend(f"   Note: {note}" for note in entry.notes)
        if n <= usage:
            body = "\n".join(line for line in entry.usage.splitlines() if not line.startswith("PREFIX "))
            lines.append("   Usage:\n" + "\n".join("     " + line for line in body.splitlines()))
    return "\n".join(lines)


def export_catalog(kb=None) -> dict:
    """The whole catalogue as one JSON-ready resource (prefixes, places and every entry).

    With ``kb`` each entry also carries ``count`` (occurrences in that KB) and
    ``count_by_place`` (outside / inside the CompL-it SERVICE).
    """
    from .catalog import CURIE_PREFIXES, PLACES
    from .counts import catalog_digest

    cat = load_catalog()
    counts = occurrence_counts(kb) if kb is not None else None
    entries = []
    for entry in cat:
        item = entry.to_dict()
        if counts is not None:
            item["count"] = counts.total(entry.curie)
            item["count_by_place"] = counts.by_place.get(entry.curie)
        entries.append(item)
    return {"name": "nl2sparql LiITA ontology catalogue", "digest": catalog_digest(cat),
            "entries_total": len(entries), "prefixes": dict(CURIE_PREFIXES), "places": dict(PLACES),
            "counts_kb": counts.kb if counts is not None else None,
            "counts_fingerprint": counts.fingerprint if counts is not None else None,
            "entries": entries}


def __getattr__(name: str):
    """Lazy access to the classes, so importing the package stays cheap."""
    if name in ("Entry", "Catalog"):
        from . import catalog as module
    elif name in ("Hit", "OntologyIndex", "DEFAULT_WEIGHTS"):
        from . import index as module
    elif name == "Counts":
        from . import counts as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(module, name)
