"""Slot extraction: what a question names, in Italian or English.

:func:`extract_slots` reads a question and returns
:class:`~nl2sparql.patterns.reading.Slots`. What there is to read belongs to
the patterns: each declares its slot fields, its reader methods (emotions,
affixes, polarity thresholds, dialects…), the phrasings that introduce a
named word and the relations it reads (see :mod:`nl2sparql.patterns.reading`
for the cue language and the stages). This module is the generic part: it
runs every reader by stage and reads what no one pattern owns, the IRIs
written in the question, LIMIT ("i primi 10"), the named lemma (quoted «casa»
"casa" 'casa', or after cue words such as "di", "of", "la parola", "the
word"), the relation a question names (with the kinds of every relation
pattern) and the order word facts are mentioned in.

Matching runs on a folded copy of the question (lower case, no accents, same
length as the original) so values keep their accents (``-ità``) while cues
are accent-blind. Every value found is *masked* (blanked in the folded copy)
so that later cues never re-read it: "sinonimi di paura" gives a relation
target, not the emotion Paura.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..folding import fold_same_length
from ..patterns import CATALOGUE
from ..patterns.reading import ARTICLE, NAMED_HEAD, OF, QUOTED, VALUE, Slots, Text, is_quoted, ok_word
from ..patterns.relations import read_relations
from ..patterns.vocab import DIALECT_WORDS, GENDER_WORDS, POS_WORDS

LIMIT = (r"\b(?:i |le |the )?(?:prim[ie]|first|top)\s+(?P<n>\d+)\b",
         r"\b(?:solo|only|al massimo|at most|limit|limita a|limited to)\s+(?P<n>\d+)\b",
         r"\b(?P<n>\d+)\s+(?:esempi|examples|risultati|results)\b")
#: Named-word phrasings that belong to no pattern: the fact nouns of every pattern ("le definizioni di X",
#: position 0) and "la parola X" (last).
THE_WORD = rf"\b(?:la parola|the word|il lemma|the lemma|il termine|the term)\s+{VALUE}"
#: "the (Sicilian / Italian) word for X", "la parola per X": X is the concept the question is about.
WORD_FOR = rf"\b(?:(?:the|a|an)\s+)?(?:[a-z]+\s+)?(?:word|term|parola|termine)\s+(?:for|per)\s+{ARTICLE}?{VALUE}"
_LAST = 1000.0


def extract_slots(question: str) -> Slots:
    """Read the slots of ``question`` (Italian or English); never raises on odd text."""
    text = Text(question or "")
    slots = Slots(_fields(), question=question or "")
    slots.lang = guess_language(question or "")
    for _, read in _readers():
        read(text, slots)
    return slots


def guess_language(question: str) -> str:
    """``en`` when English function words outnumber Italian ones, else ``it``."""
    words = re.findall(r"[a-z']+", fold_same_length(question))
    en = sum(w in {"the", "which", "what", "how", "many", "of", "with", "and", "are", "is", "that", "words",
                   "show", "list", "find", "give", "me", "their", "does", "have", "for", "word"} for w in words)
    it = sum(w in {"il", "la", "le", "i", "gli", "di", "che", "quali", "quanti", "sono", "della", "con", "e", "per",
                   "parole", "mostrami", "dammi", "elenca", "trova", "qual", "cosa", "ha", "hanno", "del", "come",
                   "si", "dice", "in", "una", "un"}
             for w in words)
    return "en" if en > it else "it"


@lru_cache(maxsize=1)
def _fields() -> dict:
    fields = dict(Slots.GENERIC)
    for pattern in CATALOGUE.values():
        fields.update(pattern.slot_fields)
    return fields


@lru_cache(maxsize=1)
def _readers() -> list:
    """Every reader, generic and the patterns', by stage (ties: generic first, then catalogue order)."""
    generic = [(10, _iris), (12, _quoted), (13, _listed), (20, _limit), (60, _relations), (80, _named_word),
               (110, _start_requests), (118, _answer), (119, _required), (140, _fact_order)]
    found = [(stage, -1, i, read) for i, (stage, read) in enumerate(generic)]
    for rank, pattern in enumerate(CATALOGUE.values()):
        found += [(stage, rank, i, read) for i, (stage, read) in enumerate(pattern.readers())]
    return [(stage, read) for stage, _, _, read in sorted(found, key=lambda r: r[:3])]


# -- generic readers ----------------------------------------------------------------------------
def _iris(text: Text, slots: Slots) -> None:
    """IRIs written in the question (``<…>``), masked so no cue reads inside them."""
    for m in re.finditer(r"<([^<>\s\"]+)>", text.folded):
        slots.iris.append(text.original[m.start(1):m.end(1)])
        text.mask(m.start(), m.end())


def _quoted(text: Text, slots: Slots) -> None:
    slots.quoted = [text.original[m.start() + 1:m.end() - 1] for m in re.finditer(QUOTED, text.folded)]


_ITEM = r"(?:[a-z]{2,}|[\x02]+)"  # a plain word, or the hidden contents of a quoted one
_LIST_TAIL = rf"{_ITEM}(?:\s*,\s*{_ITEM})*,?\s+(?:and|e|ed|or|o|oppure)\s+{_ITEM}|{_ITEM}(?:\s*,\s*{_ITEM}){{2,}}"
#: A list of words the question names: in parentheses, after a colon, or after a plural head ("the kinship
#: terms madre, padre e figlio"); quoted or not. Hyphenated items are affixes (MORPHO_REGEX), not words.
LISTS = (rf"\(\s*(?P<list>{_ITEM}(?:\s*,\s*{_ITEM})+(?:,?\s*(?:and|e|or|o)\s+{_ITEM})?)\s*\)",
         rf":\s*(?P<list>{_LIST_TAIL})\s*[?.!]?\s*$",
         rf"\b(?:terms|words|lemmas|parole|termini|lemmi|words like|such as|come|tra|among|between|for|per|di|of)\s+"
         rf"(?P<list>{_LIST_TAIL})\b")


