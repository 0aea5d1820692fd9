"""AGGREGATE: the average, highest or lowest value of a measure over constrained lemmas, overall or per facet.

"Qual è la polarità Sentix media dei sostantivi che esprimono tristezza?",
"What is the average Sentix polarity for each ELITA emotion?", "What is the
highest Sentix polarity among the words expressing love?": one value per
lemma first (a sub-select, so a lemma with two written forms or two emotions
counts once per group), then the aggregate::

    SELECT ?emotion (AVG(?polarity) AS ?average) WHERE {
      { SELECT DISTINCT ?lemma ?emotion ?polarity WHERE { … } } } GROUP BY ?emotion

Which word has the highest value is a RANKING; what the highest value is, is an AGGREGATE.
"""

from __future__ import annotations

import random
import re

from ..sparql.model import IRI, Call, Group, Select, SubSelect, Triple, Var
from .analytics import (MEASURES, add_measure, body, constrained, constraint_options, it_article, it_of, matching,
                        phrases, restricted)
from .base import Facts, frag
from .phrasing import space
from .pattern import StandalonePattern
from .reading import Text, reads
from .vocab import FACETS, PER_FACET, facet_named

#: Operation → (aggregate function, answer column, Italian and English words for the value).
OPS = {
    "avg": ("AVG", "average", ("media", "medio"), "average"),
    "max": ("MAX", "highest", ("più alta", "massimo"), "highest"),
    "min": ("MIN", "lowest", ("più bassa", "minimo"), "lowest"),
}
#: Folded words asking for an aggregate value (group ``op`` says which).
_WHAT = r"\b(?:qual e|quale e|what is|what's|what are|quanto vale|dimmi|tell me|give me)\s+(?P<between>(?:[a-z'-]+\s+){0,6}?)"
OP_WORDS = (
    ("avg", r"\b(?:medi[ao]|in media|average|mean value|on average)\b"),
    ("max", _WHAT + r"(?:massim[oa]|piu alt[oa]|maggiore|highest|maximum|largest|greatest)\b"),
    ("min", _WHAT + r"(?:minim[oa]|piu bass[oa]|minore|lowest|minimum|smallest)\b"),
)
#: Words that make an extreme a ranking of words ("what is the word with the highest …"), not a value.
WORD_ASKED = r"\b(?:parol\w*|lemm\w*|termin\w*|words?|lemmas?|terms?|nouns?|verbs?|adjectives?|sostantiv\w*|verb[oi]|aggettiv\w*)\b"
#: Words that name the measure: senses (else the Sentix polarity).
SENSE_WORDS = r"\b(?:sensi|significati|accezioni|senses|meanings)\b"
#: Words that name the length of the written form.
LENGTH_WORDS = r"\b(?:lunghezza|length|lunghe|lunghi|long|caratteri|characters|lettere|letters)\b"
#: Groupings an aggregate is drawn with (the facts that tell an anchor's value).
GROUPS = (None, "emotion", "pos")
#: The sampled fact that tells a lemma's value of each grouping facet.
GROUP_FACTS = {"emotion": "emotion", "pos": "lemma"}


def _grouping(frame, group: str | None) -> Var | None:
    """Bind the facet ``group`` of ``?lemma`` on the frame (``None``: no grouping)."""
    if group is None:
        return None
    facet = FACETS[group]
    key = frame.fresh(group)
    if facet.on_entry:
        entry = frame.fresh(f"{group}Entry")
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma), *facet.value_triples(entry, key))
    else:
        frame.where.add(*facet.value_triples(frame.lemma, key))
    return key


