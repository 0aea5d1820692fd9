"""The field's measures beside ours, the query checks, and the regressions other scorers get wrong, all on the
embedded LiITA sample (real queries, real answers).

The official Text2SPARQL measure is computed with ``pytrec_eval``, as the challenge's client computes it; these
tests pin its documented quirks, which is what makes it disagree with ours.
"""

from __future__ import annotations

import pytest

from nl2sparql.namespaces import prologue
from nl2sparql.score.matcher import MatchOptions
from nl2sparql.score.field import qald, summarize_field
from nl2sparql.score.report import disagreements, render_markdown, summarize
from nl2sparql.score.runner import Scorer

P = prologue() + "PREFIX elita: <http://w3id.org/elita/>\n"
#: Two lemmas with one emotion each (sample facts): (written form, emotion).
PAIRS = 'VALUES (?wr ?emotion) { ("buio"@it elita:Paura) ("coraggio"@it elita:Fiducia) }'
WORD_EMOTION = P + ('SELECT ?wr ?emotion WHERE { ' + PAIRS + ' ?lemma a lila:Lemma ; ontolex:writtenRep ?wr . '
                    '?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion ?emotion }')
LABELS = P + "SELECT DISTINCT ?emotionLabel WHERE { ?e a elita:Emotion ; rdfs:label ?emotionLabel }"
EMOTIONS = P + "SELECT DISTINCT ?emotion WHERE { ?emotion a elita:Emotion }"
PER_EMOTION = P + ("SELECT ?emotion (COUNT(DISTINCT ?entry) AS ?n) WHERE { ?entry elita:HasEmotion ?emotion } "
                   "GROUP BY ?emotion")


@pytest.fixture(scope="module")
def scorer(sample_kb):
    return Scorer(sample_kb)


def test_the_gold_pairs_are_real(sample_kb):
    rows = sample_kb.execute(WORD_EMOTION).rows
    assert sorted((r[0].value, r[1].value.rsplit("/", 1)[-1]) for r in rows) == [("buio", "Paura"),
                                                                                 ("coraggio", "Fiducia")]


# -- the four regressions ------------------------------------------------------------------------------------
def test_same_values_in_other_column_order_is_right(scorer):
    """A positional mapper gives 0 here: the columns are paired by their content."""
    swapped = P + "SELECT ?emotion ?wr WHERE { " + PAIRS + " }"
    result = scorer.score(WORD_EMOTION, swapped)
    assert result.strict and result.f1 == 1.0 and result.field.t2s_f1 == 1.0


def test_a_different_aggregate_is_wrong_though_the_other_columns_agree(scorer):
    off_by_one = PER_EMOTION.replace("(COUNT(DISTINCT ?entry) AS ?n)", "((COUNT(DISTINCT ?entry) + 1) AS ?n)")
    result = scorer.score(PER_EMOTION, off_by_one)
    assert not result.strict and not result.relaxed and result.error == "value_mismatch"
    assert 0.4 < result.f1 < 1.0  # the emotion column is right, the counts are not


def test_a_label_column_is_not_the_labelled_iris_unless_relaxed_labels_are_asked_for(sample_kb, scorer):
    plain = scorer.score(LABELS, EMOTIONS)
    assert not plain.strict and not plain.relaxed
    with_labels = Scorer(sample_kb, MatchOptions(labels=True)).score(LABELS, EMOTIONS)
    assert with_labels.relaxed and not with_labels.strict
    # and labels never make a wrong list right
    fewer = EMOTIONS.replace("WHERE {", "WHERE { FILTER(?emotion != elita:Paura)")
    assert not Scorer(sample_kb, MatchOptions(labels=True)).score(LABELS, fewer).relaxed


def test_same_row_count_but_other_pairings_is_wrong_and_the_official_measure_misses_it(scorer):
    crossed = P + 'SELECT ?wr ?emotion WHERE { VALUES (?wr ?emotion) { ("buio"@it elita:Fiducia) ' \
                  '("coraggio"@it elita:Paura) } }'
    result = scorer.score(WORD_EMOTION, crossed)
    assert not result.strict and not result.relaxed and result.pred_rows == result.gold_rows == 2
    # every value coincides: one bag of strings cannot see the pairing
    assert result.field.t2s_f1 == 1.0 and result.field.qald_f1 == 1.0
    found = disagreements([result])
    assert found and "coincide" in found[0]["why"]


# -- the official measure's quirks and QALD's rules -----------------------------------------------------------
def test_ask_golds_under_the_official_measure(scorer):
    yes = P + 'ASK { ?l ontolex:writtenRep "buio"@it }'
    no = P + 'ASK { ?l ontolex:writtenRep "nessunaparolacosi"@it }'
    assert scorer.score(yes, no).field.t2s_f1 == 1.0  # a gold true: any ASK scores 1
    both_no = scorer.score(no, no)
    assert both_no.strict and both_no.field.t2s_f1 == 0.0  # a gold false: 0 whatever
    assert both_no.field.qald_f1 == 1.0
    assert "gold is false" in disagreements([both_no])[0]["why"]


