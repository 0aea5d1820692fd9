"""Interactive latency on a real-scale store: what a person waits for at each way in (issue 27).

Usage::

    python bench/interactive.py --store /work/main/cache/bench-mirror-store            # every path
    python bench/interactive.py --store … --paths api,agent --limit 30                 # a subset

The questions are the text of the frozen held-out sets (``bench/heldout/translator_questions.jsonl``
and ``agent_questions.jsonl``): 100 of them, drawn with a fixed seed. Every path runs in a fresh
process (so its first call is the cold one: the KB opened, the indexes and per-KB artefacts loaded
or built), then asks each question once more (the warm calls):

* ``api``: ``api.translate(q, execute=True, kb=store)``;
* ``agent``: ``api.agent(q, kb=store)`` (offline);
* ``mcp``: ``nl2sparql mcp serve --store …`` driven by the MCP SDK's stdio client, ``translate`` with
  ``execute=true``; then ``generate_examples`` (target 5: one cold, three warm with other seeds) and
  ``kb_info``; the server's resident memory at the end;
* ``ui``: ``nl2sparql ui --store …`` in headless Chromium, a Translate click timed in the page from the
  click to the new result drawn (as ``bench/ui.py``); the server's resident memory at the end;
* ``first``: ``nl2sparql translate --execute`` on the embedded sample with an empty cache directory
  (the first call after a fresh install), an Italian and an English question, wall time of the process.

Each line gives the load average (1 min) before and after. Memory is the resident set of the server
process and of its whole process tree (the query workers are forked from it: shared pages count in
each, so the tree figure is an upper bound).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HELDOUT = REPO / "bench" / "heldout"
BIN = Path(sys.executable).parent
PATHS = ("api", "agent", "mcp", "ui", "first")


def questions(n: int, seed: int = 27) -> list[str]:
    """``n`` distinct question texts of the two frozen held-out sets, in an order drawn with ``seed``."""
    texts: list[str] = []
    for name in ("translator_questions.jsonl", "agent_questions.jsonl"):
        for line in (HELDOUT / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)["question"]
                if q not in texts:
                    texts.append(q)
    random.Random(seed).shuffle(texts)
    return texts[:n]  # a smaller n asks the first questions of the larger one


def load() -> float:
    return round(os.getloadavg()[0], 2)


def p95(values: list[float]) -> float | None:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))] if ordered else None


def summary(cold: float, warm: list[float], load_before: float, query: list[float] | None = None, **extra) -> dict:
    """Cold and warm figures in seconds; with ``query`` (the engine's seconds of each warm call's queries),
    also the seconds outside the queries and how many calls had queries of more than a second."""
    out = {"cold_s": round(cold, 3), "warm_n": len(warm),
           "warm_p50_s": round(statistics.median(warm), 3) if warm else None,
           "warm_p95_s": round(p95(warm), 3) if warm else None,
           "warm_max_s": round(max(warm), 3) if warm else None}
    if query:
        rest = [w - q for w, q in zip(warm, query)]
        out.update(outside_queries_p50_s=round(statistics.median(rest), 3), outside_queries_p95_s=round(p95(rest), 3),
                   calls_with_queries_over_1s=sum(q > 1 for q in query))
    return {**out, "load_before": load_before, "load_after": load(), **extra,
            "warm_s": [round(w, 3) for w in warm]}  # per question, in order (for subsets)


def rss_kb(pid: int) -> int:
    """Resident set of one process, in KiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def memory(pid: int) -> dict:
    """Resident memory of ``pid`` and of its process tree, MiB."""
    procs = tree(pid)
    return {"rss_mib": round(rss_kb(pid) / 1024), "rss_tree_mib": round(sum(rss_kb(p) for p in procs) / 1024),
            "processes": len(procs)}


# -- in-process paths (run in a child process of their own) -------------------
def run_api(store: str, qs: list[str]) -> dict:
    from nl2sparql import api
    kb = api.KBChoice(store=store)

    def call(q: str) -> float:
        rows = api.translate(q, execute=True, kb=kb).rows
        return rows.elapsed_ms / 1000 if rows is not None else 0.0
    return timed_calls(call, qs, api.Nl2SparqlError)


def run_agent(store: str, qs: list[str]) -> dict:
    from nl2sparql import api
    kb = api.KBChoice(store=store)
    return timed_calls(lambda q: sum(x.get("ms") or 0 for x in api.agent(q, kb=kb).queries) / 1000, qs,
                       api.Nl2SparqlError)


def timed_calls(call, qs: list[str], error: type) -> dict:
    """``call(q)`` (returning its queries' seconds) on ``qs[0]`` (cold), then on every question (warm).

    A call that fails with ``error`` (a query past its time budget on a loaded machine) counts with its
    time, all of it in the queries."""
    def timed(q: str) -> tuple[float, float]:
        t0 = time.perf_counter()
        try:
            spent = call(q)
        except error:
            errors.append(q)
            spent = None
        took = time.perf_counter() - t0
        return took, took if spent is None else spent

    errors: list[str] = []
    before = load()
    cold, cold_query = timed(qs[0])
    warm, query, slowest = [], [], []
    for q in qs:
        took, spent = timed(q)
        warm.append(took)
        query.append(spent)
        slowest.append((took, q))
    slowest.sort(reverse=True)
    return summary(cold, warm, before, query, cold_outside_queries_s=round(cold - cold_query, 3),
                   errors=errors, slowest=[(round(s, 2), q) for s, q in slowest[:3]], **memory(os.getpid()))


