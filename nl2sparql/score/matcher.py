"""Execution-based comparison of a gold and a predicted result table.

The matcher never tries all column permutations. Each column gets a value
fingerprint (the bag or set of its normalised cells); a gold column may only
be mapped to a predicted column whose fingerprint agrees, and the mapping is
a bipartite assignment found by augmenting paths. Only then are rows
verified, as bags or sets, in order when the order matters. When several
predicted columns share a fingerprint, the consistent assignments are
enumerated (most constrained column first, infeasible branches pruned) up to
:attr:`MatchOptions.max_mappings`.

Rules (see :class:`MatchOptions`): extra predicted columns are allowed only
without ``require_same_columns``; names matter only with
``require_same_column_names`` (never for a single-cell gold such as a COUNT);
order matters when the gold's outer query has ORDER BY or ``ignore_order`` is
off, and ties in the gold's ORDER BY keys may come in any order; a gold with
LIMIT but no ORDER BY is judged by containment: the prediction must have as
many rows as the gold and every one of them must occur in the un-limited gold
answer (``gold_full``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Iterable, Optional, Sequence

from ..errors import ConfigError
from ..kb.results import ResultTable
from .bipartite import iter_assignments, max_matching
from .metrics import bag_overlap, greedy_column_pairs, has_close
from .normalize import NUM_PREFIX, LangPolicy, NormOptions, Normalizer, is_numeric_key, numeric_value
from .prepared import PreparedTable
from .query import order_variables, outer_order_by
from .rows import Row, same_bag, verify_containment, verify_ordered, verify_unordered


@dataclass(frozen=True)
class MatchOptions:
    """How strict a comparison is.

    ``require_same_columns``: the prediction must have exactly the gold's
    columns (else it may carry extra columns; every gold column must be found
    in it by content). ``require_same_column_names``: mapped columns must have
    the same variable names. ``consider_duplicates``: compare rows as bags
    (else as sets). ``float_tolerance``: numeric cells may differ by this much
    (absolute up to 1, relative above). ``round_digits``: round numeric
    values to this many decimal places first. ``ignore_order``: compare rows
    without order (forced off when the gold has an outer ORDER BY). ``lang``:
    keep or ignore language tags. ``relaxed_tolerance``: the tolerance of the
    relaxed match. ``max_mappings``: cap on column assignments tried when
    fingerprints are ambiguous. ``labels``: the relaxed match also reads each
    IRI as its label (:mod:`~nl2sparql.score.labels`), so a column of labels and
    a column of the labelled resources count as one answer there (never in the
    strict match).
    """

    require_same_columns: bool = True
    require_same_column_names: bool = False
    consider_duplicates: bool = True
    float_tolerance: float = 0.0
    round_digits: Optional[int] = None
    ignore_order: bool = True
    lang: LangPolicy = "keep"
    relaxed_tolerance: float = 1e-6
    max_mappings: int = 256
    labels: bool = False

    def __post_init__(self) -> None:
        if not self.float_tolerance >= 0 or not self.relaxed_tolerance >= 0:
            raise ConfigError("the float tolerance must be a number >= 0")
        if self.max_mappings < 1:
            raise ConfigError("max_mappings must be at least 1")
        if self.lang not in ("keep", "ignore"):
            raise ConfigError(f"language-tag policy must be 'keep' or 'ignore', not {self.lang!r}")

    def relaxed(self) -> "MatchOptions":
        """The relaxed variant: extra columns, any names, sets, and at least ``relaxed_tolerance``."""
        return replace(self, require_same_columns=False, require_same_column_names=False,
                       consider_duplicates=False,
                       float_tolerance=max(self.float_tolerance, self.relaxed_tolerance))

    def norm_options(self) -> NormOptions:
        """The cell-normalisation part of these options."""
        return NormOptions(lang=self.lang, round_digits=self.round_digits)

    def to_dict(self) -> dict:
        """Plain dict (for reports)."""
        return asdict(self)


@dataclass(slots=True)
class MatchResult:
    """Verdict of one comparison.

    ``error`` is ``None`` on a match, else ``empty``, ``column_mismatch`` or
    ``value_mismatch``; ``detail`` says why in one line; ``mapping`` maps gold
    variables to the predicted variables they were matched with.
    """

    match: bool
    error: Optional[str] = None
    detail: str = ""
    mapping: dict[str, str] = field(default_factory=dict)
    ordered: bool = False
    containment: bool = False


@dataclass(frozen=True, slots=True)
class GoldPlan:
    """What the gold query says about order: whether rows are ordered and by which columns."""

    ordered: bool
    order_columns: Optional[tuple[int, ...]]

    @staticmethod
    def of(gold_query: Optional[str], variables: Sequence[str], options: MatchOptions) -> "GoldPlan":
        """Read the plan from the gold SPARQL (``None``: unordered unless ``ignore_order`` is off)."""
        has_order = bool(gold_query) and outer_order_by(gold_query or "")
        ordered = has_order or not options.ignore_order
        columns: Optional[tuple[int, ...]] = None
        if has_order:
            names = order_variables(gold_query or "")
            if names and all(n in variables for n in names):
                columns = tuple(list(variables).index(n) for n in names)
        return GoldPlan(ordered, columns)


def compare_tables(gold: ResultTable, pred: ResultTable, gold_query: Optional[str] = None,
                   options: Optional[MatchOptions] = None, *,
                   gold_full: Optional[ResultTable] = None,
                   normalizer: Optional[Normalizer] = None) -> MatchResult:
    """Compare two result tables of the same KB.

    ``gold_query`` tells whether the gold is ordered (outer ORDER BY) and by
    which variables. ``gold_full`` is the gold answer without its LIMIT; when
    given and the gold is not ordered, the prediction is judged by
    containment in it.
    """
    options = options or MatchOptions()
    normalizer = normalizer or Normalizer(options.norm_options())
    g = PreparedTable.build(gold, normalizer)
    p = PreparedTable.build(pred, normalizer)
    full = PreparedTable.build(gold_full, normalizer) if gold_full is not None else None
    return compare_prepared(g, p, GoldPlan.of(gold_query, gold.variables, options), options,
                            gold_full=full)


def compare_prepared(gold: PreparedTable, pred: PreparedTable, plan: GoldPlan,
                     options: MatchOptions, *,
                     gold_full: Optional[PreparedTable] = None) -> MatchResult:
    """:func:`compare_tables` on already-normalised tables."""
    containment = gold_full is not None and not plan.ordered

    def verdict(ok: bool, error: Optional[str] = None, detail: str = "",
                mapping: Optional[dict[str, str]] = None) -> MatchResult:
        """The result, with the plan's order and containment flags."""
        return MatchResult(ok, error, detail, mapping or {}, plan.ordered, containment)

    if gold.form == "ask" or pred.form == "ask":
        if gold.form != pred.form:
            return verdict(False, "column_mismatch",
                           f"gold is {gold.form.upper()}, prediction is {pred.form.upper()}")
        if bool(gold.boolean) == bool(pred.boolean):
            return verdict(True)
        return verdict(False, "value_mismatch",
                       f"gold answers {str(gold.boolean).lower()}, prediction {str(pred.boolean).lower()}")

    single_cell = gold.width == 1 and gold.n_rows <= 1
    if pred.width < gold.width:
        return verdict(False, "column_mismatch",
                       f"prediction has {pred.width} column(s), gold has {gold.width}")
    if options.require_same_columns and pred.width != gold.width:
        return verdict(False, "column_mismatch",
                       f"prediction has {pred.width} columns, gold has {gold.width} "
                       "(extra columns are not allowed)")
    by_name = options.require_same_column_names and not single_cell
    if by_name:
        missing = [v for v in gold.variables if v not in pred.variables]
        if missing:
            return verdict(False, "column_mismatch",
                           "prediction lacks variable(s) " + ", ".join("?" + v for v in missing))

    reference = gold_full if containment and gold_full is not None else gold
    if reference.n_rows == 0:
        if pred.n_rows == 0:
            return verdict(True, mapping=dict(zip(gold.variables, pred.variables)))
        return verdict(False, "value_mismatch", f"gold answer is empty, prediction has {pred.n_rows} row(s)")
    if pred.n_rows == 0:
        return verdict(False, "empty", f"prediction is empty, gold has {gold.n_rows} row(s)")

    dup = options.consider_duplicates
    tol = options.float_tolerance
    if dup and pred.n_rows != gold.n_rows:
        why = f"prediction has {pred.n_rows} rows, gold has {gold.n_rows}"
        if containment:
            why += " (gold has LIMIT without ORDER BY: any rows of its answer count)"
        return verdict(False, *_classify(reference, pred, dup, tol, why))

    if tol > 0 and not containment:
        # an exact match is a match under any tolerance: try the cheap hash-only search first
        exact = _search(gold, reference, pred, plan, options, 0.0, False, by_name)
        if isinstance(exact, list):
            return verdict(True, mapping=_mapping(gold, pred, exact))
    found = _search(gold, reference, pred, plan, options, tol, containment, by_name)
    if isinstance(found, list):
        return verdict(True, mapping=_mapping(gold, pred, found))
    if found is None:
        return verdict(False, *_classify(reference, pred, dup, tol, ""))
    return verdict(False, "value_mismatch", found)


