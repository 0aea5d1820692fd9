"""Benchmark and evaluation of the offline translator.

Speed (``--speed``, default on): a 10,000-item pool composed on the LiITA mirror
(catalogue facts sampled from an on-disk mirror store, the generator's Composer
and phrasing; queries are not executed — only questions and pattern sets matter
for speed), 10 % held out. Reports the index build time (cold: tokenise + USE
embedding of every question; warm: load from the cache), retrieval p50/p95
(k=5, held-out questions), offline translation p50/p95 with and without
retrieval, and retrieval recall@5 (the gold's pattern set among the patterns of
the top 5 examples).

Accuracy (``--accuracy``): strict/relaxed execution accuracy reported by the
scorer for the offline translator on the held-out ``test`` split of a pool
(default ``nl2sparql/data/pools/sample_pool.jsonl`` on the embedded sample; retrieval over
the other splits only), Italian and English separately, every style variant,
recall@5 on that split, and the hand-written questions
(``tests/data/handwritten_questions.jsonl``) per language and per set.

Usage::

    .venv/bin/python bench/translate.py                   # speed on the mirror pool
    .venv/bin/python bench/translate.py --accuracy --no-speed
    .venv/bin/python bench/translate.py --items 10000 --queries 300 --store cache/bench-mirror-store
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT = REPO / "bench" / "out"

from nl2sparql.patterns import Facts, detect_patterns, fact_queries  # noqa: E402
from nl2sparql.patterns.compose import Composer  # noqa: E402
from nl2sparql.patterns.phrasing import realise_all  # noqa: E402
from nl2sparql.translate.offline import AUTO_LABELS, OfflineTranslator  # noqa: E402
from nl2sparql.translate.retrieval import HybridRetriever  # noqa: E402

STRUCTURAL = AUTO_LABELS | {"COUNT_ENTITIES", "META_GRAPH"}


def content(patterns: dict) -> frozenset:
    """The pattern set compared by recall@5 (weights ≥ 0.5, derived labels dropped)."""
    return frozenset(k for k, v in patterns.items() if float(v) >= 0.5 and k not in AUTO_LABELS)


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000


def find_store(given: Path | None) -> Path:
    """The mirror store: ``--store``, else the bench or test store in ``cache/``, else built in ``cache/``."""
    from nl2sparql.kb.embedded import MARKER, EmbeddedKB
    candidates = [given] if given else [REPO / "cache" / "bench-mirror-store",
                                        *sorted((REPO / "cache").glob("test-mirror-store-*"))]
    for path in candidates:
        if path and (path / MARKER).is_file():
            return path
    target = given or REPO / "cache" / "bench-mirror-store"
    files = sorted((REPO.parent / "shared" / "liita" / "mirror").glob("*.nq.gz"))
    if not files:
        sys.exit("no mirror store and no ../shared/liita/mirror to build one from")
    print(f"building the mirror store in {target} …", flush=True)
    EmbeddedKB.build(target, files, progress=False)
    return target


def mirror_facts(store: Path) -> Facts:
    """The catalogue's facts on the mirror (cached in bench/out/translate_mirror_facts.json)."""
    cache = OUT / "translate_mirror_facts.json"
    if cache.is_file():
        return Facts.from_json(json.loads(cache.read_text(encoding="utf-8")))
    sampled = sorted((OUT / "cache").glob("bench_*_step0.jsonl"))  # bench/generate.py's SchemaSampler output
    if sampled:
        rows = {}
        for line in sampled[-1].read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            rows[obj["fact"]] = [tuple(r) for r in obj["rows"]]
        if set(rows) >= set(fact_queries()):
            print(f"mirror facts from {sampled[-1].name}")
            return Facts(rows)
    from nl2sparql.kb import open_kb
    start = time.perf_counter()
    rows = {}
    with open_kb(store=store, timeout=600) as kb:
        for name, query in fact_queries().items():
            table = kb.select(query, timeout=600, max_rows=5_000_000)
            rows[name] = sorted(tuple("" if t is None else t.value for t in r) for r in table.rows)
    facts = Facts(rows)
    OUT.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(facts.to_json(), ensure_ascii=False), encoding="utf-8")
    print(f"sampled the mirror facts in {time.perf_counter() - start:.1f} s")
    return facts


