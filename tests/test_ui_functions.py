"""The web UI's handlers called directly (no server, no browser): what each tab shows, and every error as a message."""

from __future__ import annotations

import csv
import html
import json
import logging
import re
import time
from pathlib import Path

import pytest

from nl2sparql import api
from nl2sparql.ui import Context
from nl2sparql.ui import agent_tab, analyze_tab, execute_tab, fix_tab, generate_tab, ontology_tab, retrieve_tab
from nl2sparql.ui import score_tab, translate_tab
from nl2sparql.ui.context import GENERIC_ERROR
from nl2sparql.ui.render import MAX_SHOWN, NO_RESULTS, highlight_html, message

from ui_helpers import scripted_agent

FEAR_NOUNS = "Quali sostantivi esprimono paura?"
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
UPDATES = [
    'INSERT DATA { <http://example.org/a> <http://example.org/b> "c" }',
    "DELETE WHERE { ?s ?p ?o }",
    "DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL",
    "DROP GRAPH <http://w3id.org/elita>",
    "CREATE GRAPH <http://example.org/g>",
    "COPY DEFAULT TO <http://example.org/g>",
]


@pytest.fixture(scope="module")
def ctx(tmp_path_factory):
    """The app's context on the embedded sample, writing into a temporary folder."""
    context = Context(kb=api.KBChoice(), workdir=tmp_path_factory.mktemp("ui-work"))
    yield context
    context.cleanup()


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment or ""))


def assert_error(status: str, *words: str) -> str:
    """The status is an error box with one line (no traceback) containing ``words``."""
    assert 'class="nl2s-msg nl2s-error"' in status
    line = text_of(status)
    assert "Traceback" not in line and "\n" not in line.strip()
    for word in words:
        assert word in line, line
    return line


# -- Translate -------------------------------------------------------------------------------------------------
def test_translate_shows_sparql_patterns_slots_checks_and_rows(ctx):
    (status, sparql, patterns, slots, checks, caption, table, csv_path, json_path,
     similar) = translate_tab.translate(ctx, FEAR_NOUNS)
    assert "Translated in" in text_of(status) and "nl2s-ok" in status
    assert "elita:HasEmotion" in sparql and "elita:Paura" in sparql
    assert list(patterns["pattern"]) == ["EMOTION_LEXICON", "POS_FILTER"]
    assert "Paura" in text_of(slots) and "noun" in text_of(slots) and "How the query was built" in text_of(slots)
    assert "No LiITA rule is broken" in text_of(checks)
    assert list(table.columns) == ["?wr"] and "angoscia" in set(table["?wr"])
    assert re.search(r"\d+ rows in", text_of(caption))
    with open(csv_path, encoding="utf-8") as fh:
        written = list(csv.reader(fh))
    assert written[0] == ["wr"] and len(written) - 1 == len(table)
    bindings = json.loads(Path(json_path).read_text(encoding="utf-8"))["results"]["bindings"]
    assert {b["wr"]["value"] for b in bindings} == set(table["?wr"])
    assert len(similar) >= 1 and list(similar.columns) == translate_tab.SIMILAR_COLUMNS


def test_translate_in_english_gives_the_same_rows(ctx):
    it_rows = translate_tab.translate(ctx, FEAR_NOUNS)[6]
    en_rows = translate_tab.translate(ctx, "Which nouns express fear?")[6]
    assert set(en_rows["?wr"]) == set(it_rows["?wr"])


def test_translate_empty_question_is_a_message_and_clears_the_page(ctx):
    outputs = translate_tab.translate(ctx, "   ")
    assert_error(outputs[0], "the question is empty")
    assert outputs[1] == "" and list(outputs[6].columns) == list(NO_RESULTS.columns) and outputs[7] is None


