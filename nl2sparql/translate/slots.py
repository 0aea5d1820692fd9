"""Slot extraction: what a question names, in Italian or English.

:func:`extract_slots` reads a question and returns :class:`Slots`: the named
lemma (quoted «casa» "casa" 'casa', or after cue words such as "di", "of",
"la parola", "the word"), emotions (names and adjectives, Italian and
English), dialects, part of speech and gender, affixes ("che iniziano con
ri", "starting with 'ri'", "ending in -zione"), semantic and lexical
relations with their target word, counting, definition requests, polarity
classes and thresholds, sense counts, inflected-form features, LIMIT ("i
primi 10"), graph names and the standalone questions (graph listings, class
counts).

Matching runs on a folded copy of the question (lower case, no accents, same
length as the original) so values keep their accents (``-ità``) while cues
are accent-blind. Every value found is *masked* (blanked in the folded copy)
so that later cues never re-read it: "sinonimi di paura" gives a relation
target, not the emotion Paura.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from ..namespaces import LIITA_GRAPH
from . import cues
from . import lexicon as lx
from .lexicon import ARTICLE, NAMED_HEAD, NOT_A_WORD, OF, fold_same_length

@dataclass
class Slots:
    """Everything :func:`extract_slots` found in a question (``None`` / empty: not asked)."""

    question: str = ""
    lang: str = "it"
    word: str | None = None
    quoted: list[str] = field(default_factory=list)
    iris: list[str] = field(default_factory=list)
    emotions: list[str] = field(default_factory=list)
    emotion_project: bool = False
    polarity: str | None = None
    threshold: float | None = None
    threshold_op: str | None = None
    polarity_project: bool = False
    dialects: list[str] = field(default_factory=list)
    translation: bool = False
    translation_target: str | None = None  # "translated into Sicilian as «scantu»": the dialect word
    pos: str | None = None
    gender: str | None = None
    affixes: list[tuple[str, str]] = field(default_factory=list)
    relation: str | None = None
    relation_target: str | None = None
    relation_mode: str | None = None  # "constraint" (list) | "project" (word fact) | "ambiguous"
    relation_property: str | None = None
    transitive: bool = False
    count: bool = False
    definition: bool = False
    definition_contains: str | None = None
    senses_count: bool = False
    min_senses: int | None = None
    forms: bool = False
    form_feature: str | None = None
    complit_pos: bool = False
    limit: int | None = None
    graph_scope: bool = False
    graph: str | None = None
    standalone: tuple[str, dict] | None = None
    order: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The slots that were found (empty values dropped), JSON-ready."""
        out = {}
        for key, value in asdict(self).items():
            if key in ("question", "notes", "order") or value in (None, False, [], "", {}):
                continue
            if key == "standalone":
                value = {"label": value[0], **value[1]}
            out[key] = value
        return out


class _Text:
    """The question, its folded copy and the masking of consumed spans."""

    def __init__(self, question: str):
        self.original = question
        self.folded = fold_same_length(question)
        for m in list(re.finditer(cues.QUOTED, self.folded)):
            inner = cues.HIDDEN * (m.end() - m.start() - 2)
            self.folded = self.folded[:m.start() + 1] + inner + self.folded[m.end() - 1:]

    def raw(self, m: re.Match, group: str = "v") -> str:
        """The original text of a matched value without quotes or hyphens (nothing is masked)."""
        raw = self.original[m.start(group):m.end(group)].strip()
        if raw[:1] in "«\"'\u201c\u2018" and len(raw) >= 2:
            raw = raw[1:-1]
        return raw.strip().strip("-").strip()

    def mask(self, start: int, end: int) -> None:
        """Blank ``[start, end)`` in the folded copy (a consumed value)."""
        self.folded = self.folded[:start] + cues.MASK * (end - start) + self.folded[end:]

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


def _is_quoted(m: re.Match, group: str = "v") -> bool:
    return m.group(group)[:1] in "«\"'"


def _ok_word(value: str) -> bool:
    return bool(value) and fold_same_length(value) not in NOT_A_WORD and not value.isdigit()


