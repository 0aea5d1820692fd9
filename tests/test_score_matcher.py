"""Unit tests of the table matcher on hand-made tables, one option at a time."""

from __future__ import annotations

import pytest

from nl2sparql.errors import ConfigError
from nl2sparql.kb.results import ResultTable, Term
from nl2sparql.score.matcher import MatchOptions, compare_tables

from test_score_support import ask, iri, lit, num, table

ORDERED = "SELECT ?id ?price WHERE { ?p ex:id ?id ; ex:price ?price } ORDER BY ?id"
UNORDERED = "SELECT ?id ?price WHERE { ?p ex:id ?id ; ex:price ?price }"

GOLD = table(["id", "price"], [(num(1), num("10.5", "decimal")), (num(2), num("3.0", "decimal")),
                               (num(3), num("7.25", "decimal")), (num(4), num("3.0", "decimal"))])


def with_extra_column() -> ResultTable:
    rows = [(iri(f"p{r[0].value}"), r[0], r[1]) for r in GOLD.rows]
    return table(["product", "ident", "cost"], rows)


def permuted_rows() -> ResultTable:
    return table(["id", "price"], [GOLD.rows[i] for i in (2, 0, 3, 1)])


# -- the classic case ------------------------------------------------------------

def test_extra_column_fails_when_same_columns_required():
    result = compare_tables(GOLD, with_extra_column(), ORDERED, MatchOptions(require_same_columns=True))
    assert not result.match
    assert result.error == "column_mismatch"


def test_extra_column_passes_when_extra_columns_allowed():
    result = compare_tables(GOLD, with_extra_column(), ORDERED, MatchOptions(require_same_columns=False))
    assert result.match
    assert result.mapping == {"id": "ident", "price": "cost"}
    assert result.ordered


def test_row_permutation_passes_only_when_order_is_ignored():
    pred = permuted_rows()
    assert compare_tables(GOLD, pred, UNORDERED, MatchOptions(ignore_order=True)).match
    kept = compare_tables(GOLD, pred, UNORDERED, MatchOptions(ignore_order=False))
    assert not kept.match and kept.error == "value_mismatch"
    # ORDER BY in the gold forces order even when asked to ignore it
    forced = compare_tables(GOLD, pred, ORDERED, MatchOptions(ignore_order=True))
    assert not forced.match and "order" in forced.detail


def test_same_order_passes_with_order_by():
    assert compare_tables(GOLD, GOLD, ORDERED).match


def test_ties_of_the_order_key_may_come_in_any_order():
    gold = table(["price", "id"], [(num(3), num(2)), (num(3), num(4)), (num(7), num(3)), (num(10), num(1))])
    query = "SELECT ?price ?id WHERE { ?p ex:price ?price ; ex:id ?id } ORDER BY ?price"
    tie_swapped = table(["price", "id"], [gold.rows[i] for i in (1, 0, 2, 3)])
    assert compare_tables(gold, tie_swapped, query).match
    wrong = table(["price", "id"], [gold.rows[i] for i in (0, 1, 3, 2)])
    assert not compare_tables(gold, wrong, query).match


def test_order_by_expression_falls_back_to_positions():
    gold = table(["x"], [(lit("bb"),), (lit("a"),)])
    query = "SELECT ?x WHERE { ?s ?p ?x } ORDER BY DESC(STRLEN(?x))"
    assert compare_tables(gold, gold, query).match
    assert not compare_tables(gold, table(["x"], [(lit("a"),), (lit("bb"),)]), query).match


# -- columns ------------------------------------------------------------------------

def test_columns_matched_by_content_not_name_or_position():
    pred = table(["b", "a"], [(r[1], r[0]) for r in GOLD.rows])
    result = compare_tables(GOLD, pred, UNORDERED)
    assert result.match
    assert result.mapping == {"id": "a", "price": "b"}


