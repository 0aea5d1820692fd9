"""Question realisation: fragments + shape → Italian and English questions in four personas.

A small realiser with grammatical features. The head noun of a list or a
count («parole», «sostantivi», "words") carries its gender and number: the
Italian article, «quanti/quante», the participles of the constraints (written
``{a}`` in fragment texts), the pronouns («me li/le») and «ciascuno/ciascuna»
agree with it. A word's facts carry their number, so the copula agrees
(«Qual è la definizione», «Quali sono i sinonimi», "What is / What are").

Each persona has a voice of its own, grammatical in both languages:

* ``generic``: plain questions ("Quali sostantivi esprimono paura?");
* ``linguist``: lexicographic terms (the lemma asked about, accezioni); the words of a list or a count are
  words, lemmas and hypolemmas, as for everyone;
* ``linked_data_expert``: the RDF terms a person in the field writes
  (lila:Lemma, ontolex:writtenRep, OPTIONAL, GROUP_CONCAT); the only persona
  with IRIs or prefixed names;
* ``pedagogical``: a learner or a teacher, with a short reason for asking.

What the question asks to show next to the lemmas ("also show X") is said as
optional («se presente», "if any"): the gold keeps the lemmas that lack it.
Alternatives are drawn with the caller's seeded RNG, so the same plan and seed
always give the same questions.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .base import PERSONAS, Fragment

#: Known Italian head nouns (plural) → (gender, singular). The genders are the Lemma Bank's
#: ``lila:hasGender`` of the singular (a mirror test checks them).
HEAD_NOUNS = {
    "parole": ("f", "parola"), "lemmi": ("m", "lemma"), "termini": ("m", "termine"), "voci": ("f", "voce"),
    "sostantivi": ("m", "sostantivo"), "verbi": ("m", "verbo"), "aggettivi": ("m", "aggettivo"),
    "avverbi": ("m", "avverbio"), "nomi": ("m", "nome"), "pronomi": ("m", "pronome"),
    "numerali": ("m", "numerale"), "interiezioni": ("f", "interiezione"),
    "preposizioni": ("f", "preposizione"), "determinanti": ("m", "determinante"),
}
#: The head when no pattern names one, per persona register (``plain`` / ``ling``). A list or a count is of
#: words (lemmas and hypolemmas, see :data:`~.compose.WORDS`), so even the linguist says words, not «lemmi».
DEFAULT_HEAD = {("it", "plain"): ["parole", "parole", "termini"], ("en", "plain"): ["words", "words", "terms"],
                ("it", "ling"): ["parole"], ("en", "ling"): ["words"]}


def gender(head: str) -> str:
    """The gender (``m``/``f``) of an Italian head noun phrase, from its first word (masculine if unknown)."""
    return HEAD_NOUNS.get(head.split()[0], ("m", ""))[0] if head else "m"


def plural_article(noun: str, g: str) -> str:
    """The Italian plural definite article for ``noun``: i, gli or le."""
    if g == "f":
        return "le"
    if re.match(r"[aeiouhx-zAEIOU]|s[^aeiou]|gn|ps|pn", noun):
        return "gli"
    return "i"


def join(parts: list[str], lang: str) -> str:
    """``a, b e c`` / ``a, b and c`` (Italian «ed» before a word starting with e)."""
    if len(parts) <= 1:
        return "".join(parts)
    last = parts[-1]
    conj = " ed " if lang == "it" and last[:1] in ("e", "è") else (" e " if lang == "it" else " and ")
    return ", ".join(parts[:-1]) + conj + last


def cap(text: str) -> str:
    """Upper-case the first letter (quotes and digits left alone)."""
    return text[:1].upper() + text[1:] if text else text


@dataclass
class Agreement:
    """The features of an Italian plural head and the forms that agree with it."""

    g: str

    @property
    def a(self) -> str:
        """Plural ending of adjectives and participles: associati / associate."""
        return "e" if self.g == "f" else "i"

    @property
    def quanti(self) -> str:
        return "quante" if self.g == "f" else "quanti"

    @property
    def li(self) -> str:
        return "le" if self.g == "f" else "li"

    @property
    def ciascuno(self) -> str:
        return "ciascuna" if self.g == "f" else "ciascuno"

    @property
    def primi(self) -> str:
        return "le prime" if self.g == "f" else "i primi"


# -- list and count templates -------------------------------------------------------------------
# Fields: {H} the head, {TH} with its article, {VP} the constraints, {RC} " che {VP}" (or ""), {SC} the
# scope, {G} the grouping ("per ogni emozione, ") before the question, {Q} quanti/quante, {LI} li/le,
# {N} the limit, {PRIMI} i primi / le prime, {F_*} the facets ("Mostra anche …"), {TECH} the technical
# constraints, {SCT} the technical scope, {GT} the technical grouping.
LIST = {
    ("it", "generic"): ["Quali {H} {VP}{SC}?{F_sent}", "Quali sono {TH} che {VP}{SC}?{F_sent}",
                        "Mi elenchi {TH} che {VP}{SC}?{F_sent}", "Trova {TH} che {VP}{SC}{F_con}."],
    ("en", "generic"): ["Which {H} {VP}{SC}?{F_sent}", "What are the {H} that {VP}{SC}?{F_sent}",
                        "Can you list the {H} that {VP}{SC}?{F_sent}", "Find the {H} that {VP}{SC}{F_con}."],
    ("it", "linguist"): ["Nel lessico di LiITA, quali {H} {VP}{SC}?{F_ling}", "Elenca {TH} che {VP}{SC}.{F_ling}"],
    ("en", "linguist"): ["In the LiITA lexicon, which {H} {VP}{SC}?{F_ling}",
                         "List the {H} that {VP}{SC}.{F_ling}"],
    ("it", "pedagogical"): ["{LEAD}quali {H} {VP}{SC}?{F_ped}",
                            "Per un esercizio di vocabolario mi servono {H} che {VP}{SC}: me {LI} elenchi?{F_ped}"],
    ("en", "pedagogical"): ["{LEAD}which {H} {VP}{SC}?{F_ped}",
                            "For a vocabulary exercise I need {H} that {VP}{SC}: could you list them?{F_ped}"],
}
LIST_BARE = {
    ("it", "generic"): ["Elenca {TH}{SC}{F_con}.", "Quali sono {TH}{SC}?{F_sent}"],
    ("en", "generic"): ["List the {H}{SC}{F_con}.", "What are the {H}{SC}?{F_sent}"],
    ("it", "linguist"): ["Elenca {TH} del lessico di LiITA{SC}.{F_ling}"],
    ("en", "linguist"): ["List the {H} of the LiITA lexicon{SC}.{F_ling}"],
    ("it", "pedagogical"): ["{LEAD}quali sono {TH}{SC}?{F_ped}"],
    ("en", "pedagogical"): ["{LEAD}what are the {H}{SC}?{F_ped}"],
}
LIST_LIMIT = {
    ("it", "generic"): ["Quali sono {PRIMI} {N} {H}{RC}{SC}, in ordine alfabetico?{F_sent}"],
    ("en", "generic"): ["What are the first {N} {H}{RC}{SC}, in alphabetical order?{F_sent}"],
    ("it", "linguist"): ["Elenca {PRIMI} {N} {H}{RC}{SC}, in ordine alfabetico.{F_ling}"],
    ("en", "linguist"): ["List the first {N} {H}{RC}{SC}, in alphabetical order.{F_ling}"],
    ("it", "pedagogical"): ["{LEAD}quali sono {PRIMI} {N} {H}{RC}{SC}, in ordine alfabetico?{F_ped}"],
    ("en", "pedagogical"): ["{LEAD}what are the first {N} {H}{RC}{SC}, in alphabetical order?{F_ped}"],
}
LIST_TECH = {
    "it": ["Restituisci l'ontolex:writtenRep di ogni lila:Lemma{TECH}{SCT}.{F_ld}",
           "Seleziona gli ontolex:writtenRep dei lila:Lemma{TECH}{SCT}.{F_ld}"],
    "en": ["Return the ontolex:writtenRep of every lila:Lemma{TECH}{SCT}.{F_ld}",
           "Select the ontolex:writtenRep of the lila:Lemma resources{TECH}{SCT}.{F_ld}"],
}
LIST_TECH_LIMIT = {
    "it": ["Seleziona i primi {N} ontolex:writtenRep dei lila:Lemma{TECH}{SCT}, in ordine alfabetico "
           "(ORDER BY, LIMIT {N}).{F_ld}"],
    "en": ["Select the first {N} ontolex:writtenRep values of the lila:Lemma resources{TECH}{SCT}, in "
           "alphabetical order (ORDER BY, LIMIT {N}).{F_ld}"],
}
COUNT = {
    ("it", "generic"): ["{G}{Q} {H} {VP}{SC}?", "{G}qual è il numero di {H} che {VP}{SC}?"],
    ("en", "generic"): ["{G}how many {H} {VP}{SC}?", "{G}what is the number of {H} that {VP}{SC}?"],
    ("it", "linguist"): ["Nel lessico di LiITA, {G}{Q} {H} {VP}{SC}?", "{G}conta {TH} che {VP}{SC}."],
    ("en", "linguist"): ["In the LiITA lexicon, {G}how many {H} {VP}{SC}?", "{G}count the {H} that {VP}{SC}."],
    ("it", "pedagogical"): ["Per farmi un'idea del lessico: {G}{Q} {H} {VP}{SC}?", "{LEAD}{G}{Q} {H} {VP}{SC}?"],
    ("en", "pedagogical"): ["To get a feel for the lexicon: {G}how many {H} {VP}{SC}?", "{LEAD}{G}how many {H} {VP}{SC}?"],
}
COUNT_BARE = {
    ("it", "generic"): ["{G}{Q} {H} ci sono{SC}?"],
    ("en", "generic"): ["{G}how many {H} are there{SC}?"],
    ("it", "linguist"): ["{G}{Q} {H} registra LiITA{SC}?"],
    ("en", "linguist"): ["{G}how many {H} does LiITA record{SC}?"],
    ("it", "pedagogical"): ["Per farmi un'idea del lessico: {G}{Q} {H} ci sono{SC}?"],
    ("en", "pedagogical"): ["To get a feel for the lexicon: {G}how many {H} are there{SC}?"],
}
COUNT_TECH = {
    "it": ["Conta i lila:Lemma distinti{TECH}{SCT}{GT}.",
           "Calcola COUNT(DISTINCT ?lemma) sui lila:Lemma{TECH}{SCT}{GT}."],
    "en": ["Count the distinct lila:Lemma resources{TECH}{SCT}{GT}.",
           "Compute COUNT(DISTINCT ?lemma) over the lila:Lemma resources{TECH}{SCT}{GT}."],
}

# -- word templates ---------------------------------------------------------------------------------
# Fields: {W} the quoted word, {F} the facts, {QE} «Qual è»/«Quali sono» (agreeing), {TF} the technical facts.
WORD = {
    ("it", "generic"): ["{QE} {F} di {W}?", "Dimmi {F} della parola {W}.", "Mi dici {F} di {W}?"],
    ("en", "generic"): ["{QE} {F} of {W}?", "Tell me {F} of the word {W}.", "Can you give me {F} of {W}?"],
    ("it", "linguist"): ["Per il lemma {W}, riporta {F}.", "Del lemma {W} vorrei conoscere {F}."],
    ("en", "linguist"): ["For the lemma {W}, give {F}.", "For the lemma {W}, I need {F}."],
    ("it", "pedagogical"): ["{LEAD}mi mostri {F} di {W}?", "Per capire meglio la parola {W}: {qe} {F}?"],
    ("en", "pedagogical"): ["{LEAD}can you show me {F} of {W}?", "To understand the word {W} better: {qe} {F}?"],
}
WORD_TECH = {
    "it": ["Per il lila:Lemma con ontolex:writtenRep {W}, recupera {TF}.",
           "Dato il lila:Lemma con ontolex:writtenRep {W}, seleziona {TF}."],
    "en": ["For the lila:Lemma whose ontolex:writtenRep is {W}, retrieve {TF}.",
           "Given the lila:Lemma with ontolex:writtenRep {W}, select {TF}."],
}
#: The pedagogical persona's frames, by what the question is about (a fragment's ``lead``, see
#: :func:`~.base.frag`): a frame must fit the question (a learner asking a Sicilian translation is not
#: "learning Italian"; a question about one word is not about how LiITA is organised).
LEADS = {
    "italian": {"it": ["Sto imparando l'italiano: ", "Una curiosità per la lezione di italiano: "],
                "en": ["I am learning Italian: ", "A question for my Italian class: "]},
    "dialect": {"it": ["Sto studiando i dialetti italiani: ", "Per una lezione sui dialetti: "],
                "en": ["I am studying Italian dialects: ", "For a lesson on Italian dialects: "]},
    "lexicon": {"it": ["Sto studiando il lessico italiano: "], "en": ["I am studying Italian vocabulary: "]},
    "kb": {"it": ["Per capire come è organizzata LiITA: "], "en": ["To understand how LiITA is organised: "]},
}
#: The linguist's frame for a whole question with no linguist's wording of its own (``kb``: about LiITA itself).
LING_LEADS = {"kb": {"it": "In LiITA, ", "en": "In LiITA, "},
              "lexicon": {"it": "Nel lessico di LiITA, ", "en": "In the LiITA lexicon, "}}


def decap(text: str) -> str:
    """``text`` with its first letter lower-cased, to follow a frame (a name such as «LiITA» is kept)."""
    first = text.split(" ", 1)[0]
    return text if any(ch.isupper() for ch in first[1:]) else text[:1].lower() + text[1:]


def topic(fragments: list[Fragment], default: str) -> str:
    """What a question is about: a fragment's ``lead`` (``dialect`` wins: a translation is the question)."""
    leads = {f.lead for f in fragments if f.lead}
    return "dialect" if "dialect" in leads else next(iter(sorted(leads)), default)


