"""Unit tests of the scorer's parts: normalisation, query facts, bipartite matching, cell metrics."""

from __future__ import annotations

import math

import pytest

from nl2sparql.errors import ConfigError
from nl2sparql.kb.results import Term
from nl2sparql.score.bipartite import has_perfect_matching, iter_assignments, max_matching
from nl2sparql.score.matcher import PreparedTable
from nl2sparql.score.metrics import cell_scores, close_numbers_paired
from nl2sparql.score.normalize import (NormOptions, Normalizer, describe_key, is_numeric_key,
                                       numbers_close, numeric_value)
from nl2sparql.score.query import order_variables, outer_limit, outer_order_by, strip_outer_limit

from test_score_support import XSD, ask, iri, lit, num, table

# -- normalisation -----------------------------------------------------------------


@pytest.fixture
def norm() -> Normalizer:
    return Normalizer()


def test_numbers_share_a_key_across_datatypes_and_spellings(norm):
    keys = {norm.key(num(v, dt)) for v, dt in [("1", "integer"), ("1.0", "decimal"), ("1E0", "double"),
                                               ("01", "int"), ("+1.000", "float"), ("1", "unsignedByte")]}
    assert len(keys) == 1
    key = keys.pop()
    assert is_numeric_key(key) and numeric_value(key) == 1.0
    assert norm.key(num("0.5", "decimal")) == norm.key(num("5E-1", "double"))
    assert norm.key(num("-0", "integer")) == norm.key(num("0.0", "double"))
    assert norm.key(num("120", "integer")) != norm.key(num("12", "integer"))


def test_numeric_string_is_not_a_number(norm):
    assert norm.key(lit("1")) != norm.key(num(1))


def test_special_and_ill_typed_numbers(norm):
    assert numeric_value(norm.key(num("INF", "double"))) == math.inf
    assert math.isnan(numeric_value(norm.key(num("NaN", "double"))))
    bad = norm.key(num("abc", "integer"))
    assert not is_numeric_key(bad) and bad == norm.key(num("abc", "integer"))


def test_plain_and_xsd_string_and_lang(norm):
    assert norm.key(lit("a")) == norm.key(Term("literal", "a", XSD + "string"))
    assert norm.key(lit("a", "it")) != norm.key(lit("a"))
    assert norm.key(lit("a", "it")) != norm.key(lit("a", "en"))
    ignoring = Normalizer(NormOptions(lang="ignore"))
    assert ignoring.key(lit("a", "it")) == ignoring.key(lit("a")) == ignoring.key(lit("a", "en"))


def test_kinds_never_collide(norm):
    keys = [norm.key(Term.iri("http://x/a")), norm.key(lit("http://x/a")), norm.key(Term.bnode("a")),
            norm.key(None), norm.key(Term("literal", "http://x/a", XSD + "anyURI"))]
    assert len(set(keys)) == len(keys)
    assert norm.key(Term.bnode("a")) == norm.key(Term.bnode("b"))


def test_rounding(norm):
    r2 = Normalizer(NormOptions(round_digits=2))
    assert r2.key(num("3.14159", "double")) == r2.key(num("3.14", "decimal"))
    assert r2.key(num("2.675", "decimal")) == r2.key(num("2.68", "decimal"))  # half-even on decimals
    assert norm.key(num("3.14159", "double")) != norm.key(num("3.14", "decimal"))


def test_numbers_close():
    assert numbers_close(0.1, 0.1000001, 1e-6)
    assert not numbers_close(0.1, 0.1001, 1e-6)
    assert numbers_close(1e9, 1e9 + 500, 1e-6)  # relative above 1
    assert numbers_close(math.nan, math.nan, 0) and not numbers_close(math.nan, 1.0, 1.0)


def test_describe_key(norm):
    assert describe_key(norm.key(lit("mela", "it"))) == '"mela"@it'
    assert describe_key(norm.key(iri("a"))) == "<http://example.org/a>"
    assert describe_key(norm.key(num("2.50", "decimal"))) == "2.5"


def test_bad_lang_policy():
    with pytest.raises(ConfigError):
        NormOptions(lang="whatever")  # type: ignore[arg-type]


# -- query facts -------------------------------------------------------------------------

SUBQUERY = """PREFIX ex: <http://example.org/>  # ORDER BY in a comment
SELECT ?x WHERE {
  { SELECT ?x WHERE { ?x ?p ?o } ORDER BY ?x LIMIT 3 }
  FILTER(?x != "ORDER BY ?y LIMIT 9")
} LIMIT 10 OFFSET 2"""


def test_outer_modifiers_only():
    assert not outer_order_by(SUBQUERY)
    assert outer_limit(SUBQUERY)
    assert outer_order_by("SELECT ?x { ?x ?p ?o } ORDER BY DESC(?x)")
    assert not outer_limit("SELECT ?x { { SELECT ?x { ?x ?p ?o } LIMIT 1 } }")


def test_strip_outer_limit_keeps_inner_and_strings():
    stripped = strip_outer_limit(SUBQUERY)
    assert "LIMIT 3" in stripped and "LIMIT 9" in stripped
    assert "LIMIT 10" not in stripped and "OFFSET 2" not in stripped
    assert stripped.startswith("PREFIX ex: <http://example.org/>  # ORDER BY in a comment")
    assert strip_outer_limit("SELECT * { ?s ?p ?o } limit 5") .strip() == "SELECT * { ?s ?p ?o }"


