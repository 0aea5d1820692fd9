"""Where the project's shipped data and caches live.

The embedded sample KB and the shipped pools are package data
(``nl2sparql/data/``), so they install with the package; ``NL2SPARQL_DATA``
points elsewhere. ``cache/`` holds step caches, retrieval indexes and the LLM
response cache: in a source checkout the checkout's ``cache/``, otherwise
``$XDG_CACHE_HOME/nl2sparql`` (``~/.cache/nl2sparql``); ``NL2SPARQL_CACHE``
overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: The source checkout holding the package, or ``None`` when installed (no ``pyproject.toml`` beside it).
CHECKOUT: Path | None = PACKAGE_DIR.parent if (PACKAGE_DIR.parent / "pyproject.toml").is_file() else None


def data_dir() -> Path:
    """The directory holding ``sample/`` and ``pools/``."""
    return Path(os.environ.get("NL2SPARQL_DATA") or PACKAGE_DIR / "data")


def sample_files() -> list[Path]:
    """The RDF files of the embedded LiITA sample."""
    sample = data_dir() / "sample"
    return sorted(p for p in sample.glob("*") if p.suffix in (".trig", ".ttl", ".nq", ".nt", ".gz"))


def pools_dir() -> Path:
    """The directory of the shipped example pools."""
    return data_dir() / "pools"


def default_cache_root() -> Path:
    """The cache directory before ``NL2SPARQL_CACHE`` is applied."""
    if CHECKOUT is not None:
        return CHECKOUT / "cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nl2sparql"


def cache_dir() -> Path:
    """The directory for step caches and response caches (created on demand)."""
    path = Path(os.environ.get("NL2SPARQL_CACHE") or default_cache_root())
    path.mkdir(parents=True, exist_ok=True)
    return path
