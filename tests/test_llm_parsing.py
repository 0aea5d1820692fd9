"""Getting the query or the verdict out of model answers, and refusing garbage."""

from __future__ import annotations

import pytest

from nl2sparql.llm import LLMFormatError, extract_sparql, parse_json_verdict

Q = 'PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nSELECT ?l WHERE {\n  ?l a lila:Lemma .\n}\nLIMIT 10'


@pytest.mark.parametrize("text", [
    f"```sparql\n{Q}\n```",
    f"Here is the query:\n```SPARQL\n{Q}\n```\nIt lists ten lemmas.",
    f"```\n{Q}\n```",
    f"Sure! First an example:\n```python\nprint(1)\n```\nand the query:\n```sparql\n{Q}\n```",
    Q,
    f"The query is:\n{Q}\nThis returns ten lemmas of the lexicon.",
])
def test_extract_sparql_finds_the_query(text):
    assert extract_sparql(text) == Q


def test_extract_sparql_keeps_modifiers_and_strings():
    text = ('SELECT ?w (COUNT(?x) AS ?n) WHERE { ?x ?p "a } brace" }\nGROUP BY ?w\nORDER BY DESC(?n)\n'
            'LIMIT 3\n\nNote: counts per word.')
    assert extract_sparql(text) == text.split("\n\nNote")[0]
    assert extract_sparql("ASK { ?s ?p ?o }") == "ASK { ?s ?p ?o }"
    assert extract_sparql("DESCRIBE <http://x/y>") == "DESCRIBE <http://x/y>"


@pytest.mark.parametrize("text", [
    None, "", "   ", "I cannot answer that.",
    "```sparql\nSELECT ?x WHERE { ?x ?p ?o .\n  FILTER(",  # truncated, no closing fence
    'SELECT ?x WHERE { ?x ?p "unterminated',
    "SELECT ?x WHERE { ?x ?p ?o }}",
    "```sparql\nINSERT DATA { <a> <b> <c> }\n```",  # an update is no query
    "```json\n{\"query\": 1}\n```",
    "SELECT ?x",  # no group pattern
])
def test_extract_sparql_refuses_garbage(text):
    assert extract_sparql(text) is None


@pytest.mark.parametrize("text,expected", [
    ('{"verdict": "yes", "score": 0.9}', {"verdict": "yes", "score": 0.9}),
    ('```json\n{"verdict": "no"}\n```', {"verdict": "no"}),
    ('Verdict follows.\n{"verdict": "yes", "why": "a {brace}"}\nThanks.', {"verdict": "yes", "why": "a {brace}"}),
])
def test_parse_json_verdict(text, expected):
    assert parse_json_verdict(text, required=["verdict"]) == expected


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    (None, "empty"),
    ("yes, it matches", "no JSON object"),
    ('{"verdict": "yes", "reason": "trunc', "truncated"),
    ("{'verdict': 'yes'}", "malformed"),
    ('{"verdict": "yes",}', "malformed"),
    ('{"score": 1}', "lacks 'verdict'"),
])
def test_parse_json_verdict_refuses_garbage(text, match):
    with pytest.raises(LLMFormatError, match=match) as info:
        parse_json_verdict(text, required=["verdict"])
    assert "\n" not in str(info.value)