def _facets(lang: str, parts: list[tuple[str, dict]], tech: list[str]) -> dict[str, str]:
    """The facet attachments of every template style (empty strings when nothing is shown).

    A facet may be missing for some lemmas, so it is said as optional («se presente», "if any"),
    unless every lemma has one (``always``: a count of senses).
    """
    keys = ("F_sent", "F_con", "F_ling", "F_ped", "F_ld")
    if not parts:
        return dict.fromkeys(keys, "")
    text = join([t for t, _ in parts], lang)
    plural = len(parts) > 1 or parts[0][1]["n"] == "pl"
    optional = not all(f.get("always") for _, f in parts)
    tech_text = join(tech, lang)
    if lang == "it":
        present = ("se presenti" if plural else "se presente") if optional else ""
        exists = ("se ci sono" if plural else "se c'è") if optional else ""
        ld = (f" Aggiungi con OPTIONAL {tech_text}" + (", aggregati con GROUP_CONCAT (una riga per lemma)."
                                                       if len(tech) > 1 else "."))
        return {"F_sent": f" Mostra anche {text}{_comma(present)}.", "F_con": f", con {text}{space(present)}",
                "F_ling": f" Riporta anche {text}{_comma(present)}.",
                "F_ped": f" Mi aiuterebbe vedere anche {text}{_comma(exists)}.", "F_ld": ld}
    ld = (f" Add {tech_text} with OPTIONAL" + (", aggregated with GROUP_CONCAT (one row per lemma)."
                                              if len(tech) > 1 else "."))
    where, if_any = (" where available", ", if any") if optional else ("", "")
    return {"F_sent": f" Also show {text}{if_any}.", "F_con": f", with {text}{where}",
            "F_ling": f" Also give {text}{where}.",
            "F_ped": f" It would help me to also see {text}{if_any}.", "F_ld": ld}


