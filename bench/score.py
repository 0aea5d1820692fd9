"""Benchmark of the table matcher: gold/pred comparisons per second (no query time).

Tables are ROWS x COLS (default 100 x 4) of mixed cells (IRIs, language-tagged
labels, integers, decimals). Each case times :func:`compare_tables` on
pre-built :class:`ResultTable` pairs, normalisation included (a fresh
normaliser per comparison, so no cache is shared between pairs). The naive
baseline normalises the same way and then tries every permutation of the
predicted columns, comparing row multisets for each (stopping at the first
that fits). Rates use process CPU time (best of ``--repeat`` runs), so that
other processes on a shared machine do not skew them.

Usage: ``.venv/bin/python bench/score.py [--rows 100] [--cols 4] [--pairs 200] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import time
from collections import Counter
from typing import Callable

from nl2sparql.kb.results import ResultTable, Term
from nl2sparql.score.matcher import MatchOptions, compare_tables
from nl2sparql.score.normalize import Normalizer

XSD = "http://www.w3.org/2001/XMLSchema#"


def make_cell(rnd: random.Random, col: int, row: int) -> Term:
    """One cell; the column decides its kind (IRI, tagged label, integer, decimal)."""
    kind = col % 4
    if kind == 0:
        return Term.iri(f"http://liita.it/data/id/lemma/{row * 7 + rnd.randrange(3)}")
    if kind == 1:
        return Term.literal(f"parola{row}", lang="it")
    if kind == 2:
        return Term.literal(str(rnd.randrange(50)), XSD + "integer")
    return Term.literal(f"{rnd.random() * 100:.3f}", XSD + "decimal")


def make_gold(rnd: random.Random, rows: int, cols: int) -> ResultTable:
    """A random gold table."""
    return ResultTable.from_rows([f"c{j}" for j in range(cols)],
                                 [tuple(make_cell(rnd, j, i) for j in range(cols)) for i in range(rows)])


def shuffled(rnd: random.Random, table: ResultTable, extra: bool = False) -> ResultTable:
    """The table with rows and columns shuffled and renamed (plus an extra column if asked)."""
    order = list(range(len(table.variables)))
    rnd.shuffle(order)
    rows = [tuple(r[j] for j in order) for r in table.rows]
    names = [f"x{j}" for j in order]
    if extra:
        rows = [(*r, Term.literal("extra")) for r in rows]
        names.append("extra")
    rnd.shuffle(rows)
    return ResultTable.from_rows(names, rows)


def one_cell_wrong(rnd: random.Random, table: ResultTable) -> ResultTable:
    """A shuffled copy with one cell replaced by a wrong value."""
    rows = list(table.rows)
    i = rnd.randrange(len(rows))
    row = list(rows[i])
    row[rnd.randrange(len(row))] = Term.literal("wrong")
    rows[i] = tuple(row)
    return shuffled(rnd, ResultTable.from_rows(table.variables, rows))


def naive_match(gold: ResultTable, pred: ResultTable, normalizer: Normalizer) -> bool:
    """Baseline: same normalisation, then try every column permutation, comparing row multisets."""
    width = len(gold.variables)
    g = Counter(zip(*normalizer.column_keys(gold.rows, width)))
    p_cols = normalizer.column_keys(pred.rows, len(pred.variables))
    for perm in itertools.permutations(range(len(pred.variables)), width):
        if Counter(zip(*(p_cols[j] for j in perm))) == g:
            return True
    return False


def rate(pairs: list[tuple[ResultTable, ResultTable]], fn: Callable[[ResultTable, ResultTable], object],
         repeat: int) -> float:
    """Comparisons per CPU second, best of ``repeat`` passes over ``pairs``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for gold, pred in pairs:
            fn(gold, pred)
        best = min(best, time.process_time() - start)
    return len(pairs) / best


def main() -> None:
    """Run every case and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    golds = [make_gold(rnd, args.rows, args.cols) for _ in range(args.pairs)]
    cases = {
        "match (rows and columns shuffled)": ([(g, shuffled(rnd, g)) for g in golds], MatchOptions()),
        "mismatch (one wrong cell)": ([(g, one_cell_wrong(rnd, g)) for g in golds], MatchOptions()),
        "extra column allowed": ([(g, shuffled(rnd, g, extra=True)) for g in golds],
                                 MatchOptions(require_same_columns=False)),
        "tolerance 1e-6, match": ([(g, shuffled(rnd, g)) for g in golds], MatchOptions(float_tolerance=1e-6)),
        "sets, lang ignored": ([(g, shuffled(rnd, g)) for g in golds],
                               MatchOptions(consider_duplicates=False, lang="ignore")),
    }
    print(f"# bench/score.py: {args.rows} rows x {args.cols} columns, {args.pairs} pairs, best of "
          f"{args.repeat} (CPU time); Python {platform.python_version()} on {platform.machine()}")
    print(f"{'case':38} {'comparisons/s':>14} {'naive/s':>10} {'speed-up':>9}")
    for name, (pairs, opts) in cases.items():
        # a fresh normaliser per comparison: no numeric cache carried over between pairs
        ours = rate(pairs, lambda g, p: compare_tables(g, p, None, opts), args.repeat)
        verdicts = {compare_tables(g, p, None, opts).match for g, p in pairs}
        line = f"{name:38} {ours:14,.0f}"
        if opts.float_tolerance == 0 and opts.consider_duplicates:
            norm_opts = opts.norm_options()
            naive = rate(pairs, lambda g, p: naive_match(g, p, Normalizer(norm_opts)), args.repeat)
            assert {naive_match(g, p, Normalizer(norm_opts)) for g, p in pairs} == verdicts
            line += f" {naive:10,.0f} {ours / naive:8.1f}x"
        else:
            line += f" {'-':>10} {'-':>9}"
        print(line + f"   (verdicts: {sorted(verdicts)})")
    normalise = rate([(g, p) for g, p in cases["match (rows and columns shuffled)"][0]],
                     lambda g, p: [Normalizer().column_keys(t.rows, len(t.variables)) for t in (g, p)],
                     args.repeat)
    print(f"{'(normalising both tables alone)':38} {normalise:14,.0f}")
    print("# scaling with width: one wrong cell, rows and columns shuffled (naive on 3 pairs)")
    for width in (6, 8):
        wide = [make_gold(rnd, args.rows, width) for _ in range(max(3, args.pairs // 4))]
        pairs = [(g, one_cell_wrong(rnd, g)) for g in wide]
        ours = rate(pairs, lambda g, p: compare_tables(g, p, None, MatchOptions()), args.repeat)
        naive = rate(pairs[:3], lambda g, p: naive_match(g, p, Normalizer()), 1)
        print(f"{f'{args.rows} x {width} mismatch':38} {ours:14,.0f} {naive:10,.1f} {ours / naive:8.0f}x")


if __name__ == "__main__":
    main()