def _mapping(gold: PreparedTable, pred: PreparedTable, assignment: Sequence[int]) -> dict[str, str]:
    return {gold.variables[i]: pred.variables[j] for i, j in enumerate(assignment)}


def _search(gold: PreparedTable, reference: PreparedTable, pred: PreparedTable, plan: GoldPlan,
            options: MatchOptions, tol: float, containment: bool, by_name: bool):
    """Find a column assignment under which the rows agree.

    Returns the assignment (a list), the first row-level failure (a string),
    or ``None`` when no assignment is consistent with the column fingerprints.
    """
    dup = options.consider_duplicates
    candidates = _column_candidates(reference, pred, dup, tol, containment, by_name)
    if any(not c for c in candidates):
        return None
    first_failure: Optional[str] = None
    for assignment in iter_assignments(candidates, pred.width, options.max_mappings):
        pred_rows = pred.project(assignment)
        if containment:
            problem = verify_containment(gold.rows(), reference.rows(), pred_rows, dup, tol)
        elif plan.ordered:
            problem = verify_ordered(gold.rows(), pred_rows, plan.order_columns, dup, tol)
        else:
            problem = verify_unordered(gold.rows(), pred_rows, dup, tol)
        if problem is None:
            return assignment
        first_failure = first_failure or problem
    return first_failure


