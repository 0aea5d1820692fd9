"""Embedding many questions: each distinct text once, cached by text, in several processes.

Every pool index gets its question vectors from :func:`embed_texts`:

* identical texts are embedded once;
* vectors are kept in float16, in the index files and in a cache by text
  (``<cache>/embeddings/<embedder>.sqlite``, the SHA-1 of the text → 2 bytes
  per dimension), so a pool whose questions were embedded before (a filtered
  copy for ``evaluate``, a merged pool, a regenerated pool that keeps most
  questions) costs a lookup instead of the encoder. float16 changes a cosine
  by less than 1e-4; the vectors are rounded the same way whether they were
  just computed, cached or shipped prebuilt, so every path ranks alike;
* what is left is encoded in worker processes forked from this one (the
  model is loaded first and shared copy-on-write), one BLAS thread each:
  ``NL2SPARQL_EMBED_WORKERS`` (default: the CPU count, at most 4; 1 turns it
  off). The USE encoder is compute-bound, so this is what more cores buy.
"""

from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import sqlite3
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .embedders import Embedder, encode_batched

Progress = Callable[[int, int], None]
#: Encode in processes only when this many texts are left (forking costs more than a few batches).
PARALLEL_FROM = 2048
_CHUNK = 256
_SQL_BATCH = 500


def rounded(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` through float16 and back: the precision every stored index vector has."""
    return np.asarray(matrix, dtype=np.float16).astype(np.float32)


class TextVectors:
    """Vectors of one embedder by text (SHA-1), float16, in one SQLite file; unreadable means empty."""

    def __init__(self, path: Path, dim: int):
        self.path = Path(path)
        self.dim = dim

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("CREATE TABLE IF NOT EXISTS vec (key BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID")
        return db

    @staticmethod
    def key(text: str) -> bytes:
        """The cache key of a text."""
        return hashlib.sha1(text.encode("utf-8")).digest()

    def get(self, texts: Sequence[str]) -> dict[int, np.ndarray]:
        """``{position: float16 vector}`` for the texts found."""
        keys = [self.key(t) for t in texts]
        where = {k: i for i, k in enumerate(keys)}
        found: dict[int, np.ndarray] = {}
        try:
            with self._connect() as db:
                for start in range(0, len(keys), _SQL_BATCH):
                    part = keys[start:start + _SQL_BATCH]
                    marks = ",".join("?" * len(part))
                    for key, blob in db.execute(f"SELECT key, v FROM vec WHERE key IN ({marks})", part):
                        vector = np.frombuffer(blob, dtype=np.float16)
                        if vector.shape == (self.dim,) and np.isfinite(vector).all():
                            found[where[bytes(key)]] = vector
        except (sqlite3.Error, OSError):
            return {}
        return found

    def put(self, texts: Sequence[str], matrix: np.ndarray) -> str | None:
        """Store vectors; the reason when the cache cannot be written (then it is simply not used)."""
        half = np.asarray(matrix, dtype=np.float16)
        try:
            with self._connect() as db:
                db.executemany("INSERT OR REPLACE INTO vec (key, v) VALUES (?, ?)",
                               ((self.key(t), half[i].tobytes()) for i, t in enumerate(texts)))
        except (sqlite3.Error, OSError) as exc:
            return f"{exc} ({self.path})"
        return None


def text_cache(embedder: Embedder, root: Path | None = None) -> TextVectors:
    """The text cache of ``embedder`` under ``root`` (default: the project cache)."""
    import re

    from ..paths import cache_dir
    base = Path(root) if root is not None else cache_dir()
    return TextVectors(base / "embeddings" / (re.sub(r"[^A-Za-z0-9._-]+", "_", embedder.name)[:60] + ".sqlite"),
                       embedder.dim)


def embed_texts(embedder: Embedder, texts: Sequence[str], *, cache: TextVectors | None = None,
                progress: Progress | None = None, warnings: list[str] | None = None) -> np.ndarray:
    """float32 vectors (rounded through float16) for ``texts``, each distinct text encoded at most once."""
    distinct = list(dict.fromkeys(texts))
    where = {t: i for i, t in enumerate(distinct)}
    vectors = np.zeros((len(distinct), embedder.dim), dtype=np.float16)
    found = cache.get(distinct) if cache is not None else {}
    for i, vector in found.items():
        vectors[i] = vector
    todo = [i for i in range(len(distinct)) if i not in found]
    if todo:
        fresh = _encode([distinct[i] for i in todo], embedder, progress, done=len(found), total=len(distinct))
        vectors[todo] = fresh
        if cache is not None:
            problem = cache.put([distinct[i] for i in todo], fresh)
            if problem and warnings is not None:
                warnings.append(f"could not cache question vectors: {problem}")
    elif progress is not None:
        progress(len(distinct), len(distinct))
    out = vectors.astype(np.float32)
    return out[[where[t] for t in texts]] if len(distinct) < len(texts) else out


def embed_workers() -> int:
    """Processes for a large encode: ``NL2SPARQL_EMBED_WORKERS``, else the CPU count (at most 4)."""
    try:
        return max(1, int(os.environ.get("NL2SPARQL_EMBED_WORKERS") or min(4, os.cpu_count() or 1)))
    except ValueError:
        return 1


def _encode(texts: list[str], embedder: Embedder, progress: Progress | None, done: int, total: int) -> np.ndarray:
    def report(n: int, _: int) -> None:
        if progress is not None:
            progress(done + n, total)

    workers = embed_workers()
    if workers < 2 or len(texts) < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        return encode_batched(embedder, texts, progress=report)
    first = encode_batched(embedder, texts[:_CHUNK])  # loads the model before forking: the workers share it
    chunks = [texts[i:i + _CHUNK] for i in range(_CHUNK, len(texts), _CHUNK)]
    out = [first]
    global _WORKER_EMBEDDER
    _WORKER_EMBEDDER = embedder
    try:
        with mp.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(_encode_chunk, chunks):
                out.append(part)
                report(sum(len(o) for o in out), len(texts))
    finally:
        _WORKER_EMBEDDER = None
    return np.concatenate(out)


_WORKER_EMBEDDER: Embedder | None = None


def _encode_chunk(texts: list[str]) -> np.ndarray:
    from .embedders import blas_threads
    with blas_threads(1):
        return np.asarray(_WORKER_EMBEDDER.encode(texts), dtype=np.float16)
