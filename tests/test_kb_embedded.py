"""The embedded Oxigraph KB on the shipped sample: query forms, terms, graphs, safety, limits, loading."""

from __future__ import annotations

import gzip
import json
import threading
import time

import pyoxigraph as ox
import pytest

from nl2sparql.errors import (DataError, QueryError, QuerySyntaxError, QueryTimeout, UnmappedService,
                              UpdateRefused)
from nl2sparql.kb import Limits, open_kb, open_sample
from nl2sparql.kb.embedded import MARKER, EmbeddedKB
from nl2sparql.kb.results import Term
from nl2sparql.namespaces import COMPLIT_SERVICE, ELITA_GRAPH, LIITA_GRAPH, XSD

CANE = "http://liita.it/data/id/lemma/800001"
SERVICE = f"SERVICE <{COMPLIT_SERVICE}>"
# A cartesian product of the whole sample with itself three times: never finishes.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def values(table, var=None):
    """The values of one column (the first by default)."""
    i = 0 if var is None else table.variables.index(var)
    return [None if row[i] is None else row[i].value for row in table.rows]


def count(kb, where: str) -> int:
    table = kb.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")
    return int(table.rows[0][0].value)


# -- query forms -------------------------------------------------------------------------------

def test_select_returns_rows_in_projection_order(sample_kb):
    table = sample_kb.select(f"SELECT ?wr ?pos WHERE {{ <{CANE}> ontolex:writtenRep ?wr ; lila:hasPOS ?pos }}")
    assert table.form == "select"
    assert table.variables == ["wr", "pos"]
    assert table.rows == [(Term.literal("cane", lang="it"), Term.iri("http://lila-erc.eu/ontologies/lila/noun"))]
    assert not table.truncated
    assert table.elapsed > 0


def test_select_keeps_unbound_cells_as_none(sample_kb):
    table = sample_kb.select(f"""SELECT ?e ?p WHERE {{
        ?e ontolex:canonicalForm <{CANE}> ; marl:hasPolarityValue ?v .
        OPTIONAL {{ ?e marl:Polarity ?p }} }} ORDER BY ?e""")
    assert values(table, "e") == ["http://liita.it/data/sentix/entry/cane", "http://w3id.org/elita/lexicon/cane"]
    assert table.rows[0][1] is None  # Sentix entries have no literal marl:Polarity
    assert table.rows[1][1] == Term.literal("Positive")


def test_ask(sample_kb):
    assert sample_kb.ask(f"ASK {{ <{CANE}> a lila:Lemma }}") is True
    assert sample_kb.ask(f"ASK {{ <{CANE}> a lila:Hypolemma }}") is False
    table = sample_kb.execute(f"ASK {{ <{CANE}> a lila:Lemma }}")
    assert table.form == "ask" and table.boolean is True and table.rows == []


def test_construct_and_describe(sample_kb):
    table = sample_kb.construct(f"CONSTRUCT {{ ?l rdfs:label ?x }} WHERE {{ BIND(<{CANE}> AS ?l) ?l rdfs:label ?x }}")
    assert table.form == "construct"
    assert table.variables == ["s", "p", "o"]
    assert table.rows == [(Term.iri(CANE), Term.iri("http://www.w3.org/2000/01/rdf-schema#label"),
                           Term.literal("cane"))]
    described = sample_kb.construct(f"DESCRIBE <{CANE}>")
    assert described.form == "construct"
    assert Term.iri("http://lila-erc.eu/ontologies/lila/hasPOS") in {row[1] for row in described.rows}


