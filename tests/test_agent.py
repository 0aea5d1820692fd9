"""The agent graph on the embedded sample: every routing decision, the offline path, streaming, checkpoints.

Routing tests script the candidates (:class:`ScriptedTranslator`) so each path is taken on
purpose; every query still runs on the real sample through ``api.execute``.
"""

from __future__ import annotations

import json

import pytest
from langgraph.errors import GraphRecursionError

from nl2sparql import api, service
from nl2sparql.agent import AgentContext, Run, recursion_limit, sqlite_checkpointer
from nl2sparql.agent.testing import Interrupted, InterruptingKB, ScriptedTranslator
from nl2sparql.errors import ConfigError, DataError

PROLOGUE = ("PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX elita: <http://w3id.org/elita/>\n"
            "PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\n")
FEAR = PROLOGUE + ("SELECT DISTINCT ?wr WHERE {\n  ?e ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura .\n"
                   "  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n}\n")
JOY = FEAR.replace("elita:Paura", "elita:Gioia")
#: The words (lemmas and hypolemmas of the Lemma Bank, each by its own written form) a question about "parole" asks
#: for (README, "Words and lemmas"; issue 26): the catalogue's answer, counted by a query written by hand.
WORDS = ("  ?lemma (<http://purl.org/dc/terms/isPartOf>|lila:isHypolemma/<http://purl.org/dc/terms/isPartOf>) "
         "<http://liita.it/data/id/lemma/LemmaBank> ;\n    ontolex:writtenRep ?wr ; "
         "<http://www.w3.org/2000/01/rdf-schema#label> ?label . FILTER(STR(?wr) = STR(?label))\n")
FEAR_WORDS, JOY_WORDS = (q.replace("  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n", WORDS) for q in (FEAR, JOY))
NOTHING = FEAR.replace("WHERE {", 'WHERE {\n  VALUES ?wr { "qwzx"@it }')
# the scripted queries all use what the question names (the emotion Paura), so none is passed over unrun
BROKEN = PROLOGUE + "SELECT ?x WHERE { ?x elita:HasEmotion elita:Paura ?y }"
BROKEN_TOO = PROLOGUE + "SELECT ?x WHERE { ?x elita:HasEmotion elita:Paura ; ontolex:writtenRep }"
QUESTION = "Quali parole esprimono paura?"
#: A question whose first query finds nothing: «scantu» is a Sicilian word, which the agent explores to (the concept
#: model maps it to some Italian lemma, without any Sicilian translation in the sample).
EXPLORED = "What is the Italian for the Sicilian word 'scantu'?"
#: «spaventato» is a hypolemma: the concept model reads it as its verb, the reader alone does not.
HYPOLEMMA = "Quali emozioni esprime «spaventato»?"


def run(kb, queries, question=QUESTION, **settings) -> dict:
    ctx = AgentContext(kb=kb, translator=ScriptedTranslator(queries), **settings)
    return Run(question, ctx).invoke()


def unmapped(kb, question) -> dict:
    """A run whose reader takes every word as written (no concept model)."""
    return Run(question, AgentContext(kb=kb)).invoke()


def nodes(state) -> list[str]:
    return [t["node"] for t in state["trace"]]


def count(kb, query) -> int:
    return api.execute(query, kb=kb).count


# -- routing -------------------------------------------------------------------------------------------
def test_valid_answer_goes_straight_to_output(sample_kb):
    state = run(sample_kb, [FEAR, JOY])
    assert nodes(state) == ["analyze", "plan", "retrieve", "generate", "execute", "verify", "output"]
    assert [a["verdict"] for a in state["attempts"]] == ["ok"]
    final = state["final"]
    assert final["attempt"] == 1 and not final["fallback"] and final["confidence"] > 0.5
    assert final["rows"]["rows"] and len(final["rows"]["rows"]) == count(sample_kb, FEAR)


def test_error_goes_to_refine_then_retrieve(sample_kb):
    state = run(sample_kb, [BROKEN, FEAR])
    trail = nodes(state)
    i = trail.index("refine")
    assert trail[i - 1] == "verify" and trail[i + 1:i + 3] == ["retrieve", "generate"]
    first = state["attempts"][0]
    assert first["verdict"] == "error" and "parse" in first["error"]
    assert first["runs"][0]["error"] and first["runs"][0]["rows"] is None
    assert state["refinements"][0]["node"] == "refine" and state["refinements"][0]["reason"] == "error"
    assert state["final"]["attempt"] == 2 and state["final"]["verdict"] == "ok"


