"""The query model escapes every value; the lexer and the structural features read queries correctly."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings, strategies as st

import nl2sparql.sparql.model as model
from nl2sparql.patterns import CATALOGUE, Facts, fact_queries
from nl2sparql.patterns.compose import Composer, finish_query, start_frame
from nl2sparql.sparql.features import analyze
from nl2sparql.sparql.lexer import has_limit, has_order_by, query_form, tokenize
from nl2sparql.sparql.model import IRI, Filter, Group, Lit, Select, Triple, Values, Var, eq, render, str_
from nl2sparql.sparql.syntax import parses


def test_doctests():
    assert doctest.testmod(model).failed == 0


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_any_string_value_is_escaped_and_round_trips(sample_kb, value):
    """A value with quotes, backslashes, newlines or braces never breaks out of its literal."""
    query = Select([(str_(Lit(value)), Var("v"))], Group([Filter(eq(Lit(1), Lit(1)))]))
    text = render(query)
    assert parses(text)
    table = sample_kb.select(text)
    assert table.rows[0][0].value == value


def test_language_tags_and_iris_are_validated():
    with pytest.raises(ValueError):
        Lit("x", lang="it; DROP").render(set())
    with pytest.raises(ValueError):
        IRI("http://example.org/a> <b").render(set())


def test_iris_are_compacted_with_the_liita_prefixes_only_when_safe():
    used: set[str] = set()
    assert IRI("http://lila-erc.eu/ontologies/lila/noun").render(used) == "lila:noun"
    assert IRI("http://liita.it/data/id/lemma/123").render(used) == "<http://liita.it/data/id/lemma/123>"
    assert used == {"lila"}


def test_lexer_ignores_keywords_inside_strings_and_comments():
    q = 'PREFIX x: <http://x/>\n# ORDER BY in a comment\nSELECT ?s WHERE { ?s ?p "LIMIT 3 ORDER BY" }'
    assert query_form(q) == "select"
    assert not has_order_by(q) and not has_limit(q)
    assert query_form("PREFIX a: <http://a/> INSERT DATA { <a> <b> <c> }") == "update"
    assert [t.kind for t in tokenize('"a\\"b"')] == ["string"]


def test_features_read_service_blocks_and_string_tests():
    q = """SELECT ?wr WHERE { ?l ontolex:writtenRep ?wr . FILTER(STRSTARTS(STR(?wr), "ri"))
           ?w ontolex:canonicalForm ?l .
           SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { ?w ontolex:sense ?s . ?s skos:definition ?d } }"""
    f = analyze(q)
    assert f.uses_in_service("skos:definition") and not f.uses_outside_service("skos:definition")
    assert f.uses_outside_service("ontolex:writtenRep")
    assert f.string_tests_on("ontolex:writtenRep") == {"STRSTARTS"}


def test_every_catalogue_block_builds_a_query_that_parses():
    slots = {
        "POS_FILTER": {"pos": "noun", "gender": "feminine"},
        "MORPHO_REGEX": {"kind": "suffix", "affix": "zione", "regex": True},
        "EMOTION_LEXICON": {"mode": "constraint", "emotion": "Paura"},
        "POLARITY": {"polarity": "Negative", "threshold": 0.5},
        "SEMANTIC_RELATION": {"relation": "hypernym", "target": "animale", "transitive": True},
        "LEXICAL_RELATION": {"relation": "synonym", "target": "paura"},
        "TRANSLATION": {"dialect": "siciliano"},
        "MULTI_TRANSLATION": {},
        "SENSE_DEFINITION": {"contains": "velenoso"},
        "SENSE_COUNT": {"min_senses": 2},
        "SERVICE_INTEGRATION": {},
    }
    for label, value in slots.items():
        frame = start_frame("list")
        CATALOGUE[label].build(frame, value, random.Random(0))
        text = render(finish_query(frame))
        assert parses(text), (label, text)
        assert label in frame.labels


def test_the_composer_is_deterministic_for_a_seed(sample_kb):
    rows = {n: [tuple(t.value for t in r) for r in sample_kb.select(q, max_rows=100000).rows]
            for n, q in fact_queries().items()}
    def draws():
        composer = Composer(Facts(dict(rows)), seed=5)
        return [c if isinstance(c, str) else ("query", c.sparql) for c in map(composer.draw, range(50))]
    first = draws()
    assert first == draws()
    assert sum(isinstance(c, tuple) for c in first) >= 40


def test_values_block_renders_language_tagged_literals():
    group = Group([Values(Var("wr"), [Lit("città", lang="it")]),
                   Triple(Var("l"), IRI.of("ontolex:writtenRep"), Var("wr"))])
    text = render(Select([Var("l")], group))
    assert 'VALUES ?wr { "città"@it }' in text and parses(text)


def test_inverse_translation_lists_answer_and_name_the_dialect_word(sample_kb):
    from nl2sparql.patterns.analytics import written
    from nl2sparql.patterns.phrasing import realise_all
    from nl2sparql.patterns.tagger import tag_query

    rows = {n: [tuple(t.value for t in r) for r in sample_kb.select(q, max_rows=100000).rows]
            for n, q in fact_queries().items()}
    facts = Facts(rows)
    composer = Composer(facts, seed=2, allowed={"TRANSLATION", "POS_FILTER"})
    found = [c for c in map(composer.draw, range(400)) if not isinstance(c, str) and "target" in c.slots]
    assert len(found) >= 5
    for cand in found[:5]:
        table = sample_kb.select(cand.sparql)
        assert table.variables[0] == "wr" and "lemma" not in table.variables  # the words asked for, no IRIs
        assert len(table) >= 1 and written(facts, cand.anchor) in {t.value for t in table.column("wr")}
        assert "VALUES ?" in cand.sparql and "vartrans:translatableAs" in cand.sparql
        assert tag_query(cand.sparql).get("TRANSLATION", 0) >= 0.5
        questions = realise_all(cand.fragment_objects(), cand.shape, random.Random(0), cand.word, cand.limit)
        assert all(cand.slots["target"] in q for lang in questions.values() for q in lang.values())
