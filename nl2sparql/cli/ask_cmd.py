"""``nl2sparql-gen ask``: put a pool's questions to an external agent and collect its SPARQL (then score it).

Register with ``app.command("ask")(ask)`` in ``cli/gen.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from .common import (EndpointOpt, JsonOpt, ServiceOpt, StoreOpt, console, err_console, friendly, kb_choice,
                     print_json)
from .score_cmd import LangOpt, LimitOpt, SplitOpt, VariantOpt, print_summary, progress_bar


@friendly
def ask(
    pool: Annotated[str, typer.Argument(help="Pool JSONL (or a shipped pool: sample, handwritten) whose "
                                             "questions are asked.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", help="Predictions file (JSONL: id, question, sparql, latency_ms, "
                                                    "error); existing ids are not asked again.")]
        = Path("predictions.jsonl"),
    agent_cmd: Annotated[Optional[str], typer.Option(
        "--agent-cmd", help="Command template, e.g. 'my-agent --question {question}' ({id} and {lang} too; "
                            "without {question} the question goes to stdin); SPARQL on stdout. A placeholder is "
                            "one argument, never code: shell code (sh -c) reads $NL2SPARQL_QUESTION instead.",
        show_default=False)] = None,
    agent_openai: Annotated[Optional[str], typer.Option(
        "--agent-openai", help="OpenAI-compatible chat endpoint, e.g. http://127.0.0.1:8000/v1.",
        show_default=False)] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Model name for --agent-openai.",
                                                 show_default=False)] = None,
    api_key_env: Annotated[str, typer.Option("--api-key-env", help="Variable holding the endpoint's key.")]
        = "OPENAI_API_KEY",
    system_prompt: Annotated[Optional[str], typer.Option(
        "--system-prompt", help="System prompt for --agent-openai (text, or @file); default: asks for one "
                                "SPARQL query and nothing else.", show_default=False)] = None,
    agent_mcp: Annotated[Optional[str], typer.Option(
        "--agent-mcp", help="Command line starting an MCP server (stdio), e.g. 'nl2sparql mcp serve'.",
        show_default=False)] = None,
    tool: Annotated[Optional[str], typer.Option("--tool", help="The MCP tool that answers questions.",
                                                show_default=False)] = None,
    arg: Annotated[str, typer.Option("--arg", help="The tool argument that gets the question.")] = "question",
    tool_args: Annotated[Optional[str], typer.Option(
        "--tool-args", help="Other tool arguments as a JSON object, e.g. '{\"mode\": \"offline\"}'.",
        show_default=False)] = None,
    agent_text2sparql: Annotated[Optional[str], typer.Option(
        "--agent-text2sparql", metavar="URL", help="A service speaking the Text2SPARQL challenge API "
                                    "(GET URL?question=…&dataset=… answering JSON with the query).",
        show_default=False)] = None,
    dataset: Annotated[str, typer.Option("--dataset", metavar="IRI", help="The dataset IRI sent to "
                                                                          "--agent-text2sparql.")]
        = "http://liita.it/data",
    lang: LangOpt = "it",
    split: SplitOpt = None,
    variant: VariantOpt = None,
    limit: LimitOpt = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64,
                                             help="Questions in flight at once.")] = 4,
    timeout: Annotated[float, typer.Option("--timeout", min=0.001, help="Seconds each question may take.")] = 60.0,
    retry_errors: Annotated[bool, typer.Option("--retry-errors", help="Ask again the ids whose answer failed.")]
        = False,
    score: Annotated[bool, typer.Option("--score", help="Then score the predictions against the pool's gold "
                                                        "(default match options; `score` offers them all).")]
        = False,
    report: Annotated[Path, typer.Option("--report", help="Directory for the score's report files.")]
        = Path("ask-report"),
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Ask an external agent every question of POOL, write its SPARQL to --out, and optionally score it."""
    from .. import api

    spec = {"cmd": agent_cmd, "openai": agent_openai, "model": model, "api_key_env": api_key_env,
            "system_prompt": system_prompt, "mcp": agent_mcp, "tool": tool, "arg": arg, "tool_args": tool_args,
            "text2sparql": agent_text2sparql, "dataset": dataset}
    with progress_bar("asking", enabled=not json_out) as update:
        result = api.ask(pool, spec, out=out, lang=lang, split=split, variant=variant, limit=limit,
                         concurrency=concurrency, timeout=timeout, retry_errors=retry_errors, score=score,
                         report=report if score else None, kb=kb_choice(store, endpoint, services=service),
                         progress=update)
    for warning in result.warnings + (result.score.warnings if result.score else []):
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    if json_out:
        print_json(result.to_dict())
        return
    latency = result.latency_ms
    timing = f"; latency median {latency['median']:g} ms, p95 {latency['p95']:g} ms" if latency else ""
    console.print(f"{escape(result.agent)}: asked {result.asked} question(s) in {result.seconds:g} s "
                  f"({result.resumed} already answered): {result.answered} answered, {result.errors} failed"
                  f"{timing} → {out}", highlight=False)
    for example in result.error_examples:
        console.print(f"[yellow]failed:[/] {escape(example)}", highlight=False, soft_wrap=True)
    if result.score is not None:
        print_summary(result.score.summary, result.score.reports, f"Scores of {out.name}")
    else:
        console.print(f"[dim]score it with: nl2sparql-gen score --gold {pool} --pred {out}[/]", highlight=False)