def _listed(text: Text, slots: Slots) -> None:
    """Two or more words the question names as a list ("(madre, padre, fratello)", "…: notte, fuoco e luna")."""
    for pattern in LISTS:
        m = text.search(pattern)
        if not m:
            continue
        words = [text.original[w.start("w") + m.start("list"):w.end("w") + m.start("list")].strip("«»\"'")
                 for w in re.finditer(r"(?P<w>«[^»]*»|\"[^\"]*\"|'[^']*'|[^\s,]+)", text.original[m.start("list"):m.end("list")])]
        words = [w for w in words if w and fold_same_length(w) not in ("and", "e", "ed", "or", "o", "oppure")]
        if len(words) >= 2 and all(ok_word(w) and not _closed_word(w) for w in words):
            slots.listed = words
            text.mask(m.start("list"), m.end("list"))
            return


def _limit(text: Text, slots: Slots) -> None:
    for pattern in LIMIT:
        m = text.search(pattern)
        if m:
            slots.limit = int(m.group("n"))
            text.mask(*m.span())
            return


def _relations(text: Text, slots: Slots) -> None:
    read_relations(text, slots, [kind for p in CATALOGUE.values() for kind in p.relation_kinds])


@lru_cache(maxsize=1)
def _named_cues() -> list[str]:
    """The phrasings that introduce the named word, by position (see ``Pattern.named_cues``)."""
    nouns = "|".join(p.fact_nouns for p in CATALOGUE.values() if p.fact_nouns)
    cues = [(0.0, rf"\b(?:{nouns})\b(?:\s+[a-z]+){{0,4}}?\s+{OF}\s*{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}"),
            (_LAST, THE_WORD), (_LAST + 1, WORD_FOR)]
    cues += [cue for p in CATALOGUE.values() for cue in p.named_cues]
    return [regex for _, regex in sorted(cues, key=lambda c: c[0])]


def _named_word(text: Text, slots: Slots) -> None:
    if slots.word or slots.listed:
        return
    quoted_left = re.search(QUOTED, text.folded) is not None
    for pattern in _named_cues():
        for m in re.finditer(pattern, text.folded):
            if quoted_left and not is_quoted(m):
                continue  # "le forme del congiuntivo di «essere»": a quoted word is the one named
            if re.match(r"(?:\s+\w+)?\s+(?:del discorso|of speech)\b", text.folded[m.end():]):
                continue  # "parti del discorso": the vocabulary, not a word
            if ok_word(text.raw(m)) and not _closed_word(text.raw(m)):
                slots.word = text.value(m)
                return
    left = re.search(QUOTED, text.folded)
    if left:
        start, end = left.span()
        slots.word = text.original[start + 1:end - 1].strip()
        text.mask(start, end)


def _closed_word(value: str) -> bool:
    """True for words that name a vocabulary value (a dialect, a POS, a gender) rather than a lemma."""
    v = fold_same_length(value.strip("«»\"'"))
    return any(re.fullmatch(words, v) for _, words in DIALECT_WORDS + POS_WORDS + GENDER_WORDS)


def _start_requests(text: Text, slots: Slots) -> None:
    """The request view starts as the folded question with every value read so far masked."""
    text.requests = text.folded


#: A question that asks for the resources themselves (their IRIs), not only their written forms.
ASKS_IRI = r"\b(?:iris?|uris?|urls?|risors[ae]|resources?|identificativ[oi]|identifiers?|lila:lemma)\b"


def _answer(text: Text, slots: Slots) -> None:
    """What the answer must show beyond the catalogue's default columns: the lemma IRIs, when asked for."""
    if text.asks(ASKS_IRI):
        slots.answer["lemma_iri"] = True


#: "hanno una traduzione", "with a Sicilian equivalent", "have at least one definition": the fact is required.
HAVE_A = (r"(?<!non )(?<!not )\b(?:hanno|abbiano|ha|abbia|have|has|having|con|with)\s+(?:almeno\s+|at least\s+|both\s+|sia\s+)?"
          r"(?:(?:una?|uno|an?|one|some|qualche)\s+|un'\s*)(?:[a-z]+\s+){{0,4}}?(?:{nouns})\b")


def _required(text: Text, slots: Slots) -> None:
    """The facts the lemmas must have ("quali sostantivi hanno una definizione"), not only show.

    Read on the whole question (values read so far are masked in ``text``; "with a Sicilian but no
    Parmigiano translation" still requires the Sicilian one)."""
    folded = fold_same_length(slots.question)
    for label, pattern in CATALOGUE.items():
        if pattern.requirable and pattern.fact_nouns and re.search(HAVE_A.format(nouns=pattern.fact_nouns), folded):
            slots.required.append(label)


def _fact_order(text: Text, slots: Slots) -> None:
    """Where each word fact is first mentioned: facts are built (and columns ordered) in that order."""
    folded = fold_same_length(slots.question)
    for label, pattern in CATALOGUE.items():
        mention = pattern.mention(slots)
        m = re.search(mention, folded) if mention else None
        if m:
            slots.order[label] = m.start()


__all__ = ["Slots", "extract_slots", "guess_language"]