def _comma(text: str) -> str:
    return f", {text}" if text else ""


def space(text: str) -> str:
    """`` text`` (nothing when ``text`` is empty): an optional phrase after a word."""
    return f" {text}" if text else ""


def agree(text: str, ag: Agreement) -> str:
    """A fragment text with its participle endings (``{a}``) agreeing with the head."""
    return text.replace("{a}", ag.a)


def _tech_phrase(parts: list[str], lang: str) -> str:
    """Technical constraints, each a «con …» / "with …" phrase, after the class name."""
    return (" " + join(parts, lang)) if parts else ""


def _list_or_count(fragments: list[Fragment], shape: str, lang: str, persona: str, rng: random.Random,
                   limit: int | None) -> str:
    by_kind: dict[str, list[Fragment]] = {}
    for f in fragments:
        by_kind.setdefault(f.kind, []).append(f)
    if persona == "linked_data_expert":
        tech = [f.pick(lang, "tech", rng) for f in by_kind.get("head", []) + by_kind.get("constraint", [])]
        facets = [f.pick(lang, "tech", rng) for f in by_kind.get("projection", []) + by_kind.get("pair", [])]
        values = {"TECH": _tech_phrase(tech, lang), "N": limit,
                  "SCT": "".join(" " + f.pick(lang, "tech", rng) for f in by_kind.get("scope", [])),
                  "GT": "".join(", " + f.pick(lang, "tech", rng) for f in by_kind.get("group", [])),
                  **_facets(lang, [("", {"n": "pl"})] * len(facets), facets)}
        if shape == "count":
            return rng.choice(COUNT_TECH[lang]).format(**values)
        return rng.choice((LIST_TECH_LIMIT if limit else LIST_TECH)[lang]).format(**values)
    register = "ling" if persona == "linguist" else "plain"
    heads = by_kind.get("head", [])
    head = heads[0].pick(lang, register, rng) if heads else rng.choice(DEFAULT_HEAD[(lang, register)])
    ag = Agreement(gender(head) if lang == "it" else "m")
    vps = [agree(f.pick(lang, "plain", rng), ag) for f in by_kind.get("constraint", [])]
    vp = join(vps, lang)
    scope = "".join(" " + f.pick(lang, "plain", rng) for f in by_kind.get("scope", []))
    group = "".join(f.pick(lang, "plain", rng) + ", " for f in by_kind.get("group", []))
    facet_parts = [f.pick_np(lang, "plain", rng) for f in by_kind.get("projection", []) + by_kind.get("pair", [])]
    lead = rng.choice(LEADS["dialect" if any(f.kind == "scope" and f.lead for f in fragments) else "lexicon"][lang])
    values = {"H": head, "TH": f"{plural_article(head, ag.g)} {head}" if lang == "it" else head, "VP": vp,
              "LEAD": lead,
              "RC": (" che " if lang == "it" else " that ") + vp if vp else "", "SC": scope, "G": group,
              "Q": ag.quanti, "LI": ag.li, "N": limit, "PRIMI": ag.primi,
              **_facets(lang, facet_parts, [])}
    key = (lang, persona)
    if shape == "count":
        template = rng.choice((COUNT if vp else COUNT_BARE)[key])
    elif limit:
        template = rng.choice(LIST_LIMIT[key])
    else:
        template = rng.choice((LIST if vp else LIST_BARE)[key])
    return cap(template.format(**values))


