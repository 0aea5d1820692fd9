"""Benchmark of the KB layer on the LiITA mirror: store build, reference-query latency, rdflib baseline.

1. Builds an on-disk store of ``../shared/liita/mirror/*.nq.gz`` with
   :meth:`EmbeddedKB.build` in a temporary directory (load time, quads/s).
2. Runs the 139 reference queries (``../shared/reference/nl2sparql_examples.json``)
   one after the other on that store (:class:`EmbeddedKB`, one worker, per-query
   timeout): median/p95 of the queries that completed, rows > 0, timeouts,
   parse errors.
3. Runs the same queries with rdflib's own SPARQL engine on an ``rdflib.Dataset``
   loaded from the same files. The query text is prepared as the embedded store
   prepares it (missing standard prefixes completed, the CompL-it ``SERVICE``
   rewritten to ``GRAPH`` with :func:`rewrite_services`). The dataset's default
   graph is the union of every graph except CompL-it (materialised, as in the
   embedded store; ``default_union=True`` would also expose CompL-it outside
   ``SERVICE`` and change the answers). Each query runs in a forked child with
   the same timeout, so a runaway rdflib query is killed and counted as a timeout.

Times are engine times: from handing the query text to the engine until every
row is read (row cap 10,000), measured in the process that runs the engine
(parsing included). Ratios are rdflib / embedded.

Usage: ``.venv/bin/python bench/kb.py [--timeout 20] [--limit N] [--skip-rdflib] [--json-out FILE]``
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import multiprocessing as mp
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox
import rdflib

import nl2sparql
from nl2sparql.errors import QueryError
from nl2sparql.kb import Limits
from nl2sparql.kb.embedded import EmbeddedKB
from nl2sparql.namespaces import COMPLIT_SERVICE
from nl2sparql.sparql.lexer import query_form
from nl2sparql.sparql.rewrite import complete_prefixes, rewrite_services

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
OUT = REPO / "bench" / "out"
MAX_ROWS = 10_000


def rss_mb() -> float:
    """Resident memory of this process (MB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))]


def fmt(seconds: float) -> str:
    """``0.42 ms`` below a second, ``1.234 s`` above."""
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.3f} s"


def summary(name: str, results: list[dict], timeout: float) -> None:
    done = [r["seconds"] for r in results if r["status"] == "ok"]
    n = {k: sum(1 for r in results if r["status"] == k) for k in ("ok", "timeout", "parse", "error")}
    rows = sum(1 for r in results if r["status"] == "ok" and r["rows"] > 0)
    print(f"{name}: {len(results)} queries, completed {n['ok']} (rows > 0: {rows}), timeouts {n['timeout']} "
          f"(at {timeout:g} s), parse errors {n['parse']}, other errors {n['error']}")
    print(f"{name}: completed queries: median {fmt(statistics.median(done)) if done else '-'}, "
          f"p95 {fmt(pct(done, 0.95)) if done else '-'}, total {sum(done):.1f} s")


# -- embedded ----------------------------------------------------------------------------------

def run_embedded(store: Path, examples: list[dict], timeout: float) -> list[dict]:
    results = []
    with EmbeddedKB.on_disk(store, limits=Limits(timeout=timeout, max_rows=MAX_ROWS), workers=1) as kb:
        for ex in examples:
            start = time.perf_counter()
            try:
                table = kb.execute(ex["sparql"])
                rows = int(bool(table.boolean)) if table.form == "ask" else len(table.rows)
                status, seconds, error = "ok", table.elapsed, None
            except QueryError as exc:
                status = exc.kind if exc.kind in ("timeout", "parse") else "error"
                rows, seconds, error = 0, None, str(exc)[:200]
            results.append({"id": ex["id"], "status": status, "rows": rows, "seconds": seconds,
                            "wall": time.perf_counter() - start, "error": error})
    return results


# -- rdflib ------------------------------------------------------------------------------------

def load_rdflib(files: list[Path]) -> tuple[rdflib.Dataset, int]:
    ds = rdflib.Dataset(default_union=False)
    for path in files:
        with gzip.open(path, "rb") as f:
            ds.parse(f, format="nquads")
    default = ds.default_graph
    named = [g for g in ds.graphs() if g.identifier != default.identifier]
    quads = sum(len(ctx) for ctx in named)
    for ctx in named:
        if str(ctx.identifier) != COMPLIT_SERVICE:
            ds.addN((s, p, o, default) for s, p, o in ctx.triples((None, None, None)))
    return ds, quads


