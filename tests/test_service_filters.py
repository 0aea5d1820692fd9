"""FILTERs inside a SERVICE block are moved after it for the embedded store, never changing the answer."""

from __future__ import annotations

import time

import pytest

from nl2sparql.kb import open_kb
from nl2sparql.namespaces import COMPLIT_SERVICE
from nl2sparql.sparql.rewrite import hoist_service_filters
from nl2sparql.sparql.syntax import check_syntax

SERVICE = f"SERVICE <{COMPLIT_SERVICE}>"


def test_filter_moves_after_a_simple_block():
    q = 'SELECT * { SERVICE <x> { VALUES ?w { "a" } ?s ?p ?w . FILTER(CONTAINS(?w, "}")) } ?s ?q ?o }'
    out = hoist_service_filters(q)
    assert out.index('FILTER(CONTAINS(?w, "}"))') > out.index("?s ?p ?w .")
    assert out.index('FILTER(CONTAINS(?w, "}"))') < out.index("?s ?q ?o")
    assert out.count("FILTER") == 1


def test_builtin_call_filter_form_moves_too():
    out = hoist_service_filters("SELECT * { SERVICE <x> { ?s ?p ?o FILTER regex(?o, \"^a\") } }")
    assert out.rstrip().endswith('} FILTER regex(?o, "^a") }')


@pytest.mark.parametrize("block", [
    "?s ?p ?o OPTIONAL { ?o ?q ?e } FILTER(?e)",          # the variable may be unbound inside
    "?s ?p ?o FILTER NOT EXISTS { ?o ?q ?e }",             # EXISTS reads the service's graph
    "{ ?s ?p ?o } UNION { ?o ?p ?s } FILTER(?o)",          # not a simple block
    "?s ?p ?o FILTER(?elsewhere)",                          # reads a variable bound outside
    "?s ?p ?o BIND(1 AS ?one) FILTER(?one = 1)",            # a BIND variable stays with its BIND
])
def test_filters_that_could_change_meaning_stay_put(block):
    q = f"SELECT * {{ ?elsewhere ?x ?y SERVICE <x> {{ {block} }} }}"
    assert hoist_service_filters(q) == q


@pytest.mark.parametrize("block", [
    "?s ?p ?o FILTER(?o != 1) ?s ?q ?x",          # the FILTER was what ended the first triples
    "?s ?p ?o . FILTER(?o != 1) . ?s ?q ?x .",    # "FILTER(…) ." is allowed
    "FILTER(?o != 1) ?s ?p ?o # a comment\n FILTER regex(?x, 'a') ?s ?q ?x",
    "?s ?p ?o FILTER(?o != 1) FILTER(?x != 2) ?s ?q ?x",
])
def test_the_block_left_behind_still_parses(block):
    out = hoist_service_filters(f"SELECT * WHERE {{ SERVICE <http://example.org/s> {{ {block} }} ?s ?r ?y }}")
    assert "FILTER" not in out.split("SERVICE", 1)[1].split("}", 1)[0]
    check_syntax(out)


def test_strings_and_comments_are_not_blocks():
    q = 'SELECT * { BIND("SERVICE <x> { ?s ?p ?o FILTER(?o) }" AS ?t) } # SERVICE <x> { FILTER(?o) }'
    assert hoist_service_filters(q) == q


def test_same_answers_on_the_sample(sample_kb):
    queries = [
        f"""SELECT ?lemma ?d WHERE {{ ?word ontolex:canonicalForm ?lemma .
            {SERVICE} {{ ?word ontolex:sense ?s . ?s skos:definition ?d . FILTER(CONTAINS(LCASE(STR(?d)), "animale")) }}
            }} ORDER BY ?lemma ?d""",
        f"""SELECT ?d WHERE {{ {SERVICE} {{ ?w ontolex:sense ?s . ?s skos:definition ?d .
            FILTER regex(?d, "^S") FILTER(STRLEN(?d) > 20) }} }} ORDER BY ?d""",
    ]
    for q in queries:
        prepared = sample_kb.prepare(q)
        assert "FILTER" in prepared.split("GRAPH", 1)[1].split("}", 1)[1]  # the filter now follows the block
        as_written = sample_kb.select(q.replace("SERVICE", "GRAPH"))      # GRAPH: no hoisting
        hoisted = sample_kb.select(q)
        assert len(hoisted) > 0 and hoisted.rows == as_written.rows


def test_filtered_complit_join_is_fast_on_the_mirror(mirror_store):
    query = f"""SELECT DISTINCT ?lemma ?definition WHERE {{
      ?word ontolex:canonicalForm ?lemma .
      {SERVICE} {{
        VALUES ?cwr {{ "gruppo"@it }}
        ?form ontolex:writtenRep ?cwr . ?relatedWord ontolex:canonicalForm ?form .
        ?relatedWord ontolex:sense ?relatedSense . ?sense lexinfo:hyponym ?relatedSense .
        ?word ontolex:sense ?sense . ?sense skos:definition ?definition .
        FILTER(CONTAINS(LCASE(STR(?definition)), "gruppo"))
      }} }}"""
    with open_kb(store=mirror_store, timeout=20) as kb:
        start = time.perf_counter()
        table = kb.select(query)
        assert time.perf_counter() - start < 2.0  # it timed out at 20 s with the FILTER inside
        assert len(table) >= 1
