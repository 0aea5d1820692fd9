"""TRANSLATION: dialect translations (Italian entry → dialect entry) in the LiITA glossaries.

A list may also go the other way round: the Italian lemmas translated into a
dialect as a given word (``target``). The direction of the link stays
Italian → dialect; only the dialect word is fixed, with a VALUES block so the
engine starts from it.
"""

from __future__ import annotations

import random
import re

from ..namespaces import PREFIXES
from ..rules import Breach, Parsed, Rule
from ..rules.entries import side_of_entry
from ..sparql.model import IRI, Lit, Triple, Values, Var
from .base import Facts, Frame, frag, pl, quote, sg
from .pattern import Pattern
from .reading import ARTICLE, HEADS, NAMED_HEAD, VALUE, Text, ok_word, reads
from .vocab import DIALECT, DIALECT_FORMS, DIALECT_WORDS

#: Words that ask for a translation.
TRANSLATE_WORDS = r"tradu\w*|translat\w*|come si dice|how do you say|equivalent\w*|corrispondent\w*"
#: Any dialect named in a question.
DIALECTS = "|".join(words for _, words in DIALECT_WORDS)
TRANSLATION_CUE = (rf"\b(?:{TRANSLATE_WORDS}|dialett\w*|dialects?|glossari\w*|glossary|"
                   r"vartrans:translatableas)\b")
#: Where a question mentions a translation (word facts are built in the order mentioned).
TRANSLATION_MENTION = TRANSLATION_CUE + "|" + DIALECTS
_DIALECT = f"(?P<d>{DIALECTS})"
#: Italian lemmas asked for by their dialect translation (the dialect word is the value).
INVERSE = (
    rf"\bsi traduc\w*\s+in\s+{_DIALECT}\s+(?:con|come)\s+{VALUE}",
    rf"\b(?:tradott\w*|res[oaie])\s+in\s+{_DIALECT}\s+(?:con|come)\s+{VALUE}",
    rf"\bin\s+{_DIALECT}\s+si dic\w*\s+{VALUE}",
    rf"\bhann?o?\s+{VALUE}\s+come\s+(?:traduzione|equivalente)\s+(?:in\s+)?{_DIALECT}",
    rf"\b(?:traduzione|equivalente)\s+(?:in\s+)?{_DIALECT}\s+(?:e|sia)\s+{VALUE}",
    rf"\b(?:corrispond\w*|equivalgono)\s+(?:a|al|allo)\s+{_DIALECT}\s+{VALUE}",
    rf"\btranslated\s+(?:into|in|to)\s+{_DIALECT}\s+(?:as|by|with)\s+{VALUE}",
    rf"\bhave\s+{VALUE}\s+as\s+(?:their|its|the)\s+{_DIALECT}\s+(?:translation|equivalent)",
    rf"\b{_DIALECT}\s+(?:translation|equivalent)\s+is\s+{VALUE}",
    rf"\b(?:correspond\w*|equivalent)\s+to\s+(?:the\s+)?{_DIALECT}\s+(?:word\s+)?{VALUE}",
    rf"\bare\s+{VALUE}\s+in\s+{_DIALECT}\b",
)

#: Translations asked as pairs (see :meth:`Translation.read_pairs`).
PAIRS = (rf"\b(?:tradu\w*|translations?|equivalent\w*)\s+(?:[a-z\x01]+\s+){{0,2}}?(?:of|for|delle|dei|degli|di|per)\s+"
         rf"(?:the\s+|all\s+|le\s+|i\s+|gli\s+|tutt[ie]\s+)*(?:italian\w*\s+)?{HEADS}\b|\b(?:pairs?|coppie|coppia)\b|"
         rf"\b(?:along with|together with|and|insieme a|assieme a|e)\s+(?:their|its|the|le loro|i loro|la loro|il loro|"
         rf"le|i)\s+(?:[a-z\x01]+\s+){{0,2}}?(?:tradu\w*|translations?|equivalent\w*)")
TRANSLATABLE = PREFIXES["vartrans"] + "translatableAs"


def _direction(query: str, parsed: Parsed):
    for t in parsed.triples:
        if t.predicate != TRANSLATABLE:
            continue
        source, target = (t.o, t.s) if t.inverse else (t.s, t.o)
        if side_of_entry(parsed, source) == "dialect" or side_of_entry(parsed, target) == "italian":
            yield Breach("vartrans:translatableAs goes from the Italian entry to the dialect entry: here it starts "
                         "from a dialect entry (or ends at an Italian one)")
            return


TRANSLATION_DIRECTION = Rule(
    "translation_direction", "error",
    "Dialect translations go from the Italian entry to the dialect entry: ?itEntry ontolex:canonicalForm ?lemma ; "
    "vartrans:translatableAs ?dialectEntry, never the other way round.",
    _direction,
    broken="PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n"
           "PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>\nSELECT ?it WHERE { ?d ontolex:canonicalForm ?dl . "
           "?dl dcterms:isPartOf <http://liita.it/data/id/DialettoSiciliano/lemma/LemmaBank> . "
           "?d vartrans:translatableAs ?it }")


