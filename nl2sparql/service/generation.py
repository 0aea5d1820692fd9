"""Pools: generate one, describe one, export one."""

from __future__ import annotations

import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from ..checks import check_count
from ..errors import ConfigError
from ..kb import KnowledgeBase
from ..pipelines.export import FORMATS as EXPORT_FORMATS  # noqa: F401 - part of the API
from .kbs import KBLike, as_choice, using_kb
from .llm import llm_client
from .types import ExportResult, GenerationResult, MergeResult

#: ``progress(step name, done, total)`` while a pipeline runs.
StepProgress = Callable[[str, int, int], None]


def _patterns(patterns: Sequence[str] | str | None) -> list[str] | None:
    if not patterns:
        return None
    if isinstance(patterns, str):
        patterns = [patterns]
    return [p.strip().upper() for value in patterns for p in value.split(",") if p.strip()]


def generate(target: int = 300, *, seed: int = 0, patterns: Sequence[str] | str | None = None,
             out: str | Path = "pool.jsonl", resume: bool = False, force: bool = False, kb: KBLike = None,
             timeout: float = 10.0,
             threads: int = 1, oversample: float = 1.3, max_scan: int = 2000, cache_dir: str | Path | None = None,
             memory: bool = False,
             use_llm: bool = False, judge: bool = False, round_trip: bool = False, llm=None, llm_candidates: int = 3,
             progress: StepProgress | None = None, shard: str | None = None, shards: int | None = None,
             unit_size: int = 1000, executor: str = "local", ray_address: str | None = None,
             empty_answers: float = 0.0, notify: Callable[[str], None] | None = None) -> GenerationResult:
    """Grow a validated example pool: sample the KB, compose SPARQL, execute, phrase, tag, dedup, write ``out``.

    The same ``seed`` and KB give the same pool. ``patterns`` limits the
    composition to these labels. ``resume`` continues an interrupted run with
    the same settings; an existing ``out`` is refused unless ``force`` (or the
    resumed run wrote it), and two runs never write one ``out`` at once. ``use_llm`` also lets an LLM write queries and their
    questions, ``judge`` keeps only pairs an LLM judge accepts, ``round_trip``
    translates each question back (``llm``: an :class:`~nl2sparql.llm.LLMConfig`,
    else the environment and config file). Step files and the manifest go to
    ``cache_dir`` (default: the project cache's ``runs/``). ``memory`` copies an on-disk store
    into memory first (queries about 4× faster on LiITA, for the price of the copy). ``empty_answers``
    (e.g. 0.1, for a pool whose dev and test splits evaluate agents) makes about that share of dev and
    test questions whose right answer is empty, labelled ``empty_answer``; train never gets them.

    Sharded runs (:mod:`nl2sparql.pipelines.shards`): ``shard="i/n"`` makes that part of the run
    (units of ``unit_size`` examples; the same seed and KB give the same union whatever ``n``),
    to be joined by :func:`merge_pools`; ``shards=n`` makes every part with ``executor``
    (``local``: one after another here; ``ray``: Ray tasks, on ``ray_address`` or a local instance
    with a CPU per shard) and merges them into ``out``; each shard's KB runs ``threads`` queries at once.

    ``notify(line)`` receives the LLM's progress lines while a run waits on it (retries, a request still
    waiting and when it stops).
    """
    from ..fileio import read_pool
    from ..paths import cache_dir as default_cache
    from ..pipelines.generation import GenerationPipeline, RunConfig
    from ..pipelines.report import pool_stats

    check_count(threads, "--threads", 1, 64)
    check_count(llm_candidates, "--llm-candidates", 1, 20)
    cache = Path(cache_dir) if cache_dir is not None else default_cache() / "runs"
    client = None
    if use_llm or judge:
        client = llm_client(llm)
        client.notify = notify
    extra: dict = {}
    if use_llm or judge or round_trip:
        extra = {"llm": use_llm, "judge": judge, "round_trip": round_trip, "llm_candidates": llm_candidates}
        if client is not None:
            extra.update(llm_model=client.config.model, llm_fast_model=client.config.model_for("fast"),
                         llm_base_url=client.config.effective_base_url)
    # an embedded store runs as many queries at once as there are filter threads
    choice = kb if isinstance(kb, KnowledgeBase) else replace(as_choice(kb), workers=threads,
                                                                         memory=memory or as_choice(kb).memory)
    if shard is not None and shards is not None:
        raise ConfigError("choose --shard i/n (one part) or --shards N (every part, merged), not both")
    if (shard is not None or shards is not None) and empty_answers:
        raise ConfigError("--empty-answers is for a plain run; run it without --shard/--shards")
    if (shard is not None or shards is not None) and extra:
        raise ConfigError("sharded runs make the template chain only; run --llm, --judge and --round-trip "
                          "without --shard/--shards")
    if shards is not None:
        return _sharded(choice, shards, target=target, seed=seed, patterns=patterns, out=out, resume=resume,
                        force=force, timeout=timeout, threads=threads, oversample=oversample, max_scan=max_scan,
                        cache=cache, unit_size=unit_size, executor=executor, ray_address=ray_address,
                        progress=progress)
    start = time.perf_counter()
    try:
        with using_kb(choice) as store:
            config = RunConfig(target=target, seed=seed, patterns=_patterns(patterns), out=str(out),
                               oversample=oversample, max_scan=max_scan, timeout=timeout, threads=threads,
                               kb=store.description, cache_dir=str(cache), extra=extra, empty_answers=empty_answers)
            factory = _factory(progress)
            if shard is not None:
                from ..pipelines.shards import Shard, manifest_path, run_shard
                part = run_shard(config, store, Shard.parse(shard), unit_size, resume=resume, force=force,
                                 progress=_factory(progress))
                return _shard_result(config, part, str(manifest_path(Path(out))), time.perf_counter() - start)
            if extra:
                from ..pipelines.llm_steps import build_pipeline, record_llm
                pipeline = build_pipeline(config, store, client, progress=factory)
                manifest = record_llm(pipeline, pipeline.run(resume=resume, force=force), client)
            else:
                manifest = GenerationPipeline(config, store, progress=factory).run(resume=resume, force=force)
    finally:
        if client is not None:
            client.close()
    items, _ = read_pool(Path(out))
    filt = next((s["report"] for s in manifest["steps"] if s["operator"] == "ExecutionFilter"), {})
    return GenerationResult(
        out=str(out), kept=len(items), target=config.target, rejected=dict(manifest["rejected"]),
        executed=filt.get("rows_in", 0) - filt.get("not_run", 0), seconds=round(time.perf_counter() - start, 2),
        stats=pool_stats(items), manifest=str(cache / f"{config.prefix}_manifest.json"),
        llm=manifest["llm"]["usage"] if client is not None else None)


