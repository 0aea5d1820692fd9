"""The remote KB against a real SPARQL HTTP server on 127.0.0.1 started by the test.

:class:`SparqlServer` is a stdlib ``http.server`` in a thread on an ephemeral
port. It answers SPARQL protocol requests (POST form-encoded ``query=``, or
GET ``?query=``) by running the query on a small pyoxigraph store: SPARQL JSON
results for SELECT/ASK, Turtle for CONSTRUCT/DESCRIBE. Scripted failures
(status, body, headers, delay) are served first, one per request.
"""

from __future__ import annotations

import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyoxigraph as ox
import pytest

from nl2sparql.errors import EndpointError, QueryError, QuerySyntaxError, QueryTimeout, UpdateRefused
from nl2sparql.kb import Limits, open_kb
from nl2sparql.kb.remote import RemoteKB
from nl2sparql.kb.results import Term
from nl2sparql.namespaces import XSD

DATA = """
@prefix lila: <http://lila-erc.eu/ontologies/lila/> .
@prefix ontolex: <http://www.w3.org/ns/lemon/ontolex#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix marl: <http://www.gsi.upm.es/ontologies/marl/ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<http://liita.it/data/id/lemma/1> a lila:Lemma ; rdfs:label "cane" ; ontolex:writtenRep "cane"@it ;
    lila:hasPOS lila:noun .
<http://liita.it/data/id/lemma/2> a lila:Lemma ; rdfs:label "gatto" ; ontolex:writtenRep "gatto"@it ;
    lila:hasPOS lila:noun .
<http://liita.it/data/id/lemma/3> a lila:Lemma ; rdfs:label "correre" ; ontolex:writtenRep "correre"@it ;
    lila:hasPOS lila:verb .
<http://w3id.org/elita/lexicon/cane> ontolex:canonicalForm <http://liita.it/data/id/lemma/1> ;
    marl:hasPolarityValue "0.5"^^xsd:float .
"""
LEMMAS = "SELECT ?l ?wr WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr } ORDER BY ?l"


