"""Per-pool retrieval indexes, built once and cached next to the pool file.

For ``POOL.jsonl`` the cache is the directory ``POOL.jsonl.nl2sparql-index/``:

* ``lexical-<key>.npz`` — which item each indexed question belongs to and the
  BM25 term counts (key: SHA-256 of the pool bytes + tokeniser settings);
* ``dense-<embedder>-<key>.npy`` — the float16 question embeddings (key: SHA-256
  of the pool bytes + text fields + embedder name), made by
  :func:`~.embed_cache.embed_texts` (each distinct text once, reusing vectors
  cached by text, in several processes).

Editing the pool or switching embedder changes the key, so the index is rebuilt
and stale files of the same kind are removed. Files are written to a temporary
name and moved into place with ``os.replace``. A missing, unreadable or corrupt
cache is rebuilt, and a pool directory that cannot be written falls back to
``cache/indexes/`` and then to no cache at all — with a warning, never an error.

The shipped pools also have a *prebuilt* index in the package data
(``nl2sparql/data/pools/prebuilt/<pool>/``, the same files), read when it
matches the pool: a fresh install answers its first question without embedding
the shipped questions. ``python -m nl2sparql.translate.prebuilt`` rebuilds it
after a shipped pool changes (a test fails while it is stale).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ..fileio import read_pool  # noqa: F401 - part of this module's API
from .bm25 import TokenTable
from .embed_cache import TextVectors, embed_texts, text_cache
from .embedders import Embedder
from .text import DEFAULT_TEXT_FIELDS, TOKENIZER_VERSION, item_texts, tokenize

CACHE_SUFFIX = ".nl2sparql-index"
Progress = Callable[[int, int], None]


@dataclass
class PoolIndex:
    """The searchable form of a list of pool items.

    ``texts[i]`` is a question of item ``text_item[i]`` (texts of one item are
    contiguous); ``tokens`` holds their BM25 terms; ``embeddings`` their unit
    vectors (``None`` without an embedder). ``key`` identifies the content.
    """

    texts: list[str]
    text_item: np.ndarray
    tokens: TokenTable
    embeddings: np.ndarray | None = None
    embedder_name: str | None = None
    key: str = ""
    from_cache: dict[str, bool] = field(default_factory=dict)


#: The format of the stored vectors (part of the dense key: an index of another format is rebuilt).
DENSE_FORMAT = "float16"


def build_pool_index(items: Sequence[dict], embedder: Embedder | None = None, *,
                     fields: Sequence[str] = DEFAULT_TEXT_FIELDS, stem: bool = True,
                     progress: Progress | None = None, cache: TextVectors | None = None) -> PoolIndex:
    """Index ``items`` in memory: their questions, BM25 term counts and (with ``embedder``) embeddings.

    ``cache``: vectors by text to reuse and extend (see :mod:`.embed_cache`).
    """
    texts, owners = _texts(items, fields)
    tokens = TokenTable.from_docs([tokenize(t, stem=stem) for t in texts])
    embeddings = (embed_texts(embedder, texts, cache=cache, progress=progress)
                  if embedder is not None else None)
    return PoolIndex(texts, owners, tokens, embeddings, embedder.name if embedder else None)


def cache_dir_for(pool: Path) -> Path:
    """Where the index of ``pool`` is cached: ``POOL.nl2sparql-index/`` beside it."""
    pool = Path(pool)
    return pool.with_name(pool.name + CACHE_SUFFIX)


def load_or_build(pool: Path, embedder: Embedder | None = None, *,
                  fields: Sequence[str] = DEFAULT_TEXT_FIELDS, stem: bool = True,
                  cache: bool = True, cache_root: Path | None = None,
                  progress: Progress | None = None) -> tuple[list[dict], PoolIndex, list[str]]:
    """Items and index of one pool file, from the cache when it matches, else built (and cached).

    ``cache_root`` puts the cache directory elsewhere (one sub-directory per pool).
    Returns ``(items, index, warnings)``.
    """
    pool = Path(pool)
    items, digest = read_pool(pool)
    texts, owners = _texts(items, fields)
    lex_key = _sha(digest, "lexical", TOKENIZER_VERSION, f"stem={stem}", *fields)
    dense_key = _sha(digest, "dense", embedder.name, DENSE_FORMAT, *fields) if embedder else None
    warnings: list[str] = []
    folders = _folders(pool, cache_root) if cache else []
    readable = folders + [prebuilt_dir(pool)]  # the shipped pools' own index, never written here
    hits = {"lexical": False, "dense": False}

    lex_name = f"lexical-{lex_key[:32]}.npz"
    tokens = _first(readable, lambda f: _load_lexical(f / lex_name, lex_key, owners))
    if tokens is None:
        tokens = TokenTable.from_docs([tokenize(t, stem=stem) for t in texts])
        _store(folders, pool, lex_name, lambda h: _save_lexical(h, lex_key, owners, tokens), warnings)
    else:
        hits["lexical"] = True

    embeddings = None
    if embedder is not None:
        name = dense_name(embedder, dense_key)
        embeddings = _first(readable, lambda f: _load_dense(f / name, len(texts), embedder.dim))
        if embeddings is None:
            vectors = text_cache(embedder, cache_root) if cache else None
            embeddings = embed_texts(embedder, texts, cache=vectors, progress=progress, warnings=warnings)
            _store(folders, pool, name, lambda h: np.save(h, embeddings.astype(np.float16), allow_pickle=False),
                   warnings)
        else:
            hits["dense"] = True
    key = _sha(lex_key, dense_key or "no-dense")
    index = PoolIndex(texts, owners, tokens, embeddings, embedder.name if embedder else None, key, hits)
    return items, index, warnings


def dense_name(embedder: Embedder, key: str) -> str:
    """The file name of a pool's dense index."""
    return f"dense-{_slug(embedder.name)}-{key[:32]}.npy"


