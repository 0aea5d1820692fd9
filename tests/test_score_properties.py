"""Property tests: the verdict ignores row order (without ORDER BY), column order and
variable names, and a wrong row always breaks a strict match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nl2sparql.kb.results import ResultTable, Term
from nl2sparql.score.matcher import MatchOptions, compare_tables
from nl2sparql.score.normalize import Normalizer

from test_score_support import XSD

SETTINGS = settings(max_examples=150, deadline=None)

cells = st.one_of(
    st.none(),
    st.sampled_from(["a", "b", "c"]).map(lambda v: Term.iri("http://example.org/" + v)),
    st.sampled_from(["a", "b", "mela"]).map(Term.literal),
    st.tuples(st.sampled_from(["mela", "pera"]), st.sampled_from(["it", "en"])).map(
        lambda t: Term.literal(t[0], lang=t[1])),
    st.integers(-3, 3).map(lambda i: Term.literal(str(i), XSD + "integer")),
    st.sampled_from(["0.5", "1.0", "2.25", "1.004"]).map(lambda v: Term.literal(v, XSD + "decimal")),
)

options = st.builds(
    MatchOptions,
    require_same_columns=st.booleans(),
    consider_duplicates=st.booleans(),
    float_tolerance=st.sampled_from([0.0, 0.01]),
    lang=st.sampled_from(["keep", "ignore"]),
)


@st.composite
def tables(draw, min_rows: int = 0) -> ResultTable:
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.tuples(*[cells] * width), min_size=min_rows, max_size=10))
    return ResultTable.from_rows([f"v{i}" for i in range(width)], rows)


@st.composite
def gold_and_pred(draw):
    """A gold table and a prediction that is a copy, a near miss or something else."""
    gold = draw(tables())
    width = len(gold.variables)
    rows = list(gold.rows)
    change = draw(st.sampled_from(["same", "drop", "add", "dup", "cell", "extra", "other"]))
    if change == "other":
        return gold, draw(tables())
    if change == "drop" and rows:
        rows.pop(draw(st.integers(0, len(rows) - 1)))
    elif change == "add":
        rows.append(draw(st.tuples(*[cells] * width)))
    elif change == "dup" and rows:
        rows.append(rows[draw(st.integers(0, len(rows) - 1))])
    elif change == "cell" and rows:
        i, j = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, width - 1))
        row = list(rows[i])
        row[j] = draw(cells)
        rows[i] = tuple(row)
    variables = list(gold.variables)
    if change == "extra":
        variables.append("extra")
        extra = draw(st.lists(cells, min_size=len(rows), max_size=len(rows)))
        rows = [(*r, e) for r, e in zip(rows, extra)]
    return gold, ResultTable.from_rows(variables, rows)


def verdict(gold, pred, opts, query=None, gold_full=None):
    result = compare_tables(gold, pred, query, opts, gold_full=gold_full)
    return result.match, result.error


@SETTINGS
@given(gold_and_pred(), options, st.randoms(use_true_random=False))
def test_shuffling_predicted_rows_never_changes_the_verdict(pair, opts, rnd):
    gold, pred = pair
    rows = list(pred.rows)
    rnd.shuffle(rows)
    shuffled = ResultTable.from_rows(pred.variables, rows)
    assert verdict(gold, pred, opts) == verdict(gold, shuffled, opts)


@SETTINGS
@given(gold_and_pred(), options, st.randoms(use_true_random=False))
def test_shuffling_columns_never_changes_the_verdict(pair, opts, rnd):
    gold, pred = pair
    order = list(range(len(pred.variables)))
    rnd.shuffle(order)
    permuted = ResultTable.from_rows([pred.variables[j] for j in order],
                                     [tuple(r[j] for j in order) for r in pred.rows])
    assert verdict(gold, pred, opts) == verdict(gold, permuted, opts)


@SETTINGS
@given(gold_and_pred(), options, st.text("xyz", min_size=1, max_size=3))
def test_renaming_variables_never_changes_the_verdict(pair, opts, suffix):
    gold, pred = pair
    renamed = ResultTable.from_rows([v + "_" + suffix for v in pred.variables], pred.rows)
    assert verdict(gold, pred, opts) == verdict(gold, renamed, opts)


@SETTINGS
@given(tables(), options, st.randoms(use_true_random=False), st.booleans())
def test_a_table_matches_itself_and_its_shuffles(gold, opts, rnd, ordered):
    query = "SELECT * WHERE { ?s ?p ?o } ORDER BY ?s" if ordered else None
    assert compare_tables(gold, gold, query, opts).match
    rows = list(gold.rows)
    rnd.shuffle(rows)
    assert compare_tables(gold, ResultTable.from_rows(gold.variables, rows), None, opts).match


@SETTINGS
@given(tables(), options, st.booleans(), st.integers(0, 10))
def test_adding_a_wrong_row_always_breaks_strict_match(gold, opts, ordered, position):
    width = len(gold.variables)
    wrong = tuple(Term.literal(f"wrong-{j}") for j in range(width))
    rows = list(gold.rows)
    rows.insert(min(position, len(rows)), wrong)
    query = "SELECT * WHERE { ?s ?p ?o } ORDER BY ?v0" if ordered else None
    result = compare_tables(gold, ResultTable.from_rows(gold.variables, rows), query, opts)
    assert not result.match and result.error in ("value_mismatch", "column_mismatch")


@SETTINGS
@given(tables(min_rows=1), options, st.randoms(use_true_random=False), st.data())
def test_containment_verdict_ignores_row_and_column_order(full, opts, rnd, data):
    limit = data.draw(st.integers(1, len(full.rows)))
    gold = ResultTable.from_rows(full.variables, full.rows[:limit])
    picked = data.draw(st.lists(st.sampled_from(full.rows), min_size=limit, max_size=limit))
    pred = ResultTable.from_rows(full.variables, picked)
    query = "SELECT * WHERE { ?s ?p ?o } LIMIT 3"
    base = verdict(gold, pred, opts, query, full)
    rows = list(picked)
    rnd.shuffle(rows)
    order = list(range(len(full.variables)))
    rnd.shuffle(order)
    moved = ResultTable.from_rows([f"w{j}" for j in order], [tuple(r[j] for j in order) for r in rows])
    assert verdict(gold, moved, opts, query, full) == base
    key = Normalizer(opts.norm_options()).key
    distinct = lambda rows: {tuple(key(t) for t in row) for row in rows}  # noqa: E731 - as the scorer sees them
    if not opts.consider_duplicates and len(distinct(picked)) == len(distinct(gold.rows)):
        assert base[0]  # any distinct rows of the full answer, as many as the gold, are right


@SETTINGS
@given(st.lists(st.tuples(cells, cells), max_size=8), st.sampled_from(["keep", "ignore"]))
def test_column_keys_agree_with_key(rows, lang):
    from nl2sparql.score.normalize import NormOptions, Normalizer
    normalizer = Normalizer(NormOptions(lang=lang))
    expected = [[Normalizer(NormOptions(lang=lang)).key(row[j]) for row in rows] for j in range(2)]
    assert normalizer.column_keys(rows, 2) == expected


@SETTINGS
@given(st.from_regex(r"[+-]?[0-9]{0,6}(\.[0-9]{0,6})?", fullmatch=True))
def test_fast_number_canonical_form_agrees_with_decimal(text):
    from decimal import Decimal, InvalidOperation

    from nl2sparql.score.normalize import _canonical, _fast_canonical
    try:
        expected = _canonical(Decimal(text))
    except InvalidOperation:
        expected = None
    assert _fast_canonical(text) == expected
