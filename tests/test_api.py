"""``nl2sparql.api``: every function on the embedded sample, results JSON-serialisable, bad input one clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nl2sparql import api
from nl2sparql.service.kbs import shared_kb
from nl2sparql.errors import ConfigError, DataError, QuerySyntaxError, UpdateRefused

FEAR_NOUNS = "Quali sostantivi esprimono paura?"


def roundtrip(result) -> dict:
    """The result's dict survives JSON (typed results hold JSON-ready values only)."""
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    return data


# -- KB choice -------------------------------------------------------------------------------------------------
def test_kb_choice_forms():
    assert api.as_choice("sample") == api.KBChoice()
    assert api.as_choice("https://liita.it/sparql").endpoint == "https://liita.it/sparql"
    assert api.as_choice(Path("some/store")).store == "some/store"
    assert api.as_choice(None).label in ("sample",) or api.as_choice(None).label.startswith(("store:", "endpoint:"))
    with pytest.raises(ConfigError, match="not both"):
        api.KBChoice(store="x", endpoint="http://y")


def test_the_sample_is_opened_once_per_process():
    assert shared_kb(api.KBChoice()) is shared_kb(api.as_choice("sample"))


# -- execute ---------------------------------------------------------------------------------------------------
def test_execute_select_ask_construct():
    rows = api.execute("SELECT ?e ?label WHERE { ?e a elita:Emotion ; rdfs:label ?label } ORDER BY ?e", kb="sample")
    assert rows.form == "select" and rows.count == 9 and rows.variables == ["e", "label"]
    assert rows.records()[0]["e"] == "http://w3id.org/elita/Amore"
    assert rows.to_csv().splitlines()[0] == "e,label"
    data = roundtrip(rows)
    assert data["rows"][0][0] == {"type": "uri", "value": "http://w3id.org/elita/Amore"}
    assert api.execute("ASK { ?e a elita:Emotion }").boolean is True
    triples = api.execute("CONSTRUCT { ?e a elita:Emotion } WHERE { ?e a elita:Emotion }")
    assert triples.form == "construct" and triples.variables == ["s", "p", "o"] and triples.count == 9
    assert triples.to_table().rows[0][0].kind == "iri"


def test_execute_row_cap_is_stated():
    rows = api.execute("SELECT ?l WHERE { ?l a lila:Lemma }", max_rows=3)
    assert rows.count == 3 and rows.truncated and rows.row_cap == 3
    capped = api.execute("SELECT ?l WHERE { ?l a lila:Lemma }", kb=api.KBChoice(max_rows=2))
    assert capped.count == 2 and capped.row_cap == 2


def test_execute_refuses_updates_and_bad_queries():
    with pytest.raises(UpdateRefused):
        api.execute("INSERT DATA { <http://x> <http://y> <http://z> }")
    with pytest.raises(QuerySyntaxError):
        api.execute("SELECT ?x WHERE { ?x ")
    with pytest.raises(DataError, match="empty"):
        api.execute("   ")


# -- validate and fix ------------------------------------------------------------------------------------------
def test_validate_finds_rule_breaks_without_running():
    result = api.validate("SELECT ?s WHERE { ?s lexinfo:hypernym ?o }", execute=False)
    assert not result.ok and not result.executed
    assert "service_missing" in {i.rule for i in result.issues}
    roundtrip(result)


def test_validate_runs_on_the_kb_and_hints_at_empty_answers():
    ok = api.validate("PREFIX elita: <http://w3id.org/elita/> SELECT ?e WHERE { ?e a elita:Emotion }")
    assert ok.ok and ok.executed and not ok.issues
    empty = api.validate('SELECT ?l WHERE { ?l ontolex:writtenRep "zzzz-no-such-word"@it }')
    assert empty.ok and any(i.rule == "empty_result" for i in empty.issues)


def test_fix_lists_each_fix_and_the_fixed_query_works():
    result = api.fix('SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep "cane" }')
    assert result.changed and any("STR" in f for f in result.fixes)
    assert 'STR(' in result.fixed
    assert api.execute(result.fixed).count >= 1
    roundtrip(result)


# -- questions -------------------------------------------------------------------------------------------------
def test_analyze_reads_language_patterns_and_slots():
    it = api.analyze(FEAR_NOUNS)
    assert it.language == "it" and it.slots["emotions"] == ["Paura"] and it.slots["pos"] == "noun"
    assert {"EMOTION_LEXICON", "POS_FILTER"} <= set(it.patterns)
    en = api.analyze('How many synonyms does "casa" have?')
    assert en.language == "en" and en.slots["word"] == "casa" and en.slots["count"] is True
    assert en.complexity in ("simple", "moderate", "complex") and en.readings
    roundtrip(en)


def test_translate_offline_and_execute():
    result = api.translate(FEAR_NOUNS, execute=True)
    assert result.mode == "offline" and result.source == "catalogue"
    assert "elita:Paura" in result.sparql and result.rows is not None and result.rows.count >= 5
    column = result.rows.variables.index("wr")
    assert all(row[column] for row in result.rows.values())
    data = roundtrip(result)
    assert data["rows"]["form"] == "select"
    without = api.translate("Which nouns express fear?")
    assert without.rows is None and without.patterns


