"""Bad input through the web UI (issue 17's UI surface): every case is a message in the page, never a trace.

The cases go through the served app's own HTTP API with ``gradio_client``,
exactly what the page sends. Each one must come back (no client failure),
within a bounded time, with one status line: an error for bad input, a
normal result for odd but valid input. The server keeps answering after all of them.
"""

from __future__ import annotations

import json
import time

import pytest

from nl2sparql import api
from nl2sparql.ui import Context

from ui_helpers import served

pytestmark = pytest.mark.filterwarnings("ignore::Warning:gradio.queueing")

TIME_BUDGET = 3  # seconds per query in this app; a case may take it plus HTTP and drawing
BOUND = 30

UPDATES = [
    'INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }',
    'DELETE DATA { <http://example.org/a> <http://example.org/b> "c" }',
    "DELETE WHERE { ?s ?p ?o }",
    "DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL",
    "DROP ALL",
    "CREATE GRAPH <http://example.org/g>",
    "ADD DEFAULT TO <http://example.org/g>",
    "MOVE DEFAULT TO <http://example.org/g>",
    "COPY DEFAULT TO <http://example.org/g>",
]
INJECTIONS = ['"} . ?s ?p ?o . FILTER("', "l'albero \"grande\"", "back\\slash \\\" quote", "{ } { } ]",
              "riga\nnuova\r\n",
              "😀🇮🇹 paura?", "parola " * 285, "\x00\x07"]

#: (case, endpoint, arguments, expected: "error" + words in the line, or "ok")
CASES = [
    ("empty question", "/translate", ["", "offline"], ("error", "the question is empty")),
    ("blank question", "/translate", ["  \n\t ", "offline"], ("error", "the question is empty")),
    ("llm mode when the app has no LLM", "/translate", ["Quali emozioni?", "llm"], ("error", "LLM translator is off")),
    *[(f"odd question {i}", "/translate", [q, "offline"], ("ok",)) for i, q in enumerate(INJECTIONS)],
    ("empty query", "/execute", ["", 100], ("error", "the query is empty")),
    ("syntax error", "/execute", ["SELECT ?x WHERE { ?x", 100], ("error",)),
    ("1 MB of garbage", "/execute", ["x" * 1_000_000, 100], ("error",)),
    ("1 MB comment before a query", "/execute", ["#" + "x" * 1_000_000 + "\nASK { ?s ?p ?o }", 100], ("ok",)),
    *[(f"update: {u.split()[0]} {u.split()[1]}", "/execute", [u, 100], ("error", "Update is refused"))
      for u in UPDATES],
    ("SERVICE to an unlisted host", "/execute",
     ["SELECT * WHERE { SERVICE <http://203.0.113.9/sparql> { ?s ?p ?o } }", 100], ("error", "SERVICE")),
    ("a query that would run for minutes", "/execute",
     ["SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", 100], ("error", "time budget")),
    ("a huge answer is cut at the row cap", "/execute", ["SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }", 1000],
     ("ok", "row cap (1000 rows)")),
    ("row cap 0", "/execute", ["SELECT * WHERE { ?s ?p ?o }", 0], ("error", "row cap")),
    ("negative row cap", "/execute", ["SELECT * WHERE { ?s ?p ?o }", -5], ("error", "row cap")),
    ("check an empty query", "/check", [""], ("error", "the query is empty")),
    ("fix an empty query", "/fix", ["", False], ("error", "the query is empty")),
    ("fix an update", "/fix", ["DROP ALL", True], ("error", "SPARQL Update is refused")),
    ("analyze nothing", "/analyze", [""], ("error", "empty")),
    ("analyze 10,000 characters", "/analyze", ["parola " * 1430, ], ("error", "at most 2,000 characters")),
    ("translate 11,900 characters", "/translate", ["parola " * 1700, "offline"], ("error", "at most 2,000 characters")),
    ("retrieve nothing", "/retrieve", ["", 5, "all shipped pools"], ("error", "empty")),
    ("generate zero", "/generate", [0, 1, []], ("error", "between 1 and")),
    ("generate a negative target", "/generate", [-4, 1, []], ("error", "between 1 and")),
    ("generate a million", "/generate", [1_000_000, 1, []], ("error", "between 1 and")),
    ("browse before generating", "/browse", ["the pool just generated", ""], ("error", "press Generate first")),
    ("browse with regex characters", "/browse", ["handwritten", "(*[?"], ("info", "0 item(s)")),
    ("score an uploaded gold without a file", "/score", ["an uploaded file", None, None, "all", 5],
     ("error", "choose a gold pool file")),
    ("score with item limit 0", "/score", ["handwritten", None, None, "all", 0], ("error", "at least 1")),
]

