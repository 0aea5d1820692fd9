"""Sharded runs: ``run --shard i/n`` makes a deterministic, disjoint part of a run; ``pool merge`` joins them.

A run of ``target`` examples is cut into *units* of ``unit_size`` examples
(the last one smaller). The cut depends on the target and the unit size,
never on the number of shards: unit ``u`` draws its candidates from its own
range of the composer's draws (``u × UNIT_DRAW_SPAN`` onwards) and runs the
whole chain (compose, execute, phrase, tag, dedup, grade) on its own, so
its examples are the same whichever shard makes it. Shard ``i/n`` makes the
units ``u`` with ``u mod n = i − 1``: the shards are disjoint, and the same
seed and KB give the same union of shard pools whatever ``n`` is.

A shard samples the KB's facts once and shares its composer between its
units; each unit is a resumable pipeline of its own (``--resume`` picks up
finished units and the interrupted one). The shard pool lists its units'
examples in unit order (each keeps a quarter more than its target, for the examples that repeat
another unit's: the merge trims, see ``UNIT_MARGIN``),
and a manifest next to it (``<out stem>.manifest.json``) says which run and
units it holds.

:func:`merge_pools` checks that the shard pools come from one run and hold
every unit exactly once, drops duplicates across units with the pipeline's
own :class:`~nl2sparql.operators.Deduplicator` (examples in unit order, the
first one kept), trims to the run's target and writes one pool and one
manifest. The merged pool is therefore also the same whatever ``n`` was.
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from .. import __version__
from ..errors import ConfigError, DataError
from ..fileio import atomic_write_text, read_pool, write_jsonl
from ..operators import Deduplicator, SchemaSampler
from .generation import GenerationPipeline, ProgressFactory, RunConfig, default_steps
from .storage import OutputLock, StepStorage, check_output_path, same_file

#: Examples per unit unless the run says otherwise.
DEFAULT_UNIT_SIZE = 1000
#: The run settings every shard of one run must share (what decides its examples).
RUN_FIELDS = ("target", "seed", "patterns", "oversample", "timeout", "max_result_rows", "max_scan", "kb",
              "extra", "unit_size")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (1-based, as written: ``2/4``)."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        """Read ``i/n``; :class:`ConfigError` for anything else."""
        m = re.fullmatch(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*", str(text))
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            raise ConfigError(f"--shard must be i/n with 1 ≤ i ≤ n (e.g. 2/4), got {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))

    def owns(self, unit: int) -> bool:
        """True for the units this shard makes."""
        return unit % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def unit_sizes(target: int, unit_size: int) -> list[int]:
    """The target of each unit of a run."""
    full, rest = divmod(target, unit_size)
    return [unit_size] * full + ([rest] if rest else [])


def check_shards(count: int, target: int, unit_size: int, what: str | None = None) -> int:
    """``count`` when every one of that many shards has a unit to make; one clear :class:`ConfigError` otherwise
    (a shard without a unit is work for nothing, and a huge count would run for nothing, unbounded)."""
    units = len(unit_sizes(target, unit_size))
    if count > units:
        raise ConfigError(f"{what or f'--shards {count:,}'} asks for more shards than the run has units: "
                          f"{units:,} unit(s) of up to "
                          f"{unit_size:,} examples (--target {target:,}, --unit-size {unit_size:,}); use at most "
                          f"{units:,} shard(s), or a smaller --unit-size")
    return count


def manifest_path(pool: Path) -> Path:
    """The manifest next to a shard pool or merged pool."""
    return Path(pool).with_suffix(".manifest.json")


def run_identity(config: RunConfig, unit_size: int) -> dict:
    """The settings shared by every shard of one run."""
    ident = config.identity()
    return {**{k: ident.get(k) for k in RUN_FIELDS if k != "unit_size"}, "unit_size": unit_size}


def _facts(config: RunConfig, kb, progress: ProgressFactory, resume: bool) -> Path:
    """The shard's sampled facts (one sampling for all its units); reused by ``resume`` when the KB matches."""
    storage = StepStorage(config.cache_dir, f"{config.prefix}_facts").step()
    sampler = SchemaSampler({"timeout": max(60.0, config.timeout * 10), "threads": config.threads}, kb=kb,
                            progress=progress("schema sampler"))
    stamp = storage.file(0).with_suffix(".json")
    want = {"kb": config.kb, "operator": sampler.name, "version": sampler.version, "params": sampler.params()}
    if resume and storage.file(0).is_file() and stamp.is_file():
        try:
            if json.loads(stamp.read_text(encoding="utf-8")) == want:
                return storage.file(0)
        except ValueError:
            pass
    sampler.run(storage, output_key="fact")
    atomic_write_text(stamp, json.dumps(want))
    return storage.file(0)


