"""Constraint prompts for LLM translation, generated from the pattern catalogue.

A prompt has three parts:

* **base rules**: the exact prefixes (from :mod:`nl2sparql.namespaces`), the
  layers of LiITA and the rules of ``SCHEMA.md`` that queries get wrong;
* **pattern rules**: for each pattern the question needs (detected from its
  cues, or found by the offline translator), the rule that pattern must keep
  and its canonical building block — rendered by the catalogue's own
  ``build()`` on example slots, so the prompt always shows the shape the
  generator and the offline translator use;
* the **multi-entry rule** when two or more entry-based resources are combined.

:func:`build_messages` adds the top retrieved examples (question → SPARQL) as
few-shot material; :func:`repair_message` turns validation issues into the
follow-up request of a repair round.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable, Sequence

from ..namespaces import COMPLIT_SERVICE, prologue
from ..patterns import CATALOGUE, LABELS
from ..patterns.compose import finish_query, start_frame
from ..sparql.model import render

BASE_RULES = [
    "Use exactly these prefixes (a wrong prefix IRI silently returns nothing):\n{prefixes}",
    "Italian lemmas: ?lemma a lila:Lemma ; ontolex:writtenRep ?wr (written forms are tagged \"…\"@it). Match a "
    "written form with FILTER(STR(?wr) = \"casa\"), never with a plain literal.",
    "The LiITA data (lemma bank, ELITA emotions, Sentix polarity, dialect glossaries, inflected forms) is queried "
    "without SERVICE (the default graph is the union of the LiITA graphs). CompL-it data (senses, definitions, "
    f"semantic and lexical relations) is only reachable inside SERVICE <{COMPLIT_SERVICE}> {{ … }}.",
    "Join LiITA and CompL-it through the word IRI: ?word ontolex:canonicalForm ?lemma OUTSIDE the SERVICE block, "
    "then ?word ontolex:sense ?sense INSIDE it. A FILTER inside SERVICE cannot see variables bound outside it.",
    "Hypernymy points the 'wrong' way: ?specific lexinfo:hyponym ?general (hyponyms of animale are senses ?x with "
    "?x lexinfo:hyponym ?animaleSense); ?part lexinfo:partMeronym ?whole.",
    "Compare labels such as emotion names case-insensitively (LCASE(STR(?label)) = \"paura\").",
    "A LIMIT needs an ORDER BY (otherwise the subset is arbitrary). List queries return ?lemma ?wr ordered by ?wr.",
    "Answer with exactly one SPARQL SELECT query in a ```sparql code block and nothing else.",
]

MULTI_ENTRY_RULE = ("Several resources are combined: each one has its OWN entry for a lemma (ELITA, Sentix, each "
                    "dialect glossary, the inflected forms, CompL-it). Join them through ?lemma, with a different "
                    "variable for each entry (?emotionEntry, ?sentixEntry, ?itEntry…); reusing one entry variable "
                    "across resources silently returns nothing.")

#: Label → the rule a query using that pattern must keep.
PATTERN_RULES = {
    "EMOTION_LEXICON": "ELITA emotions: ?entry ontolex:canonicalForm ?lemma ; elita:HasEmotion elita:Paura (emotions "
                       "elita:Gioia Tristezza Paura Disgusto Rabbia Sorpresa Aspettativa Fiducia Amore; their labels are "
                       "Italian, capitalised).",
    "POLARITY": "Sentix polarity is a separate entry: ?sentix ontolex:canonicalForm ?lemma ; marl:hasPolarity "
                "marl:Positive|Negative|Neutral ; marl:hasPolarityValue ?value (−1..1).",
    "TRANSLATION": "Dialect translations go from the Italian entry to the dialect entry: ?it ontolex:canonicalForm "
                   "?lemma ; vartrans:translatableAs ?d . ?d ontolex:canonicalForm ?dl . ?dl dcterms:isPartOf <the "
                   "dialect LemmaBank> ; ontolex:writtenRep ?t.",
    "MULTI_TRANSLATION": "Each glossary has its own Italian entry: use separate ?itEntry variables for Parmigiano and "
                         "Sicilian.",
    "SENSE_DEFINITION": "Definitions are CompL-it data: inside SERVICE, ?word ontolex:sense ?sense . ?sense "
                        "skos:definition ?definition (search them with CONTAINS(LCASE(STR(?definition)), \"…\")).",
    "SENSE_COUNT": "Count senses inside SERVICE with COUNT(DISTINCT ?sense), grouped by the lemma.",
    "SEMANTIC_RELATION": "Hyponyms of X: ?sense lexinfo:hyponym ?xSense; parts of X: ?sense lexinfo:partMeronym "
                         "?xSense; X's sense belongs to a CompL-it word written X (STR(?xwr) = \"X\"), inside SERVICE.",
    "LEXICAL_RELATION": "Synonyms: lexinfo:approximateSynonym; antonyms: lexinfo:antonym or CompL-it's "
                        "<http://klab/lexicon/vocabulary/compl-it#antonymComp> / #antonymGrad (use all three), "
                        "between senses, inside SERVICE.",
    "POS_FILTER": "Part of speech and gender on the lemma: lila:hasPOS lila:noun ; lila:hasGender lila:feminine.",
    "MORPHO_REGEX": "Affixes on the written form: STRSTARTS / STRENDS / CONTAINS (STR(?wr), \"…\").",
    "COUNT_ENTITIES": "Counts use COUNT(DISTINCT ?x) (with GROUP BY for per-value counts).",
    "META_GRAPH": "Graphs: GRAPH ?g { … }; the Lemma Bank graph is <http://liita.it/data>, ELITA's "
                  "<http://w3id.org/elita> (no slash).",
    "LEXICAL_FORM": "Inflected forms: ?entry ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f . ?f "
                    "ontolex:writtenRep ?form ; lexinfo:number lexinfo:plural (tense, verbFormMood, person, gender).",
    "SERVICE_INTEGRATION": "The CompL-it word is linked outside SERVICE (?word ontolex:canonicalForm ?lemma) and "
                           "described inside it.",
    "COMPOSITIONAL": "Chain the constraints on the same ?lemma (and the same ?sense inside SERVICE).",
}

#: Label → (shape, named word, slots) used to render the canonical block of each pattern.
EXAMPLE_SLOTS = {
    "EMOTION_LEXICON": ("list", None, {"mode": "constraint", "emotion": "Paura"}),
    "POLARITY": ("list", None, {"polarity": "Negative"}),
    "TRANSLATION": ("word", "casa", {"dialect": "siciliano"}),
    "MULTI_TRANSLATION": ("word", "acqua", {}),
    "SENSE_DEFINITION": ("word", "cane", {}),
    "SENSE_COUNT": ("word", "cane", {}),
    "SEMANTIC_RELATION": ("list", None, {"relation": "hypernym", "target": "animale"}),
    "LEXICAL_RELATION": ("list", None, {"relation": "synonym", "target": "paura"}),
    "POS_FILTER": ("list", None, {"pos": "noun", "gender": "feminine"}),
    "MORPHO_REGEX": ("list", None, {"kind": "suffix", "affix": "zione"}),
    "LEXICAL_FORM": ("word", "essere", {"feature": "future"}),
    "SERVICE_INTEGRATION": ("word", "cane", {}),
    "COUNT_ENTITIES": ("standalone", None, {"kind": "by", "by": "pos"}),
    "META_GRAPH": ("standalone", None, {"kind": "lemma_graphs"}),
}
ENTRY_LABELS = {"EMOTION_LEXICON", "POLARITY", "TRANSLATION", "MULTI_TRANSLATION", "LEXICAL_FORM",
                "SENSE_DEFINITION", "SENSE_COUNT", "SEMANTIC_RELATION", "LEXICAL_RELATION", "SERVICE_INTEGRATION"}


@lru_cache(maxsize=None)
def canonical_block(label: str) -> str | None:
    """The catalogue's rendering of ``label`` on example slots (``None`` for derived labels)."""
    spec = EXAMPLE_SLOTS.get(label)
    if spec is None:
        return None
    shape, word, slots = spec
    rng = random.Random(0)
    if shape == "standalone":
        query, *_ = CATALOGUE[label].build(dict(slots), rng)
        return render(query)
    frame = start_frame(shape, word)
    CATALOGUE[label].build(frame, dict(slots), rng)
    return render(finish_query(frame))


