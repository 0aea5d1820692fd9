"""The open benchmark of issue 14: the reference project's curated questions, scored on the mirror.

The examples are read at run time from ``../shared/reference/nl2sparql_examples.json``. Nothing
from that file or from the mirror is written into the repository: the script prints aggregate
figures, and the optional per-item file under ``bench/out/`` (ignored by git) holds ids, verdicts
and our translations. An example is kept when its gold query returns at least one row on the
mirror store and its answer does not depend on a ``LIMIT``: it has none, or its only LIMIT is the
outer one and cuts nothing (the gold returns as many rows without it). The gold is scored as the
project's scorer reads it, so Virtuoso/ARQ
syntax runs in its standard form, within ``--timeout``. Its ``nl`` and each persona variant
(``nl_variants``: generic, linguist, linked_data_expert, pedagogical) are translated by the
offline :class:`~nl2sparql.translate.translator.Translator` over the shipped pools. Each
translation runs on the mirror and is scored against the gold by :class:`~nl2sparql.score.Scorer`.
The report gives strict and relaxed accuracy per persona, the misses' error classes, and strict
accuracy per reference pattern label.

Usage::

    .venv/bin/python bench/reference_eval.py                         # store: cache/bench-mirror-store or cache/test-mirror-store-*
    .venv/bin/python bench/reference_eval.py --store DIR --timeout 20
    .venv/bin/python bench/reference_eval.py --limit 20              # the first 20 kept examples only (a quick look)
    .venv/bin/python bench/reference_eval.py --agent                 # the offline agent, with its confidence table

Build a store once with ``nl2sparql-gen kb load ../shared/liita/mirror/*.nq.gz --store DIR``, or
let the script build ``cache/bench-mirror-store`` (about a minute).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT = REPO / "bench" / "out"
REFERENCE = REPO.parent / "shared" / "reference" / "nl2sparql_examples.json"
PERSONAS = ("generic", "linguist", "linked_data_expert", "pedagogical")
#: The phrasings issue 24 measures: the reference's own ``nl`` and its generic and linguist variants.
HEADLINE = ("nl", "generic", "linguist")

from accuracy_tools import MemoKB, accuracy_line, calibration_lines, load_translator, miss_line, percentile_ms  # noqa: E402
from translate import find_store  # noqa: E402  (bench/translate.py: the mirror store, built if missing)
from nl2sparql.errors import Nl2SparqlError  # noqa: E402
from nl2sparql.fileio import atomic_write_text  # noqa: E402
from nl2sparql.kb import open_kb  # noqa: E402
from nl2sparql.score import MatchOptions, Scorer  # noqa: E402
from nl2sparql.score.data import PATTERN_THRESHOLD  # noqa: E402
from nl2sparql.score.query import strip_outer_limit  # noqa: E402
from nl2sparql.sparql.lexer import tokenize  # noqa: E402


def has_limit(sparql: str) -> bool:
    """True when the query has a LIMIT anywhere (sub-selects included): its answer is not fixed."""
    return any(t.kind == "word" and t.upper == "LIMIT" for t in tokenize(sparql))


def load_reference(path: Path) -> list[dict]:
    """The reference examples (one clear line when the file is missing or not a JSON list)."""
    if not path.is_file():
        sys.exit(f"reference_eval: {path} not found (it lives in ../shared next to the repository)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        sys.exit(f"reference_eval: {path} is not valid JSON ({exc.msg} at line {exc.lineno})")
    if not isinstance(data, list):
        sys.exit(f"reference_eval: {path} must hold a JSON list of examples")
    return data


def select(examples: list[dict], scorer: Scorer) -> tuple[list[dict], dict]:
    """The examples whose gold returns rows and does not depend on a LIMIT; counts of why the others were left out."""
    kept, dropped = [], defaultdict(int)
    for ex in examples:
        gold = ex.get("sparql") or ""
        if not gold.strip():
            dropped["no gold"] += 1
            continue
        check = scorer.score(gold, gold, str(ex.get("id")))  # the gold against itself: runs it once
        if check.error == "gold_error":
            dropped["gold fails (" + check.detail.split("(", 1)[-1].split(")", 1)[0] + ")"] += 1
        elif check.gold_rows is None:
            dropped["ASK"] += 1
        elif check.gold_rows == 0:
            dropped["no rows"] += 1
        elif has_limit(gold) and not limit_cuts_nothing(gold, check.gold_rows, scorer):
            dropped["LIMIT cuts the answer"] += 1
        else:
            kept.append(ex)
    return kept, dict(dropped)


def cached_selection(reference: Path, store: Path, examples: list[dict], scorer: Scorer) -> tuple[list[dict], dict]:
    """:func:`select`, remembered in ``bench/out/`` per reference file and store (the ids only)."""
    key = hashlib.sha256(reference.read_bytes() + str(store.resolve()).encode()).hexdigest()[:16]
    cache = OUT / f"reference_selection-{key}.json"
    if cache.is_file():
        saved = json.loads(cache.read_text(encoding="utf-8"))
        ids = set(saved["kept"])
        return [ex for ex in examples if str(ex.get("id")) in ids], saved["dropped"]
    kept, dropped = select(examples, scorer)
    atomic_write_text(cache, json.dumps({"kept": [str(ex.get("id")) for ex in kept], "dropped": dropped}) + "\n")
    return kept, dropped


def limit_cuts_nothing(gold: str, rows: int, scorer: Scorer) -> bool:
    """True when the gold's only LIMIT is the outer one and the gold gives ``rows`` rows without it too."""
    unlimited = strip_outer_limit(gold)
    if has_limit(unlimited):
        return False  # a LIMIT inside a sub-select
    return scorer.score(unlimited, unlimited).gold_rows == rows


