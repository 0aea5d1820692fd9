"""Per-KB artefacts: values computed from a KB's content once, kept on disk and shared.

The lemma lexicon of the concept mapper, the KB profile (``kb info``), the generator's sampled facts
and its scan counts are functions of what a KB holds. Computing them takes seconds to tens of
seconds on the real-scale LiITA mirror, so each is built once per KB content and then

* kept in ``<cache>/kb/<kb>/<name>.json`` (``<cache>``: :func:`nl2sparql.paths.cache_dir`;
  ``<kb>``: the store's directory name, or ``sample``, or the endpoint's host, with a short hash of
  where it is), written atomically;
* loaded lazily, the first time a call needs it, and kept for the process: every later call and
  thread gets the same object, and one thread builds while the others wait for it;
* shared with other processes through the file, a lock file making a second process wait for the
  first one's build instead of repeating it.

Each file records the KB's *content fingerprint*, cheap to read (:func:`kb_key`): for an on-disk
Oxigraph store the names and sizes of its files and its RocksDB identity (a store is never rewritten
in place: a load or compaction makes new files), for a store loaded from RDF files their bytes (small
files) or sizes and modification times, for a remote endpoint nothing: its artefacts are rebuilt after a
time-to-live (``NL2SPARQL_KB_TTL`` seconds, default a day). A file built for other content, by another
version of the builder, too old, or unreadable is rebuilt, with one line of notice; a cache directory
that cannot be written only costs the next process the build. A KB of no known origin (one made in
code) keeps its artefacts in memory only.

Clear them with ``rm -rf <cache>/kb`` (or one KB's folder); nothing else depends on them.
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import json
import os
import re
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

#: The layout of an artefact file; another value means the file is stale.
FORMAT = 1
#: Files up to this size are fingerprinted by their bytes, larger ones by size and modification time.
HASH_LIMIT = 32 * 1024 * 1024
#: The time-to-live of a remote endpoint's artefacts, in seconds (``NL2SPARQL_KB_TTL`` overrides it).
REMOTE_TTL = 24 * 3600.0
#: How long a process waits for another one's build of the same artefact before building it itself.
LOCK_WAIT = 600.0
#: Builds that take longer than this say so when they finish (a person was kept waiting).
SLOW_BUILD = 1.0


@dataclass(frozen=True)
class KBKey:
    """Where a KB's artefacts live and which content they must match.

    ``identity``: where the KB is (a store path, the files it was loaded from, an endpoint URL, and its
    service map). ``fingerprint``: what it holds (``None``: unknown, the artefacts expire after ``ttl``).
    """

    identity: str
    label: str
    fingerprint: str | None
    ttl: float | None = None

    @property
    def folder(self) -> str:
        """The artefact folder's name: a readable label and a short hash of the identity."""
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", self.label).strip("-")[:40] or "kb"
        return f"{slug}-{hashlib.sha256(self.identity.encode()).hexdigest()[:12]}"


def _notify(line: str) -> None:
    print(f"nl2sparql: {line}", file=sys.stderr, flush=True)


#: Where notices and build progress go (one line each); tests and front ends may replace it.
notify: Callable[[str], None] = _notify


def _say(line: str) -> None:
    notify(line)  # looked up at call time, so a replaced ``notify`` is used


