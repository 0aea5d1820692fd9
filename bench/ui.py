"""Web UI speed on the embedded sample: time to first paint, and the latency of a Translate click.

Usage::

    python bench/ui.py [--loads 5] [--clicks 8]

Needs Debian's chromium and chromedriver (headless, as in tests/test_ui_browser.py).
Each page load is a first visit (browser cache disabled); the times come from
the page's own clock: first contentful paint, and "ready" when the question
box exists. A click is timed in the page from the click to the new result
being drawn (status and table arrive in one update). Baselines from the same
run: a one-textbox Gradio app's paint and ready times, and ``api.translate``
called in-process for the same questions (what the click costs before HTTP,
queueing and drawing).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

QUESTIONS = ["Quali sostantivi esprimono paura?", "Which adjectives express joy?",
             "Come si dice «casa» in parmigiano?", "Quanti sensi ha la parola «testa»?"]

# Runs in every new document: note when the question box first exists.
READY_PROBE = """
new MutationObserver((_, obs) => {
  if (document.querySelector(arguments_selector)) { window.__readyAt = performance.now(); obs.disconnect(); }
}).observe(document, {subtree: true, childList: true});
"""

# The status box's own text, without Gradio's "processing…" overlay drawn inside it while a request runs.
# Resolves with [ms from the click to the new status drawn, the status text] (a translation or an error).
CLICK = """
const done = arguments[arguments.length - 1];
const status = document.getElementById('tr-status');
const textOf = (e) => { const c = e.cloneNode(true);
  c.querySelectorAll('[data-testid="status-tracker"]').forEach((t) => t.remove()); return c.textContent; };
const before = textOf(status);
const start = performance.now();
const check = () => {
  const text = textOf(status);
  if (text !== before && (text.includes('Translated') || text.includes('rror'))) {
    obs.disconnect(); done([performance.now() - start, text]); }
};
const obs = new MutationObserver(check);
obs.observe(status, {subtree: true, childList: true, characterData: true});
document.getElementById('tr-go').click();
"""


def page_loads(browser, url: str, selector: str, loads: int) -> tuple[list[float], list[float]]:
    """First contentful paint and ready times (ms) of ``loads`` first visits."""
    driver = browser.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    script = READY_PROBE.replace("arguments_selector", repr(selector))
    probe = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    paints, ready = [], []
    for _ in range(loads):
        driver.get("about:blank")
        driver.get(url)
        deadline = time.monotonic() + 120
        while driver.execute_script("return window.__readyAt") is None:
            if time.monotonic() > deadline:
                raise SystemExit(f"the page at {url} did not become ready in 120 s")
            time.sleep(0.05)
        fcp = driver.execute_script(
            "return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
        paints.append(fcp)
        ready.append(driver.execute_script("return window.__readyAt"))
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": probe["identifier"]})
    return paints, ready


def clicks(browser, n: int) -> list[tuple[str, float]]:
    """``n`` Translate clicks (cycling through QUESTIONS): (question, ms from click to the new result drawn)."""
    driver = browser.driver
    driver.set_script_timeout(120)
    box = driver.find_element("css selector", "#tr-question textarea")
    out = []
    for i in range(n):
        question = QUESTIONS[i % len(QUESTIONS)]
        box.clear()
        box.send_keys(question)
        time.sleep(0.3)  # let the page register the new value before clicking
        out.append((question, driver.execute_async_script(CLICK)[0]))
    return out


def in_process(n: int, kb) -> list[float]:
    """``api.translate(..., execute=True)`` wall times (ms) for the same questions."""
    from nl2sparql import api

    times = []
    for i in range(n):
        start = time.perf_counter()
        api.translate(QUESTIONS[i % len(QUESTIONS)], execute=True, kb=kb)
        times.append((time.perf_counter() - start) * 1000)
    return times


def fmt(values: list[float]) -> str:
    return f"median {statistics.median(values):7.0f} ms   min {min(values):6.0f}   max {max(values):6.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="first visits to time per app")
    parser.add_argument("--clicks", type=int, default=8, help="Translate clicks to time")
    args = parser.parse_args()

    import gradio as gr

    from nl2sparql import api
    from nl2sparql.ui import Context, warm_up
    from ui_helpers import Browser, browser_missing, free_port, served

    if (missing := browser_missing()) is not None:
        raise SystemExit(f"cannot run: {missing}")
    ctx = Context(kb=api.KBChoice())
    warm_up(ctx).join()
    browser = Browser(Path(tempfile.mkdtemp(prefix="nl2sparql-bench-")))
    try:
        with gr.Blocks(title="baseline", analytics_enabled=False) as bare:
            gr.Textbox(label="q", elem_id="bare-q")
        _, bare_url, _ = bare.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True,
                                     quiet=True, ssr_mode=False, footer_links=[])
        bare_paint, bare_ready = page_loads(browser, bare_url, "#bare-q textarea", args.loads)
        bare.close()
        with served(ctx) as url:
            paint, ready = page_loads(browser, url, "#tr-question textarea", args.loads)
            timed = clicks(browser, args.clicks)
        direct = in_process(args.clicks, ctx.kb)
    finally:
        browser.quit()
        ctx.cleanup()

    load = os.getloadavg()[0]
    print(f"# bench/ui.py: embedded sample, headless Chromium, {args.loads} first visits, {args.clicks} clicks; "
          f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {load:.1f} at the end")
    print(f"first contentful paint, nl2sparql UI      {fmt(paint)}")
    print(f"first contentful paint, one-textbox app   {fmt(bare_paint)}   (baseline)")
    print(f"question box ready, nl2sparql UI          {fmt(ready)}")
    print(f"textbox ready, one-textbox app            {fmt(bare_ready)}   (baseline)")
    click_ms = [ms for _, ms in timed]
    print(f"Translate click → result drawn            {fmt(click_ms)}   (first click {click_ms[0]:.0f} ms)")
    print(f"api.translate(execute=True) in-process    {fmt(direct)}   (baseline)")
    for question, ms in timed:
        print(f"  {ms:7.0f} ms  {question}")


if __name__ == "__main__":
    main()