@dataclass
class Scripted:
    """One scripted answer served instead of running the query."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    content_type: str = "text/plain"


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    query: str | None


class SparqlServer:
    """A real SPARQL endpoint over a pyoxigraph store, with scripted failures."""

    def __init__(self):
        self.store = ox.Store()
        self.store.load(DATA.encode(), ox.RdfFormat.TURTLE)
        self.script: list[Scripted] = []
        self.always: Scripted | None = None
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode())
                server._answer(self, form)

            def do_GET(self):  # noqa: N802
                server._answer(self, urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query))

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/sparql"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def fail(self, *replies: Scripted) -> "SparqlServer":
        self.script.extend(replies)
        return self

    def _answer(self, http: BaseHTTPRequestHandler, form: dict) -> None:
        query = form.get("query", [None])[0]
        with self._lock:
            self.requests.append(Request(http.command, http.path,
                                         {k.lower(): v for k, v in http.headers.items()}, query))
            reply = self.script.pop(0) if self.script else self.always
        if reply is None:
            reply = self._evaluate(query)
        if reply.delay:
            self._stopping.wait(reply.delay)
        try:
            http.send_response(reply.status)
            http.send_header("Content-Type", reply.content_type)
            http.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                http.send_header(name, value)
            http.end_headers()
            http.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up

    def _evaluate(self, query: str | None) -> Scripted:
        if not query:
            return Scripted(400, b"missing query parameter")
        try:
            result = self.store.query(query)
        except SyntaxError as exc:
            return Scripted(400, f"Parse error: {exc}".encode())
        if isinstance(result, ox.QueryTriples):
            return Scripted(200, result.serialize(format=ox.RdfFormat.TURTLE), content_type="text/turtle")
        return Scripted(200, result.serialize(format=ox.QueryResultsFormat.JSON),
                        content_type="application/sparql-results+json")

    def start(self) -> "SparqlServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def endpoint():
    server = SparqlServer().start()
    yield server
    server.stop()


@pytest.fixture
def sleeps():
    """Backoff sleeps recorded instead of slept."""
    return []


@pytest.fixture
def remote(endpoint, sleeps):
    return RemoteKB(endpoint.url, limits=Limits(timeout=5), retries=3, backoff=0.5, sleep=sleeps.append)


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/sparql"


# -- answers ---------------------------------------------------------------------------------

def test_select_over_http(remote, endpoint):
    table = remote.select(LEMMAS)
    assert table.form == "select" and table.variables == ["l", "wr"]
    assert table.rows == [
        (Term.iri("http://liita.it/data/id/lemma/1"), Term.literal("cane", lang="it")),
        (Term.iri("http://liita.it/data/id/lemma/2"), Term.literal("gatto", lang="it")),
        (Term.iri("http://liita.it/data/id/lemma/3"), Term.literal("correre", lang="it")),
    ]
    assert table.elapsed > 0
    [request] = endpoint.requests
    assert request.method == "POST" and request.path == "/sparql"
    assert request.headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert "application/sparql-results+json" in request.headers["accept"]
    assert request.headers["user-agent"].startswith("nl2sparql/")
    # the standard prefixes the query forgot were added before sending
    assert "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>" in request.query
    assert "PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>" in request.query
    assert request.query.rstrip().endswith(LEMMAS)


def test_datatypes_and_unbound_cells(remote):
    table = remote.select("""SELECT ?e ?v ?missing ?n WHERE {
        ?e ontolex:canonicalForm ?l ; marl:hasPolarityValue ?v . BIND(3 AS ?n) }""")
    assert table.records() == [{"e": Term.iri("http://w3id.org/elita/lexicon/cane"),
                                "v": Term.literal("0.5", XSD + "float"), "missing": None,
                                "n": Term.literal("3", XSD + "integer")}]


def test_ask_and_construct_over_http(remote, endpoint):
    assert remote.ask('ASK { ?l rdfs:label "cane" }') is True
    assert remote.ask('ASK { ?l rdfs:label "cavallo" }') is False
    table = remote.construct("CONSTRUCT { ?l rdfs:label ?x } WHERE { ?l lila:hasPOS lila:verb ; rdfs:label ?x }")
    assert table.form == "construct" and table.variables == ["s", "p", "o"]
    assert table.rows == [(Term.iri("http://liita.it/data/id/lemma/3"),
                           Term.iri("http://www.w3.org/2000/01/rdf-schema#label"), Term.literal("correre"))]
    assert "text/turtle" in endpoint.requests[-1].headers["accept"]


def test_row_cap_over_http(remote):
    table = remote.select(LEMMAS, max_rows=2)
    assert len(table) == 2 and table.truncated
    assert not remote.select(LEMMAS, max_rows=3).truncated


def test_open_kb_with_endpoint(endpoint):
    with open_kb(endpoint=endpoint.url, timeout=4, max_rows=50) as kb:
        assert isinstance(kb, RemoteKB)
        assert kb.description == f"endpoint:{endpoint.url}"
        assert kb.limits == Limits(4, 50)
        assert len(kb.select(LEMMAS)) == 3


# -- retries ---------------------------------------------------------------------------------

@pytest.mark.parametrize("status", [503, 500, 429, 502])
def test_transient_errors_are_retried_with_backoff(remote, endpoint, sleeps, status):
    endpoint.fail(*[Scripted(status, b"busy")] * 3)
    table = remote.select(LEMMAS)
    assert len(table) == 3
    assert endpoint.count == 4  # three failures, then the answer
    assert len(sleeps) == 3
    for attempt, slept in enumerate(sleeps):  # exponential backoff with jitter, never slept for real
        assert 0.5 * 0.5 * 2 ** attempt <= slept <= 0.5 * 2 ** attempt


def test_retry_after_header_is_honoured(remote, endpoint, sleeps):
    endpoint.fail(Scripted(429, b"slow down", headers={"Retry-After": "7"}))
    assert len(remote.select(LEMMAS)) == 3
    assert sleeps == [7.0]


def test_persistent_5xx_gives_up_after_the_retries(remote, endpoint, sleeps):
    endpoint.always = Scripted(500, b"internal error")
    with pytest.raises(EndpointError) as info:
        remote.select(LEMMAS)
    message = str(info.value)
    assert "kept answering HTTP 500" in message and "after 4 tries" in message and "\n" not in message
    assert endpoint.count == 4 and len(sleeps) == 3


VIRTUOSO_REFUSAL = (b"Virtuoso 07S01 Error SR183: Required argument delim (no 3) not supplied to "
                    b"DB.DBA.GROUP_CONCAT_ACC\n\nSPARQL query:\ndefine input:default-graph-uri <urn:x> SELECT ...")


@pytest.mark.parametrize("body, error, reason", [
    (VIRTUOSO_REFUSAL, QueryError, "Virtuoso 07S01 Error SR183: Required argument delim"),
    (b"Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error at '}' before '}'\n\nSPARQL query:\n...",
     QuerySyntaxError, "SPARQL compiler, line 1: syntax error"),
    (b"Virtuoso 37000 Error TR...: transitive start not given\n\nSPARQL query:\n...", QueryError,
     "transitive start not given"),
    (b"error at 1:25: expected one of LATERAL, SERVICE, [_]", QuerySyntaxError, "expected one of LATERAL"),
    (b"Virtuoso S1T00 Error SR171: Transaction timed out\n\nSPARQL query:\n...", QueryTimeout,
     "Transaction timed out"),
], ids=["virtuoso-runtime", "virtuoso-compiler", "virtuoso-transitive", "oxigraph-parse", "virtuoso-timeout"])
def test_a_500_that_refuses_the_query_is_one_error_at_once(remote, endpoint, sleeps, body, error, reason):
    endpoint.always = Scripted(500, body)
    with pytest.raises(error) as info:
        remote.select(LEMMAS)
    message = str(info.value)
    assert reason in message and "\n" not in message and "SPARQL query:" not in message
    assert "try again later" not in message
    assert endpoint.count == 1 and sleeps == []  # the engine's own verdict: never asked again


def test_a_virtuoso_deadlock_is_retried(remote, endpoint, sleeps):
    endpoint.fail(Scripted(500, b"Virtuoso 40001 Error SR172: Transaction deadlocked\n\nSPARQL query:\n..."))
    assert len(remote.select(LEMMAS)) == 3
    assert endpoint.count == 2 and len(sleeps) == 1


def test_no_retries_configured(endpoint, sleeps):
    kb = RemoteKB(endpoint.url, retries=0, sleep=sleeps.append)
    endpoint.fail(Scripted(503, b"busy"))
    with pytest.raises(EndpointError, match="HTTP 503"):
        kb.select(LEMMAS)
    assert endpoint.count == 1 and sleeps == []


# -- failures that are not retried ---------------------------------------------------------------

def test_slow_answer_is_a_timeout(endpoint, sleeps):
    kb = RemoteKB(endpoint.url, limits=Limits(timeout=1), retries=3, sleep=sleeps.append)
    endpoint.fail(Scripted(200, b"{}", delay=10))
    start = time.monotonic()
    with pytest.raises(QueryTimeout) as info:
        kb.select(LEMMAS)
    assert time.monotonic() - start < 3.5
    assert "did not answer within 1 s" in str(info.value) and "\n" not in str(info.value)
    assert endpoint.count == 1 and sleeps == []  # the budget is spent: no retry
    assert len(kb.select(LEMMAS)) == 3  # and the next query is fine


def test_per_call_timeout_overrides_the_default(endpoint, sleeps):
    kb = RemoteKB(endpoint.url, limits=Limits(timeout=30), sleep=sleeps.append)
    endpoint.fail(Scripted(200, b"{}", delay=10))
    start = time.monotonic()
    with pytest.raises(QueryTimeout):
        kb.select(LEMMAS, timeout=1)
    assert time.monotonic() - start < 3.5


def test_400_from_the_endpoint_is_a_syntax_error(remote, endpoint, sleeps):
    endpoint.fail(Scripted(400, b"Parse error: unknown function <urn:x>\nat line 3"))
    with pytest.raises(QuerySyntaxError) as info:
        remote.select(LEMMAS)
    message = str(info.value)
    assert message.startswith("the endpoint rejected the query") and "\n" not in message
    assert "unknown function" in message
    assert endpoint.count == 1 and sleeps == []


@pytest.mark.parametrize("status,match", [(404, "HTTP 404"), (403, "HTTP 403")])
def test_client_errors_are_not_retried(remote, endpoint, sleeps, status, match):
    endpoint.always = Scripted(status, b"no")
    with pytest.raises(EndpointError, match=match) as info:
        remote.select(LEMMAS)
    assert "\n" not in str(info.value)
    assert endpoint.count == 1 and sleeps == []


@pytest.mark.parametrize("form,body", [("select", b"<html>maintenance</html>"),
                                       ("construct", b"<html>maintenance</html>")])
def test_answer_in_the_wrong_format(remote, endpoint, form, body):
    endpoint.always = Scripted(200, body, content_type="text/html")
    query = LEMMAS if form == "select" else "CONSTRUCT WHERE { ?s ?p ?o }"
    with pytest.raises(EndpointError, match="not (SPARQL JSON results|Turtle)") as info:
        remote.execute(query)
    assert "\n" not in str(info.value)


def test_unreachable_host_is_one_quick_line(sleeps):
    url = closed_port_url()
    kb = RemoteKB(url, retries=3, sleep=sleeps.append)
    start = time.monotonic()
    with pytest.raises(EndpointError) as info:
        kb.select(LEMMAS)
    assert time.monotonic() - start < 2
    message = str(info.value)
    assert message.startswith(f"cannot reach {url}") and "refused" in message.lower()
    assert "\n" not in message and sleeps == []


def test_not_an_endpoint_url():
    with pytest.raises(EndpointError, match="not an endpoint URL"):
        RemoteKB("liita.it/sparql")


# -- local checks before sending ---------------------------------------------------------------

@pytest.mark.parametrize("query,error", [
    ("SELECT ?x WHERE { ?x a lila:Lemma ", QuerySyntaxError),
    ("SELECT ?x WHERE { ?x a nope:Lemma }", QuerySyntaxError),
    ("hello endpoint", QuerySyntaxError),
    ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nINSERT DATA { <http://a> a lila:Lemma }", UpdateRefused),
    ("# comment\nDELETE WHERE { ?s ?p ?o }", UpdateRefused),
])
def test_bad_queries_never_reach_the_endpoint(remote, endpoint, query, error):
    with pytest.raises(error) as info:
        remote.execute(query)
    assert "\n" not in str(info.value)
    assert endpoint.count == 0


def test_local_syntax_error_position_is_in_the_text_as_written(remote, endpoint):
    # two standard prefixes are completed before parsing: the position must not move
    with pytest.raises(QuerySyntaxError, match=r"error at 1:\d+"):
        remote.select("SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr FILTER( }")
    assert endpoint.count == 0


def test_service_queries_are_checked_locally_and_sent_unchanged(remote, endpoint):
    endpoint.always = Scripted(200, b'{"head":{"vars":["d"]},"results":{"bindings":[]}}',
                               content_type="application/sparql-results+json")
    query = ("PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\nSELECT ?d WHERE { "
             "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { ?s skos:definition ?d } }")
    assert remote.select(query).rows == []
    assert endpoint.requests[0].query == query


def test_an_answer_broken_midway_drops_its_reader_in_its_own_thread(monkeypatch):
    """Issue 31: an answer that breaks off after its rows (here a key after the bindings) is one error; the
    reader it was read with goes with the thread that read it, not with the thread the error reaches
    (pyoxigraph reports the latter as "unsendable" noise)."""
    import gc
    import io
    import sys
    from concurrent.futures import ThreadPoolExecutor

    body = io.BytesIO(b'{"head": {"vars": ["s"]}, "results": {"bindings": [{"s": {"type": "uri", "value": '
                      b'"http://a"}}]}, "extra": true}')
    body.url = "http://127.0.0.1:9/sparql"
    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(RemoteKB._parse, body, "select", 10)
        with pytest.raises(EndpointError, match="not SPARQL JSON results"):
            future.result()
    del future
    gc.collect()
    assert not dropped, [str(d.exc_value) for d in dropped]