def run_shard(config: RunConfig, kb, shard: Shard, unit_size: int = DEFAULT_UNIT_SIZE, *, resume: bool = False,
              force: bool = False, progress: ProgressFactory | None = None) -> dict:
    """Make shard ``shard`` of the run ``config`` into ``config.out``; returns its manifest (also written)."""
    from ..checks import check_count
    unit_size = check_count(unit_size, "--unit-size", 1)
    if config.extra:
        raise ConfigError("--shard runs the template chain only; run the LLM steps (--llm, --judge, --round-trip) "
                          "without --shard")
    progress = progress or (lambda name: (lambda done, total: None))
    out = check_output_path(Path(config.out))
    mpath = manifest_path(out)
    check_output_path(mpath, "the shard manifest")
    if out.exists() and not (force or resume):
        raise DataError(f"{out} exists; pass --force to replace it, or --resume to finish the shard that wrote it "
                        "(nothing was changed)")
    check_shards(shard.count, config.target, unit_size, f"--shard {shard}")
    sizes = unit_sizes(config.target, unit_size)
    mine = [u for u in range(len(sizes)) if shard.owns(u)]
    start = time.perf_counter()
    with OutputLock(out):
        facts = _facts(config, kb, progress, resume)
        shared: dict = {}
        items, reports = [], []
        for u in mine:
            unit = replace(config, target=sizes[u], unit=u, prefix=f"{config.prefix}_u{u:05d}",
                           out=str(Path(config.cache_dir) / f"{config.prefix}_u{u:05d}.jsonl"))
            steps = default_steps(unit, kb, progress, shared)[1:]  # the facts are sampled once per shard
            pipeline = GenerationPipeline(unit, kb, steps=steps, first_entry=facts)
            manifest = pipeline.run(resume=resume and pipeline.manifest_path.is_file(), force=True)
            unit_items = read_pool(Path(unit.out))[0]
            for item in unit_items:
                item["provenance"]["unit"] = u
            items += unit_items
            reports.append({"unit": u, "target": sizes[u], "items": len(unit_items),
                            "rejected": manifest["rejected"], "seconds": manifest["seconds"],
                            "executed": _executed(manifest)})
        write_jsonl(out, items)
        manifest = {"version": __version__, "kind": "shard", "shard": str(shard),
                    "run": run_identity(config, unit_size), "units": len(sizes), "made": mine,
                    "items": len(items), "unit_reports": reports, "seconds": round(time.perf_counter() - start, 3),
                    "made_by": {"host": socket.gethostname(), "pid": os.getpid(), "kb": kb.description}}
        atomic_write_text(mpath, json.dumps(manifest, ensure_ascii=False, indent=2))
    return manifest



def shard_config(config: RunConfig, shard: Shard) -> RunConfig:
    """The settings of one shard of a run made by an executor (its pool in the cache directory)."""
    name = f"{config.prefix}_shard{shard.index}of{shard.count}"
    return replace(config, out=str(Path(config.cache_dir) / f"{name}.jsonl"), prefix=config.prefix)


def make_shard(config: RunConfig, kb_spec: dict, shard: Shard, unit_size: int, resume: bool) -> dict:
    """Open a KB from ``kb_spec`` and make one shard with it (what each Ray task runs)."""
    from ..kb import open_kb
    with open_kb(**kb_spec) as kb:
        return run_shard(shard_config(config, shard), kb, shard, unit_size, resume=resume, force=True)


def _executed(manifest: dict) -> int:
    filt = next((s["report"] for s in manifest["steps"] if s["operator"] == "ExecutionFilter"), {})
    return filt.get("rows_in", 0) - filt.get("not_run", 0)


