"""SENSE_COUNT: how many CompL-it senses a word has (polysemy)."""

from __future__ import annotations

import random

from ..namespaces import COMPLIT_SERVICE
from ..sparql.model import IRI, Call, Lit, Op, Triple
from .base import Facts, Frame, frag, sg
from .pattern import Pattern
from .reading import ARTICLE, NAMED_HEAD, NUMBER, VALUE, Text, reads

#: "How many senses": a count of senses (not of lemmas).
SENSES_COUNT = (r"\b(?:quant[ieoa]|how many|numero(?: totale)? di|number of|conta|count)\s+(?:[a-z:-]+\s+){0,2}?"
                r"(?:sensi|significati|accezioni|senses|meanings|ontolex:sense|ontolex:lexicalsense)\b")
#: ``(regex, added)``: a minimum number of senses is the number read (group ``n``) plus ``added``.
MIN_SENSES = (
    (rf"\b(?:almeno|at least)\s+{NUMBER}\s+(?:[\w:-]+\s+){{0,2}}?(?:sensi|significati|senses|meanings|ontolex:sense)",
     0),
    (rf"\b{NUMBER}\s+(?:o piu|or more)\s+(?:sensi|significati|senses|meanings)", 0),
    (rf"\b(?:piu di|more than|oltre)\s+{NUMBER}\s+(?:sensi|significati|senses|meanings)", 1),
    (r"\b(?:piu di|more than)\s+(?:un|uno|one|a single)\s+(?:senso|significato|sense|meaning)", 2),
    (r"\b(?:polisem\w*|polysem\w*)", 2),
    (r"\b(?:diversi|molti|vari|piu|multipl\w*|several|multiple|(?<!how )many)\s+(?:sensi|significati|senses|meanings)", 2),
)


