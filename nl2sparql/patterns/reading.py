"""How questions are read: the cue language the pattern modules write their cues in, and the slots they fill.

Every cue is a regular expression over the *folded* copy of a question
(:func:`~nl2sparql.folding.fold_same_length`: lower case, no accents, same
length as the original), where quoted text is hidden (``HIDDEN`` characters)
and values already taken are masked (``MASK``), so a cue never fires inside a
quoted word or on a value another slot already took.

Question reading (:func:`nl2sparql.translate.slots.extract_slots`) runs the
readers of every pattern (methods marked with :func:`reads`) by *stage*;
readers of one stage run in catalogue order. The stages, in the order they
run, so that a new reader knows where it belongs:

=====  ================================================================
stage  what runs
=====  ================================================================
10     IRIs written in the question (masked); 12: the quoted values
20     numbers with a meaning: LIMIT (20), minimum senses (21), thresholds (22)
30–70  a cue followed by its value, before the named word can take it:
       quoted emotion names (30), affixes (40), definition words (50),
       relations and their target (60), dialect words (70)
80     the named word ("la parola «casa»", "what does X mean")
90     closed vocabularies anywhere: emotions (90), dialects, POS, gender,
       polarity classes (100–104)
110    what the question asks for, on the *request view* (a copy of the
       folded question readers may blank, :meth:`Text.drop`, so that a phrase
       one pattern claims is no request for another): request readers read
       it with :meth:`Text.asks`
130    readings of the whole question (graph listings, whole-KB counts, …)
=====  ================================================================
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Callable

from ..folding import fold_same_length

MASK = "\x01"
HIDDEN = "\x02"  # quoted text in the folded copy: cue words inside quotes never fire
QUOTED = r"«[^»\x01]{1,60}»|\"[^\"\x01]{1,60}\"|(?<![a-z])'[^'\x01\n]{1,40}'(?![a-z])"
VALUE = rf"(?P<v>{QUOTED}|-?[a-z][a-z]*-?)"
#: Glosses in parentheses: a translation right after a quoted word ("'cane' (dog)"), one or two plain words, or an
#: aside that starts like one ("(likely adverbs)", "(i.e., hyponyms)"). Lists and affixes in parentheses are content.
GLOSSES = (r"(?<=[»\"'])\s*(?P<g>\((?:to\s+)?[a-z]+(?:\s+[a-z]+){0,2}\))",
           r"(?P<g>\([a-z]+(?:\s+[a-z]+)?\))",  # one or two plain words: "the parts (meronyms) of", "(POS)"
           r"(?P<g>\((?:likely|probably|e\.\s?g\.|eg|i\.\s?e\.|ie|such as|for example|for instance|cioe|ad es\.|"
           r"ad esempio|per esempio|check if correct|service integration)\b[^()]{0,80}\))")
# (quoted contents are HIDDEN characters in the folded copy; QUOTED matches them too)
NUMBER = r"(?P<n>[-+]?\d+(?:[.,]\d+)?)"
ARTICLE = r"(?:(?:il|lo|la|i|gli|le|un|una|uno|the|a|an)\s+|l'\s*|un'\s*)"
OF = r"(?:(?:di|del|dello|della|dei|degli|delle|of|for|per)\b|dell'|d')"
#: The language a question says its word is in ("the Italian word", "la parola italiana"): a schema word, never
#: the lemma asked about.
ITALIAN_ADJ = r"(?:italian[aeio]?|inglese|english)"
NAMED_HEAD = (rf"(?:(?:(?:la\s+)?parola|(?:il\s+)?lemma|(?:il\s+)?termine|(?:il\s+)?verbo|(?:il\s+)?sostantivo|"
              rf"(?:l')?aggettivo)(?:\s+{ITALIAN_ADJ})?|(?:the\s+)?(?:{ITALIAN_ADJ}\s+)?"
              rf"(?:word|lemma|term|verb|noun|adjective))")
#: Nouns that head a list of lemmas ("parole che …", "nouns that …").
HEADS = (r"(?:parole|termini|lemmi|voci|words|terms|lemmas|entries|sostantiv[oi]|aggettiv[oi]|verb[oi]|"
         r"avverb[oi]|nouns|adjectives|verbs|adverbs)")
#: Words that are never a named lemma (question words, heads, articles).
NOT_A_WORD = frozenset("""
il lo la i gli le l un una uno un' the a an of di del della dello dei degli delle dell d da in
parola parole word words lemma lemmi lemmas bank per con su tra fra for with to as on at by into termine termini term terms voce voci entry entries
cosa che what which who how come quale quali qual chi e ed and or o is are sono ha hanno abbiano have has non not
si it its suo sua loro their questo questa this that quello quella cui discorso speech compl liita lila ontolex sense senses senso sensi
whole wholes intero intera interi almeno least only solo elita sentix complit ciascun ciascuna ciascuno ognuno ognuna ogni each every
italian italiano italiana italiani italiane english inglese dataset database
writtenrep ontolex:writtenrep canonicalform ontolex:canonicalform otherform ontolex:otherform lexicalentry lila:lemma
""".split())


def words_regex(alternatives) -> re.Pattern:
    """A word-boundary regex for alternatives (each already a regex fragment)."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b")


def reads(stage: float) -> Callable:
    """Mark a pattern method ``(self, text, slots)`` as a reader that runs at ``stage`` (see the module docstring)."""
    def mark(method):
        method.reading_stage = stage
        return method
    return mark


