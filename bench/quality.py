"""Count the automated quality checks' defects in generated pools (issue 15).

    python bench/quality.py POOL.jsonl [POOL.jsonl …]

For each pool: the items with a defect, the defective question variants (of 8 per item: four
personas, two languages) and the defects by class, as :mod:`nl2sparql.operators.defects` finds
them (the same checks as the pipeline's quality operator).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nl2sparql.fileio import iter_jsonl  # noqa: E402
from nl2sparql.operators.defects import item_defects  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pools", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.pools:
        items = [item for _, item in iter_jsonl(path)]
        by_class: Counter = Counter()
        flawed = variants = 0
        for item in items:
            defects = item_defects(item)
            by_class.update(cls for cls, _, _, _ in defects)
            flawed += bool(defects)
            variants += len({(persona, lang) for _, _, persona, lang in defects if persona != "gold"})
        print(f"{path}: {len(items)} items, {flawed} with a defect, {variants} of {8 * len(items)} variants defective")
        for cls, n in sorted(by_class.items()):
            print(f"  {cls:16} {n}")


if __name__ == "__main__":
    main()