def add_translation(frame: Frame, dialect: str, group=None) -> Var:
    """Add the glossary path to ``dialect`` for ``?lemma`` (to ``group``, default the query); returns the dialect written-rep variable.

    Separate entry variables per resource (SCHEMA rule 2); direction always
    Italian entry → dialect entry (``vartrans:translatableAs``).
    """
    _, en, bank, _, _ = DIALECT[dialect]
    it_entry = frame.fresh(f"itEntry{en}")
    d_entry = frame.fresh(f"{dialect}Entry")
    d_lemma = frame.fresh(f"{dialect}Lemma")
    d_wr = frame.fresh(en.lower())
    (frame.where if group is None else group).add(
        Triple(it_entry, IRI.of("ontolex:canonicalForm"), frame.lemma),
        Triple(it_entry, IRI.of("vartrans:translatableAs"), d_entry),
        Triple(d_entry, IRI.of("ontolex:canonicalForm"), d_lemma),
        Triple(d_lemma, IRI.of("dcterms:isPartOf"), IRI(bank)),
        Triple(d_lemma, IRI.of("ontolex:writtenRep"), d_wr))
    return d_wr


def show_translation(frame: Frame, dialect: str) -> None:
    """The ``dialect`` translation of ``?lemma`` as a facet (optional; required in a count)."""
    facet = frame.facet()
    en = DIALECT[dialect][1]
    frame.show(facet, add_translation(frame, dialect, facet.group), f"{en.lower()}Translations")


