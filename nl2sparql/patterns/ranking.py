"""RANKING: the top N lemmas by a measure, and the extremes ("the most positive word expressing joy").

"I 5 sostantivi più positivi secondo Sentix", "Which 3 words have the most
senses?", "Among the words expressing joy, which has the highest Sentix
polarity?": the lemmas of the constraints, ordered by the measure and then by
their written form (a total order, so the LIMIT cut is fixed), first ``n``::

    SELECT DISTINCT ?wr WHERE { … ?sentixEntry ontolex:canonicalForm ?lemma ; marl:hasPolarity ?c ;
      marl:hasPolarityValue ?polarity . ?lemma a lila:Lemma ; ontolex:writtenRep ?wr }
    ORDER BY DESC(?polarity) ?wr LIMIT 5

A sense ranking groups by the lemma (and its written form) and orders by
``COUNT(DISTINCT ?sense)``. The answer is the written forms, in rank order.
"""

from __future__ import annotations

import random

from ..sparql.model import Call, Filter, Group, Op, Select, SubSelect, Var
from .analytics import (MEASURES, ORDER_WORDS, add_measure, body, constrained, constraint_options, it_article,
                        matching, phrases, restricted)
from .base import Facts, frag
from .pattern import StandalonePattern
from .reading import NUMBER, Text, reads

#: Superlatives that rank by a measure: (measure, direction, folded regex).
SUPERLATIVES = (
    ("polarity", "desc", r"piu positiv\w*|polarita (?:sentix )?piu alt\w*|most positive|highest (?:sentix )?polarity|"
                         r"(?:maggiore|massima) polarita"),
    ("polarity", "asc", r"piu negativ\w*|polarita (?:sentix )?piu bass\w*|most negative|lowest (?:sentix )?polarity|"
                        r"(?:minore|minima) polarita"),
    ("senses", "desc", r"(?:con |with )?(?:il )?(?:maggior numero di|piu|the most|most|more) (?:compl-?it )?(?:sensi|"
                       r"significati|accezioni|senses|meanings)|(?:piu|most) polisem\w*|most polysem\w*"),
    ("senses", "asc", r"(?:con |with )?(?:meno|the fewest|fewest|the least|least) (?:compl-?it )?(?:sensi|significati|"
                      r"senses|meanings)"),
    ("length", "desc", r"piu lung[aoh]\w*|longest|(?:con |with )?(?:il )?(?:maggior numero di|piu|the most|most) (?:lettere|letters|"
                       r"caratteri|characters)|lunghezza maggiore|greatest length"),
    ("length", "asc", r"piu cort\w*|piu brev\w*|shortest|(?:con |with )?(?:meno|the fewest|fewest) (?:lettere|letters|"
                      r"caratteri|characters)|lunghezza minore|smallest length"),
)
#: "i primi 5", "top 10", "the 3 …": how many (group ``n``); without it, the single extreme.
HOW_MANY = (rf"\b(?:i |le |gli |the )?(?:prim[ie]|first|top)\s+{NUMBER}\b",
            rf"\b(?:i|le|gli|the|which|what|quali|quale)\s+{NUMBER}\b",
            rf"\b{NUMBER}\s+(?:parole|lemmi|termini|sostantivi|verbi|aggettivi|avverbi|words|lemmas|terms|nouns|"
            r"verbs|adjectives|adverbs)\b")
#: How often a variant is the single extreme rather than a top N.
EXTREME = 0.3