def _word(fragments: list[Fragment], lang: str, persona: str, rng: random.Random, word: str | None) -> str:
    quoted = f"«{word}»" if lang == "it" else f'"{word}"'
    facts = [f for f in fragments if f.kind == "word_fact"]
    if persona == "linked_data_expert":
        picks = [f.pick(lang, "tech", rng) for f in facts]
        tech = join(picks, lang)
        if len(facts) > 1 and lang == "it":
            # feminine after feminine facts only («la polarità, le emozioni e la traduzione»), else masculine
            ag = Agreement("f" if all(re.match(r"(?:la|le) ", p) for p in picks) else "m")
            tech += f", {ag.ciascuno} in un OPTIONAL e aggregat{'a' if ag.g == 'f' else 'o'} con GROUP_CONCAT"
        elif len(facts) > 1:
            tech += ", each in an OPTIONAL and aggregated with GROUP_CONCAT"
        return rng.choice(WORD_TECH[lang]).format(W=quoted, TF=tech)
    lead = rng.choice(LEADS[topic(facts, "italian")][lang])
    if len(facts) == 1 and facts[0].has(lang, "ask") and persona in ("generic", "pedagogical") \
            and rng.random() < 0.6:
        question = facts[0].pick(lang, "ask", rng).replace("{w}", quoted)
        if persona == "pedagogical":
            return lead + decap(question)
        return question
    register = "ling" if persona == "linguist" else "plain"
    parts = [f.pick_np(lang, register, rng) for f in facts]
    plural = len(parts) > 1 or (parts and parts[0][1]["n"] == "pl")
    qe = ("Quali sono" if plural else "Qual è") if lang == "it" else ("What are" if plural else "What is")
    text = rng.choice(WORD[(lang, persona)]).format(W=quoted, F=join([t for t, _ in parts], lang), QE=qe,
                                                    qe=qe.lower(), LEAD=lead)
    return cap(text)