class Translation(Pattern):
    """Project the Sicilian or Parmigiano translation of ``?lemma``."""

    label = "TRANSLATION"
    rank = 30
    guidance = ("Dialect translations: ?itEntry ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d . ?d "
                "ontolex:canonicalForm ?dl . ?dl dcterms:isPartOf <the dialect LemmaBank> ; ontolex:writtenRep ?t.")
    example = ("word", "casa", {"dialect": "siciliano"})
    resource = "a dialect glossary"
    entry_properties = ("vartrans:translatableAs",)
    fact_queries = {
        f"translation_{d}": "SELECT DISTINCT ?lemma ?t WHERE { ?it ontolex:canonicalForm ?lemma ; "
                            "vartrans:translatableAs ?de . ?de ontolex:canonicalForm ?dl . "
                            f"?dl dcterms:isPartOf <{bank}> ; ontolex:writtenRep ?t . ?lemma a lila:Lemma }}"
        for d, (_, _, bank, _, _) in DIALECT.items()
    }
    rules = (TRANSLATION_DIRECTION,)
    needs_any = tuple(f"translation_{d}" for d in DIALECT)
    compose = {"projection": 1, "word": 2}
    question_cues = [
        (rf"\b({TRANSLATE_WORDS})\b", 0.7),
        (rf"\b(dialett\w*|dialect\w*|{DIALECTS})\b", 0.8),
    ]
    slot_fields = {"dialects": list, "translation": False, "translation_target": None, "translation_pairs": False}
    named_cues = (
        (1, rf"\bcome si dice\s+(?:in [a-z]+\s+)?{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (2, rf"\bhow (?:do|would|can) (?:you|i|we|one) say\s+(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"traduzion[ei]|equivalent[ei]|translations?|equivalents?"
    requirable = True
    mention_cue = TRANSLATION_MENTION

    @reads(70)
    def read_inverse(self, text: Text, slots) -> None:
        """A dialect word the Italian lemmas are translated as ("si traducono in siciliano con «scantu»")."""
        for pattern in INVERSE:
            m = re.search(pattern, text.folded)
            if m and ok_word(text.raw(m)):
                dialect = next(name for name, words in DIALECT_WORDS if re.fullmatch(words, m.group("d")))
                slots.translation_target = text.value(m)
                slots.dialects = [dialect]
                return

    @reads(100)
    def read_dialects(self, text: Text, slots) -> None:
        """Every dialect the question names."""
        for name, words in DIALECT_WORDS:
            if re.search(rf"\b(?:{words})\b", text.folded) and name not in slots.dialects:
                slots.dialects.append(name)

    @reads(116)
    def read_request(self, text: Text, slots) -> None:
        """A translation column or fact: a dialect or a translation word (unless the translation is the constraint)."""
        slots.translation = (bool(slots.dialects) or text.asks(TRANSLATION_CUE)) and not slots.translation_target

    @reads(117)
    def read_pairs(self, text: Text, slots) -> None:
        """Translations asked as pairs: "the Sicilian translations of the words that …", "pairs of Italian lemmas and
        their Sicilian translations", "lemmas along with their translations": one row per pair, the translation
        required ("with their translation" keeps the words that lack one)."""
        optional = text.has(r"\b(?:se present\w*|ove present\w*|if any|where available|when available|if available|"
                            r"se disponibil\w*|se c'e|se esiste)\b")  # "with their translation, if any": kept optional
        if slots.translation and not slots.word and slots.dialects and text.has(PAIRS) and not optional:
            slots.translation_pairs = True

    def constraint_steps(self, slots) -> list[dict]:
        if slots.translation_target:
            return [{"dialect": slots.dialects[0], "target": slots.translation_target}]
        return []

    def projection_steps(self, slots) -> list[dict]:
        if slots.bank or not slots.translation:
            return []  # a dialect-side list shows the Italian translations (DIALECT_SIDE)
        if slots.translation_pairs:
            return [{"dialect": d, "pairs": True} for d in slots.dialects]
        return [{"dialect": slots.dialects[0]}] if len(slots.dialects) == 1 else []

    word_steps = projection_steps

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        dialect = rng.choice([d for d in DIALECT if lemma in facts.by_lemma(f"translation_{d}")])
        draw = rng.random()
        if shape == "list" and draw < 0.2:
            return {"dialect": dialect, "target": rng.choice(facts.by_lemma(f"translation_{dialect}")[lemma])[0]}
        if shape in ("list", "count") and draw < 0.35:
            return {"dialect": dialect, "required": True}
        return {"dialect": dialect}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        if slots.get("target"):
            return facts.lemmas_related_to(f"translation_{slots['dialect']}", slots["target"])
        if slots.get("required"):
            return facts.lemmas(f"translation_{slots['dialect']}")
        return None  # shown next to the lemmas: it narrows nothing

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        dialect = slots["dialect"]
        it, en = DIALECT[dialect][0], DIALECT[dialect][1]
        forms = DIALECT_FORMS[dialect]
        if slots.get("target") and frame.shape != "word":
            self._build_inverse(frame, dialect, slots["target"])
            return
        if frame.shape == "word":
            show_translation(frame, dialect)
            frame.fragments.append(frag(
                "word_fact", [sg(f"la traduzione in {it}"), sg(f"l'equivalente {forms['ms']}")],
                [sg(f"the {en} translation"), sg(f"the {en} equivalent")],
                f"la voce {forms['fs']} collegata da vartrans:translatableAs",
                f"the {en} entry linked by vartrans:translatableAs",
                ask=([f"Come si dice {{w}} in {it}?", f"Come si traduce {{w}} in {it}?"],
                     [f"How do you say {{w}} in {en}?", f"What is the {en} word for {{w}}?"]), lead="dialect"))
        elif slots.get("pairs") and frame.shape == "list":
            frame.project(add_translation(frame, dialect))  # one row per (word, translation): required
            forms = DIALECT_FORMS[dialect]
            frame.fragments.append(frag(
                "pair", [pl(f"le loro traduzioni in {it}"), pl(f"gli equivalenti {forms['mp']}")],
                [pl(f"their {en} translations"), pl(f"their {en} equivalents")],
                f"le voci {forms['fp']} collegate da vartrans:translatableAs (una riga per coppia)",
                f"the {en} entries linked by vartrans:translatableAs (one row per pair)", lead="dialect"))
        elif slots.get("required") or frame.shape == "count":
            add_translation(frame, dialect)
            frame.fragments.append(frag(
                "constraint", [f"hanno una traduzione in {it}", f"hanno un equivalente {forms['ms']}"],
                [f"have a {en} translation", f"have a {en} equivalent"],
                f"con una voce {forms['fs']} collegata da vartrans:translatableAs",
                f"with a {en} entry linked by vartrans:translatableAs"))
        else:
            show_translation(frame, dialect)
            frame.fragments.append(frag(
                "projection", [sg(f"la loro traduzione in {it}"), sg(f"l'equivalente {forms['ms']}")],
                [sg(f"their {en} translation"), sg(f"the {en} equivalent")],
                f"la voce {forms['fs']} collegata da vartrans:translatableAs",
                f"the {en} entry linked by vartrans:translatableAs"))
        frame.slot("dialect", dialect, it, en)
        frame.tag(self.label, 0.9)

    def _build_inverse(self, frame: Frame, dialect: str, target: str) -> None:
        """Italian lemmas whose ``dialect`` translation is written ``target``."""
        it, en, _, _, tag = DIALECT[dialect]
        d_wr = add_translation(frame, dialect)
        frame.where.elements.insert(0, Values(d_wr, [Lit(target, lang=tag)]))
        qi, qe = quote("it", target), quote("en", target)
        forms = DIALECT_FORMS[dialect]
        frame.fragments.append(frag("constraint", [f"si traducono in {it} con {qi}", f"in {it} si dicono {qi}",
                                                   f"hanno {qi} come traduzione in {it}"],
                                    [f"are translated into {en} as {qe}", f"are {qe} in {en}",
                                     f"have {qe} as their {en} translation"],
                                    f"con una voce {forms['fs']} (vartrans:translatableAs) con ontolex:writtenRep {qi}",
                                    f"with a {en} entry (vartrans:translatableAs) with ontolex:writtenRep {qe}",
                                    lead="dialect"))
        frame.slot("dialect", dialect, it, en)
        frame.slot("target", target)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        # only the glossary link is a translation; a query over a dialect lemma bank alone is not
        return 0.9 if f.uses("vartrans:translatableAs") else 0.0


PATTERN = Translation()
