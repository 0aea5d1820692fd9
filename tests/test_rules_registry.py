"""The one registry of LiITA rules drives the validator, the fixes and both LLM prompts."""

from __future__ import annotations

import pytest

from nl2sparql.operators.llm_sparql import LLMSparqlGenerator
from nl2sparql.patterns import CATALOGUE, RULES
from nl2sparql.rules import GENERAL
from nl2sparql.sparql.syntax import parses
from nl2sparql.translate import prompts
from nl2sparql.translate.validate import repair, validate
from test_translate_validate import BROKEN

#: Issues the validator raises that are not LiITA rules (they need a KB or an empty query).
NOT_RULES = {"execution", "empty_result"}


def test_rule_ids_are_unique_and_every_pattern_rule_is_registered():
    ids = [rule.id for rule in RULES]
    assert len(ids) == len(set(ids))
    assert set(GENERAL) <= set(RULES)
    for pattern in CATALOGUE.values():
        assert set(pattern.rules) <= set(RULES), pattern.label


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_each_rule_fires_on_its_own_broken_query_and_its_fix_repairs_it(rule):
    assert rule.severity in ("error", "warning") and rule.prose.strip()
    assert rule.id in {issue.rule for issue in validate(rule.broken)}
    if rule.fix is not None and rule.id != "syntax":  # a truncated query has no safe fix
        fixed, done = repair(rule.broken)
        assert done and rule.id not in {issue.rule for issue in validate(fixed)}


def test_the_validator_tests_exercise_every_rule_of_the_registry():
    assert {rule.id for rule in RULES} <= set(BROKEN)


def test_validation_only_reports_registry_rules():
    known = {rule.id for rule in RULES} | NOT_RULES
    for query in BROKEN.values():
        assert {issue.rule for issue in validate(query)} <= known


def test_both_prompts_contain_every_rules_prose(sample_kb):
    translation = prompts.system_prompt([])
    generator = LLMSparqlGenerator({"requests": 1}, kb=sample_kb).prompts([])[0][1][0]["content"]
    for rule in RULES:
        assert rule.prose in translation, rule.id
        assert rule.prose in generator, rule.id


def test_the_dialect_fix_makes_a_virtuoso_projection_parse():
    query = ("PREFIX elita: <http://w3id.org/elita/>\n"
             "SELECT ?emotion COUNT(?e) AS ?n WHERE { ?e elita:HasEmotion ?emotion }")
    assert "syntax" in {i.rule for i in validate(query)}
    fixed, done = repair(query)
    assert done and parses(fixed) and "syntax" not in {i.rule for i in validate(fixed)}


def test_relation_direction_reads_the_variable_names():
    svc = "SERVICE <https://klab.ilc.cnr.it/graphdb-compl-it/>"
    p = "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#>\n"
    right = [f"SELECT ?x WHERE {{ {svc} {{ ?specific lexinfo:hyponym ?general }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?general lexinfo:hypernym ?specific }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?part lexinfo:partMeronym ?whole }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?hypernym ^lexinfo:hyponym ?hyponym }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?sense lexinfo:hyponym+ ?relatedSense }} }}"]
    wrong = [f"SELECT ?x WHERE {{ {svc} {{ ?general lexinfo:hyponym ?specific }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?hyponymSense lexinfo:hypernym ?x }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?whole lexinfo:partMeronym ?part }} }}",
             f"SELECT ?x WHERE {{ {svc} {{ ?hyponym ^lexinfo:hyponym ?hypernym }} }}"]
    for query in right:
        assert "relation_direction" not in {i.rule for i in validate(p + query)}, query
    for query in wrong:
        issues = [i for i in validate(p + query) if i.rule == "relation_direction"]
        assert issues and issues[0].severity == "warning" and "backwards" in issues[0].message, query