def base_rules() -> list[str]:
    """The rules every LiITA query must keep."""
    prefixes = prologue().strip()
    return [rule.format(prefixes=prefixes) if "{prefixes}" in rule else rule for rule in BASE_RULES]


def pattern_rules(labels: Iterable[str]) -> list[str]:
    """The rules and canonical blocks of the given pattern labels (catalogue order)."""
    wanted = [l for l in LABELS if l in set(labels)]
    out = []
    for label in wanted:
        text = f"{label}: {PATTERN_RULES.get(label, '')}".strip()
        block = canonical_block(label)
        if block:
            text += f"\nCanonical block:\n```sparql\n{block.strip()}\n```"
        out.append(text)
    return out


def needs_multi_entry(labels: Iterable[str]) -> bool:
    """True when two or more entry-based resources are combined."""
    resources = {"EMOTION_LEXICON": "elita", "POLARITY": "sentix", "TRANSLATION": "glossary",
                 "MULTI_TRANSLATION": "glossary2", "LEXICAL_FORM": "forms"}
    found = {resources[l] for l in labels if l in resources}
    complit = any(l in labels for l in ("SENSE_DEFINITION", "SENSE_COUNT", "SEMANTIC_RELATION", "LEXICAL_RELATION"))
    return len(found) + complit >= 2 or "MULTI_TRANSLATION" in labels