class _Rows:
    """A storage holding rows in memory (the deduplicator's input and output during a merge)."""

    def __init__(self, rows: list[dict]):
        self.rows = rows

    def read(self, output_type: str = "dict") -> list[dict]:
        return self.rows

    def write(self, data: list[dict]) -> None:
        self.rows = data


def _shard_manifest(pool: Path) -> dict:
    path = manifest_path(pool)
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{pool}: no manifest {path.name} next to it; pool merge joins the pools that "
                        "`run --shard i/n` wrote, with their manifests") from None
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not a shard manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "shard":
        raise DataError(f"{path}: not the manifest of a shard (kind {manifest.get('kind')!r}); pool merge joins "
                        "the pools that `run --shard i/n` wrote")
    return manifest


def merge_pools(pools: list[Path], out: Path, *, force: bool = False) -> dict:
    """Join shard pools into one deduplicated pool of the run's target; returns the manifest (also written)."""
    pools = [Path(p) for p in pools]
    if not pools:
        raise ConfigError("name the shard pools to merge")
    out = check_output_path(Path(out))
    for p in pools:
        if same_file(p, out):
            raise DataError(f"--out {out} is one of the pools being merged; write the merged pool elsewhere")
    if out.exists() and not force:
        raise DataError(f"{out} exists; pass --force to replace it (nothing was changed)")
    manifests = [_shard_manifest(p) for p in pools]
    run = manifests[0]["run"]
    for p, m in zip(pools[1:], manifests[1:]):
        if m["run"] != run:
            diff = ", ".join(f"{k}={m['run'].get(k)!r} (in {pools[0].name}: {run.get(k)!r})"
                             for k in sorted(set(run) | set(m["run"])) if run.get(k) != m["run"].get(k))
            raise DataError(f"{p} is a shard of another run: {diff}")
    owner: dict[int, Path] = {}
    for p, m in zip(pools, manifests):
        for u in m["made"]:
            if u in owner:
                raise DataError(f"unit {u} is in both {owner[u]} and {p} (the same shard twice?)")
            owner[u] = p
    count = manifests[0]["units"]
    missing = [u for u in range(count) if u not in owner]
    if missing:
        n = Shard.parse(manifests[0]["shard"]).count
        shards = sorted({u % n + 1 for u in missing})
        raise DataError(f"{len(missing)} of the run's {count} units are missing ({_span(missing)}): merge the pools "
                        f"of every shard (missing: shard {', '.join(f'{i}/{n}' for i in shards)})")
    rows = []
    for p, m in zip(pools, manifests):
        items = read_pool(p)[0]
        if len(items) != m["items"]:
            raise DataError(f"{p} holds {len(items)} examples but its manifest says {m['items']}: the file was "
                            "changed or cut; make that shard again")
        rows += items
    rows.sort(key=lambda item: item["provenance"]["unit"])  # stable: each unit's own order stays
    storage = _Rows([{**item, "cid": item["id"]} for item in rows])
    report = Deduplicator().run(storage, input_key="sparql", question_key="nl")
    kept = [{k: v for k, v in row.items() if k != "cid"} for row in storage.rows]
    rejected = Counter(report.rejected)
    if len(kept) > run["target"]:
        rejected["over_target"] = len(kept) - run["target"]
        kept = kept[:run["target"]]
    write_jsonl(out, kept)
    made: Counter = Counter()
    for m in manifests:
        for unit in m["unit_reports"]:
            made.update(unit["rejected"])
    manifest = {"version": __version__, "kind": "merged", "run": run, "units": count,
                "made": {"executed": sum(u["executed"] for m in manifests for u in m["unit_reports"]),
                         "rejected": dict(sorted(made.items()))},
                "shards": [{"pool": str(p), "shard": m["shard"], "units": m["made"], "items": m["items"]}
                           for p, m in zip(pools, manifests)],
                "items_in": len(rows), "kept": len(kept), "rejected": dict(sorted(rejected.items())),
                "short": max(0, run["target"] - len(kept))}
    atomic_write_text(manifest_path(out), json.dumps(manifest, ensure_ascii=False, indent=2))
    return manifest


def _span(units: list[int]) -> str:
    shown = ", ".join(str(u) for u in units[:8])
    return shown + (f", … ({len(units) - 8} more)" if len(units) > 8 else "")
