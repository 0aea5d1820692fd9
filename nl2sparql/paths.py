"""Where the project's shipped data and caches live.

``data/`` (the embedded sample KB and the shipped pools) sits next to the
package in a checkout; ``NL2SPARQL_DATA`` points elsewhere. ``cache/`` holds
step caches and the LLM response cache (``NL2SPARQL_CACHE`` overrides).
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """The directory holding ``sample/`` and ``pools/``."""
    return Path(os.environ.get("NL2SPARQL_DATA", PROJECT_ROOT / "data"))


def sample_files() -> list[Path]:
    """The RDF files of the embedded LiITA sample."""
    sample = data_dir() / "sample"
    return sorted(p for p in sample.glob("*") if p.suffix in (".trig", ".ttl", ".nq", ".nt", ".gz"))


def pools_dir() -> Path:
    """The directory of the shipped example pools."""
    return data_dir() / "pools"


def cache_dir() -> Path:
    """The directory for step caches and response caches (created on demand)."""
    path = Path(os.environ.get("NL2SPARQL_CACHE", PROJECT_ROOT / "cache"))
    path.mkdir(parents=True, exist_ok=True)
    return path
