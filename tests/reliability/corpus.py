"""The reliability corpus as data: one row per bad input, fault or attack, run on every way in where it applies.

A :class:`Case` names an operation (``op``: what is asked, in terms every
surface understands: execute a query, validate one, translate a question,
read a pool file, generate a pool, ...), its arguments, what must come of it
(:class:`Expect`), the surfaces it applies to and a time bound. The adapters
of ``surfaces.py`` turn each operation into a CLI command, an API call, an MCP
tool call, a request to the served web UI or an agent run; ``test_corpus.py``
drives every (case, surface) pair and checks the outcome, that the answer came
within the bound, that no message is a traceback, and that nothing written
(a witness pool next to the case, the KB) was lost.

Placeholders in argument strings: ``{victim}`` is the URL of a local server no
query may make anyone call (its requests are counted), ``{work}`` the case's
folder, ``{busy}`` a port the case listens on. ``endpoint`` names a mode of the
local faulty endpoint (see ``reliability_helpers.MODES``), ``closed`` (a port
where nothing listens), ``oxigraph`` (a real Oxigraph server with its own 2 s
limit), ``served`` (``nl2sparql-gen kb serve`` on the sample: :data:`SERVED_BUDGET`
and 256 MiB per query, 1,000 rows per answer) or ``url:...`` (a literal URL). The operations that run whole
processes (``ask`` with its external agents, a full disk, a server stopped
after a call) are in ``process_cases.py``.

Adding a row adds the case to every surface whose adapter supports its
operation (narrow it with ``only``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

SURFACES = ("cli", "api", "mcp", "ui", "agent")


@dataclass(frozen=True)
class Expect:
    """What must come of a case.

    ``outcome``: ``refused`` (one clear error line holding every word of
    ``words``; on the Python surfaces an error of class ``kind``), ``answered``
    (a normal answer passing the named ``check``, see ``surfaces.CHECKS``) or
    ``fallback`` (a translation from the offline translator whose reasons hold
    ``words``). Words are compared case-insensitively; ``a|b`` is either.
    """

    outcome: str
    words: tuple[str, ...] = ()
    kind: str | None = None
    check: str | None = None


def refused(*words: str, kind: str | None = None) -> Expect:
    """Refused with one clear line holding ``words``."""
    return Expect("refused", words, kind)


def answered(check: str | None = None) -> Expect:
    """Answered; ``check`` names a check of the answer."""
    return Expect("answered", check=check)


def fallback(*words: str) -> Expect:
    """Fell back to the offline translation with a reason holding ``words``."""
    return Expect("fallback", words, check="safe")


Expectation = Union[Expect, dict]


@dataclass(frozen=True)
class Case:
    """One row: ``expect`` is an :class:`Expect`, or ``{surface: Expect, "*": default}`` where surfaces differ."""

    id: str
    group: str
    op: str
    args: dict
    expect: Expectation
    only: tuple[str, ...] = SURFACES
    bound: float = 20.0
    #: Servers that must receive no request at all: ``victim``, ``endpoint``.
    untouched: tuple[str, ...] = ()
    #: The KB must hold as many triples after the case as before (a refused update).
    kb_intact: bool = False

    def expected(self, surface: str) -> Expect:
        """The expectation on ``surface``."""
        if isinstance(self.expect, Expect):
            return self.expect
        return self.expect.get(surface, self.expect["*"])


# -- queries ---------------------------------------------------------------------------------------
ASK = "ASK { ?s ?p ?o }"
ONE_ROW = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"
#: Every pair of triples: rows grow as the square of the KB.
CARTESIAN = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }"
#: A count over three joined scans: minutes on the sample.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
SERVICE = "SELECT * WHERE { SERVICE <{victim}sparql> { ?s ?p ?o } }"
#: A SERVICE behind a comment that Oxigraph ends at a carriage return (issue 18).
SERVICE_CR = "SELECT * WHERE { # c\rSERVICE <{victim}cr> { ?s ?p ?o } }"
SERVICE_PREFIXED = "PREFIX x: <{victim}> SELECT * WHERE { SERVICE x:pn { ?s ?p ?o } }"
EMOTIONS = "SELECT ?e WHERE { ?e a elita:Emotion }"
#: ``kb serve``'s own time budget per query in the corpus (seconds; its query workers start within it).
SERVED_BUDGET = 4
QUESTION = "Quali sostantivi esprimono paura?"


def nested(levels: int) -> str:
    """A query whose group graph patterns nest ``levels`` deep."""
    return "SELECT * WHERE { " + "{ " * levels + "?s ?p ?o " + "} " * levels + "}"


def doubling(times: int = 40) -> str:
    """A string that doubles ``times`` times (64 B × 2^times): memory without bound."""
    binds = " ".join(f"BIND(CONCAT(?a{i - 1}, ?a{i - 1}) AS ?a{i})" for i in range(1, times + 1))
    return f'SELECT (STRLEN(?a{times}) AS ?n) WHERE {{ BIND("{"a" * 64}" AS ?a0) {binds} }}'


def one_megabyte_query() -> str:
    """A valid query of 1 MB: a 1 MB comment, then the query."""
    return "# " + "x" * 1_000_000 + "\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1"


UPDATES = {
    "insert-data": 'INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }',
    "delete-data": 'DELETE DATA { <http://example.org/a> <http://example.org/b> "c" }',
    "delete-where": "DELETE WHERE { ?s ?p ?o }",
    "delete-insert-where": "DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
    "with-delete": "PREFIX lila: <http://lila-erc.eu/ontologies/lila/> WITH <http://liita.it/data> "
                   "DELETE { ?l a lila:Lemma } WHERE { ?l a lila:Lemma }",
    "load": "LOAD <{victim}data.ttl>",
    "load-silent-into": "LOAD SILENT <{victim}data.ttl> INTO GRAPH <http://example.org/g>",
    "clear-all": "CLEAR ALL",
    "clear-graph": "CLEAR GRAPH <http://liita.it/data>",
    "drop-all": "DROP ALL",
    "drop-graph": "DROP SILENT GRAPH <http://w3id.org/elita>",
    "create": "CREATE GRAPH <http://example.org/g>",
    "add": "ADD DEFAULT TO <http://example.org/g>",
    "move": "MOVE DEFAULT TO <http://example.org/g>",
    "copy": "COPY DEFAULT TO <http://example.org/g>",
    "lower-case": "insert data { <http://example.org/a> <http://example.org/b> 1 }",
    "behind-a-comment": "# SELECT * WHERE { ?s ?p ?o }\nDROP ALL",
    "two-operations": 'CLEAR DEFAULT ; INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }',
}

# -- questions -------------------------------------------------------------------------------------
INJECTIONS = {
    "quotes": "Qual è la definizione di «l'albero \"grande\"»?",
    "backslashes": "Qual è la definizione di «back\\slash \\\" \\u0022»?",
    "braces": "Quali lemmi iniziano con «{ } { } ] [»?",
    "break-out": 'Qual è la definizione di «"} . ?s ?p ?o . FILTER("»?',
    "break-out-single": "Quali lemmi iniziano con «'} . ?s ?p ?o . FILTER('»?",
    "newlines": "Qual è la definizione di «riga\nnuova\r\n} ?s ?p ?o»?",
    "emoji": "Quali sostantivi esprimono paura? 😀🇮🇹 «😱»",
    "control-characters": "Qual è la definizione di «\x00\x07\x1b[31m»?",
    "update-text": "DROP ALL ; INSERT DATA { <http://a> <http://b> <http://c> } quali lemmi?",
    "sparql-comment": "# }\nSELECT * WHERE { ?s ?p ?o } quali verbi?",
    "iri-break": "Quali lemmi iniziano con «> <http://127.0.0.1:9/x> SERVICE <http://127.0.0.1:9/y»?",
}
TEN_THOUSAND = ("parola " * 1429)[:10_000]
#: A question of 1 MB whose words make a regular expression that backtracks work quadratically (issue 31).
ONE_MEGABYTE_QUESTION = ("anti-simmetrico" * 70_000)[:1_000_000]
LONE_SURROGATE = "Quali nomi \ud800 esprimono paura?"
#: CompL-it's senses, through its SERVICE: what ``kb serve`` must answer from its own graph.
COMPLIT = ("SELECT ?s ?d WHERE { SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> "
           "{ ?s <http://www.w3.org/2004/02/skos/core#definition> ?d } } LIMIT 3")

# -- LLM answers (scripted) ------------------------------------------------------------------------
#: name -> what the scripted LLM server answers (see ``surfaces.llm_script``).
LLM_SCRIPTS = ("garbage", "empty", "update", "service", "service-cr", "nested", "hang", "storm-429", "http-500",
               "not-a-completion")

# -- files -----------------------------------------------------------------------------------------
GOOD_LINE = b'{"id": "p-1", "sparql": "ASK { ?s ?p ?o }", "nl": "C\'\xc3\xa8 qualcosa?"}\n'
MALFORMED_MIDDLE = GOOD_LINE + GOOD_LINE.replace(b"p-1", b"p-2") + b'{"id": "p-3", "sparql": \n' + \
    GOOD_LINE.replace(b"p-1", b"p-4")
NO_SPARQL = b'{"id": "p-1", "nl": "una domanda"}\n'
NO_ID = b'{"sparql": "ASK { ?s ?p ?o }"}\n'
BINARY = bytes(range(256)) * 16
LATIN1 = '{"id": "p-1", "sparql": "ASK { ?s ?p ?o }", "nl": "città"}\n'.encode("latin-1")
NOT_OBJECTS = b'["p-1", "ASK { ?s ?p ?o }"]\n'


def _cases() -> list[Case]:
    E, V, T, P, G = "execute", "validate", "translate", "pool", "generate"
    py = ("api", "agent")
    cases: list[Case] = []
    add = cases.append

    # -- SPARQL ------------------------------------------------------------------------------------
    add(Case("sparql-syntax-error", "sparql", E, {"query": "SELECT ?x WHERE { ?x"},
             refused("does not parse", kind="QuerySyntaxError")))
    add(Case("sparql-not-a-query", "sparql", E, {"query": "hello world"}, refused("not a SPARQL query")))
    add(Case("sparql-unknown-prefix", "sparql", E, {"query": "SELECT ?x WHERE { ?x a nope:Thing }"},
             refused("nope")))
    add(Case("sparql-empty", "sparql", E, {"query": ""},
             {"*": refused("empty"), "mcp": refused("at least 1 character")}))
    add(Case("sparql-blank", "sparql", E, {"query": " \n\t "}, refused("empty")))
    add(Case("sparql-1mb-garbage", "sparql", E, {"query": "x" * 1_000_000},
             {"*": refused("not a SPARQL query"), "mcp": refused("at most 100000 characters")}))
    add(Case("sparql-1mb-query", "sparql", E, {"query": one_megabyte_query()},
             {"*": answered("rows"), "mcp": refused("at most 100000 characters")}))
    for name, update in UPDATES.items():
        add(Case(f"sparql-update-{name}", "sparql", E, {"query": update},
                 refused("Update is refused", kind="UpdateRefused"), untouched=("victim",), kb_intact=True))
    add(Case("sparql-update-in-validate", "sparql", V, {"query": UPDATES["insert-data"]},
             refused("Update is refused"), kb_intact=True))
    add(Case("sparql-huge-answer", "sparql", E, {"query": CARTESIAN, "max_rows": 1000}, answered("capped:1000")))
    add(Case("sparql-runaway-embedded", "sparql", E, {"query": RUNAWAY, "timeout": 1},
             refused("time budget", kind="QueryTimeout")))
    add(Case("sparql-runaway-remote", "sparql", E, {"query": RUNAWAY, "timeout": 1, "endpoint": "oxigraph"},
             refused("did not answer within 1 s", kind="QueryTimeout"), only=("cli", "api")))
    add(Case("sparql-deep-nesting", "sparql", E, {"query": nested(3000)}, refused("levels deep")))
    add(Case("sparql-service-unlisted", "sparql", E, {"query": SERVICE}, refused("SERVICE", "service map"),
             untouched=("victim",)))
    add(Case("sparql-service-behind-cr-comment", "sparql", E, {"query": SERVICE_CR}, refused("SERVICE"),
             untouched=("victim",)))
    add(Case("sparql-service-prefixed-name", "sparql", E, {"query": SERVICE_PREFIXED}, refused("SERVICE"),
             untouched=("victim",)))
    add(Case("sparql-service-in-validate", "sparql", V, {"query": SERVICE}, refused("SERVICE"),
             untouched=("victim",)))
    add(Case("sparql-service-to-an-endpoint", "sparql", E, {"query": SERVICE, "endpoint": "answer"},
             refused("SERVICE"), untouched=("victim", "endpoint")))
    add(Case("sparql-lone-surrogate", "sparql", E, {"query": f'SELECT * WHERE {{ ?s ?p "{LONE_SURROGATE}" }}'},
             refused("lone surrogate"), only=("cli", "api", "ui")))
    # the shared KB keeps the chosen budget: 1 s given, 5 s for the MCP server started so, 2 s for the UI's
    add(Case("sparql-validate-keeps-its-timeout", "sparql", V, {"query": RUNAWAY, "timeout": 1},
             {"*": refused("1 s time budget"), "mcp": refused("5 s time budget"), "ui": refused("2 s time budget")},
             only=("cli", "api", "mcp", "ui"), bound=12))

    # -- endpoints -----------------------------------------------------------------------------------
    # the per-try budget (the whole call ends by 4 x budget); the storms that are retried get 1 s, so that a
    # loaded machine's slow answer is not taken for a timeout; the slow ones run where they show something new
    servers = ("cli", "api", "mcp", "ui")
    for case_id, mode, budget, expect, only in [
            ("endpoint-html-page", "html", 1, refused("not SPARQL JSON results"), servers),
            ("endpoint-http-500", "fail", 1, refused("kept answering HTTP 500", "tries in"), servers),
            ("endpoint-429-storm", "busy", 1, refused("HTTP 429", "tries in"), ("cli", "api")),
            ("endpoint-invalid-json", "badjson", 1, refused("not SPARQL JSON results"), servers),
            ("endpoint-json-not-results", "notresults", 1, refused("not SPARQL JSON results"), servers),
            ("endpoint-hangs", "hang", 0.5, refused("did not answer within", kind="QueryTimeout"), servers),
            ("endpoint-trickles", "trickle", 0.5, refused("--timeout", kind="QueryTimeout"), servers),
            ("endpoint-drops-the-connection", "drop", 1, refused("kept failing", "tries in"), ("cli", "api")),
            ("endpoint-404", "missing", 1, refused("HTTP 404"), servers),
            ("endpoint-redirects-elsewhere", "redirect", 1, refused("redirected"), servers)]:
        add(Case(case_id, "endpoint", E, {"query": ONE_ROW, "endpoint": mode, "timeout": budget}, expect, only=only,
                 untouched=("victim",) if mode == "redirect" else ()))
    add(Case("endpoint-huge-answer", "endpoint", E, {"query": ONE_ROW, "endpoint": "huge", "max_rows": 100,
                                                     "timeout": 10}, answered("capped:100"), only=servers))
    add(Case("endpoint-closed-port", "endpoint", E, {"query": ASK, "endpoint": "closed"}, refused("cannot reach"),
             only=("cli", "api")))
    for case_id, url, words in [
            ("endpoint-malformed-url", "http://[::1/sparql", ("malformed",)),
            ("endpoint-bad-port", "http://127.0.0.1:99999/sparql", ("malformed",)),
            ("endpoint-file-scheme", "file:///etc/passwd", ("not an endpoint URL",)),
            ("endpoint-gopher-scheme", "gopher://127.0.0.1:70/", ("not an endpoint URL",)),
            ("endpoint-no-scheme", "liita.it/sparql", ("not an endpoint URL",)),
            ("endpoint-crlf-in-url", "http://127.0.0.1:9/sparql\r\nX-Evil: 1", ("contains",)),
            ("endpoint-space-in-url", "http://127.0.0.1:9/spa rql", ("a space",))]:
        add(Case(case_id, "endpoint", E, {"query": ASK, "endpoint": f"url:{url}"}, refused(*words),
                 only=("cli", "api")))

    # -- the served store (kb serve): the embedded store's bounds over HTTP ------------------------------
    add(Case("served-runaway-stopped", "served", E, {"query": RUNAWAY, "endpoint": "served", "timeout": 30},
             refused(f"time budget of {SERVED_BUDGET} s", kind="QueryTimeout"), only=("cli", "api"), bound=12))
    add(Case("served-client-leaves-early", "served", E,
             {"query": RUNAWAY, "endpoint": "served", "timeout": 1, "idle": True},
             refused("did not answer within 1 s", kind="QueryTimeout"), only=("cli",), bound=15))
    add(Case("served-memory-capped", "served", E, {"query": doubling(), "endpoint": "served", "timeout": 30},
             refused("memory cap", kind="ResourceLimit"), only=("cli", "api"), bound=20))
    add(Case("served-answer-cut-at-its-row-cap", "served", E, {"query": CARTESIAN, "endpoint": "served"},
             answered("capped:1000"), only=("cli", "api")))
    add(Case("served-complit-answered-locally", "served", E, {"query": COMPLIT, "endpoint": "served"},
             answered("some-rows"), only=("cli", "api")))
    # the client passes this SERVICE through (its own map says so): the served store must refuse it itself
    add(Case("served-service-elsewhere-refused", "served", E,
             {"query": SERVICE, "endpoint": "served", "env": {"NL2SPARQL_SERVICES": "{victim}sparql={victim}sparql"}},
             refused("not in the service map"), only=("cli", "api"), untouched=("victim",)))
    add(Case("served-the-readme-recipe", "served", G, {"target": 20, "endpoint": "served"}, answered(),
             only=("cli", "api"), bound=40))

    # -- files ---------------------------------------------------------------------------------------
    for command in ("stats", "export", "score"):
        only = ("cli", "api", "ui") if command == "score" else ("cli", "api")
        add(Case(f"file-malformed-line-{command}", "files", P, {"command": command, "content": MALFORMED_MIDDLE},
                 refused("line 3"), only=only))
        add(Case(f"file-binary-{command}", "files", P, {"command": command, "content": BINARY},
                 refused("not UTF-8"), only=only))
        add(Case(f"file-not-utf8-{command}", "files", P, {"command": command, "content": LATIN1},
                 refused("not UTF-8"), only=only))
        add(Case(f"file-missing-{command}", "files", P, {"command": command, "file": "missing"},
                 refused("no such"), only=("cli", "api")))
        add(Case(f"file-directory-{command}", "files", P, {"command": command, "file": "directory"},
                 refused("is a directory"), only=("cli", "api")))
    add(Case("file-fifo", "files", P, {"command": "stats", "file": "fifo"}, refused("not a regular file"),
             only=("cli", "api"), bound=10))
    add(Case("file-missing-fields-pool", "files", P, {"command": "stats", "content": NO_SPARQL},
             refused("field 'sparql'"), only=("cli", "api")))
    add(Case("file-missing-fields-predictions", "files", P, {"command": "score", "content": NO_ID},
             refused("missing"), only=("cli", "api", "ui")))
    add(Case("file-not-objects", "files", P, {"command": "stats", "content": NOT_OBJECTS},
             refused("not a JSON object"), only=("cli", "api")))
    add(Case("file-output-dir-unwritable", "files", P, {"command": "export", "out": "/proc/sys/train.jsonl"},
             refused("cannot write"), only=("cli", "api")))
    add(Case("file-output-under-a-file", "files", P, {"command": "export", "out": "keep.jsonl/train.jsonl"},
             refused("is a file, not a directory"), only=("cli", "api")))
    add(Case("file-output-dir-missing", "files", P, {"command": "export", "out": "new/sub/train.jsonl"},
             answered("written"), only=("cli", "api")))
    add(Case("file-export-onto-its-input", "files", P, {"command": "export", "out": "keep.jsonl",
                                                        "file": "keep.jsonl"},
             refused("is the pool being exported"), only=("cli", "api")))
    for command in ("stats", "export"):
        add(Case(f"file-large-pool-{command}", "files", P, {"command": command, "file": "large"},
                 answered("streamed"), only=("cli", "api"), bound=40))

    # -- runs ----------------------------------------------------------------------------------------
    for moment in ("started", "sampled", "filtering", "phrased", "deduped"):
        add(Case(f"run-killed-{moment}-then-resumed", "runs", "run_killed", {"moment": moment},
                 answered("identical"), only=("cli",), bound=60))
    add(Case("run-out-locked-by-a-live-run", "runs", G, {"target": 5, "lock": "live"},
             refused("being written by another run", "pid"), only=("cli", "api")))
    # a real first run holds --out: the second is refused, and the first ends with the uninterrupted run's pool
    add(Case("run-two-at-once-on-one-out", "runs", G, {"target": 5, "lock": "run", "cache_dir": "cache2"},
             refused("being written by another run", "pid"), only=("cli", "api"), bound=60))
    add(Case("run-out-exists", "runs", G, {"target": 5, "out": "keep.jsonl"}, refused("exists", "--force"),
             only=("cli", "api")))
    add(Case("run-lock-file-without-a-holder", "runs", G, {"target": 5, "lock": "file"}, answered(),
             only=("cli", "api")))
    add(Case("run-absurd-shard-count", "runs", G, {"target": 5, "shards": 100_000},
             refused("--shards", "more shards than the run has units"), only=("cli", "api"), bound=10))
    # every LLM call ends by its deadline (1 s per try here) and the run says what it waits for meanwhile
    add(Case("run-llm-that-never-answers", "runs", G,
             {"target": 5, "llm": "hang", "progress": r"LLM request \d+ failed|waiting for the LLM"},
             refused("timed out|deadline"), only=("cli", "api"), bound=25))

    # -- injection -----------------------------------------------------------------------------------
    for name, question in INJECTIONS.items():
        # the web UI also runs the translation: a string holding "SERVICE <...>" is refused there (fail-closed)
        expect = {"*": answered("safe"), "ui": refused("SERVICE clause")} if name == "iri-break" else answered("safe")
        add(Case(f"inject-{name}", "injection", T, {"question": question}, expect))
    add(Case("inject-10000-characters", "injection", T, {"question": TEN_THOUSAND},
             refused("10,000 characters", "at most 2,000 characters")))
    add(Case("inject-1mb-question", "injection", T, {"question": ONE_MEGABYTE_QUESTION},
             refused("at most 2,000 characters"), bound=2))
    add(Case("inject-lone-surrogate", "injection", T, {"question": LONE_SURROGATE}, refused("lone surrogate"),
             only=("cli", "api", "ui", "agent")))
    add(Case("inject-nothing", "injection", T, {"question": ""},
             {"*": refused("empty"), "mcp": refused("at least 1 character")}))
    add(Case("inject-only-spaces", "injection", T, {"question": " \n\t "}, refused("empty")))

    # -- LLM answers -----------------------------------------------------------------------------------
    for script, words in [("garbage", ("no complete SPARQL query",)), ("empty", ("empty",)),
                          ("update", ("Update",)), ("service", ("SERVICE",)), ("service-cr", ("SERVICE",)),
                          ("nested", ("levels deep",)), ("hang", ("timed out|deadline",)), ("storm-429", ("429",)),
                          ("http-500", ("500",)), ("not-a-completion", ("chat completion",))]:
        add(Case(f"llm-{script}", "llm", T, {"question": QUESTION, "llm": script},
                 fallback(*words),
                 untouched=("victim",) if script.startswith("service") else (), bound=25))
        if script in ("garbage", "update", "service", "service-cr"):  # the agent through MCP, too
            add(Case(f"llm-{script}-agent-tool", "llm", "agent", {"question": QUESTION, "llm": script},
                     fallback(*words), only=("mcp",), untouched=("victim",) if script.startswith("service") else (),
                     bound=25))

    # -- configuration -------------------------------------------------------------------------------
    for case_id, files, env, words in [
            ("config-bad-toml", {"llm.toml": 'model = "x\nbase_url = ['}, {"NL2SPARQL_LLM_CONFIG": "{work}/llm.toml"},
             ("not valid TOML",)),
            ("config-toml-unknown-key", {"llm.toml": 'modle = "gpt"\n'}, {"NL2SPARQL_LLM_CONFIG": "{work}/llm.toml"},
             ("unknown key", "modle")),
            ("config-toml-wrong-type", {"llm.toml": 'timeout = "soon"\n'},
             {"NL2SPARQL_LLM_CONFIG": "{work}/llm.toml", "NL2SPARQL_LLM_TIMEOUT": ""}, ("must be a number",)),
            ("config-missing-config-file", {}, {"NL2SPARQL_LLM_CONFIG": "{work}/nowhere.toml"}, ("not found",)),
            ("config-llm-cache-is-a-directory", {}, {"NL2SPARQL_LLM_CACHE": "{work}"}, ("LLM cache",)),
            ("config-llm-timeout-not-a-number", {}, {"NL2SPARQL_LLM_TIMEOUT": "soon"}, ("NL2SPARQL_LLM_TIMEOUT",))]:
        add(Case(case_id, "config", T, {"question": QUESTION, "llm": "ok", "files": files, "env": env},
                 refused(*words, kind="ConfigError"), only=("cli", "api", "agent")))
    for case_id, store in [("config-store-is-a-plain-directory", "{work}"),
                           ("config-store-is-a-file", "{work}/keep.jsonl"), ("config-store-missing", "{work}/nowhere")]:
        add(Case(case_id, "config", E, {"query": ASK, "env": {"NL2SPARQL_STORE": store}},
                 refused("no Oxigraph store here", "kb load"), only=("cli", "api")))
    add(Case("config-service-map-entry", "config", E, {"query": ASK, "env": {"NL2SPARQL_SERVICES": "no-equals"}},
             refused("no-equals"), only=("cli", "api")))
    for case_id, args, words, mcp_words, ui_words in [
            ("config-target-zero", {"target": 0}, ("--target",), ("greater than or equal to 1",), ("between 1 and",)),
            ("config-target-negative", {"target": -5}, ("--target",), ("greater than or equal to 1",),
             ("between 1 and",)),
            ("config-target-absurd", {"target": 1e20}, ("--target",), ("target",), ("between 1 and",))]:
        add(Case(case_id, "config", G, args, {"*": refused(*words), "mcp": refused(*mcp_words),
                                              "ui": refused(*ui_words)}, only=("cli", "api", "mcp", "ui")))
    for case_id, args, words in [
            ("config-threads-zero", {"target": 5, "threads": 0}, ("--threads",)),
            ("config-threads-negative", {"target": 5, "threads": -2}, ("--threads",)),
            ("config-threads-1000", {"target": 5, "threads": 1000}, ("--threads",)),
            ("config-run-timeout-zero", {"target": 5, "timeout": 0}, ("--timeout",)),
            ("config-run-cache-dir-is-a-file", {"target": 5, "cache_dir": "keep.jsonl"},
             ("is a file, not a directory",))]:
        add(Case(case_id, "config", G, args, refused(*words), only=("cli", "api")))
    for case_id, value in [("config-timeout-zero", 0), ("config-timeout-negative", -1),
                           ("config-timeout-nan", float("nan")), ("config-timeout-absurd", 1e12)]:
        add(Case(case_id, "config", E, {"query": ASK, "timeout": value},
                 {"*": refused("--timeout"), "mcp": refused("timeout")}, only=("cli", "api", "mcp")))
    for case_id, value in [("config-row-cap-zero", 0), ("config-row-cap-negative", -5)]:
        add(Case(case_id, "config", E, {"query": ASK, "max_rows": value},
                 {"*": refused("--max-rows"), "mcp": refused("limit"), "ui": refused("row cap")},
                 only=("cli", "api", "mcp", "ui")))
    add(Case("config-rounds-absurd", "config", T, {"question": QUESTION, "llm": "ok", "rounds": 1000},
             refused("--rounds"), only=("cli", "api")))
    for server in ("mcp", "ui"):
        add(Case(f"config-{server}-server-endpoint-file", "config", "serve",
                 {"server": server, "args": ["--endpoint", "file:///etc/passwd"]}, refused("not an endpoint URL"),
                 only=("cli",)))
    for server in ("mcp", "ui"):  # (a ui case that is not refused serves on: it hangs instead of failing)
        add(Case(f"config-{server}-server-bad-toml", "config", "serve",
                 {"server": server, "args": ["--llm", "--llm-config", "{work}/llm.toml"],
                  "files": {"llm.toml": "model = ["}}, refused("not valid TOML"), only=("cli",)))
        add(Case(f"config-{server}-server-llm-cache-is-a-directory", "config", "serve",
                 {"server": server, "args": ["--llm"], "llm": "ok", "env": {"NL2SPARQL_LLM_CACHE": "{work}"}},
                 refused("LLM cache", "is a directory"), only=("cli",)))
        add(Case(f"config-{server}-server-store-not-a-store", "config", "serve",
                 {"server": server, "args": ["--store", "{work}"]}, refused("no Oxigraph store here"), only=("cli",)))
        add(Case(f"config-{server}-server-timeout-zero", "config", "serve",
                 {"server": server, "args": ["--timeout", "0"]}, refused("--timeout"), only=("cli",)))
    add(Case("config-ui-on-every-address-warns", "config", "serve",
             {"server": "ui", "args": ["--host", "0.0.0.0", "--port", "{busy}"], "stderr": "warning: listening on "
              "0.0.0.0: anyone who can reach it"}, refused("cannot serve on 0.0.0.0"), only=("cli",)))

    # -- servers stopped -----------------------------------------------------------------------------
    for tool, args, sig in [("validate_sparql", {"sparql": "ASK { ?s ?p ?o }"}, "TERM"),
                            ("agent_translate", {"question": QUESTION}, "INT")]:
        add(Case(f"mcp-http-stops-after-{tool}", "servers", "http_stop", {"tool": tool, "args": args, "signal": sig},
                 answered("clean"), only=("mcp",), bound=40))

    # -- the external-agent harness (ask) ------------------------------------------------------------
    A = "ask"
    add(Case("ask-timeout-absurd", A, A, {"agent": "echo", "timeout": 1e12}, refused("--timeout", "at most"),
             only=("cli", "api")))
    add(Case("ask-mcp-server-that-never-answers", A, A, {"agent": "mcp-silent", "timeout": 2},
             refused("did not answer the MCP handshake within 2 s"), only=("cli",), bound=15))
    add(Case("ask-agent-children-end-with-their-question", A, A, {"agent": "spawner", "timeout": 1},
             refused("timed out after 1 s"), only=("cli", "api")))
    for sig in ("TERM", "KILL"):
        add(Case(f"ask-agents-end-with-ask-on-sig{sig.lower()}", A, A,
                 {"agent": "spawner", "timeout": 60, "kill": sig}, answered("clean"), only=("cli",)))
    add(Case("ask-out-locked-by-another-ask", A, A, {"agent": "echo", "lock": "ask"},
             refused("being written by another run", "pid"), only=("cli", "api"), bound=40))
    add(Case("ask-out-locked-by-a-run", A, A, {"agent": "echo", "lock": "run", "out": "pool.jsonl"},
             refused("being written by another run", "pid"), only=("cli", "api"), bound=60))
    add(Case("ask-question-inside-shell-code-refused", A, A, {"agent": "shell-code", "pool": "hostile"},
             refused("placeholder inside the code", "NL2SPARQL_QUESTION"), only=("cli", "api")))
    add(Case("ask-shell-code-reads-the-question-from-the-environment", A, A,
             {"agent": "shell-env", "pool": "hostile"}, answered(), only=("cli", "api")))

    # -- a full disk ---------------------------------------------------------------------------------
    for command, words in [("run", ("--resume",)), ("export", ()), ("ask", ("not asked again",)),
                           ("agent", ("--checkpoint",))]:
        add(Case(f"disk-full-{command}", "disk", "disk_full", {"command": command},
                 refused("no space left on", "nothing was lost", *words), only=("cli",), bound=60))
    return cases


CASES: list[Case] = _cases()


def pairs() -> list[tuple[Case, str]]:
    """Every (case, surface) the corpus runs, in table order."""
    from surfaces import supports
    return [(case, surface) for case in CASES for surface in case.only if supports(surface, case)]
