"""Benchmark the generation pipeline at real scale (an on-disk store of ../shared/liita/mirror).

    python bench/generate.py --target 10000 --threads 2 [--baseline-target 1000]

Prints examples/s, candidates/s through the execution filter, per-step
timings and the rejection reasons. Builds the mirror store under
``cache/bench-mirror-store`` on first use (or pass ``--store DIR``).
``--baseline-target N`` also runs N examples with the scan-aware composer
off (``max_scan=0``, every drawn shape executed) and prints the ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.kb import open_kb  # noqa: E402
from nl2sparql.kb.embedded import MARKER, EmbeddedKB  # noqa: E402
from nl2sparql.pipelines.generation import GenerationPipeline, RunConfig  # noqa: E402
from nl2sparql.pipelines.report import pool_stats  # noqa: E402
from nl2sparql.pipelines.storage import read_jsonl  # noqa: E402


def ensure_store(path: Path) -> float:
    """Build the mirror store at ``path`` unless it is there; returns the build time (0 if reused)."""
    if (path / MARKER).is_file():
        return 0.0
    mirror = REPO.parent / "shared" / "liita" / "mirror"
    files = sorted(mirror.glob("*.nq.gz"))
    if not files:
        sys.exit(f"no mirror at {mirror}: this benchmark needs ../shared next to the repository")
    start = time.perf_counter()
    EmbeddedKB.build(path, files, progress=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--oversample", type=float, default=RunConfig.oversample)
    parser.add_argument("--max-scan", type=int, default=2000)
    parser.add_argument("--store", type=Path, default=REPO / "cache" / "bench-mirror-store")
    parser.add_argument("--memory", action=argparse.BooleanOptionalAction, default=True,
                        help="copy the store into memory first, as `run --memory` does (default: yes)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "mirror_pool.jsonl")
    parser.add_argument("--baseline-target", type=int, default=0,
                        help="also run this many examples with max_scan=0 and print the ratio")
    args = parser.parse_args()

    build = ensure_store(args.store)
    if build:
        print(f"built the mirror store in {build:.1f} s")
    rate = run(args, args.target, args.max_scan, args.out)
    if args.baseline_target:
        print(f"\nbaseline: the same pipeline with max_scan=0 (every drawn shape executed), "
              f"target {args.baseline_target}")
        base = run(args, args.baseline_target, 0, args.out.with_name("mirror_pool_baseline.jsonl"))
        print(f"\nratio: {rate / base:.1f}x the baseline's examples/s")


def run(args, target: int, max_scan: int, out: Path) -> float:
    """One pipeline run on the mirror store; prints its report and returns examples/s."""
    start = time.perf_counter()
    kb = open_kb(store=args.store, timeout=args.timeout, workers=args.threads, memory=args.memory)
    opened = time.perf_counter() - start
    config = RunConfig(target=target, seed=args.seed, out=str(out), oversample=args.oversample,
                       max_scan=max_scan, timeout=args.timeout, threads=args.threads, kb=kb.description,
                       cache_dir=str(REPO / "bench" / "out" / "cache"),
                       prefix=f"bench_s{args.seed}_t{target}_m{max_scan}")
    with kb:
        manifest = GenerationPipeline(config, kb).run(resume=False, force=True)
    total = time.perf_counter() - start
    items = read_jsonl(out)
    steps = {s["operator"]: s for s in manifest["steps"]}
    filt = steps["ExecutionFilter"]["report"]
    ran = filt["rows_in"] - filt.get("not_run", 0)
    stats = pool_stats(items)
    print(f"kept {len(items)} examples (target {target}) in {total:.1f} s: {len(items) / total:.1f} examples/s "
          f"(KB opened in {opened:.1f} s{', copied into memory' if kb.path is None else ', on disk'})")
    print(f"execution filter: {ran} candidates run in {steps['ExecutionFilter']['seconds']:.1f} s = "
          f"{ran / max(steps['ExecutionFilter']['seconds'], 1e-9):.1f} candidates/s, {args.threads} worker(s); "
          f"query seconds {json.dumps(filt.get('query_seconds'))}")
    for s in manifest["steps"]:
        print(f"  {s['operator']:<22} {s['seconds']:>8.1f} s  kept {s['report']['kept']}")
    print("rejected:", json.dumps(manifest["rejected"], sort_keys=True))
    print(f"multi-pattern share {stats['multi_pattern_share']:.0%}; labels missing: {stats['missing_labels'] or 'none'}")
    print("labels:", json.dumps(stats["labels"]))
    return len(items) / total


if __name__ == "__main__":
    main()
