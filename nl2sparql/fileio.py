"""File I/O shared by the pipeline, the scorer, the translator and the pools.

Reading: JSON lines and pools (a JSON array, or JSON lines read one line at
a time so a large pool is streamed), with one clear error line naming the
file and line. Writing: a file is written to a temporary name in the same directory, flushed to disk,
then moved onto its final name, so readers never see half a file and a killed
process never leaves one behind.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .errors import DataError


#: What to do after a full disk, unless the command says better (``run``: rerun with --resume).
AGAIN = "free some space and run the command again"


class DiskFull(DataError):
    """A write found no space left (or the quota spent); what was written before is intact."""

    def __init__(self, path: Path | str, then: str = AGAIN):
        self.path, self.then = Path(path), then
        super().__init__(f"no space left on {mount_point(self.path)} while writing {self.path}; nothing was lost: "
                         f"{then}")

    def saying(self, then: str) -> "DiskFull":
        """The same error with the command's own advice."""
        return DiskFull(self.path, then)


def mount_point(path: Path) -> Path:
    """The mount point of the file system that holds (or would hold) ``path``."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    device = path.stat().st_dev
    while path != path.parent and path.parent.stat().st_dev == device:
        path = path.parent
    return path


def no_space(exc: BaseException) -> bool:
    """True for an error that says the disk is full: ``ENOSPC``, ``EDQUOT``, or SQLite's own words for it."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return "database or disk is full" in str(exc)


def atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Let ``write(tmp_path)`` produce the file, then move it onto ``path`` atomically.

    A full disk is one :class:`DiskFull` line; the file as it was is untouched and no temporary file is left.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        if no_space(exc):
            raise DiskFull(path) from None
        raise
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; keep the usual permissions
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if no_space(exc):
            raise DiskFull(path) from None
        raise


class LineLog:
    """A file that grows by whole lines: each :meth:`append` is written and synced whole, or not at all.

    A write that fails (a full disk) cuts the file back to where it was before raising, so no torn
    line is ever left; a kill mid-write can still leave one, which readers of such logs skip.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: int | None = None

    def append(self, text: str) -> None:
        """Append ``text`` (whole lines) and sync it; :class:`DiskFull` when there is no room for all of it."""
        data = text.encode("utf-8")
        try:
            if self._fd is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
            size = os.fstat(self._fd).st_size
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self._fd, view):]
                os.fsync(self._fd)
            except OSError:
                os.ftruncate(self._fd, size)
                raise
        except OSError as exc:
            if no_space(exc):
                raise DiskFull(self.path) from None
            raise

    def close(self) -> None:
        """Close the file (a later append opens it again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


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
        self._log = LineLog(self.path)

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
        """Append finished items durably (all of them or none)."""
        self._log.append(jsonl_text(items))

    def discard(self) -> None:
        """Close and delete the log."""
        self._log.close()
        self.path.unlink(missing_ok=True)


class OutputLock:
    """``<out>.lock``: one writer per output file (``run``, ``ask``, a shard), held with a kernel ``flock``.

    The kernel releases the lock when its holder ends in any way (SIGKILL included), so a lock file
    left behind is simply taken, and two writers can never both hold it: there is no window between
    reading an owner and taking over. The file holds the holder's pid, for the message a second
    writer gets; it is removed on release. Use as a context manager.
    """

    def __init__(self, out: Path):
        self.out = Path(out)
        self.path = self.out.with_name(self.out.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`DataError` naming the process that holds it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for _ in range(10):
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    owner = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
                    os.close(fd)
                    raise DataError(f"{self.out} is being written by another run (pid {owner}); wait for it to "
                                    f"finish or choose another --out (lock: {self.path})") from None
                if self._same_file(fd):
                    os.ftruncate(fd, 0)
                    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
                    self._fd = fd
                    return
                os.close(fd)  # its holder removed it between our open and our lock: take the new one
        except OSError as exc:
            if no_space(exc):
                raise DiskFull(self.path) from None
            raise
        raise DataError(f"cannot take the lock {self.path}; remove it if no run is writing {self.out}")

    def _same_file(self, fd: int) -> bool:
        try:
            return os.fstat(fd).st_ino == os.stat(self.path).st_ino
        except FileNotFoundError:
            return False

    def release(self) -> None:
        """Remove the lock file and let the lock go (removed first, while still held: see :meth:`acquire`)."""
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> "OutputLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
