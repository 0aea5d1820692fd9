"""The MCP server end to end: real ``nl2sparql mcp serve`` processes, over stdio and over streamable HTTP,
driven by the SDK's own client.

One server per transport for the whole session (``mcp`` fixture); every test
runs on both. The servers get an LLM (the scripted chat server) and an API
key that must never appear in what they answer.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal

from nl2sparql import api
from nl2sparql.patterns import LABELS
from llm_fake_server import FakeLLMServer
from mcp_helpers import SECRET, connected, gather, http_server, server_env, stdio_params, text

EMOTION_QUERY = """PREFIX lila: <http://lila-erc.eu/ontologies/lila/>
PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>
PREFIX elita: <http://w3id.org/elita/>
SELECT DISTINCT ?lemma ?wr WHERE { ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .
  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr ; lila:hasPOS lila:noun } ORDER BY ?wr"""
QUESTION = "Quali sostantivi esprimono paura?"
SLOW_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
MAX_ROWS, TIMEOUT = 200, 10
TOOLS = {"translate", "infer_patterns", "retrieve_examples", "search_ontology", "get_constraints", "validate_sparql",
         "execute_sparql", "fix_case_sensitivity", "check_variable_reuse", "agent_translate", "generate_examples",
         "score_predictions", "kb_info"}
RESOURCES = {"liita://ontology/catalog", "liita://constraints/base", "liita://config", "liita://patterns",
             "liita://schema"}
TEMPLATES = {"liita://ontology/term/{curie}", "liita://patterns/{name}"}
MEGABYTE = "x" * 1_000_000


@dataclass
class Session:
    """A connected client and what the test needs to drive it."""

    client: object
    portal: object
    cwd: Path
    log: Path

    def call(self, name: str, **args):
        return self.portal.call(self.client.call_tool, name, args)

    def read(self, uri: str) -> str:
        return self.portal.call(self.client.read_resource, uri).contents[0].text


@pytest.fixture(scope="session")
def portal():
    with start_blocking_portal() as running:
        yield running


@pytest.fixture(scope="session")
def llm_server():
    """The scripted chat server the MCP servers use as their LLM: it answers with one valid query."""
    with FakeLLMServer(handler=lambda request: f"```sparql\n{EMOTION_QUERY}\n```") as server:
        yield server


@pytest.fixture(scope="session", params=["stdio", "http"])
def mcp(request, portal, llm_server, tmp_path_factory):
    work = tmp_path_factory.mktemp(f"mcp-{request.param}")
    env = server_env(work, {"OPENAI_BASE_URL": llm_server.url, "OPENAI_API_KEY": SECRET,
                            "NL2SPARQL_LLM_MODEL": "fake-model"})
    args = ["--max-rows", str(MAX_ROWS), "--timeout", str(TIMEOUT)]
    log = work / "server.log"
    if request.param == "stdio":
        with connected(portal, "stdio", stdio_params(args, env, work), log) as client:
            yield Session(client, portal, work, log)
    else:
        with http_server(args, env, work, log) as url, connected(portal, "http", url, log) as client:
            yield Session(client, portal, work, log)


def assert_tool_error(result, fragment: str) -> None:
    """A tool error whose message is one line containing ``fragment``, with no traceback."""
    assert result.is_error, text(result)
    message = text(result)
    assert fragment.lower() in message.lower(), message
    assert "\n" not in message and "Traceback" not in message, message


# -- listing ---------------------------------------------------------------------------------------
def test_lists_every_tool_with_described_and_bounded_arguments(mcp):
    tools = {t.name: t for t in mcp.portal.call(mcp.client.list_tools).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40, tool.name
        assert tool.output_schema is not None, tool.name  # structured output
        for name, prop in tool.input_schema.get("properties", {}).items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
    props = {name: t.input_schema.get("properties", {}) for name, t in tools.items()}
    assert props["execute_sparql"]["limit"]["maximum"] == MAX_ROWS
    assert props["execute_sparql"]["timeout"]["maximum"] == TIMEOUT
    assert props["execute_sparql"]["sparql"]["maxLength"] == 100_000
    assert props["translate"]["question"]["maxLength"] == 2_000
    assert props["retrieve_examples"]["top_k"]["maximum"] == 50
    assert props["generate_examples"]["target"]["maximum"] == 20
    assert tools["translate"].input_schema["required"] == ["question"]
    assert tools["translate"].annotations.read_only_hint is True


def test_lists_every_resource(mcp):
    listed = mcp.portal.call(mcp.client.list_resources).resources
    assert {str(r.uri) for r in listed} == RESOURCES
    assert all(r.mime_type == "application/json" and r.description for r in listed)


# -- valid calls -----------------------------------------------------------------------------------
def test_translate_then_execute(mcp):
    translated = mcp.call("translate", question=QUESTION, execute=True, top_k=3)
    assert not translated.is_error, text(translated)
    out = translated.structured_content
    assert out["mode"] == "offline" and "elita:Paura" in out["sparql"]
    assert len(out["rows"]["rows"]) > 10
    assert len(out["examples"]) == 3
    executed = mcp.call("execute_sparql", sparql=out["sparql"], limit=MAX_ROWS)
    assert not executed.is_error, text(executed)
    assert executed.structured_content["rows"] == out["rows"]["rows"]
    assert json.loads(text(executed))["variables"] == executed.structured_content["variables"]


def test_translate_with_the_servers_llm(mcp, llm_server):
    before = llm_server.request_count
    result = mcp.call("translate", question=QUESTION, mode="llm")
    assert not result.is_error, text(result)
    assert result.structured_content["mode"] == "llm"
    assert result.structured_content["sparql"].split() == EMOTION_QUERY.split()
    assert llm_server.request_count > before
    assert SECRET not in text(result)


def _valid_checks():
    yield "infer_patterns", {"question": QUESTION, "threshold": 0.5}, \
        lambda o: "EMOTION_LEXICON" in o["patterns"] and min(o["patterns"].values()) >= 0.5
    yield "retrieve_examples", {"question": QUESTION, "top_k": 4}, \
        lambda o: len(o["examples"]) == 4 and all(e["sparql"] for e in o["examples"])
    yield "get_constraints", {"patterns": ["EMOTION_LEXICON", "POLARITY"]}, \
        lambda o: o["patterns"] == ["EMOTION_LEXICON", "POLARITY"] and len(o["pattern_guides"]) == 2 \
        and any("entry" in rule for rule in o["rules"]) and o["prefixes"]["elita"] == "http://w3id.org/elita/"
    yield "get_constraints", {}, lambda o: o["patterns"] == [] and o["rules"] and not o["pattern_guides"]
    yield "validate_sparql", {"sparql": EMOTION_QUERY}, lambda o: o["ok"] and o["executed"]
    yield "validate_sparql", {"sparql": "SELECT ?x WHERE { ?x lexinfo:hypernym ?y }", "check_endpoint": False}, \
        lambda o: not o["executed"] and not o["ok"] and "service_missing" in {i["rule"] for i in o["issues"]}
    yield "execute_sparql", {"sparql": "ASK { ?e a elita:Emotion }"}, lambda o: o["boolean"] is True
    yield "fix_case_sensitivity", {"sparql": 'SELECT ?e WHERE { ?e rdfs:label ?l . FILTER(STR(?l) = "paura") }'}, \
        lambda o: 'LCASE(STR(?l)) = "paura"' in o["fixed"] and o["fixes"] and not o["issues_after"]
    yield "check_variable_reuse", {"sparql": "SELECT ?e WHERE { ?e elita:HasEmotion elita:Paura ; "
                                             "marl:hasPolarity ?p }"}, \
        lambda o: not o["ok"] and o["issues"][0]["rule"] == "entry_reuse"
    yield "check_variable_reuse", {"sparql": EMOTION_QUERY}, lambda o: o["ok"] and not o["issues"]
    yield "score_predictions", {"gold": [{"id": "a", "sparql": EMOTION_QUERY}, {"id": "b", "sparql": EMOTION_QUERY}],
                                "predictions": [{"id": "a", "sparql": EMOTION_QUERY},
                                                {"id": "b", "sparql": "SELECT ?e WHERE { ?e a elita:Emotion }"}]}, \
        lambda o: [i["strict"] for i in o["items"]] == [True, False] and o["summary"]["strict_accuracy"] == 0.5
    yield "kb_info", {}, lambda o: o["triples"] > 1000 and o["graphs"]


@pytest.mark.parametrize("name,args,check", list(_valid_checks()), ids=lambda v: v if isinstance(v, str) else "")
def test_valid_call(mcp, name, args, check):
    result = mcp.call(name, **args)
    assert not result.is_error, text(result)
    assert check(result.structured_content), result.structured_content


def test_generate_examples_returns_items_and_writes_nothing_in_the_working_dir(mcp):
    before = sorted(p.name for p in mcp.cwd.iterdir())
    result = mcp.call("generate_examples", target=2, seed=3)
    assert not result.is_error, text(result)
    out = result.structured_content
    assert out["kept"] == len(out["items"]) == 2
    assert all(item["sparql"] and item["nl"] for item in out["items"])
    assert sorted(p.name for p in mcp.cwd.iterdir()) == before
    again = mcp.call("generate_examples", target=2, seed=3).structured_content
    assert [i["sparql"] for i in again["items"]] == [i["sparql"] for i in out["items"]]


def test_search_ontology(mcp):
    result = mcp.call("search_ontology", query="termine più specifico, iponimo", top_k=3)
    assert not result.is_error, text(result)
    hits = result.structured_content["hits"]
    assert len(hits) == 3 and hits[0]["curie"] == "lexinfo:hyponym"
    assert hits[0]["iri"] == "http://www.lexinfo.net/ontology/3.0/lexinfo#hyponym" and hits[0]["usage"]


def test_agent_translate(mcp):
    result = mcp.call("agent_translate", question=QUESTION)
    if not hasattr(api, "agent"):
        assert_tool_error(result, "the agent is not available in this build")
        pytest.skip("api.agent is not in this build: agent_translate answers 'the agent is not available in this "
                    "build'")
    assert not result.is_error, text(result)
    assert "elita:Paura" in json.dumps(result.structured_content)


def test_the_agent_returns_as_many_rows_as_translate(mcp):
    question = "Quali sostantivi sono femminili?"  # more rows on the sample than a tool result carries
    translated = mcp.call("translate", question=question, execute=True).structured_content["rows"]
    answered = mcp.call("agent_translate", question=question).structured_content["rows"]
    assert translated["truncated"] and answered["truncated"]
    assert len(answered["rows"]) == len(translated["rows"]) == translated["row_cap"] == answered["row_cap"] < MAX_ROWS


# -- bad calls -------------------------------------------------------------------------------------
BAD_CALLS = [
    ("translate", {}, "question: Field required"),
    ("translate", {"question": 42}, "question: Input should be a valid string"),
    ("translate", {"question": MEGABYTE}, "is 1,000,000 characters long: ask in at most 2,000 characters"),
    ("translate", {"question": "   "}, "the question is empty"),
    ("translate", {"question": QUESTION, "top_k": 0}, "top_k: Input should be greater than or equal to 1"),
    ("translate", {"question": QUESTION, "mode": "magic"}, "mode: Input should be 'offline' or 'llm'"),
    ("infer_patterns", {"question": QUESTION, "threshold": "high"}, "threshold: Input should be a valid number"),
    ("retrieve_examples", {"question": QUESTION, "top_k": 51}, "top_k: Input should be less than or equal to 50"),
    ("retrieve_examples", {"question": MEGABYTE}, "at most 2,000 characters"),
    ("search_ontology", {}, "query: Field required"),
    ("search_ontology", {"query": "hyponym", "top_k": 0}, "top_k: Input should be greater than or equal to 1"),
    ("get_constraints", {"patterns": "EMOTION_LEXICON"}, "patterns: Input should be a valid list"),
    ("get_constraints", {"patterns": ["NOT_A_PATTERN"]}, "patterns.0: Input should be 'EMOTION_LEXICON'"),
    ("validate_sparql", {}, "sparql: Field required"),
    ("validate_sparql", {"sparql": MEGABYTE}, "sparql: String should have at most 100000 characters"),
    ("validate_sparql", {"sparql": "INSERT DATA { <http://a> <http://b> <http://c> }"}, "SPARQL Update is refused"),
    ("validate_sparql", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "check_endpoint": "perhaps"},
     "check_endpoint: Input should be a valid boolean"),
    ("execute_sparql", {}, "sparql: Field required"),
    ("execute_sparql", {"sparql": ["SELECT"]}, "sparql: Input should be a valid string"),
    ("execute_sparql", {"sparql": MEGABYTE}, "at most 100000 characters"),
    ("execute_sparql", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "limit": MAX_ROWS + 1},
     f"limit: Input should be less than or equal to {MAX_ROWS}"),
    ("execute_sparql", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "timeout": 0}, "timeout: Input should be greater"),
    ("execute_sparql", {"sparql": "SELECT * WHERE { ?s ?p"}, "does not parse"),
    ("execute_sparql", {"sparql": "hello"}, "not a SPARQL query"),
    ("fix_case_sensitivity", {"sparql": 3.5}, "sparql: Input should be a valid string"),
    ("fix_case_sensitivity", {"sparql": "DROP ALL"}, "SPARQL Update is refused"),
    ("check_variable_reuse", {"sparql": MEGABYTE}, "at most 100000 characters"),
    ("check_variable_reuse", {"sparql": "CLEAR DEFAULT"}, "SPARQL Update is refused"),
    ("agent_translate", {"question": MEGABYTE}, "at most 2,000 characters"),
    ("generate_examples", {"target": 21}, "target: Input should be less than or equal to 20"),
    ("generate_examples", {"target": "many"}, "target: Input should be a valid integer"),
    ("generate_examples", {"patterns": ["EMOTION"]}, "patterns.0: Input should be"),
    ("score_predictions", {"gold": [], "predictions": []}, "gold: List should have at least 1 item"),
    ("score_predictions", {"gold": [{"id": "a"}], "predictions": []}, "gold.0.sparql: Field required"),
    ("score_predictions", {"gold": "a.jsonl", "predictions": []}, "gold: Input should be a valid list"),
    ("no_such_tool", {}, "Unknown tool: no_such_tool"),
]


@pytest.mark.parametrize("name,args,fragment", BAD_CALLS, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(BAD_CALLS)])
def test_bad_call_is_one_line_tool_error_and_server_stays_up(mcp, name, args, fragment):
    assert_tool_error(mcp.call(name, **args), fragment)
    still = mcp.call("get_constraints", patterns=["POLARITY"])
    assert not still.is_error and still.structured_content["patterns"] == ["POLARITY"]


UPDATES = ["INSERT DATA { <http://a> <http://b> <http://c> }", "DELETE DATA { <http://a> <http://b> <http://c> }",
           "DELETE WHERE { ?s ?p ?o }", "LOAD <http://127.0.0.1:9/data.ttl>", "CLEAR ALL", "DROP GRAPH <http://liita.it/data>",
           "CREATE GRAPH <http://x.example/g>", "ADD DEFAULT TO <http://x.example/g>", "MOVE DEFAULT TO <http://x.example/g>",
           "COPY DEFAULT TO <http://x.example/g>",
           "PREFIX lila: <http://lila-erc.eu/ontologies/lila/> WITH <http://liita.it/data> DELETE { ?l a lila:Lemma } "
           "WHERE { ?l a lila:Lemma }"]


@pytest.mark.parametrize("update", UPDATES, ids=[u.split()[0] if not u.startswith("PREFIX") else "WITH" for u in UPDATES])
def test_every_update_form_is_refused_and_the_kb_is_unchanged(mcp, update):
    assert_tool_error(mcp.call("execute_sparql", sparql=update), "SPARQL Update is refused")
    count = mcp.call("execute_sparql", sparql="SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
    assert int(count.structured_content["rows"][0][0]["value"]) > 1000


# -- KB safety -------------------------------------------------------------------------------------
def test_row_cap_is_stated(mcp):
    out = mcp.call("execute_sparql", sparql="SELECT * WHERE { ?s ?p ?o }", limit=7).structured_content
    assert len(out["rows"]) == 7 and out["truncated"] is True and out["row_cap"] == 7
    whole = mcp.call("execute_sparql", sparql="SELECT ?e WHERE { ?e a elita:Emotion }", limit=MAX_ROWS)
    assert whole.structured_content["truncated"] is False


def test_time_budget_stops_a_runaway_query(mcp):
    start = time.monotonic()
    result = mcp.call("execute_sparql", sparql=SLOW_QUERY, timeout=1)
    assert_tool_error(result, "time budget")
    assert time.monotonic() - start < 8
    assert not mcp.call("execute_sparql", sparql="ASK { ?s ?p ?o }").is_error  # the KB still answers


class _Recorder(BaseHTTPRequestHandler):
    hits: list = []

    def do_GET(self):  # noqa: N802 - http.server naming
        self.hits.append(self.path)
        self.send_response(500)
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args):
        pass


def test_service_to_an_unlisted_host_is_refused_and_never_contacted(mcp, llm_server):
    """Written by the client or by the LLM, a SERVICE to an unlisted host never reaches it."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    handler = llm_server.handler
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/sparql"
        query = f"SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}"
        assert_tool_error(mcp.call("execute_sparql", sparql=query), "SERVICE")
        validated = mcp.call("validate_sparql", sparql=query)
        assert not validated.structured_content["ok"]
        llm_server.handler = lambda request: f"```sparql\n{query}\n```"
        translated = mcp.call("translate", question=QUESTION, mode="llm", execute=True)
        assert not translated.is_error, text(translated)
        assert url not in translated.structured_content["sparql"]  # fell back to the offline translation
        time.sleep(0.2)
        assert _Recorder.hits == []
    finally:
        llm_server.handler = handler
        httpd.shutdown()
        httpd.server_close()


