"""How often each catalogue term occurs in the KB in use, cached per KB.

Counts are measured with grouped SPARQL queries (one per kind of term and
place): properties by their triples, classes by their instances, individuals
by the triples that point at them. Every term is counted twice, outside any
SERVICE (the LiITA union graph) and inside ``SERVICE <CompL-it>``, so the
numbers are real for the embedded sample, an on-disk store or an endpoint.
A grouped query that fails (a timeout on a large endpoint) is retried term by
term; a term that still fails has count ``None`` and the error is recorded
(after :data:`GIVE_UP_AFTER` failures in a row the rest of the group is not
tried). Counts with errors are returned but not cached.

The result is cached as JSON in ``<cache>/ontology/`` under a key made of the
KB's description, a fingerprint (its content fingerprint, see :func:`kb_fingerprint`)
and a digest of the catalogue, written atomically.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import QueryError
from ..fileio import atomic_write_text
from ..namespaces import COMPLIT_SERVICE
from .catalog import Catalog, Entry, load_catalog

CACHE_VERSION = 1
#: Consecutive per-term failures after which the rest of a group is not tried.
GIVE_UP_AFTER = 3
PLACES = ("outside", "service")
_FINGERPRINTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: The WHERE pattern counted for each kind of term (``?t`` is the term).
_SHAPES = {"property": "?s ?t ?o", "class": "?s a ?t", "individual": "?s ?p ?t"}


@dataclass
class Counts:
    """Occurrence counts of catalogue terms in one KB.

    ``by_place[curie]`` is ``{"outside": n, "service": m}`` (``None`` where the
    query failed); :meth:`total` adds them up.
    """

    kb: str
    fingerprint: str
    by_place: dict[str, dict[str, int | None]]
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    from_cache: bool = False
    path: str | None = None

    def total(self, curie: str) -> int | None:
        """Occurrences of ``curie`` in the KB (both places); ``None`` when unknown."""
        places = self.by_place.get(curie)
        if not places:
            return None
        known = [n for n in places.values() if n is not None]
        return sum(known) if known else None

    def to_dict(self) -> dict:
        """A JSON-ready dict (what the cache file holds)."""
        return {"version": CACHE_VERSION, "kb": self.kb, "fingerprint": self.fingerprint,
                "seconds": round(self.seconds, 3), "errors": self.errors, "counts": self.by_place}


def occurrence_counts(kb, *, catalog: Catalog | None = None, refresh: bool = False,
                      timeout: float = 120.0, cache: bool = True,
                      cache_root: Path | None = None) -> Counts:
    """Counts for every catalogue term in ``kb`` (a :class:`~nl2sparql.kb.KnowledgeBase`), cached per KB.

    ``refresh`` measures again even when a cached result matches; ``cache=False``
    neither reads nor writes the cache.
    """
    catalog = catalog or load_catalog()
    description = getattr(kb, "description", "kb")
    fingerprint = kb_fingerprint(kb, timeout=timeout)
    path = _cache_path(description, fingerprint, catalog, cache_root)
    if cache and not refresh:
        cached = _read_cache(path, description, fingerprint)
        if cached is not None:
            return cached
    start = time.perf_counter()
    by_place: dict[str, dict[str, int | None]] = {e.curie: {} for e in catalog}
    errors: list[str] = []
    for kind in _SHAPES:
        group = [e for e in catalog if e.kind == kind]
        for place in PLACES:
            for curie, n in _count_group(kb, group, kind, place, timeout, errors).items():
                by_place[curie][place] = n
    counts = Counts(description, fingerprint, by_place, errors, time.perf_counter() - start,
                    path=str(path) if cache else None)
    if cache and not errors:  # a partial result is not cached: the next call tries again
        try:
            atomic_write_text(path, json.dumps(counts.to_dict(), ensure_ascii=False, indent=1))
        except OSError as exc:
            counts.errors.append(f"could not cache the counts in {path.parent}: {exc.strerror or exc}")
    return counts


def kb_fingerprint(kb, timeout: float = 60.0) -> str:
    """What identifies the KB's content: the content fingerprint of its per-KB artefacts
    (:func:`nl2sparql.kb.artefacts.kb_key`, read from its files, no query) when it has one; else its
    triple counts outside and inside the CompL-it SERVICE.

    Measured once per KB object. A count that cannot be measured is ``?``.
    """
    from ..kb.artefacts import kb_key

    key = kb_key(kb)
    if key is not None and key.fingerprint is not None:
        return f"content={key.fingerprint}"
    try:
        known = _FINGERPRINTS.get(kb)
    except TypeError:  # not weak-referenceable
        known = None
    if known is not None:
        return known
    parts = []
    for place, body in (("outside", "?s ?p ?o"), ("service", f"SERVICE <{COMPLIT_SERVICE}> {{ ?s ?p ?o }}")):
        try:
            table = kb.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {body} }}", timeout=timeout)
            parts.append(f"{place}={table.rows[0][0].value}")
        except QueryError:
            parts.append(f"{place}=?")
    fingerprint = ";".join(parts)
    try:
        _FINGERPRINTS[kb] = fingerprint
    except TypeError:
        pass
    return fingerprint


def catalog_digest(catalog: Catalog) -> str:
    """A short digest of what is counted (CURIEs and kinds), so a changed catalogue is recounted."""
    text = "\n".join(f"{e.curie} {e.kind}" for e in catalog)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- measuring ------------------------------------------------------------------------------------

def _query(entries: Iterable[Entry], kind: str, place: str) -> str:
    values = " ".join(f"<{e.iri}>" for e in entries)
    body = f"VALUES ?t {{ {values} }} {_SHAPES[kind]}"
    if place == "service":
        body = f"SERVICE <{COMPLIT_SERVICE}> {{ {body} }}"
    return f"SELECT ?t (COUNT(*) AS ?n) WHERE {{ {body} }} GROUP BY ?t"


def _count_group(kb, group: list[Entry], kind: str, place: str, timeout: float,
                 errors: list[str]) -> dict[str, int | None]:
    """``{curie: count}`` for one kind of term in one place: one grouped query, else one per term."""
    if not group:
        return {}
    try:
        return _run(kb, group, kind, place, timeout)
    except QueryError:
        pass
    out: dict[str, int | None] = {}
    failures = 0
    for n, entry in enumerate(group):
        try:
            out.update(_run(kb, [entry], kind, place, min(timeout, 20.0)))
            failures = 0
        except QueryError as exc:
            out[entry.curie] = None
            errors.append(f"{entry.curie} ({place}): {exc}")
            failures += 1
            if failures == GIVE_UP_AFTER:  # an unreachable place: do not try every term
                rest = group[n + 1:]
                out.update({e.curie: None for e in rest})
                if rest:
                    errors.append(f"{len(rest)} more {kind} term(s) ({place}) not counted after "
                                  f"{GIVE_UP_AFTER} failures in a row")
                break
    return out


def _run(kb, group: list[Entry], kind: str, place: str, timeout: float) -> dict[str, int]:
    table = kb.select(_query(group, kind, place), timeout=timeout, max_rows=len(group) + 1)
    by_iri = {row[0].value: int(row[1].value) for row in table.rows if row[0] is not None}
    return {e.curie: by_iri.get(e.iri, 0) for e in group}


# -- cache ----------------------------------------------------------------------------------------

def _cache_path(description: str, fingerprint: str, catalog: Catalog, root: Path | None) -> Path:
    from ..paths import cache_dir

    key = hashlib.sha256("\x1f".join((description, fingerprint, catalog_digest(catalog),
                                      str(CACHE_VERSION))).encode("utf-8")).hexdigest()[:20]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", description)[-40:].strip("_") or "kb"
    return Path(root or cache_dir() / "ontology") / f"counts-{slug}-{key}.json"


def _read_cache(path: Path, description: str, fingerprint: str) -> Counts | None:
    """The cached counts when the file exists, parses and matches the KB; else ``None``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or data.get("version") != CACHE_VERSION or data.get("kb") != description
            or data.get("fingerprint") != fingerprint or not isinstance(data.get("counts"), dict)):
        return None
    return Counts(description, fingerprint, data["counts"], list(data.get("errors", [])),
                  float(data.get("seconds", 0.0)), from_cache=True, path=str(path))
