"""A persistent response cache in sqlite, so a re-run makes no request it already made.

The key is the sha256 of the model, the messages and every sampling parameter
(temperature, max_tokens, seed, response_format, ...): change any of them and
the request is new. One connection guarded by a lock serves all threads; each
write is its own transaction, so a crash never leaves half an entry, and
several processes may share the file (sqlite locking, WAL journal where the
file system allows it).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from .config import CACHE_HINT

KEY_VERSION = "nl2sparql-llm-cache-v1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_cache (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(model: str, messages: Sequence[Mapping[str, Any]], params: Mapping[str, Any]) -> str:
    """The sha256 hex digest identifying a request (model + messages + sampling params)."""
    canonical = json.dumps(
        {"v": KEY_VERSION, "model": model, "messages": list(messages), "params": dict(params)},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """A thread-safe sqlite map from request key to the stored answer (a JSON object)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False,
                                         isolation_level=None)
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
            except sqlite3.DatabaseError:
                pass  # e.g. a network file system: the default journal is fine
            self._conn.execute(_SCHEMA)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise ConfigError(f"cannot open the LLM cache {self.path}: {exc} ({CACHE_HINT})") from None
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer for ``key``, or None."""
        with self._lock:
            row = self._conn.execute("SELECT response FROM llm_cache WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None  # a damaged entry counts as a miss and is overwritten by the next answer
        return value if isinstance(value, dict) else None

    def put(self, key: str, model: str, response: Mapping[str, Any]) -> None:
        """Store ``response`` under ``key`` (replacing any older entry) in one transaction."""
        payload = json.dumps(dict(response), ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO llm_cache (key, model, response, created) VALUES (?, ?, ?, ?)",
                    (key, model, payload, time.time()))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def __len__(self) -> int:
        """The number of stored answers."""
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0]

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()