#: (case, file name, bytes, expected words) for uploaded prediction files scored against the handwritten pool
UPLOADS = [
    ("malformed line in the middle", "pred.jsonl",
     b'{"id": "hw-001", "sparql": "ASK {}"}\n{"id": "hw-002", "sparql": \n{"id": "hw-003", "sparql": "ASK {}"}\n',
     "line 2"),
    ("binary file", "pred.jsonl", bytes(range(256)) * 8, "pred.jsonl"),
    ("not UTF-8", "pred.jsonl", '{"id": "hw-001", "sparql": "città"}\n'.encode("latin-1"), "UTF-8"),
    ("missing id", "pred.jsonl", b'{"sparql": "ASK {}"}\n', "line 1: missing"),
    ("JSON that is not an object", "pred.jsonl", b'["hw-001", "ASK {}"]\n', "line 1"),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The app (3 s time budget per query) served on 127.0.0.1, and a client for it."""
    from gradio_client import Client

    ctx = Context(kb=api.KBChoice(timeout=TIME_BUDGET), workdir=tmp_path_factory.mktemp("ui-bad"))
    with served(ctx) as url:
        yield Client(url, verbose=False, download_files=str(tmp_path_factory.mktemp("downloads")))
    ctx.cleanup()


def check(status: str, expected: tuple, seconds: float) -> None:
    kind, *words = expected
    assert seconds < BOUND, f"took {seconds:.1f} s"
    assert "Traceback" not in status and 'File "' not in status
    if kind == "ok":
        assert "nl2s-error" not in status, status
    else:
        assert f'class="nl2s-msg nl2s-{kind}"' in status, status
    for word in words:
        assert word in status, status


@pytest.mark.parametrize("case, endpoint, args, expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_a_message(client, case, endpoint, args, expected):
    start = time.monotonic()
    outputs = client.predict(*args, api_name=endpoint)
    status = outputs[0] if isinstance(outputs, (list, tuple)) else outputs
    if expected == ("ok", "row cap (1000 rows)"):
        status = outputs[1]  # the caption says how the answer was cut
    check(status or "", expected, time.monotonic() - start)


@pytest.mark.parametrize("case, name, data, words", UPLOADS, ids=[u[0] for u in UPLOADS])
def test_bad_uploaded_files_are_messages(client, tmp_path, case, name, data, words):
    from gradio_client import handle_file

    path = tmp_path / name
    path.write_bytes(data)
    start = time.monotonic()
    status, *_ = client.predict("handwritten", None, handle_file(str(path)), "all", 5, api_name="/score")
    check(status, ("error", words), time.monotonic() - start)


@pytest.mark.parametrize("data", [b"", b'{"id": "hw-001"}\n'], ids=["empty file", "no sparql field"])
def test_predictions_with_nothing_to_score_are_flagged(client, tmp_path, data):
    from gradio_client import handle_file

    path = tmp_path / "pred.jsonl"
    path.write_bytes(data)
    status, *_ = client.predict("handwritten", None, handle_file(str(path)), "all", 5, api_name="/score")
    check(status, ("warn", "have no prediction in the file"), 0)


def test_the_server_still_answers_after_every_bad_input(client):
    status, sparql, *_ = client.predict("Quali sostantivi esprimono paura?", "offline", api_name="/translate")
    assert "Translated in" in status and "elita:Paura" in sparql
    rows = client.predict("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", 10, api_name="/execute")[2]
    assert int(rows["data"][0][0]) > 0 and json.dumps(rows)