def test_order_variables():
    assert order_variables("SELECT * {} ORDER BY ?a DESC(?b) ASC( ?c ) LIMIT 3") == ["a", "b", "c"]
    assert order_variables("SELECT * {} ORDER BY (?a)") == ["a"]
    assert order_variables("SELECT * {} ORDER BY STRLEN(?a)") is None
    assert order_variables("SELECT * {}") is None


# -- bipartite -----------------------------------------------------------------------------


def test_max_matching_uses_augmenting_paths():
    # the greedy choice 0->0 must be undone for 1 to find a partner
    adj = [[0, 1], [0]]
    assert max_matching(adj, 2) == [1, 0]
    assert has_perfect_matching([[0], [0]], 2) is False
    assert has_perfect_matching([[0, 1, 2], [0], [1]], 3)


def test_long_augmenting_chain_is_iterative():
    n = 3000  # deeper than the recursion limit
    # each left vertex first grabs its right neighbour; the last one forces an n-long augmenting path
    adj = [[i + 1, i] for i in range(n - 1)] + [[n - 1]]
    assert max_matching(adj, n) == list(range(n))


def test_iter_assignments_enumerates_and_caps():
    full = [[0, 1, 2]] * 3
    assert len(list(iter_assignments(full, 3, 100))) == 6
    assert len(list(iter_assignments(full, 3, 2))) == 2
    assert list(iter_assignments([[0], [0]], 2, 10)) == []
    assert list(iter_assignments([[1], [0, 1]], 2, 10)) == [[1, 0]]


# -- cell metrics -----------------------------------------------------------------------------


def prep(t):
    return PreparedTable.build(t, Normalizer())


def test_cell_scores_partial_overlap():
    gold = table(["a", "b"], [(lit("x"), num(1)), (lit("y"), num(2))])
    pred = table(["b", "a"], [(num(1), lit("x")), (num(3), lit("z")), (num(2), lit("q"))])
    s = cell_scores(prep(gold), prep(pred))
    assert s.precision == pytest.approx(3 / 6) and s.recall == pytest.approx(3 / 4)
    assert s.f1 == pytest.approx(2 * 0.5 * 0.75 / 1.25)


def test_cell_scores_extra_columns():
    gold = table(["a"], [(lit("x"),), (lit("y"),)])
    pred = table(["a", "extra"], [(lit("x"), lit("e")), (lit("y"), lit("f"))])
    assert cell_scores(prep(gold), prep(pred), penalise_extra_columns=True).precision == 0.5
    assert cell_scores(prep(gold), prep(pred), penalise_extra_columns=False).f1 == 1.0


def test_cell_scores_conventions():
    empty = table(["a"], [])
    some = table(["a"], [(lit("x"),)])
    assert cell_scores(prep(empty), prep(table(["b"], []))).f1 == 1.0
    s = cell_scores(prep(empty), prep(some))
    assert (s.precision, s.recall, s.f1) == (0.0, 1.0, 0.0)
    assert cell_scores(prep(some), prep(empty)).f1 == 0.0
    assert cell_scores(prep(ask(True)), prep(ask(True))).f1 == 1.0
    assert cell_scores(prep(ask(True)), prep(ask(False))).f1 == 0.0
    assert cell_scores(prep(ask(True)), prep(some)).f1 == 0.0


def test_cell_scores_sets_tolerance_and_containment():
    gold = table(["a"], [(num("1.0", "decimal"),), (num("2.0", "decimal"),)])
    pred = table(["a"], [(num("1.0000001", "double"),), (num("1.0000001", "double"),), (num(5),)])
    assert cell_scores(prep(gold), prep(pred)).recall == 0.0
    tol = cell_scores(prep(gold), prep(pred), tolerance=1e-6)
    assert tol.recall == 0.5 and tol.precision == pytest.approx(1 / 3)
    as_set = cell_scores(prep(gold), prep(pred), tolerance=1e-6, duplicates=False)
    assert as_set.precision == 0.5
    full = table(["a"], [(num(i),) for i in range(1, 6)])
    limited = table(["a"], full.rows[:2])
    other = table(["a"], full.rows[3:5])
    assert cell_scores(prep(limited), prep(other), gold_full=prep(full)).f1 == 1.0


def test_close_numbers_paired_is_maximal_on_a_line():
    assert close_numbers_paired([0.9, 1.0], [1.0, 1.1], 0.15) == 2
    assert close_numbers_paired([1.0, 1.0], [1.0], 0.0) == 1


def test_column_keys_fast_paths_agree_with_key():
    columns = [
        [iri(f"x{i}") for i in range(5)],
        [lit(f"w{i}", "IT" if i % 2 else None) for i in range(5)],
        [num(i, "integer" if i % 2 else "double") for i in range(5)],
        [num("1.50", "decimal"), num("abc", "integer"), num("INF", "double"), num("-0.0", "float"), num(7)],
        [lit("a"), None, iri("b"), Term.bnode("c"), num(1)],
        [Term("literal", "s", XSD + "string"), Term("literal", "t", XSD + "date"), lit("u"), lit("v"), lit("w")],
    ]
    rows = list(zip(*columns))
    for lang in ("keep", "ignore"):
        for digits in (None, 1):
            opts = NormOptions(lang=lang, round_digits=digits)
            expected = [[Normalizer(opts).key(t) for t in col] for col in columns]
            assert Normalizer(opts).column_keys(rows, len(columns)) == expected
    assert Normalizer().column_keys([], 3) == [[], [], []]