def test_require_same_column_names():
    renamed = table(["x", "y"], GOLD.rows)
    assert compare_tables(GOLD, renamed, UNORDERED).match
    result = compare_tables(GOLD, renamed, UNORDERED, MatchOptions(require_same_column_names=True))
    assert not result.match and result.error == "column_mismatch" and "?id" in result.detail
    swapped = table(["price", "id"], [(r[1], r[0]) for r in GOLD.rows])
    assert compare_tables(GOLD, swapped, UNORDERED, MatchOptions(require_same_column_names=True)).match


def test_single_cell_aggregate_matches_whatever_the_variable_name():
    gold = table(["count"], [(num(5),)])
    pred = table(["n"], [(num("5.0", "decimal"),)])
    opts = MatchOptions(require_same_column_names=True)
    assert compare_tables(gold, pred, "SELECT (COUNT(?x) AS ?count) WHERE {}", opts).match
    assert not compare_tables(gold, table(["n"], [(num(6),)]), None, opts).match


def test_fewer_columns_is_a_column_mismatch():
    pred = table(["id"], [(r[0],) for r in GOLD.rows])
    result = compare_tables(GOLD, pred, UNORDERED, MatchOptions(require_same_columns=False))
    assert not result.match and result.error == "column_mismatch"


def test_wrong_projection_is_a_column_mismatch_and_wrong_value_a_value_mismatch():
    gold = table(["label", "price"], [(lit("mela"), num(10)), (lit("pera"), num(3))])
    pred = table(["item", "price"], [(iri("p1"), num(10)), (iri("p2"), num(3))])
    result = compare_tables(gold, pred)
    assert result.error == "column_mismatch" and "?label" in result.detail
    rows = list(GOLD.rows)
    rows[2] = (num(3), num("7.5", "decimal"))
    assert compare_tables(GOLD, table(["id", "price"], rows), UNORDERED).error == "value_mismatch"


def test_ambiguous_fingerprints_are_resolved_by_rows():
    # both columns hold {1, 2, 3}; only the swapped mapping makes the rows agree
    gold = table(["a", "b"], [(num(1), num(2)), (num(2), num(3)), (num(3), num(1))])
    pred = table(["a", "b"], [(r[1], r[0]) for r in gold.rows])
    result = compare_tables(gold, pred)
    assert result.match and result.mapping == {"a": "b", "b": "a"}
    assert not compare_tables(gold, pred, options=MatchOptions(require_same_column_names=True)).match


def test_extra_column_with_identical_content_is_harmless():
    gold = table(["a"], [(num(1),), (num(2),)])
    pred = table(["copy", "a"], [(num(1), num(1)), (num(2), num(2))])
    assert compare_tables(gold, pred, options=MatchOptions(require_same_columns=False)).match


# -- duplicates -----------------------------------------------------------------------

def test_duplicates_matter_only_as_multisets():
    pred = table(["id", "price"], [*GOLD.rows, GOLD.rows[0]])
    assert not compare_tables(GOLD, pred, UNORDERED, MatchOptions(consider_duplicates=True)).match
    assert compare_tables(GOLD, pred, UNORDERED, MatchOptions(consider_duplicates=False)).match


def test_duplicates_with_order():
    gold = table(["x"], [(num(1),), (num(2),), (num(2),)])
    pred = table(["x"], [(num(1),), (num(2),)])
    query = "SELECT ?x WHERE {} ORDER BY ?x"
    assert not compare_tables(gold, pred, query, MatchOptions(consider_duplicates=True)).match
    assert compare_tables(gold, pred, query, MatchOptions(consider_duplicates=False)).match


def test_projected_extra_columns_make_duplicates():
    gold = table(["x"], [(lit("a"),), (lit("b"),)])
    pred = table(["x", "y"], [(lit("a"), num(1)), (lit("a"), num(2)), (lit("b"), num(3))])
    extra = MatchOptions(require_same_columns=False)
    assert not compare_tables(gold, pred, None, extra).match
    assert compare_tables(gold, pred, None, MatchOptions(require_same_columns=False,
                                                         consider_duplicates=False)).match


# -- numbers ----------------------------------------------------------------------------

def test_numeric_literals_compare_by_value_across_datatypes():
    gold = table(["n"], [(num(1),), (num("2.50", "decimal"),)])
    pred = table(["n"], [(num("1.0E0", "double"),), (num("2.5", "float"),)])
    assert compare_tables(gold, pred).match


