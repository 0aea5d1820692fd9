"""DISTRIBUTION: how the lemmas of a count spread over a facet (emotion, part of speech, polarity class, gender).

"Quanti sostantivi ci sono per ogni emozione?", "How many words ending in
-zione are there per part of speech?": the count frame's lemmas, grouped by
the facet's value, largest group first::

    SELECT ?emotion (COUNT(DISTINCT ?lemma) AS ?count) WHERE { … ?lemma lila:hasPOS lila:noun .
      ?emotionEntry ontolex:canonicalForm ?lemma ; elita:HasEmotion ?emotion . … }
    GROUP BY ?emotion ORDER BY DESC(?count) ?emotion

It composes with every constraint of a count. Whole-KB counts per facet with
no constraint ("Quante voci ci sono per ciascuna emozione?") stay
COUNT_ENTITIES readings; the tagger tags both, since both are distributions.
"""

from __future__ import annotations

import random
import re

from ..sparql.model import IRI, Call, Select, Triple, Var
from .base import Facts, Frame, frag
from .pattern import Pattern
from .reading import Text, reads
from .vocab import FACETS, PER_FACET, facet_named

#: The facts (sampled by other patterns) that tell which facet values an anchor lemma has.
FACT_OF = {"pos": "lemma", "emotion": "emotion", "gender": "gender", "polarity": "sentix"}
#: Words that ask for a distribution even without "how many".
DISTRIBUTION_WORDS = r"\b(?:distribuzione|distribution|raggruppa\w*|group(?:ed)?)\b"
#: How often the composer turns a count into a distribution.
CHANCE = 0.3


def _grouped(key: Var, lemma: Var):
    """A finisher: the query counts ``lemma`` per value of ``key``, largest group first."""
    def finish(query: Select) -> None:
        count = Var("count")
        query.projection = [key, (Call("COUNT", (lemma,), distinct=True), count)]
        query.group_by = [key]
        query.order_by = [("DESC", count), key]
        query.distinct = False
    return finish


def _reads(group, prop: IRI) -> bool:
    """True when a LiITA block of the frame already uses ``prop`` (the facet is fixed: grouping by it says nothing)."""
    for element in group.elements:
        if isinstance(element, Triple) and element.p == prop:
            return True
        inner = getattr(element, "group", None)
        if inner is not None and _reads(inner, prop):
            return True
    return False


class Distribution(Pattern):
    """Group a count by a facet: ``GROUP BY ?facet`` with ``COUNT(DISTINCT ?lemma)``, ordered by the count."""

    label = "DISTRIBUTION"
    rank = 115
    kind = "query"
    guidance = ("Distributions: count the lemmas per value of the facet and order by the count: SELECT ?emotion "
                "(COUNT(DISTINCT ?lemma) AS ?count) … GROUP BY ?emotion ORDER BY DESC(?count) ?emotion.")
    example = ("count", None, {"by": "emotion"})
    compose = {"finish": 1}
    question_cues = [(PER_FACET, 0.8), (DISTRIBUTION_WORDS, 0.6)]
    slot_fields = {"group_by": None}

    # -- generator ----------------------------------------------------------------------------
    def compose_finish(self, frame: Frame, facts: Facts, anchor: str, rng: random.Random) -> None:
        """A count (without a scope, whose phrasing the facet would share) becomes a distribution, now and then."""
        if frame.shape != "count" or any(f.kind == "scope" for f in frame.fragments) or rng.random() >= CHANCE:
            return
        options = [by for by, facet in FACETS.items() if by in FACT_OF
                   and not _reads(frame.where, IRI.of(facet.prop)) and anchor in facts.by_lemma(FACT_OF[by])]
        if options:
            self.build(frame, {"by": rng.choice(options)}, rng)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        by = slots["by"]
        facet = FACETS[by]
        key = frame.fresh(by)
        if facet.on_entry:  # the resource's own entry for the lemma (multi-entry rule)
            entry = frame.fresh(f"{by}Entry")
            frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma), *facet.value_triples(entry, key))
        else:
            frame.where.add(*facet.value_triples(frame.lemma, key))
        frame.finishers.append(_grouped(key, frame.lemma))
        bare = facet.it.split(" ", 1)[1]
        frame.fragments.append(frag("group", [f"per {facet.it}", f"per ogni {bare}"],
                                    [f"for each {facet.en}", f"per {facet.en}"],
                                    f"raggruppati per {bare} ({facet.prop}, GROUP BY ?{key.name})",
                                    f"grouped by {facet.en} ({facet.prop}, GROUP BY ?{key.name})"))
        frame.slot("group_by", by, bare.split()[0], facet.en.split()[-1])
        frame.tag(self.label, 0.9)

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        """A grouped count whose values come from a facet property.

        The features do not tell which variables are grouped: a grouped count next to CompL-it senses is
        most often a sense count per lemma (SENSE_COUNT) and is left alone.
        """
        if "COUNT" not in f.aggregates or not f.group_by or f.uses("ontolex:sense"):
            return 0.0
        props = {IRI.of(facet.prop).value for facet in FACETS.values()}
        return 0.9 if any(preds & props for preds in f.object_of.values()) else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(113.5)
    def claim_facet(self, text: Text, slots) -> None:
        """In a count, "per classe di polarità" groups the count: it is no request for the polarity itself."""
        if slots.count or re.search(DISTRIBUTION_WORDS, text.requests):
            text.drop(PER_FACET)

    @reads(132)
    def read_per_facet(self, text: Text, slots) -> None:
        """"… per ogni emozione" in a count of constrained lemmas (or a count of one part of speech)."""
        m = re.search(PER_FACET, text.folded)
        if not m or not (slots.count or re.search(DISTRIBUTION_WORDS, text.folded)):
            return
        standalone = slots.standalone
        # a whole-KB count of one part of speech, asked per facet, is that part of speech's distribution
        # (COUNT_ENTITIES reads the other whole-KB counts, per facet too)
        if standalone is not None and not (standalone[0] == "COUNT_ENTITIES" and standalone[1].get("kind") == "pos"):
            return
        slots.standalone = None
        slots.group_by = facet_named(m.group("key"))

    def asks_count(self, slots) -> bool:
        return slots.group_by is not None

    def projection_steps(self, slots) -> list[dict]:
        return [{"by": slots.group_by}] if slots.group_by else []


PATTERN = Distribution()
