"""Off-topic questions: the one decision (``api.off_topic``) and what translate and the agent do with it.

The rule must never fire on a question people ask LiITA: every question of the
shipped pools (all languages and persona variants) and of the hand-written
reference examples (when ``../shared`` is there) is checked.
"""

from __future__ import annotations

import json

import pytest

from nl2sparql import api
from nl2sparql.fileio import read_pool

OFF_TOPIC = ["Che tempo fa a Roma domani?", "What's the weather in Rome tomorrow?", "Chi ha vinto i mondiali nel 2006?",
             "Ciao, come stai?", "Raccontami una barzelletta"]
ON_TOPIC = ["Dammi i lemmi", "Quali parole?", "Cosa significa «Roma»?", "Quanti sinonimi ha casa?",
            "Which animals are venomous?", "List all grammatical genders used in the knowledge base",
            "Che emozione esprime 'tempo'?", "Il bassotto è un cane: fin dove arriva la catena?"]


def pool_questions(items) -> list[str]:
    """Every question of pool items: Italian and English, with every persona variant."""
    found = []
    for item in items:
        for key in ("nl", "nl_en", "nl_variants", "nl_en_variants"):
            value = item.get(key)
            found += list(value.values()) if isinstance(value, dict) else list(value or []) \
                if isinstance(value, list) else [value]
    return [q for q in found if isinstance(q, str) and q.strip()]


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_off_topic_questions(question):
    assert api.off_topic(question).startswith("not a question about LiITA")


@pytest.mark.parametrize("question", ON_TOPIC)
def test_questions_about_liita_are_not_off_topic(question):
    assert api.off_topic(question) is None


def test_no_shipped_pool_question_is_off_topic():
    questions = [q for path in api.shipped_pools().values() for q in pool_questions(read_pool(path)[0])]
    assert len(questions) > 5000
    assert [q for q in questions if api.off_topic(q)] == []


def test_no_reference_question_is_off_topic(shared_dir):
    path = shared_dir / "reference" / "nl2sparql_examples.json"
    if not path.is_file():
        pytest.skip(f"the reference examples are not at {path} (needs ../shared next to the repo)")
    questions = pool_questions(json.loads(path.read_text(encoding="utf-8")))
    assert len(questions) > 100 and [q for q in questions if api.off_topic(q)] == []


def test_translate_answers_an_off_topic_question_without_a_query():
    result = api.translate(OFF_TOPIC[0], execute=True)
    assert result.off_topic == api.off_topic(OFF_TOPIC[0])
    assert result.sparql == "" and result.rows is None and result.to_dict()["off_topic"]


def test_the_agent_stops_at_once_on_an_off_topic_question():
    result = api.agent(OFF_TOPIC[1])
    assert result.final["verdict"] == "off_topic" and result.sparql == "" and result.rows is None
    assert result.final["reason"] == api.off_topic(OFF_TOPIC[1]) and not result.attempts
    steps = list(api.agent_stream(OFF_TOPIC[1]))
    assert [s.node for s in steps] == ["analyze", "output"]  # its analysis decides: no query is run
    assert steps[-1].to_result().final["verdict"] == "off_topic" and not steps[-1].state.get("attempts")
