"""Measure the composer's naturalness model against what people ask (issue 15).

    python bench/naturalness.py [--pool POOL.jsonl] [--draws 3000] [--seed 7] [--weights JSON]

Evidence (read at run time; nothing from ../shared is written anywhere):

* the reference project's curated questions (``../shared/reference/nl2sparql_examples.json``, skipped
  when absent);
* the hand-written pool (``nl2sparql/data/pools/handwritten.jsonl``) and the hand-written test
  questions (``tests/data/handwritten_questions.jsonl``);
* the shapes real users ask, from the translator-breadth work (issue 14): its development set
  ``bench/breadth_dev.jsonl`` (the frozen held-out sets are never read: they stay unseen).

Every gold query, evidence and generated alike, is described the same way: its shape (list, count,
word, standalone) and its *content labels* (the structural tagger's labels of kind content or
relation, weight ≥ 0.5). The script prints, for the evidence and for the model (compositions drawn
from the sample KB with the default :class:`~nl2sparql.patterns.compose.Naturalness`, or the items of
``--pool``): the shape distribution, the number of content labels per shape, the share of items with
three or more, and the most common label pairs; then the total-variation distance between model and
evidence for each distribution (0: the same; 1: disjoint) and the share of the model's label pairs
that the evidence also has. Tune the weights in ``Naturalness`` and run this again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.patterns import CATALOGUE, Facts, fact_queries  # noqa: E402
from nl2sparql.patterns.compose import Composer, Naturalness  # noqa: E402
from nl2sparql.patterns.tagger import tag_query  # noqa: E402
from nl2sparql.translate.offline import example_shape  # noqa: E402

CONTENT = {label for label, p in CATALOGUE.items() if p.kind in ("content", "relation")} - {"COMPOSITIONAL"}
SHAPES = ("list", "count", "word", "standalone")
EVIDENCE = {
    "reference": REPO.parent / "shared" / "reference" / "nl2sparql_examples.json",
    "handwritten pool": REPO / "nl2sparql" / "data" / "pools" / "handwritten.jsonl",
    "handwritten tests": REPO / "tests" / "data" / "handwritten_questions.jsonl",
    "breadth development set": REPO / "bench" / "breadth_dev.jsonl",
}


def load(path: Path) -> list[dict]:
    """JSON list or JSONL."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else [json.loads(line) for line in text.splitlines() if line.strip()]


def describe(sparql: str) -> tuple[str, tuple[str, ...]] | None:
    """(shape, sorted content labels) of a gold query (None when the tagger cannot read it)."""
    try:
        tags = tag_query(sparql)
    except Exception:  # noqa: BLE001 - a query the tagger cannot read is left out of the evidence
        return None
    return example_shape(sparql, tags), tuple(sorted(k for k, v in tags.items() if v >= 0.5 and k in CONTENT))


def profile(described: list[tuple[str, tuple[str, ...]]]) -> dict:
    """Distributions of one set of described queries."""
    shapes = Counter(shape for shape, _ in described)
    sizes = {shape: Counter(min(len(labels), 3) for s, labels in described if s == shape) for shape in SHAPES}
    pairs = Counter((a, b) for _, labels in described for i, a in enumerate(labels) for b in labels[i + 1:])
    stacked = sum(len(labels) >= 3 for shape, labels in described if shape != "standalone")
    return {"n": len(described), "shapes": shapes, "sizes": sizes, "pairs": pairs,
            "stacked": stacked / max(1, sum(1 for s, _ in described if s != "standalone"))}


def distance(a: Counter, b: Counter) -> float:
    """Total-variation distance of two count distributions."""
    ta, tb = sum(a.values()) or 1, sum(b.values()) or 1
    return 0.5 * sum(abs(a[k] / ta - b[k] / tb) for k in set(a) | set(b))


def share(counter: Counter, key) -> str:
    total = sum(counter.values())
    return f"{100 * counter[key] / total:4.0f} %" if total else "   - "


def model_queries(args) -> list[str]:
    """The model's gold queries: a pool's, or compositions drawn from the sample KB."""
    if args.pool:
        return [item["sparql"] for item in load(args.pool)]
    from nl2sparql.kb import open_kb
    kb = open_kb()
    rows = {}
    for name, query in fact_queries().items():
        rows[name] = [tuple("" if t is None else t.value for t in row)
                      for row in kb.select(query, timeout=60, max_rows=1_000_000).rows]
    composer = Composer(Facts(rows), seed=args.seed, naturalness=args.model)
    return [c.sparql for c in map(composer.draw, range(args.draws)) if not isinstance(c, str)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, help="describe this pool's items instead of drawing compositions")
    parser.add_argument("--draws", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--weights", type=json.loads, default={},
                        help='JSON overrides of the default weights, e.g. \'{"shapes": {"word": 0.15}}\'')
    args = parser.parse_args()
    args.model = Naturalness.from_json(args.weights)

    evidence: list[tuple[str, tuple[str, ...]]] = []
    for name, path in EVIDENCE.items():
        if not path.is_file():
            print(f"{name}: not found ({path}), skipped")
            continue
        described = [d for d in (describe(item["sparql"]) for item in load(path)) if d]
        print(f"{name}: {len(described)} queries")
        evidence += described
    model = [d for d in (describe(q) for q in model_queries(args)) if d]
    ev, mo = profile(evidence), profile(model)
    print(f"\nevidence {ev['n']} queries, model {mo['n']} queries\n")
    print("| shape | evidence | model |\n|---|---|---|")
    for shape in SHAPES:
        print(f"| {shape} | {share(ev['shapes'], shape)} | {share(mo['shapes'], shape)} |")
    print("\n| content labels | evidence | model |\n|---|---|---|")
    for shape in ("list", "count", "word"):
        for k in (1, 2, 3):
            label = f"{shape}, {k}{'+' if k == 3 else ''}"
            print(f"| {label} | {share(ev['sizes'][shape], k)} | {share(mo['sizes'][shape], k)} |")
    print(f"\nthree or more content labels: evidence {100 * ev['stacked']:.0f} %, model {100 * mo['stacked']:.0f} %")
    print("\ntotal-variation distance (model vs evidence):")
    print(f"  shapes {distance(ev['shapes'], mo['shapes']):.3f}")
    for shape in ("list", "count", "word"):
        print(f"  content labels per {shape} {distance(ev['sizes'][shape], mo['sizes'][shape]):.3f}")
    model_pairs = sum(mo["pairs"].values())
    known = sum(n for pair, n in mo["pairs"].items() if pair in ev["pairs"])
    print(f"  model label pairs also in the evidence: {100 * known / max(1, model_pairs):.0f} %")
    print("\nmost common pairs (evidence / model):")
    for pair, n in ev["pairs"].most_common(10):
        print(f"  {'+'.join(pair)}: {n} / {mo['pairs'][pair]}")
    print("\nmodel weights:", json.dumps(args.model.to_json(), sort_keys=True))


if __name__ == "__main__":
    main()