class Ranking(StandalonePattern):
    """``ORDER BY DESC(measure) ?wr LIMIT n`` over the lemmas of other patterns' constraints."""

    label = "RANKING"
    rank = 116
    guidance = ("Rankings (top N, the most/least …): ORDER BY the measure, then the written form, with LIMIT N: "
                "ORDER BY DESC(?polarity) ?wr LIMIT 5; by senses: GROUP BY ?lemma ?wr "
                "ORDER BY DESC(COUNT(DISTINCT ?sense)) ?wr LIMIT 5. Never a LIMIT without a total ORDER BY.")
    example = ("standalone", None, {"by": "polarity", "direction": "desc", "n": 5,
                                    "steps": [("POS_FILTER", {"pos": "noun"})]})
    question_cues = [(r"\b(?:" + "|".join(regex for _, _, regex in SUPERLATIVES) + r")\b", 0.85),
                     (r"\b(?:top \d+|classifica|ranking|ranked)\b", 0.7)]
    slot_fields = {"rank_by": None, "rank_direction": None}

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """Rankings of constrained lemma sets that have more members than the cut (sampled, reproducibly)."""
        rng = random.Random(self.label)
        out: list[dict] = []
        for measure in MEASURES:
            pool = sorted(facts.lemmas(MEASURES[measure].fact))
            for anchor in rng.sample(pool, min(len(pool), 40)):
                steps = constraint_options(facts, anchor, rng, most=2)
                members = matching(facts, steps)
                members = (members if members is not None else set(pool)) & set(pool)
                n = 1 if rng.random() < EXTREME else rng.choice([3, 5, 10])
                if len(members) <= n or (measure == "senses" and len(members) < 3):
                    continue
                out.append({"by": measure, "direction": rng.choice(["desc", "asc"]), "n": n, "steps": steps})
        return out

    def build(self, slots: dict, rng: random.Random):
        steps = [tuple(s) for s in slots.get("steps") or []]
        by, direction, n = slots["by"], slots.get("direction", "desc"), int(slots.get("n") or 1)
        frame = constrained(steps, "list", rng=rng, by_label=True)
        value, aggregated = add_measure(frame, by)
        if n == 1:
            query = _extreme(frame, value, aggregated, steps, by, direction)
        else:
            key = ("DESC", value) if direction == "desc" else value
            # a sense ranking counts each lemma's senses (not those of every lemma sharing its written form)
            query = Select([frame.wr], body(frame), distinct=not aggregated,
                           group_by=[frame.lemma, frame.wr] if aggregated else [], order_by=[key, frame.wr], limit=n)
        tags = dict(frame.labels)
        tags[self.label] = 0.9
        mentions = list(frame.mentions) + [(str(n), str(n))] if n > 1 else list(frame.mentions)
        return query, [self._question(frame, by, direction, n, rng)], tags, mentions

    def _question(self, frame, by: str, direction: str, n: int, rng: random.Random):
        measure = MEASURES[by]
        sup_it, sup_en = measure.more if direction == "desc" else measure.less
        head_it, vps_it = phrases(frame, "it", "plain", rng)
        head_en, vps_en = phrases(frame, "en", "plain", rng)
        set_it, set_en = restricted(head_it, vps_it, "it"), restricted(head_en, vps_en, "en")
        art = it_article(head_it)
        if n == 1:
            it = [f"Quale tra {art} {set_it} ha {sup_it}?"]
            en = [f"Which of the {set_en} has {sup_en}?"]
            if vps_it:
                it.append(f"Tra {art} {set_it}, quale ha {sup_it}?")
                en.append(f"Among the {set_en}, which one has {sup_en}?")
        else:
            num = "le" if art == "le" else "i"
            it = [f"Quali sono {num} {n} {set_it} con {sup_it}?"]
            en = [f"Which {n} {set_en} have {sup_en}?"]
            if vps_it:
                it.append(f"Tra {art} {set_it}, quali sono {num} {n} con {sup_it}?")
                en.append(f"Among the {set_en}, which {n} have {sup_en}?")
        _, tech_it = phrases(frame, "it", "tech", rng)
        _, tech_en = phrases(frame, "en", "tech", rng)
        scope_it, scope_en = (f"i lila:Lemma {tech_it}", f"the lila:Lemma {tech_en}") if tech_it else \
            ("i lila:Lemma", "the lila:Lemma")
        order, order_en = ORDER_WORDS[direction]
        first_it, first_en = ("il primo", "the first one") if n == 1 else (f"i primi {n}", f"the first {n}")
        return frag("standalone", it, en,
                    f"Ordina {scope_it} per {measure.tech} {order}, poi per ontolex:writtenRep, e restituisci "
                    f"{first_it} (ORDER BY … LIMIT {n}).",
                    f"Order {scope_en} by {measure.tech} {order_en}, then by ontolex:writtenRep, and return "
                    f"{first_en} (ORDER BY … LIMIT {n}).", lead="lexicon")

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        """ORDER BY … DESC with LIMIT, a LIMIT over grouped counts, or the rows equal to a MIN/MAX: a ranking
        (not an alphabetical cut)."""
        if f.extreme_filter and f.form == "select":
            return 0.8
        if not (f.order_by and f.limit) or f.form != "select" or "VALUES" in f.words:  # VALUES: a COMPARISON
            return 0.0
        if "DESC" in f.words or ("COUNT" in f.aggregates and f.group_by):
            return 0.8
        return 0.0  # an ascending order is most often alphabetical ("the first 10 in alphabetical order")

    # -- translator ---------------------------------------------------------------------------
    @reads(19)
    def read_superlative(self, text: Text, slots) -> None:
        """A superlative ranks by a measure; a number next to it says how many (read before LIMIT takes it)."""
        found = None
        for measure, direction, regex in SUPERLATIVES:
            # "2 o più sensi", "3 or more senses" set a minimum (SENSE_COUNT), not a ranking
            found = text.search(rf"(?<!\d o )(?<!\d or )\b(?:{regex})\b")
            if found:
                slots.rank_by, slots.rank_direction = measure, direction
                break
        if found is None:
            return
        for pattern in HOW_MANY:
            m = text.search(pattern)
            if m:
                slots.limit = int(float(m.group("n").replace(",", ".")))
                text.mask(*m.span("n"))
                break
        text.mask(*found.span())

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        """A ranking of the plan's constraints (the words asked for are the ranked ones)."""
        if slots.rank_by is None or slots.word or shape == "standalone":
            return None
        return {"by": slots.rank_by, "direction": slots.rank_direction or "desc", "n": slots.limit or 1,
                "steps": steps}