def extract_slots(question: str) -> Slots:
    """Read the slots of ``question`` (Italian or English); never raises on odd text."""
    text = _Text(question or "")
    slots = Slots(question=question or "")
    slots.lang = guess_language(question or "")
    _iris(text, slots)
    slots.quoted = [text.original[m.start() + 1:m.end() - 1] for m in re.finditer(cues.QUOTED, text.folded)]
    _numbers(text, slots)
    _quoted_emotions(text, slots)
    _affixes(text, slots)
    _definition_contains(text, slots)
    _relations(text, slots)
    _inverse_translation(text, slots)
    _named_word(text, slots)
    _emotions(text, slots)
    _closed_vocabularies(text, slots)
    _requests(text, slots)
    _standalone(text, slots)
    slots.order = _fact_order(fold_same_length(question or ""), slots)
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


# -- extraction steps ---------------------------------------------------------------------------
def _iris(text: _Text, slots: Slots) -> None:
    for m in re.finditer(r"<([^<>\s\"]+)>", text.folded):
        slots.iris.append(text.original[m.start(1):m.end(1)])
        text.mask(m.start(), m.end())
    names = [i.lower() for i in slots.iris] + re.findall(r"[a-z-]+[:#]antonym\w*", text.folded)
    for name in names:
        for key, prop in cues.ANTONYM_PROPS.items():
            if name == prop.lower() or name.endswith(key):
                slots.relation_property = prop


def _numbers(text: _Text, slots: Slots) -> None:
    for pattern in cues.LIMIT:
        m = text.search(pattern)
        if m:
            slots.limit = int(m.group("n"))
            text.mask(*m.span())
            break
    for pattern, add in cues.MIN_SENSES:
        m = text.search(pattern)
        if m:
            n = m.groupdict().get("n")
            slots.min_senses = int(float(n.replace(",", "."))) + add if n else add
            text.mask(*m.span())
            break
    if text.has(cues.POLARITY_CUE):
        m = text.search(cues.THRESHOLD)
        if m:
            value = float(m.group("n").replace(",", "."))
            op = m.group("op")
            slots.threshold_op = "<" if re.match(r"inferior|minor|piu bass|sotto|below|less|lower|under|<", op) else ">"
            slots.threshold = value
            text.mask(*m.span())


def _affixes(text: _Text, slots: Slots) -> None:
    for kind, cue in cues.AFFIX_CUES:
        for m in list(re.finditer(rf"\b{cue}\b{cues.AFFIX_FILLER}{cues.VALUE}", text.folded)):
            before = text.folded[max(0, m.start() - 40):m.start()]
            if kind == "contains" and re.search(r"definizion|definition|defined|skos:definition", before):
                continue
            if kind == "suffix" and re.match(r"end(?:s|ing)?\b", m.group(0)) and not re.search(
                    r"\bend(?:s|ing)?\s+(?:in|with|by)\b", m.group(0)):
                continue
            hyphen = m.group("v").startswith("-") or m.group("v").endswith("-")
            if not _is_quoted(m) and not hyphen and fold_same_length(text.raw(m)) in NOT_A_WORD | {"lettera", "letter"}:
                continue
            affix = text.value(m)
            if affix and (kind, affix) not in slots.affixes:
                slots.affixes.append((kind, affix))
    if slots.affixes and text.has(r"\bregex\b|\bregular expression|espressione regolare"):
        slots.notes.append("regex")


def _definition_contains(text: _Text, slots: Slots) -> None:
    for pattern in (cues.DEF_CONTAINS, cues.DEF_CONTAINS_2):
        m = text.search(pattern)
        if m and _ok_word(text.raw(m)):
            slots.definition_contains = text.value(m).lower()
            slots.definition = True
            return


def _relations(text: _Text, slots: Slots) -> None:
    if text.has(cues.TRANSITIVE):
        slots.transitive = True
    # "... verso un senso di «x»" / "to a sense of "x"" (technical phrasing)
    m = text.search(rf"\b(?:verso |to )?(?:un senso di|a sense of)\s*{cues.VALUE}")
    if m:
        before = text.folded[:m.start()]
        kinds = [(before.rfind(k), kind) for kind, k in (("hypernym", "hyponym"), ("holonym", "partmeronym"),
                                                          ("synonym", "synonym"), ("antonym", "antonim"),
                                                          ("antonym", "antonym"))]
        pos, kind = max(kinds)
        if pos >= 0:
            slots.relation, slots.relation_mode = kind, "constraint"
            slots.relation_target = text.value(m)
            return
    for kind, noun in cues.REL_TARGET:
        for m in re.finditer(rf"\b{noun}\s+(?:{OF}|(?:as|to|a|come)\b)\s*{ARTICLE}?(?:{NAMED_HEAD}\s+)?{cues.VALUE}",
                             text.folded):
            target = text.raw(m)
            if not _ok_word(target) or target in ("discorso", "speech", "cosa", "che"):
                continue
            if kind == "holonym" and re.search(r"\b(?:fa|fanno)\s+$|\bis\s+$", text.folded[:m.start()]):
                continue  # "fa parte di X" is a word fact about the subject
            slots.relation = kind
            slots.relation_mode = _relation_mode(kind, text.folded[:m.start()], m.group(0))
            target = text.value(m)
            if slots.relation_mode == "project":
                slots.word = target
            else:
                slots.relation_target = target
            return
    for kind, pattern in cues.REL_PROJECT:
        if text.has(pattern):
            slots.relation, slots.relation_mode = kind, "project"
            return


