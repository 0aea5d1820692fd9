"""Blind naturalness rating: mix our questions with people's, hide the source, then unblind (PROTOCOL.md).

    python bench/blind/mix.py sheet --pool POOL.jsonl --lang en --out /tmp/blind/en
    python bench/blind/mix.py unblind --dir /tmp/blind/en --out bench/blind/before-en.tsv

``sheet`` writes ``sheet.md`` (100 numbered questions, nothing else) and ``key.json`` (which is which)
under ``--out``, outside the repository: the people's questions come from ``../shared`` (English) and the
frozen held-out set (Italian) and are never committed. ``unblind`` joins ``ratings.tsv``
(``position<TAB>score``) with the key, writes position, source, index and score (no text) and prints the
means, the distributions and the share at 2 or below.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO.parent / "shared" / "reference" / "nl2sparql_examples.json"
PEOPLE = REPO / "bench" / "heldout" / "people_questions.jsonl"
N = 50
DRAW_SEED = 26
SHUFFLE_SEED = {"en": 2626, "it": 2627}
QUOTES = {"en": ("“", "”"), "it": ("«", "»")}


def ours(pool: Path, lang: str) -> list[str]:
    """The generic question of the pool items at the drawn positions."""
    items = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines() if line.strip()]
    positions = sorted(random.Random(DRAW_SEED).sample(range(len(items)), N))
    return [items[i]["nl_en" if lang == "en" else "nl"] for i in positions]


def peoples(lang: str) -> list[str]:
    """50 questions people wrote: the reference project's (English), the held-out people's set (Italian)."""
    if lang == "en":
        if not REFERENCE.is_file():
            sys.exit(f"no reference questions at {REFERENCE}: this rating needs ../shared next to the repository")
        texts = [item["nl"] for item in json.loads(REFERENCE.read_text(encoding="utf-8"))]
    else:
        rows = [json.loads(line) for line in PEOPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
        texts = [row["question"] for row in rows if row["lang"] == "it"]
    return [texts[i] for i in random.Random(DRAW_SEED).sample(range(len(texts)), N)]


def normalise(text: str, lang: str) -> str:
    """What is not wording made alike (PROTOCOL.md §2): one quotation style, one space, no labels or second copy."""
    text = " ".join(text.split())
    text = re.sub(r"^(?:Query:|Claude\b|#)\s*", "", text)
    # a question given twice, in English and then in Italian: the first one
    m = re.match(r"(.+?[.?!])\s+(?:Elenca|Trova|Quali|Quale|Qual|Mostra|Conta|Quanti|Quante)\b", text)
    if lang == "en" and m:
        text = m.group(1)
    left, right = QUOTES[lang]
    text = re.sub(r"[\"“”«»]([^\"“”«»]+)[\"“”«»]", rf"{left}\1{right}", text)
    text = re.sub(r"(?<![\w])'([^']+)'(?![\w])", rf"{left}\1{right}", text)
    return text


def sheet(args) -> None:
    mine, theirs = ours(args.pool, args.lang), peoples(args.lang)
    entries = [("ours", i, t) for i, t in enumerate(mine)] + [("people", i, t) for i, t in enumerate(theirs)]
    random.Random(SHUFFLE_SEED[args.lang]).shuffle(entries)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Rate each question 1-5 (bench/blind/PROTOCOL.md §3)", ""]
    lines += [f"{k}. {normalise(text, args.lang)}" for k, (_, _, text) in enumerate(entries, 1)]
    (args.out / "sheet.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    key = [{"position": k, "source": source, "index": index} for k, (source, index, _) in enumerate(entries, 1)]
    (args.out / "key.json").write_text(json.dumps(key, indent=0), encoding="utf-8")
    print(f"wrote {args.out / 'sheet.md'} (100 questions) and the key beside it; rate into {args.out / 'ratings.tsv'}")


def unblind(args) -> None:
    key = {row["position"]: row for row in json.loads((args.dir / "key.json").read_text(encoding="utf-8"))}
    scores = {}
    for line in (args.dir / "ratings.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            position, score = line.split("\t")[:2]
            scores[int(position)] = int(score)
    missing = sorted(set(key) - set(scores))
    if missing:
        sys.exit(f"ratings.tsv has no score for positions {missing}")
    rows = [(p, key[p]["source"], key[p]["index"], scores[p]) for p in sorted(key)]
    args.out.write_text("position\tsource\tindex\tscore\n" + "".join(f"{p}\t{s}\t{i}\t{v}\n" for p, s, i, v in rows),
                        encoding="utf-8")
    summarise(rows)


def summarise(rows) -> None:
    print("| source | n | mean | 1 | 2 | 3 | 4 | 5 | ≤ 2 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for source in ("ours", "people"):
        values = [v for _, s, _, v in rows if s == source]
        dist = Counter(values)
        print(f"| {source} | {len(values)} | {sum(values) / len(values):.2f} | "
              + " | ".join(str(dist[k]) for k in range(1, 6)) + f" | {sum(v <= 2 for v in values)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sheet")
    s.add_argument("--pool", type=Path, required=True)
    s.add_argument("--lang", choices=("en", "it"), required=True)
    s.add_argument("--out", type=Path, required=True)
    u = sub.add_parser("unblind")
    u.add_argument("--dir", type=Path, required=True)
    u.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "sheet":
        sheet(args)
    else:
        unblind(args)


if __name__ == "__main__":
    main()
