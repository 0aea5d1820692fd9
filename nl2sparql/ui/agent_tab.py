"""Agent: the answer and the final query first, then one line per step (its own time), each expandable.

The agent streams :class:`~nl2sparql.api.AgentStep` s. :func:`follow` turns any
such stream (or scripted ``{"node", "state"}`` dicts) into page updates, so it
is tested with a scripted stream; :func:`agent_steps` is the one place that
calls the API's agent. A run that ends without a useful answer (no query, an
error, no rows, an answer the agent could not verify, a question that is not
about LiITA) ends with a note, not a green "Done". In a build without the
agent the tab says so and its button is disabled.
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

#: Seconds between two "still running" updates while one step of the agent runs.
TICK = 1.0

UNAVAILABLE = "The agent is not available in this build (nl2sparql.api has no streaming agent yet)."

EXAMPLES = [
    ["Quali aggettivi esprimono gioia e hanno polarità positiva?"],
    ["Which Parmigiano words translate nouns that express fear?"],
    ["Quanti sensi ha la parola «testa» in CompL-it?"],
]
#: The longest text a step's details show for one field.
DETAIL_CHARS = 1500


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
    """What the page shows of a step: ``{"node", "ms", "summary", "state", "final"}``.

    ``state`` is what the node changed (its trace entry left out) plus the query
    being tried (``sparql``) and its rows once there are some; ``ms`` and
    ``summary`` come from the node's own trace entry (``None`` / empty for a
    scripted dict without one); ``final`` is the run's outcome once known.
    """
    if isinstance(step, dict):
        state = step.get("state") or {}
        return {"node": step.get("node", "?"), "ms": step.get("ms"), "summary": step.get("summary", ""),
                "state": state, "final": state.get("final")}
    if not isinstance(step, api.AgentStep):
        return None
    shown = {k: v for k, v in step.update.items() if k != "trace"}
    latest = step.state.get("final") or step.state.get("current") or {}
    if isinstance(latest, dict):
        if isinstance(latest.get("sparql"), str):
            shown["sparql"] = latest["sparql"]
        if isinstance(latest.get("rows"), dict) and "form" in latest["rows"]:
            shown["rows"] = latest["rows"]
    entry = (step.state.get("trace") or [{}])[-1]
    return {"node": step.node, "ms": entry.get("ms"), "summary": entry.get("summary", ""), "state": shown,
            "final": step.state.get("final")}


def _as_rows(value: Any):
    """An :class:`~nl2sparql.api.Rows` from a state's ``rows`` (a Rows or its ``to_dict()``), else ``None``."""
    if isinstance(value, api.Rows):
        return value
    if isinstance(value, dict) and "form" in value:
        return api.Rows(**value)
    return None


def _detail(key: str, value: Any) -> str:
    """One field of a step's details: a query highlighted, rows counted, text as text, data as indented JSON."""
    if key == "sparql" and isinstance(value, str):
        return highlight_html(short(value, DETAIL_CHARS))
    rows = _as_rows(value) if key == "rows" else None
    if rows is not None:
        return esc(f"{rows.count} row(s)" if rows.form != "ask" else f"ASK: {rows.boolean}")
    if isinstance(value, str) and "\n" not in value:
        return esc(short(value, DETAIL_CHARS))
    return f"<pre>{esc(short(plain(value).strip(), DETAIL_CHARS))}</pre>"


def plain(value: Any, indent: str = "") -> str:
    """Data as indented text a person reads (``key: value`` lines, ``-`` items, queries with real line breaks)."""
    if isinstance(value, dict):
        return "".join(f"\n{indent}{key}:{_nested(v, indent)}" for key, v in value.items())
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return " " + ", ".join(str(v) for v in value) if value else " —"
        return "".join(f"\n{indent}- " + plain(v, indent + "  ").lstrip("\n")[len(indent) + 2:]
                       if isinstance(v, dict) else f"\n{indent}-{_nested(v, indent)}" for v in value)
    text = str(value) if value is not None else "—"
    if "\n" in text:
        return "".join(f"\n{indent}  {line}" for line in text.splitlines())
    return f" {text}"


def _nested(value: Any, indent: str) -> str:
    return plain(value, indent + "  ") if isinstance(value, (dict, list, tuple)) else plain(value, indent)