def system_prompt(labels: Iterable[str]) -> str:
    """The constraint prompt: base rules, pattern rules and (when needed) the multi-entry rule."""
    labels = list(labels)
    parts = ["You translate questions about LiITA (Linking Italian) into SPARQL. Rules:"]
    parts += [f"{i}. {rule}" for i, rule in enumerate(base_rules(), 1)]
    rules = pattern_rules(labels)
    if rules:
        parts.append("\nPatterns this question needs:")
        parts += rules
    if needs_multi_entry(labels):
        parts.append("\nMulti-entry rule: " + MULTI_ENTRY_RULE)
    return "\n".join(parts)


def build_messages(question: str, labels: Iterable[str], examples: Sequence = (),
                   draft: str | None = None) -> list[dict]:
    """Chat messages for one question: the constraint prompt, retrieved examples, optionally a draft query."""
    user = []
    if examples:
        user.append("Similar questions with their correct queries:")
        for e in examples:
            user.append(f"Q: {e.question}\n```sparql\n{e.sparql.strip()}\n```")
    if draft:
        user.append(f"A draft built from the pattern catalogue (fix it if it does not answer the question):\n"
                    f"```sparql\n{draft.strip()}\n```")
    user.append(f"Question: {question}")
    return [{"role": "system", "content": system_prompt(labels)}, {"role": "user", "content": "\n\n".join(user)}]


def repair_message(sparql: str | None, issues: Sequence) -> dict:
    """The user turn of a repair round: what was wrong with the last answer."""
    if sparql is None:
        text = "Your answer did not contain a SPARQL query. Answer with one query in a ```sparql block."
    else:
        lines = "\n".join(f"- {i.severity}: {i.message}" for i in issues)
        text = f"The query has these problems:\n{lines}\nReturn the corrected query in a ```sparql block."
    return {"role": "user", "content": text}