# -- column candidates ------------------------------------------------------

def _column_candidates(gold: PreparedTable, pred: PreparedTable, dup: bool, tol: float,
                       containment: bool, by_name: bool) -> list[list[int]]:
    """For each gold column, the predicted columns whose fingerprint is compatible."""
    if containment:
        gold_bags = [Counter(c) if dup else Counter(set(c)) for c in gold.columns]
        pred_bags = [Counter(c) if dup else Counter(set(c)) for c in pred.columns]
        raw = [[j for j, pb in enumerate(pred_bags) if _bags_compatible(gb, pb, dup, tol, True)]
               for gb in gold_bags]
    else:
        fingerprint: Callable[[Iterable[str]], object] = (
            (lambda col: frozenset(Counter(col).items())) if dup else frozenset)
        pred_fps = [fingerprint(col) for col in pred.columns]
        gold_fps = [fingerprint(col) for col in gold.columns]
        if tol <= 0:
            buckets: dict[object, list[int]] = {}
            for j, fp in enumerate(pred_fps):
                buckets.setdefault(fp, []).append(j)
            raw = [buckets.get(fp, []) for fp in gold_fps]
        else:
            # numbers may differ within the tolerance: bucket by the columns with numbers erased,
            # then check the numbers of the candidates that are not exactly equal
            def coarse(col: list[str]) -> object:
                """Fingerprint of the column with numeric values erased."""
                return fingerprint(NUM_PREFIX if k[0] == "n" else k for k in col)
            pred_coarse = [coarse(col) for col in pred.columns]
            raw = []
            for i, col in enumerate(gold.columns):
                gc = coarse(col)
                gold_bag = None
                cands = []
                for j, pc in enumerate(pred_coarse):
                    if pc != gc:
                        continue
                    if pred_fps[j] != gold_fps[i]:
                        gold_bag = gold_bag or (Counter(col) if dup else Counter(set(col)))
                        pb = Counter(pred.columns[j]) if dup else Counter(set(pred.columns[j]))
                        if not _bags_compatible(gold_bag, pb, dup, tol, False):
                            continue
                    cands.append(j)
                raw.append(cands)
    out = []
    for i, cands in enumerate(raw):
        name = gold.variables[i]
        if by_name:
            cands = [j for j in cands if pred.variables[j] == name]
        # try the same name first, then the same position, then the rest
        out.append(sorted(cands, key=lambda j: (pred.variables[j] != name, j != i, j)))
    return out