def test_empty_answer_goes_to_explore_then_generate(sample_kb):
    state = run(sample_kb, [NOTHING, FEAR])
    trail = nodes(state)
    i = trail.index("explore")
    assert trail[i - 1] == "verify" and trail[i + 1] == "generate"
    assert state["attempts"][0]["verdict"] == "empty"
    # every fix execute tries on an empty answer is a query of its own, with its row count
    assert [r["fix"] for r in state["attempts"][0]["runs"]][:2] == [None, "case-insensitive strings"]
    assert all(r["rows"] == 0 for r in state["attempts"][0]["runs"])
    assert state["refinements"][0]["node"] == "explore"
    assert state["final"]["attempt"] == 2


def test_attempts_exhausted_fall_back_to_the_first_valid_query(sample_kb):
    state = run(sample_kb, [BROKEN, NOTHING, BROKEN_TOO, FEAR])
    assert [a["verdict"] for a in state["attempts"]] == ["error", "empty", "error"]
    final = state["final"]
    assert final["fallback"] and final["attempt"] == 2 and final["sparql"] == state["attempts"][1]["sparql"]
    assert final["confidence"] < 0.3
    assert "3/3" in state["trace"][-2]["summary"]  # verify says the attempts are used up
    assert nodes(state)[-1] == "output" and FEAR not in [a["sparql"] for a in state["attempts"]]


def test_nothing_left_to_try_goes_from_generate_to_output(sample_kb):
    state = run(sample_kb, [NOTHING])
    assert nodes(state)[-2:] == ["generate", "output"]
    assert "nothing left to try" in state["trace"][-2]["summary"]
    assert state["final"]["fallback"] and state["final"]["attempt"] == 1


def test_off_shape_answer_is_refined_then_the_next_candidate_tried(sample_kb):
    how_many = PROLOGUE + ("SELECT (COUNT(DISTINCT ?lemma) AS ?n) WHERE {\n  ?e ontolex:canonicalForm ?lemma ; "
                           "elita:HasEmotion elita:Paura .\n}\n")
    state = run(sample_kb, [how_many, FEAR])
    first, second = state["attempts"]
    assert first["verdict"] == "mismatch" and "one number" in first["problems"][0]
    assert second["verdict"] == "ok" and second["sparql"] == FEAR
    assert state["refinements"][0]["node"] == "refine" and state["refinements"][0]["reason"] == "mismatch"


def test_a_yes_no_question_gets_an_ask(sample_kb):
    state = run(sample_kb, [FEAR], question="Ci sono parole che esprimono paura?")
    attempt = state["attempts"][0]
    assert attempt["form"] == "ask" and attempt["boolean"] is True and attempt["verdict"] == "ok"


def test_variable_reuse_is_refused_before_running(sample_kb):
    reuse = PROLOGUE + ('SELECT ?lemma WHERE {\n  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n'
                        '  FILTER(STR(?lemma) = "casa")\n'
                        '  ?x ontolex:writtenRep ?lemma ; elita:HasEmotion elita:Paura .\n}\n')
    state = run(sample_kb, [reuse, FEAR])
    first = state["attempts"][0]
    assert first["verdict"] == "error" and "iri_literal" in first["error"]
    assert first["runs"][0]["ms"] == 0.0  # never sent to the KB
    assert state["final"]["attempt"] == 2


def test_the_recursion_limit_is_explicit_and_enforced(sample_kb):
    r = Run(QUESTION, AgentContext(kb=sample_kb, translator=ScriptedTranslator([FEAR])))
    assert r.config["recursion_limit"] == recursion_limit(3) == 21
    r.config["recursion_limit"] = 4
    with pytest.raises(GraphRecursionError):
        r.invoke()


# -- the real offline path -------------------------------------------------------------------------------
def test_offline_first_candidate_answers_with_written_forms(sample_kb):
    result = api.agent(QUESTION, kb=sample_kb)
    assert len(result.attempts) == 1 and result.final["source"] == "catalogue"
    assert result.rows.variables == ["wr"] and result.rows.count == count(sample_kb, FEAR_WORDS)
    # the plan's sub-tasks reach the generator: candidates are ranked and marked by what they cover
    assert [t["pattern"] for t in result.plan["subtasks"]] == ["EMOTION_LEXICON", None]
    assert result.final["verified"] and result.confidence >= 0.8
    assert [q["attempt"] for q in result.queries] == [1]
    assert {t["node"] for t in result.trace} == {"analyze", "plan", "retrieve", "generate", "execute", "verify",
                                                 "output"}
    json.dumps(result.to_dict())


def test_a_word_only_compl_it_has_is_answered_from_compl_it_at_once(sample_kb):
    result = api.agent("Qual è la definizione di «bassotto»?", kb=sample_kb)
    assert [a["verdict"] for a in result.attempts] == ["ok"] and result.final["source"] == "catalogue"
    assert result.rows.count == 1 and "dcterms:isPartOf" not in result.sparql