def test_form_mismatch_is_refused(sample_kb):
    with pytest.raises(QueryError, match="expected a SELECT query, got ASK"):
        sample_kb.select("ASK { ?s ?p ?o }")
    with pytest.raises(QueryError, match="expected a ASK query, got SELECT"):
        sample_kb.ask("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    with pytest.raises(QueryError, match="expected a CONSTRUCT query"):
        sample_kb.construct("SELECT * WHERE { ?s ?p ?o } LIMIT 1")


# -- terms -----------------------------------------------------------------------------------

def test_term_kinds_datatypes_and_language_tags(sample_kb):
    table = sample_kb.select(f"""SELECT ?iri ?wr ?label ?v ?n ?b ?s ?up WHERE {{
        BIND(<{CANE}> AS ?iri)
        ?iri ontolex:writtenRep ?wr ; rdfs:label ?label .
        <http://w3id.org/elita/lexicon/cane> marl:hasPolarityValue ?v .
        BIND(42 AS ?n) BIND(BNODE() AS ?b) BIND("x"^^xsd:string AS ?s) BIND(STRLANG("y", "IT") AS ?up) }}""")
    row = table.records()[0]
    assert row["iri"] == Term("iri", CANE)
    assert row["wr"] == Term("literal", "cane", None, "it")
    assert row["label"] == Term("literal", "cane", None, None)  # plain literal
    assert row["v"] == Term("literal", "0.5", XSD + "float", None)
    assert row["n"] == Term("literal", "42", XSD + "integer", None)
    assert row["b"].kind == "bnode" and row["b"].value
    assert row["s"] == Term("literal", "x")  # xsd:string folds into a plain literal
    assert row["up"].lang == "it"  # language tags are compared lower-cased
    assert row["wr"] != Term.literal("cane")  # "cane"@it is not "cane"


def test_dialect_language_tags(sample_kb):
    langs = values(sample_kb.select("""SELECT DISTINCT (LANG(?wr) AS ?lang) WHERE {
        ?l a lila:Lemma ; ontolex:writtenRep ?wr } ORDER BY ?lang"""))
    assert langs == ["it", "roa", "scn"]


# -- graphs and SERVICE ----------------------------------------------------------------------

def test_default_graph_is_the_union_of_the_data_graphs(sample_kb):
    # ELITA, Sentix and the lemma bank all answer without a GRAPH clause
    table = sample_kb.select(f"""SELECT ?e WHERE {{ ?e ontolex:canonicalForm <{CANE}> ; marl:hasPolarityValue ?v .
                                 <{CANE}> a lila:Lemma }} ORDER BY ?e""")
    assert values(table) == ["http://liita.it/data/sentix/entry/cane", "http://w3id.org/elita/lexicon/cane"]
    per_graph = sample_kb.select("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")
    counts = {g.value: int(n.value) for g, n in per_graph.rows}
    assert COMPLIT_SERVICE in counts and len(counts) == 8
    data_triples = sum(n for g, n in counts.items() if g != COMPLIT_SERVICE)
    assert count(sample_kb, "?s ?p ?o") == data_triples  # exactly the data graphs, nothing else


def test_graph_clause_restricts_to_one_graph(sample_kb):
    in_elita = sample_kb.select(f"""SELECT ?e WHERE {{ GRAPH <{ELITA_GRAPH}> {{
        ?e ontolex:canonicalForm <{CANE}> ; marl:hasPolarityValue ?v }} }}""")
    assert values(in_elita) == ["http://w3id.org/elita/lexicon/cane"]
    assert sample_kb.ask(f"ASK {{ GRAPH <{LIITA_GRAPH}> {{ <{CANE}> a lila:Lemma }} }}")
    assert not sample_kb.ask(f"ASK {{ GRAPH <{ELITA_GRAPH}> {{ <{CANE}> a lila:Lemma }} }}")


def test_complit_is_only_visible_through_service_or_graph(sample_kb):
    assert count(sample_kb, "?s skos:definition ?d") == 0
    assert not sample_kb.ask("ASK { ?w a ontolex:Word }")
    through_service = count(sample_kb, f"{SERVICE} {{ ?s skos:definition ?d }}")
    through_graph = count(sample_kb, f"GRAPH <{COMPLIT_SERVICE}> {{ ?s skos:definition ?d }}")
    assert through_service == through_graph == 587
    assert count(sample_kb, f"SERVICE SILENT <{COMPLIT_SERVICE}> {{ ?s skos:definition ?d }}") == 587
    # the CompL-it graph is still a named graph: GRAPH ?g sees it
    assert sample_kb.ask(f"ASK {{ GRAPH ?g {{ ?s skos:definition ?d }} FILTER(?g = <{COMPLIT_SERVICE}>) }}")


def test_service_join_with_the_liita_side(sample_kb):
    table = sample_kb.select(f"""SELECT ?w ?d WHERE {{
        ?w ontolex:canonicalForm <{CANE}> .
        {SERVICE} {{ ?w a ontolex:Word ; ontolex:sense ?s . ?s skos:definition ?d }} }} ORDER BY ?d""")
    assert set(values(table, "w")) == {"http://lexica/mylexicon#MUScaneNOUN"}
    assert len(table) == 2
    assert all(t.lang == "it" for t in table.column("d"))


def test_service_text_inside_comments_is_untouched_and_inside_strings_refused(sample_kb):
    query = """# SERVICE <http://example.org/elsewhere> in a comment
    SELECT ?x WHERE { BIND("a service" AS ?x) }"""
    assert values(sample_kb.select(query)) == ["a service"]
    # SERVICE-like text inside a string could be code to the engine if the lexer misread a
    # token boundary before it: the check fails closed (tests/reliability/test_ssrf.py)
    with pytest.raises(UnmappedService, match="may read as a SERVICE clause"):
        sample_kb.select('SELECT ?x WHERE { BIND("SERVICE <http://example.org/elsewhere> { }" AS ?x) }')


@pytest.mark.parametrize("service", ["SERVICE <http://example.org/sparql>", "SERVICE SILENT <https://liita.it/sparql>",
                                     "SERVICE ?endpoint"])
def test_unmapped_service_is_refused(sample_kb, service):
    with pytest.raises(UnmappedService) as info:
        sample_kb.select(f"SELECT * WHERE {{ {service} {{ ?s ?p ?o }} }}")
    message = str(info.value)
    assert "\n" not in message and "graphdb-compl-it" in message  # names what is mapped


# -- safety ----------------------------------------------------------------------------------

UPDATES = [
    "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n# add a lemma\n"
    "INSERT DATA { <http://liita.it/data/id/lemma/1> a lila:Lemma }",
    "# remove every lemma\nPREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n"
    "DELETE WHERE { ?l a lila:Lemma }",
    "BASE <http://liita.it/>\n# SELECT in a comment does not make it a query\nLOAD <http://example.org/data.ttl>",
    "PREFIX dcterms: <http://purl.org/dc/terms/>\n  clear   GRAPH <http://liita.it/data>",
    "CLEAR ALL",
    "WITH <http://liita.it/data> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "drop graph <http://w3id.org/elita>",
]


@pytest.mark.parametrize("update", UPDATES)
def test_update_is_refused(sample_kb, update):
    before = count(sample_kb, "?s ?p ?o")
    with pytest.raises(UpdateRefused, match="read-only") as info:
        sample_kb.execute(update)
    assert "\n" not in str(info.value)
    assert count(sample_kb, "?s ?p ?o") == before


def test_update_is_refused_by_every_entry_point(sample_kb):
    for method in (sample_kb.select, sample_kb.ask, sample_kb.construct):
        with pytest.raises(UpdateRefused):
            method("INSERT DATA { <http://a> <http://b> <http://c> }")
    assert not sample_kb.ask("ASK { <http://a> <http://b> <http://c> }")


@pytest.mark.parametrize("query", [
    "SELECT ?x WHERE {\n  ?x a lila:Lemma .\n  FILTER(?x = \n",  # unbalanced, over several lines
    "SELECT ?x WHERE { ?x a lila:Lemma } ORDER ?x",
    "SELECT COUNT(?x) AS ?n WHERE { ?x a lila:Lemma }",  # Jena-only aggregate syntax
    "SELECT ?x WHERE { ?x a undeclared:Thing }",  # a prefix nobody knows
])
def test_malformed_query_is_one_clear_line(sample_kb, query):
    with pytest.raises(QuerySyntaxError) as info:
        sample_kb.execute(query)
    message = str(info.value)
    assert message.startswith("the query does not parse")
    assert "\n" not in message and len(message) < 600
    assert info.value.kind == "parse"


def test_syntax_error_position_is_in_the_text_as_written(sample_kb):
    # lila: and ontolex: are completed (two PREFIX lines prepended), the position must not move
    with pytest.raises(QuerySyntaxError, match=r"error at 2:\d+"):
        sample_kb.execute("SELECT ?l WHERE { ?l a lila:Lemma ;\n ontolex:writtenRep ?wr FILTER( }")


def test_text_that_is_not_a_query(sample_kb):
    with pytest.raises(QuerySyntaxError, match="not a SPARQL query"):
        sample_kb.execute("list all the lemmas please")


def test_runaway_query_is_stopped_at_its_timeout(sample_kb):
    start = time.monotonic()
    with pytest.raises(QueryTimeout, match="1.5 s time budget"):
        sample_kb.select(RUNAWAY, timeout=1.5)
    assert 1.4 <= time.monotonic() - start < 1.5 + 2.0
    # the killed worker was replaced: the KB still answers
    assert sample_kb.ask(f"ASK {{ <{CANE}> a lila:Lemma }}")
    assert count(sample_kb, "?l a lila:Lemma") == 758 + 150 + 138


def test_limits_default_timeout_applies():
    kb = open_sample(limits=Limits(timeout=1.0))
    try:
        start = time.monotonic()
        with pytest.raises(QueryTimeout):
            kb.execute(RUNAWAY)
        assert time.monotonic() - start < 3.0
    finally:
        kb.close()


# -- row cap, prefixes -----------------------------------------------------------------------

def test_row_cap_sets_truncated(sample_kb):
    capped = sample_kb.select("SELECT ?l WHERE { ?l a lila:Lemma }", max_rows=10)
    assert len(capped) == 10 and capped.truncated
    assert capped.to_json()["truncated"] is True
    full = sample_kb.select("SELECT ?l WHERE { ?l a lila:Lemma }")
    assert len(full) == 1046 and not full.truncated
    exact = sample_kb.select("SELECT ?l WHERE { ?l a lila:Lemma }", max_rows=1046)
    assert len(exact) == 1046 and not exact.truncated  # reaching the cap exactly is not truncation
    triples = sample_kb.construct("CONSTRUCT WHERE { ?l a lila:Lemma }", max_rows=3)
    assert len(triples) == 3 and triples.truncated


def test_limits_default_row_cap_applies():
    kb = open_sample(limits=Limits(max_rows=4))
    try:
        table = kb.select("SELECT ?l WHERE { ?l a lila:Lemma }")
        assert len(table) == 4 and table.truncated
    finally:
        kb.close()


def test_missing_standard_prefixes_are_completed(sample_kb):
    query = f"SELECT ?pos WHERE {{ <{CANE}> lila:hasPOS ?pos . ?pos a ?c }} LIMIT 1"
    prepared = sample_kb.prepare(query)
    assert prepared.startswith("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n")
    assert prepared.endswith(query)
    table = sample_kb.select(f"SELECT ?pos WHERE {{ <{CANE}> lila:hasPOS ?pos }}")
    assert values(table) == ["http://lila-erc.eu/ontologies/lila/noun"]


def test_declared_prefixes_are_not_overridden(sample_kb):
    query = f"PREFIX lila: <http://example.org/wrong/>\nASK {{ <{CANE}> a lila:Lemma }}"
    assert sample_kb.prepare(query) == query
    assert sample_kb.ask(query) is False  # a wrong prefix IRI silently finds nothing, as live


# -- loading files ---------------------------------------------------------------------------

TTL = """@prefix ex: <http://example.org/> .
ex:a ex:p "ttl"@it .
"""
NT = '<http://example.org/b> <http://example.org/p> "nt" .\n'
NQ = ('<http://example.org/c> <http://example.org/p> "nq" <http://example.org/g/nq> .\n'
      f'<http://example.org/w> <http://example.org/p> "service side" <{COMPLIT_SERVICE}> .\n')
TRIG = """@prefix ex: <http://example.org/> .
ex:g1 { ex:d ex:p "trig" . }
"""


@pytest.fixture
def rdf_files(tmp_path):
    files = {
        "a.ttl": TTL.encode(),
        "b.nt.gz": gzip.compress(NT.encode()),
        "c.nq.gz": gzip.compress(NQ.encode()),
        "d.trig": TRIG.encode(),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return [tmp_path / name for name in files]


def where_is(kb, subject: str) -> set[str | None]:
    """Named graphs holding ``subject`` (``None``: the default graph only)."""
    named = {r[0].value for r in kb.select(f"SELECT ?g WHERE {{ GRAPH ?g {{ <{subject}> ?p ?o }} }}").rows}
    return named or ({None} if kb.ask(f"ASK {{ <{subject}> ?p ?o }}") else set())


def test_in_memory_loading_keeps_quad_graphs(rdf_files):
    kb = EmbeddedKB.in_memory(rdf_files)
    try:
        assert where_is(kb, "http://example.org/a") == {None}  # triple files: the default graph
        assert where_is(kb, "http://example.org/b") == {None}
        assert where_is(kb, "http://example.org/c") == {"http://example.org/g/nq"}
        assert where_is(kb, "http://example.org/d") == {"http://example.org/g1"}
        # everything but the service graph is visible without GRAPH
        found = values(kb.select("SELECT ?o WHERE { ?s <http://example.org/p> ?o } ORDER BY ?o"))
        assert found == ["nq", "nt", "trig", "ttl"]
        assert values(kb.select(f"SELECT ?o WHERE {{ {SERVICE} {{ ?s ?p ?o }} }}")) == ["service side"]
        assert kb.data_graphs == ["http://example.org/g/nq", "http://example.org/g1"]
    finally:
        kb.close()


def test_build_puts_triple_files_into_the_given_graph(tmp_path, rdf_files):
    store = tmp_path / "store"
    loaded = EmbeddedKB.build(store, rdf_files, graph="http://example.org/g/triples", progress=False)
    assert loaded == 5
    assert json.loads((store / MARKER).read_text()) == {"default_graph": "union-of-data-graphs",
                                                       "service_graphs": [COMPLIT_SERVICE]}
    kb = EmbeddedKB.on_disk(store)
    try:
        assert kb.path == store and kb.description == f"store:{store}"
        assert where_is(kb, "http://example.org/a") == {"http://example.org/g/triples"}
        assert where_is(kb, "http://example.org/b") == {"http://example.org/g/triples"}
        assert where_is(kb, "http://example.org/c") == {"http://example.org/g/nq"}
        assert count(kb, "?s <http://example.org/p> ?o") == 4  # union default graph, service graph excluded
        assert count(kb, f"{SERVICE} {{ ?s ?p ?o }}") == 1
        with pytest.raises(RuntimeError, match="read-write"):  # opened read-only
            kb.store.add(ox.Quad(ox.NamedNode("http://x"), ox.NamedNode("http://y"), ox.NamedNode("http://z")))
    finally:
        kb.close()


def test_build_extends_an_existing_store(tmp_path, rdf_files):
    store = tmp_path / "store"
    assert EmbeddedKB.build(store, rdf_files[:1], progress=False) == 1
    assert EmbeddedKB.build(store, rdf_files[1:], progress=False) == 4
    with EmbeddedKB.on_disk(store) as kb:
        assert count(kb, "?s <http://example.org/p> ?o") == 4
        assert count(kb, "GRAPH ?g { ?s ?p ?o }") == 3


def test_store_without_marker_still_answers_over_the_union(tmp_path):
    """A store made by plain pyoxigraph (no marker, no materialised union) gets the graph list."""
    from nl2sparql.paths import sample_files

    path = tmp_path / "plain"
    store = ox.Store(str(path))
    store.bulk_load(path=str(sample_files()[0]), format=ox.RdfFormat.TRIG)
    store.flush()
    del store
    assert not (path / MARKER).exists()
    with EmbeddedKB.on_disk(path) as kb:
        assert kb.ask(f"ASK {{ <{CANE}> a lila:Lemma . <http://w3id.org/elita/lexicon/cane> ?p ?o }}")
        assert count(kb, "?s skos:definition ?d") == 0
        assert count(kb, f"{SERVICE} {{ ?s skos:definition ?d }}") == 587


def test_interrupted_build_leaves_no_marker(tmp_path, rdf_files):
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle", encoding="utf-8")
    store = tmp_path / "store"
    EmbeddedKB.build(store, rdf_files[:1], progress=False)
    with pytest.raises(DataError, match="bad.ttl: not valid Turtle"):
        EmbeddedKB.build(store, [bad], progress=False)
    assert not (store / MARKER).exists()


@pytest.mark.parametrize("name,content,match", [
    ("missing.ttl", None, "no such file"),
    ("data.xml", b"<rdf/>", "unknown RDF format"),
    ("broken.nt", b"<http://a> <http://b> .\n", "not valid N-Triples"),
])
def test_bad_input_files(tmp_path, name, content, match):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DataError, match=match) as info:
        EmbeddedKB.in_memory([path])
    assert "\n" not in str(info.value)


def test_bad_input_file_does_not_create_a_store(tmp_path):
    store = tmp_path / "store"
    with pytest.raises(DataError, match="no such file"):
        EmbeddedKB.build(store, [tmp_path / "missing.nq"], progress=False)
    assert not store.exists()


def test_on_disk_missing_directory(tmp_path):
    with pytest.raises(DataError, match="no Oxigraph store here"):
        EmbeddedKB.on_disk(tmp_path / "nowhere")


# -- opening ---------------------------------------------------------------------------------

def test_open_kb_defaults_to_the_sample(monkeypatch):
    monkeypatch.delenv("NL2SPARQL_STORE", raising=False)
    monkeypatch.delenv("NL2SPARQL_ENDPOINT", raising=False)
    with open_kb(timeout=7, max_rows=9) as kb:
        assert kb.description == "sample"
        assert kb.limits == Limits(7, 9)
        assert kb.ask(f"ASK {{ <{CANE}> a lila:Lemma }}")


def test_open_kb_reads_the_environment(monkeypatch, tmp_path, rdf_files):
    from nl2sparql.errors import ConfigError

    store = tmp_path / "store"
    EmbeddedKB.build(store, rdf_files, progress=False)
    monkeypatch.setenv("NL2SPARQL_STORE", str(store))
    monkeypatch.delenv("NL2SPARQL_ENDPOINT", raising=False)
    with open_kb() as kb:
        assert kb.description == f"store:{store}"
    monkeypatch.setenv("NL2SPARQL_ENDPOINT", "http://127.0.0.1:9/sparql")
    with pytest.raises(ConfigError, match="not both"):
        open_kb()


# -- parallelism -----------------------------------------------------------------------------

def test_parallel_queries_from_threads():
    kb = open_sample(workers=2)
    try:
        # a runaway query occupies one worker; the other keeps answering meanwhile
        outcome = {}

        def runaway():
            try:
                kb.select(RUNAWAY, timeout=4)
            except QueryTimeout as exc:
                outcome["timeout"] = exc
        blocker = threading.Thread(target=runaway)
        blocker.start()
        time.sleep(0.3)
        start = time.monotonic()
        for _ in range(5):
            assert kb.ask(f"ASK {{ <{CANE}> a lila:Lemma }}")
        assert time.monotonic() - start < 2.5, "quick queries waited for the busy worker"
        assert blocker.is_alive()
        blocker.join(timeout=10)
        assert isinstance(outcome.get("timeout"), QueryTimeout)

        # many threads, two workers: every answer is the right one
        words = ["cane", "gatto", "cavallo", "casa", "paura", "gioia", "mare", "acqua"]
        results: dict[str, list] = {}

        def lookup(word):
            table = kb.select(f'SELECT ?l WHERE {{ ?l a lila:Lemma ; rdfs:label "{word}" }} ORDER BY ?l')
            results[word] = values(table)
        threads = [threading.Thread(target=lookup, args=(w,)) for w in words]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        for word in words:
            expected = values(kb.select(f'SELECT ?l WHERE {{ ?l a lila:Lemma ; rdfs:label "{word}" }} ORDER BY ?l'))
            assert expected and results[word] == expected
    finally:
        kb.close()
