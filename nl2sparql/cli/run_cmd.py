"""``nl2sparql-gen run``, ``export`` and ``pool stats``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .common import (KB_PANEL, LLM_PANEL, EndpointOpt, JsonOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt, ServiceOpt,
                     StoreOpt, console, err_console, friendly, kb_choice, print_json, whole_number)

pool_app = typer.Typer(help="Inspect example pools.", no_args_is_help=True)


#: The help panels of ``run``'s options, besides the shared Knowledge base and LLM panels.
SPEED, SHARDS = "Speed", "Large runs in shards"


@friendly
def run(target: Annotated[int, typer.Option("--target", parser=whole_number("--target"), metavar="N",
                                           help="Examples to keep in the pool.")] = 300,
        seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed and KB → identical pool.")] = 0,
        patterns: Annotated[Optional[List[str]], typer.Option(
            "--patterns", help="Only compose these pattern labels (repeat or comma-separate).")] = None,
        out: Annotated[Path, typer.Option("--out", help="Pool file to write (JSONL).")] = Path("pool.jsonl"),
        resume: Annotated[bool, typer.Option(
            "--resume", help="Resume an interrupted run with the same settings.")] = False,
        force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
        cache_dir: Annotated[Optional[Path], typer.Option(
            "--cache-dir", help="Where step files and the manifest go (default: the cache's runs/).",
            show_default=False)] = None,
        store: StoreOpt = None, endpoint: EndpointOpt = None, service: ServiceOpt = None,
        timeout: Annotated[float, typer.Option("--timeout", rich_help_panel=KB_PANEL,
                                               help="Per-query time budget in seconds.")] = 10.0,
        memory: Annotated[bool, typer.Option(
            "--memory", rich_help_panel=KB_PANEL, help="Copy the --store into memory first: queries about 4x "
            "faster, for a copy of about 10 s (the LiITA mirror). Tied rows at a LIMIT may differ from the "
            "on-disk store's.")] = False,
        threads: Annotated[int, typer.Option(
            "--threads", min=1, rich_help_panel=SPEED,
            help="Processes working at once: query workers of the sampler and the execution filter, and forked "
                 "processes for drawing, phrasing and checking rows (the pool does not depend on it).")] = 1,
        oversample: Annotated[float, typer.Option(
            "--oversample", rich_help_panel=SPEED,
            help="Candidates drawn first per wanted example (more are drawn when the execution filter runs out; "
                 "the pool does not depend on it).")] = 1.3,
        max_scan: Annotated[int, typer.Option(
            "--max-scan", rich_help_panel=SPEED,
            help="Draw fewer queries whose first scan reads more rows than this (slow on a large KB); 0: off.")]
            = 2000,
        shard: Annotated[Optional[str], typer.Option(
            "--shard", rich_help_panel=SHARDS,
            help="Make only part i/n of the run (e.g. 2/4); join the parts with `pool merge`. The same seed and KB "
                 "give the same union whatever n.", show_default=False)] = None,
        shards: Annotated[Optional[int], typer.Option(
            "--shards", rich_help_panel=SHARDS, help="Make every part 1/N … N/N with --executor and merge them "
                                                     "into --out.", show_default=False)] = None,
        unit_size: Annotated[int, typer.Option(
            "--unit-size", rich_help_panel=SHARDS,
            help="Examples per unit of a sharded run (units are what shards divide; part of the run's identity).")]
            = 1000,
        executor: Annotated[str, typer.Option(
            "--executor", rich_help_panel=SHARDS,
            help="Who makes the --shards: local (one after another, here) or ray (Ray tasks; "
                 "pip install -e \".[ray]\").")] = "local",
        ray_address: Annotated[Optional[str], typer.Option(
            "--ray-address", rich_help_panel=SHARDS,
            help="A running Ray cluster (auto or host:port); default: a local instance, a CPU per shard.",
            show_default=False)] = None,
        empty_answers: Annotated[float, typer.Option(
            "--empty-answers", metavar="SHARE",
            help="For a pool that evaluates agents: about this share of the dev and test questions have an empty "
                 "right answer (a word with no Sicilian translation…), labelled empty_answer; train never gets "
                 "them. 0: off.")] = 0.0,
        llm: Annotated[bool, typer.Option(
            "--llm", rich_help_panel=LLM_PANEL, help="Also let an LLM write queries and their questions.")] = False,
        judge: Annotated[bool, typer.Option(
            "--judge", rich_help_panel=LLM_PANEL,
            help="LLM judge: keep only pairs whose question asks what the query returns.")] = False,
        round_trip: Annotated[bool, typer.Option(
            "--round-trip", help="Translate each question back (offline) and score it against the query "
                                 "(annotates).")] = False,
        llm_model: LLMModelOpt = None,
        llm_base_url: LLMBaseUrlOpt = None,
        llm_config: LLMConfigOpt = None,
        no_llm_cache: Annotated[bool, typer.Option(
            "--no-llm-cache", rich_help_panel=LLM_PANEL, help="Neither read nor write the LLM response cache.")]
            = False,
        llm_concurrency: Annotated[Optional[int], typer.Option(
            "--llm-concurrency", min=1, rich_help_panel=LLM_PANEL, help="LLM requests in flight at once.",
            show_default=False)] = None,
        llm_candidates: Annotated[int, typer.Option(
            "--llm-candidates", min=1, rich_help_panel=LLM_PANEL,
            help="Queries asked per LLM prompt; question samples per persona and language.")] = 3,
        json_output: JsonOpt = False) -> None:
    """Grow a validated example pool: sample the KB, compose SPARQL, execute, phrase, tag, dedup, write."""
    from .. import api

    llm_settings = None
    if llm or judge:
        llm_settings = api.llm_config(model=llm_model, base_url=llm_base_url, config_file=llm_config,
                                      max_concurrency=llm_concurrency, no_cache=no_llm_cache)
    with Progress(TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=json_output, transient=False) as progress:
        tasks: dict[str, int] = {}

        def update(step: str, done: int, total: int) -> None:
            if step not in tasks:
                tasks[step] = progress.add_task(step, total=None)
            progress.update(tasks[step], completed=done, total=total)

        def notify(line: str) -> None:  # the LLM's retries and waits: above the bars, or on stderr with --json
            (err_console if json_output else progress.console).print(f"[dim]{escape(line)}[/]", highlight=False)

        result = api.generate(target, seed=seed, patterns=patterns, out=out, resume=resume, force=force,
                              kb=kb_choice(store, endpoint, timeout, workers=threads, services=service),
                              timeout=timeout,
                              threads=threads, oversample=oversample, max_scan=max_scan, cache_dir=cache_dir,
                              memory=memory, shard=shard, shards=shards, unit_size=unit_size, executor=executor,
                              ray_address=ray_address, empty_answers=empty_answers,
                              use_llm=llm, judge=judge, round_trip=round_trip, llm=llm_settings,
                              llm_candidates=llm_candidates, progress=update, notify=notify)
    if json_output:
        print_json(result.to_dict())
        return
    rejected = Table("reason", "candidates", title="Rejected")
    for reason, n in sorted(result.rejected.items(), key=lambda kv: -kv[1]):
        rejected.add_row(reason, str(n))
    console.print(rejected)
    render_stats(result.stats, console, title=str(out))
    note = "" if result.kept >= result.target else \
        f" [yellow](fewer than the {result.target} asked: the KB ran out of distinct examples)[/]"
    if result.shard:
        note = f" (shard {result.shard}: with the unit margins the merge trims; join the shards with `pool merge`)"
    console.print(f"kept [bold]{result.kept}[/] examples in {result.seconds} s → {out}{note}")
    console.print(f"[dim]the execution filter ran {result.executed} candidates (it stops once enough have passed); "
                  f"manifest: {result.manifest}[/]")
    if result.llm is not None:
        usage = result.llm
        cost = f", ${usage['cost_usd']:.4f}" if usage.get("cost_usd") is not None else ""
        console.print(f"LLM: {usage['calls']} calls ({usage['cached']} from the cache), {usage['requests']} "
                      f"requests, {usage['total_tokens']} tokens{cost}")


@pool_app.command("merge")
@friendly
def merge(pools: Annotated[List[Path], typer.Argument(help="The shard pools (written by run --shard i/n).")],
          out: Annotated[Path, typer.Option(help="The merged pool to write (JSONL).")] = Path("pool.jsonl"),
          force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
          json_output: JsonOpt = False) -> None:
    """Join the shards of a run: every unit once, duplicates across shards dropped, trimmed to the target."""
    from .. import api

    result = api.merge_pools(pools, out, force=force)
    if json_output:
        print_json(result.to_dict())
        return
    dropped = ", ".join(f"{k} {v}" for k, v in result.rejected.items()) or "none"
    short = f" [yellow]({result.short} short of the target {result.target})[/]" if result.short else ""
    console.print(f"merged {len(result.shards)} shard pool(s), {result.units} units: kept [bold]{result.kept}[/] of "
                  f"{result.items_in} examples{short} → {out}")
    console.print(f"[dim]dropped: {dropped}; manifest: {result.manifest}[/]")


@pool_app.command("stats")
@friendly
def stats(pool: Annotated[Path, typer.Argument(help="Pool file (JSONL or JSON array).")],
          json_output: JsonOpt = False) -> None:
    """Pattern and combination coverage, difficulty and split counts of a pool."""
    from .. import api

    result = api.pool_stats(pool)
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
    from .. import api

    done = api.export_pool(pool, out, fmt=fmt, lang=lang, variants=variants, split=split)
    console.print(f"wrote {done.records} {fmt} records to {out}")


def render_stats(stats: dict, console, title: str = "Pool") -> None:
    """Print :func:`pool_stats` output with rich tables."""
    console.print(f"[bold]{title}[/]: {stats['items']} items, {stats['combinations']} pattern combinations, "
                  f"{stats['multi_pattern_share']:.0%} combine ≥ 2 patterns")
    labels = Table("pattern", "items", title="Pattern coverage (weight ≥ 0.5)")
    for label, n in stats["labels"].items():
        labels.add_row(label, str(n) if n else "[red]0[/]")
    console.print(labels)
    other = Table("difficulty", "items", "split", "items")
    diff, split = list(stats["difficulty"].items()), list(stats["split"].items())
    for i in range(max(len(diff), len(split))):
        d = diff[i] if i < len(diff) else ("", "")
        s = split[i] if i < len(split) else ("", "")
        other.add_row(str(d[0]), str(d[1]), str(s[0]), str(s[1]))
    console.print(other)