def test_a_word_only_the_hypolemmas_have_is_found_at_once(sample_kb):
    """«spaventato» is a hypolemma, a word (issue 26): the catalogue's reading finds it, nothing to explore."""
    state = unmapped(sample_kb, HYPOLEMMA)
    assert not state["exploration"] and [a["verdict"] for a in state["attempts"]] == ["ok"]
    assert state["final"]["source"] == "catalogue" and len(state["final"]["rows"]["rows"]) == 1
    # the concept model reads the hypolemma as its verb: the same answer, at the first attempt
    mapped = api.agent(HYPOLEMMA, kb=sample_kb)
    assert mapped.final["verified"] and mapped.rows.values() == api.Rows(**state["final"]["rows"]).values()


def test_offline_explore_reads_a_dialect_word_as_a_translation(sample_kb):
    result = api.agent(EXPLORED, kb=sample_kb)
    assert result.final["source"] == "explore:dialect" and result.final["verified"]
    assert result.rows.values() and all(v[0] for v in result.rows.values())
    gold = PROLOGUE + ("PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>\nSELECT DISTINCT ?wr WHERE {\n"
                       '  ?d ontolex:writtenRep "scantu"@scn . ?de ontolex:canonicalForm ?d .\n'
                       "  ?it vartrans:translatableAs ?de ; ontolex:canonicalForm ?l . ?l ontolex:writtenRep ?wr .\n}")
    assert sorted(result.rows.values()) == sorted(api.execute(gold, kb=sample_kb).values())


def test_offline_explore_finds_the_spelling_the_kb_has(sample_kb):
    accented = next(r["lemma"] for r in _sample_table("lemmas.tsv") if r["lemma"].endswith("à")
                    and r["lemma"] in {w["word"] for w in _sample_table("complit_words.tsv")})
    result = api.agent(f"Qual è la definizione di «{accented[:-1]}a»?", kb=sample_kb)
    probe = next(f for f in result.exploration if f["kind"] == "word")
    assert f"spelled '{accented}'" in probe["summary"]
    assert result.final["source"] == "explore:spelling" and f'"{accented}"@it' in result.sparql
    assert result.rows.count == sum(r["word"] == accented for r in _sample_table("complit_senses.tsv"))


def test_without_the_ontology_search_explore_relies_on_its_probes(sample_kb, monkeypatch):
    from nl2sparql.errors import DataError as Broken

    def broken(*args, **kw):
        raise Broken("the ontology index is missing")

    monkeypatch.setattr(service, "search_ontology", broken)  # what the agent calls
    result = api.agent(EXPLORED, kb=sample_kb)
    assert "the ontology index is missing" in result.analysis["schema_note"]
    ontology = next(f for f in result.exploration if f["kind"] == "ontology")
    assert ontology["available"] is False and "missing" in ontology["summary"]
    assert result.final["source"] == "explore:dialect"


def test_explore_records_what_it_did_not_find(sample_kb):
    result = api.agent("Qual è la definizione di «qwzxk»?", kb=sample_kb)
    probe = next(f for f in result.exploration if f["kind"] == "word" and f["word"] == "qwzxk")
    assert probe["found"] is False and "nowhere" in probe["summary"]
    record = next(r for r in result.refinements if r["node"] == "explore")
    assert not any(q["source"].startswith("explore:") for q in result.attempts)
    assert result.final["fallback"] and not result.final["verified"] and result.confidence < 0.3
    assert result.final["reason"].startswith("no reading could be verified") and "1. catalogue: empty" in \
        result.final["reason"] and record["problems"] == ["the query returns no rows"]