def mirror_pool(store: Path, n: int, seed: int = 11) -> Path:
    """``n`` composed items on the mirror's facts (cached in bench/out)."""
    path = OUT / f"translate_mirror_pool_{n}.jsonl"
    if path.is_file():
        return path
    composer = Composer(mirror_facts(store), seed=seed)
    items, seen, i = [], set(), 0
    start = time.perf_counter()
    while len(items) < n and i < n * 4:
        cand = composer.draw(i)
        i += 1
        if cand is None or isinstance(cand, str) or cand.sparql in seen:
            continue
        seen.add(cand.sparql)
        qs = realise_all(cand.fragment_objects(), cand.shape, random.Random(f"{seed}:{cand.cid}"), cand.word, cand.limit)
        items.append({"id": f"m{seed}-{len(items):05d}", "sparql": cand.sparql, "nl": qs["it"]["generic"],
                      "nl_variants": qs["it"], "nl_en": qs["en"]["generic"], "nl_en_variants": qs["en"],
                      "patterns": cand.labels, "split": "test" if len(items) % 10 == 9 else "train",
                      "provenance": {"shape": cand.shape}})
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in items), encoding="utf-8")
    print(f"composed {len(items)} mirror items in {time.perf_counter() - start:.1f} s -> {path}")
    return path


def recall_at_5(retriever, items: list[dict], field: str) -> float:
    """Share of questions whose gold pattern set is the pattern set of one of the top-5 examples."""
    hits = 0
    for item in items:
        gold = content(item["patterns"])
        top = retriever.retrieve(item[field], k=5)
        hits += any(content(h.item.get("patterns") or {}) == gold for h in top)
    return hits / len(items)


def speed(args) -> None:
    """Index build, retrieval and translation latency, recall@5 on the mirror pool."""
    from nl2sparql.translate.index_cache import read_pool
    store = find_store(args.store)
    pool = mirror_pool(store, args.items)
    items, _ = read_pool(pool)
    train_path = OUT / f"translate_mirror_pool_{args.items}_train.jsonl"
    train = [i for i in items if i["split"] != "test"]
    test = [i for i in items if i["split"] == "test"]
    text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in train)
    if not train_path.is_file() or train_path.read_text(encoding="utf-8") != text:
        train_path.write_text(text, encoding="utf-8")
    texts = sum(len({t for t in [i["nl"], i["nl_en"], *i["nl_variants"].values(), *i["nl_en_variants"].values()]})
                for i in train)
    cache_root = OUT / "index-cache-translate"
    cold = None
    if args.cold or not cache_root.is_dir():
        import shutil
        shutil.rmtree(cache_root, ignore_errors=True)  # a cold build: nothing cached
        start = time.perf_counter()
        HybridRetriever.from_pools([train_path], pattern_detector=detect_patterns, cache_root=cache_root)
        cold = time.perf_counter() - start
    start = time.perf_counter()
    retriever = HybridRetriever.from_pools([train_path], pattern_detector=detect_patterns, cache_root=cache_root)
    warm = time.perf_counter() - start
    questions = [q for i in test for q in (i["nl"], i["nl_en"])][: args.queries]
    for q in questions[:3]:
        retriever.retrieve(q, k=5)
    r_times, t_times, o_times = [], [], []
    with_retrieval, alone = OfflineTranslator(retriever), OfflineTranslator()
    for q in questions:
        t = time.perf_counter(); retriever.retrieve(q, k=5); r_times.append(time.perf_counter() - t)  # noqa: E702
        t = time.perf_counter(); with_retrieval.translate(q); t_times.append(time.perf_counter() - t)  # noqa: E702
        t = time.perf_counter(); alone.translate(q); o_times.append(time.perf_counter() - t)  # noqa: E702
    print(f"# bench/translate.py speed: {len(items):,} mirror items ({len(train):,} indexed, {texts:,} questions), "
          f"{len(questions)} held-out questions; Python {platform.python_version()} on {platform.machine()}")
    if cold is not None:
        print(f"index build (cold: tokenise + USE embed + write)     {cold:8.1f} s")
    print(f"index load (warm, from the cache)                     {warm:8.2f} s")
    print("retrieval k=5                        p50 {:7.2f} ms   p95 {:7.2f} ms".format(*percentiles(r_times)))
    print("offline translation (with retrieval) p50 {:7.2f} ms   p95 {:7.2f} ms".format(*percentiles(t_times)))
    print("offline translation (no retrieval)   p50 {:7.2f} ms   p95 {:7.2f} ms".format(*percentiles(o_times)))
    for field, lang in (("nl", "it"), ("nl_en", "en")):
        print(f"retrieval recall@5 ({lang}, {len(test)} held-out)       {recall_at_5(retriever, test, field):7.1%}")


