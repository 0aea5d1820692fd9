"""Scoring by execution on a tiny in-memory KB: error classes, LIMIT containment, pools, reports."""

from __future__ import annotations

import json

import pytest

from nl2sparql.errors import DataError
from nl2sparql.score.data import GoldItem, load_gold, load_predictions
from nl2sparql.score.evaluate import perturb_query
from nl2sparql.score.matcher import MatchOptions
from nl2sparql.score.report import CHART_NAME, summarize, write_reports
from nl2sparql.score.runner import Scorer, score_item, score_pools
from nl2sparql.sparql.lexer import query_form

from test_score_support import PREFIXES, TinyKB

P = PREFIXES
GOLD_QUERIES = {
    "ordered": P + "SELECT ?id ?price WHERE { ?p ex:id ?id ; ex:price ?price } ORDER BY ?id",
    "green": P + 'SELECT ?p WHERE { ?p ex:colour ?c FILTER(?c = "green") }',
    "labels": P + 'SELECT ?p ?l WHERE { ?p rdfs:label ?l FILTER(LANG(?l) = "it") }',
    "count": P + "SELECT (COUNT(?p) AS ?n) WHERE { ?p a ex:Product }",
    "avg": P + "SELECT (AVG(?x) AS ?avg) WHERE { ?p ex:price ?x }",
    "ask": P + 'ASK { ?p ex:colour "purple" }',
    "cheap": P + "SELECT ?p ?price WHERE { ?p ex:price ?price FILTER(?price < 8) } ORDER BY DESC(?price)",
    "limited": P + "SELECT ?p WHERE { ?p a ex:Product } LIMIT 2",
    "empty": P + 'SELECT ?p WHERE { ?p ex:colour "blue" }',
    "grouped": P + "SELECT ?c (COUNT(?p) AS ?n) WHERE { ?p ex:colour ?c } GROUP BY ?c",
}


@pytest.fixture(scope="module")
def kb() -> TinyKB:
    return TinyKB()


@pytest.mark.parametrize("name", sorted(GOLD_QUERIES))
def test_every_gold_scored_against_itself_is_a_strict_match(kb, name):
    result = score_item(kb, GOLD_QUERIES[name], GOLD_QUERIES[name])
    assert result.strict and result.relaxed and result.error is None
    assert result.f1 == 1.0


@pytest.mark.parametrize("name,changed", [
    ("green", ('"green"', '"red"')),
    ("labels", ('"it"', '"en"')),
    ("cheap", ("< 8", "< 5")),
    ("count", ("a ex:Product", 'ex:colour "green"')),
    ("ask", ('"purple"', '"blue"')),
])
def test_a_changed_filter_is_a_mismatch(kb, name, changed):
    result = score_item(kb, GOLD_QUERIES[name], GOLD_QUERIES[name].replace(*changed))
    assert not result.strict and result.error in ("value_mismatch", "empty")


def test_perturbed_query_changes_the_answer(kb):
    for name in ("green", "labels", "count", "grouped"):
        result = score_item(kb, GOLD_QUERIES[name], perturb_query(GOLD_QUERIES[name]))
        assert not result.strict, name


def test_error_classes(kb):
    gold = GOLD_QUERIES["green"]
    assert score_item(kb, gold, "SELECT ?x WHERE { ?x").error == "parse"
    assert score_item(kb, gold, "not sparql at all").error == "parse"
    assert score_item(kb, gold, "SELECT ?x WHERE { ?x ?p ?o } #sleep").error == "timeout"
    assert score_item(kb, gold, "SELECT ?x WHERE { ?x ?p ?o } #fail").error == "execution"
    assert score_item(kb, gold, P + 'SELECT ?p WHERE { ?p ex:colour "blue" }').error == "empty"
    assert score_item(kb, gold, None).error == "missing"
    assert score_item(kb, gold, "   ").error == "missing"
    assert score_item(kb, gold, P + "SELECT ?p ?c WHERE { ?p ex:colour ?c }").error == "column_mismatch"
    assert score_item(kb, gold, P + 'SELECT ?p WHERE { ?p ex:colour ?c FILTER(?c != "red") }').error \
        == "value_mismatch"
    failed_gold = score_item(kb, "SELECT ?x WHERE {", gold)
    assert failed_gold.error == "gold_error" and not failed_gold.strict and "gold query failed" in failed_gold.detail


