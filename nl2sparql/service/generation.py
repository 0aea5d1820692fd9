"""Pools: generate one, describe one, export one."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from ..errors import ConfigError
from ..kb import KnowledgeBase
from ..pipelines.export import FORMATS as EXPORT_FORMATS  # noqa: F401 - part of the API
from .kbs import KBLike, as_choice, using_kb
from .llm import llm_client
from .types import ExportResult, GenerationResult

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
             threads: int = 1, oversample: float = 2.0, max_scan: int = 2000, cache_dir: str | Path | None = None,
             memory: bool = False,
             use_llm: bool = False, judge: bool = False, round_trip: bool = False, llm=None, llm_candidates: int = 3,
             progress: StepProgress | None = None) -> GenerationResult:
    """Grow a validated example pool: sample the KB, compose SPARQL, execute, phrase, tag, dedup, write ``out``.

    The same ``seed`` and KB give the same pool. ``patterns`` limits the
    composition to these labels. ``resume`` continues an interrupted run with
    the same settings; an existing ``out`` is refused unless ``force`` (or the
    resumed run wrote it), and two runs never write one ``out`` at once. ``use_llm`` also lets an LLM write queries and their
    questions, ``judge`` keeps only pairs an LLM judge accepts, ``round_trip``
    translates each question back (``llm``: an :class:`~nl2sparql.llm.LLMConfig`,
    else the environment and config file). Step files and the manifest go to
    ``cache_dir`` (default: the project cache's ``runs/``). ``memory`` copies an on-disk store
    into memory first (queries about 4× faster on LiITA, for the price of the copy).
    """
    from ..fileio import read_pool
    from ..paths import cache_dir as default_cache
    from ..pipelines.generation import GenerationPipeline, RunConfig
    from ..pipelines.report import pool_stats

    if threads < 1:
        raise ConfigError("threads must be at least 1")
    cache = Path(cache_dir) if cache_dir is not None else default_cache() / "runs"
    client = None
    if use_llm or judge:
        client = llm_client(llm)
    extra: dict = {}
    if use_llm or judge or round_trip:
        extra = {"llm": use_llm, "judge": judge, "round_trip": round_trip, "llm_candidates": llm_candidates}
        if client is not None:
            extra.update(llm_model=client.config.model, llm_fast_model=client.config.model_for("fast"),
                         llm_base_url=client.config.effective_base_url)
    # an embedded store runs as many queries at once as there are filter threads
    choice = kb if isinstance(kb, KnowledgeBase) else replace(as_choice(kb), workers=threads,
                                                                         memory=memory or as_choice(kb).memory)
    start = time.perf_counter()
    try:
        with using_kb(choice) as store:
            config = RunConfig(target=target, seed=seed, patterns=_patterns(patterns), out=str(out),
                               oversample=oversample, max_scan=max_scan, timeout=timeout, threads=threads,
                               kb=store.description, cache_dir=str(cache), extra=extra)
            factory = _factory(progress)
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


def _factory(progress: StepProgress | None):
    if progress is None:
        return None
    return lambda name: (lambda done, total: progress(name, done, total))


def pool_stats(pool: str | Path) -> dict:
    """Pattern and combination coverage, difficulty and split counts of a pool (file or shipped name)."""
    from ..pipelines.report import pool_stats as stats
    from ..pipelines.storage import read_pool
    from .pools import resolve_pool

    return stats(read_pool(resolve_pool(pool)))


def export_pool(pool: str | Path, out: str | Path, *, fmt: str = "openai", lang: str = "both",
                variants: bool = False, split: str | None = None) -> ExportResult:
    """Export a pool as fine-tuning records (``alpaca``, ``sharegpt`` or ``openai`` chat format)."""
    from ..pipelines.export import export_pool as export
    from ..pipelines.storage import read_pool
    from .pools import resolve_pool

    source = resolve_pool(pool)
    items = read_pool(source)
    n = export(items, Path(out), fmt, lang=lang, variants=variants, split=split, source=source)
    return ExportResult(str(out), fmt, n)
