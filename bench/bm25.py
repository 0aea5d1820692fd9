"""Why nl2sparql has its own BM25: query time against ``rank_bm25.BM25Okapi`` on the same corpus.

Usage::

    python bench/bm25.py [--pool nl2sparql/data/pools/sample_pool.jsonl] [--copies 6] [--queries 200]

The corpus is every question text of the pool (``--copies`` times, to reach
a realistic 10k–60k texts), tokenised as retrieval does. Both indexes answer
the same queries (other pool questions); the scores are checked equal and
the per-query times compared, measured interleaved in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.fileio import read_pool  # noqa: E402
from nl2sparql.translate.bm25 import BM25Index, TokenTable  # noqa: E402
from nl2sparql.translate.text import item_texts, tokenize  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, default=REPO / "nl2sparql" / "data" / "pools" / "sample_pool.jsonl")
    parser.add_argument("--copies", type=int, default=6)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    from rank_bm25 import BM25Okapi

    items, _ = read_pool(args.pool)
    texts = [t for item in items for t in item_texts(item)]
    docs = [tokenize(t) for t in texts] * args.copies
    queries = [tokenize(t) for t in texts[:: max(1, len(texts) // args.queries)]][: args.queries]
    t0 = time.perf_counter()
    ours = BM25Index(TokenTable.from_docs(docs))
    build_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = BM25Okapi(docs)
    build_theirs = time.perf_counter() - t0
    ours_ms, theirs_ms = [], []
    for q in queries:
        t0 = time.perf_counter()
        a = ours.scores(q)
        ours_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        b = theirs.get_scores(q)
        theirs_ms.append((time.perf_counter() - t0) * 1000)
        assert np.allclose(a, b), "scores differ"
    p50 = statistics.median
    print(f"corpus: {len(docs):,} texts, {len(queries)} queries (scores equal)")
    print(f"build:  ours {build_ours:.2f} s, rank_bm25 {build_theirs:.2f} s")
    print(f"query p50: ours {p50(ours_ms):.3f} ms, rank_bm25 {p50(theirs_ms):.2f} ms "
          f"({p50(theirs_ms) / p50(ours_ms):.0f}x)")


if __name__ == "__main__":
    main()