def step_html(number: int, step: dict, seconds: float | None = None) -> str:
    """One step on one line (number, node, its own time, what it did), its state changes folded under it.

    ``seconds`` is the step's own time when the step does not carry it (``ms``).
    """
    own = step.get("ms")
    took = f"{own:.0f} ms" if isinstance(own, (int, float)) else f"{seconds:.1f} s" if seconds is not None else ""
    fields = "".join(f"<dt>{esc(key)}</dt><dd>{_detail(key, value)}</dd>"
                     for key, value in (step.get("state") or {}).items())
    body = f"<dl>{fields}</dl>" if fields else '<p class="nl2s-muted">(no state change)</p>'
    node = esc(step.get("node", "?"))
    return (f'<details class="nl2s-step" data-node="{node}"><summary><span class="nl2s-step-no">{number}</span> '
            f'<strong>{node}</strong> <span class="nl2s-step-summary">{esc(short(step.get("summary") or "", 300))}'
            f'</span><span class="nl2s-step-time">{esc(took)}</span></summary>{body}</details>')


def outcome(final: dict | None, rows, steps: int, seconds: float) -> str:
    """The run's closing message: green only for a verified answer with rows (or an ASK answer)."""
    final = final or {}
    reason = str(final.get("reason") or "")
    took = f"{steps} step(s), {seconds:.1f} s"
    if final.get("verdict") == "off_topic":
        return message("warn", reason)
    answered = rows is not None and (rows.form == "ask" or rows.count > 0)
    if final and final.get("verdict") == "ok" and answered:
        extra = f" ({reason})" if reason and reason != "verified" else ""
        return message("ok", f"The agent finished in {took} with a verified answer{extra}.")
    if answered:
        return message("warn", f"The agent finished in {took} with an answer it could not verify"
                               + (f" ({reason})" if reason else "") + "; check the query below.")
    return message("warn", f"The agent finished in {took} without a useful answer"
                           + (f" ({reason})" if reason else "") + ".")


def follow(steps: Iterable) -> Iterator[tuple]:
    """Stream page updates from agent steps: (status, trace, SPARQL, caption, rows) after each step.

    An error from the agent ends the stream with its message above the steps so far.
    """
    start = time.perf_counter()
    cards: list[str] = []
    sparql, rows, final = "", None, None
    last = start

    def update(status: str) -> tuple:
        return (status, "".join(cards), highlight_html(sparql, "No query yet."), rows_caption(rows) if rows else "",
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
            now = time.perf_counter()
            cards.append(step_html(len(cards) + 1, step, now - last))
            last = now
            state = step.get("state") or {}
            sparql = state["sparql"] if isinstance(state.get("sparql"), str) else sparql
            rows = _as_rows(state.get("rows")) or rows
            final = step.get("final") or final
            yield update(message("info", f"Running… step {len(cards)}: {step.get('node', '?')}"))
    except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
        yield update(message("error", error_line(exc)))
        return
    yield update(outcome(final, rows, len(cards), time.perf_counter() - start))


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
    """Run the agent on ``question`` and stream its answer and steps (a message when it is unavailable)."""
    try:
        steps = agent_steps(ctx, question)
    except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
        yield message("error", error_line(exc)), "", "", "", NO_RESULTS
        return
    yield from follow(steps)


def build(ctx: Context) -> None:
    """The Agent tab: question, outcome, answer and final query, then the steps."""
    available = agent_stream() is not None
    with gr.Tab("Agent", id="agent"):
        gr.Markdown("The agent writes a query, runs it, checks the answer against the question and tries again "
                    "when it is wrong. The answer and the final query come first; every step is listed below "
                    "(click one for its details).")
        if not available:
            gr.HTML(message("warn", UNAVAILABLE), elem_id="ag-unavailable")
        with gr.Row(equal_height=True):
            question = gr.Textbox(label="Question (Italian or English)", elem_id="ag-question", scale=5,
                                  interactive=available)
            go = gr.Button("Run the agent", variant="primary", elem_id="ag-go", scale=1, min_width=160,
                           interactive=available)
        gr.Examples(EXAMPLES, inputs=[question], label="Example questions")
        status = gr.HTML(elem_id="ag-status")
        with gr.Row(elem_id="ag-answer"):
            with gr.Column(scale=3):
                caption = gr.HTML(elem_id="ag-caption")
                table = gr.Dataframe(NO_RESULTS, label="Answer", interactive=False, wrap=True, elem_id="ag-table",
                                     max_height=360)
            with gr.Column(scale=2):
                gr.Markdown("**Final query**")
                sparql = gr.HTML(highlight_html("", "No query yet."), elem_id="ag-sparql")
        gr.Markdown("**Steps**")
        trace = gr.HTML(elem_id="ag-trace")

        go.click(partial(run_agent, ctx), [question], [status, trace, sparql, caption, table], api_name="agent")