# -- MCP ------------------------------------------------------------------------
def run_mcp(store: str, qs: list[str]) -> dict:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=str(BIN / "nl2sparql"), args=["mcp", "serve", "--store", store],
                                   env={**os.environ, "NL2SPARQL_LLM_CACHE": "off"})

    async def session() -> dict:
        before = load()
        out: dict = {}
        with open(os.devnull, "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                queries: list[float] = []

                errors: list[str] = []

                async def call(tool, args):
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, args)
                    took = time.perf_counter() - t0
                    if result.is_error:  # e.g. a query past its time budget on a loaded machine
                        errors.append(f"{tool} {args}: {result.content[0].text if result.content else ''}")
                        queries.append(took)
                        return took
                    rows = (result.structured_content or {}).get("rows") or {}
                    queries.append((rows.get("elapsed_ms") or 0) / 1000)
                    return took
                cold = await call("translate", {"question": qs[0], "execute": True})
                cold_query = queries.pop()
                warm = [await call("translate", {"question": q, "execute": True}) for q in qs]
                out["translate"] = summary(cold, warm, before, list(queries),
                                           cold_outside_queries_s=round(cold - cold_query, 3))
                before = load()
                cold = await call("generate_examples", {"target": 5, "seed": 0})
                warm = [await call("generate_examples", {"target": 5, "seed": s}) for s in (1, 2, 3)]
                out["generate_examples_5"] = summary(cold, warm, before)
                out["kb_info_s"] = round(await call("kb_info", {}), 3)
                out["errors"] = errors
                server = [p for p in tree(os.getpid()) if p != os.getpid() and "mcp" in _cmdline(p)]
                out["memory"] = memory(server[0]) if server else None
        return out
    return anyio.run(session)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


# -- UI ---------------------------------------------------------------------------


def run_ui(store: str, qs: list[str]) -> dict:
    sys.path.insert(0, str(REPO / "tests"))
    import urllib.request

    from ui import CLICK  # bench/ui.py: the click timed in the page
    from ui_helpers import Browser, browser_missing, free_port

    if (missing := browser_missing()) is not None:
        raise SystemExit(f"cannot run the UI path: {missing}")
    port = free_port()
    server = subprocess.Popen([str(BIN / "nl2sparql"), "ui", "--store", store, "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    browser = None
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the UI did not start")
                time.sleep(0.3)
        browser = Browser(Path(tempfile.mkdtemp(prefix="nl2sparql-bench-")))
        driver = browser.driver
        driver.set_script_timeout(300)
        driver.get(url)
        deadline = time.monotonic() + 120
        while not driver.find_elements("css selector", "#tr-question textarea"):
            if time.monotonic() > deadline:
                raise SystemExit("the Translate tab did not appear")
            time.sleep(0.1)
        box = driver.find_element("css selector", "#tr-question textarea")
        before = load()

        errors: list[str] = []

        def click(q: str) -> float:
            box.clear()
            box.send_keys(q)
            time.sleep(0.3)  # let the page register the new value before clicking
            ms, text = driver.execute_async_script(CLICK)
            if "Translated" not in text:  # e.g. a query past its time budget on a loaded machine
                errors.append(f"{q}: {' '.join(text.split())[:120]}")
            return ms / 1000
        cold = click(qs[0])
        warm = [click(q) for q in qs]
        return summary(cold, warm, before, errors=errors, **memory(server.pid))
    finally:
        if browser is not None:
            browser.quit()
        server.terminate()
        server.wait(30)


# -- first call on the sample after a fresh install -----------------------------------
def run_first(store: str, qs: list[str]) -> dict:
    out = {}
    env = {k: v for k, v in os.environ.items() if k not in ("NL2SPARQL_STORE", "NL2SPARQL_ENDPOINT")}
    for q in ("Quali sostantivi esprimono gioia?", "What is the Sicilian word for 'house'?"):
        with tempfile.TemporaryDirectory(prefix="nl2sparql-first-") as cache:
            before = load()
            t0 = time.perf_counter()
            subprocess.run([str(BIN / "nl2sparql"), "translate", "--execute", q],
                           env={**env, "NL2SPARQL_CACHE": cache}, check=True, stdout=subprocess.DEVNULL)
            out[q] = {"s": round(time.perf_counter() - t0, 2), "load_before": before, "load_after": load()}
    return out


RUNNERS = {"api": run_api, "agent": run_agent, "mcp": run_mcp, "ui": run_ui, "first": run_first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="on-disk Oxigraph store (opened read-only)")
    parser.add_argument("--paths", default=",".join(PATHS), help=f"comma-separated, of {', '.join(PATHS)}")
    parser.add_argument("--limit", type=int, default=100, help="questions per path (default 100)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--label", default="", help="what is measured (e.g. the commit), copied to the results")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    qs = questions(args.limit)
    if args.child:
        print(json.dumps(RUNNERS[args.child](args.store, qs)))
        return
    import nl2sparql
    results = {"label": args.label, "package": str(Path(nl2sparql.__file__).parent), "load_start": load(),
               "questions": len(qs)}
    for path in args.paths.split(","):
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--store", args.store, "--limit", str(args.limit),
                               "--child", path], stdout=subprocess.PIPE, text=True)
        if done.returncode:
            results[path] = {"failed": done.returncode}
        else:
            results[path] = json.loads(done.stdout.strip().splitlines()[-1])
        results[path]["path_wall_s"] = round(time.perf_counter() - t0, 1)
        shown = {k: v for k, v in results[path].items() if k != "warm_s"}
        print(f"{path}: {json.dumps(shown)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
