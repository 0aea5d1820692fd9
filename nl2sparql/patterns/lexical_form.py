"""LEXICAL_FORM: inflected forms (ontolex:otherForm) with their grammatical features."""

from __future__ import annotations

import random
import re

from ..folding import fold_same_length
from ..sparql.model import IRI, Call, Lit, Op, Optional_, Group, Path, Triple
from .base import Facts, Frame, frag, pl, sg
from .pattern import Pattern
from .reading import ARTICLE, NAMED_HEAD, VALUE, Text, reads
from .vocab import local_name

# lexinfo feature → (property, Italian, English)
#: "the masculine" is a form feature, "the masculine nouns" a gender of lemmas ("Is «riso» one of the masculine
#: nouns …?"): a feature word followed by a head noun is not one.
NOT_A_HEAD = r"(?!\s+(?:nouns?|adjectives?|pronouns?|articles?|words?|lemmas?|terms?)\b)"
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
    "masculine": ("gender", "al maschile", "in the masculine"),
    "participle": ("verbFormMood", "al participio", "in the participle"),
    "infinitive": ("verbFormMood", "all'infinito", "in the infinitive"),
    "gerundive": ("verbFormMood", "al gerundio", "in the gerund"),
    "imperative": ("verbFormMood", "all'imperativo", "in the imperative"),
    "firstPerson": ("person", "alla prima persona", "in the first person"),
    "secondPerson": ("person", "alla seconda persona", "in the second person"),
    "thirdPerson": ("person", "alla terza persona", "in the third person"),
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
    ("masculine", rf"(?:al|il|in the|the) maschile|(?:al|il|in the|the) masculine{NOT_A_HEAD}|forma maschile|"
                  r"masculine forms?"),
    ("participle", r"participi\w*|participles?"),
    ("infinitive", r"infinit[oi]|infinitive"),
    ("gerundive", r"gerundi\w*|gerunds?"),
    ("imperative", r"imperativ[oi]|imperative"),
    ("firstPerson", r"prima persona|first[- ]person|1st person|1a persona"),
    ("secondPerson", r"seconda persona|second[- ]person|2nd person|2a persona"),
    ("thirdPerson", r"terza persona|third[- ]person|3rd person|3a persona"),
)
#: Feature → a word's forms with it asked as a whole question (``{w}``: the quoted word).
ASK = {
    "plural": (["Qual è il plurale di {w}?"], ["What is the plural of {w}?"]),
    "future": (["Come si coniuga {w} al futuro?"], ["How do you conjugate {w} in the future tense?"]),
    "imperfect": (["Come si coniuga {w} all'imperfetto?"], ["How do you conjugate {w} in the imperfect?"]),
    "subjunctive": (["Come si coniuga {w} al congiuntivo?"], ["How do you conjugate {w} in the subjunctive?"]),
    "conditional": (["Come si coniuga {w} al condizionale?"], ["How do you conjugate {w} in the conditional?"]),
}
#: Grammatical features a question may ask to see next to each form: column → (lexinfo property, folded words).
FEATURE_COLUMNS = {
    "number": ("number", r"numero|number|singolare/plurale|singular/plural"),
    "gender": ("gender", r"genere|gender"),
    "tense": ("tense", r"tempo|tempi|tense|tenses"),
    "mood": ("verbFormMood", r"modo|modi|mood|moods"),
    "person": ("person", r"persona|persone|person|persons"),
    "case": ("case", r"caso|casi|case|cases"),
}
#: "with grammatical details": every feature column.
ALL_FEATURES = (r"\b(?:grammatical (?:details?|features?|information|info|tags?)|morphological (?:tags?|features?|details?)|"
                r"tratti grammaticali|caratteristiche grammaticali|informazioni grammaticali|tratti morfologici|"
                r"dettagli grammaticali|etichette morfologiche)\b")