def _relation_mode(kind: str, before: str, noun: str = "") -> str:
    """Constraint (lemmas in the relation) or projection (the related words of a named word).

    Hyponyms and parts of X are always lists. For synonyms and antonyms: a
    plural noun after an article ("i sinonimi di", "the antonyms of") asks
    for the related words of X; a verb ("sono sinonimi di", "are the
    opposite of", "mean the same as") or a head noun ("parole che ...")
    constrains a list of lemmas.
    """
    if kind in ("hypernym", "holonym"):
        return "constraint"
    tail = before[-40:]
    plural_noun = re.match(r"(?:sinonimi|antonimi|contrari|synonyms|antonyms|opposites)\b", noun)
    verb = re.search(rf"\b{cues.CONSTRAINT_VERB}\s+(?P<art>(?:il|lo|la|i|gli|le|the|a|an)\s+)?$", tail)
    article = re.search(r"\b(?:i|gli|le|lo|il|the|its|their|suoi|sue)\s+"
                        r"(?:(?:parole|words)\s+(?:con|with)\s+(?:lo|the)\s+)?$", tail)
    if re.match(r"mean|signific|vogliono|vuol", noun):
        return "constraint"
    if verb:
        asks_word = re.search(r"\b(?:what|qual|quale|quali|cosa)\s*$", tail[:verb.start()])
        return "project" if asks_word or (plural_noun and verb.group("art")) else "constraint"
    if article:
        return "project"
    if re.search(rf"\b{cues.HEADS}\s+(?:che\s+|that\s+|which\s+)?(?:\w+\s+)?$", tail):
        return "constraint"
    return "ambiguous"


def _inverse_translation(text: _Text, slots: Slots) -> None:
    """A dialect word the Italian lemmas are translated as ("si traducono in siciliano con «scantu»")."""
    for pattern in cues.INVERSE_TRANSLATION:
        m = re.search(pattern, text.folded)
        if m and _ok_word(text.raw(m)):
            dialect = next(name for name, p in lx.DIALECT_WORDS if re.fullmatch(p, m.group("d")))
            slots.translation_target = text.value(m)
            slots.dialects = [dialect]
            return


def _named_word(text: _Text, slots: Slots) -> None:
    if slots.word:
        return
    for pattern in cues.NAMED:
        for m in re.finditer(pattern, text.folded):
            if _ok_word(text.raw(m)) and not _closed_word(text.raw(m)):
                slots.word = text.value(m)
                return
    left = re.search(cues.QUOTED, text.folded)
    if left:
        start, end = left.span()
        slots.word = text.original[start + 1:end - 1].strip()
        text.mask(start, end)


def _closed_word(value: str) -> bool:
    """True for words that name a vocabulary value (a dialect, a POS) rather than a lemma."""
    v = fold_same_length(value.strip("«»\"'"))
    patterns = [p for _, p in lx.DIALECT_WORDS] + [p for _, p in lx.POS_WORDS]
    return any(re.fullmatch(p, v) for p in patterns)


def _quoted_emotions(text: _Text, slots: Slots) -> None:
    """«paura» after "emozione" / "emotion" names the emotion, not a lemma."""
    for m in re.finditer(rf"\b(?:emozion[ei]|emotions?|elita:)\s*{cues.VALUE}", text.folded):
        value = fold_same_length(text.raw(m))
        for name, regex in lx.EMOTION_RES.items():
            if regex.fullmatch(value) and name not in slots.emotions:
                slots.emotions.append(name)
                text.mask(*m.span("v"))


