"""Structural tagger vs the human tags of the 139 reference queries (../shared/reference).

    python bench/tagger.py [--show-errors]

A label counts when its weight is ≥ 0.5, on both sides. Prints per-label
precision/recall/F1 and the micro/macro averages.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.patterns import LABELS  # noqa: E402
from nl2sparql.patterns.tagger import tag_query  # noqa: E402

REFERENCE = REPO.parent / "shared" / "reference" / "nl2sparql_examples.json"
#: The reference tags use 12 of our labels: antonyms and synonyms are SEMANTIC_RELATION there, its polarity
#: queries are EMOTION_LEXICON, and COMPOSITIONAL, DISTRIBUTION and the analytic labels of issue 14 do not
#: exist (its grouped counts are COUNT_ENTITIES, which we tag too). ``--reference-vocabulary`` maps ours onto theirs.
TO_REFERENCE = {"LEXICAL_RELATION": "SEMANTIC_RELATION", "POLARITY": "EMOTION_LEXICON", "COMPOSITIONAL": None,
                "DISTRIBUTION": None, "RANKING": None, "AGGREGATE": None, "COMPARISON": None, "YES_NO": None,
                "INTERSECTION": None, "PRESENCE": None, "FACT_COUNT": None}


def strong(weights: dict, threshold: float = 0.5) -> set[str]:
    """Labels with weight ≥ threshold."""
    return {k for k, v in weights.items() if v >= threshold}


def project(labels: set[str]) -> set[str]:
    """Our labels in the reference's vocabulary."""
    return {TO_REFERENCE.get(label, label) for label in labels} - {None}


def evaluate(items: list[dict], reference_vocabulary: bool = False) -> tuple[dict, list]:
    """Per-label counts and the per-item disagreements."""
    tp, fp, fn = Counter(), Counter(), Counter()
    errors = []
    for item in items:
        gold, pred = strong(item["patterns"]), strong(tag_query(item["sparql"]))
        if reference_vocabulary:
            pred = project(pred)
        for label in gold & pred:
            tp[label] += 1
        for label in pred - gold:
            fp[label] += 1
        for label in gold - pred:
            fn[label] += 1
        if gold != pred:
            errors.append((item["id"], sorted(gold - pred), sorted(pred - gold), item["nl"][:80]))
    table = {}
    for label in LABELS:
        p = tp[label] / (tp[label] + fp[label]) if tp[label] + fp[label] else None
        r = tp[label] / (tp[label] + fn[label]) if tp[label] + fn[label] else None
        f = 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)
        table[label] = {"tp": tp[label], "fp": fp[label], "fn": fn[label], "precision": p, "recall": r, "f1": f}
    T, F, N = sum(tp.values()), sum(fp.values()), sum(fn.values())
    micro_p, micro_r = T / (T + F), T / (T + N)
    table["_micro"] = {"precision": micro_p, "recall": micro_r, "f1": 2 * micro_p * micro_r / (micro_p + micro_r)}
    return table, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--reference-vocabulary", action="store_true",
                        help="map our labels onto the 12 the reference uses (see TO_REFERENCE)")
    args = parser.parse_args()
    if not REFERENCE.is_file():
        sys.exit(f"reference pool not found at {REFERENCE}")
    items = json.loads(REFERENCE.read_text(encoding="utf-8"))
    table, errors = evaluate(items, args.reference_vocabulary)
    fmt = lambda x: "  -  " if x is None else f"{x:.2f}"  # noqa: E731
    print(f"{'label':<22}{'gold':>6}{'tp':>5}{'fp':>5}{'fn':>5}{'P':>7}{'R':>7}{'F1':>7}")
    for label in LABELS:
        row = table[label]
        gold = row["tp"] + row["fn"]
        print(f"{label:<22}{gold:>6}{row['tp']:>5}{row['fp']:>5}{row['fn']:>5}"
              f"{fmt(row['precision']):>7}{fmt(row['recall']):>7}{fmt(row['f1']):>7}")
    micro = table["_micro"]
    print(f"micro P {micro['precision']:.3f}  R {micro['recall']:.3f}  F1 {micro['f1']:.3f} "
          f"over {len(items)} queries; {len(errors)} disagree")
    if args.show_errors:
        for e in errors:
            print(f"  #{e[0]}: missed {e[1]} extra {e[2]}  {e[3]}")


if __name__ == "__main__":
    main()
