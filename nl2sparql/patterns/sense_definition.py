"""SENSE_DEFINITION: CompL-it sense definitions of Italian lemmas (through SERVICE)."""

from __future__ import annotations

import random
import re

from ..namespaces import COMPLIT_SERVICE
from ..folding import fold_same_length
from ..sparql.model import IRI, Call, Filter, Lit, Triple, lcase, str_
from .base import Facts, Frame, frag, pl, quote, sg
from .pattern import Pattern
from .reading import ARTICLE, NAMED_HEAD, VALUE, Text, ok_word, reads

#: Words for a definition (before "contiene X": the definition is searched, see also MORPHO_REGEX).
DEFINITION_NOUNS = r"definizion\w*|definition\w*|defined|definit\w*|skos:definition"
#: A question that asks for definitions or meanings.
DEFINITION_CUE = (r"\b(?:definizion\w*|definition\w*|definit[oa]|defined|define|definisci|significato|significa|"
                  r"vuol dire|vuole dire|meaning|mean|means|glossa|gloss|skos:definition)\b|\bcos'?\s*e\s+(?:un|una|uno)\b|"
                  r"\bwhat is an?\b")
#: "What meanings does X have?" asks for the definitions (a count or a minimum is a sense count instead).
MEANINGS = r"\b(?:meanings|significati|accezioni)\b"
#: What may name the searched word ("the word", "il termine").
_WORD_HEAD = r"(?:(?:la parola|il termine|la stringa|the word|the term|the string)\s+)?"
#: Lemmas whose definition contains (``contains``) or starts with (``starts``) a word.
CONTAINS = (
    (rf"(?:{DEFINITION_NOUNS})\s+(?:\w+\s+)?(?:start\w*|begin\w*|inizi\w*|comincia\w*)\s+(?:with|con|by|per|da)\s+"
     rf"{_WORD_HEAD}{VALUE}", "starts"),
    (rf"(?:{DEFINITION_NOUNS})(?:\s*\(compl-it\))?[^«\"\x01.?;]{{0,25}}?(?:contien\w*|contain\w*|cita\w*|menzion\w*|"
     rf"mention\w*|includ\w*|parla di|with the word|con la parola|usa\w*|uses?)\s*{_WORD_HEAD}{VALUE}", "contains"),
    (rf"(?:nella definizione|in (?:the|their) definitions?)\s+(?:\w+\s+){{0,2}}?{VALUE}", "contains"),
    (rf"\b(?:with|having|con)\s+{_WORD_HEAD}{VALUE}\s+(?:in|nella|nelle)\s+(?:(?:their|its|the|la|le|loro|sua)\s+)*"
     rf"(?:{DEFINITION_NOUNS})", "contains"),
)

_STOP = {"della", "delle", "degli", "dello", "nella", "nelle", "sulla", "questo", "quella", "quello", "molto",
         "anche", "oppure", "essere", "avere", "dalla", "dalle", "come", "sono", "ogni", "alcuni", "altre",
         "altro", "altri", "proprio", "propria"}