def _bags_compatible(gold: Counter, pred: Counter, dup: bool, tol: float, containment: bool) -> bool:
    """Whether a predicted column's values can be the gold column's (or lie within it)."""
    if containment:
        if tol <= 0:
            return pred <= gold
        if dup:
            return bag_overlap(pred, gold, tol) == sum(pred.values())
        values = sorted(numeric_value(k) for k in gold if is_numeric_key(k))
        return all(k in gold or (is_numeric_key(k) and has_close(numeric_value(k), values, tol))
                   for k in pred)
    if same_bag(pred, gold):
        return True
    if tol <= 0:
        return False
    if dup:
        size = sum(gold.values())
        return size == sum(pred.values()) and bag_overlap(gold, pred, tol) == size
    g_num = sorted(numeric_value(k) for k in gold if is_numeric_key(k))
    p_num = sorted(numeric_value(k) for k in pred if is_numeric_key(k))
    if {k for k in gold if not is_numeric_key(k)} != {k for k in pred if not is_numeric_key(k)}:
        return False
    return (all(has_close(v, p_num, tol) for v in g_num)
            and all(has_close(v, g_num, tol) for v in p_num))


def _value_kinds(column: Sequence[str]) -> set[str]:
    """The kinds of values a column holds: ``i`` IRI, ``s`` string, ``n`` number, ``t…`` by datatype."""
    distinct = set(column)
    kinds = {k[0] for k in distinct}
    kinds.discard("u")
    if "l" in kinds:
        kinds.discard("l")
        kinds.add("s")
    if "t" in kinds:
        kinds.discard("t")
        kinds.update("t" + k.rsplit("\x1f", 1)[-1] for k in distinct if k[0] == "t")
    return kinds


def _classify(gold: PreparedTable, pred: PreparedTable, dup: bool, tol: float,
              detail: str) -> tuple[str, str]:
    """Why two tables disagree: ``column_mismatch`` or ``value_mismatch``.

    It is a column mismatch when the gold columns cannot be paired with
    predicted columns holding the same kinds of values (IRIs, strings,
    numbers, a typed literal's datatype): the prediction projects something
    else. Otherwise the columns are right and their values are not.
    """
    gold_kinds = [_value_kinds(c) for c in gold.columns]
    pred_kinds = [_value_kinds(c) for c in pred.columns]
    adj = [[j for j, pk in enumerate(pred_kinds) if not gk or not pk or gk & pk] for gk in gold_kinds]
    paired = max_matching(adj, len(pred_kinds))
    lost = ["?" + gold.variables[i] for i, m in enumerate(paired) if m < 0]
    if lost:
        return "column_mismatch", (detail + "; " if detail else "") + \
            "no predicted column holds the kind of values of " + ", ".join(lost)
    if not detail:
        pred_sets = [set(c) for c in pred.columns]
        gold_sets = [set(c) for c in gold.columns]
        if tol > 0:
            overlap = [[bag_overlap(Counter(g), Counter(p), tol) for p in pred_sets] for g in gold_sets]
        else:
            overlap = [[len(g & p) for p in pred_sets] for g in gold_sets]
        pairs = greedy_column_pairs(overlap)
        found = {i: v for i, _, v in pairs}
        worst = min(range(len(gold_sets)), key=lambda i: found.get(i, 0) / max(1, len(gold_sets[i])),
                    default=None)
        detail = "values differ" if worst is None else (
            f"values differ: {found.get(worst, 0)} of {len(gold_sets[worst])} distinct gold values "
            f"of ?{gold.variables[worst]} found in the prediction")
    return "value_mismatch", detail


__all__ = ["MatchOptions", "MatchResult", "PreparedTable", "GoldPlan", "compare_tables",
           "compare_prepared"]