def _rdflib_child(conn, ds: rdflib.Dataset, query: str, form: str) -> None:
    start = time.perf_counter()
    try:
        result = ds.query(query)
        if form == "ask":
            rows = int(bool(result.askAnswer))
        elif form == "select":
            rows = 0
            for _ in result:
                rows += 1
                if rows >= MAX_ROWS:
                    break
        else:
            rows = min(len(result.graph), MAX_ROWS)
        conn.send(("ok", rows, time.perf_counter() - start, None))
    except Exception as exc:  # noqa: BLE001 - classified by the parent
        kind = "parse" if type(exc).__name__ in ("ParseException", "ParseSyntaxException") else "error"
        conn.send((kind, 0, None, f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"))
    finally:
        conn.close()


def run_rdflib(ds: rdflib.Dataset, examples: list[dict], timeout: float) -> list[dict]:
    ctx = mp.get_context("fork")
    results = []
    ds.query("ASK { ?s ?p ?o }").askAnswer  # import and warm the SPARQL machinery once, before forking
    gc.collect()
    gc.freeze()  # children do not walk (and so copy) the loaded graph
    for ex in examples:
        try:
            query, _ = complete_prefixes(ex["sparql"])
            query = rewrite_services(query, {COMPLIT_SERVICE: COMPLIT_SERVICE})
        except QueryError as exc:
            results.append({"id": ex["id"], "status": "error", "rows": 0, "seconds": None, "error": str(exc)})
            continue
        form = query_form(query)
        parent, child = ctx.Pipe(duplex=False)
        start = time.perf_counter()
        proc = ctx.Process(target=_rdflib_child, args=(child, ds, query, form), daemon=True)
        proc.start()
        child.close()
        if parent.poll(timeout):
            try:
                status, rows, seconds, error = parent.recv()
            except EOFError:
                status, rows, seconds, error = "error", 0, None, "child died"
        else:
            status, rows, seconds, error = "timeout", 0, None, None
            proc.kill()
        proc.join()
        parent.close()
        results.append({"id": ex["id"], "status": status, "rows": rows, "seconds": seconds,
                        "wall": time.perf_counter() - start, "error": error})
        print(f"  rdflib #{ex['id']}: {status} {rows} rows "
              f"{'' if seconds is None else f'{seconds:.2f} s'}", flush=True)
    return results


def compare(embedded: list[dict], rdf: list[dict], timeout: float) -> None:
    by_id = {r["id"]: r for r in embedded}
    both = [(by_id[r["id"]]["seconds"], r["seconds"]) for r in rdf
            if r["status"] == "ok" and by_id[r["id"]]["status"] == "ok"]
    if both:
        e, r = [b[0] for b in both], [b[1] for b in both]
        per_query = [y / max(x, 1e-4) for x, y in both]
        print(f"ratio rdflib/embedded over the {len(both)} queries both completed: "
              f"median time {fmt(statistics.median(r))} / {fmt(statistics.median(e))} = "
              f"{statistics.median(r) / max(statistics.median(e), 1e-4):.1f}x; "
              f"median per-query ratio {statistics.median(per_query):.1f}x; "
              f"total {sum(r):.1f} s / {sum(e):.1f} s = {sum(r) / max(sum(e), 1e-4):.1f}x")

    def capped(res):
        return timeout if res["status"] == "timeout" else res["seconds"]
    ran = [(capped(by_id[r["id"]]), capped(r)) for r in rdf
           if r["status"] in ("ok", "timeout") and by_id[r["id"]]["status"] in ("ok", "timeout")]
    if ran:
        e, r = [b[0] for b in ran], [b[1] for b in ran]
        print(f"ratio with timeouts counted at {timeout:g} s, over the {len(ran)} queries that ran on both: "
              f"median {fmt(statistics.median(r))} / {fmt(statistics.median(e))} = "
              f"{statistics.median(r) / max(statistics.median(e), 1e-4):.1f}x; "
              f"p95 {fmt(pct(r, 0.95))} / {fmt(pct(e, 0.95))}; "
              f"total {sum(r):.1f} s / {sum(e):.1f} s = {sum(r) / max(sum(e), 1e-4):.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", type=Path, default=SHARED / "liita" / "mirror")
    ap.add_argument("--examples", type=Path, default=SHARED / "reference" / "nl2sparql_examples.json")
    ap.add_argument("--timeout", type=float, default=20.0, help="per-query timeout (s)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N queries")
    ap.add_argument("--skip-rdflib", action="store_true", help="do not run the rdflib baseline")
    ap.add_argument("--json-out", type=Path, default=OUT / "kb.json", help="per-query results")
    args = ap.parse_args()

    files = sorted(args.mirror.glob("*.nq.gz"))
    if not files:
        raise SystemExit(f"no mirror at {args.mirror} (*.nq.gz)")
    examples = json.loads(args.examples.read_text(encoding="utf-8"))[: args.limit]
    print(f"# bench/kb.py: {len(examples)} reference queries, timeout {args.timeout:g} s; nl2sparql "
          f"{nl2sparql.__version__}, pyoxigraph {ox.__version__}, rdflib {rdflib.__version__}, Python "
          f"{platform.python_version()}; {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)

    out: dict = {"timeout": args.timeout}
    with tempfile.TemporaryDirectory(prefix="nl2sparql-bench-kb-") as tmp:
        store = Path(tmp) / "store"
        start = time.perf_counter()
        quads = EmbeddedKB.build(store, files, progress=False)
        load = time.perf_counter() - start
        size = sum(p.stat().st_size for p in store.rglob("*") if p.is_file()) / 2**20
        print(f"embedded: built the on-disk store ({len(files)} files, {quads:,} quads) in {load:.1f} s = "
              f"{quads / load:,.0f} quads/s (bulk load + union default graph + optimize; {size:,.0f} MB)",
              flush=True)
        out["embedded_load"] = {"seconds": load, "quads": quads, "mb": size}
        embedded = run_embedded(store, examples, args.timeout)
    summary("embedded", embedded, args.timeout)
    out["embedded"] = embedded
    save(args.json_out, out)

    if not args.skip_rdflib:
        before = rss_mb()
        start = time.perf_counter()
        ds, rquads = load_rdflib(files)
        load = time.perf_counter() - start
        print(f"rdflib: loaded {rquads:,} quads into an in-memory Dataset (+ union default graph) in {load:.1f} s "
              f"= {rquads / load:,.0f} quads/s; resident memory +{rss_mb() - before:,.0f} MB", flush=True)
        out["rdflib_load"] = {"seconds": load, "quads": rquads, "rss_mb": rss_mb() - before}
        rdf = run_rdflib(ds, examples, args.timeout)
        out["rdflib"] = rdf
        save(args.json_out, out)
        summary("rdflib", rdf, args.timeout)
        compare(embedded, rdf, args.timeout)

    save(args.json_out, out)
    print(f"per-query results: {args.json_out}")


def save(path: Path, out: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