def _standalone(fragments: list[Fragment], lang: str, persona: str, rng: random.Random) -> str:
    """A whole question; the pedagogical and linguist frames follow what it is about (its ``lead``, default
    ``kb``: how LiITA is organised), and the linguist's frame stands in for a wording of its own."""
    fragment = fragments[0]
    register = {"linked_data_expert": "tech", "linguist": "ling"}.get(persona, "plain")
    text = fragment.pick(lang, register, rng)
    about = topic(fragments, "kb")
    if persona == "pedagogical":
        return rng.choice(LEADS[about][lang]) + decap(text)
    if persona == "linguist" and not fragment.has(lang, "ling"):
        return LING_LEADS["kb" if about == "kb" else "lexicon"][lang] + decap(text)
    return text


def realise(fragments: list[Fragment], shape: str, lang: str, persona: str, rng: random.Random,
            word: str | None = None, limit: int | None = None) -> str:
    """One question for a plan (its fragments and shape) in ``lang`` and ``persona``."""
    if shape == "standalone":
        return _standalone(fragments, lang, persona, rng)
    if shape == "word":
        return _word(fragments, lang, persona, rng, word)
    return _list_or_count(fragments, shape, lang, persona, rng, limit)


def realise_all(fragments: list[Fragment], shape: str, rng: random.Random, word: str | None = None,
                limit: int | None = None) -> dict[str, dict[str, str]]:
    """``{lang: {persona: question}}`` for both languages and all personas."""
    return {lang: {p: realise(fragments, shape, lang, p, rng, word, limit) for p in PERSONAS}
            for lang in ("it", "en")}
