"""File I/O shared by the pipeline, the scorer, the translator and the pools.

Reading: JSON lines and pools (a JSON array, or JSON lines read one line at
a time so a large pool is streamed), with one clear error line naming the
file and line. Writing: a file is written to a temporary name in the same directory, flushed to disk,
then moved onto its final name, so readers never see half a file and a killed
process never leaves one behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .errors import DataError


def atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Let ``write(tmp_path)`` produce the file, then move it onto ``path`` atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; keep the usual permissions
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write a UTF-8 text file atomically."""
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def jsonl_text(rows: Iterable[dict]) -> str:
    """Rows as the text of a JSON lines file."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def write_jsonl(path: Path, rows: Iterable[dict]) -> int:
    """Write rows as JSON lines atomically; returns the number written."""
    rows = list(rows)
    atomic_write_text(path, jsonl_text(rows))
    return len(rows)


def need_file(path: Path, what: str = "file") -> Path:
    """``path`` when it is a regular file; one clear :class:`DataError` when it is missing, a directory or else."""
    path = Path(path)
    if path.is_dir():
        raise DataError(f"{path} is a directory, not a {what}; name a file in it")
    if not path.is_file():
        raise DataError(f"{path}: no such {what} (check the path)" if not path.exists()
                        else f"{path} is not a regular file (a {what} must be one)")
    return path


def iter_jsonl(path: Path, what: str = "file") -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` for each non-blank line of a JSONL file, read as it goes (never whole)."""
    path = need_file(path, what)
    try:
        handle = path.open(encoding="utf-8-sig")
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    number = 0
    with handle:
        try:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"{path} line {number}: not valid JSON ({exc.msg})") from None
                if not isinstance(obj, dict):
                    raise DataError(f"{path} line {number}: expected a JSON object")
                yield number, obj
        except UnicodeDecodeError as exc:
            raise DataError(f"{path}: not UTF-8 text ({exc.reason}, near line {number + 1})") from None


def iter_pool(path: Path) -> Iterator[dict]:
    """The items of a ``.jsonl`` pool one at a time (streamed), or of a ``.json`` array (read whole).

    Raises :class:`DataError` naming the file (and line) when it is not a pool.
    """
    path = need_file(path, "pool file")
    with path.open("rb") as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"["):
        for _, item in iter_jsonl(path, "pool file"):
            yield item
        return
    try:
        items = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise DataError(f"{path}: element {i} is not a JSON object (expected pool items with an 'nl' question)")
        yield item


def read_pool(path: Path) -> tuple[list[dict], str]:
    """The items of a ``.json`` array or ``.jsonl`` pool and the SHA-256 of its bytes."""
    items = list(iter_pool(path))
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return items, digest.hexdigest()


class Checkpoint:
    """An append-only JSON-lines log of finished work items inside one step.

    A long operator appends each finished item (fsync per batch); a resumed
    run reads it back and skips those items. A line torn by a kill is
    ignored. The log is removed once the step's file is written.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fh = None

    def load(self) -> dict[str, dict]:
        """Finished items by key (``key`` field of each line)."""
        done: dict[str, dict] = {}
        if not self.path.is_file():
            return done
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    item = json.loads(line)
                except ValueError:
                    break  # torn last line
                done[item["key"]] = item
        return done

    def append(self, items: list[dict]) -> None:
        """Append finished items durably."""
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8")
        for item in items:
            self._fh.write(json.dumps(item, ensure_ascii=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def discard(self) -> None:
        """Close and delete the log."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        self.path.unlink(missing_ok=True)
