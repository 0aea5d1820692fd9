"""The field's measures beside ours on the same predictions (issue 30).

For each evaluation set, the offline translator answers every question once;
the predictions are scored once, and the report holds, side by side, our
strict / relaxed / cell-F1 figures, the Text2SPARQL challenge's official
measure (set F1, and F1 with NDCG for ordered golds, computed with
``pytrec_eval`` as its client does) and QALD macro F1, the query checks, and
the items where the official measure and ours disagree, with why.

Sets: the shipped sample pool's test split (``sample``), the hand-written
pool (``handwritten``), the frozen held-out translator questions
(``heldout``), all on the embedded sample; with ``--mirror-store DIR`` also a
pool generated on that store (``--mirror-target`` items, ``--mirror-empty``
share of empty-answer questions in dev and test; its test split) and scored
there.

Usage: ``.venv/bin/python bench/field_measures.py [--sets sample,handwritten,heldout] [--mirror-store DIR]``
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

from nl2sparql import api
from nl2sparql.score.report import MEASURES

HERE = Path(__file__).resolve().parent
SETS = {"sample": ("sample", "test"), "handwritten": ("handwritten", None),
        "heldout": (str(HERE / "heldout" / "translator_questions.jsonl"), None)}


def evaluate(name: str, questions: str, split: str | None, kb=None) -> dict:
    """The offline translator over one set, scored; its figures and disagreements."""
    start = time.perf_counter()
    result = api.evaluate(questions, split=split, kb=kb)
    seconds = time.perf_counter() - start
    summary = result.summary
    field = summary["field"]
    counts = {"official 1, ours wrong": 0, "ours right, official < 1": 0, "left out by the official measure": 0}
    for item in result.items:
        official = item["field"] and (item["field"]["t2s_ndcg"] if item["field"]["t2s_ndcg"] is not None
                                      else item["field"]["t2s_f1"])
        if item["field"] and item["field"]["t2s_f1"] is None:
            counts["left out by the official measure"] += 1
        elif official is not None and official >= 1.0 and not item["strict"]:
            counts["official 1, ours wrong"] += 1
        elif official is not None and official < 1.0 and item["strict"]:
            counts["ours right, official < 1"] += 1
    return {"name": name, "n": summary["n"], "seconds": seconds, "summary": summary, "field": field,
            "counts": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    parser.add_argument("--mirror-store", type=Path, help="also a pool generated and scored on this store")
    parser.add_argument("--mirror-target", type=int, default=300)
    parser.add_argument("--mirror-empty", type=float, default=0.2, help="--empty-answers of the mirror pool")
    args = parser.parse_args()
    runs = [evaluate(name, *SETS[name]) for name in args.sets.split(",") if name]
    if args.mirror_store:
        with tempfile.TemporaryDirectory() as tmp:
            kb = api.KBChoice(store=str(args.mirror_store))
            pool = Path(tmp) / "mirror_pool.jsonl"
            api.generate(args.mirror_target, seed=30, out=pool, kb=kb, cache_dir=Path(tmp) / "cache",
                         empty_answers=args.mirror_empty)
            runs.append(evaluate(f"mirror pool test split ({args.mirror_target}, seed 30, empty answers "
                                 f"{args.mirror_empty:g})", str(pool), "test", kb=kb))
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    names = [r["name"] for r in runs]
    print("\n| measure | " + " | ".join(f"{n} ({r['n']})" for n, r in zip(names, runs)) + " |")
    print("|---|" + "---:|" * len(runs))
    for key, name, _ in MEASURES:
        values = [r["summary"].get(key, r["field"].get(key)) for r in runs]
        print(f"| {name} | " + " | ".join("–" if v is None else f"{v:.3f}" for v in values) + " |")
    print("| items the official measure counts | " + " | ".join(str(r["field"]["t2s_items"]) for r in runs) + " |")
    for key in ("unknown_iri_share", "rule_break_share", "empty_share"):
        print(f"| check: {key} | " + " | ".join(f"{100 * r['summary']['checks'][key]:.1f}%" for r in runs) + " |")
    for label in runs[0]["counts"]:
        print(f"| {label} | " + " | ".join(str(r["counts"][label]) for r in runs) + " |")
    print("| seconds (translate + score) | " + " | ".join(f"{r['seconds']:.1f}" for r in runs) + " |")
    for r in runs:
        if r["summary"]["disagreements"]:
            print(f"\n{r['name']}: where the official measure and ours disagree\n")
            print("| id | ours (strict) | Text2SPARQL | QALD F1 | why |\n|---|---|---:|---:|---|")
            for d in r["summary"]["disagreements"]:
                t2s = "–" if d["t2s"] is None else f"{d['t2s']:.3f}"
                print(f"| {d['id']} | {'right' if d['strict'] else 'wrong'} | {t2s} | {d['qald_f1']:.3f} | "
                      f"{d['why'].replace('|', '/')} |")


if __name__ == "__main__":
    main()
