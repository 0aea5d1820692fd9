"""Ray speed-up: the same sharded run on a local Ray instance of 1 CPU, then of 2.

    python bench/shards.py --store cache/test-mirror-store-* --target 2000 --shards 2

Each shard is a Ray task that opens its own KB (``--memory``: its own in-memory
copy of the store) with ``--threads`` query workers. With 1 CPU Ray runs the
tasks one after another; with 2 at once. Prints both wall times, the
speed-up, and checks that the two merged pools are the same bytes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.pipelines.executors import run_sharded  # noqa: E402
from nl2sparql.pipelines.generation import RunConfig  # noqa: E402


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--target", type=int, default=2000)
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--unit-size", type=int, default=500)
    parser.add_argument("--threads", type=int, default=1, help="query workers per shard")
    parser.add_argument("--memory", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="Ray CPUs to compare")
    args = parser.parse_args()
    spec = {"store": args.store, "timeout": args.timeout, "workers": args.threads, "memory": args.memory}
    times, pools = {}, {}
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
        for cpus in args.workers:
            out = Path(tmp) / f"pool_{cpus}.jsonl"
            config = RunConfig(target=args.target, seed=1, out=str(out), timeout=args.timeout, threads=args.threads,
                               kb=str(args.store), cache_dir=str(Path(tmp) / f"cache{cpus}"), prefix="bench")
            start = time.perf_counter()
            manifest = run_sharded(config, args.shards, kb_spec=spec, unit_size=args.unit_size, executor="ray",
                                   workers=cpus, force=True)
            times[cpus] = time.perf_counter() - start
            pools[cpus] = out.read_bytes()
            print(f"ray, {cpus} CPU(s), {args.shards} shards: kept {manifest.get('kept')} in {times[cpus]:.1f} s",
                  flush=True)
    base = args.workers[0]
    for cpus in args.workers[1:]:
        same = "same pool" if pools[cpus] == pools[base] else "POOLS DIFFER"
        print(f"speed-up {cpus} vs {base} CPU(s): {times[base] / times[cpus]:.2f}x ({same})")


if __name__ == "__main__":
    main()