def _extreme(frame, value, aggregated: bool, steps, by: str, direction: str) -> Select:
    """Every lemma at the extreme of the measure (ties included: "the most negative word" may be 81 words).

    The extreme comes from a sub-select over the same constrained set (its variables are its own)::

        SELECT DISTINCT ?wr WHERE { … ?polarity …
          { SELECT (MIN(?polarity) AS ?extreme) WHERE { … } }  FILTER(?polarity = ?extreme) } ORDER BY ?wr

    A measure that aggregates (the number of senses) is computed per lemma in a sub-select first.
    """
    inner = constrained(steps, "list", rng=random.Random(0), by_label=True)
    inner_value, _ = add_measure(inner, by)
    extreme, pick = Var("extreme"), "MAX" if direction == "desc" else "MIN"
    if not aggregated:
        where = body(frame).add(SubSelect(Select([(Call(pick, (inner_value,)), extreme)], body(inner))),
                                Filter(Op("=", (value, extreme))))
        return Select([frame.wr], where, distinct=True, order_by=[frame.wr])
    measure, per_lemma = Var(by), Var(f"{by}PerLemma")
    counted = Select([frame.wr, (value, measure)], body(frame), group_by=[frame.lemma, frame.wr])
    inner_counted = Select([(inner_value, per_lemma)], body(inner), group_by=[inner.lemma])
    top = Select([(Call(pick, (per_lemma,)), extreme)], Group([SubSelect(inner_counted)]))
    where = Group([SubSelect(counted), SubSelect(top), Filter(Op("=", (measure, extreme)))])
    return Select([frame.wr], where, order_by=[frame.wr])


PATTERN = Ranking()
