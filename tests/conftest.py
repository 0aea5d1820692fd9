"""Session fixtures shared by the test modules.

* ``sample_kb``: the embedded LiITA sample (``open_sample()``), closed at the end.
* ``shared_dir``: the workspace's ``../shared`` next to the repository (may be absent).
* ``mirror_store``: an on-disk store of ``../shared/liita/mirror`` built once with
  :meth:`EmbeddedKB.build` and cached under
  ``cache/test-mirror-store-<hash of mirror/manifest.json + nl2sparql version + the
  store-building code>/``;
  skipped when the mirror is absent.

The scripted OpenAI-compatible server (``tests/llm_fake_server.py``) is
registered as a plugin, so its ``fake_llm`` fixture is available everywhere.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import nl2sparql
from nl2sparql.kb.embedded import MARKER, EmbeddedKB

pytest_plugins = ["llm_fake_server"]

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "cache"
STORE_PREFIX = "test-mirror-store-"


@pytest.fixture(scope="session")
def sample_kb():
    """The embedded sample KB (in memory, one worker)."""
    from nl2sparql.kb import open_sample

    kb = open_sample()
    yield kb
    kb.close()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` next to the repository checkout (it may not exist)."""
    return REPO.parent / "shared"


@pytest.fixture(scope="session")
def mirror_dir(shared_dir) -> Path:
    """``../shared/liita/mirror``; skips the test when it is absent."""
    mirror = shared_dir / "liita" / "mirror"
    if not (mirror / "manifest.json").is_file() or not list(mirror.glob("*.nq.gz")):
        pytest.skip(f"LiITA mirror not found at {mirror} (needs ../shared next to the repo)")
    return mirror


def _store_key(mirror: Path) -> str:
    """Hash of the mirror's manifest, the package version and the code that builds stores."""
    from nl2sparql.kb import embedded, loader

    digest = hashlib.sha256((mirror / "manifest.json").read_bytes())
    digest.update(nl2sparql.__version__.encode())
    for module in (embedded, loader):  # a changed build must not reuse an old store
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def mirror_store(mirror_dir) -> Path:
    """Directory of an on-disk store holding the whole mirror (built once, then reused).

    The build goes to a temporary directory next to the cache entry and is
    renamed into place only when complete (marker file written), so an
    interrupted run never leaves a half-built store that looks usable.
    """
    target = CACHE / f"{STORE_PREFIX}{_store_key(mirror_dir)}"
    if (target / MARKER).is_file():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    for stale in CACHE.glob(f"{STORE_PREFIX}*"):  # older mirror or package version
        if stale != target and stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)
    for leftover in CACHE.glob(f".{STORE_PREFIX}*"):  # builds killed more than two hours ago
        if time.time() - leftover.stat().st_mtime > 7200:
            shutil.rmtree(leftover, ignore_errors=True)
    if target.exists():  # no marker: an incomplete leftover
        shutil.rmtree(target, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{STORE_PREFIX}", dir=CACHE))
    try:
        start = time.perf_counter()
        EmbeddedKB.build(tmp / "store", sorted(mirror_dir.glob("*.nq.gz")), progress=False)
        print(f"\nbuilt the mirror test store in {time.perf_counter() - start:.1f} s -> {target}")
        try:
            os.rename(tmp / "store", target)
        except OSError:
            if not (target / MARKER).is_file():  # not a concurrent run that finished first
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target