def test_float_tolerance():
    gold = table(["v"], [(num("10.5", "decimal"),), (num(1_000_000),)])
    pred = table(["v"], [(num("10.5000004", "decimal"),), (num(1_000_003),)])
    assert not compare_tables(gold, pred).match
    assert compare_tables(gold, pred, options=MatchOptions(float_tolerance=1e-5)).match
    assert not compare_tables(gold, pred, options=MatchOptions(float_tolerance=1e-7)).match


def test_tolerance_pairs_rows_optimally_not_greedily():
    # exact pairing 1.0-1.0 would strand 0.9 and 1.1; the right pairing is 0.9-1.0 and 1.0-1.1
    gold = table(["v"], [(num("1.0", "decimal"),), (num("0.9", "decimal"),)])
    pred = table(["v"], [(num("1.0", "decimal"),), (num("1.1", "decimal"),)])
    assert compare_tables(gold, pred, options=MatchOptions(float_tolerance=0.15)).match
    assert not compare_tables(gold, pred, options=MatchOptions(float_tolerance=0.05)).match


def test_tolerance_with_other_columns_and_extra_columns():
    gold = table(["k", "v"], [(lit("a"), num("0.333", "decimal")), (lit("b"), num("0.667", "decimal"))])
    pred = table(["v", "k", "z"], [(num("0.3333", "double"), lit("a"), lit("z")),
                                   (num("0.6667", "double"), lit("b"), lit("z"))])
    opts = MatchOptions(require_same_columns=False, float_tolerance=1e-3)
    assert compare_tables(gold, pred, options=opts).match
    crossed = table(["v", "k", "z"], [(num("0.3333", "double"), lit("b"), lit("z")),
                                      (num("0.6667", "double"), lit("a"), lit("z"))])
    assert not compare_tables(gold, crossed, options=opts).match


def test_rounding_factor():
    gold = table(["v"], [(num("3.14159", "double"),)])
    pred = table(["v"], [(num("3.1412", "decimal"),)])
    assert not compare_tables(gold, pred).match
    assert compare_tables(gold, pred, options=MatchOptions(round_digits=2)).match
    assert not compare_tables(gold, pred, options=MatchOptions(round_digits=4)).match


# -- RDF normalisation ---------------------------------------------------------------------

def test_language_tag_policy():
    gold = table(["l"], [(lit("mela", "it"),)])
    pred = table(["l"], [(lit("mela"),)])
    assert not compare_tables(gold, pred, options=MatchOptions(lang="keep")).match
    assert compare_tables(gold, pred, options=MatchOptions(lang="ignore")).match
    assert compare_tables(gold, table(["l"], [(lit("mela", "IT"),)])).match


def test_iri_is_not_literal_and_xsd_string_is_plain():
    gold = table(["x"], [(Term.iri("http://example.org/a"),)])
    assert not compare_tables(gold, table(["x"], [(lit("http://example.org/a"),)])).match
    plain = table(["x"], [(lit("a"),)])
    typed = table(["x"], [(Term("literal", "a", "http://www.w3.org/2001/XMLSchema#string"),)])
    assert compare_tables(plain, typed).match


def test_blank_nodes_and_unbound_cells():
    gold = table(["x", "y"], [(Term.bnode("b0"), None), (Term.bnode("b1"), lit("v"))])
    pred = table(["x", "y"], [(Term.bnode("zz"), lit("v")), (Term.bnode("yy"), None)])
    assert compare_tables(gold, pred).match
    assert not compare_tables(gold, table(["x", "y"], [(Term.bnode("a"), lit("v")),
                                                       (Term.bnode("b"), lit("w"))])).match


# -- special forms and empties ----------------------------------------------------------------

def test_ask_booleans():
    assert compare_tables(ask(True), ask(True)).match
    result = compare_tables(ask(True), ask(False))
    assert not result.match and result.error == "value_mismatch"
    assert compare_tables(ask(True), GOLD).error == "column_mismatch"
    assert compare_tables(GOLD, ask(True)).error == "column_mismatch"


