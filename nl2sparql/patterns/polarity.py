"""POLARITY: Sentix polarity of Italian lemmas (a separate entry from ELITA's)."""

from __future__ import annotations

import random

from ..sparql.model import IRI, Filter, Lit, Op, Triple
from .base import Facts, Frame, Pattern, frag
from .vocab import MARL, POLARITY, local_name


class Polarity(Pattern):
    """``?sentix ontolex:canonicalForm ?lemma ; marl:hasPolarity marl:Negative ; marl:hasPolarityValue ?polarity``."""

    label = "POLARITY"
    rank = 20
    guidance = ("Sentix polarity is a separate entry: ?sentixEntry ontolex:canonicalForm ?lemma ; marl:hasPolarity "
                f"{'|'.join('marl:' + name for name in POLARITY)} ; marl:hasPolarityValue ?value (-1..1).")
    example = ("list", None, {"polarity": "Negative"})
    resource = "Sentix"
    entry_properties = ("marl:hasPolarity",)
    fact_queries = {
        "sentix": "SELECT DISTINCT ?lemma ?polarity ?value WHERE { ?s ontolex:canonicalForm ?lemma ; "
                  "marl:hasPolarity ?polarity ; marl:hasPolarityValue ?value . ?lemma a lila:Lemma }",
    }
    needs = ("sentix",)
    question_cues = [
        (r"\b(polarita|polarity|sentix|sentiment(?![oi]\b)\w*|marl:haspolarity\w*)\b", 0.9),
        (r"\b(positiv[aeio]|negativ[aeio]|neutr[aeio]|positive|negative|neutral)\b", 0.6),
    ]

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        polarity_iri, value = rng.choice(facts.by_lemma("sentix")[lemma])
        value, name = float(value), local_name(polarity_iri)
        slots = {"polarity": name}
        if shape != "word" and name in ("Positive", "Negative") and abs(value) >= 0.3 and rng.random() < 0.4:
            slots["threshold"] = round(abs(value) - 0.05, 1)
        return slots

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        name, threshold = slots.get("polarity"), slots.get("threshold")
        out = set()
        for lemma, rows in facts.by_lemma("sentix").items():
            for iri, value in rows:
                if threshold is not None:
                    ok = float(value) > threshold if name == "Positive" else float(value) < -threshold
                else:
                    ok = name is None or iri == MARL + name
                if ok:
                    out.add(lemma)
        return out

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        entry, score = frame.fresh("sentixEntry"), frame.fresh("polarity")
        frame.where.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma))
        name = slots.get("polarity")
        if frame.shape == "word" or name is None:
            cls, cls_label = frame.fresh("polarityClass"), frame.fresh("polarityLabel")
            frame.where.add(Triple(entry, IRI.of("marl:hasPolarity"), cls),
                            Triple(cls, IRI.of("rdfs:label"), cls_label),
                            Triple(entry, IRI.of("marl:hasPolarityValue"), score))
            frame.project(cls_label, score)
            frame.fragments.append(frag("word_fact", ["la polarità secondo Sentix", "la polarità Sentix"],
                                        ["the Sentix polarity", "the polarity according to Sentix"],
                                        "la polarità (marl:hasPolarity, marl:hasPolarityValue) di Sentix",
                                        "the Sentix polarity (marl:hasPolarity, marl:hasPolarityValue)"))
            frame.tag(self.label, 0.9)
            return
        frame.where.add(Triple(entry, IRI.of("marl:hasPolarityValue"), score))
        threshold = slots.get("threshold")
        if threshold is not None:
            op, lit = (">", threshold) if name == "Positive" else ("<", -threshold)
            # marl:hasPolarity keeps the entry a Sentix one: ELITA entries carry marl:hasPolarityValue too
            frame.where.add(Triple(entry, IRI.of("marl:hasPolarity"), frame.fresh("polarityClass")),
                            Filter(Op(op, (score, Lit(lit)))))
            it = f"hanno una polarità Sentix {'superiore' if op == '>' else 'inferiore'} a {lit}"
            en = f"have a Sentix polarity {'above' if op == '>' else 'below'} {lit}"
            frame.fragments.append(frag("constraint", it, en,
                                        f"con marl:hasPolarityValue {op} {lit} (Sentix)",
                                        f"with marl:hasPolarityValue {op} {lit} (Sentix)"))
            frame.slot("threshold", str(lit))
        else:
            frame.where.add(Triple(entry, IRI.of("marl:hasPolarity"), IRI(MARL + name)))
            it_adj, en_adj = POLARITY[name]
            frame.fragments.append(frag(
                "constraint", [f"hanno polarità {it_adj} secondo Sentix", f"sono classificati come di polarità {it_adj} in Sentix"],
                [f"have {en_adj} polarity in Sentix", f"are rated {en_adj} by Sentix"],
                f"con marl:hasPolarity marl:{name} (Sentix)", f"with marl:hasPolarity marl:{name} (Sentix)"))
            frame.slot("polarity", name, it_adj, en_adj)
        if frame.shape == "list":
            frame.project(score)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses("marl:hasPolarity") or f.uses_any("marl:Positive", "marl:Negative", "marl:Neutral"):
            return 0.9
        if f.uses("marl:hasPolarityValue") or f.uses("marl:Polarity"):
            return 0.7
        return 0.0


PATTERN = Polarity()
