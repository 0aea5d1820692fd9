"""LEXICAL_FORM: inflected forms (ontolex:otherForm) with their grammatical features."""

from __future__ import annotations

import random

from ..sparql.model import IRI, Triple
from .base import Facts, Frame, frag, pl
from .pattern import Pattern
from .reading import ARTICLE, NAMED_HEAD, VALUE, Text, reads
from .vocab import local_name

# lexinfo feature → (property, Italian, English)
FEATURES = {
    "plural": ("number", "al plurale", "in the plural"),
    "singular": ("number", "al singolare", "in the singular"),
    "present": ("tense", "al presente", "in the present tense"),
    "imperfect": ("tense", "all'imperfetto", "in the imperfect"),
    "past": ("tense", "al passato", "in the past tense"),
    "future": ("tense", "al futuro", "in the future tense"),
    "subjunctive": ("verbFormMood", "al congiuntivo", "in the subjunctive"),
    "conditional": ("verbFormMood", "al condizionale", "in the conditional"),
    "indicative": ("verbFormMood", "all'indicativo", "in the indicative"),
    "feminine": ("gender", "al femminile", "in the feminine"),
}
#: Feature → the folded words questions use for it (checked in this order).
FEATURE_WORDS: tuple[tuple[str, str], ...] = (
    ("plural", r"plural[ei]?"),
    ("singular", r"singolar[ei]|singular"),
    ("imperfect", r"imperfett[oa]|imperfect"),
    ("future", r"futur[oe]"),
    ("subjunctive", r"congiuntivo|subjunctive"),
    ("conditional", r"condizionale|conditional"),
    ("past", r"passato(?: remoto)?|past(?: tense)?|preterite"),
    ("present", r"presente|present(?: tense)?"),
    ("indicative", r"indicativo|indicative"),
    ("feminine", r"(?:al|in the) femminile|(?:al|in the) feminine|femminile|feminine"),
)
#: Feature → a word's forms with it asked as a whole question (``{w}``: the quoted word).
ASK = {
    "plural": (["Qual è il plurale di {w}?"], ["What is the plural of {w}?"]),
    "future": (["Come si coniuga {w} al futuro?"], ["How do you conjugate {w} in the future tense?"]),
    "imperfect": (["Come si coniuga {w} all'imperfetto?"], ["How do you conjugate {w} in the imperfect?"]),
    "subjunctive": (["Come si coniuga {w} al congiuntivo?"], ["How do you conjugate {w} in the subjunctive?"]),
    "conditional": (["Come si coniuga {w} al condizionale?"], ["How do you conjugate {w} in the conditional?"]),
}
#: A question about inflected forms.
FORMS_CUE = (r"\b(?:forme flesse|forma flessa|inflected forms?|inflections?|flession\w*|coniuga\w*|conjugat\w*|"
             r"declina\w*|declension|forme|forms|paradigm\w*|ontolex:otherform)\b")
#: Number words ask for forms when a word is named ("il plurale di «uovo»").
NUMBER_WORDS = r"\b(?:plural[ei]?|singolar[ei]|singular)\b"


class LexicalForm(Pattern):
    """``?entry ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f . ?f ontolex:writtenRep ?form``."""

    label = "LEXICAL_FORM"
    rank = 130
    guidance = ("Inflected forms: ?formEntry ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f . ?f ontolex:writtenRep "
                "?form ; lexinfo:number lexinfo:plural (tense, verbFormMood, person, gender).")
    example = ("word", "essere", {"feature": "future"})
    resource = "the inflected forms"
    entry_properties = ("ontolex:otherForm", "ontolex:lexicalForm")
    fact_queries = {
        "forms": "SELECT DISTINCT ?lemma ?feature WHERE { ?e ontolex:canonicalForm ?lemma ; ontolex:otherForm ?f . "
                 "?lemma a lila:Lemma . OPTIONAL { ?f ?p ?feature . "
                 "FILTER(?p IN (lexinfo:number, lexinfo:tense, lexinfo:verbFormMood, lexinfo:gender)) } }",
    }
    needs = ("forms",)
    question_cues = [
        (r"\b(forme? flesse?|inflected forms?|flession\w*|inflection\w*|coniuga\w*|conjugat\w*|declina\w*"
         r"|forme?|forms?|plural[ei]?|singolar[ei]|tempi verbali|tense|modo|mood|ontolex:otherform)\b", 0.8),
    ]
    compose = {"word": 8}
    slot_fields = {"forms": False, "form_feature": None}
    named_cues = (
        (9, rf"\bcome si coniuga\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (10, rf"\bhow (?:is|do you conjugate|does one conjugate)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"forme(?: flesse)?|plurale|singolare|coniugazione|forms|plural|singular|conjugation"
    mention_cue = FORMS_CUE + r"|\bplural[ei]?\b|\bsingolar"

    @reads(117)
    def read_request(self, text: Text, slots) -> None:
        """Inflected forms asked for, and the feature they must have."""
        if text.asks(FORMS_CUE) or (slots.word and text.asks(NUMBER_WORDS)):
            slots.forms = True
            for name, words in FEATURE_WORDS:
                if text.asks(rf"\b(?:{words})\b"):
                    slots.form_feature = name
                    break

    def word_steps(self, slots) -> list[dict]:
        if not slots.forms:
            return []
        return [{"feature": slots.form_feature} if slots.form_feature else {}]

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        features = sorted({local_name(r[0]) for r in facts.by_lemma("forms")[lemma] if r[0]} & set(FEATURES))
        return {"feature": rng.choice(features)} if features and rng.random() < 0.5 else {}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        facet = frame.facet()
        entry, form, form_wr = frame.fresh("formEntry"), frame.fresh("f"), frame.fresh("form")
        facet.group.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                        Triple(entry, IRI.of("ontolex:otherForm"), form),
                        Triple(form, IRI.of("ontolex:writtenRep"), form_wr))
        frame.show(facet, form_wr, "forms")
        feature = slots.get("feature")
        if feature:
            prop, it, en = FEATURES[feature]
            facet.group.add(Triple(form, IRI.of(f"lexinfo:{prop}"), IRI.of(f"lexinfo:{feature}")))
            ask = ASK.get(feature)
            frame.fragments.append(frag("word_fact", [pl(f"le forme flesse {it}"), pl(f"le forme {it}")],
                                        [pl(f"the inflected forms {en}"), pl(f"the forms {en}")],
                                        f"le ontolex:otherForm con lexinfo:{prop} lexinfo:{feature}",
                                        f"the ontolex:otherForm with lexinfo:{prop} lexinfo:{feature}",
                                        ask=ask))
            frame.slot("feature", feature, it, en)
        else:
            frame.fragments.append(frag("word_fact", [pl("le forme flesse"), pl("tutte le forme")],
                                        [pl("the inflected forms"), pl("all the forms")],
                                        "le ontolex:otherForm e il loro ontolex:writtenRep",
                                        "the ontolex:otherForm and their ontolex:writtenRep",
                                        ask=(["Quali sono le forme flesse di {w}?"],
                                             ["What are the inflected forms of {w}?"]),
                                        ling=(pl("il paradigma delle forme flesse"), pl("the paradigm of inflected forms"))))
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses_any("ontolex:otherForm", "ontolex:lexicalForm"):
            return 0.9
        if f.uses_any("lexinfo:tense", "lexinfo:verbFormMood", "lexinfo:person", "lexinfo:number"):
            return 0.8
        return 0.0


PATTERN = LexicalForm()
