"""Summarise question-audit verdict files (see PROTOCOL.md §5) as markdown tables.

    python bench/audit/summarise.py bench/audit/before.jsonl [bench/audit/after.jsonl]
    python bench/audit/summarise.py --items bench/audit/before.jsonl

Given one file, one column per table; given two, side by side (first = before).
``--items`` prints one row per audited item instead (verdicts, reasons, defects, hygiene).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from nl2sparql.errors import Nl2SparqlError  # noqa: E402
from nl2sparql.fileio import iter_jsonl  # noqa: E402

PERSONAS = ("generic", "linguist", "linked_data_expert", "pedagogical")
LANGS = ("it", "en")
VERDICTS = ("exact", "minor", "wrong")
CLASSES = ("repeated_gloss", "ungrammatical", "filler", "asks_twice", "agreement", "raw_iri", "other")
HYGIENE = ("extra_column", "idle_graph", "unused_triples", "wrong_tag", "cross_product", "latent_facet_join")


def pct(n: int, d: int) -> str:
    """``n/d (p %)``."""
    return f"{n}/{d} ({100 * n / d:.0f} %)" if d else "0/0"


def figures(items: list[dict]) -> dict[str, dict[str, str]]:
    """Section → row label → cell text, for one verdict file."""
    n = len(items)
    out: dict[str, dict[str, str]] = {}
    out["verdicts"] = {f"{v} ({lang.upper()})": pct(sum(i[f"verdict_{lang}"] == v for i in items), n)
                       for lang in LANGS for v in VERDICTS}
    out["verdicts"]["items wrong in IT or EN"] = pct(sum("wrong" in (i["verdict_it"], i["verdict_en"]) for i in items), n)
    defective = {(i["k"], d["lang"], d["persona"]) for i in items for d in i["defects"]}
    by_class: dict[str, set] = {c: set() for c in CLASSES}
    patterns: dict[str, set] = {}
    for i in items:
        for d in i["defects"]:
            key = (i["k"], d["lang"], d["persona"])
            by_class.setdefault(d["class"], set()).add(key)
            patterns.setdefault(f"{d['pattern']} ({d['class']})", set()).add(key)
    total = n * len(PERSONAS) * len(LANGS)
    rows = {"all variants": pct(len(defective), total),
            "non-generic variants": pct(sum(p != "generic" for _, _, p in defective), n * 3 * len(LANGS))}
    for p in PERSONAS:
        rows[p] = pct(sum(q == p for _, _, q in defective), n * len(LANGS))
        for lang in LANGS:
            rows[f"{p} {lang.upper()}"] = pct(sum(q == p and lg == lang for _, lg, q in defective), n)
    out["defective variants"] = rows
    out["variants per class"] = {c: pct(len(s), total) for c, s in by_class.items()}
    out["variants per pattern"] = {p: str(len(s)) for p, s in sorted(patterns.items(), key=lambda kv: -len(kv[1]))}
    scores = [i["naturalness"] for i in items]
    dist = Counter(scores)
    out["naturalness"] = {"mean": f"{sum(scores) / n:.2f}", "≤ 2": pct(sum(s <= 2 for s in scores), n),
                          **{str(s): str(dist.get(s, 0)) for s in range(1, 6)}}
    hyg = Counter(h["class"] for i in items for h in {h["class"]: h for h in i["hygiene"]}.values())
    out["gold hygiene (items)"] = {c: pct(hyg.get(c, 0), n) for c in (*HYGIENE, *sorted(set(hyg) - set(HYGIENE)))}
    return out


def render(columns: list[tuple[str, dict]]) -> str:
    """Markdown tables, one per section, one column per file."""
    lines = []
    for section in columns[0][1]:
        labels = list(dict.fromkeys(label for _, f in columns for label in f[section]))
        lines += [f"**{section}**", "", "| | " + " | ".join(name for name, _ in columns) + " |",
                  "|---|" + "---|" * len(columns)]
        for label in labels:
            lines.append(f"| {label} | " + " | ".join(f[section].get(label, "–") for _, f in columns) + " |")
        lines.append("")
    return "\n".join(lines)


def item_table(items: list[dict]) -> str:
    """One markdown row per item: verdicts, reasons, defective variants, naturalness, hygiene."""
    lines = ["| k | id | shape | labels | IT | EN | reasons | defective variants | nat. | hygiene |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for i in items:
        variants: dict[str, list[str]] = {}
        for d in i["defects"]:
            variants.setdefault(f"{d['persona'][:4]}-{d['lang']}", []).append(d["class"])
        defects = ", ".join(f"{v}: {'+'.join(dict.fromkeys(c))}" for v, c in variants.items()) or "–"
        labels = ", ".join(lab for lab in i["labels"] if lab not in ("SERVICE_INTEGRATION", "COMPOSITIONAL"))
        hygiene = ", ".join(dict.fromkeys(h["class"] for h in i["hygiene"])) or "–"
        lines.append(f"| {i['k']} | {i['id']} | {i['shape']} | {labels} | {i['verdict_it']} | {i['verdict_en']} | "
                     f"{'; '.join(i['reasons'])} | {defects} | {i['naturalness']} | {hygiene} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the summary of one or two verdict files (or, with ``--items``, the per-item table)."""
    items_only = argv[:1] == ["--items"]
    files = argv[1:] if items_only else argv
    if not 1 <= len(files) <= (1 if items_only else 2):
        print("usage: summarise.py BEFORE.jsonl [AFTER.jsonl] | summarise.py --items FILE.jsonl", file=sys.stderr)
        return 2
    try:
        loaded = [(Path(a).stem, [obj for _, obj in iter_jsonl(Path(a))]) for a in files]
        print(item_table(loaded[0][1]) if items_only else render([(name, figures(items)) for name, items in loaded]))
    except Nl2SparqlError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"error: an item lacks the field {exc}: write verdict files as in PROTOCOL.md §3", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
