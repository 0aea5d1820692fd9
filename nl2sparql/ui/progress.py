"""Stream an API call's progress into the page: Gradio's progress bar plus a step-by-step box."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from .context import run_in_thread
from .render import esc

#: Seconds between two page updates for the same step (a new step always updates).
UPDATE_EVERY = 0.25


def steps_html(steps: dict[str, tuple[int, int]], current: str | None) -> str:
    """Each step seen so far with its count, and a bar for the running one."""
    rows = []
    for name, (done, total) in steps.items():
        mark = "▶" if name == current and done < total else "✓" if done >= total else "·"
        bar = f'<progress value="{done}" max="{max(total, 1)}"></progress>' if total else ""
        rows.append(f'<li class="nl2s-pstep"><span class="nl2s-pmark">{mark}</span> {esc(name)} '
                    f'<span class="nl2s-pcount">{done}/{total}</span> {bar}</li>')
    return f'<div class="nl2s-progress" role="status"><ul>{"".join(rows)}</ul></div>'


def stream_progress(work: Callable[[Callable], Any], progress=None,
                    step_of: Callable[[tuple], tuple[str, int, int]] = lambda e: e) -> Iterator[tuple[str, Any]]:
    """Run ``work(emit)`` in a thread: yield ``("progress", html)`` while it runs, then ``("result", value)``.

    ``emit`` receives the API's progress arguments as a tuple; ``step_of`` maps
    them to ``(step, done, total)``. ``progress`` is a ``gr.Progress`` (or ``None``).
    """
    steps: dict[str, tuple[int, int]] = {}
    last_step, last_time = None, 0.0
    for kind, value in run_in_thread(work):
        if kind == "result":
            yield "result", value
            return
        step, done, total = step_of(value)
        steps[step] = (done, total)
        if progress is not None:
            progress((done, total), desc=step)
        now = time.perf_counter()
        if step != last_step or done >= total or now - last_time >= UPDATE_EVERY:
            last_step, last_time = step, now
            yield "progress", steps_html(steps, step)
