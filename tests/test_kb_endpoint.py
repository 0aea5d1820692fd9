"""``kb serve``'s endpoint (``nl2sparql.kb.endpoint``) in process: the SPARQL protocol, formats and one-line errors.

The application runs on the embedded sample through Starlette's test client (no socket); the served
process itself, its bounds and its stop are exercised by the reliability corpus (group ``served``) and
``test_real_servers.py``.
"""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from nl2sparql.kb import Limits, open_sample
from nl2sparql.kb.endpoint import ERROR_HEADER, TRUNCATED_HEADER, build_app

LEMMAS = "SELECT ?l WHERE { ?l a lila:Lemma } ORDER BY ?l LIMIT 3"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def client():
    kb = open_sample(limits=Limits(timeout=1, max_rows=2))
    with TestClient(build_app(kb)) as test_client:
        yield test_client
    kb.close()


def test_a_query_by_get_by_form_and_as_a_body_gets_the_same_answer(client):
    answers = [client.get("/query", params={"query": LEMMAS}),
               client.post("/query", data={"query": LEMMAS}),
               client.post("/sparql", content=LEMMAS, headers={"Content-Type": "application/sparql-query"})]
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1
    body = answers[0].json()
    assert set(body) == {"head", "results"} and body["head"]["vars"] == ["l"]  # strict SPARQL JSON
    assert len(body["results"]["bindings"]) == 2
    assert answers[0].headers[TRUNCATED_HEADER] == "true"  # the row cap (2) cut the answer, and says so


def test_tables_and_triples_in_the_formats_asked(client):
    csv = client.get("/query", params={"query": LEMMAS}, headers={"Accept": "text/csv"})
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.splitlines()[0] == "l"
    tsv = client.get("/query", params={"query": LEMMAS}, headers={"Accept": "text/tab-separated-values"})
    assert tsv.text.splitlines()[0] == "?l" and tsv.text.splitlines()[1].startswith("<http")
    both = client.get("/query", params={"query": LEMMAS}, headers={"Accept": "text/csv, application/json"})
    assert json.loads(both.text)["head"]["vars"] == ["l"]  # JSON whenever the client takes it
    triples = client.get("/query", params={"query": "CONSTRUCT WHERE { ?s a lila:Lemma } LIMIT 1"})
    assert triples.headers["content-type"].startswith("application/n-triples")
    assert triples.text.endswith(" .\n") and "lila-erc.eu" in triples.text


@pytest.mark.parametrize("request_, status, kind, words", [
    ({"params": {"query": "SELECT ?x WHERE { ?x"}}, 400, "QuerySyntaxError", "does not parse"),
    ({"data": {"update": "DROP ALL"}}, 403, "UpdateRefused", "read-only"),
    ({"params": {"query": "INSERT DATA { <http://a> <http://b> <http://c> }"}}, 400, "UpdateRefused", "refused"),
    ({"params": {"query": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/x> { ?s ?p ?o } }"}}, 400,
     "UnmappedService", "service map"),
    ({"params": {"query": LEMMAS, "default-graph-uri": "http://liita.it/data"}}, 400, "QueryError", "GRAPH"),
    ({"params": {"query": RUNAWAY}}, 500, "QueryTimeout", "time budget of 1 s"),
], ids=["syntax", "update-operation", "update-as-query", "service", "dataset", "runaway"])
def test_each_refusal_is_one_line_naming_its_class(client, request_, status, kind, words):
    answer = client.post("/query", **request_) if "data" in request_ else client.get("/query", **request_)
    assert answer.status_code == status, answer.text
    assert answer.headers[ERROR_HEADER] == kind
    assert words in answer.text and answer.text.count("\n") == 1, answer.text