def test_translate_bad_input():
    with pytest.raises(DataError, match="empty"):
        api.translate("  ")
    with pytest.raises(ConfigError, match="mode"):
        api.translate("ciao", mode="oracle")
    with pytest.raises(DataError, match="no such pool"):
        api.translate("ciao", pools=["/nonexistent/pool.jsonl"])


def test_retrieve_from_the_shipped_pools():
    result = api.retrieve("sinonimi di paura", k=3, pools=["sample"])
    assert [e.rank for e in result.examples] == [1, 2, 3]
    assert result.pool_size > 100 and result.examples[0].sparql.strip()
    assert "LEXICAL_RELATION" in result.detected_patterns
    roundtrip(result)
    with pytest.raises(ConfigError):
        api.retrieve("ciao", k=0)


def test_shipped_pools_by_name():
    names = api.shipped_pools()
    assert {"sample_pool", "handwritten"} <= set(names)
    assert api.resolve_pool("sample") == names["sample_pool"]
    assert api.pool_stats("handwritten")["items"] >= 40


# -- generation, scoring, evaluation ---------------------------------------------------------------------------
def test_generate_reports_progress_and_counts(tmp_path):
    seen: set[str] = set()
    result = api.generate(20, seed=3, out=tmp_path / "p.jsonl", cache_dir=tmp_path / "cache",
                          progress=lambda step, done, total: seen.add(step))
    assert result.kept == 20 and Path(result.out).is_file() and Path(result.manifest).is_file()
    assert {"pattern composer", "execution filter", "pool writer"} <= seen
    assert result.stats["items"] == 20 and result.executed >= 20
    roundtrip(result)
    exported = api.export_pool(result.out, tmp_path / "train.jsonl", fmt="alpaca", lang="en")
    assert exported.records == 20 and (tmp_path / "train.jsonl").is_file()


def test_score_in_memory_gold_and_predictions():
    gold = [{"id": "a", "sparql": "SELECT ?e WHERE { ?e a elita:Emotion }"},
            {"id": "b", "sparql": "SELECT (COUNT(?e) AS ?n) WHERE { ?e a elita:Emotion }"}]
    preds = {"a": "SELECT ?x WHERE { ?x a elita:Emotion }", "b": "SELECT (COUNT(?e) AS ?n) WHERE { ?e a lila:Lemma }"}
    result = api.score(gold, preds)
    assert result.summary["n"] == 2 and result.summary["strict_accuracy"] == 0.5
    verdicts = {item["id"]: item["strict"] for item in result.items}
    assert verdicts == {"a": True, "b": False}
    roundtrip(result)
    with pytest.raises(DataError):
        api.score([], preds)
    with pytest.raises(ConfigError, match="unknown match option"):
        api.score(gold, preds, match={"no_such_option": True})


def test_score_files_and_reports(tmp_path):
    pool = api.shipped_pools()["handwritten"]
    items = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines()][:5]
    pred = tmp_path / "pred.jsonl"
    pred.write_text("".join(json.dumps({"id": i["id"], "sparql": i["sparql"]}) + "\n" for i in items))
    result = api.score(pool, pred, out=tmp_path / "report")
    assert result.summary["by_error"].get("missing") == result.summary["n"] - 5
    assert Path(result.reports["json"]).is_file()


def test_evaluate_the_gold_oracle_is_perfect(tmp_path):
    result = api.evaluate("handwritten", translator="gold", limit=6, out=tmp_path / "eval")
    assert result.summary["strict_accuracy"] == 1.0 and len(result.predictions) == 6
    assert Path(result.reports["predictions"]).is_file()


def test_kb_info_profiles_the_sample():
    info = api.kb_info()
    assert info.kb == "sample" and info.triples > 10_000
    assert any(g["graph"] == "http://w3id.org/elita" for g in info.graphs)
    roundtrip(info)


# -- ontology --------------------------------------------------------------------------------------------------
def test_search_ontology_in_both_languages_with_the_direction_note():
    for query in ("termine più generale", "broader term"):
        result = api.search_ontology(query, k=3)
        curies = [h["curie"] for h in result.hits]
        assert {"lexinfo:hypernym", "lexinfo:hyponym"} & set(curies[:2]), curies
        hyper = next(h for h in result.hits if h["curie"] == "lexinfo:hypernym")
        assert any("direction" in note.lower() for note in hyper["notes"])
        assert result.kb == "sample" and hyper["count"] and hyper["count"] > 0
        roundtrip(result)
    assert api.search_ontology("broader term", counts=False).kb is None


def test_ontology_term_and_catalog():
    term = api.ontology_term("lexinfo:hyponym", counts=True)
    assert term["inverse"] == "lexinfo:hypernym" and term["count"] > 0 and term["counts_kb"] == "sample"
    with pytest.raises(DataError, match="did you mean lexinfo:hyponym"):
        api.ontology_term("lexinfo:hyponim")
    catalog = api.ontology_catalog()
    assert catalog["entries_total"] == len(catalog["entries"]) >= 150
    assert "lexinfo:approximateSynonym" in api.ontology_prompt(query="sinonimo", k=1)