def _sample_table(name: str) -> list[dict]:
    import csv
    from nl2sparql.paths import data_dir
    with open(data_dir() / "sample" / "source" / name, encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_verify_finds_the_relation_the_ontology_names_and_the_query_left_out(sample_kb):
    used_for = {r["subject"]: r["object"] for r in _sample_table("complit_relations.tsv")
                if r["relation"] == "complit:usedFor"}
    tool = next(w for w in used_for if "#" not in w and w not in ("coltello", "chiave"))
    result = api.agent(f"A cosa serve la «{tool}»?", kb=sample_kb)
    first, second = result.attempts
    assert first["verdict"] == "mismatch" and any("complit:usedFor" in p for p in first["problems"])
    assert second["source"] == "relation" and "compl-it#usedFor>" in result.sparql
    assert result.rows.values() == [[used_for[tool]]] and result.rows.variables == ["related"]
    assert result.refinements[0]["actions"][0].startswith("queued relation")


def test_a_quoted_vocabulary_value_asked_as_words_lists_the_words(sample_kb):
    result = api.agent("Quali parole hanno l'emozione «gioia»?", kb=sample_kb)
    assert result.final["source"] == "catalogue" and len(result.attempts) == 1 and result.final["verified"]
    assert result.rows.count == count(sample_kb, JOY_WORDS)


def test_columns_that_only_echo_a_condition_are_dropped_unless_asked_for(sample_kb):
    plain = api.agent("Quali parole esprimono gioia e hanno polarità positiva?", kb=sample_kb)
    assert plain.rows.variables == ["wr"]  # no column that only echoes the condition, whoever drops it
    shown = api.agent("Quali parole esprimono gioia e hanno polarità positiva? Mostra anche il punteggio.",
                      kb=sample_kb)
    assert shown.rows.variables == ["wr", "polarity"] and shown.rows.count == plain.rows.count


def test_bad_input_is_one_clear_error(sample_kb):
    with pytest.raises(DataError, match="empty"):
        api.agent("  ", kb=sample_kb)
    with pytest.raises(ConfigError, match="checkpoint"):
        api.agent(QUESTION, kb=sample_kb, thread="t")
    with pytest.raises(ConfigError, match="mode"):
        api.agent(QUESTION, kb=sample_kb, mode="magic")


# -- streaming --------------------------------------------------------------------------------------------
def test_stream_gives_every_node_with_the_whole_history(sample_kb):
    steps = list(api.agent_stream(EXPLORED, kb=sample_kb))
    result = api.agent(EXPLORED, kb=sample_kb)
    assert [s.node for s in steps] == [t["node"] for t in result.trace]
    assert steps[-1].state["final"]["sparql"] == result.sparql == steps[-1].to_result().sparql
    assert steps[0].to_result() is None
    history = [len(s.state.get("refinements") or []) for s in steps]
    assert history == sorted(history) and history[-1] == len(result.refinements) >= 1
    assert steps[-1].state["refinements"] == result.refinements
    assert [len(s.state["trace"]) for s in steps] == list(range(1, len(steps) + 1))
    for step in steps:
        json.dumps(step.to_dict())


# -- checkpoints -----------------------------------------------------------------------------------------
def test_a_crashed_run_resumes_by_thread_id(sample_kb, tmp_path):
    db = tmp_path / "agent.sqlite"
    question = EXPLORED
    flaky = InterruptingKB(sample_kb, fail_on="GRAPH ?g")  # the first probe of explore, after attempt 1
    with sqlite_checkpointer(db) as saver:
        with pytest.raises(Interrupted):
            Run(question, AgentContext(kb=flaky), checkpointer=saver, thread="t1").invoke()
        stopped = Run(question, AgentContext(kb=flaky), checkpointer=saver, thread="t1")
        saved = stopped.graph.get_state(stopped.config)
        assert stopped.status == "resumed" and saved.next == ("explore",)
        assert [a["verdict"] for a in saved.values["attempts"]] == ["empty"]
    healthy = InterruptingKB(sample_kb, fail_on=None)
    with sqlite_checkpointer(db) as saver:
        resumed = Run(question, AgentContext(kb=healthy), checkpointer=saver, thread="t1")
        state = resumed.invoke()
    trail = nodes(state)
    assert trail.count("analyze") == 1 and trail.count("explore") == 1 and trail[:6] == nodes(saved.values)
    assert state["final"]["source"] == "explore:dialect"
    with sqlite_checkpointer(db) as saver:
        again = Run(question, AgentContext(kb=healthy), checkpointer=saver, thread="t1")
        calls = healthy.calls
        assert again.status == "finished" and again.invoke()["final"] == state["final"]
        assert healthy.calls == calls  # inspecting runs nothing
        with pytest.raises(ConfigError, match="another question"):
            Run("Quali parole esprimono gioia?", AgentContext(kb=healthy), checkpointer=saver, thread="t1")


def test_api_checkpoint_keeps_plain_data_and_returns_a_finished_thread(sample_kb, tmp_path):
    db = tmp_path / "runs.sqlite"
    first = api.agent(QUESTION, kb=sample_kb, checkpoint=db, thread="fear")
    second = api.agent(QUESTION, kb=sample_kb, checkpoint=db, thread="fear")
    assert (first.status, second.status) == ("new", "finished") and second.thread == "fear"
    assert second.sparql == first.sparql and second.trace == first.trace
    with sqlite_checkpointer(db) as saver:
        state = Run(QUESTION, AgentContext(kb=sample_kb), checkpointer=saver, thread="fear").graph.get_state(
            {"configurable": {"thread_id": "fear"}}).values
    json.dumps(state)  # nothing but plain data was checkpointed


# -- evaluate ---------------------------------------------------------------------------------------------
def test_agent_is_an_evaluate_translator(sample_kb):
    result = api.evaluate("handwritten", translator="agent", limit=3, kb=sample_kb)
    assert result.summary["n"] == 3 and result.meta["translator"] == "agent"
    assert all(p["sparql"] for p in result.predictions)