# -- resources -------------------------------------------------------------------------------------
def test_every_resource_reads_as_json(mcp):
    docs = {uri: json.loads(mcp.read(uri)) for uri in RESOURCES}
    assert docs["liita://constraints/base"]["prefixes"]["ontolex"] == "http://www.w3.org/ns/lemon/ontolex#"
    assert docs["liita://schema"]["services"]["complit"].startswith("https://")
    assert docs["liita://schema"]["graphs"]["elita"] == "http://w3id.org/elita"
    assert list(docs["liita://patterns"]["patterns"]) == list(LABELS)
    index = docs["liita://ontology/catalog"]
    assert index["terms_total"] == len(index["terms"]) > 100
    assert any(t.startswith("lexinfo:hypernym (property; complit): hypernym / iperonimo") for t in index["terms"])
    config = docs["liita://config"]
    assert config["kb"]["kb"] == "sample"
    assert config["limits"] == {"timeout_s": TIMEOUT, "max_rows": MAX_ROWS}
    assert config["llm"]["configured"] and config["llm"]["model"] == "fake-model"
    assert config["llm"]["base_url"].startswith("http://127.0.0.1:")


def test_no_resource_is_too_large_for_a_model(mcp):
    sizes = {uri: len(mcp.read(uri)) for uri in RESOURCES}
    sizes |= {f"liita://patterns/{label}": len(mcp.read(f"liita://patterns/{label}")) for label in LABELS}
    sizes["liita://ontology/term/lexinfo:hypernym"] = len(mcp.read("liita://ontology/term/lexinfo:hypernym"))
    assert max(sizes.values()) < 50_000, max(sizes.items(), key=lambda kv: kv[1])


