"""TRANSLATION: dialect translations (Italian entry → dialect entry) in the LiITA glossaries."""

from __future__ import annotations

import random

from ..sparql.model import IRI, Triple, Var
from .base import Facts, Frame, Pattern, frag
from .vocab import DIALECT


def add_translation(frame: Frame, dialect: str) -> Var:
    """Add the glossary path to ``dialect`` for ``?lemma``; returns the dialect written-rep variable.

    Separate entry variables per resource (SCHEMA rule 2); direction always
    Italian entry → dialect entry (``vartrans:translatableAs``).
    """
    _, en, bank, _, _ = DIALECT[dialect]
    it_entry = frame.fresh(f"itEntry{en}")
    d_entry = frame.fresh(f"{dialect}Entry")
    d_lemma = frame.fresh(f"{dialect}Lemma")
    d_wr = frame.fresh(dialect)
    frame.where.add(Triple(it_entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                    Triple(it_entry, IRI.of("vartrans:translatableAs"), d_entry),
                    Triple(d_entry, IRI.of("ontolex:canonicalForm"), d_lemma),
                    Triple(d_lemma, IRI.of("dcterms:isPartOf"), IRI(bank)),
                    Triple(d_lemma, IRI.of("ontolex:writtenRep"), d_wr))
    return d_wr


class Translation(Pattern):
    """Project the Sicilian or Parmigiano translation of ``?lemma``."""

    label = "TRANSLATION"
    role = "projection"
    fact_queries = {
        f"translation_{d}": "SELECT DISTINCT ?lemma ?t WHERE { ?it ontolex:canonicalForm ?lemma ; "
                            "vartrans:translatableAs ?de . ?de ontolex:canonicalForm ?dl . "
                            f"?dl dcterms:isPartOf <{bank}> ; ontolex:writtenRep ?t . ?lemma a lila:Lemma }}"
        for d, (_, _, bank, _, _) in DIALECT.items()
    }
    question_cues = [
        (r"\b(tradu\w*|translat\w*|come si dice|how do you say|equivalent\w*|corrispond\w*)\b", 0.7),
        (r"\b(dialett\w*|dialect\w*|siciliano|sicilian|parmigiano|parma)\b", 0.8),
    ]

    def applicable(self, facts: Facts, lemma: str) -> bool:
        return any(lemma in facts.by_lemma(f"translation_{d}") for d in DIALECT)

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        return {"dialect": rng.choice([d for d in DIALECT if lemma in facts.by_lemma(f"translation_{d}")])}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        return facts.lemmas(f"translation_{slots['dialect']}")

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        dialect = slots["dialect"]
        it, en = DIALECT[dialect][0], DIALECT[dialect][1]
        frame.project(add_translation(frame, dialect))
        if frame.shape == "word":
            frame.fragments.append(frag("word_fact", [f"la traduzione in {it}", f"l'equivalente {it}"],
                                        [f"the {en} translation", f"the {en} equivalent"],
                                        f"la traduzione {it} (vartrans:translatableAs)",
                                        f"the {en} translation (vartrans:translatableAs)"))
        else:
            frame.fragments.append(frag("projection", [f"la loro traduzione in {it}", f"l'equivalente in {it}"],
                                        [f"their {en} translation", f"the {en} equivalent"],
                                        f"la voce {it} collegata con vartrans:translatableAs",
                                        f"the {en} entry linked by vartrans:translatableAs"))
        frame.slot("dialect", dialect, it, en)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        # only the glossary link is a translation; a query over a dialect lemma bank alone is not
        return 0.9 if f.uses("vartrans:translatableAs") else 0.0


PATTERN = Translation()
