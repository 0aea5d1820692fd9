"""The answer signature: order-insensitive, floats compared to 6 significant digits, other literals exactly."""

from __future__ import annotations

from nl2sparql.kb.results import ResultTable, Term
from nl2sparql.operators.execution_filter import answer_signature

XSD = "http://www.w3.org/2001/XMLSchema#"


def _sig(*values: tuple[str, str]) -> str:
    return answer_signature(ResultTable("select", ["x"], [(Term.literal(v, XSD + t),) for v, t in values]))


def test_an_average_summed_in_another_order_signs_alike():
    assert _sig(("0.020240836", "float")) == _sig(("0.020240838", "float"))
    assert _sig(("0.12345678901234", "double")) == _sig(("0.12345678901299", "double"))


def test_other_answers_still_differ():
    assert _sig(("0.0202", "float")) != _sig(("0.0203", "float"))
    assert _sig(("0.020240836", "decimal")) != _sig(("0.020240838", "decimal"))  # decimals are exact
    assert _sig(("1", "integer"), ("2", "integer")) == _sig(("2", "integer"), ("1", "integer"))
    assert _sig(("1", "integer")) != _sig(("1", "float"))


def test_an_aggregated_list_joined_in_another_order_signs_and_scores_alike(sample_kb):
    from nl2sparql.score.runner import Scorer

    def table(text: str) -> ResultTable:
        return ResultTable("select", ["wr", "sicilian"], [(Term.literal("casa", lang="it"), Term.literal(text))])

    assert answer_signature(table("casa, casuzza")) == answer_signature(table("casuzza, casa"))
    assert answer_signature(table("casa, casuzza")) != answer_signature(table("casa, cosa"))
    # and the scorer reads it as a set too: a GROUP_CONCAT's order is the engine's choice
    scorer = Scorer(sample_kb)
    assert scorer.compare(table("casa, casuzza"), table("casuzza, casa")).match
    assert not scorer.compare(table("casa, casuzza"), table("casa, cosa")).match
