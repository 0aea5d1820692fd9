"""The prebuilt dense index of the shipped pools (package data), and the command that rebuilds it.

A fresh install would otherwise embed every shipped question (about 9,500
with the default encoder) before its first translation. So the dense index
of each shipped pool (float16 vectors, the file the index cache would write)
ships in ``nl2sparql/data/pools/prebuilt/<pool>/``; the index cache reads it
when its key (the pool's SHA-256, the text fields, the encoder) matches, so a
changed pool is simply embedded again. After changing a shipped pool, run::

    python -m nl2sparql.translate.prebuilt          # rebuild what is stale
    python -m nl2sparql.translate.prebuilt --check  # list what is stale (exit 1 if any)

(``tests/test_prebuilt_index.py`` fails while a prebuilt index is stale.)
The BM25 tables are not shipped: they take a fraction of a second to build.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from ..errors import DataError
from ..fileio import read_pool
from .embedders import DEFAULT_EMBEDDER, Embedder, get_embedder
from .index_cache import DENSE_FORMAT, _sha, cache_dir_for, dense_name, load_or_build, prebuilt_dir
from .text import DEFAULT_TEXT_FIELDS


def shipped_pool_files() -> list[Path]:
    """The pool files installed with the package."""
    from ..paths import pools_dir
    return sorted(pools_dir().glob("*.jsonl"))


def expected_file(pool: Path, embedder: Embedder) -> Path:
    """The prebuilt dense index that matches ``pool`` as it is now."""
    _, digest = read_pool(pool)
    key = _sha(digest, "dense", embedder.name, DENSE_FORMAT, *DEFAULT_TEXT_FIELDS)
    return prebuilt_dir(pool) / dense_name(embedder, key)


def stale(embedder: Embedder) -> list[Path]:
    """The shipped pools whose prebuilt index is missing or outdated."""
    return [pool for pool in shipped_pool_files() if not expected_file(pool, embedder).is_file()]


def rebuild(embedder: Embedder, pools: list[Path], progress=None) -> list[Path]:
    """Embed ``pools`` again and replace their prebuilt files; the files written."""
    written = []
    for pool in pools:
        target = expected_file(pool, embedder)
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / pool.name  # a private copy: its index is built, never the shipped one
            shutil.copyfile(pool, copy)
            load_or_build(copy, embedder, progress=progress)
            built = cache_dir_for(copy) / target.name
            if not built.is_file():
                raise DataError(f"{pool}: the index was not written ({built})")
            shutil.rmtree(target.parent, ignore_errors=True)
            target.parent.mkdir(parents=True)
            shutil.copyfile(built, target)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: rebuild (or ``--check``) the prebuilt indexes of the shipped pools."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the stale pools (exit status 1 if any)")
    args = parser.parse_args(argv)
    embedder, reason = get_embedder(DEFAULT_EMBEDDER)
    if embedder is None:
        print(f"error: the default encoder is unavailable: {reason}", file=sys.stderr)
        return 2
    todo = stale(embedder)
    if args.check or not todo:
        for pool in todo:
            print(f"stale: {pool.name} (run: python -m nl2sparql.translate.prebuilt)")
        if not todo:
            print("every shipped pool has its prebuilt index")
        return 1 if todo else 0
    for path in rebuild(embedder, todo):
        print(f"wrote {path} ({path.stat().st_size >> 10} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
