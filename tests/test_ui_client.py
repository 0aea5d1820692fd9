"""The web UI served on 127.0.0.1 and called through ``gradio_client`` (the app's own HTTP API), and ``nl2sparql ui``.

One app for the module, on the embedded sample; its agent is a scripted
stream (the API's agent is built elsewhere), so streaming is tested over the wire.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from nl2sparql import api
from nl2sparql.ui import Context

from ui_helpers import free_port, scripted_agent, served

# Gradio's queue uses pandas options that pandas 3 deprecates; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::Warning:gradio.queueing")

FEAR_NOUNS = "Quali sostantivi esprimono paura?"
CLI = [sys.executable, "-c", "from nl2sparql.cli.main import app; app()"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """A ``gradio_client.Client`` connected to the app (scripted agent) on a free local port."""
    from gradio_client import Client

    ctx = Context(kb=api.KBChoice(), workdir=tmp_path_factory.mktemp("ui-client"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(api, "agent_stream", scripted_agent, raising=False)
        with served(ctx) as url:
            assert url.startswith("http://127.0.0.1:")
            yield Client(url, verbose=False, download_files=str(tmp_path_factory.mktemp("downloads")))
    ctx.cleanup()


def table(value: dict) -> list[list]:
    """The rows of a Dataframe output."""
    return value["data"]


def test_translate_and_download_through_the_api(client):
    status, sparql, patterns, slots, checks, caption, rows, csv_file, json_file, similar = client.predict(
        FEAR_NOUNS, "offline", api_name="/translate")
    assert "Translated in" in status and "elita:Paura" in sparql
    assert [r[0] for r in table(patterns)] == ["EMOTION_LEXICON", "POS_FILTER"]
    assert rows["headers"] == ["?wr"] and ["angoscia"] in table(rows)
    lines = Path(csv_file).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "wr" and len(lines) - 1 == len(table(rows))
    assert len(json.loads(Path(json_file).read_text(encoding="utf-8"))["results"]["bindings"]) == len(table(rows))


def test_errors_come_back_as_messages_not_failures(client):
    status, sparql, *_ = client.predict("", "offline", api_name="/translate")
    assert 'nl2s-error' in status and "the question is empty" in status and not sparql
    status, *_ = client.predict("SELECT ?x WHERE {", 10, api_name="/execute")
    assert 'nl2s-error' in status and "Traceback" not in status


def test_updates_are_refused_through_the_api(client):
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    before = client.predict(count, 10, api_name="/execute")[2]
    for update in ("CLEAR ALL", 'INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }',
                   "DROP GRAPH <http://w3id.org/elita>"):
        status, caption, rows, csv_file, json_file = client.predict(update, 10, api_name="/execute")
        assert "Update is refused" in status and csv_file is None
    assert table(client.predict(count, 10, api_name="/execute")[2]) == table(before)


def test_fix_and_check_through_the_api(client):
    status, before, after, fixes, left = client.predict(
        'SELECT ?lemma WHERE { ?lemma ontolex:writtenRep "cane" }', False, api_name="/fix")
    assert "2 fixes applied" in status and "added PREFIX ontolex:" in fixes
    assert '<span class="sq-keyword">STR</span>(<span class="sq-var">?wrFix1</span>)' in after
    status, issues = client.predict("SELECT ?s WHERE { ?s lexinfo:hypernym ?o }", api_name="/check")
    assert "hypernym" in issues


def test_generation_streams_progress_then_counts(client):
    job = client.submit(12, 3, [], api_name="/generate")
    status, counts, coverage, rows, pool_file, manifest = job.result(timeout=240)
    assert "Kept 12 of the 12" in status and table(counts)[0] == ["kept", "—", "12", "passed every check"]
    assert len(table(rows)) == 12 and len(Path(pool_file).read_text(encoding="utf-8").splitlines()) == 12
    seen = " ".join(str(out[0]) for out in job.outputs())
    assert "pattern composer" in seen and "pool writer" in seen
    status, rows = client.predict("handwritten", "nostalgia", api_name="/browse")
    assert table(rows) and "nostalgia" in json.dumps(table(rows), ensure_ascii=False)


def test_score_uploaded_files_through_the_api(client, tmp_path):
    from gradio_client import handle_file

    gold = api.pool_items("handwritten", limit=2)
    gold_file, pred_file = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold_file.write_text("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gold), encoding="utf-8")
    pred_file.write_text("".join(json.dumps({"id": g["id"], "sparql": g["sparql"]}) + "\n" for g in gold),
                         encoding="utf-8")
    status, summary, chart, verdicts, report_md, report_json = client.predict(
        "an uploaded file", handle_file(str(gold_file)), handle_file(str(pred_file)), "all", 20, api_name="/score")
    assert "Scored 2 item(s)" in status and "100.0%" in summary
    assert [r[1] for r in table(verdicts)] == ["✓ same answer"] * 2
    assert Path(chart).read_bytes()[:4] == b"\x89PNG" and "scoring report" in Path(report_md).read_text("utf-8")


def test_the_agent_trace_streams_over_the_wire(client):
    job = client.submit("Quali emozioni ci sono?", api_name="/agent")
    final = job.result(timeout=120)
    traces = [out[1] or "" for out in job.outputs()]
    counts = [t.count('class="nl2s-step"') for t in traces]
    assert counts[-1] == 3 and 1 in counts and 2 in counts, counts
    assert "finished in 3 step(s)" in final[0] and "elita:Emotion" in final[2]


# -- the command -------------------------------------------------------------------------------------------------
def _wait_for(url: str, proc: subprocess.Popen, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"nl2sparql ui exited with {proc.returncode}: {proc.stderr.read()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode("utf-8")
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"nothing answered on {url} within {seconds} s")


def test_the_command_serves_the_page_on_127_0_0_1(tmp_path):
    port = free_port()
    proc = subprocess.Popen([*CLI, "ui", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        page = _wait_for(f"http://127.0.0.1:{port}/", proc)
        assert "nl2sparql" in page and "knowledge base: sample" in page
        with socket.socket() as probe:  # the default host is this machine only
            assert probe.connect_ex(("127.0.0.1", port)) == 0
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_command_refuses_a_busy_port_and_a_missing_store(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([*CLI, "ui", "--port", str(port)],
                              capture_output=True, text=True, timeout=180)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot serve on 127.0.0.1:{port}" in done.stderr
    done = subprocess.run([*CLI, "ui", "--store", str(tmp_path / "none")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "no Oxigraph store" in done.stderr and "Traceback" not in done.stderr
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("NL2SPARQL_LLM", "OPENAI_"))}
    done = subprocess.run([*CLI, "ui", "--llm"], capture_output=True, text=True, timeout=120,
                          env={**bare, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert done.returncode == 2 and "no LLM configured" in done.stderr and "Traceback" not in done.stderr
