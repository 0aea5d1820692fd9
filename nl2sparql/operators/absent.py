"""Questions whose right answer is empty, for sound reasons: a word of the Lemma Bank that a partial resource lacks.

Agents that always return something look better than they are unless some
questions have no answer. The composer builds each candidate from its
anchor's facts, so its answers are never empty; these candidates are built
the other way round: a word question of the catalogue ("Come si dice «ciao»
in siciliano?") about a Lemma Bank word that the resource it asks about does
not cover (no Sicilian or Parmigiano translation, no ELITA emotion, no Sentix
polarity). The word exists, the question is the one the catalogue asks of
words that have the fact, and the right answer is "none".

The facts the composer samples may miss a few; the execution filter runs
every candidate, keeps one only when its answer is indeed empty and labels it
(``empty_answer: absent_fact``).
"""

from __future__ import annotations

import hashlib
import random

from ..patterns.catalogue import CATALOGUE
from ..patterns.compose import Candidate, Composer, askable, finish_query, start_frame
from ..sparql.model import render

#: Word facts whose absence is an answer: resources that cover part of the Lemma Bank and say what they cover.
ABSENT_FACTS = ("TRANSLATION", "EMOTION_LEXICON", "POLARITY")
#: Draws per wanted candidate before giving up (a small KB may not have enough words lacking a fact).
MAX_DRAWS = 5


def absent_candidates(composer: Composer, count: int) -> list[tuple[str, Candidate]]:
    """Up to ``count`` word questions about words that lack the fact asked, each with the label of the pattern
    that asks it (deterministic for the composer's seed)."""
    facts = composer.facts
    labels = [label for label in ABSENT_FACTS if composer.allowed is None or label in composer.allowed]
    lemmas = sorted(lemma for lemma in facts.by_lemma("lemma") if askable(facts.labels.get(lemma, "")))
    rng = random.Random(f"{composer.seed}:absent")
    out: list[tuple[str, Candidate]] = []
    words: set[str] = set()
    split: dict[str, tuple[list[str], list[str]]] = {}  # label -> (lemmas with the fact, lemmas without)
    for label in labels:
        pattern = CATALOGUE[label]
        having = set().union(*(facts.lemmas(name) for name in (*pattern.needs, *pattern.needs_any)))
        split[label] = ([x for x in lemmas if x in having], [x for x in lemmas if x not in having])
    for draw in range(count * MAX_DRAWS if labels else 0):
        if len(out) >= count:
            break
        pattern = CATALOGUE[rng.choice(labels)]
        donors, lacking = split[pattern.label]
        if not donors or not lacking:
            continue
        lemma = rng.choice(lacking)
        word = facts.labels[lemma]
        if word in words:
            continue
        frame = start_frame("word", word)
        # the question's slots (a dialect, a polarity…) as the catalogue chooses them for a word that has the fact
        pattern.build(frame, pattern.choose(facts, rng.choice(donors), "word", rng), rng)
        sparql = render(finish_query(frame))
        cid = hashlib.sha1(f"{composer.seed}:absent:{draw}:{sparql}".encode()).hexdigest()[:12]
        words.add(word)
        out.append((pattern.label, Candidate(cid, sparql, "word", dict(frame.labels), dict(frame.slots),
                                             [list(m) for m in frame.mentions],
                                             [{"kind": f.kind, "text": f.text} for f in frame.fragments],
                                             word, None, lemma)))
    return out
