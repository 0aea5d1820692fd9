"""COMPARISON: which of two or three named words has more (or less) of a measure.

"Which has more senses, «casa» or «sedia»?", "Tra «gioia» e «allegria», quale
ha la polarità Sentix più alta?": the named words, ordered by the measure and
then by their written form, first one::

    SELECT ?wr WHERE { VALUES ?wr { "casa"@it "sedia"@it } ?lemma a lila:Lemma ; ontolex:writtenRep ?wr .
      ?word ontolex:canonicalForm ?lemma . SERVICE <…> { ?word ontolex:sense ?sense } }
    GROUP BY ?wr ORDER BY DESC(COUNT(DISTINCT ?sense)) ?wr LIMIT 1
"""

from __future__ import annotations

import random
import re

from ..sparql.model import Group, Select, Values
from .analytics import MEASURES, ORDER_WORDS, add_measure, constrained, measure_value, quoted_list, written
from .base import Facts, frag, italian
from .pattern import StandalonePattern
from .reading import QUOTED, Text, reads

#: "more / the most / higher …" (direction ``desc``) and "fewer / less / lower …" (``asc``), per measure.
COMPARATIVES = (
    ("senses", "desc", r"piu (?:sensi|significati|accezioni)|more (?:senses|meanings)|most (?:senses|meanings)|"
                       r"piu polisem\w*|more polysem\w*"),
    ("senses", "asc", r"meno (?:sensi|significati|accezioni)|fewer (?:senses|meanings)|less (?:senses|meanings)|"
                      r"fewest (?:senses|meanings)"),
    ("polarity", "desc", r"piu positiv\w*|(?:polarita|polarity)(?: sentix)? (?:piu alta|higher|highest|maggiore)|"
                         r"more positive|most positive|higher (?:sentix )?polarity|highest (?:sentix )?polarity"),
    ("polarity", "asc", r"piu negativ\w*|(?:polarita|polarity)(?: sentix)? (?:piu bassa|lower|lowest|minore)|"
                        r"more negative|most negative|lower (?:sentix )?polarity|lowest (?:sentix )?polarity"),
    ("length", "desc", r"piu lung\w*|longer|longest"),
    ("length", "asc", r"piu cort\w*|piu brev\w*|shorter|shortest"),
)
#: The question picks one of the words it names ("quale", "which").
WHICH = r"\b(?:quale|chi|which|who)\b"