def test_update_is_refused_as_an_error_not_a_crash(kb):
    result = score_item(kb, GOLD_QUERIES["green"], "INSERT DATA { <a:a> <a:b> <a:c> }")
    assert not result.strict and result.error == "execution"


def test_relaxed_match_allows_extra_columns_and_duplicates(kb):
    pred = P + 'SELECT ?p ?c WHERE { ?p ex:colour ?c FILTER(?c = "green") }'
    result = score_item(kb, GOLD_QUERIES["green"], pred)
    assert not result.strict and result.relaxed and result.error == "column_mismatch"
    assert result.recall == 1.0 and result.precision == 0.5
    allowed = score_item(kb, GOLD_QUERIES["green"], pred, MatchOptions(require_same_columns=False))
    assert allowed.strict
    dup = P + "SELECT ?p WHERE { ?p ex:colour ?c ; rdfs:label ?l FILTER(?c = \"green\") }"
    dup_result = score_item(kb, GOLD_QUERIES["green"], dup)
    assert not dup_result.strict and dup_result.relaxed


def test_relaxed_tolerance(kb):
    gold = P + "SELECT (AVG(?x) AS ?avg) WHERE { ?p ex:price ?x }"
    pred = P + "SELECT ((SUM(?x) / COUNT(?x)) + 0.0000000001 AS ?m) WHERE { ?p ex:price ?x }"
    result = score_item(kb, gold, pred)
    assert not result.strict and result.relaxed


def test_aggregate_under_any_name_and_type(kb):
    pred = P + "SELECT (xsd:decimal(COUNT(*)) AS ?howMany) WHERE { ?p a ex:Product }"
    pred = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + pred
    result = score_item(kb, GOLD_QUERIES["count"], pred, MatchOptions(require_same_column_names=True))
    assert result.strict


def test_limit_without_order_by_is_scored_by_containment(kb):
    kb.calls.clear()
    gold = GOLD_QUERIES["limited"]
    answered = {row[0].value.rsplit("/", 1)[1] for row in kb.execute(gold).rows}
    others = sorted({"p1", "p2", "p3", "p4", "p5"} - answered)[:2]
    other_two = P + f"SELECT ?p WHERE {{ VALUES ?p {{ ex:{others[0]} ex:{others[1]} }} ?p a ex:Product }}"
    kb.calls.clear()
    result = score_item(kb, gold, other_two)
    assert result.strict and result.f1 == 1.0
    assert any("LIMIT" not in q for q in answers(kb))  # the gold re-ran without its LIMIT
    three = score_item(kb, gold, P + "SELECT ?p WHERE { ?p a ex:Product } LIMIT 3")
    assert not three.strict and "LIMIT without ORDER BY" in three.detail
    wrong = score_item(kb, gold, P + "SELECT ?p WHERE { ?p ex:colour ?c } LIMIT 2")
    assert wrong.strict  # every product has a colour: any two products are right
    labels = score_item(kb, gold, P + "SELECT ?l WHERE { ?p rdfs:label ?l } LIMIT 2")
    assert not labels.strict


def answers(kb) -> list[str]:
    """The queries the scorer ran for answers (not the ASKs of its IRI check)."""
    return [q for q in kb.calls if query_form(q) != "ask"]


def test_self_match_needs_no_second_gold_run(kb):
    kb.calls.clear()
    score_item(kb, GOLD_QUERIES["limited"], GOLD_QUERIES["limited"])
    assert len(answers(kb)) == 2


def test_same_limits_for_gold_and_prediction():
    class Recording(TinyKB):
        def execute(self, query, *, timeout=None, max_rows=None):
            self.seen.append((timeout, max_rows))
            return super().execute(query, timeout=timeout, max_rows=max_rows)

    kb = Recording()
    kb.seen = []
    Scorer(kb, timeout=3.0, max_rows=2).score(GOLD_QUERIES["green"], GOLD_QUERIES["labels"])
    assert kb.seen and set(kb.seen) == {(3.0, 2)}