class SenseCount(Pattern):
    """``COUNT(DISTINCT ?sense)`` per word, or lemmas with at least N senses."""

    label = "SENSE_COUNT"
    rank = 60
    guidance = ("Count senses inside SERVICE with COUNT(DISTINCT ?sense), grouped by the lemma.")
    example = ("word", "cane", {})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    fact_queries = {
        "senses": "SELECT ?lemma (COUNT(DISTINCT ?s) AS ?n) WHERE { ?word ontolex:canonicalForm ?lemma . "
                  f"?lemma a lila:Lemma . SERVICE <{COMPLIT_SERVICE}> {{ ?word ontolex:sense ?s }} }} GROUP BY ?lemma",
    }
    needs = ("senses",)
    question_cues = [
        (r"\b(quanti (sensi|significati)|how many (senses|meanings)|numero di (sensi|significati)"
         r"|number of (senses|meanings))\b", 0.95),
        (r"\b(polisem\w*|polysem\w*|pi[uù] sensi|more than one (sense|meaning)|(sensi|significati) divers\w*)\b", 0.8),
        (r"\b((almeno|at least) \d+ ([\w:-]+ ){0,2}(sensi|significati|senses|meanings|ontolex:sense)"
         r"|\d+ (o piu|or more) (sensi|significati|senses|meanings)|(numero|number) di ([\w:-]+ ){0,2}ontolex:sense"
         r"|number of ([\w:-]+ ){0,2}ontolex:sense)", 0.9),
    ]
    compose = {"projection": 4, "word": 9}
    build_order = 7
    aggregates = True
    alone_note = "a sense count cannot be combined with other facts; only the count is shown"
    uncountable_note = "a sense-count condition cannot be counted over; it was left out"
    slot_fields = {"senses_count": False, "min_senses": None}
    named_cues = (
        (7, rf"\b(?:quanti|quante)\s+(?:sensi|significati|accezioni)\s+ha\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (8, rf"\bhow many (?:senses|meanings) does\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"sensi|senses"
    mention_cue = SENSES_COUNT

    @reads(21)
    def read_minimum(self, text: Text, slots) -> None:
        """A minimum number of senses ("almeno 3 sensi", "polysemous")."""
        for pattern, added in MIN_SENSES:
            m = text.search(pattern)
            if m:
                n = m.groupdict().get("n")
                slots.min_senses = int(float(n.replace(",", "."))) + added if n else added
                text.mask(*m.span())
                return

    @reads(112)
    def read_request(self, text: Text, slots) -> None:
        """A count of senses; its words are dropped from the request view, so they do not ask for a count of lemmas."""
        if text.asks(SENSES_COUNT):
            slots.senses_count = True
            text.drop(SENSES_COUNT)

    @reads(114)
    def read_not_a_count(self, text: Text, slots) -> None:
        """How many senses a word has is its sense count, not a count of lemmas (unless a minimum is set)."""
        if slots.min_senses is None and slots.senses_count:
            slots.count = False

    def constraint_steps(self, slots) -> list[dict]:
        return [{"min_senses": slots.min_senses}] if slots.min_senses else []

    def word_steps(self, slots) -> list[dict]:
        return [{}] if slots.senses_count else []

    def asks_count(self, slots) -> bool:
        return slots.senses_count and slots.min_senses is None

    def applicable(self, facts: Facts, lemma: str) -> bool:
        rows = facts.by_lemma("senses").get(lemma)
        return bool(rows) and int(rows[0][0]) >= 2

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        n = int(facts.by_lemma("senses")[lemma][0][0])
        return {} if shape == "word" else {"min_senses": rng.randint(2, n)}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if not slots.get("min_senses"):
            return None  # shown next to the lemmas: it narrows nothing
        least = int(slots["min_senses"])
        return {lemma for lemma, rows in facts.by_lemma("senses").items() if int(rows[0][0]) >= least}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        frame.aggregate = True
        if frame.shape != "word" and slots.get("min_senses"):
            sense, _ = frame.sense()
            at_least = int(slots["min_senses"])
            frame.having.append(Op(">=", (Call("COUNT", (sense,), distinct=True), Lit(at_least))))
            frame.fragments.append(frag(
                "constraint", [f"hanno almeno {at_least} sensi in CompL-it", f"hanno {at_least} o più significati"],
                [f"have at least {at_least} senses in CompL-it", f"have {at_least} or more meanings"],
                f"con almeno {at_least} ontolex:sense in CompL-it", f"with at least {at_least} CompL-it ontolex:sense"))
            frame.slot("min_senses", str(at_least))
            frame.tag(self.label, 0.9)
            return
        word, facet = frame.complit_facet()
        sense = frame.fresh("sense")
        facet.group.add(Triple(word, IRI.of("ontolex:sense"), sense))
        frame.projection.append((Call("COUNT", (sense,), distinct=True), frame.fresh("senses")))
        if frame.shape == "word":
            frame.fragments.append(frag("word_fact", sg("il numero di sensi"), sg("the number of senses"),
                                        "il numero di ontolex:sense in CompL-it (COUNT DISTINCT)",
                                        "the number of CompL-it ontolex:sense (COUNT DISTINCT)",
                                        ask=(["Quanti sensi ha {w}?", "Quanti significati ha {w}?"],
                                             ["How many senses does {w} have?", "How many meanings does {w} have?"]),
                                        ling=(sg("il numero delle sue accezioni"), sg("the number of its senses"))))
        else:
            frame.fragments.append(frag("projection", sg("il numero dei loro sensi", True),
                                        sg("the number of senses of each", True),
                                        "il numero di ontolex:sense in CompL-it (COUNT DISTINCT)",
                                        "the number of CompL-it ontolex:sense (COUNT DISTINCT)"))
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        # a count of senses, not a count of lemmas that reach a sense relation
        sense = IRI.of("ontolex:sense").value
        if any(sense in f.object_of.get(v, set()) for v in f.aggregate_vars.get("COUNT", ())):
            return 0.9
        return 0.0


PATTERN = SenseCount()
