"""Draw the audit sample from a generated pool and lay it out for reading (see PROTOCOL.md).

    python bench/audit/sample.py draw POOL.jsonl --n 50 --seed 15 --out /tmp/audit/sample.jsonl
    python bench/audit/sample.py sheet /tmp/audit/sample.jsonl --store STORE --out /tmp/audit/sheet.md
    python bench/audit/sample.py check QUERY.rq [QUERY2.rq ...] --store STORE
    python bench/audit/sample.py facet /tmp/audit/sample.jsonl K --facet Parmigiano,parmigiano --facet complitPos --store STORE

``draw`` picks positions, not contents: ``random.Random(seed).sample(range(len(pool)), n)``,
sorted, so the same seed reads the same positions of any pool of the same size, before or
after a generator change, and nothing about an item influences whether it is drawn.
``sheet`` writes one section per drawn item: pool id, shape, tagger and composer labels,
slots, the gold SPARQL, the generic question and every persona variant in both languages,
and (with ``--store``) what the gold really returns: rows, distinct values per column and
the first rows. ``check`` runs hand-written variants of a gold (e.g. a facet made OPTIONAL)
and prints the same figures, so the auditor can compare them with the gold's. ``facet``
makes that variant for the facet check (PROTOCOL.md §3.1 rule 3): it moves the named
facets' triples into OPTIONAL and prints the distinct ``?lemma`` counts of both.

The sample and the sheet are derived from the mirror: write them outside the repository.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from nl2sparql.errors import Nl2SparqlError  # noqa: E402
from nl2sparql.fileio import iter_jsonl, read_pool, write_jsonl  # noqa: E402

PERSONAS = ("generic", "linguist", "linked_data_expert", "pedagogical")
SHOWN_ROWS = 8


#: Issue 24's new kinds: the patterns it added, and the compositions it added to older ones.
NEW_KIND_LABELS = {"DIALECT_SIDE", "FORM_LEMMA", "HOMOGRAPH", "VALUE_SET"}
NEW_KIND_SLOTS = ("'top'", "'exclude'", "'any'", "'pairs'", "'features'", "'feature'")


def is_new_kind(item: dict) -> bool:
    """True for an item of a question kind issue 24 added (see PROTOCOL.md, "New kinds")."""
    provenance = item.get("provenance", {})
    labels = set(provenance.get("composed_patterns", {})) | set(item.get("patterns", {}))
    slots = str(provenance.get("slots", {}))
    sparql = item.get("sparql", "")
    return bool(labels & NEW_KIND_LABELS) or any(marker in slots for marker in NEW_KIND_SLOTS) or (
        "RANKING" in labels and "AS ?extreme" in sparql) or bool(re.search(r"MINUS \{[^}]*HasEmotion elita:", sparql))


def draw(pool: list[dict], n: int, seed: int) -> list[dict]:
    """``n`` items at seeded random positions of ``pool`` (in pool order), numbered ``k`` = 1..n."""
    if n > len(pool):
        raise SystemExit(f"the pool has {len(pool)} items, fewer than --n {n}: generate a larger pool")
    positions = sorted(random.Random(seed).sample(range(len(pool)), n))
    return [{"k": k, "pool_index": pos, "item": pool[pos]} for k, pos in enumerate(positions, 1)]


def describe(table) -> list[str]:
    """Rows, distinct values per column and the first rows of a result table, as sheet lines."""
    lines = [f"- rows: {len(table.rows)}{' (row cap reached)' if table.truncated else ''}"]
    for name in table.variables:
        values = {None if t is None else t.value for t in table.column(name)}
        unbound = " (some unbound)" if None in values else ""
        lines.append(f"- distinct ?{name}: {len(values - {None})}{unbound}")
    if table.rows:
        lines.append("")
        lines.append("| " + " | ".join(table.variables) + " |")
        lines.append("|" + "---|" * len(table.variables))
        for row in table.rows[:SHOWN_ROWS]:
            lines.append("| " + " | ".join("" if t is None else t.value for t in row) + " |")
        if len(table.rows) > SHOWN_ROWS:
            lines.append(f"| … {len(table.rows) - SHOWN_ROWS} more |")
    return lines


def section(entry: dict, kb) -> str:
    """The sheet section of one drawn item."""
    item = entry["item"]
    prov = item.get("provenance", {})
    lines = [f"## {entry['k']}. {item['id']} (pool index {entry['pool_index']})", "",
             f"- shape: {prov.get('shape')}; result_count: {item.get('result_count')}",
             f"- tagger labels: {json.dumps(item.get('patterns', {}), sort_keys=True)}",
             f"- composed labels: {json.dumps(prov.get('composed_patterns', {}), sort_keys=True)}",
             f"- slots: {json.dumps(prov.get('slots', {}), ensure_ascii=False, sort_keys=True)}", "",
             "```sparql", item["sparql"].rstrip(), "```", ""]
    for lang, field in (("it", "nl_variants"), ("en", "nl_en_variants")):
        generic = item["nl"] if lang == "it" else item["nl_en"]
        lines.append(f"- {lang} generic: {generic}")
        for persona in PERSONAS[1:]:
            lines.append(f"- {lang} {persona}: {item.get(field, {}).get(persona, '(missing)')}")
    if kb is not None:
        lines += ["", "What the gold returns:"]
        try:
            lines += describe(kb.select(item["sparql"]))
        except Nl2SparqlError as exc:
            lines.append(f"- failed: {exc}")
    return "\n".join(lines) + "\n"


def open_store(store: str | None, timeout: float):
    """The KB to execute on (None without ``--store``)."""
    if not store:
        return None
    from nl2sparql.kb import open_kb
    return open_kb(store=store, timeout=timeout, max_rows=100_000)


def optional_variant(query: str, groups: list[list[str]]) -> str:
    """``query`` with each facet moved into ``OPTIONAL { }`` at the end of its group.

    A facet is the set of triple lines containing any of a group's substrings (e.g.
    ``["Parmigiano", "parmigiano"]`` for the translation chain, ``["complitPos"]`` for the
    CompL-it POS). Lines inside ``SERVICE`` (indented twice, as the generator renders them)
    go into an OPTIONAL at the end of the SERVICE block, the others at the end of WHERE.
    Placing OPTIONAL last keeps the required patterns on its left (PROTOCOL.md §3.1 rule 3).
    """
    lines = query.splitlines()
    def matching(group: list[str]) -> list[int]:
        return [i for i, ln in enumerate(lines) if ln.rstrip().endswith(".") and any(g in ln for g in group)]

    for group in groups:
        if not matching(group):
            raise SystemExit(f"no triple line matches {group}: check the facet's variable names in the sheet")
        for inside in (True, False):  # indices are recomputed: the first pass deletes lines
            idx = [i for i in matching(group) if lines[i].startswith("    ") == inside]
            if not idx:
                continue
            block = "OPTIONAL { " + " ".join(lines[i].strip() for i in idx) + " }"
            for i in reversed(idx):
                del lines[i]
            if inside:
                service = next(i for i, ln in enumerate(lines) if ln.strip().startswith("SERVICE"))
                end = next(i for i in range(service, len(lines)) if lines[i] == "  }")
                lines.insert(end, "    " + block)
            else:
                lines.insert(max(i for i, ln in enumerate(lines) if ln == "}"), "  " + block)
    return "\n".join(lines) + "\n"


def entity_count(kb, query: str) -> tuple[str, str]:
    """``(distinct ?lemma, rows)`` of a list query: projection replaced, ORDER BY/LIMIT/GROUP BY dropped."""
    out = []
    for ln in query.splitlines():
        if ln.startswith("SELECT"):
            ln = "SELECT (COUNT(DISTINCT ?lemma) AS ?lemmas) (COUNT(*) AS ?rows) WHERE {"
        if not ln.startswith(("ORDER BY", "LIMIT", "GROUP BY", "HAVING")):
            out.append(ln)
    row = kb.select("\n".join(out)).rows[0]
    return row[0].value, row[1].value


def run_check(kb, paths: list[Path]) -> None:
    """Describe what each query file returns."""
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"{path}: no such query file (write the variant there first)")
        print(f"# {path}")
        print("\n".join(describe(kb.select(path.read_text(encoding="utf-8")))))


def run_facet(kb, sample: Path, k: int, groups: list[list[str]], out_dir: Path) -> None:
    """Compare a list gold's entities with its all-facets-OPTIONAL variant, and each facet alone."""
    drawn = {obj["k"]: obj["item"] for _, obj in iter_jsonl(sample)}
    if k not in drawn:
        raise SystemExit(f"item {k} is not in {sample} (k runs from 1 to {len(drawn)})")
    gold = drawn[k]["sparql"]
    variant = optional_variant(gold, groups)
    from nl2sparql.fileio import atomic_write_text
    atomic_write_text(out_dir / f"{k}_optional.rq", variant)
    lemmas, rows = entity_count(kb, gold)
    all_lemmas, all_rows = entity_count(kb, variant)
    alone = ", ".join(f"{g[0]}: {entity_count(kb, optional_variant(gold, [g]))[0]}" for g in groups)
    print(f"k={k}: gold {lemmas} lemmas / {rows} rows; facets OPTIONAL {all_lemmas} lemmas / {all_rows} rows; "
          f"one facet OPTIONAL at a time: {alone}  (variant → {out_dir / f'{k}_optional.rq'})")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (``draw``, ``sheet``, ``check``, ``facet``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_draw = sub.add_parser("draw", help="draw the audit sample from a pool")
    p_draw.add_argument("pool", type=Path)
    p_draw.add_argument("--n", type=int, default=50)
    p_draw.add_argument("--seed", type=int, default=15)
    p_draw.add_argument("--out", type=Path, required=True)
    p_draw.add_argument("--new-kinds", action="store_true",
                        help="draw among the items of issue 24's new kinds only (positions in that sub-list)")
    p_sheet = sub.add_parser("sheet", help="write the reading sheet of a drawn sample")
    p_sheet.add_argument("sample", type=Path)
    p_sheet.add_argument("--out", type=Path, required=True)
    p_check = sub.add_parser("check", help="run query files and describe what they return")
    p_check.add_argument("queries", type=Path, nargs="+")
    p_facet = sub.add_parser("facet", help="facet check: gold vs. its facets made OPTIONAL (entity counts)")
    p_facet.add_argument("sample", type=Path)
    p_facet.add_argument("k", type=int)
    p_facet.add_argument("--facet", action="append", required=True, metavar="SUBSTR[,SUBSTR…]",
                         help="substrings naming one facet's triple lines (repeat per facet)")
    p_facet.add_argument("--out-dir", type=Path, default=Path("/tmp/audit/checks"))
    for p in (p_sheet, p_check, p_facet):
        p.add_argument("--store", help="on-disk store of the mirror (as for nl2sparql-gen --store)")
        p.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    try:
        if args.command == "draw":
            pool, digest = read_pool(args.pool)
            if args.new_kinds:
                pool = [item for item in pool if is_new_kind(item)]
            drawn = draw(pool, args.n, args.seed)
            write_jsonl(args.out, drawn)
            print(f"drew {len(drawn)} of {len(pool)} items (seed {args.seed}; pool sha256 {digest[:16]}) "
                  f"→ {args.out}")
            print("positions:", " ".join(str(d["pool_index"]) for d in drawn))
            return 0
        kb = open_store(args.store, args.timeout)
        if args.command == "sheet":
            drawn = [obj for _, obj in iter_jsonl(args.sample)]
            text = "# Audit reading sheet\n\n" + "\n".join(section(d, kb) for d in drawn)
            from nl2sparql.fileio import atomic_write_text
            atomic_write_text(args.out, text)
            print(f"wrote {len(drawn)} sections → {args.out}")
            return 0
        if kb is None:
            raise SystemExit(f"{args.command} needs --store (the mirror store the gold runs on)")
        if args.command == "check":
            run_check(kb, args.queries)
        else:
            run_facet(kb, args.sample, args.k, [f.split(",") for f in args.facet], args.out_dir)
    except Nl2SparqlError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
