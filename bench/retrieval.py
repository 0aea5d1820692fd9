"""Benchmark of hybrid example retrieval: index build, query latency, USE throughput.

By default a synthetic pool of ITEMS (10,000) items is generated from question
templates (Italian + English, four Italian variants each: ~6 questions per item,
~60,000 indexed texts) with pseudo-words, emotions, parts of speech, dialects
and suffixes drawn at random; ``--pool FILE`` benchmarks a real pool instead.
Indexes are cached under ``bench/out/`` (never next to ``--pool``).

Reports: cold index build (tokenise + BM25 tables + USE embedding of every
question), warm load from the cache, retrieval latency p50/p95 over QUERIES
fresh questions with dense (question encoding included; FAISS over item vectors
and over all text vectors) and without dense,
one-sentence USE encoding latency and batch USE throughput.

Usage: ``.venv/bin/python bench/retrieval.py [--items 10000] [--queries 200] [--pool FILE] [--fresh]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import time
from pathlib import Path

from nl2sparql.translate.embedders import UseEmbedder, get_embedder
from nl2sparql.translate.index_cache import read_pool
from nl2sparql.translate.retrieval import HybridRetriever

OUT = Path(__file__).resolve().parent / "out"

POS = [("sostantivi", "nouns"), ("verbi", "verbs"), ("aggettivi", "adjectives"), ("avverbi", "adverbs")]
EMOTIONS = [("gioia", "joy"), ("paura", "fear"), ("tristezza", "sadness"), ("rabbia", "anger"),
            ("sorpresa", "surprise"), ("disgusto", "disgust"), ("fiducia", "trust"), ("attesa", "anticipation")]
DIALECTS = [("siciliano", "Sicilian"), ("parmigiano", "Parmigiano"), ("napoletano", "Neapolitan"),
            ("veneto", "Venetian"), ("sardo", "Sardinian")]
SUFFIXES = ["zione", "mente", "bile", "ezza", "ista", "mento", "aggio", "tore", "ità", "oso"]
SYLLABLES = "ba be bi bo ca ce ci co da de di do fa fe fi la le li lo ma me mi mo na ne ni no pa pe pi po " \
            "ra re ri ro sa se si so ta te ti to va ve vi vo za ze gra gre pro tra stra"

TEMPLATES = [  # (patterns, it, en, four Italian variants) — {w} word, {p}/{P} POS, {e}/{E} emotion...
    ({"EMOTION_LEXICON": 0.9, "POS_FILTER": 0.4},
     "Quali {p} esprimono {e}?", "Which {P} express {E}?",
     ["Trova i {p} associati all'emozione {e}.", "Elenca i lemmi di tipo {p} legati a {e} nel lessico ELIta.",
      "Recupera i {p} con valore emotivo {e} nel grafo delle emozioni.",
      "Questa interrogazione mostra quali {p} sono collegati all'emozione {e}."]),
    ({"COUNT_ENTITIES": 1.0, "POS_FILTER": 0.7},
     "Quanti {p} finiscono in -{s}?", "How many {P} end in -{s}?",
     ["Conta i {p} che terminano con -{s}.", "Numero di lemmi {p} con suffisso -{s}.",
      "Calcola il totale dei {p} la cui forma scritta termina in -{s}.",
      "La query conta quanti {p} del lessico hanno la desinenza -{s}."]),
    ({"TRANSLATION": 0.9, "SERVICE_INTEGRATION": 0.3},
     "Come si dice '{w}' in {d}?", "How do you say '{w}' in {D}?",
     ["Traduzione in {d} della parola '{w}'.", "Qual è l'equivalente {d} del lemma '{w}'?",
      "Trova le traduzioni {d} collegate a '{w}' tramite vartrans.",
      "Mostra come il lemma italiano '{w}' viene reso nel dialetto {d}."]),
    ({"LEXICAL_FORM": 0.9, "MORPHO_REGEX": 0.5},
     "Quali sono le forme flesse di '{w}'?", "What are the inflected forms of '{w}'?",
     ["Elenca tutte le forme di '{w}'.", "Mostra la forma canonica e le forme flesse del lemma '{w}'.",
      "Recupera le rappresentazioni scritte di tutte le forme di '{w}'.",
      "Questa query elenca le coniugazioni o declinazioni della parola '{w}'."]),
    ({"SEMANTIC_RELATION": 0.9, "SENSE_DEFINITION": 0.4},
     "Quali sono i sinonimi di '{w}'?", "What are the synonyms of '{w}'?",
     ["Trova parole con lo stesso significato di '{w}'.", "Elenca i sinonimi del lemma '{w}' nel lessico.",
      "Recupera i lemmi legati a '{w}' da una relazione di sinonimia.",
      "La query cerca i sinonimi della parola '{w}' tramite i sensi lessicali."]),
    ({"MORPHO_REGEX": 0.9, "POS_FILTER": 0.8},
     "Quali {p} iniziano con '{w}'?", "Which {P} start with '{w}'?",
     ["Elenca i {p} che cominciano per '{w}'.", "Trova i lemmi {p} con prefisso '{w}'.",
      "Filtra con una regex i {p} la cui forma inizia con '{w}'.",
      "Questa query seleziona i {p} il cui lemma comincia con '{w}'."]),
]


def pseudo_word(rng: random.Random) -> str:
    """A made-up Italian-looking word of 2-4 syllables."""
    parts = SYLLABLES.split()
    return "".join(rng.choice(parts) for _ in range(rng.randint(2, 4)))


def fill(text: str, slots: dict) -> str:
    """Fill the ``{x}`` slots of a template."""
    return text.format(**slots)


def synthetic_items(n: int, seed: int = 13) -> list[dict]:
    """``n`` pool items generated from the templates (deterministic for a seed)."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        patterns, it, en, variants = TEMPLATES[i % len(TEMPLATES)]
        (p, P), (e, E), (d, D) = rng.choice(POS), rng.choice(EMOTIONS), rng.choice(DIALECTS)
        slots = {"p": p, "P": P, "e": e, "E": E, "d": d, "D": D, "s": rng.choice(SUFFIXES),
                 "w": pseudo_word(rng)}
        keys = ("generic", "linguist", "linked_data_expert", "pedagogical")
        items.append({"id": f"syn-{i:05d}", "sparql": "SELECT * WHERE { ?s ?p ?o } LIMIT 1",
                      "nl": fill(it, slots), "nl_en": fill(en, slots),
                      "nl_variants": {k: fill(v, slots) for k, v in zip(keys, variants)},
                      "patterns": dict(patterns), "difficulty": "easy", "split": "train"})
    return items