def test_resource_templates_read_one_term_and_one_pattern(mcp):
    templates = mcp.portal.call(mcp.client.list_resource_templates).resource_templates
    assert {t.uri_template for t in templates} == TEMPLATES
    assert all(t.description and "\n    " not in t.description for t in templates)
    term = json.loads(mcp.read("liita://ontology/term/lexinfo:hypernym"))
    assert term["inverse"] == "lexinfo:hyponym" and any("LiITA direction" in n for n in term["notes"])
    pattern = json.loads(mcp.read("liita://patterns/EMOTION_LEXICON"))
    assert pattern["label"] == "EMOTION_LEXICON" and "elita:HasEmotion" in pattern["example"]["sparql"]
    with pytest.raises(Exception, match="did you mean lexinfo:hypernym"):
        mcp.read("liita://ontology/term/lexinfo:hypernim")
    with pytest.raises(Exception, match="unknown pattern 'NOPE'"):
        mcp.read("liita://patterns/NOPE")


def test_prompts_for_the_common_tasks(mcp):
    prompts = {p.name: p for p in mcp.portal.call(mcp.client.list_prompts).prompts}
    assert set(prompts) == {"ask_liita", "check_query", "build_dataset"}
    assert all(p.description and "\n    " not in p.description for p in prompts.values())
    asked = mcp.portal.call(mcp.client.get_prompt, "ask_liita", {"question": QUESTION})
    assert QUESTION in asked.messages[0].content.text and "translate" in asked.messages[0].content.text
    checked = mcp.portal.call(mcp.client.get_prompt, "check_query", {"sparql": EMOTION_QUERY})
    assert EMOTION_QUERY in checked.messages[0].content.text and "validate_sparql" in checked.messages[0].content.text
    built = mcp.portal.call(mcp.client.get_prompt, "build_dataset", {"target": "5", "patterns": "TRANSLATION"})
    assert "target=5" in built.messages[0].content.text and "'TRANSLATION'" in built.messages[0].content.text