# -- pools --------------------------------------------------------------------------------------


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def pool_rows():
    rows = []
    for i, (name, sparql) in enumerate(sorted(GOLD_QUERIES.items())):
        rows.append({"id": name, "sparql": sparql, "nl": f"domanda {name}", "nl_en": f"question {name}",
                     "nl_variants": {"generic": f"generica {name}"},
                     "patterns": {"FILTER" if "FILTER" in sparql else "BASIC": 0.9, "RARE": 0.2},
                     "difficulty": ["easy", "medium", "hard"][i % 3],
                     "split": "test" if i % 2 else "train"})
    return rows


def test_score_pools_joins_ids_and_counts_missing(kb, tmp_path):
    gold_path = write_jsonl(tmp_path / "pool.jsonl", pool_rows())
    items = load_gold(gold_path)
    preds = {item.id: item.sparql for item in items}
    preds.pop("ask")
    preds["green"] = GOLD_QUERIES["green"].replace('"green"', '"red"')
    seen = []
    scores = score_pools(kb, items, preds, MatchOptions(), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (len(items), len(items))
    by_id = {s.id: s for s in scores}
    assert by_id["ask"].error == "missing"
    assert not by_id["green"].strict
    assert sum(s.strict for s in scores) == len(items) - 2
    assert by_id["count"].patterns == ["BASIC"] and by_id["count"].difficulty
    summary = summarize(scores)
    assert summary["n"] == len(items)
    assert summary["strict_accuracy"] == pytest.approx((len(items) - 2) / len(items))
    assert summary["by_error"] == {"missing": 1, "value_mismatch": 1}
    assert "RARE" not in summary["by_pattern"]
    assert summary["by_pattern"]["FILTER"]["n"] == sum("FILTER" in q for q in GOLD_QUERIES.values())
    assert list(summary["by_difficulty"]) == ["easy", "medium", "hard"]

    paths = write_reports(tmp_path / "report", scores, MatchOptions().to_dict(), {"pred": "x"})
    report = json.loads(paths["json"].read_text())
    assert report["summary"]["n"] == len(items) and len(report["items"]) == len(items)
    assert paths["chart"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = paths["markdown"].read_text()
    assert f"]({CHART_NAME})" in markdown and "| missing | 1 |" in markdown and "green" in markdown
    assert sorted(p.name for p in (tmp_path / "report").iterdir()) == sorted(
        ["report.json", "report.md", CHART_NAME])  # no temporary files left behind


def test_load_split_and_predictions(tmp_path):
    gold_path = write_jsonl(tmp_path / "pool.jsonl", pool_rows())
    test_items = load_gold(gold_path, "test")
    assert test_items and all(i.split == "test" for i in test_items)
    item = test_items[0]
    assert item.text("en").startswith("question") and item.text("it", "generic").startswith("generica")
    preds = load_predictions(write_jsonl(tmp_path / "pred.jsonl", [{"id": 1, "sparql": "ASK {}"},
                                                                   {"id": "2", "sparql": None}]))
    assert preds == {"1": "ASK {}", "2": None}


@pytest.mark.parametrize("content,message", [
    ('{"id": 1, "sparql": "ASK {}"}\n{oops\n', "line 2: not valid JSON"),
    ('[1, 2]\n', "expected a JSON object"),
    ('{"sparql": "ASK {}"}\n', 'missing "id"'),
    ('{"id": 1}\n', 'has no "sparql"'),
    ('{"id": 1, "sparql": "ASK {}"}\n{"id": 1, "sparql": "ASK {}"}\n', "duplicate id 1"),
    ('{"id": 1, "sparql": "ASK {}", "patterns": {"A": "x"}}\n', "pattern weights"),
    ('', "no gold items"),
])
def test_bad_gold_files_give_one_clear_line(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        load_gold(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_bad_prediction_files(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        load_predictions(tmp_path / "absent.jsonl")
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": 1, "sparql": "a"}\n{"id": 1, "sparql": "b"}\n')
    with pytest.raises(DataError, match="duplicate prediction"):
        load_predictions(dup)
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text('{"id": 1, "sparql": 5}\n')
    with pytest.raises(DataError, match="string or null"):
        load_predictions(wrong)


def test_gold_item_pattern_threshold():
    item = GoldItem("1", "ASK {}", patterns={"A": 0.5, "B": 0.49, "C": 0.9})
    assert item.pattern_labels == ["C", "A"]
