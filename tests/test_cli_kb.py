"""``nl2sparql-gen kb info|load|query`` through typer's CliRunner (embedded sample, stores, a real endpoint)."""

from __future__ import annotations

import csv
import gzip
import io
import json

import pytest
from typer.testing import CliRunner

from nl2sparql.cli.gen import app
from nl2sparql.kb.embedded import MARKER
from nl2sparql.namespaces import COMPLIT_SERVICE

from test_kb_remote import SparqlServer, closed_port_url

runner = CliRunner()

SAMPLE_GRAPHS = {
    "http://liita.it/data": 4635,
    "http://w3id.org/elita": 873,
    "http://liita.it/data/sentix": 579,
    "http://liita.it/data/parmigiano": 2095,
    "http://liita.it/data/siciliano": 2049,
    "http://liita.it/data/complit-links": 488,
    "http://liita.it/data/morphology": 4181,
    COMPLIT_SERVICE: 5056,
}
CANE = "http://liita.it/data/id/lemma/800001"
WR_QUERY = f"SELECT ?wr WHERE {{ <{CANE}> ontolex:writtenRep ?wr }}"


@pytest.fixture(autouse=True)
def no_kb_environment(monkeypatch):
    monkeypatch.delenv("NL2SPARQL_STORE", raising=False)
    monkeypatch.delenv("NL2SPARQL_ENDPOINT", raising=False)


def kb(*args, input=None):
    return runner.invoke(app, ["kb", *args], input=input)