def test_empty_answers():
    empty = table(["id", "price"], [])
    assert compare_tables(empty, table(["a", "b"], [])).match
    assert compare_tables(GOLD, empty).error == "empty"
    assert compare_tables(empty, GOLD).error == "value_mismatch"


def test_row_count_mismatch():
    result = compare_tables(GOLD, table(["id", "price"], GOLD.rows[:3]))
    assert not result.match and result.error == "value_mismatch"


# -- LIMIT without ORDER BY: containment in the un-limited answer --------------------------------

FULL = table(["x"], [(iri(f"p{i}"),) for i in range(1, 6)])
LIMITED_GOLD = table(["x"], FULL.rows[:2])
LIMIT_QUERY = "SELECT ?x WHERE { ?x a ex:Product } LIMIT 2"


def test_limit_without_order_by_scores_containment():
    other_subset = table(["x"], FULL.rows[3:5])
    assert not compare_tables(LIMITED_GOLD, other_subset, LIMIT_QUERY).match
    result = compare_tables(LIMITED_GOLD, other_subset, LIMIT_QUERY, gold_full=FULL)
    assert result.match and result.containment
    outsider = table(["x"], [FULL.rows[0], (iri("nope"),)])
    assert not compare_tables(LIMITED_GOLD, outsider, LIMIT_QUERY, gold_full=FULL).match
    too_many = table(["x"], FULL.rows[:3])
    assert not compare_tables(LIMITED_GOLD, too_many, LIMIT_QUERY, gold_full=FULL).match


def test_limit_with_order_by_is_not_containment():
    query = "SELECT ?x WHERE { ?x a ex:Product } ORDER BY ?x LIMIT 2"
    result = compare_tables(LIMITED_GOLD, table(["x"], FULL.rows[3:5]), query, gold_full=FULL)
    assert not result.match and not result.containment


def test_containment_with_tolerance_and_sets():
    full = table(["v"], [(num("1.0", "decimal"),), (num("2.0", "decimal"),), (num("3.0", "decimal"),)])
    gold = table(["v"], full.rows[:2])
    pred = table(["v"], [(num("2.0000001", "double"),), (num("3.0", "decimal"),)])
    assert not compare_tables(gold, pred, LIMIT_QUERY, gold_full=full).match
    assert compare_tables(gold, pred, LIMIT_QUERY, MatchOptions(float_tolerance=1e-6), gold_full=full).match
    dup = table(["v"], [(num(3),), (num(3),)])
    assert not compare_tables(gold, dup, LIMIT_QUERY, gold_full=full).match
    assert not compare_tables(gold, dup, LIMIT_QUERY, MatchOptions(consider_duplicates=False),
                              gold_full=full).match


# -- options ---------------------------------------------------------------------------------------

def test_relaxed_options_loosen_every_dimension():
    strict = MatchOptions(float_tolerance=0.0, require_same_column_names=True)
    relaxed = strict.relaxed()
    assert not relaxed.require_same_columns and not relaxed.require_same_column_names
    assert not relaxed.consider_duplicates and relaxed.float_tolerance == strict.relaxed_tolerance
    assert relaxed.ignore_order == strict.ignore_order and relaxed.lang == strict.lang


@pytest.mark.parametrize("kwargs", [{"float_tolerance": -1}, {"lang": "drop"}, {"max_mappings": 0}])
def test_bad_options_raise_config_error(kwargs):
    with pytest.raises(ConfigError):
        MatchOptions(**kwargs)


def test_max_mappings_caps_ambiguous_search():
    # 4 identical-fingerprint columns whose rows only agree under one of 24 mappings
    values = [num(i) for i in range(4)]
    gold_rows = [tuple(values[(r + c) % 4] for c in range(4)) for r in range(4)]
    gold = table(list("abcd"), gold_rows)
    pred = table(list("abcd"), [tuple(row[c] for c in (3, 2, 1, 0)) for row in gold_rows])
    assert compare_tables(gold, pred).match
    assert not compare_tables(gold, pred, options=MatchOptions(max_mappings=1)).match
