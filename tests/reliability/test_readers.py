"""Issue 31, case 1: every question reader takes time linear in the question, whatever its shape.

One reader's regular expression backtracked quadratically on a long run of letters (40,000 characters:
12 s; 1 MB froze the web UI for over 11 minutes). The API now refuses a question longer than 2,000
characters (the corpus case ``inject-1mb-question``), and the readers stay linear beyond it: random
strings of 20,000 characters, made by repeating a random unit (a long run of one shape is what makes a
backtracking expression quadratic), are read through :func:`~nl2sparql.translate.slots.extract_slots`,
the public reading entry point, which runs every pattern's readers (also those added later).
"""

from __future__ import annotations

import time

from hypothesis import example, given, settings
from hypothesis import strategies as st

from nl2sparql.translate.slots import extract_slots

LENGTH = 20_000
#: A linear read of 20,000 characters takes about 0.1 s; the quadratic reader took 4.4 s.
BOUND = 2.0
CUES = ("di ", "la ", "la parola ", "the word ", "of ", "quali ", "sinonimi di ", "antonimi ", "traduzione ",
        "definizione ", "lemmi ", "con ", "almeno ", "primi 3 ", "lexinfo:", "#", "<", "> ", "«", "» ", "'", '"',
        "-", " ", "\n", "1", "1.5 ", "?", "é", "x:antonym")
UNITS = st.lists(st.one_of(st.sampled_from(CUES), st.text(alphabet="abcé-' «»\"1.:#<>?\n", min_size=1, max_size=3)),
                 min_size=1, max_size=3).map("".join)


@settings(max_examples=5, deadline=None)
@given(unit=UNITS)
@example(unit="a")  # a run of letters: the shape that made the antonym-property reader quadratic
@example(unit="-")
def test_every_reader_reads_a_long_question_in_linear_time(unit):
    question = (unit * (LENGTH // len(unit) + 1))[:LENGTH]
    start = time.perf_counter()
    extract_slots(question)
    took = time.perf_counter() - start
    assert took < BOUND, f"reading {LENGTH:,} characters of {unit!r} repeated took {took:.1f} s"