def assert_one_line_error(result, *fragments):
    """Exit status 2, one ``error:`` line on stderr naming the problem, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""


# -- info ------------------------------------------------------------------------------------

def test_info_json_lists_graphs_with_triple_counts():
    result = kb("info", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kb"] == "sample"
    assert data["triples"] == 19956
    assert {g["graph"]: g["triples"] for g in data["graphs"]} == SAMPLE_GRAPHS
    lemma_bank = next(g for g in data["graphs"] if g["graph"] == "http://liita.it/data")
    assert lemma_bank["classes"]["http://lila-erc.eu/ontologies/lila/Lemma"] == 758
    assert lemma_bank["properties"]["http://www.w3.org/ns/lemon/ontolex#writtenRep"] == 796
    assert data["graphs"][-1]["graph"] == COMPLIT_SERVICE  # the service graph is listed last


def test_info_table():
    result = kb("info", "--top", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "sample: 19,956 triples in 8 graphs" in out
    for graph, n in SAMPLE_GRAPHS.items():
        assert graph in out and f"{n:,}" in out
    assert "Classes (top 3 of" in out and "lila:Lemma" in out and "1,046" in out
    assert "Properties (top 3 of" in out


# -- query -----------------------------------------------------------------------------------

def test_query_inline_table():
    result = kb("query", WR_QUERY)
    assert result.exit_code == 0, result.output
    assert "cane" in result.stdout and "1 row(s)" in result.stdout


def test_query_from_file_as_json(tmp_path):
    path = tmp_path / "q.rq"
    path.write_text(f"# written representations of cane\n{WR_QUERY}\n", encoding="utf-8")
    result = kb("query", f"@{path}", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "head": {"vars": ["wr"]},
        "results": {"bindings": [{"wr": {"type": "literal", "value": "cane", "xml:lang": "it"}}]}}


def test_query_from_stdin_as_csv():
    query = ("SELECT ?l ?label WHERE { ?l a lila:Lemma ; rdfs:label ?label "
             'FILTER(STRSTARTS(STR(?l), "http://liita.it/data/id/lemma/")) } ORDER BY ?l LIMIT 3')
    result = kb("query", "-", "--csv", input=query)
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["l", "label"]
    assert rows[1] == [CANE, "cane"]
    assert len(rows) == 4


def test_query_ask_and_construct():
    result = kb("query", f"ASK {{ <{CANE}> a lila:Lemma }}", "--csv")
    assert result.exit_code == 0 and result.stdout == "boolean\ntrue\n"
    result = kb("query", f"CONSTRUCT {{ <{CANE}> rdfs:label ?x }} WHERE {{ <{CANE}> rdfs:label ?x }}", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["head"]["vars"] == ["s", "p", "o"]


def test_query_row_cap():
    result = kb("query", "SELECT ?l WHERE { ?l a lila:Lemma }", "--max-rows", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["results"]["bindings"]) == 5 and data["truncated"] is True
    result = kb("query", "SELECT ?l WHERE { ?l a lila:Lemma }", "--max-rows", "5")
    assert "5 row(s) (row cap of 5 reached)" in result.stdout


def test_query_against_an_endpoint():
    server = SparqlServer().start()
    try:
        result = kb("query", "SELECT ?wr WHERE { ?l ontolex:writtenRep ?wr } ORDER BY ?wr", "--endpoint",
                    server.url, "--csv")
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines() == ["wr", "cane", "correre", "gatto"]
        assert server.count == 1
    finally:
        server.stop()


def test_endpoint_from_the_environment(monkeypatch):
    server = SparqlServer().start()
    try:
        monkeypatch.setenv("NL2SPARQL_ENDPOINT", server.url)
        result = kb("query", 'ASK { ?l rdfs:label "gatto" }', "--csv")
        assert result.exit_code == 0 and result.stdout == "boolean\ntrue\n"
        assert server.count == 1
    finally:
        server.stop()


# -- load + store ----------------------------------------------------------------------------

def test_load_then_query_and_info_on_the_store(tmp_path):
    ttl = tmp_path / "extra.ttl.gz"
    ttl.write_bytes(gzip.compress(b'<http://example.org/x> <http://www.w3.org/2000/01/rdf-schema#label> "x" .\n'))
    nq = tmp_path / "more.nq"
    nq.write_text('<http://example.org/y> <http://www.w3.org/2000/01/rdf-schema#label> "y" <http://example.org/g2> .\n'
                  f'<http://example.org/z> <http://www.w3.org/2000/01/rdf-schema#label> "z" <{COMPLIT_SERVICE}> .\n',
                  encoding="utf-8")
    store = tmp_path / "store"
    result = kb("load", str(ttl), str(nq), "--store", str(store), "--graph", "http://example.org/g1")
    assert result.exit_code == 0, result.output
    assert "loaded 3 quads from 2 file(s)" in result.stdout
    assert (store / MARKER).is_file()
    # progress, off a terminal: a line per file and per step, each with its time; then quads per graph
    lines = result.stderr.splitlines()
    assert [line.split("…")[0] for line in lines] == [
        "loading extra.ttl.gz (0 kB, file 1 of 2)", "loading more.nq (0 kB, file 2 of 2)",
        "building the union default graph (the data graphs, queried as one)", "compacting the store"]
    assert all(line.endswith(" s") for line in lines)
    for graph in ("http://example.org/g1", "http://example.org/g2", COMPLIT_SERVICE):
        assert graph in result.stdout

    result = kb("info", "--store", str(store), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kb"] == f"store:{store}"
    assert {g["graph"]: g["triples"] for g in data["graphs"]} == {
        "http://example.org/g1": 1, "http://example.org/g2": 1, COMPLIT_SERVICE: 1}

    result = kb("query", "SELECT ?x WHERE { ?s rdfs:label ?x } ORDER BY ?x", "--store", str(store), "--csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["x", "x", "y"]  # the union default graph, CompL-it excluded
    result = kb("query", f"SELECT ?x WHERE {{ SERVICE <{COMPLIT_SERVICE}> {{ ?s rdfs:label ?x }} }}",
                "--store", str(store), "--csv")
    assert result.stdout.splitlines() == ["x", "z"]


# -- bad input: one line, exit 2 -------------------------------------------------------------

def test_missing_query_file(tmp_path):
    assert_one_line_error(kb("query", f"@{tmp_path / 'nope.rq'}"), "nope.rq", "no such query file")


def test_malformed_query():
    assert_one_line_error(kb("query", "SELECT ?x WHERE { ?x a lila:Lemma "), "does not parse", "error at 1:")


def test_update_is_refused():
    assert_one_line_error(kb("query", "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
                                      "DELETE WHERE { ?l a lila:Lemma }"), "read-only")


def test_unmapped_service():
    assert_one_line_error(kb("query", "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"),
                          "SERVICE <http://example.org/sparql> is not available")


def test_runaway_query_times_out():
    assert_one_line_error(kb("query", "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }",
                             "--timeout", "1"), "1 s time budget")


def test_unreachable_endpoint():
    url = closed_port_url()
    assert_one_line_error(kb("query", "ASK { ?s ?p ?o }", "--endpoint", url), f"cannot reach {url}")


def test_store_that_does_not_exist(tmp_path):
    missing = tmp_path / "no-store"
    assert_one_line_error(kb("query", "ASK { ?s ?p ?o }", "--store", str(missing)), str(missing),
                          "no Oxigraph store here")
    assert_one_line_error(kb("info", "--store", str(missing)), "no Oxigraph store here")
    assert not missing.exists()


def test_store_and_endpoint_together(tmp_path):
    assert_one_line_error(kb("query", "ASK { ?s ?p ?o }", "--store", str(tmp_path), "--endpoint",
                             "http://127.0.0.1:9/sparql"), "not both")
    assert_one_line_error(kb("info", "--store", str(tmp_path), "--endpoint", "http://127.0.0.1:9/sparql"),
                          "not both")


def test_load_missing_file(tmp_path):
    store = tmp_path / "store"
    assert_one_line_error(kb("load", str(tmp_path / "nope.nq.gz"), "--store", str(store)), "nope.nq.gz",
                          "no such file")
    assert not store.exists()


def test_load_malformed_file(tmp_path):
    bad = tmp_path / "bad.nt"
    bad.write_text("<http://a> <http://b> .\n", encoding="utf-8")
    store = tmp_path / "store"
    assert_one_line_error(kb("load", str(bad), "--store", str(store)), "bad.nt", "not valid N-Triples")
    assert not (store / MARKER).exists()


def test_load_unknown_format(tmp_path):
    odd = tmp_path / "data.json"
    odd.write_text("{}", encoding="utf-8")
    assert_one_line_error(kb("load", str(odd), "--store", str(tmp_path / "s")), "unknown RDF format")


# -- help ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    ([], ["info", "load", "query"]),
    (["info"], ["--store", "--endpoint", "--json", "--top"]),
    (["load"], ["files", ".nq", "--store", "--graph"]),
    (["query"], ["query", "@file.rq", "--json", "--csv", "--timeout", "--max-rows"]),
])
def test_help(args, words):
    result = kb(*args, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage" in result.stdout
    for word in words:
        assert word in result.stdout