def _emotions(text: _Text, slots: Slots) -> None:
    for name, regex in lx.EMOTION_RES.items():
        m = regex.search(text.folded)
        if m and name not in slots.emotions:
            slots.emotions.append(name)
            text.mask(*m.span())
    if not slots.emotions and (text.has(cues.EMOTION_PROJECT) or (slots.word and text.has(cues.EMOTION_CUE))):
        slots.emotion_project = True


def _closed_vocabularies(text: _Text, slots: Slots) -> None:
    for name, pattern in lx.DIALECT_WORDS:
        if re.search(rf"\b(?:{pattern})\b", text.folded) and name not in slots.dialects:
            slots.dialects.append(name)
    if text.has(r"\b(?:entramb[ie]|both|tutti e due|dialetti|dialects|ogni dialetto|each dialect)\b") \
            and text.has(cues.TRANSLATION):
        slots.dialects = ["parmigiano", "siciliano"]
    for name, pattern in lx.POS_WORDS:
        m = re.search(rf"\b(?:{pattern})\b", text.folded)
        if m:
            slots.pos = name
            text.mask(*m.span())
            break
    for name, pattern in lx.GENDER_WORDS:
        if re.search(rf"\b(?:{pattern})\b", text.folded):
            slots.gender = name
    for name, pattern in cues.POLARITY_CLASS:
        m = re.search(rf"\b(?:{pattern})\b", text.folded)
        if m and (text.has(cues.POLARITY_CUE) or re.search(rf"\b{cues.HEADS}\s+(?:{pattern})\b|\b(?:{pattern})\s+{cues.HEADS}",
                                                       text.folded)):
            slots.polarity = name
            break


def _requests(text: _Text, slots: Slots) -> None:
    folded = text.folded
    if slots.relation == "synonym":
        folded = re.sub(r"stesso significato|same meaning|mean the same|significano lo stesso", " ", folded)
    if re.search(cues.SENSES_COUNT, folded):
        slots.senses_count = True
        folded = re.sub(cues.SENSES_COUNT, " ", folded)
    slots.count = bool(re.search(cues.COUNT, folded))
    if slots.min_senses is None and slots.senses_count:
        slots.count = False
    slots.definition = slots.definition or bool(re.search(cues.DEFINITION, folded)) or \
        (slots.min_senses is None and bool(re.search(cues.MEANINGS, folded)))
    slots.translation = bool(slots.dialects) or bool(re.search(cues.TRANSLATION, folded))
    if re.search(cues.FORMS, folded) or (slots.word and re.search(r"\b(?:plural[ei]?|singolar[ei]|singular)\b", folded)):
        slots.forms = True
        for name, pattern in lx.FORM_FEATURES:
            if re.search(rf"\b(?:{pattern})\b", folded):
                slots.form_feature = name
                break
    if re.search(cues.COMPLIT_POS, folded) and (slots.word or re.search(r"compl-?it|lexinfo:partofspeech", folded)):
        slots.complit_pos = True
    if text.has(cues.POLARITY_CUE) and slots.polarity is None and slots.threshold is None:
        slots.polarity_project = True
    for iri in slots.iris:
        if iri.rstrip("/") == LIITA_GRAPH:
            slots.graph_scope = True
    if slots.translation_target:
        slots.translation = False  # the translation is the constraint, not a column
    if text.has(r"\b(?:grafo della lemma bank|lemma bank graph)\b"):
        slots.graph_scope = True
    elif slots.pos and not slots.dialects and text.has(r"\b(?:lemma ?bank|banca dei lemmi)\b"):
        # "the nouns of the Lemma Bank": the Italian lemmas only, not the dialect banks' lila:Lemma
        slots.graph_scope = True


def _fact_order(folded: str, slots: Slots) -> dict[str, int]:
    """Where each word fact is first mentioned: facts are built (and columns ordered) in that order."""
    wanted = {
        "definition": cues.DEFINITION, "translation": cues.TRANSLATION + "|" + "|".join(p for _, p in lx.DIALECT_WORDS),
        "emotion": cues.EMOTION_CUE, "polarity": cues.POLARITY_CUE, "forms": cues.FORMS + r"|\bplural[ei]?\b|\bsingolar",
        "senses": cues.SENSES_COUNT, "complit_pos": cues.COMPLIT_POS,
    }
    if slots.relation:
        wanted["relation"] = dict(cues.REL_PROJECT)[slots.relation] + "|" + dict(cues.REL_TARGET)[slots.relation]
    order = {}
    for fact, pattern in wanted.items():
        m = re.search(pattern, folded)
        if m:
            order[fact] = m.start()
    return order


