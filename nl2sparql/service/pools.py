"""Pools by file or by name: the shipped pools install with the package and can be named (``sample``, ``handwritten``)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..errors import DataError
from ..fileio import need_file

PoolsLike = Sequence[str | Path] | str | Path | None


def shipped_pools() -> dict[str, Path]:
    """The pools installed with the package, by name (``sample_pool``, ``handwritten``)."""
    from ..paths import pools_dir
    folder = pools_dir()
    return {p.stem: p for p in sorted(folder.glob("*.jsonl"))} if folder.is_dir() else {}


def resolve_pool(pool: str | Path) -> Path:
    """A pool file path, or the name of a shipped pool (``sample``/``sample_pool``, ``handwritten``)."""
    shipped = shipped_pools()
    name = str(pool)
    for key in (name, f"{name}_pool"):
        if key in shipped and not Path(name).exists():
            return shipped[key]
    path = Path(pool)
    if not path.exists():
        known = ", ".join(sorted(shipped)) or "none"
        raise DataError(f"{path}: no such pool file (give a path, or a shipped pool: {known})")
    return need_file(path, "pool file")


def resolve_pools(pools: PoolsLike) -> list[Path]:
    """Pool files for retrieval: ``None`` means every shipped pool."""
    if pools is None:
        return list(shipped_pools().values())
    if isinstance(pools, (str, Path)):
        pools = [pools]
    return [resolve_pool(p) for p in pools]