def texts(ex: dict) -> list[tuple[str, str]]:
    """``(persona, question)``: ``nl`` first, then every persona variant present."""
    variants = ex.get("nl_variants") if isinstance(ex.get("nl_variants"), dict) else {}
    out = [("nl", str(ex.get("nl") or ""))]
    out += [(p, str(variants[p])) for p in PERSONAS if variants.get(p)]
    return [(p, t) for p, t in out if t.strip()]


def run(args) -> None:
    """Select, translate, score and print."""
    examples = load_reference(args.reference)
    store = find_store(args.store)
    kb = open_kb(store=store, timeout=args.timeout)
    memo = MemoKB(kb, persist=OUT / f"reference_answers-{hashlib.sha256(str(store.resolve()).encode()).hexdigest()[:12]}.pickle")
    scorer = Scorer(memo, timeout=args.timeout)
    relaxed_scorer = Scorer(memo, MatchOptions().relaxed(), timeout=args.timeout)
    start = time.perf_counter()
    kept, dropped = cached_selection(args.reference, store, examples, scorer)
    select_s = time.perf_counter() - start
    evaluated = [ex for ex in kept if not args.ids or str(ex.get("id")) in args.ids]
    evaluated = evaluated[:args.limit] if args.limit else evaluated
    if args.agent:
        from agent import AgentAsker  # bench/agent.py: the offline agent with what it reports per answer
        asker = AgentAsker(kb, args.max_attempts)
        load_s = asker.load_s
    else:
        translator, load_s = load_translator(kb=kb)  # English words map to the lemmas of the KB scored on
    by_persona, by_pattern, by_source = defaultdict(list), defaultdict(list), defaultdict(list)
    relaxed_errors, items = defaultdict(list), []
    same_as_nl = 0
    start = time.perf_counter()
    for ex in evaluated:
        labels = [k for k, w in (ex.get("patterns") or {}).items() if float(w) >= PATTERN_THRESHOLD]
        asked = texts(ex)
        same_as_nl += sum(1 for p, t in asked if p == "generic" and t == asked[0][1])
        for persona, question in asked:
            if args.personas and persona not in args.personas:
                continue
            how: dict = {}
            try:
                if args.agent:
                    sparql, how = asker.ask(question, "")
                    source = how["source"]
                else:
                    result = translator.translate(question)
                    sparql, source = result.sparql, result.source
            except Nl2SparqlError:
                sparql, source = "", "error"
            score = scorer.score(ex["sparql"], sparql or None, str(ex.get("id")))
            by_persona[persona].append(score)
            by_source[source].append(score)
            if persona == "nl":
                for label in labels:
                    by_pattern[label].append(score)
            relaxed_error = None
            if not score.relaxed:
                relaxed_error = relaxed_scorer.score(ex["sparql"], sparql or None, str(ex.get("id"))).error
            relaxed_errors[persona].append(relaxed_error)
            items.append({"id": ex.get("id"), "persona": persona, "source": source, "strict": score.strict,
                          "relaxed": score.relaxed, "error": score.error, "relaxed_error": relaxed_error,
                          "detail": score.detail, "sparql": sparql, **how})
    run_s = time.perf_counter() - start
    print(f"# bench/reference_eval.py: {len(examples)} reference examples, store {store}, timeout {args.timeout:g} s; "
          f"Python {platform.python_version()}")
    print(f"kept {len(kept)} (gold with rows on the mirror, no LIMIT that cuts), evaluated {len(evaluated)}; left out: "
          + ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())) + f"; selection {select_s:.1f} s")
    print(f"translator start {load_s:.1f} s; translate + score {run_s:.1f} s; "
          f"'generic' identical to 'nl' in {same_as_nl} of {len(evaluated)} examples")
    for persona in ("nl", *PERSONAS):
        scores = by_persona.get(persona, [])
        print(accuracy_line(persona, scores, 20))
        print(f"{'':20}   strict misses: {miss_line(s.error for s in scores)}")
        print(f"{'':20}   relaxed misses: {miss_line(relaxed_errors[persona])}")
    headline = [s for p in HEADLINE for s in by_persona.get(p, [])]
    print(accuracy_line("+".join(HEADLINE), headline, 20) + "   (issue 24's measure)")
    every = [s for scores in by_persona.values() for s in scores]
    print(accuracy_line("all texts", every, 20))
    print("by translation source (all texts):")
    for source in sorted(by_source):
        print(accuracy_line(f"  {source}", by_source[source], 20))
    print(f"by reference pattern label (weight >= {PATTERN_THRESHOLD}; 'nl' only):")
    for label in sorted(by_pattern):
        print(accuracy_line(f"  {label}", by_pattern[label], 24))
    if args.agent:
        headline_items = [i for i in items if i["persona"] in HEADLINE]
        print(f"agent, {'+'.join(HEADLINE)}: p50 {percentile_ms([i['ms'] / 1000 for i in headline_items], 0.5):.0f} ms")
        for line in calibration_lines(headline_items):
            print(line)
    memo.save()
    if args.json:
        atomic_write_text(args.json, json.dumps({"kept": len(kept), "evaluated": len(evaluated), "items": items}, indent=1) + "\n")
        print(f"per-item verdicts (ids only): {args.json}")


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--store", type=Path, help="on-disk mirror store (default: found or built in cache/)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per query (default 20)")
    parser.add_argument("--limit", type=int, default=0, help="score only the first N kept examples")
    parser.add_argument("--ids", type=lambda v: set(v.split(",")), default=set(),
                        help="score only these example ids (comma-separated)")
    parser.add_argument("--personas", type=lambda v: set(v.split(",")), default=set(),
                        help="translate only these phrasings (comma-separated: nl, generic, linguist, ...)")
    parser.add_argument("--agent", action="store_true", help="the offline agent instead of the translator "
                        "(adds its confidence table over the headline phrasings)")
    parser.add_argument("--max-attempts", type=int, default=3, help="the agent's attempts (with --agent)")
    parser.add_argument("--json", type=Path, help="per-item verdicts, ids only "
                        "(default bench/out/reference_eval.json; with --agent reference_agent.json)")
    args = parser.parse_args()
    args.json = args.json or OUT / ("reference_agent.json" if args.agent else "reference_eval.json")
    try:
        run(args)
    except Nl2SparqlError as exc:
        sys.exit(f"reference_eval: {exc}")


if __name__ == "__main__":
    main()