def accuracy(args) -> None:
    """Strict/relaxed execution accuracy on the held-out split and on the hand-written questions."""
    from nl2sparql.kb import open_kb
    from nl2sparql.score.runner import Scorer
    from nl2sparql.translate.index_cache import read_pool
    items, _ = read_pool(args.pool)
    test = [i for i in items if i.get("split") == "test"]
    rest = [i for i in items if i.get("split") != "test"]
    retriever = HybridRetriever(rest, pattern_detector=detect_patterns)
    translator = OfflineTranslator(retriever)
    kb = open_kb(store=args.kb_store) if args.kb_store else open_kb()
    scorer = Scorer(kb, timeout=args.timeout)
    print(f"# bench/translate.py accuracy: {args.pool.name}, held-out split 'test' ({len(test)} items; retrieval over "
          f"the other {len(rest)}), KB {getattr(kb, 'description', 'kb')}")
    fields = [("nl", "it", "generic"), ("nl_en", "en", "generic")]
    if args.variants:
        fields += [(f"nl_variants.{p}", "it", p) for p in ("linguist", "linked_data_expert", "pedagogical")]
        fields += [(f"nl_en_variants.{p}", "en", p) for p in ("linguist", "linked_data_expert", "pedagogical")]
    for field, lang, persona in fields:
        key, _, sub = field.partition(".")
        asked = [(i, (i.get(key) or {}).get(sub) if sub else i.get(key)) for i in test]
        asked = [(i, q) for i, q in asked if q]
        scores = [scorer.score(i["sparql"], translator.translate(q).sparql, i["id"]) for i, q in asked]
        strict = sum(s.strict for s in scores) / len(scores)
        relaxed = sum(s.relaxed for s in scores) / len(scores)
        print(f"{lang} {persona:<19} n={len(scores):4d}  strict {strict:6.1%}  relaxed {relaxed:6.1%}")
    for field, lang in (("nl", "it"), ("nl_en", "en")):
        print(f"retrieval recall@5 {lang}: {recall_at_5(retriever, test, field):.1%}")
    if not args.handwritten:
        kb.close()
        return
    hand = [json.loads(x) for x in (REPO / "tests" / "data" / "handwritten_questions.jsonl").read_text().splitlines()]
    plain = OfflineTranslator(retriever)
    for group in ("dev", "held_out"):
        for lang in ("it", "en"):
            chosen = [h for h in hand if h["set"] == group and h["lang"] == lang]
            ok = sum(scorer.score(h["sparql"], plain.translate(h.get("question") or h["question_en"]).sparql).strict
                     for h in chosen)
            print(f"hand-written {group:<8} {lang}: {ok}/{len(chosen)} strict ({ok / len(chosen):.1%})")
    kb.close()


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--cold", action=argparse.BooleanOptionalAction, default=True,
                        help="rebuild the index from scratch (--no-cold reuses a cached one)")
    parser.add_argument("--accuracy", action=argparse.BooleanOptionalAction, default=False)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--store", type=Path, default=None, help="mirror store for the speed pool")
    parser.add_argument("--pool", type=Path, default=REPO / "nl2sparql" / "data" / "pools" / "sample_pool.jsonl")
    parser.add_argument("--kb-store", type=Path, default=None, help="KB for --accuracy (default: the sample)")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--variants", action=argparse.BooleanOptionalAction, default=True,
                        help="also score the three style variants per language (with --accuracy)")
    parser.add_argument("--handwritten", action=argparse.BooleanOptionalAction, default=True,
                        help="also score the hand-written questions (with --accuracy)")
    args = parser.parse_args()
    if args.speed:
        speed(args)
    if args.accuracy:
        accuracy(args)


if __name__ == "__main__":
    main()
