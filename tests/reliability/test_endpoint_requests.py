"""Issue 18, case 6 and the service map: what exactly reaches a remote endpoint."""

from __future__ import annotations

import pytest
from reliability_helpers import assert_one_line_error, gen

from nl2sparql.errors import ConfigError, EndpointError, UnmappedService
from nl2sparql.kb import open_kb
from nl2sparql.namespaces import COMPLIT_SERVICE

#: Read queries that SPARQLWrapper's keyword regex (no word boundaries) takes for updates.
READS_LIKE_UPDATES = [
    "PREFIX ex: <http://example.org/> # loaded yesterday\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1",
    "PREFIX ex: <http://example.org/x/> #delete me later\nASK { ?s ex:p ?o }",
    "PREFIX ex: <http://example.org/> # inserted by hand\nSELECT ?s WHERE { ?s ex:p ?o } LIMIT 1",
]


@pytest.mark.parametrize("query", READS_LIKE_UPDATES)
def test_read_queries_are_sent_as_queries(query, endpoint, clean_env):
    with open_kb(endpoint=endpoint.url + "sparql", timeout=5) as kb:
        kb.execute(query)
    assert endpoint.count == 1
    form = endpoint.requests[0]["form"]
    assert "query" in form and "update" not in form, form


def test_service_map_rewrites_targets_before_sending(endpoint, clean_env):
    mirror = "http://127.0.0.1:9/complit-mirror/sparql"
    query = f"SELECT * WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?s ?p ?o }} }} LIMIT 1"
    with open_kb(endpoint=endpoint.url + "sparql", services=[f"{COMPLIT_SERVICE}={mirror}"]) as kb:
        kb.execute(query)
    with open_kb(endpoint=endpoint.url + "sparql", services=[f"{COMPLIT_SERVICE}=graph"]) as kb:
        kb.execute(query)
    sent = [r["form"]["query"][0] for r in endpoint.requests]
    assert f"SERVICE <{mirror}>" in sent[0] and COMPLIT_SERVICE not in sent[0]
    assert f"GRAPH <{COMPLIT_SERVICE}>" in sent[1] and "SERVICE" not in sent[1]


def test_service_map_from_the_environment(endpoint, monkeypatch, clean_env):
    monkeypatch.setenv("NL2SPARQL_SERVICES", "http://127.0.0.1:9/a=graph, http://127.0.0.1:9/b=graph")
    result = gen("kb", "query", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/b> { ?s ?p ?o } }",
                 "--endpoint", endpoint.url + "sparql", "--json")
    assert result.exit_code == 0, result.output
    assert "GRAPH <http://127.0.0.1:9/b>" in endpoint.requests[0]["form"]["query"][0]


@pytest.mark.parametrize("kb_args", [[], ["--endpoint", "ENDPOINT"]], ids=["embedded", "endpoint"])
def test_unlisted_service_is_refused_in_one_line(kb_args, endpoint, clean_env):
    args = [a.replace("ENDPOINT", endpoint.url + "sparql") for a in kb_args]
    result = gen("kb", "query", "SELECT * WHERE { SERVICE <http://127.0.0.1:9/elsewhere> { ?s ?p ?o } }", *args)
    assert_one_line_error(result, "http://127.0.0.1:9/elsewhere", "service map")
    assert endpoint.count == 0


def test_endpoint_mapping_is_refused_on_the_embedded_store(clean_env):
    with open_kb(services=[f"{COMPLIT_SERVICE}=http://127.0.0.1:9/sparql"]) as kb:
        with pytest.raises(UnmappedService, match="no network calls"):
            kb.execute(f"SELECT * WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?s ?p ?o }} }}")


@pytest.mark.parametrize("entry", ["no-equals", "=graph", "ftp://x/=graph", "http://x/a b=graph",
                                   "http://x/../y=graph", f"{COMPLIT_SERVICE}=file:///etc/passwd"])
def test_bad_service_entries(entry):
    from nl2sparql.kb.services import ServiceMap

    with pytest.raises((ConfigError, EndpointError)):
        ServiceMap.parse([entry])
