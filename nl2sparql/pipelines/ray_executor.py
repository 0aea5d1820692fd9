"""The Ray executor: each shard of a run is a Ray task with its own KB connection (``pip install -e ".[ray]"``).

A task opens the KB itself (an on-disk store, an endpoint or the sample,
from the keyword arguments of :func:`~nl2sparql.kb.open_kb`), makes its
shard into the shared cache directory and returns the shard's manifest;
:func:`~.executors.run_sharded` then merges the pools. Without an address a
local Ray instance is started for the call (``workers`` CPUs, default: one per
shard up to the CPU count) and stopped after it; with one (``auto``, ``host:port``) the tasks go to that cluster.
"""

from __future__ import annotations

from ..errors import ConfigError, Nl2SparqlError
from .generation import RunConfig
from .shards import Shard, make_shard


def _ray():
    try:
        import ray
    except ImportError:
        raise ConfigError('the Ray executor needs ray: pip install -e ".[ray]" (or use --executor local)') from None
    return ray


def make_shards_on_ray(config: RunConfig, kb_spec: dict, shards: list[Shard], unit_size: int, *,
                       resume: bool = False, address: str | None = None, workers: int | None = None) -> list[dict]:
    """Make ``shards`` as Ray tasks (one CPU each); their manifests, in shard order."""
    ray = _ray()

    started = not ray.is_initialized()
    if started:
        import os
        local = workers or min(len(shards), os.cpu_count() or 1)
        options = {"address": address} if address else {"num_cpus": local}
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **options)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(make_shard)
        try:
            return ray.get([task.remote(config, kb_spec, shard, unit_size, resume) for shard in shards])
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Nl2SparqlError):
                raise cause from None  # the task's own one-line error
            raise Nl2SparqlError(f"a Ray task failed: {' '.join(str(cause or exc).split())[:300]}") from None
    finally:
        if started:
            ray.shutdown()