def _sharded(choice, shards: int, *, target, seed, patterns, out, resume, force, timeout, threads, oversample,
             max_scan, cache: Path, unit_size, executor, ray_address, progress) -> GenerationResult:
    """Every shard of a run, made by ``executor`` and merged into ``out``."""
    from ..fileio import read_pool
    from ..pipelines.executors import run_sharded
    from ..pipelines.generation import RunConfig
    from ..pipelines.report import pool_stats
    from ..pipelines.shards import manifest_path

    start = time.perf_counter()
    remote = executor == "ray"
    if remote and isinstance(choice, KnowledgeBase):
        raise ConfigError("the Ray executor opens a KB in each task: pass kb as 'sample', a store directory or an "
                          "endpoint URL, not an open KB")
    spec = None if isinstance(choice, KnowledgeBase) else {
        "store": choice.store, "endpoint": choice.endpoint, "workers": choice.workers, "use_env": False,
        "services": list(choice.services) or None, "memory": choice.memory}
    with (nullcontext() if remote else using_kb(choice)) as store:
        config = RunConfig(target=target, seed=seed, patterns=_patterns(patterns), out=str(out),
                           oversample=oversample, max_scan=max_scan, timeout=timeout, threads=threads,
                           kb=store.description if store is not None else _description(choice), cache_dir=str(cache))
        merged = run_sharded(config, shards, kb=store, kb_spec=spec, unit_size=unit_size, executor=executor,
                             address=ray_address, resume=resume,
                             force=force, progress=_factory(progress))
    items, _ = read_pool(Path(out))
    rejected = Counter(merged["made"]["rejected"])
    rejected.update(merged["rejected"])
    return GenerationResult(out=str(out), kept=len(items), target=target, rejected=dict(rejected),
                            executed=merged["made"]["executed"], seconds=round(time.perf_counter() - start, 2),
                            stats=pool_stats(items), manifest=str(manifest_path(Path(out))), shards=shards)


