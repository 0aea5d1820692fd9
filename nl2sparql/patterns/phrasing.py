"""Question realisation: fragments + shape → Italian and English questions in four personas.

Each persona has its own framing; fragments supply the content (``plain``
wording for most personas, ``tech`` wording for the linked-data expert).
Alternatives are drawn with the caller's seeded RNG, so the same plan and
seed always give the same questions.
"""

from __future__ import annotations

import random

from .base import PERSONAS, Fragment

_AND = {"it": " e ", "en": " and "}

FRAMES = {
    ("list", "it", "generic"): ["Quali {head} {vps}{scope}?{proj_sentence}", "Trova {head} che {vps}{scope}{proj_con}.",
                                "Mi elenchi {head} che {vps}{scope}{proj_con}?"],
    ("list", "en", "generic"): ["Which {head} {vps}{scope}?{proj_sentence}", "Find {head} that {vps}{scope}{proj_with}.",
                                "Can you list {head} that {vps}{scope}{proj_with}?"],
    ("list", "it", "linguist"): ["Elenca i lemmi ({head}) che {vps}{scope}{proj_con}.",
                                 "Nel lessico di LiITA, quali {head} {vps}{scope}?{proj_sentence}"],
    ("list", "en", "linguist"): ["List the lemmas ({head}) that {vps}{scope}{proj_with}.",
                                 "In the LiITA lexicon, which {head} {vps}{scope}?{proj_sentence}"],
    ("list", "it", "linked_data_expert"): ["Recupera i lila:Lemma {tech}{scope}, con il loro ontolex:writtenRep{proj_con}.",
                                           "Seleziona i lemmi LiITA (lila:Lemma) {tech}{scope}{proj_con}."],
    ("list", "en", "linked_data_expert"): ["Retrieve the lila:Lemma resources {tech}{scope}, with their ontolex:writtenRep{proj_with}.",
                                           "Select the LiITA lemmas (lila:Lemma) {tech}{scope}{proj_with}."],
    ("list", "it", "pedagogical"): ["Sto studiando il lessico italiano: quali {head} {vps}{scope}?{proj_sentence} Per rispondere si collegano i lemmi di LiITA alle risorse che li descrivono.",
                                    "Vorrei scoprire quali {head} {vps}{scope}{proj_con}: puoi mostrarmeli in ordine alfabetico?"],
    ("list", "en", "pedagogical"): ["I am studying the Italian lexicon: which {head} {vps}{scope}?{proj_sentence} Answering it links LiITA lemmas to the resources that describe them.",
                                    "I would like to find out which {head} {vps}{scope}{proj_with}: can you show them in alphabetical order?"],
    ("count", "it", "generic"): ["Quanti {head} {vps}{scope}?", "Qual è il numero di {head} che {vps}{scope}?"],
    ("count", "en", "generic"): ["How many {head} {vps}{scope}?", "What is the number of {head} that {vps}{scope}?"],
    ("count", "it", "linguist"): ["Quanti lemmi ({head}) {vps}{scope}?", "Conta i lemmi ({head}) che {vps}{scope}."],
    ("count", "en", "linguist"): ["How many lemmas ({head}) {vps}{scope}?", "Count the lemmas ({head}) that {vps}{scope}."],
    ("count", "it", "linked_data_expert"): ["Conta i lila:Lemma distinti {tech}{scope}.", "Calcola COUNT(DISTINCT ?lemma) sui lila:Lemma {tech}{scope}."],
    ("count", "en", "linked_data_expert"): ["Count the distinct lila:Lemma {tech}{scope}.", "Compute COUNT(DISTINCT ?lemma) over the lila:Lemma {tech}{scope}."],
    ("count", "it", "pedagogical"): ["Vorrei sapere quanti {head} {vps}{scope}: quanti sono in tutto?",
                                     "Per farmi un'idea del lessico: quanti {head} {vps}{scope}?"],
    ("count", "en", "pedagogical"): ["I would like to know how many {head} {vps}{scope}: how many are there in total?",
                                     "To get a feel for the lexicon: how many {head} {vps}{scope}?"],
    ("word", "it", "generic"): ["Quali sono {facts} di {word}?", "Dimmi {facts} della parola {word}.", "Mostrami {facts} di {word}."],
    ("word", "en", "generic"): ["What are {facts} of {word}?", "Tell me {facts} of the word {word}.", "Show me {facts} of {word}."],
    ("word", "it", "linguist"): ["Per il lemma {word}, riporta {facts}.", "Del lemma {word} vorrei {facts}."],
    ("word", "en", "linguist"): ["For the lemma {word}, give {facts}.", "For the lemma {word} I need {facts}."],
    ("word", "it", "linked_data_expert"): ["Per il lila:Lemma con ontolex:writtenRep {word}, recupera {facts}.",
                                           "Dato il lemma LiITA {word}, seleziona {facts}."],
    ("word", "en", "linked_data_expert"): ["For the lila:Lemma whose ontolex:writtenRep is {word}, retrieve {facts}.",
                                           "Given the LiITA lemma {word}, select {facts}."],
    ("word", "it", "pedagogical"): ["Sto imparando l'italiano: mi mostri {facts} di {word}?",
                                    "Per capire meglio la parola {word}, quali sono {facts}?"],
    ("word", "en", "pedagogical"): ["I am learning Italian: can you show me {facts} of {word}?",
                                    "To understand the word {word} better, what are {facts}?"],
}