#: How many forms a word has.
FORMS_COUNT = (r"\b(?:quante\s+(?:\w+\s+){0,2}?forme|how many\s+(?:\w+\s+){0,2}?forms|numero (?:di|delle) forme|"
               r"number of (?:\w+\s+)?forms)\b")
#: A minimum number of forms ("more than 20 different forms"): (regex, added to the number).
MIN_FORMS = ((r"\b(?:piu di|oltre|more than|over)\s+(?P<n>\d+)\s+(?:\w+\s+){0,2}?(?:forme|forms)\b", 1),
             (r"\b(?:almeno|at least)\s+(?P<n>\d+)\s+(?:\w+\s+){0,2}?(?:forme|forms)\b", 0))
#: A question about inflected forms.
FORMS_CUE = (r"\b(?:forme flesse|forma flessa|inflected forms?|inflections?|flession\w*|coniuga\w*|conjugat\w*|"
             r"declina\w*|declension|forme|forms|paradigm\w*|ontolex:otherform|"
             r"(?:morphological|inflectional|inflected) variants?|varianti (?:morfologiche|flessive))\b")
#: Feature words (not "present" / "past": too common) ask for forms when a word is named ("il plurale di «uovo»",
#: "the past participle of 'fare'").
NUMBER_WORDS = (r"\b(?:plural[ei]?|singolar[ei]|singular|participi\w*|participles?|gerundi\w*|gerunds?|infinit[oi]|"
                r"infinitive|futur[oe]|future tense|congiuntivo|subjunctive|condizionale|conditional|imperfett[oa]|"
                r"imperfect|imperativ[oi]|imperative|(?:prima|seconda|terza) persona|(?:first|second|third) person|"
                rf"(?:il|al|the|in the) (?:femminile|feminine|maschile|masculine){NOT_A_HEAD}|forma (?:femminile|maschile)|"
                r"forme (?:femminili|maschili)|(?:feminine|masculine) forms?)\b")


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
    slot_fields = {"forms": False, "form_feature": None, "form_features": list, "form_columns": list,
                   "forms_count": False, "min_forms": None}
    named_cues = (
        (9, rf"\bcome si coniuga\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (10, rf"\bhow (?:is|do you conjugate|does one conjugate)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"forme(?: flesse)?|plurale|singolare|coniugazione|forms|plural|singular|conjugation"
    mention_cue = FORMS_CUE + r"|\bplural[ei]?\b|\bsingolar"

    @reads(23)
    def read_minimum(self, text: Text, slots) -> None:
        """A minimum number of forms ("which lemmas have more than 20 forms")."""
        for pattern, added in MIN_FORMS:
            m = text.search(pattern)
            if m:
                slots.min_forms = int(m.group("n")) + added
                slots.forms = True
                text.mask(*m.span())
                return

    @reads(117)
    def read_request(self, text: Text, slots) -> None:
        """Inflected forms asked for: how many, with which features shown, or with one feature they must have."""
        # a feature word is read on the whole question too: "the masculine nouns" (its head dropped by then) is no form
        feature_asked = text.asks(NUMBER_WORDS) and re.search(NUMBER_WORDS, fold_same_length(text.original))
        if not (slots.forms or text.asks(FORMS_CUE) or (slots.word and feature_asked)):
            return
        slots.forms = True
        slots.forms_count = slots.min_forms is None and text.asks(FORMS_COUNT)
        # a feature value named once is a condition ("the future tense"); two values of one property are the
        # column's examples ("number (singular/plural)")
        named = [name for name, words in FEATURE_WORDS if text.asks(rf"\b(?:{words})\b")]
        by_prop: dict[str, list[str]] = {}
        for name in named:
            by_prop.setdefault(FEATURES[name][0], []).append(name)
        conditions = {prop: names[0] for prop, names in by_prop.items() if len(names) == 1}
        everything = text.asks(ALL_FEATURES)
        for column, (prop, words) in FEATURE_COLUMNS.items():
            if prop in conditions:
                continue  # "in the future tense": the tense is the condition, not a column
            if everything or prop in by_prop or text.asks(rf"\b(?:{words})\b(?! (?:of|di|delle|dei) )"):
                slots.form_columns.append(column)
        if conditions:
            slots.form_features = [name for name in named if FEATURES[name][0] in conditions]  # "past participle"
            slots.form_feature = slots.form_features[0]

    def word_steps(self, slots) -> list[dict]:
        if not slots.forms or slots.min_forms is not None:
            return []
        step: dict = {"feature": slots.form_feature} if slots.form_feature else {}
        if len(slots.form_features) > 1:
            step = {"features": list(slots.form_features)}
        if slots.forms_count:
            step["count"] = True
        elif slots.form_columns:
            step["columns"] = list(slots.form_columns)
        return [step]

    def constraint_steps(self, slots) -> list[dict]:
        return [{"min_forms": slots.min_forms}] if slots.min_forms is not None else []

    def asks_count(self, slots) -> bool:
        return slots.forms_count and not slots.word

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        features = sorted({local_name(r[0]) for r in facts.by_lemma("forms")[lemma] if r[0]} & set(FEATURES))
        return {"feature": rng.choice(features)} if features and rng.random() < 0.5 else {}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        if slots.get("min_forms") is not None and frame.shape != "word":
            self._build_minimum(frame, int(slots["min_forms"]))
            return
        facet = frame.facet()
        form, form_wr = self._forms(frame, facet.group)
        features = list(slots.get("features") or ([slots["feature"]] if slots.get("feature") else []))
        feature = features[0] if len(features) == 1 else None
        for name in features:
            facet.group.add(Triple(form, IRI.of(f"lexinfo:{FEATURES[name][0]}"), IRI.of(f"lexinfo:{name}")))
        if slots.get("count"):
            frame.aggregate = True
            frame.projection.append((Call("COUNT", (form_wr,), distinct=True), frame.fresh("forms")))
            frame.fragments.append(frag("word_fact", sg("il numero di forme"), sg("the number of forms"),
                                        "il numero di ontolex:writtenRep delle sue forme (COUNT DISTINCT)",
                                        "the number of written representations of its forms (COUNT DISTINCT)",
                                        ask=(["Quante forme ha {w}?", "In quante forme si flette {w}?"],
                                             ["How many forms does {w} have?", "How many inflected forms does {w} have?"])))
            frame.tag(self.label, 0.9)
            return
        frame.show(facet, form_wr, "forms")
        for column in slots.get("columns") or ():
            prop = FEATURE_COLUMNS[column][0]
            value, label = frame.fresh(f"{column}Value"), frame.fresh(column)
            facet.group.add(Optional_(Group([Triple(form, IRI.of(f"lexinfo:{prop}"), value),
                                             Triple(value, IRI.of("rdfs:label"), label)])))
            frame.show(facet, label, column)
        if feature:
            _, it, en = FEATURES[feature]
            prop = FEATURES[feature][0]
            frame.fragments.append(frag("word_fact", [pl(f"le forme flesse {it}"), pl(f"le forme {it}")],
                                        [pl(f"the inflected forms {en}"), pl(f"the forms {en}")],
                                        f"le ontolex:otherForm con lexinfo:{prop} lexinfo:{feature}",
                                        f"the ontolex:otherForm with lexinfo:{prop} lexinfo:{feature}",
                                        ask=ASK.get(feature)))
            frame.slot("feature", feature, it, en)
        elif features:
            it = " ".join(FEATURES[n][1] for n in features)  # «al participio al passato»
            en = " ".join(FEATURES[n][2] for n in features)
            frame.fragments.append(frag("word_fact", [pl(f"le forme {it}")], [pl(f"the forms {en}")],
                                        "le ontolex:otherForm con " + " e ".join(
                                            f"lexinfo:{FEATURES[n][0]} lexinfo:{n}" for n in features),
                                        "the ontolex:otherForm with " + " and ".join(
                                            f"lexinfo:{FEATURES[n][0]} lexinfo:{n}" for n in features)))
            for name in features:
                frame.slot("feature", name, FEATURES[name][1], FEATURES[name][2])
        elif slots.get("columns"):
            it_cols, en_cols = _column_names(slots["columns"])
            frame.fragments.append(frag("word_fact", [pl(f"le forme con {it_cols}"), pl(f"tutte le forme, con {it_cols}")],
                                        [pl(f"the forms with their {en_cols}"), pl(f"all the forms, with {en_cols}")],
                                        f"le forme (ontolex:otherForm) con {it_cols} (lexinfo)",
                                        f"the forms (ontolex:otherForm) with their {en_cols} (lexinfo)",
                                        ask=([f"Quali sono le forme di {{w}}, con {it_cols}?"],
                                             [f"What are the forms of {{w}}, with their {en_cols}?"])))
        else:
            frame.fragments.append(frag("word_fact", [pl("le forme flesse"), pl("tutte le forme")],
                                        [pl("the inflected forms"), pl("all the forms")],
                                        "le ontolex:otherForm e il loro ontolex:writtenRep",
                                        "the ontolex:otherForm and their ontolex:writtenRep",
                                        ask=(["Quali sono le forme flesse di {w}?"],
                                             ["What are the inflected forms of {w}?"]),
                                        ling=(pl("il paradigma delle forme flesse"), pl("the paradigm of inflected forms"))))
        frame.tag(self.label, 0.9)

    @staticmethod
    def _forms(frame: Frame, group, inflected_only: bool = False) -> tuple:
        """Every form of ``?lemma``, its citation form included: ``?e ontolex:canonicalForm ?lemma ;
        (ontolex:canonicalForm|ontolex:otherForm) ?f . ?f ontolex:writtenRep ?form``.

        ``inflected_only``: start from the entries that have inflected forms (``?e ontolex:otherForm []``),
        for lists over every lemma: the engine joins in written order, and few lemmas have forms.
        """
        entry, form, form_wr = frame.fresh("formEntry"), frame.fresh("f"), frame.fresh("form")
        either = Path("alt", (IRI.of("ontolex:canonicalForm"), IRI.of("ontolex:otherForm")))
        if inflected_only:
            group.add(Triple(entry, IRI.of("ontolex:otherForm"), frame.fresh("inflected")))
        group.add(Triple(entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
                  Triple(entry, either, form),
                  Triple(form, IRI.of("ontolex:writtenRep"), form_wr))
        return form, form_wr

    def _build_minimum(self, frame: Frame, least: int) -> None:
        """Lemmas with at least ``least`` distinct written forms (their number shown)."""
        _, form_wr = self._forms(frame, frame.where, inflected_only=True)
        frame.aggregate = True
        count = Call("COUNT", (form_wr,), distinct=True)
        frame.having.append(Op(">=", (count, Lit(least))))
        frame.projection.append((count, frame.fresh("forms")))
        frame.fragments.append(frag(
            "constraint", [f"hanno almeno {least} forme", f"si flettono in {least} forme o più"],
            [f"have at least {least} forms", f"have {least} or more inflected forms"],
            f"con almeno {least} ontolex:writtenRep distinti tra le loro forme",
            f"with at least {least} distinct ontolex:writtenRep among their forms"))
        frame.slot("min_forms", str(least))
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        if f.uses_any("ontolex:otherForm", "ontolex:lexicalForm"):
            return 0.9
        if f.uses_any("lexinfo:tense", "lexinfo:verbFormMood", "lexinfo:person", "lexinfo:number"):
            return 0.8
        return 0.0


def _column_names(columns) -> tuple[str, str]:
    """How the questions name the feature columns: «numero e genere», "number and gender"."""
    it = {"number": "numero", "gender": "genere", "tense": "tempo", "mood": "modo", "person": "persona", "case": "caso"}
    def join(words, conj):
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {conj} " + words[-1]
    return join([it[c] for c in columns], "e"), join(list(columns), "and")


PATTERN = LexicalForm()