def _standalone(text: _Text, slots: Slots) -> None:
    """Graph listings and whole-KB counts (COUNT_ENTITIES / META_GRAPH standalone variants)."""
    f = text.folded
    graphish = re.search(r"\b(?:graf[oi]|graphs?|named graphs?|dataset)\b", f)
    if graphish:
        graph = _graph_named(slots, f)
        if re.search(r"\b(?:quante triple|how many triples|conta le triple|count the triples|quanto e grande|"
                     r"how (?:large|big)|dimension\w*|size)\b", f):
            slots.standalone = ("META_GRAPH", {"kind": "sizes"})
        elif re.search(r"\b(?:classi|classes)\b", f) and graph:
            slots.standalone = ("META_GRAPH", {"kind": "classes", "graph": graph})
        elif re.search(r"\b(?:proprieta|properties|predicat[ie]|predicates)\b", f) and graph:
            slots.standalone = ("META_GRAPH", {"kind": "properties", "graph": graph})
        elif re.search(r"\b(?:lemmi|lemmas|lila:lemma|lemma)\b", f) and not slots.graph_scope:
            slots.standalone = ("META_GRAPH", {"kind": "lemma_graphs"})
        elif not (slots.graph_scope or slots.affixes or slots.emotions or slots.pos):
            slots.standalone = ("META_GRAPH", {"kind": "list"})
        if slots.standalone:
            slots.graph = graph
            return
    if not (slots.count or slots.senses_count or re.search(r"\b(?:distribuzione|distribution|raggruppa|group)\b", f)):
        return
    by = re.search(r"\b(?:per ciascun[oa]?|per ogni|for each|for every|per|by|distribuzione per|distribution by|"
                   r"raggruppa(?:re)? per|group(?:ed)? by)\s+(?:[a-z']+\s+){0,2}?(?P<key>parte del discorso|"
                   r"part of speech|pos|categoria grammaticale|emozion\w*|emotions?|genere|gender|polarita|polarity)", f)
    if by and not (slots.emotions or slots.polarity or slots.affixes or slots.pos or slots.word):
        key = by.group("key")
        key = ("pos" if re.match(r"parte|part|pos|categoria", key) else "emotion" if key.startswith("emo")
               else "gender" if key in ("genere", "gender") else "polarity")
        slots.standalone = ("COUNT_ENTITIES", {"kind": "by", "by": key})
        return
    constraints = slots.affixes or slots.emotions or slots.polarity or slots.threshold is not None or \
        slots.relation or slots.definition_contains or slots.min_senses or slots.gender or slots.word
    if constraints:
        return
    if re.search(r"\b(?:ipolemm\w*|hypolemmas?|lila:hypolemma)\b", f):
        slots.standalone = ("COUNT_ENTITIES", {"kind": "hypolemmas"})
    elif slots.senses_count and re.search(r"compl-?it", f):
        slots.standalone = ("COUNT_ENTITIES", {"kind": "senses"})
    elif slots.dialects and re.search(r"\b(?:traduzion\w*|translations?|coppie|pairs|collegamenti|links)\b", f):
        slots.standalone = ("COUNT_ENTITIES", {"kind": "translations", "dialect": slots.dialects[0]})
    elif (re.search(r"\blemma ?bank|banca dei lemmi\b", f) and not slots.pos) or (slots.dialects and not slots.pos) or \
            re.search(r"\b(?:lemmi|lemmas)\b.*\b(?:in|nella|di) liita\b", f) and not slots.pos:
        bank = slots.dialects[0] if slots.dialects else "italian"
        slots.standalone = ("COUNT_ENTITIES", {"kind": "bank", "bank": bank})
    elif slots.pos in ("noun", "verb", "adjective", "adverb") and not slots.translation and not slots.graph_scope:
        slots.standalone = ("COUNT_ENTITIES", {"kind": "pos", "pos": slots.pos})


def _graph_named(slots: Slots, folded: str) -> str | None:
    for iri in slots.iris:
        if "://" in iri:
            return iri
    m = re.search(r"\b(?:grafo|graph)\b(.{0,40})", folded)
    around = (m.group(1) if m else "") + " " + folded[max(0, (m.start() if m else 0) - 30):(m.start() if m else 0)]
    for pattern, iri in cues.GRAPH_NAMES:
        if re.search(pattern, around):
            return iri
    return None


__all__ = ["Slots", "extract_slots", "guess_language"]
