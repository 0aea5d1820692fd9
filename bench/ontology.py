"""Accuracy of the ontology search on hand-written descriptions of properties and classes.

Each line of the queries file (default ``bench/heldout/ontology_queries.jsonl``)
is ``{"id", "lang", "query", "expected": [CURIEs], "note"}``; any expected CURIE
counts as a hit. Reports top-1 and top-3 accuracy, overall and per language,
for the full search and for ablations computed in the same run (no occurrence
boost, no pattern boost, BM25 + boosts without the embedder, dense only, BM25
only), the misses of the full search, and the per-query latency (embedder
warm, index cached). Occurrence counts come from the KB in use (the embedded
sample unless ``--store``/``--endpoint``).

Usage: ``.venv/bin/python bench/ontology.py [--queries FILE] [--store DIR | --endpoint URL] [--json OUT]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from nl2sparql.fileio import iter_jsonl
from nl2sparql.kb import open_kb
from nl2sparql.ontology.counts import occurrence_counts
from nl2sparql.ontology.index import DEFAULT_WEIGHTS, OntologyIndex

HERE = Path(__file__).resolve().parent
DEFAULT_QUERIES = HERE / "heldout" / "ontology_queries.jsonl"
ABLATIONS = {  # name -> (dense index?, weights)
    "full": (True, DEFAULT_WEIGHTS),
    "no occurrence boost": (True, {**DEFAULT_WEIGHTS, "occurrence": 0.0}),
    "no pattern boost": (True, {**DEFAULT_WEIGHTS, "pattern": 0.0}),
    "BM25 + boosts (no embedder)": (False, DEFAULT_WEIGHTS),
    "dense only": (True, {"dense": 1.0, "bm25": 0.0, "pattern": 0.0, "occurrence": 0.0}),
    "BM25 only": (False, {"dense": 0.0, "bm25": 1.0, "pattern": 0.0, "occurrence": 0.0}),
}


def evaluate(index: OntologyIndex, queries: list[dict], counts, k: int = 3) -> dict:
    """Top-1 / top-k accuracy (overall and per language), misses and latencies of one configuration."""
    rows, times = [], []
    for q in queries:
        start = time.perf_counter()
        hits = index.search(q["query"], k=k, counts=counts)
        times.append(time.perf_counter() - start)
        got = [h.entry.curie for h in hits]
        expected = set(q["expected"])
        rows.append({"id": q["id"], "lang": q["lang"], "query": q["query"], "expected": q["expected"],
                     "got": got, "top1": got[0] in expected, "topk": bool(expected & set(got))})
    summary = {"n": len(rows), **_rates(rows)}
    for lang in sorted({r["lang"] for r in rows}):
        summary[lang] = {"n": sum(r["lang"] == lang for r in rows), **_rates([r for r in rows if r["lang"] == lang])}
    ms = sorted(t * 1000 for t in times)
    summary["latency_ms"] = {"p50": round(statistics.median(ms), 1), "p95": round(ms[int(0.95 * (len(ms) - 1))], 1)}
    summary["misses"] = [r for r in rows if not r["topk"]]
    summary["top1_misses"] = [r for r in rows if r["topk"] and not r["top1"]]
    return summary


def _rates(rows: list[dict]) -> dict:
    n = len(rows) or 1
    return {"top1": round(sum(r["top1"] for r in rows) / n, 4), "top3": round(sum(r["topk"] for r in rows) / n, 4)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--endpoint", default=None)
    parser.add_argument("--json", type=Path, default=None, help="write every result here")
    args = parser.parse_args(argv)

    queries = [obj for _, obj in iter_jsonl(args.queries)]
    kb = open_kb(store=args.store, endpoint=args.endpoint)
    start = time.perf_counter()
    counts = occurrence_counts(kb)
    count_s = time.perf_counter() - start
    print(f"# bench/ontology.py: {len(queries)} queries from {args.queries.name}; counts on {kb.description} "
          f"({'cached' if counts.from_cache else f'measured in {count_s:.1f} s'}; fingerprint {counts.fingerprint})")
    start = time.perf_counter()
    dense_index = OntologyIndex()
    print(f"# index with embedder: {time.perf_counter() - start:.1f} s ({len(dense_index.texts)} texts); "
          f"warnings: {dense_index.warnings or 'none'}")
    plain_index = OntologyIndex(embedder="none")
    dense_index.search("warm-up", k=1, counts=counts)  # loads the encoder before timing
    results = {}
    print(f"{'configuration':34} {'top-1':>6} {'top-3':>6}  {'it top-1/3':>12}  {'en top-1/3':>12}  {'p50 ms':>7}")
    for name, (dense, weights) in ABLATIONS.items():
        index = dense_index if dense else plain_index
        index.weights = dict(weights)
        res = evaluate(index, queries, counts)
        results[name] = res
        per = {lang: f"{res[lang]['top1']:.0%}/{res[lang]['top3']:.0%}" for lang in ("it", "en") if lang in res}
        print(f"{name:34} {res['top1']:>6.1%} {res['top3']:>6.1%}  {per.get('it', '-'):>12}  {per.get('en', '-'):>12}"
              f"  {res['latency_ms']['p50']:>7}")
    full = results["full"]
    print(f"# full: {len(full['misses'])} top-3 misses, {len(full['top1_misses'])} more top-1 misses")
    for r in full["misses"]:
        print(f"  MISS {r['id']} [{r['lang']}] {r['query']!r}: expected {r['expected']}, got {r['got']}")
    for r in full["top1_misses"]:
        print(f"  top1 {r['id']} [{r['lang']}] {r['query']!r}: expected {r['expected']}, got {r['got']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    kb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
