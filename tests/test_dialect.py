"""Virtuoso/ARQ projections (``SELECT COUNT(?x) AS ?n``) rewritten into standard SPARQL."""

from __future__ import annotations

import pytest

from nl2sparql.errors import QuerySyntaxError
from nl2sparql.score.runner import Scorer
from nl2sparql.sparql.dialect import normalise_dialect
from nl2sparql.sparql.syntax import check_syntax
from nl2sparql.translate.validate import repair, validate

COUNT_BY_EMOTION = """SELECT ?label COUNT(DISTINCT ?entry) AS ?entries WHERE {
  ?entry elita:HasEmotion ?emotion . ?emotion rdfs:label ?label .
} ORDER BY ?label"""


def test_bare_projection_is_wrapped_and_implicit_grouping_made_explicit():
    out, fixes = normalise_dialect(COUNT_BY_EMOTION)
    assert "(COUNT(DISTINCT ?entry) AS ?entries)" in out
    assert out.index("GROUP BY ?label") < out.index("ORDER BY")
    assert len(fixes) == 2
    check_syntax(out)


@pytest.mark.parametrize("query, expected", [
    ("SELECT COUNT(*) as ?n WHERE { ?s ?p ?o }", "SELECT (COUNT(*) as ?n) WHERE"),
    ("SELECT DISTINCT STR(?wr) AS ?word ?l WHERE { ?l ontolex:writtenRep ?wr }", "(STR(?wr) AS ?word) ?l"),
    ("SELECT ?l (COUNT(?s) AS ?n) WHERE { ?l ontolex:sense ?s } GROUP BY ?l", None),   # already standard
    ('SELECT ?l WHERE { ?l rdfs:label "COUNT(?x) AS ?n" }', None),                        # inside a string
])
def test_only_the_dialect_is_touched(query, expected):
    out, fixes = normalise_dialect(query)
    if expected is None:
        assert out == query and fixes == []
    else:
        assert expected in out and fixes
        check_syntax(out)


def test_validate_fix_and_the_kb_error_mention_it(sample_kb):
    syntax = [i for i in validate(COUNT_BY_EMOTION, execute=False) if i.rule == "syntax"]
    assert syntax and "GROUP BY ?label" in syntax[0].fix
    fixed, fixes = repair(COUNT_BY_EMOTION)
    assert any("GROUP BY" in f for f in fixes)
    assert len(sample_kb.select(fixed)) == 9  # the nine ELITA emotions of the sample
    with pytest.raises(QuerySyntaxError, match="validate --fix"):
        sample_kb.select(COUNT_BY_EMOTION)


def test_scorer_runs_virtuoso_queries_in_standard_form(sample_kb):
    standard, _ = normalise_dialect(COUNT_BY_EMOTION)
    scorer = Scorer(sample_kb)
    assert scorer.score(COUNT_BY_EMOTION, standard, "g1").strict
    assert scorer.score(standard, COUNT_BY_EMOTION, "g2").strict
    wrong = COUNT_BY_EMOTION.replace("COUNT(DISTINCT ?entry)", "COUNT(DISTINCT ?emotion)")
    assert not scorer.score(COUNT_BY_EMOTION, wrong, "g3").strict
    assert scorer.score(standard, "SELECT ?x WHERE { ?x ?y }", "g4").error == "parse"