def _description(choice) -> str:
    """The provenance name of a KB that this process does not open (a Ray executor's tasks open it)."""
    if choice.store:
        return f"store:{choice.store}" + (" (in memory)" if choice.memory else "")
    return f"endpoint:{choice.endpoint}" if choice.endpoint else "sample"


def _shard_result(config, manifest: dict, path: str, seconds: float) -> GenerationResult:
    from ..fileio import read_pool
    from ..pipelines.report import pool_stats

    items, _ = read_pool(Path(config.out))
    rejected: Counter = Counter()
    for unit in manifest["unit_reports"]:
        rejected.update(unit["rejected"])
    return GenerationResult(out=config.out, kept=len(items), target=sum(u["target"] for u in manifest["unit_reports"]),
                            rejected=dict(rejected), executed=sum(u["executed"] for u in manifest["unit_reports"]),
                            seconds=round(seconds, 2), stats=pool_stats(items), manifest=path,
                            shard=manifest["shard"])


def merge_pools(pools: Sequence[str | Path], out: str | Path, *, force: bool = False) -> MergeResult:
    """Join the pools of a sharded run's shards (``run --shard i/n``) into one: every unit once, duplicates
    across shards dropped by the pipeline's rules, trimmed to the run's target, one manifest."""
    from ..fileio import read_pool
    from ..pipelines.report import pool_stats
    from ..pipelines.shards import manifest_path
    from ..pipelines.shards import merge_pools as merge

    m = merge([Path(p) for p in pools], Path(out), force=force)
    items, _ = read_pool(Path(out))
    return MergeResult(out=str(out), kept=m["kept"], target=m["run"]["target"], items_in=m["items_in"],
                       rejected=m["rejected"], short=m["short"], units=m["units"], shards=m["shards"],
                       manifest=str(manifest_path(Path(out))), stats=pool_stats(items))


def _factory(progress: StepProgress | None):
    if progress is None:
        return None
    return lambda name: (lambda done, total: progress(name, done, total))


def pool_stats(pool: str | Path) -> dict:
    """Pattern and combination coverage, difficulty and split counts of a pool (file or shipped name; JSON lines
    are streamed, so the pool may be larger than memory)."""
    from ..pipelines.report import pool_stats as stats
    from ..pipelines.storage import iter_pool
    from .pools import resolve_pool

    return stats(iter_pool(resolve_pool(pool)))


def export_pool(pool: str | Path, out: str | Path, *, fmt: str = "openai", lang: str = "both",
                variants: bool = False, split: str | None = None) -> ExportResult:
    """Export a pool as fine-tuning records (``alpaca``, ``sharegpt`` or ``openai`` chat format), streamed."""
    from ..pipelines.export import export_pool as export
    from ..pipelines.storage import iter_pool
    from .pools import resolve_pool

    source = resolve_pool(pool)
    n = export(iter_pool(source), Path(out), fmt, lang=lang, variants=variants, split=split, source=source)
    return ExportResult(str(out), fmt, n)