class Text:
    """The question, its folded copy and the masking of consumed spans."""

    def __init__(self, question: str):
        self.original = question
        self.folded = fold_same_length(question)
        for m in list(re.finditer(QUOTED, self.folded)):
            inner = HIDDEN * (m.end() - m.start() - 2)
            self.folded = self.folded[:m.start() + 1] + inner + self.folded[m.end() - 1:]
        for gloss in GLOSSES:  # blanked: a gloss is no part of the question
            for m in list(re.finditer(gloss, self.folded)):
                self.folded = self.folded[:m.start("g")] + " " * (m.end("g") - m.start("g")) + self.folded[m.end("g"):]
        #: The request view (stage 110 on): the folded copy with the phrases readers dropped.
        self.requests = self.folded

    def raw(self, m: re.Match, group: str = "v") -> str:
        """The original text of a matched value without quotes or hyphens (nothing is masked)."""
        raw = self.original[m.start(group):m.end(group)].strip()
        if raw[:1] in "«\"'\u201c\u2018" and len(raw) >= 2:
            raw = raw[1:-1]
        return raw.strip().strip("-").strip()

    def mask(self, start: int, end: int) -> None:
        """Blank ``[start, end)`` in the folded copy (a consumed value)."""
        self.folded = self.folded[:start] + MASK * (end - start) + self.folded[end:]

    def value(self, m: re.Match, group: str = "v") -> str:
        """The original text of a matched value, without quotes or hyphens; the span is masked."""
        raw = self.raw(m, group)
        self.mask(*m.span(group))
        return raw

    def search(self, pattern, flags=0):
        """``re.search`` on the folded copy."""
        return re.search(pattern, self.folded, flags)

    def has(self, pattern) -> bool:
        """True when ``pattern`` occurs in the folded copy."""
        return re.search(pattern, self.folded) is not None

    def asks(self, pattern) -> bool:
        """True when ``pattern`` occurs in the request view."""
        return re.search(pattern, self.requests) is not None

    def drop(self, pattern) -> None:
        """Remove ``pattern`` from the request view, so later requests do not read it."""
        self.requests = re.sub(pattern, " ", self.requests)


def is_quoted(m: re.Match, group: str = "v") -> bool:
    """True when the matched value was written in quotes."""
    return m.group(group)[:1] in "«\"'"


def ok_word(value: str) -> bool:
    """True when ``value`` can be a named lemma (not a question word, not a number)."""
    return bool(value) and fold_same_length(value) not in NOT_A_WORD and not value.isdigit()


class Slots:
    """Everything read from a question (``None`` / empty: not asked).

    The generic fields are :data:`GENERIC`; each pattern declares its own in
    ``slot_fields`` (a default, or a type such as ``list`` for a fresh empty
    value), and question reading builds a ``Slots`` with all of them.
    Reading or writing an undeclared field is an error.
    """

    GENERIC = {"question": "", "lang": "it", "word": None, "listed": list, "quoted": list, "iris": list, "limit": None,
               "standalone": None, "order": dict, "notes": list, "concepts": list, "answer": dict,
               "required": list}

    def __init__(self, fields: dict, **values):
        data = {name: default() if isinstance(default, type) else copy.copy(default)
                for name, default in fields.items()}
        unknown = set(values) - set(data)
        if unknown:
            raise AttributeError(f"undeclared slots: {sorted(unknown)}")
        data.update(values)
        object.__setattr__(self, "_values", data)

    def __getattr__(self, name: str):
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"no slot {name!r}: declare it in a pattern's slot_fields") from None

    def __setattr__(self, name: str, value) -> None:
        if name not in self._values:
            raise AttributeError(f"no slot {name!r}: declare it in a pattern's slot_fields")
        self._values[name] = value

    def copy(self, **changes) -> "Slots":
        """A copy with some fields changed (lists and dicts copied)."""
        out = Slots({})
        object.__setattr__(out, "_values", {k: copy.copy(v) for k, v in self._values.items()})
        for name, value in changes.items():
            setattr(out, name, value)
        return out

    def to_dict(self) -> dict:
        """The slots that were found (empty values dropped), JSON-ready."""
        out = {}
        for key, value in self._values.items():
            if key in ("question", "notes", "order") or value in (None, False, [], "", {}):
                continue
            if key == "standalone":
                value = {"label": value[0], **value[1]}
            out[key] = value
        return out


@dataclass(frozen=True)
class RelationKind:
    """How questions name one sense relation (the relation patterns declare theirs).

    ``target`` is the noun before "of X" that asks for lemmas in the relation
    ("iponimi di X"); ``project`` asks for the related words of a named word
    ("gli iperonimi"); ``markers`` are the property names a technical
    phrasing ends with before "a sense of X"; ``always_list`` relations ("the
    hyponyms of X") never ask about X itself; ``plural`` is the plural noun
    that, after an article, asks for the related words; ``verb_phrase``
    starts target phrasings that are verbs ("mean the same as X": always a
    list); ``not_after`` is a context before the noun in which it is a word
    fact ("fa parte di X").
    """

    name: str
    label: str
    target: str
    project: str
    markers: tuple[str, ...]
    always_list: bool = False
    plural: str | None = None
    verb_phrase: str | None = None
    not_after: str | None = None
