"""Injection, as properties (hypothesis): every value that reaches a query is escaped, and the query's
structure never changes with the text.

Two places put outside text into SPARQL: the query model (:mod:`nl2sparql.sparql.model`, which the
generator's patterns and the offline translator render through) and the translator reading a word
out of a question. For any text, the query must parse, its tokens outside string literals must be the
ones a plain word gives, and the literal must hold exactly the text (Oxigraph reads it back).
"""

from __future__ import annotations

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nl2sparql.sparql.lexer import tokenize
from nl2sparql.sparql.model import Bind, Call, Filter, Group, Lit, Select, Values, Var, render
from nl2sparql.translate.offline import OfflineTranslator

#: Characters that break naive quoting, plus any other character (surrogates cannot be UTF-8).
NASTY = st.sampled_from(list('"\'\\{}.?#<>()[];,|$^*+\n\r\t ') + ["😱", "\x00", "\x1b", "\u2028", "é", "a", "1", "_"])
TEXT = st.one_of(st.lists(NASTY, max_size=40).map("".join),
                 st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
#: Questions that name a word in quotes, each read by a different pattern.
TEMPLATES = ["Qual è la definizione di «{}»?", "Quali sono i sinonimi di «{}»?", "Come si dice «{}» in siciliano?",
             'What does "{}" mean?']
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def skeleton(sparql: str) -> list[str]:
    """The query's tokens with every string literal (its value) masked."""
    return ["STRING" if t.kind == "string" else t.text for t in tokenize(sparql) if t.kind not in ("ws", "comment")]


def model_query(value) -> str:
    """A query the generator's way: the value in VALUES, in BIND and in a FILTER (true for the value)."""
    wr, b = Var("wr"), Var("b")
    return render(Select([wr, b], Group([Values(wr, [Lit(value, lang="it") if isinstance(value, str) else Lit(value)]),
                                         Bind(Lit(value), b),
                                         Filter(Call("CONTAINS", (Call("STR", (wr,)), Call("STR", (Lit(value),)))))])))


@FAST
@given(TEXT)
def test_the_query_model_escapes_every_text(text):
    query = model_query(text)
    assert skeleton(query) == skeleton(model_query("x"))
    solutions = list(ox.Store().query(query))  # parses, and the value comes back as it went in
    assert [(s["wr"].value, s["b"].value) for s in solutions] == [(text, text)]


@FAST
@given(st.one_of(st.integers(-(2 ** 62), 2 ** 62), st.floats(allow_nan=True, allow_infinity=True)))
def test_the_query_model_renders_every_number(number):
    query = model_query(number)
    [solution] = list(ox.Store().query(query))
    for value in (solution["wr"], solution["b"]):
        if number != number:  # NaN
            assert value.value == "NaN"
        else:
            assert float(value.value) == float(number)


_TRANSLATOR = OfflineTranslator(None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEMPLATES), TEXT)
def test_a_word_read_from_a_question_never_changes_the_query(template, text):
    # the word starts with a letter and holds no closing quote of its template, so the reader takes it whole
    word = "a" + text.replace("«", "").replace("»", "")
    if template.startswith("What"):
        word = word.replace('"', "")
    plain = _TRANSLATOR.translate(template.format("casa"))
    done = _TRANSLATOR.translate(template.format(word))
    assert done.slots.get("word"), done.slots
    assert skeleton(done.sparql) == skeleton(plain.sparql), done.sparql
    read = done.slots["word"]
    assert Lit(read, lang="it").render(set()) in done.sparql or Lit(read).render(set()) in done.sparql
    ox.Store().query(_complete(done.sparql))  # parses


def _complete(sparql: str) -> str:
    from nl2sparql.sparql.rewrite import complete_prefixes
    return complete_prefixes(sparql)[0]