def prebuilt_dir(pool: Path) -> Path:
    """Where a shipped pool's prebuilt index lives (package data; only the shipped pools have one)."""
    from ..paths import pools_dir
    return pools_dir() / "prebuilt" / Path(pool).name


def combined_key(indexes: Sequence[PoolIndex]) -> str:
    """One SHA-256 over the keys of several pool indexes (order matters)."""
    return _sha(*(ix.key for ix in indexes))


# -- helpers -----------------------------------------------------------------------------------

def _texts(items: Sequence[dict], fields: Sequence[str]) -> tuple[list[str], np.ndarray]:
    texts: list[str] = []
    owners: list[int] = []
    for i, item in enumerate(items):
        questions = item_texts(item, fields)
        texts.extend(questions)
        owners.extend([i] * len(questions))
    return texts, np.asarray(owners, dtype=np.int32)


def _sha(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:60]


def _folders(pool: Path, cache_root: Path | None) -> list[Path]:
    """Cache folders for ``pool`` in order of preference (beside the pool, then cache/indexes/)."""
    tag = pool.name + "-" + _sha(str(pool.resolve()))[:12] + CACHE_SUFFIX
    if cache_root is not None:
        return [Path(cache_root) / tag]
    from ..paths import default_cache_root
    fallback = Path(os.environ.get("NL2SPARQL_CACHE") or default_cache_root()) / "indexes" / tag
    return [cache_dir_for(pool), fallback]


def _first(folders: Sequence[Path], load: Callable):
    for folder in folders:
        found = load(folder)
        if found is not None:
            return found
    return None


def _store(folders: Sequence[Path], pool: Path, name: str, write: Callable,
           warnings: list[str]) -> None:
    """Write one cache file atomically into the first writable folder; warn when none is."""
    if not folders:
        return
    prefix = name[: name.rindex("-") + 1]
    reason = ""
    for folder in folders:
        try:
            _write_atomic(folder, name, write)
        except OSError as exc:
            reason = f"{exc.strerror or exc} ({exc.filename or folder})"
            continue
        _prune(folder, prefix, keep=name)
        return
    warnings.append(f"could not cache the index of {pool.name}: {reason}; it will be rebuilt next time")


def _write_atomic(folder: Path, name: str, write: Callable) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as handle:
            write(handle)
        os.replace(tmp, folder / name)
    finally:
        if tmp.exists():
            tmp.unlink()


def _prune(folder: Path, prefix: str, keep: str) -> None:
    for old in folder.glob(prefix + "*"):
        if old.name != keep and re.fullmatch(re.escape(prefix) + r"[0-9a-f]{32}\.np[yz]", old.name):
            try:
                old.unlink()
            except OSError:
                pass


def _save_lexical(handle, key: str, owners: np.ndarray, tokens: TokenTable) -> None:
    vocab = np.frombuffer("\n".join(tokens.vocab).encode("utf-8"), dtype=np.uint8)
    np.savez(handle, key=np.frombuffer(key.encode("ascii"), dtype=np.uint8), text_item=owners,
             vocab=vocab, doc_ptr=tokens.doc_ptr, term_ids=tokens.term_ids, counts=tokens.counts)


def _load_lexical(path: Path, key: str, owners: np.ndarray) -> TokenTable | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if bytes(data["key"]).decode("ascii") != key or not np.array_equal(data["text_item"], owners):
                return None
            raw = bytes(data["vocab"]).decode("utf-8")
            table = TokenTable(raw.split("\n") if raw else [], data["doc_ptr"].astype(np.int64),
                               data["term_ids"].astype(np.int32), data["counts"].astype(np.int32))
        ok = (table.n_docs == len(owners) and len(table.term_ids) == len(table.counts)
              == int(table.doc_ptr[-1]) and (not len(table.term_ids)
                                             or int(table.term_ids.max()) < len(table.vocab)))
        return table if ok else None
    except Exception:  # noqa: BLE001 — any unreadable cache is simply rebuilt
        return None


def _load_dense(path: Path, n_texts: int, dim: int) -> np.ndarray | None:
    if not path.is_file():
        return None
    try:
        matrix = np.load(path, allow_pickle=False)
    except Exception:  # noqa: BLE001
        return None
    if matrix.dtype != np.float16 or matrix.shape != (n_texts, dim) or not np.isfinite(matrix).all():
        return None
    return matrix.astype(np.float32)