class SenseDefinition(Pattern):
    """``?word ontolex:canonicalForm ?lemma . SERVICE <CompL-it> { ?word ontolex:sense ?sense . ?sense skos:definition ?definition }``."""

    label = "SENSE_DEFINITION"
    rank = 50
    guidance = ("Definitions: ?word ontolex:sense ?sense . ?sense skos:definition ?definition, inside SERVICE; search "
                "them with CONTAINS(LCASE(STR(?definition)), \"…\").")
    example = ("word", "cane", {})
    resource = "CompL-it"
    entry_properties = ("ontolex:sense",)
    fact_queries = {
        "definition": "SELECT DISTINCT ?lemma ?d WHERE { ?word ontolex:canonicalForm ?lemma . ?lemma a lila:Lemma . "
                      f"SERVICE <{COMPLIT_SERVICE}> {{ ?word ontolex:sense ?s . ?s skos:definition ?d }} }}",
    }
    needs = ("definition",)
    question_cues = [
        (r"\b(definizion\w*|definition\w*|definit[oa]|defined|(?<!stesso )(?<!quanti )(?<!piu )significat[oi]|significa"
         r"|vuol dire|(?<!same )meaning|means?(?! the same)|che cos.e|what is an?|descrizion[ei]|description)\b", 0.8),
        (r"\b(compl-?it)\b", 0.3),
    ]
    compose = {"projection": 3, "word": 1}
    build_order = 8
    slot_fields = {"definition": False, "definition_contains": None, "definition_starts": False}
    named_cues = (
        (3, rf"\b(?:che )?(?:cosa )?(?:significa|vuol dire|vuole dire)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
        (4, rf"\bwhat does\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}\s+mean"),
        (5, rf"\bcos'?\s*e\s+(?:un|una|uno|un')\s*{VALUE}"),
        (6, rf"\bwhat is an?\s+{VALUE}\s*\??\s*$"),
        (15, rf"\b(?:define|definisci)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
    )
    fact_nouns = r"definizion[ei]|significat[oi]|definitions?|meanings?"
    requirable = True
    mention_cue = DEFINITION_CUE

    @reads(50)
    def read_contains(self, text: Text, slots) -> None:
        """A word the definition must contain ("la cui definizione contiene «veleno»")."""
        for pattern, mode in CONTAINS:
            m = text.search(pattern)
            if m and ok_word(text.raw(m)):
                slots.definition_contains = text.value(m).lower()
                slots.definition_starts = mode == "starts"
                slots.definition = True
                return

    @reads(115)
    def read_request(self, text: Text, slots) -> None:
        """Definitions asked for ("cosa significa", "what meanings does X have")."""
        # "what is a wolf a kind of": a relation asked of the word, not its definition
        kind_of = text.asks(r"\b(?:an?\s+)?(?:kinds?|types?|sorts?|parts?)\s+of\s*\??\s*$")
        slots.definition = slots.definition or (text.asks(DEFINITION_CUE) and not kind_of) or (
            slots.min_senses is None and text.asks(MEANINGS))

    @reads(116)
    def read_defined(self, text: Text, slots) -> None:
        """"…e sono definite in CompL-it", "are defined in CompL-it": a definition is required of them."""
        if not slots.word and re.search(r"\b(?:sono|siano|are|be)\s+definit[aeio]\b|\bdefined\s+in\b",
                                        fold_same_length(slots.question)):
            slots.definition = True
            if self.label not in slots.required:
                slots.required.append(self.label)

    def constraint_steps(self, slots) -> list[dict]:
        if not slots.definition_contains:
            return []
        return [{"contains": slots.definition_contains, **({"starts": True} if slots.definition_starts else {})}]

    def projection_steps(self, slots) -> list[dict]:
        return [{}] if slots.definition and not slots.definition_contains and not slots.senses_count else []

    def word_steps(self, slots) -> list[dict]:
        return [{}] if slots.definition and not slots.senses_count else []

    @staticmethod
    def _keywords(definition: str) -> list[str]:
        words = re.findall(r"[a-zàèéìòù]{6,}", definition.lower())
        return [w for w in dict.fromkeys(words) if w not in _STOP]

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        keywords = [k for d in facts.by_lemma("definition")[lemma] for k in self._keywords(d[0])]
        draw = rng.random()
        if shape in ("list", "count") and keywords and draw < 0.45:
            return {"contains": rng.choice(sorted(set(keywords)))}
        if shape == "list" and draw < 0.55:
            return {"required": True}
        return {}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        rows = facts.by_lemma("definition")
        word = slots.get("contains")
        if slots.get("required"):
            return set(rows)
        if not word:
            return None  # shown next to the lemmas: it narrows nothing
        return {lemma for lemma, defs in rows.items() if any(word in d[0].lower() for d in defs)}

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        if frame.shape in ("list", "count") and slots.get("contains"):
            self._build_contains(frame, slots["contains"], slots.get("starts", False))
        elif frame.shape in ("list", "count") and (slots.get("required") or frame.shape == "count"):
            sense, service = frame.sense()
            service.add(Triple(sense, IRI.of("skos:definition"), frame.fresh("definition")))
            frame.fragments.append(frag("constraint", ["hanno una definizione in CompL-it",
                                                       "sono definit{a} in CompL-it"],
                                        ["have a definition in CompL-it", "are defined in CompL-it"],
                                        "con una skos:definition in CompL-it", "with a CompL-it skos:definition"))
        else:
            # every sense of the word, not only one that satisfies a constraint: a separate sense variable
            word, facet = frame.complit_facet()
            sense, definition = frame.fresh("sense"), frame.fresh("definition")
            facet.group.add(Triple(word, IRI.of("ontolex:sense"), sense),
                            Triple(sense, IRI.of("skos:definition"), definition))
            frame.show(facet, definition, "definitions")
            if frame.shape == "word":
                frame.fragments.append(frag(
                    "word_fact", [sg("la definizione"), pl("le definizioni"), sg("il significato")],
                    [sg("the definition"), pl("the definitions"), sg("the meaning")],
                    "le skos:definition dei suoi sensi CompL-it", "the skos:definition of its CompL-it senses",
                    ask=(["Che cosa significa {w}?", "Cosa vuol dire {w}?"],
                         ["What does {w} mean?", "What is the meaning of {w}?"]),
                    ling=([pl("le definizioni delle sue accezioni"), pl("le definizioni dei suoi sensi")],
                          [pl("the definitions of its senses")])))
            else:
                frame.fragments.append(frag("projection", [pl("le loro definizioni"), pl("le definizioni in CompL-it")],
                                            [pl("their definitions"), pl("their CompL-it definitions")],
                                            "le skos:definition dei loro sensi CompL-it",
                                            "the skos:definition of their CompL-it senses"))
        frame.tag(self.label, 0.9)

    def _build_contains(self, frame: Frame, word: str, starts: bool = False) -> None:
        """Lemmas with a definition that contains (or starts with) ``word``; a list shows that definition."""
        sense, service = frame.sense()
        definition = frame.fresh("definition")
        test = "STRSTARTS" if starts else "CONTAINS"
        service.add(Triple(sense, IRI.of("skos:definition"), definition),
                    Filter(Call(test, (lcase(str_(definition)), Lit(word)))))
        if frame.shape == "list":
            frame.project(definition)
        qi, qe = quote("it", word), quote("en", word)
        if starts:
            frame.fragments.append(frag(
                "constraint", [f"hanno una definizione che inizia con {qi}", f"sono definit{{a}} a partire da {qi}"],
                [f"have a definition starting with {qe}", f"have a definition that begins with {qe}"],
                f"con una skos:definition (CompL-it) che inizia con {qi}",
                f"with a CompL-it skos:definition starting with {qe}"))
        else:
            frame.fragments.append(frag(
                "constraint", [f"hanno una definizione che contiene {qi}", f"nella definizione usano la parola {qi}"],
                [f"have a definition mentioning {qe}", f"are defined with the word {qe}"],
                f"con una skos:definition (CompL-it) che contiene {qi}",
                f"with a CompL-it skos:definition containing {qe}"))
        frame.slot("definition_word", word)

    def sparql_weight(self, f) -> float:
        if f.uses("skos:definition"):
            return 0.9
        if f.uses("lexinfo:senseExample") or f.uses("skos:example"):
            return 0.7
        return 0.0


PATTERN = SenseDefinition()