def stub_detector(question: str) -> dict[str, float]:
    """Keyword pattern detector standing in for nl2sparql.patterns."""
    q = question.lower()
    found = {}
    for words, name in ((("esprim", "emozion", "express", "emotion"), "EMOTION_LEXICON"),
                        (("quant", "conta", "how many", "count"), "COUNT_ENTITIES"),
                        (("tradu", "dialett", " say ", "translat"), "TRANSLATION"),
                        (("sinonim", "synonym"), "SEMANTIC_RELATION"),
                        (("forme", "forms"), "LEXICAL_FORM")):
        if any(w in q for w in words):
            found[name] = 0.8
    return found


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    return (statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000)


def time_queries(retriever: HybridRetriever, questions: list[str], k: int = 5) -> tuple[float, float]:
    """Latency percentiles of ``retrieve`` over ``questions`` (after two warm-up calls)."""
    for q in questions[:2]:
        retriever.retrieve(q, k=k)
    samples = []
    for q in questions:
        start = time.perf_counter()
        retriever.retrieve(q, k=k)
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=10_000, help="synthetic pool size")
    parser.add_argument("--queries", type=int, default=200, help="questions timed per setting")
    parser.add_argument("--pool", type=Path, help="benchmark this pool instead of a synthetic one")
    parser.add_argument("--fresh", action="store_true", help="drop cached indexes first (cold build)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    cache_root = OUT / "index-cache"
    if args.fresh and cache_root.exists():
        shutil.rmtree(cache_root)
    if args.pool:
        pool = args.pool
    else:
        pool = OUT / f"synthetic_pool_{args.items}.jsonl"
        if not pool.exists():
            with open(pool, "w", encoding="utf-8") as handle:
                for item in synthetic_items(args.items):
                    handle.write(json.dumps(item, ensure_ascii=False) + "\n")
    items, _ = read_pool(pool)
    fresh = synthetic_items(args.queries, seed=99)
    questions = [q for item in fresh for q in (item["nl"], item["nl_en"])][: args.queries]
    use, reason = get_embedder(None)
    assert use is not None, reason
    results: dict = {"pool": str(pool), "items": len(items), "machine": platform.processor() or platform.machine(),
                     "cpus": os.cpu_count(), "embed_threads": use.threads}

    start = time.perf_counter()
    dense = HybridRetriever.from_pools([pool], embedder=use, pattern_detector=stub_detector,
                                       cache_root=cache_root)
    results["build_s"] = time.perf_counter() - start
    results["built_from_cache"] = dense.index.from_cache
    results["texts"] = len(dense.index.texts)
    start = time.perf_counter()
    dense = HybridRetriever.from_pools([pool], embedder=use, pattern_detector=stub_detector,
                                       cache_root=cache_root)
    results["warm_load_s"] = time.perf_counter() - start
    lexical = HybridRetriever.from_pools([pool], embedder="none", pattern_detector=stub_detector,
                                         cache_root=cache_root)

    results["dense_mode_auto"] = "items" if dense._faiss_items else "texts"
    results["query_dense_p50_ms"], results["query_dense_p95_ms"] = time_queries(dense, questions)
    other = "texts" if dense._faiss_items else "items"
    alt = HybridRetriever.from_pools([pool], embedder=use, pattern_detector=stub_detector,
                                     cache_root=cache_root, dense_mode=other)
    results[f"query_dense_{other}_p50_ms"], results[f"query_dense_{other}_p95_ms"] = time_queries(alt, questions)
    del alt
    results["query_nodense_p50_ms"], results["query_nodense_p95_ms"] = time_queries(lexical, questions)
    samples = []
    for q in questions:
        start = time.perf_counter()
        use.encode([q])
        samples.append(time.perf_counter() - start)
    results["use_one_sentence_p50_ms"], results["use_one_sentence_p95_ms"] = percentiles(samples)
    sample = dense.index.texts[:2048]
    for threads in sorted({1, min(2, os.cpu_count() or 1)}):
        embedder = UseEmbedder(threads=threads)
        embedder.encode(sample[:8])
        start = time.perf_counter()
        for i in range(0, len(sample), 128):
            embedder.encode(sample[i:i + 128])
        results[f"use_batch_sent_per_s_threads{threads}"] = len(sample) / (time.perf_counter() - start)
    hits = dense.retrieve(questions[1], k=3)
    results["example"] = {"question": questions[1], "top": [(h.item["id"], round(h.score, 3)) for h in hits]}

    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    print(f"pool: {results['pool']} — {results['items']:,} items, {results['texts']:,} indexed questions")
    print(f"machine: {results['machine']}, {results['cpus']} CPUs; USE batch threads {results['embed_threads']}")
    how = "from cache" if all(results["built_from_cache"].values()) else "cold"
    print(f"index build ({how}): {results['build_s']:.1f} s; warm load from cache: {results['warm_load_s']:.2f} s")
    print(f"retrieve k=5, dense+BM25+pattern (USE question encoding included), "
          f"dense_mode auto={results['dense_mode_auto']}: "
          f"p50 {results['query_dense_p50_ms']:.2f} ms, p95 {results['query_dense_p95_ms']:.2f} ms")
    print(f"  same with dense_mode={other}: p50 {results[f'query_dense_{other}_p50_ms']:.2f} ms, "
          f"p95 {results[f'query_dense_{other}_p95_ms']:.2f} ms")
    print(f"retrieve k=5, BM25+pattern only: p50 {results['query_nodense_p50_ms']:.2f} ms, "
          f"p95 {results['query_nodense_p95_ms']:.2f} ms")
    print(f"USE one sentence: p50 {results['use_one_sentence_p50_ms']:.2f} ms, "
          f"p95 {results['use_one_sentence_p95_ms']:.2f} ms")
    for key, value in results.items():
        if key.startswith("use_batch"):
            print(f"USE batch throughput ({key.rsplit('_', 1)[1]}): {value:,.0f} sentences/s")
    print(f"example: {results['example']}")


if __name__ == "__main__":
    main()
