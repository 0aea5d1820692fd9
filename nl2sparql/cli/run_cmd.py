"""``nl2sparql-gen run``, ``export`` and ``pool stats``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .common import EndpointOpt, JsonOpt, ServiceOpt, StoreOpt, console, friendly, print_json

pool_app = typer.Typer(help="Inspect example pools.", no_args_is_help=True)


def _patterns(values: Optional[List[str]]) -> Optional[list[str]]:
    if not values:
        return None
    return [p.strip().upper() for v in values for p in v.split(",") if p.strip()]


@friendly
def run(target: Annotated[float, typer.Option(help="Examples to keep in the pool.")] = 300,
        seed: Annotated[int, typer.Option(help="Random seed: same seed and KB → identical pool.")] = 0,
        patterns: Annotated[Optional[List[str]], typer.Option(
            "--patterns", help="Only compose these pattern labels (repeat or comma-separate).")] = None,
        out: Annotated[Path, typer.Option(help="Pool file to write (JSONL).")] = Path("pool.jsonl"),
        resume: Annotated[bool, typer.Option(help="Resume an interrupted run with the same settings.")] = False,
        force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
        store: StoreOpt = None, endpoint: EndpointOpt = None, service: ServiceOpt = None,
        timeout: Annotated[float, typer.Option(help="Per-query time budget in seconds.")] = 10.0,
        threads: Annotated[int, typer.Option(help="Parallel query workers for the execution filter.")] = 1,
        oversample: Annotated[float, typer.Option(help="Candidates drawn per wanted example.")] = 2.0,
        max_scan: Annotated[int, typer.Option(
            help="Draw fewer queries whose first scan reads more rows than this (slow on a large KB); 0: off.")] = 2000,
        cache_dir: Annotated[Path, typer.Option(help="Where step files and the manifest go.")] = Path("cache"),
        llm: Annotated[bool, typer.Option(
            "--llm", help="Also let an LLM write queries and their questions.")] = False,
        judge: Annotated[bool, typer.Option(
            "--judge", help="LLM judge: keep only pairs whose question asks what the query returns.")] = False,
        round_trip: Annotated[bool, typer.Option(
            "--round-trip", help="Translate each question back and score it against the query (annotates).")] = False,
        llm_model: Annotated[Optional[str], typer.Option(
            help="LLM model (else NL2SPARQL_LLM_MODEL).", show_default=False)] = None,
        llm_base_url: Annotated[Optional[str], typer.Option(
            help="OpenAI-compatible server, e.g. http://localhost:8000/v1 (else OPENAI_BASE_URL).",
            show_default=False)] = None,
        llm_config: Annotated[Optional[Path], typer.Option(
            help="LLM settings file (TOML).", show_default=False)] = None,
        no_llm_cache: Annotated[bool, typer.Option(
            "--no-llm-cache", help="Neither read nor write the LLM response cache.")] = False,
        llm_concurrency: Annotated[Optional[int], typer.Option(
            help="LLM requests in flight at once.", show_default=False)] = None,
        llm_candidates: Annotated[int, typer.Option(
            help="Queries asked per LLM prompt; question samples per persona and language.")] = 3,
        json_output: JsonOpt = False) -> None:
    """Grow a validated example pool: sample the KB, compose SPARQL, execute, phrase, tag, dedup, write."""
    from ..kb import open_kb
    from ..pipelines.generation import GenerationPipeline, RunConfig
    from ..pipelines.report import pool_stats, render_stats
    from ..pipelines.storage import read_jsonl

    client = None
    if llm or judge:
        from ..llm import LLMClient, LLMConfig
        client = LLMClient(LLMConfig.resolve(model=llm_model, base_url=llm_base_url, config_file=llm_config,
                                             max_concurrency=llm_concurrency, no_cache=no_llm_cache))
    extra = {}
    if llm or judge or round_trip:
        extra = {"llm": llm, "judge": judge, "round_trip": round_trip, "llm_candidates": llm_candidates}
        if client is not None:
            extra.update(llm_model=client.config.model, llm_fast_model=client.config.model_for("fast"),
                         llm_base_url=client.config.effective_base_url)
    kb = open_kb(store=store, endpoint=endpoint, timeout=timeout, workers=threads, services=service)
    config = RunConfig(target=target, seed=seed, patterns=_patterns(patterns), out=str(out), oversample=oversample,
                       max_scan=max_scan, timeout=timeout, threads=threads, kb=kb.description,
                       cache_dir=str(cache_dir), extra=extra)
    start = time.perf_counter()
    with kb, Progress(TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, disable=json_output, transient=False) as progress:
        tasks: dict[str, int] = {}

        def factory(name: str):
            tasks[name] = progress.add_task(name, total=None, start=False)

            def update(done: int, total: int) -> None:
                task = tasks[name]
                progress.start_task(task)
                progress.update(task, completed=done, total=total)
            return update

        if extra:
            from ..pipelines.llm_steps import build_pipeline, record_llm
            pipeline = build_pipeline(config, kb, client, progress=factory)
            manifest = record_llm(pipeline, pipeline.run(resume=resume, force=force), client)
        else:
            manifest = GenerationPipeline(config, kb, progress=factory).run(resume=resume, force=force)
    if client is not None:
        client.close()
    items = read_jsonl(out)
    stats = pool_stats(items)
    filt = next((s["report"] for s in manifest["steps"] if s["operator"] == "ExecutionFilter"), {})
    executed = filt.get("rows_in", 0) - filt.get("not_run", 0)
    summary = {"out": str(out), "kept": len(items), "target": config.target, "rejected": manifest["rejected"],
               "executed": executed, "seconds": round(time.perf_counter() - start, 2), "stats": stats,
               "manifest": str(cache_dir / f"{config.prefix}_manifest.json")}
    if client is not None:
        summary["llm"] = manifest["llm"]["usage"]
    if json_output:
        print_json(summary)
        return
    rejected = Table("reason", "candidates", title="Rejected")
    for reason, n in sorted(manifest["rejected"].items(), key=lambda kv: -kv[1]):
        rejected.add_row(reason, str(n))
    console.print(rejected)
    render_stats(stats, console, title=str(out))
    note = "" if len(items) >= config.target else f" [yellow](fewer than the {config.target} asked: the KB ran out of distinct examples)[/]"
    console.print(f"kept [bold]{len(items)}[/] examples in {summary['seconds']} s → {out}{note}")
    if filt.get("not_run"):
        console.print(f"[dim]executed {executed} of {filt['rows_in']} candidates: the filter stops once enough "
                      "have passed[/]")
    if client is not None:
        usage = summary["llm"]
        cost = f", ${usage['cost_usd']:.4f}" if usage.get("cost_usd") is not None else ""
        console.print(f"LLM: {usage['calls']} calls ({usage['cached']} from the cache), {usage['requests']} "
                      f"requests, {usage['total_tokens']} tokens{cost}")


@pool_app.command("stats")
@friendly
def stats(pool: Annotated[Path, typer.Argument(help="Pool file (JSONL or JSON array).")],
          json_output: JsonOpt = False) -> None:
    """Pattern and combination coverage, difficulty and split counts of a pool."""
    from ..pipelines.report import pool_stats, render_stats
    from ..pipelines.storage import read_pool

    items = read_pool(pool)
    result = pool_stats(items)
    if json_output:
        print_json(result)
    else:
        render_stats(result, console, title=str(pool))


@friendly
def export(pool: Annotated[Path, typer.Argument(help="Pool file (JSONL or JSON array).")],
           fmt: Annotated[str, typer.Option("--format", help="alpaca, sharegpt or openai.")] = "openai",
           out: Annotated[Path, typer.Option(help="Output JSONL file.")] = Path("train.jsonl"),
           lang: Annotated[str, typer.Option(help="it, en or both.")] = "both",
           variants: Annotated[bool, typer.Option(help="Also export the persona variants.")] = False,
           split: Annotated[Optional[str], typer.Option(help="Only this split (train/dev/test).")] = None) -> None:
    """Export a pool as fine-tuning data (Alpaca, ShareGPT or OpenAI chat format)."""
    from ..pipelines.export import export_pool
    from ..pipelines.storage import read_pool

    n = export_pool(read_pool(pool), out, fmt, lang=lang, variants=variants, split=split, source=pool)
    console.print(f"wrote {n} {fmt} records to {out}")
