"""Running all the shards of a run, then merging them: here one after another, or as Ray tasks.

``run_sharded`` makes shards ``1/n … n/n`` of a run (:mod:`.shards`) and
merges them into ``config.out``. The ``local`` executor makes them one after
another in this process, on one KB; the ``ray`` executor
(:mod:`.ray_executor`, ``pip install -e ".[ray]"``) makes each as a Ray
task that opens its own KB from ``kb_spec`` (the keyword arguments of
:func:`~nl2sparql.kb.open_kb`). Both give the same pool: a shard's examples do
not depend on where it ran. The shard pools go to the cache directory
(on a Ray cluster it must be shared by the nodes).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError, DataError
from .generation import ProgressFactory, RunConfig
from .shards import DEFAULT_UNIT_SIZE, Shard, check_shards, merge_pools, run_shard, shard_config
from .storage import check_output_path

EXECUTORS = ("local", "ray")


def run_sharded(config: RunConfig, shards: int, *, kb=None, kb_spec: dict | None = None,
                unit_size: int = DEFAULT_UNIT_SIZE, executor: str = "local", address: str | None = None,
                workers: int | None = None, resume: bool = False, force: bool = False,
                progress: ProgressFactory | None = None) -> dict:
    """Make every shard of ``config`` with ``executor`` and merge them into ``config.out``; the merge manifest.

    The local executor uses the open ``kb`` when given, else opens one from ``kb_spec``; Ray tasks
    always open their own from ``kb_spec``. ``address`` (Ray): a running cluster (``auto`` or
    ``host:port``), else a local instance of ``workers`` CPUs (default: one per shard, up to the CPU
    count) is started and stopped.
    """
    from ..checks import check_count
    shards = check_count(shards, "--shards", 1, 100_000)
    if executor not in EXECUTORS:
        raise ConfigError(f"unknown executor {executor!r}: use {' or '.join(EXECUTORS)}")
    check_shards(shards, config.target, check_count(unit_size, "--unit-size", 1))
    out = check_output_path(Path(config.out))
    if out.exists() and not force:
        raise DataError(f"{out} exists; pass --force to replace it (nothing was changed)")
    every = [Shard(i, shards) for i in range(1, shards + 1)]
    if executor == "ray":
        if kb_spec is None:
            raise ConfigError("the Ray executor opens a KB in each task: name it (a store directory, an endpoint "
                              "URL or the sample) instead of passing an open KB")
        from .ray_executor import make_shards_on_ray
        make_shards_on_ray(config, kb_spec, every, unit_size, resume=resume, address=address, workers=workers)
    else:
        from contextlib import nullcontext

        from ..kb import open_kb
        with (nullcontext(kb) if kb is not None else open_kb(**kb_spec)) as local:
            for shard in every:
                run_shard(shard_config(config, shard), local, shard, unit_size, resume=resume, force=True,
                          progress=progress)
    return merge_pools([Path(shard_config(config, s).out) for s in every], out, force=True)
