"""English→Italian lemma mapping accuracy on ``bench/heldout/en_it_words.tsv`` (issue 14, item 1).

A mapper ranks Italian lemma written forms for an English word. The pair counts for top-k when its
Italian lemma is among the first k candidates. The figures are top-1 and top-3, overall and per
part of speech.

A mapper is built by a factory ``factory(kb) -> mapper``, where ``mapper(english, pos) -> list[str]``
returns the ranked Italian written forms. Name a factory with ``--mapper module:factory``. The
default, ``identity``, is the baseline: the English word itself, looked up as an Italian lemma of
the KB. It gives one candidate at most, so its top-3 equals its top-1.

Usage::

    .venv/bin/python bench/word_mapping.py                          # baseline on the embedded sample
    .venv/bin/python bench/word_mapping.py --mapper pkg.module:factory [--store DIR] [--show-misses]
"""

from __future__ import annotations

import argparse
import csv
import importlib
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
PAIRS = REPO / "bench" / "heldout" / "en_it_words.tsv"

from nl2sparql.errors import Nl2SparqlError  # noqa: E402
from nl2sparql.kb import open_kb  # noqa: E402

Mapper = Callable[[str, str], list]

ITALIAN_LEMMA = """PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX dcterms: <http://purl.org/dc/terms/>
ASK {{ ?lemma dcterms:isPartOf <http://liita.it/data/id/lemma/LemmaBank> ;
              ontolex:writtenRep ?wr . FILTER(STR(?wr) = {literal}) }}"""


def identity_mapper(kb) -> Mapper:
    """Baseline: the English word itself, when it is also the written form of an Italian lemma."""
    def mapper(english: str, pos: str) -> list[str]:
        literal = '"' + english.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return [english] if kb.ask(ITALIAN_LEMMA.format(literal=literal)) else []
    return mapper


def load_factory(spec: str) -> Callable:
    """``identity`` or ``module:factory`` (one clear line when it cannot be found)."""
    if spec == "identity":
        return identity_mapper
    module_name, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute, None)
    except ImportError as exc:
        sys.exit(f"word_mapping: cannot import {module_name!r} ({exc})")
    if not callable(factory):
        sys.exit(f"word_mapping: {module_name} has no callable {attribute!r} (use --mapper module:factory)")
    return factory


def read_pairs(path: Path) -> list[dict]:
    """The pairs, checked for the three columns."""
    if not path.is_file():
        sys.exit(f"word_mapping: {path}: no such file (check --pairs)")
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        if reader.fieldnames != ["english", "italian", "pos"]:
            sys.exit(f"word_mapping: {path} must have the header english<TAB>italian<TAB>pos")
        return list(reader)


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mapper", default="identity", help="identity (baseline) or module:factory")
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    parser.add_argument("--store", type=Path, help="an on-disk store instead of the embedded sample")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)
    try:
        kb = open_kb(store=args.store)
        start = time.perf_counter()
        mapper = load_factory(args.mapper)(kb)
        load_s = time.perf_counter() - start
        start = time.perf_counter()
        ranked = [list(mapper(p["english"], p["pos"]))[:3] for p in pairs]
        map_s = time.perf_counter() - start
    except Nl2SparqlError as exc:
        sys.exit(f"word_mapping: {exc}")
    groups = defaultdict(list)
    for pair, candidates in zip(pairs, ranked):
        hit = (candidates[:1] == [pair["italian"]], pair["italian"] in candidates)
        groups["all"].append(hit)
        groups[pair["pos"]].append(hit)
    print(f"# bench/word_mapping.py --mapper {args.mapper}: {len(pairs)} pairs from {args.pairs.name}, "
          f"KB {args.store or 'sample'}; Python {platform.python_version()}")
    for name in ("all", "noun", "verb", "adjective", "adverb"):
        hits = groups.get(name, [])
        if hits:
            top1, top3 = sum(h[0] for h in hits), sum(h[1] for h in hits)
            print(f"{name:<10} n={len(hits):4d}  top-1 {top1:3d} = {100 * top1 / len(hits):5.1f}%"
                  f"  top-3 {top3:3d} = {100 * top3 / len(hits):5.1f}%")
    empty = sum(1 for c in ranked if not c)
    print(f"no candidate for {empty} of {len(pairs)} words; mapper start {load_s:.2f} s, "
          f"{1000 * map_s / max(1, len(pairs)):.2f} ms per word (shared machine)")
    if args.show_misses:
        for pair, candidates in zip(pairs, ranked):
            if pair["italian"] not in candidates:
                print(f"  MISS {pair['english']} ({pair['pos']}) -> {candidates or '-'}, expected {pair['italian']}")


if __name__ == "__main__":
    main()