def test_descriptions_carry_no_source_indentation(mcp):
    tools = mcp.portal.call(mcp.client.list_tools).tools
    resources = mcp.portal.call(mcp.client.list_resources).resources
    for described in [*tools, *resources]:
        assert "\n    " not in described.description, described.name


def test_translate_says_when_a_question_is_not_about_liita(mcp):
    result = mcp.call("translate", question="Che tempo fa a Roma domani?", execute=True)
    assert not result.is_error, text(result)
    out = result.structured_content
    assert out["off_topic"].startswith("not a question about LiITA") and out["sparql"] == "" and out["rows"] is None


def test_no_secret_in_config_or_listings(mcp):
    assert SECRET not in mcp.read("liita://config")
    listed = mcp.portal.call(mcp.client.list_tools).model_dump_json()
    assert SECRET not in listed
    assert SECRET not in mcp.log.read_text()


# -- concurrency -----------------------------------------------------------------------------------
def test_eight_concurrent_calls(mcp):
    calls = [("execute_sparql", {"sparql": EMOTION_QUERY}), ("translate", {"question": QUESTION}),
             ("validate_sparql", {"sparql": EMOTION_QUERY}), ("infer_patterns", {"question": QUESTION}),
             ("execute_sparql", {"sparql": "SELECT ?e WHERE { ?e a elita:Emotion } ORDER BY ?e"}),
             ("translate", {"question": "Which verbs express joy?"}), ("get_constraints", {}),
             ("check_variable_reuse", {"sparql": EMOTION_QUERY})]
    started = time.monotonic()
    results = gather(mcp.portal, mcp.client, calls)
    assert all(not r.is_error for r in results), [text(r) for r in results if r.is_error]
    serial = mcp.call("execute_sparql", sparql=EMOTION_QUERY).structured_content["rows"]
    assert results[0].structured_content["rows"] == serial and len(serial) > 10
    assert results[1].structured_content["sparql"] == mcp.call("translate", question=QUESTION).structured_content["sparql"]
    assert time.monotonic() - started < 60