class Aggregate(StandalonePattern):
    """``AVG`` / ``MAX`` / ``MIN`` of a measure, one value per lemma, optionally ``GROUP BY`` a facet."""

    label = "AGGREGATE"
    rank = 117
    guidance = ("Averages and extremes of a value: one value per lemma first, in a sub-select, then AVG/MAX/MIN "
                "(GROUP BY the facet for 'per emotion'): SELECT ?emotion (AVG(?polarity) AS ?average) WHERE "
                "{ { SELECT DISTINCT ?lemma ?emotion ?polarity WHERE { … } } } GROUP BY ?emotion.")
    example = ("standalone", None, {"op": "avg", "by": "polarity", "group": "emotion", "steps": []})
    question_cues = [(r"\b(?:medi[ao]|average|mean|massim[oa]|minim[oa]|maximum|minimum)\b", 0.8)]
    slot_fields = {"aggregate_op": None, "aggregate_by": None, "aggregate_group": None}

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """Averages and extremes of constrained lemma sets with at least three members (sampled, reproducibly)."""
        rng = random.Random(self.label)
        out: list[dict] = []
        for measure in MEASURES:
            pool = sorted(facts.lemmas(MEASURES[measure].fact))
            for anchor in rng.sample(pool, min(len(pool), 30)):
                group = rng.choice(GROUPS)
                steps = constraint_options(facts, anchor, rng, most=1 if group else 2)
                if group and any(label == {"emotion": "EMOTION_LEXICON", "pos": "POS_FILTER"}[group]
                                 for label, _ in steps):
                    continue  # grouping by a facet the constraints fix says nothing
                members = matching(facts, steps)
                members = (members if members is not None else set(pool)) & set(pool)
                if group:
                    members &= facts.lemmas(GROUP_FACTS[group])
                if len(members) < 3:
                    continue
                op = rng.choice(["avg", "avg", "max", "min"])
                out.append({"op": op, "by": measure, "group": group, "steps": steps})
        return out

    def build(self, slots: dict, rng: random.Random):
        steps = [tuple(s) for s in slots.get("steps") or []]
        op, by, group = slots["op"], slots["by"], slots.get("group")
        frame = constrained(steps, "list", rng=rng, by_label=True)
        value, aggregated = add_measure(frame, by)
        key = _grouping(frame, group)
        keys = [frame.lemma] + ([key] if key else [])
        inner_value = Var("value")
        written = by == "length"  # the length is the written form's
        if aggregated:
            inner = Select(keys + [(value, inner_value)], body(frame, keep_written=written), group_by=list(keys))
        elif isinstance(value, Var):
            inner = Select(keys + [value], body(frame, keep_written=written), distinct=True)
            inner_value = value
        else:
            inner = Select(keys + [(value, inner_value)], body(frame, keep_written=written), distinct=True)
        function, column, _, _ = OPS[op]
        outer = Select(([key] if key else []) + [(Call(function, (inner_value,)), Var(column))],
                       Group([SubSelect(inner)]), group_by=[key] if key else [])
        tags = dict(frame.labels)
        tags[self.label] = 0.9
        mentions = list(frame.mentions)
        if group:
            mentions.append((FACETS[group].it.split()[1], FACETS[group].en.split()[-1]))
        return outer, [self._question(frame, op, by, group, rng)], tags, mentions

    def _question(self, frame, op: str, by: str, group: str | None, rng: random.Random):
        measure = MEASURES[by]
        head_it, vps_it = phrases(frame, "it", "plain", rng)
        head_en, vps_en = phrases(frame, "en", "plain", rng)
        set_it, set_en = restricted(head_it, vps_it, "it"), restricted(head_en, vps_en, "en")
        per_it = f" per {FACETS[group].it}" if group else ""
        per_en = f" for each {FACETS[group].en}" if group else ""
        words_it, word_en = OPS[op][2], OPS[op][3]
        if by == "polarity":
            value_it = f"la polarità Sentix {words_it[0]}"
            value_en = f"the {word_en} Sentix polarity"
        elif by == "length":
            value_it = f"la lunghezza {words_it[0]} in lettere"
            value_en = f"the {word_en} length in letters"
        else:
            value_it = f"il numero {words_it[1]} di sensi in CompL-it"
            value_en = f"the {'largest' if op == 'max' else 'smallest' if op == 'min' else 'average'} number of CompL-it senses"
        of_it = it_of(set_it) if op == "avg" else f"tra {it_article(head_it)} {set_it}"
        of_en = f"{'of' if op == 'avg' else 'among'} the {set_en}"
        it = [f"Qual è {value_it} {of_it}{per_it}?"]
        en = [f"What is {value_en} {of_en}{per_en}?"]
        _, tech_it = phrases(frame, "it", "tech", rng)
        _, tech_en = phrases(frame, "en", "tech", rng)
        function = OPS[op][0]
        by_it = f", raggruppando per {FACETS[group].prop}" if group else ""
        by_en = f", grouped by {FACETS[group].prop}" if group else ""
        return frag("standalone", it, en,
                    f"Calcola {function}({measure.tech}) sui lila:Lemma{space(tech_it)}, un valore per lemma{by_it}.",
                    f"Compute {function}({measure.tech}) over the lila:Lemma{space(tech_en)}, one value per lemma{by_en}.",
                    lead="lexicon")

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        if f.extreme_filter:  # the rows at a MIN/MAX (a tie-safe RANKING), not the value itself
            return 0.0
        return 0.9 if f.aggregates & {"AVG", "MIN", "MAX", "SUM"} else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(18)
    def read_aggregate(self, text: Text, slots) -> None:
        """An average or an extreme value, of the Sentix polarity or of the number of senses, maybe per facet."""
        for op, regex in OP_WORDS:
            m = text.search(regex)
            if m and not ("between" in m.groupdict() and re.search(WORD_ASKED, m.group("between") or "")):
                slots.aggregate_op = op
                slots.aggregate_by = ("senses" if text.has(SENSE_WORDS) else "length" if text.has(LENGTH_WORDS)
                                      else "polarity")
                text.mask(*m.span())
                break
        if slots.aggregate_op is None:
            return
        m = re.search(PER_FACET, text.folded)
        if m:
            slots.aggregate_group = facet_named(m.group("key"))
            text.mask(*m.span())

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        if slots.aggregate_op is None or shape == "standalone":
            return None
        return {"op": slots.aggregate_op, "by": slots.aggregate_by, "group": slots.aggregate_group, "steps": steps}


PATTERN = Aggregate()
