"""Atomic file writing, shared by the pipeline, the scorer's reports and the pools.

A file is written to a temporary name in the same directory, flushed to disk,
then moved onto its final name, so readers never see half a file and a killed
process never leaves one behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable


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


def write_jsonl(path: Path, rows: Iterable[dict]) -> int:
    """Write rows as JSON lines atomically; returns the number written."""
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return len(lines)
