"""``nl2sparql agent`` and ``nl2sparql agent-viz``.

Register with ``app.command("agent")(agent)`` and ``app.command("agent-viz")(agent_viz)`` in ``cli/main.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table

from .common import (LLM_PANEL, EmbedderOpt, EndpointOpt, JsonOpt, KOpt, LLMBaseUrlOpt, LLMConfigOpt, LLMModelOpt,
                     ServiceOpt, StoreOpt, TimeoutOpt, console, friendly, kb_choice, llm_settings, print_json)
from .translate_cmd import show_rows


@friendly
def agent(
    question: Annotated[str, typer.Argument(help="The question, in Italian or English.", show_default=False)],
    stream: Annotated[bool, typer.Option("--stream", help="Show each step as it finishes.")] = False,
    json_out: JsonOpt = False,
    max_attempts: Annotated[int, typer.Option("--max-attempts", min=1, help="Queries tried before falling back "
                                                                          "to the first valid one.")] = 3,
    pool: Annotated[Optional[List[Path]], typer.Option(
        "--pool", help="Example pool (.jsonl) for retrieval; repeat for several. Default: the shipped pools.",
        show_default=False)] = None,
    k: KOpt = 5,
    embedder: EmbedderOpt = None,
    thread: Annotated[Optional[str], typer.Option(
        "--thread", help="Thread id: resume this run where it stopped, or show it when finished (needs --checkpoint).",
        show_default=False)] = None,
    checkpoint: Annotated[Optional[Path], typer.Option(
        "--checkpoint", help="Sqlite file keeping every step of the run (to inspect or resume it).",
        show_default=False)] = None,
    store: StoreOpt = None,
    endpoint: EndpointOpt = None,
    service: ServiceOpt = None,
    timeout: TimeoutOpt = 20.0,
    llm: Annotated[bool, typer.Option("--llm", rich_help_panel=LLM_PANEL,
                                      help="Read and plan with the fast tier, write with the default tier of the "
                                           "configured LLM (offline without it).")] = False,
    llm_model: LLMModelOpt = None,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_config: LLMConfigOpt = None,
) -> None:
    """Answer QUESTION with the self-correcting agent: it runs each query, checks the answer and tries again.

    Prints the answer and the final query first, then the attempts and the
    steps (--stream: each step as it finishes, the answer at the end).
    """
    from .. import api

    options = dict(mode="llm" if llm else "offline", kb=kb_choice(store, endpoint, timeout, services=service),
                   pools=pool, k=k, embedder=embedder, max_attempts=max_attempts, checkpoint=checkpoint,
                   thread=thread, llm=llm_settings(llm, llm_model, llm_base_url, llm_config))
    if not stream:
        result = api.agent(question, **options)
        if json_out:
            print_json(result.to_dict())
        else:
            _show(result)
            _show_trace(result.trace)
        return
    last = None
    for n, step in enumerate(api.agent_stream(question, **options), 1):
        last = step
        if json_out:
            sys.stdout.write(json.dumps(step.to_dict(), ensure_ascii=False) + "\n")
            sys.stdout.flush()
        else:
            _show_step(n, (step.state.get("trace") or [{}])[-1])
    result = last.to_result() if last is not None else None
    if result is not None and not json_out:
        console.print()
        _show(result)


def _show_step(n: int, entry: dict) -> None:
    """One step on one line: number, node, its own time, and what it did (wrapped under itself)."""
    line = Table.grid(padding=(0, 1))
    line.add_column(width=2, justify="right", style="dim")
    line.add_column(width=8, style="bold")
    line.add_column(width=10, justify="right")
    line.add_column(ratio=1)
    line.add_row(str(n), escape(entry.get("node", "?")), f"{entry.get('ms', 0):.1f} ms",
                 escape(entry.get("summary", "")))
    console.print(line, highlight=False)


def _show_trace(trace: list[dict]) -> None:
    console.print("[bold]Steps[/]")
    for n, entry in enumerate(trace, 1):
        _show_step(n, entry)


def _show(result) -> None:
    """Print an :class:`~nl2sparql.api.AgentResult` for a person: the answer and the query, then the attempts."""
    final = result.final
    if final.get("verdict") == "off_topic":
        console.print(f"[yellow]{escape(final.get('reason', ''))}[/]", highlight=False)
        return
    if result.rows is not None:
        show_rows(result.rows)
    where = f"attempt {final.get('attempt')}, {final.get('source')}" if final.get("attempt") else "no valid attempt"
    title = f"SPARQL (agent, {result.mode}, {where})"
    console.print(Panel(Syntax(result.sparql.strip() or "# none", "sparql", word_wrap=True), title=title,
                        expand=False))
    console.print(f"[bold]confidence[/] {result.confidence:.2f}   [bold]attempts[/] {len(result.attempts)}   "
                  f"[bold]queries run[/] {len(result.queries)}   {escape(final.get('reason', ''))}", highlight=False)
    if result.attempts:
        table = Table("#", "source", "verdict", "answer", "fixes", title="Attempts", title_justify="left")
        for a in result.attempts:
            answer = a.get("error") or (f"ASK {a.get('boolean')}" if a.get("form") == "ask"
                                        else f"{a.get('rows')} row(s)")
            table.add_row(str(a["n"]), escape(a["source"]), a["verdict"], escape(str(answer)[:80]),
                          escape(", ".join(a.get("fixes") or []))[:60])
        console.print(table)
    for r in result.refinements:
        console.print(f"[yellow]{r['node']} after attempt {r['after_attempt']}:[/] "
                      + escape("; ".join(r["actions"])), highlight=False, soft_wrap=True)


@friendly
def agent_viz() -> None:
    """Print the agent's graph as a Mermaid flowchart (paste it into any Mermaid viewer)."""
    from .. import api

    sys.stdout.write(api.agent_graph())