def test_an_unexpected_error_is_generic_in_the_page_and_logged_in_full(ctx, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("internal detail /srv/secret")
    monkeypatch.setattr(api, "translate", broken)
    with caplog.at_level(logging.ERROR, logger="nl2sparql.ui"):
        status = translate_tab.translate(ctx, FEAR_NOUNS)[0]
    line = assert_error(status)
    assert GENERIC_ERROR in line and "secret" not in line
    logged = [r for r in caplog.records if r.name == "nl2sparql.ui"]
    assert logged and logged[0].exc_info and "internal detail" in str(logged[0].exc_info[1])


def test_translate_with_the_llm_when_the_app_has_one(ctx, fake_llm, tmp_path, monkeypatch):
    from llm_fake_server import FAKE_MODEL
    answer = ("```sparql\nSELECT DISTINCT ?lemma ?wr WHERE { ?lemma a lila:Lemma ; lila:hasPOS lila:noun ; "
              "ontolex:writtenRep ?wr . ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura . } "
              "ORDER BY ?wr\n```")
    fake_llm.enqueue(answer)
    for key, value in fake_llm.env(tmp_path).items():
        monkeypatch.setenv(key, value)
    with_llm = Context(kb=ctx.kb, llm=api.llm_config(model=FAKE_MODEL), workdir=tmp_path / "work")
    status, sparql, *_, table, _, _, _ = translate_tab.translate(with_llm, FEAR_NOUNS, "llm")
    assert "(llm, llm," in text_of(status) and fake_llm.request_count == 1
    assert "elita:Paura" in sparql and "angoscia" in set(table["?wr"])
    assert_error(translate_tab.translate(ctx, FEAR_NOUNS, "llm")[0], "LLM translator is off")
    assert fake_llm.request_count == 1, "an app started without --llm never calls an LLM"


def test_check_an_edited_query(ctx):
    status, issues = translate_tab.check(ctx, "SELECT ?s WHERE { ?s lexinfo:hypernym ?o }")
    assert "nl2s-msg" in status and "hypernym" in text_of(issues).lower()
    status, _ = translate_tab.check(ctx, "")
    assert_error(status, "the query is empty")


# -- Execute -----------------------------------------------------------------------------------------------------
def test_execute_an_edited_query_with_downloads(ctx):
    status, caption, table, csv_path, json_path = execute_tab.run_query(ctx, execute_tab.EXAMPLES[1][0])
    assert status == "" and len(table) == 20 and list(table.columns) == ["?wr"]
    edited = execute_tab.EXAMPLES[1][0].replace("LIMIT 20", "LIMIT 5")
    _, caption, table, csv_path, _ = execute_tab.run_query(ctx, edited)
    assert len(table) == 5 and "5 rows" in text_of(caption)
    assert Path(csv_path).read_text(encoding="utf-8").splitlines()[1:] == list(table["?wr"])


def test_execute_ask_and_row_cap(ctx):
    _, caption, table, _, _ = execute_tab.run_query(ctx, execute_tab.EXAMPLES[3][0])
    assert list(table["answer"]) == ["yes"] and "ASK answer: yes" in text_of(caption)
    _, caption, table, _, _ = execute_tab.run_query(ctx, "SELECT ?l WHERE { ?l a lila:Lemma }", 3)
    assert len(table) == 3 and "row cap (3 rows)" in text_of(caption)
    assert_error(execute_tab.run_query(ctx, "SELECT ?l WHERE { ?l a lila:Lemma }", -1)[0], "row cap")


def test_the_page_never_runs_an_update(ctx):
    before = api.execute(COUNT_ALL, kb=ctx.kb).values()
    for update in UPDATES:
        status, _, table, csv_path, _ = execute_tab.run_query(ctx, update)
        assert_error(status, "Update is refused")
        assert csv_path is None and list(table.columns) == list(NO_RESULTS.columns)
    assert api.execute(COUNT_ALL, kb=ctx.kb).values() == before


def test_syntax_errors_are_one_line_and_user_text_is_escaped(ctx):
    status = execute_tab.run_query(ctx, "SELECT <script>alert(1)</script> WHERE {")[0]
    assert_error(status)
    assert "<script>" not in status
    assert "&lt;b&gt;" in message("error", "<b>x</b>")


def test_long_answers_are_cut_in_the_page_not_in_the_downloads(ctx):
    _, caption, table, csv_path, _ = execute_tab.run_query(ctx, "SELECT ?l ?wr WHERE { ?l ontolex:writtenRep ?wr }")
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert len(table) == MAX_SHOWN < len(lines) - 1
    assert f"first {MAX_SHOWN}" in text_of(caption)


# -- Analyze, Retrieve, Fix ----------------------------------------------------------------------------------------
def test_analyze(ctx):
    status, summary, patterns, slots = analyze_tab.analyze(ctx, "Quali sono gli iperonimi di «cane»?")
    assert "nl2s-ok" in status
    assert "Italian" in text_of(summary) and "Readings" in text_of(summary) and "cane" in text_of(summary)
    assert "SEMANTIC_RELATION" in set(patterns["pattern"])
    assert "cane" in text_of(slots)
    assert_error(analyze_tab.analyze(ctx, "")[0], "empty")


def test_retrieve(ctx):
    status, table, queries = retrieve_tab.retrieve(ctx, "sinonimi di paura", 3)
    assert len(table) == 3 == len(queries) and all("SELECT" in q.upper() for q in queries)
    assert list(table["rank"]) == ["1", "2", "3"]
    _, table, queries = retrieve_tab.retrieve(ctx, "sinonimi di paura", 2, "handwritten")
    assert all(i.startswith("hw-") for i in table["id"])
    assert_error(retrieve_tab.retrieve(ctx, "paura", 3, "no-such-pool")[0], "no-such-pool")


def test_fix_shows_before_after_and_fixes(ctx):
    status, before, after, fixes, left = fix_tab.fix(ctx, fix_tab.EXAMPLES[2][0])
    assert "3 fixes applied" in text_of(status)
    assert "COUNT(?lemma) AS ?n" in text_of(before) and "(COUNT(?lemma) AS ?n)" in text_of(after)
    assert "GROUP BY ?pos" in text_of(after) and "added PREFIX lila:" in text_of(fixes)
    assert "No LiITA rule is broken" in text_of(left)
    status, before, after, fixes, _ = fix_tab.fix(ctx, "PREFIX elita: <http://w3id.org/elita/>\n"
                                                    "SELECT ?e WHERE { ?e a elita:Emotion }", True)
    assert "Nothing to fix" in text_of(status) and text_of(before) == text_of(after)
    status, *_ = fix_tab.fix(ctx, "DROP ALL")
    assert "SPARQL Update is refused" in text_of(status) and "nl2s-error" in status


def test_highlighting_keeps_the_query_and_escapes_it():
    query = ('PREFIX elita: <http://w3id.org/elita/>\n# emotions\n'
             'SELECT ?e WHERE { ?e a elita:Emotion ; rdfs:label "x"@it }')
    shown = highlight_html(query)
    assert text_of(shown) == query
    assert '<span class="sq-keyword">SELECT</span>' in shown and '<span class="sq-var">?e</span>' in shown
    assert '<span class="sq-iri">&lt;http://w3id.org/elita/&gt;</span>' in shown
    assert '<span class="sq-comment"># emotions</span>' in shown and '<span class="sq-langtag">@it</span>' in shown


# -- Search ontology and Agent: both stand on API functions other branches add -----------------------------------------
def test_ontology_search_without_the_api_function_says_so(ctx, monkeypatch):
    monkeypatch.delattr(api, "search_ontology", raising=False)
    status, table, hits, entry = ontology_tab.search(ctx, "emozione", 5)
    assert_error(status, "not available in this build")


def test_ontology_search_shows_labels_and_meanings_as_text(ctx):
    status, table, hits, entry = ontology_tab.search(ctx, "termine più generale", 3)
    assert "3 match(es)" in text_of(status)
    assert list(table.columns) == ontology_tab.COLUMNS
    first = list(table.iloc[0])
    assert first[1] == "lexinfo:hypernym" and first[2] == "hypernym / iperonimo" and first[3] == "property"
    assert not any("{" in cell for cell in table.to_numpy().ravel()), "no raw JSON in the table"
    shown = text_of(entry)
    assert shown.startswith("lexinfo:hypernym · hypernym / iperonimo") and "LiITA direction" in shown
    assert "inverse" in shown and "SERVICE" in shown and "{" in shown  # the usage query has braces, nothing else


def test_the_agent_trace_grows_step_by_step(ctx):
    updates = list(agent_tab.follow(scripted_agent("Quali emozioni?", ctx.kb)))
    traces = [u[1] for u in updates]
    assert [t.count('class="nl2s-step"') for t in traces] == [0, 1, 2, 3, 3]
    assert re.findall(r'data-node="(\w+)"', traces[-1]) == ["plan", "generate", "execute"]
    status, trace, sparql, caption, table = updates[-1]
    assert "finished in 3 step(s)" in text_of(status)
    assert "elita:Emotion" in text_of(sparql) and len(table) == 9 and "9 rows" in text_of(caption)
    assert "&lt;b&gt;done&lt;/b&gt;" in trace


def test_the_agent_tab_shows_a_real_run_answer_first_with_each_steps_own_time(ctx):
    updates = list(agent_tab.run_agent(ctx, "Qual è la definizione di «bassotto»?"))
    status, trace, sparql, caption, table = updates[-1]
    assert 'nl2s-ok' in status and "verified answer" in text_of(status)
    times = re.findall(r'class="nl2s-step-time">([\d.]+) ms<', trace)
    assert len(times) == trace.count('class="nl2s-step"') >= 5
    assert "\\n" not in trace and "<details" in trace  # folded details, real line breaks
    assert "bassotto" in text_of(sparql) and len(table) == 1


def test_a_run_without_a_useful_answer_is_not_a_green_done(ctx):
    status, *_ = list(agent_tab.run_agent(ctx, "Che tempo fa a Roma domani?"))[-1]
    assert "nl2s-warn" in status and "not a question about LiITA" in text_of(status)
    steps = [api.AgentStep("output", {}, {"final": {"verdict": "empty", "reason": "the query returns no rows"},
                                          "trace": [{"node": "output", "ms": 1.0, "summary": "done"}]})]
    status, *_ = list(agent_tab.follow(steps))[-1]
    assert "nl2s-warn" in status and "without a useful answer" in text_of(status)


def test_a_long_agent_step_updates_the_status_every_tick(ctx, monkeypatch):
    monkeypatch.setattr(agent_tab, "TICK", 0.2)  # a second in the app

    def slow():
        yield {"node": "plan", "state": {}}
        time.sleep(0.5)  # e.g. a query that takes a while on the real-scale KB
        yield {"node": "execute", "state": {}}
    statuses = [text_of(u[0]) for u in agent_tab.follow(slow())]
    ticks = [s for s in statuses if s.startswith("Running… 1 step(s) so far, ")]
    assert ticks and ticks[-1].endswith(" s"), statuses  # at least one while the step ran
    assert "finished in 2 step(s)" in statuses[-1]


def test_an_agent_error_keeps_the_trace_and_shows_one_line(ctx):
    def failing():
        yield {"node": "plan", "state": {}}
        raise api.QueryError("the LLM answered an update; refused")
    status, trace, *_ = list(agent_tab.follow(failing()))[-1]
    assert_error(status, "the LLM answered an update")
    assert 'data-node="plan"' in trace


def test_the_agent_tab_says_when_the_agent_is_missing(ctx, monkeypatch):
    monkeypatch.delattr(api, "agent_stream", raising=False)
    assert agent_tab.agent_stream() is None
    (status, *_), = list(agent_tab.run_agent(ctx, "Quali emozioni?"))
    assert_error(status, "not available in this build")


# -- Generate ------------------------------------------------------------------------------------------------------
class Recorder:
    """Stands in for ``gr.Progress``: records each call."""

    def __init__(self):
        self.calls = []

    def __call__(self, value, desc=None):
        self.calls.append((value, desc))


def test_generate_streams_progress_then_counts_coverage_and_the_pool(ctx):
    progress = Recorder()
    updates = list(generate_tab.generate(ctx, 12, 1, [], progress))
    shown = [text_of(u[0]) for u in updates]
    assert "schema sampler" in " ".join(shown) and "pattern composer" in " ".join(shown)
    assert {desc for _, desc in progress.calls} >= {"schema sampler", "pattern composer", "pool writer"}
    status, counts, coverage, table, queries, pool, manifest, generated = updates[-1]
    assert "Kept 12 of the 12" in text_of(status)
    assert list(counts.iloc[0]) == ["kept", "—", "12", "passed every check"]
    assert "over_target" in set(counts["reason"]) or len(counts) == 1
    assert set(coverage["pattern"]) == set(api.pattern_labels()) and coverage["items"].sum() >= 12
    assert len(table) == 12 == len(queries) and generated == pool
    assert len(Path(pool).read_text(encoding="utf-8").splitlines()) == 12
    assert json.loads(Path(manifest).read_text(encoding="utf-8"))["steps"]
    assert Path(pool).is_relative_to(ctx.workdir)


def test_generate_bad_targets_are_messages(ctx):
    for target in (0, -3, generate_tab.MAX_TARGET + 1):
        (status, *rest), = list(generate_tab.generate(ctx, target, 1, []))
        assert_error(status, "between 1 and")


def test_browse_pools(ctx):
    status, _, _ = generate_tab.browse(ctx, generate_tab.GENERATED, None, "")
    assert_error(status, "press Generate first")
    status, table, queries = generate_tab.browse(ctx, "handwritten", None, "nostalgia")
    assert len(table) >= 1 and all("nostalgia" in q.lower() or "nostalgia" in " ".join(r).lower()
                                   for q, r in zip(queries, table.values.tolist()))
    assert list(table.columns) == generate_tab.BROWSE_COLUMNS


# -- Score -----------------------------------------------------------------------------------------------------------
def test_score_the_offline_translator_on_a_shipped_pool(ctx):
    progress = Recorder()
    updates = list(score_tab.score(ctx, "handwritten", None, None, "all", 5, progress))
    status, summary, chart, verdicts, report_md, report_json = updates[-1]
    assert "Scored 5 item(s)" in text_of(status) and "offline translator" in text_of(status)
    assert "strict accuracy" in text_of(summary)
    assert Path(chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(verdicts) == 5 and list(verdicts.columns) == score_tab.VERDICT_COLUMNS
    assert json.loads(Path(report_json).read_text(encoding="utf-8"))["summary"]["n"] == 5
    assert progress.calls and progress.calls[-1][0] == (5, 5)


def test_score_uploaded_gold_and_predictions(ctx, tmp_path):
    gold = api.pool_items("handwritten", limit=3)
    gold_file = tmp_path / "gold.jsonl"
    gold_file.write_text("".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gold), encoding="utf-8")
    pred_file = tmp_path / "pred.jsonl"
    pred_file.write_text(json.dumps({"id": gold[0]["id"], "sparql": gold[0]["sparql"]}) + "\n"
                         + json.dumps({"id": gold[1]["id"], "sparql": "SELECT ?e WHERE { ?e a elita:Emotion }"}) + "\n",
                         encoding="utf-8")
    *_, (status, summary, chart, verdicts, _, _) = score_tab.score(ctx, score_tab.UPLOADED, str(gold_file),
                                                                   str(pred_file))
    assert "uploaded predictions" in text_of(status)
    verdict = dict(zip(verdicts["id"], verdicts["verdict"]))
    assert verdict[gold[0]["id"]] == "✓ same answer"
    assert verdict[gold[1]["id"]].startswith("✗") and verdict[gold[2]["id"]] == "✗ missing"


def test_score_bad_inputs_are_messages(ctx, tmp_path):
    (status, *_), = list(score_tab.score(ctx, score_tab.UPLOADED, None, None))
    assert_error(status, "choose a gold pool file")
    broken = tmp_path / "pred.jsonl"
    broken.write_text('{"id": "hw-001", "sparql": "SELECT * WHERE {}"}\nnot json\n', encoding="utf-8")
    status = list(score_tab.score(ctx, "handwritten", None, str(broken)))[-1][0]
    assert_error(status, "line 2")
    assert_error(list(score_tab.score(ctx, "handwritten", None, None, "all", 0))[-1][0], "at least 1")


# -- Context ---------------------------------------------------------------------------------------------------------
def test_context_folders_are_private_and_removed(tmp_path):
    context = Context(workdir=tmp_path / "work")
    first, second = context.new_dir("rows"), context.new_dir("rows")
    assert first != second and first.parent == second.parent == tmp_path / "work"
    context.cleanup()
    assert not (tmp_path / "work").exists()