DEFAULT_HEAD = {"it": ["parole", "lemmi", "termini"], "en": ["words", "lemmas", "terms"]}
STANDALONE_FRAMES = {
    ("it", "generic"): "{text}", ("en", "generic"): "{text}",
    ("it", "linguist"): "{text}", ("en", "linguist"): "{text}",
    ("it", "pedagogical"): "Per capire come è organizzata LiITA: {text}",
    ("en", "pedagogical"): "To understand how LiITA is organised: {text}",
}


BARE_FRAMES = {
    ("list", "it"): ["Elenca {head}{scope}{proj_con}.", "Mostrami {head}{scope}{proj_con}."],
    ("list", "en"): ["List {head}{scope}{proj_with}.", "Show me {head}{scope}{proj_with}."],
    ("count", "it"): ["Quanti {head} ci sono{scope}?", "Quanti sono {head}{scope}?"],
    ("count", "en"): ["How many {head} are there{scope}?", "What is the number of {head}{scope}?"],
}


def _join(parts: list[str], lang: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    last = parts[-1]
    conj = " ed " if lang == "it" and last[:1] in ("e", "è") else _AND[lang]
    return ", ".join(parts[:-1]) + conj + last


def realise(fragments: list[Fragment], shape: str, lang: str, persona: str, rng: random.Random,
            word: str | None = None, limit: int | None = None) -> str:
    """One question for a plan (its fragments and shape) in ``lang`` and ``persona``."""
    register = "tech" if persona == "linked_data_expert" else "plain"
    if shape == "standalone":
        frame = STANDALONE_FRAMES.get((lang, persona), "{text}")
        text = fragments[0].pick(lang, register, rng)
        return frame.format(text=text[0].lower() + text[1:] if frame != "{text}" else text)
    by_kind: dict[str, list[str]] = {}
    for f in fragments:
        by_kind.setdefault(f.kind, []).append(f.pick(lang, register, rng))
    template = rng.choice(FRAMES[(shape, lang, persona)])
    if shape in ("list", "count") and "constraint" not in by_kind and persona != "linked_data_expert":
        template = rng.choice(BARE_FRAMES[(shape, lang)])
    if shape == "word":
        quoted = f"«{word}»" if lang == "it" else f'"{word}"'
        return template.format(word=quoted, facts=_join(by_kind.get("word_fact", []), lang))
    head = by_kind.get("head", [None])[0]
    if head is None or persona == "linked_data_expert":
        head_plain = next((f.pick(lang, "plain", rng) for f in fragments if f.kind == "head"), None)
        head = head_plain or rng.choice(DEFAULT_HEAD[lang])
    vps = _join(by_kind.get("constraint", []), lang)
    tech_parts = [f.pick(lang, "tech", rng) for f in fragments if f.kind in ("head", "constraint")]
    tech = (" e " if lang == "it" else " and ").join(tech_parts)
    scope = " " + by_kind["scope"][0] if "scope" in by_kind else ""
    projections = by_kind.get("projection", [])
    proj = _join(projections, lang)
    values = {
        "head": head, "vps": vps, "scope": scope, "tech": tech,
        "proj_sentence": (f" Mostra anche {proj}." if lang == "it" else f" Also show {proj}.") if proj else "",
        "proj_con": f", con {proj}" if proj else "",
        "proj_with": f", with {proj}" if proj else "",
    }
    text = template.format(**values)
    if limit:
        text = (f"{text.rstrip('.?')} (i primi {limit} in ordine alfabetico)." if lang == "it"
                else f"{text.rstrip('.?')} (the first {limit} in alphabetical order).")
    return text


def realise_all(fragments: list[Fragment], shape: str, rng: random.Random, word: str | None = None,
                limit: int | None = None) -> dict[str, dict[str, str]]:
    """``{lang: {persona: question}}`` for both languages and all personas."""
    return {lang: {p: realise(fragments, shape, lang, p, rng, word, limit) for p in PERSONAS}
            for lang in ("it", "en")}