def test_an_empty_gold_is_left_out_by_the_official_measure_and_right_when_both_are_empty(scorer):
    nothing = P + 'SELECT ?wr WHERE { ?l ontolex:writtenRep ?wr FILTER(STR(?wr) = "nessunaparolacosi") }'
    both = scorer.score(nothing, nothing.replace("?wr", "?x"))
    assert both.strict and both.gold_rows == 0 and both.field.t2s_f1 is None and both.field.qald_f1 == 1.0
    something = scorer.score(nothing, LABELS)
    assert not something.strict and something.field.qald_f1 == 0.0
    summary = summarize_field([both.field, something.field])
    assert summary["t2s_items"] == 0 and summary["t2s_f1"] is None
    assert "leaves the item out" in disagreements([something])[0]["why"]


def test_ordered_golds_get_ndcg(scorer):
    ordered = EMOTIONS + " ORDER BY ?emotion"
    result = scorer.score(ordered, EMOTIONS + " ORDER BY DESC(?emotion)")
    assert not result.strict and result.field.t2s_ndcg == 1.0  # NDCG never sees the predicted order
    assert result.field.t2s_score == 1.0


def test_qald_rules_for_empty_answers():
    assert qald(set(), set()) == (1.0, 1.0, 1.0)
    assert qald({"a"}, set()) == (1.0, 0.0, 0.0)
    assert qald(set(), {"a"}) == (0.0, 0.0, 0.0)
    p, r, f = qald({"a", "b"}, {"a", "c", "d"})
    assert (p, r) == pytest.approx((1 / 3, 1 / 2)) and f == pytest.approx(0.4)


def test_qald_macro_f1_is_the_harmonic_mean_of_macro_precision_and_recall(scorer):
    one = scorer.score(EMOTIONS, EMOTIONS)
    none = scorer.score(EMOTIONS, None)
    summary = summarize_field([one.field, none.field])
    assert (summary["qald_precision"], summary["qald_recall"]) == (1.0, 0.5)  # no answer: P 1, R 0
    assert summary["qald_macro_f1"] == pytest.approx(2 * 0.5 / 1.5)


# -- query checks -------------------------------------------------------------------------------------------
def test_query_checks_find_hallucinated_iris_broken_rules_and_empty_answers(sample_kb):
    scorer = Scorer(sample_kb)
    invented = P + "SELECT ?e WHERE { ?entry elita:HasEmotion ?e . ?e a elita:Sentiment }"
    result = scorer.score(EMOTIONS, invented)
    assert result.checks.unknown_iris == ["http://w3id.org/elita/Sentiment"]
    assert result.checks.ran and result.checks.empty
    asked = scorer.iris.asked
    scorer.score(EMOTIONS, invented)
    assert scorer.iris.asked == asked  # one ASK per distinct IRI, cached
    plain = P + 'SELECT ?l WHERE { ?l ontolex:writtenRep "buio" }'  # a plain literal where LiITA tags @it
    broken = scorer.score(EMOTIONS, plain)
    assert broken.checks.rules and broken.checks.unknown_iris == []
    summary = summarize([result, broken])["checks"]
    assert summary["with_unknown_iri_share"] == 0.5 and summary["rule_break_share"] == 0.5
    assert summary["empty_share"] == 1.0


def test_complit_iris_are_looked_up_inside_their_service(sample_kb):
    scorer = Scorer(sample_kb)
    query = P + ("SELECT ?def WHERE { SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/> { "
                 "?w ontolex:sense ?s . ?s skos:definition ?def } } LIMIT 3")
    result = scorer.score(query, query)
    assert result.strict and result.checks.iris >= 2 and result.checks.unknown_iris == []


def test_the_report_names_each_measure(scorer):
    scores = [scorer.score(EMOTIONS, EMOTIONS), scorer.score(LABELS, EMOTIONS)]
    text = render_markdown(summarize(scores), scores, {"gold": "test"}, chart=None)
    for name in ("strict accuracy", "relaxed accuracy", "cell F1", "Text2SPARQL F1", "Text2SPARQL F1/NDCG",
                 "QALD macro F1", "predicted IRIs not in the KB", "breaking a LiITA rule"):
        assert name in text
    assert "official" in text and "ours" in text


def test_a_wrong_answer_that_differs_only_in_language_tags_says_so(scorer):
    tagged = P + 'SELECT ?wr WHERE { VALUES ?wr { "buio"@it } ?l ontolex:writtenRep ?wr }'
    plain = P + 'SELECT (STR(?wr) AS ?w) WHERE { VALUES ?wr { "buio"@it } ?l ontolex:writtenRep ?wr }'
    result = scorer.score(tagged, plain)
    assert not result.strict and "--lang-tags ignore" in result.detail
    assert result.field.t2s_f1 == 1.0  # the official measure sees no tag
    assert "--lang-tags ignore" not in scorer.score(tagged, EMOTIONS).detail