class Comparison(StandalonePattern):
    """The named word with the most (least) of a measure: ``VALUES ?wr { … }`` ordered, ``LIMIT 1``."""

    label = "COMPARISON"
    rank = 118
    guidance = ("Comparisons of named words: VALUES ?wr { \"a\"@it \"b\"@it }, the measure per word, ORDER BY it "
                "then ?wr, LIMIT 1 (which has more senses: GROUP BY ?wr ORDER BY DESC(COUNT(DISTINCT ?sense)) ?wr).")
    example = ("standalone", None, {"by": "senses", "direction": "desc", "words": ["casa", "sedia"]})
    question_cues = [(r"\b(?:" + "|".join(regex for _, _, regex in COMPARATIVES) + r")\b", 0.6)]
    slot_fields = {"compare_by": None, "compare_direction": None}

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """Two or three lemmas with different values of the measure (sampled, reproducibly)."""
        rng = random.Random(self.label)
        out: list[dict] = []
        for measure in MEASURES:
            pool = sorted(facts.lemmas(MEASURES[measure].fact) & facts.lemmas("lemma"))
            for _ in range(30):
                lemmas = rng.sample(pool, rng.choice([2, 2, 3]))
                words = [written(facts, lemma) for lemma in lemmas]
                values = [measure_value(facts, measure, lemma) for lemma in lemmas]
                if len(set(words)) < len(words) or len(set(values)) < len(values):
                    continue  # a tie (or one word twice) makes a poor question
                out.append({"by": measure, "direction": rng.choice(["desc", "asc"]), "words": words})
        return out

    def build(self, slots: dict, rng: random.Random):
        by, direction, words = slots["by"], slots.get("direction", "desc"), list(slots["words"])
        frame = constrained([], "list", rng=rng)
        frame.any_written_rep()  # the words asked about, however they are spelt
        value, aggregated = add_measure(frame, by)
        key = ("DESC", value) if direction == "desc" else value
        where = Group([Values(frame.wr, [italian(w) for w in words])] + frame.where.elements)
        # each lemma apart (two lemmas may share a written form), shown by its written form
        query = Select([frame.wr], where, distinct=not aggregated,
                       group_by=[frame.lemma, frame.wr] if aggregated else [], order_by=[key, frame.wr], limit=1)
        tags = dict(frame.labels)
        tags[self.label] = 0.9
        mentions = [(w, w) for w in words]
        return query, [self._question(by, direction, words)], tags, mentions

    def _question(self, by: str, direction: str, words: list[str]):
        measure = MEASURES[by]
        listed_it, listed_en = quoted_list(words, "it"), quoted_list(words, "en", " or ")
        if by == "senses":
            more_it, more_en = ("più sensi", "more senses") if direction == "desc" else ("meno sensi", "fewer senses")
            it = [f"Quale ha {more_it} tra {listed_it}?", f"Tra {listed_it}, quale ha {more_it} in CompL-it?"]
            en = [f"Which has {more_en}, {listed_en}?", f"Which of {quoted_list(words, 'en')} has {more_en} in CompL-it?"]
            ling = ([f"Tra i lemmi {listed_it}, quale ha {more_it} in CompL-it?"],
                    [f"Of the lemmas {quoted_list(words, 'en')}, which has {more_en} in CompL-it?"])
        elif by == "length":
            longer_it, longer_en = ("più lunga", "longer") if direction == "desc" else ("più corta", "shorter")
            it = [f"Quale parola è {longer_it} tra {listed_it}?", f"Tra {listed_it}, quale è {longer_it}?"]
            en = [f"Which word is {longer_en}, {listed_en}?", f"Which of {quoted_list(words, 'en')} is {longer_en}?"]
            ling = ([f"Tra i lemmi {listed_it}, quale ha la forma scritta {longer_it}?"],
                    [f"Of the lemmas {quoted_list(words, 'en')}, which has the {longer_en} written form?"])
        else:
            high_it, high_en = ("più alta", "highest") if direction == "desc" else ("più bassa", "lowest")
            it = [f"Tra {listed_it}, quale ha la polarità Sentix {high_it}?",
                  f"Quale tra {listed_it} ha la polarità Sentix {high_it}?"]
            en = [f"Which of {quoted_list(words, 'en')} has the {high_en} Sentix polarity?",
                  f"Which is {'more positive' if direction == 'desc' else 'more negative'} according to Sentix, {listed_en}?"]
            ling = ([f"Tra i lemmi {listed_it}, quale ha la polarità Sentix {high_it}?"],
                    [f"Of the lemmas {quoted_list(words, 'en')}, which has the {high_en} Sentix polarity?"])
        order, order_en = ORDER_WORDS[direction]
        return frag("standalone", it, en,
                    f"Tra i lila:Lemma con ontolex:writtenRep {listed_it}, restituisci quello con {measure.tech} "
                    f"{'maggiore' if direction == 'desc' else 'minore'}: ORDER BY {order}, LIMIT 1.",
                    f"Among the lila:Lemma whose ontolex:writtenRep is {quoted_list(words, 'en')}, return the one with "
                    f"the {'largest' if direction == 'desc' else 'smallest'} {measure.tech}: ORDER BY {order_en}, LIMIT 1.",
                    ling=ling, lead="italian")

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        """Named words (VALUES) ordered and cut: a comparison."""
        return 0.8 if {"VALUES"} <= f.words and f.order_by and f.limit and len(f.strings) >= 2 else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(17)
    def read_comparative(self, text: Text, slots) -> None:
        """A comparative over two or more quoted words ("quale ha più sensi tra «a» e «b»")."""
        either = rf"(?:{QUOTED})\s*(?:,|\bo\b|\bor\b|\boppure\b)\s*(?:{QUOTED})"  # "… «punto» o «campo»?"
        if len(re.findall(QUOTED, text.folded)) < 2 or not (text.has(WHICH) or text.has(either)):
            return
        for measure, direction, regex in COMPARATIVES:
            m = text.search(rf"\b(?:{regex})\b")
            if m:
                slots.compare_by, slots.compare_direction = measure, direction
                text.mask(*m.span())
                return

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        if slots.compare_by is None or len(slots.quoted) < 2:
            return None
        return {"by": slots.compare_by, "direction": slots.compare_direction, "words": list(slots.quoted)}


PATTERN = Comparison()
