"""Agent: the agent's node-by-node trace, streamed into the page while it runs.

The agent streams step dicts ``{"node": name, "state": {...}}``. :func:`follow`
turns any such stream into page updates, so it is tested with a scripted
stream; :func:`agent_steps` is the one place that calls the API's agent.
In a build without the agent the tab says so and its button is disabled.
"""

from __future__ import annotations

import queue
import threading
import time
from functools import partial
from typing import Any, Iterable, Iterator

import gradio as gr

from .. import api
from .context import Context, error_line
from .render import NO_RESULTS, esc, highlight_html, message, rows_caption, rows_frame, short
from .widgets import results_block

#: Seconds between two "still running" updates while one step of the agent runs.
TICK = 1.0

UNAVAILABLE = "The agent is not available in this build (nl2sparql.api has no streaming agent yet)."

EXAMPLES = [
    ["Quali aggettivi esprimono gioia e hanno polarità positiva?"],
    ["Which Parmigiano words translate nouns that express fear?"],
    ["Quanti sensi ha la parola «testa» in CompL-it?"],
]


def agent_stream():
    """The API's streaming agent (``question, kb=`` → step dicts), or ``None`` in a build without it."""
    return getattr(api, "agent_stream", None)


def agent_steps(ctx: Context, question: str) -> Iterable:
    """The agent's steps (:class:`~nl2sparql.api.AgentStep`) for ``question`` on the app's KB."""
    stream = agent_stream()
    if stream is None:
        raise api.ConfigError(UNAVAILABLE)
    return stream(question, kb=ctx.kb)


def display(step: Any) -> dict | None:
    """What the trace shows of a step: ``{"node", "state"}``, the state being what the node changed
    (its trace entry left out) plus the query being tried (``sparql``) and its rows once there are some."""
    if isinstance(step, dict):
        return step
    if not isinstance(step, api.AgentStep):
        return None
    shown = {k: v for k, v in step.update.items() if k != "trace"}
    latest = step.state.get("final") or step.state.get("current") or {}
    if isinstance(latest, dict):
        if isinstance(latest.get("sparql"), str):
            shown["sparql"] = latest["sparql"]
        if isinstance(latest.get("rows"), dict) and "form" in latest["rows"]:
            shown["rows"] = latest["rows"]
    return {"node": step.node, "state": shown}


def _as_rows(value: Any):
    """An :class:`~nl2sparql.api.Rows` from a state's ``rows`` (a Rows or its ``to_dict()``), else ``None``."""
    if isinstance(value, api.Rows):
        return value
    if isinstance(value, dict) and "form" in value:
        return api.Rows(**value)
    return None


def step_html(number: int, step: dict, seconds: float) -> str:
    """One node of the trace: its name, when it finished, and what it put in the state."""
    state = step.get("state") or {}
    fields = []
    for key, value in state.items():
        if key == "rows" and _as_rows(value) is not None:
            value = f"{_as_rows(value).count} row(s)"
        if key == "sparql" and isinstance(value, str):
            fields.append(f"<dt>{esc(key)}</dt><dd><pre>{esc(short(value, 2000))}</pre></dd>")
        else:
            fields.append(f"<dt>{esc(key)}</dt><dd>{esc(short(value))}</dd>")
    body = f"<dl>{''.join(fields)}</dl>" if fields else '<p class="nl2s-muted">(no state change)</p>'
    return (f'<div class="nl2s-step" data-node="{esc(step.get("node", "?"))}"><div class="nl2s-step-head">'
            f'<span class="nl2s-step-no">{number}</span> <strong>{esc(step.get("node", "?"))}</strong>'
            f'<span class="nl2s-step-time">{seconds:.1f} s</span></div>{body}</div>')


def follow(steps: Iterable) -> Iterator[tuple]:
    """Stream page updates from agent steps: (status, trace, SPARQL, caption, rows) after each step.

    An error from the agent ends the stream with its message under the trace so far.
    """
    start = time.perf_counter()
    cards: list[str] = []
    sparql, rows = "", None

    def update(status: str) -> tuple:
        return (status, "".join(cards), highlight_html(sparql), rows_caption(rows) if rows else "",
                rows_frame(rows) if rows else NO_RESULTS)

    yield update(message("info", "The agent is running…"))
    try:
        for raw in _ticking(steps, TICK):
            if raw is None:  # still in the same step: say how long it has been going
                yield update(message("info", f"Running… {len(cards)} step(s) so far, "
                                             f"{time.perf_counter() - start:.0f} s"))
                continue
            step = display(raw)
            if step is None:
                continue
            cards.append(step_html(len(cards) + 1, step, time.perf_counter() - start))
            state = step.get("state") or {}
            sparql = state["sparql"] if isinstance(state.get("sparql"), str) else sparql
            rows = _as_rows(state.get("rows")) or rows
            yield update(message("info", f"Running… {len(cards)} step(s) so far"))
    except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
        yield update(message("error", error_line(exc)))
        return
    yield update(message("ok", f"The agent finished in {len(cards)} step(s), {time.perf_counter() - start:.1f} s."))


def _ticking(steps: Iterable, every: float) -> Iterator[Any]:
    """The items of ``steps`` (consumed in a thread), with ``None`` each time ``every`` seconds pass between two."""
    events: queue.Queue = queue.Queue()

    def pump() -> None:
        try:
            for item in steps:
                events.put(("item", item))
            events.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - raised again in the page's thread
            events.put(("error", exc))
    threading.Thread(target=pump, name="nl2sparql-ui-agent", daemon=True).start()
    while True:
        try:
            kind, value = events.get(timeout=every)
        except queue.Empty:
            yield None
            continue
        if kind == "end":
            return
        if kind == "error":
            raise value
        yield value


def run_agent(ctx: Context, question: str) -> Iterator[tuple]:
    """Run the agent on ``question`` and stream its trace (a message when it is unavailable)."""
    try:
        steps = agent_steps(ctx, question)
    except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
        yield message("error", error_line(exc)), "", "", "", NO_RESULTS
        return
    yield from follow(steps)


def build(ctx: Context) -> None:
    """The Agent tab."""
    available = agent_stream() is not None
    with gr.Tab("Agent", id="agent"):
        gr.Markdown("The agent plans, writes, checks and repairs a query step by step; each step appears below "
                    "as it finishes.")
        if not available:
            gr.HTML(message("warn", UNAVAILABLE), elem_id="ag-unavailable")
        with gr.Row(equal_height=True):
            question = gr.Textbox(label="Question (Italian or English)", elem_id="ag-question", scale=5,
                                  interactive=available)
            go = gr.Button("Run the agent", variant="primary", elem_id="ag-go", scale=1, min_width=160,
                           interactive=available)
        gr.Examples(EXAMPLES, inputs=[question], label="Example questions")
        status = gr.HTML(elem_id="ag-status")
        with gr.Row():
            with gr.Column(scale=3):
                trace = gr.HTML(elem_id="ag-trace", label="Trace")
            with gr.Column(scale=2):
                gr.Markdown("**Final SPARQL**")
                sparql = gr.HTML(elem_id="ag-sparql")
        caption, table = results_block("ag", downloads=False)

        go.click(partial(run_agent, ctx), [question], [status, trace, sparql, caption, table], api_name="agent")