# -- fingerprints ----------------------------------------------------------------------
def store_fingerprint(path: Path) -> str:
    """A store directory's content fingerprint: its files' names and sizes, RocksDB's identity and our marker.

    The info logs (``LOG*``) and the ``LOCK`` file change without the content changing; they are left out.
    """
    parts = []
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        if not entry.is_file() or entry.name == "LOCK" or entry.name.startswith("LOG"):
            continue
        size = entry.stat().st_size
        if entry.name in ("IDENTITY", "CURRENT") or entry.name.endswith(".json"):
            parts.append(f"{entry.name}\t{Path(entry.path).read_bytes().hex()}")
        else:
            parts.append(f"{entry.name}\t{size}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def files_fingerprint(files) -> str:
    """RDF files' content fingerprint: the bytes of small files, the size and mtime of large ones."""
    digest = hashlib.sha256()
    for f in sorted(Path(p).resolve() for p in files):
        stat = f.stat()
        digest.update(f"{f.name}\t{stat.st_size}\n".encode())
        if stat.st_size <= HASH_LIMIT:
            digest.update(hashlib.sha256(f.read_bytes()).digest())
        else:
            digest.update(str(stat.st_mtime_ns).encode())
    return digest.hexdigest()[:24]


def remote_ttl() -> float:
    """The time-to-live of a remote endpoint's artefacts (``NL2SPARQL_KB_TTL`` seconds, else a day)."""
    raw = os.environ.get("NL2SPARQL_KB_TTL")
    try:
        return max(0.0, float(raw)) if raw else REMOTE_TTL
    except ValueError:
        return REMOTE_TTL


def kb_key(kb) -> KBKey | None:
    """The :class:`KBKey` of an open KB (``None`` for one of no known origin); computed once per KB object."""
    cached = getattr(kb, "_artefact_key", None)
    if cached is not None:
        return cached
    key = _compute_key(kb)
    if key is not None:
        try:
            kb._artefact_key = key
        except AttributeError:
            pass
    return key


def _compute_key(kb) -> KBKey | None:
    from .base import LimitedKB
    from .embedded import EmbeddedKB
    from .remote import RemoteKB

    if isinstance(kb, LimitedKB):  # a view with other default limits: the same content as the KB it shows
        return kb_key(kb.kb)

    if isinstance(kb, EmbeddedKB):
        services = json.dumps([sorted(kb.services.items()), sorted(kb.remote_services.items())])
        origin = getattr(kb, "origin", None)
        if not origin:
            return None
        paths = [Path(p).resolve() for p in origin]
        if len(paths) == 1 and paths[0].is_dir():
            store = paths[0]
            return KBKey(f"store:{store}\t{services}", store.name, store_fingerprint(store))
        label = "sample" if kb.description == "sample" else paths[0].stem
        return KBKey("files:" + "\t".join(map(str, paths)) + f"\t{services}", label, files_fingerprint(paths))
    if isinstance(kb, RemoteKB):
        from urllib.parse import urlsplit
        services = json.dumps(sorted(kb.services.describe().items()))
        return KBKey(f"endpoint:{kb.url}\t{services}", urlsplit(kb.url).hostname or "endpoint", None, remote_ttl())
    return None


def builder_version(func: Callable, extra: str = "") -> str:
    """A version for an artefact built by ``func``: a hash of its module's source (and ``extra``), so that a
    change to how it is built makes the cached files stale."""
    try:
        source = Path(inspect.getsourcefile(func)).read_bytes()
    except (OSError, TypeError):
        source = func.__qualname__.encode()
    return hashlib.sha256(source + extra.encode()).hexdigest()[:16]


# -- the cache ---------------------------------------------------------------------------
_MEMORY: dict[tuple, Any] = {}
_BY_OBJECT: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()
_LOCKS: dict[tuple, threading.Lock] = {}
_GUARD = threading.Lock()


def artefact_root() -> Path:
    """The folder holding every KB's artefact folder."""
    from ..paths import cache_dir
    return cache_dir() / "kb"


def artefact_path(key: KBKey, name: str) -> Path:
    """The file of artefact ``name`` of the KB with ``key``."""
    return artefact_root() / key.folder / f"{name}.json"


def _where(key: KBKey, name: str) -> Path | None:
    """:func:`artefact_path`, or ``None`` (kept in memory only, with a notice) when the cache cannot be made."""
    try:
        return artefact_path(key, name)
    except OSError as exc:
        _say(f"no cache directory for the KB's artefacts ({exc.strerror or exc}); each process builds them again "
             "(set NL2SPARQL_CACHE to a writable folder)")
        return None


def get_artefact(kb, name: str, build: Callable[[], Any], *, version: str, what: str,
                 persist: bool = True) -> Any:
    """Artefact ``name`` of ``kb``: from memory, else from its file, else built by ``build()`` (and kept).

    ``build`` returns a JSON-serialisable value; ``version`` identifies how it is built (see
    :func:`builder_version`); ``what`` names it in notices (``"the lemma lexicon"``). ``persist=False``
    keeps it in memory only. Threads asking at once wait for one build; so do processes sharing the
    cache directory.
    """
    key = kb_key(kb)
    if key is None:
        return _for_object(kb, name, version, build)
    memo = (key.identity, key.fingerprint, name, version)
    with _GUARD:
        lock = _LOCKS.setdefault(memo, threading.Lock())
    with lock:
        if memo in _MEMORY and _fresh(key, _MEMORY[memo][0]):
            return _MEMORY[memo][1]
        path = _where(key, name) if persist else None
        value, built_at = _load_or_build(kb, key, path, name, version, what, build)
        _MEMORY[memo] = (built_at, value)
        return value


def forget(kb=None) -> None:
    """Drop the artefacts kept in memory (of ``kb`` only, or all); the files stay."""
    with _GUARD:
        if kb is None:
            _MEMORY.clear()
            _BY_OBJECT.clear()
            return
        key = kb_key(kb)
        for memo in [m for m in _MEMORY if key is not None and m[0] == key.identity]:
            del _MEMORY[memo]
        _BY_OBJECT.pop(kb, None)


def _for_object(kb, name: str, version: str, build: Callable[[], Any]) -> Any:
    """In-memory artefacts of a KB of no known origin (kept while the KB object lives)."""
    with _GUARD:
        try:
            table = _BY_OBJECT.setdefault(kb, {})
        except TypeError:  # not weakly referable: nothing is kept
            return build()
        # one lock per artefact, not per KB: a build may need another artefact, built by another thread
        # (the sampler's facts wait on the KB profile, made in a pool), which a KB-wide lock would deadlock
        lock = table.setdefault(("lock", name, version), threading.Lock())
    with lock:
        if (name, version) not in table:
            table[(name, version)] = build()
        return table[(name, version)]


def _fresh(key: KBKey, built_at: float) -> bool:
    return key.ttl is None or time.time() - built_at < key.ttl


def _load_or_build(kb, key: KBKey, path: Path | None, name: str, version: str, what: str,
                   build: Callable[[], Any]) -> tuple[Any, float]:
    if path is not None:
        found = _read(key, path, version, what)
        if found is not None:
            return found
    if path is None:
        return _build(kb, key, what, build, "once per process")
    with _FileLock(path.with_suffix(".lock")) as locked:
        if locked.waited:  # another process built it meanwhile
            found = _read(key, path, version, what, quiet=True)
            if found is not None:
                return found
        value, built_at = _build(kb, key, what, build)
        _write(path, {"format": FORMAT, "artefact": name, "version": version, "kb": key.identity,
                      "fingerprint": key.fingerprint, "built_at": built_at, "value": value})
        return value, built_at


def _build(kb, key: KBKey, what: str, build: Callable[[], Any],
           how_often: str = "once for this KB's content; kept in the cache") -> tuple[Any, float]:
    start = time.perf_counter()
    # said before a build that may take a while; a build in under a second stays quiet
    timer = threading.Timer(SLOW_BUILD, _say, [f"building {what} of {kb.description} ({how_often})…"])
    timer.daemon = True
    timer.start()
    try:
        value = build()
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    if seconds >= SLOW_BUILD:
        _say(f"built {what} of {kb.description} in {seconds:.1f} s")
    return value, time.time()


def _read(key: KBKey, path: Path, version: str, what: str, quiet: bool = False) -> tuple[Any, float] | None:
    """The artefact's value and build time from its file; ``None`` (with a notice) when it must be rebuilt."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        return _stale(path, what, f"unreadable ({type(exc).__name__})", quiet)
    try:
        data = json.loads(text)
        fields = (data["format"], data["version"], data["kb"], data["fingerprint"], float(data["built_at"]))
        value = data["value"]
    except (ValueError, KeyError, TypeError):
        return _stale(path, what, "corrupt", quiet)
    if fields[0] != FORMAT or fields[1] != version:
        return _stale(path, what, "made by another version of nl2sparql", quiet)
    if fields[2] != key.identity or fields[3] != key.fingerprint:
        return _stale(path, what, "built for other content of this KB", quiet)
    if not _fresh(key, fields[4]):
        return _stale(path, what, f"older than its time-to-live ({key.ttl:g} s)", quiet)
    return value, fields[4]


def _stale(path: Path, what: str, why: str, quiet: bool) -> None:
    if not quiet:
        _say(f"the cached {what} ({path}) is {why}; rebuilding it")
    return None


def _write(path: Path, record: dict) -> None:
    from ..fileio import atomic_write_text
    try:
        atomic_write_text(path, json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    except OSError as exc:
        _say(f"could not keep an artefact in {path.parent} ({exc.strerror or exc}); "
             "the next process builds it again")


class _FileLock:
    """An exclusive ``flock`` on ``path`` for one build, waited for at most :data:`LOCK_WAIT` seconds.

    ``waited`` says whether another process held it (then its result may be on disk). Where the lock
    cannot be taken (a read-only cache), the build goes ahead unlocked.
    """

    def __init__(self, path: Path):
        self.path, self.fd, self.waited = path, None, False

    def __enter__(self) -> "_FileLock":
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            return self
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                self.waited = True
                if time.monotonic() > deadline:
                    return self  # the other build seems stuck: build without it
                time.sleep(0.1)

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            finally:
                os.close(self.fd)
