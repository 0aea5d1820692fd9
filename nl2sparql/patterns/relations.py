"""What the sense-relation patterns share: their slots, how questions name a relation, the two readings.

SEMANTIC_RELATION (hyponymy, meronymy) and LEXICAL_RELATION (synonymy,
antonymy) each declare their :class:`~.reading.RelationKind`\\ s; question
reading calls :func:`read_relations` once with the kinds of every relation
pattern, so a question names one relation, with a target word ("sinonimi di
X": the lemmas in the relation to X) or about a named word ("i sinonimi di X":
the related words of X), or ambiguously (both readings are planned).
"""

from __future__ import annotations

import re
from typing import Sequence

from .pattern import Pattern
from .reading import ARTICLE, HEADS, NAMED_HEAD, OF, VALUE, RelationKind, Text, is_quoted, ok_word

#: The slots every relation pattern reads (question reading fills them once for all kinds).
RELATION_FIELDS = {"relation": None, "relation_target": None, "relation_mode": None, "relation_property": None,
                   "transitive": False}
#: Verbs before a relation noun that make it a constraint on the listed lemmas ("sono sinonimi di X").
CONSTRAINT_VERB = r"(?:sono|e|siano|are|is|be|hanno|have|has|mean|means|significano|vogliono|indicano|name|denote)"
_TECHNICAL = rf"\b(?:verso |to )?(?:un senso di|a sense of)\s*{VALUE}"
_NOT_TARGETS = ("discorso", "speech", "cosa", "che")
#: After "what kinds does X …": X belongs to them (the other direction of the relation).
_BELONGS = r"\b(?:belongs?|fall|falls|appartien\w*|appartengono|rientra\w*)\b"
#: "of the" before a relation noun that another noun governs ("the translations of the synonyms of X").
OF_THE = r"dei|degli|delle|of the|of its|of their|for the|per i|per gli|per le"


def read_relations(text: Text, slots, kinds: Sequence[RelationKind]) -> None:
    """The relation a question names, its target or named word, and whether it lists lemmas or asks about a word."""
    m = text.search(_TECHNICAL)  # "... verso un senso di «x»" / "to a sense of "x"" (technical phrasing)
    if m:
        before = text.folded[:m.start()]
        pos, name = max((before.rfind(marker), kind.name) for kind in kinds for marker in kind.markers)
        if pos >= 0:
            slots.relation, slots.relation_mode = name, "constraint"
            slots.relation_target = text.value(m)
            return
    for kind in kinds:
        for m in re.finditer(rf"\b{kind.target}\s+(?:{OF}|(?:as|to|a|come)\b)\s*{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
                             text.folded):
            target = text.raw(m)
            if not (ok_word(target) or is_quoted(m) and target) or (target in _NOT_TARGETS and not is_quoted(m)):
                continue  # a quoted word is a word, even «termine»
            if kind.not_after and re.search(kind.not_after, text.folded[:m.start()]):
                continue
            slots.relation = kind.name
            slots.relation_mode = relation_mode(kind, text.folded[:m.start()], m.group(0))
            target = text.value(m)
            if slots.relation_mode == "project":
                slots.word = target
            else:
                slots.relation_target = target
                text.mask(*m.span())  # the relation noun is no named word either ("le definizioni dei sinonimi di X")
            return
    for kind in kinds:  # "quanti iponimi ha X", "how many synonyms does X have": X is the word the relation starts from
        m = re.search(rf"\b{kind.target}\s+(?:ha|hanno|possiede|has|have|does|do)\s+{ARTICLE}?(?:{NAMED_HEAD}\s+)?{VALUE}",
                      text.folded)
        if m and re.search(_BELONGS, text.folded[m.end():]):
            continue  # "what types does X belong to": the kinds X is one of, not the kinds of X
        if m and ok_word(text.raw(m)) and text.raw(m) not in _NOT_TARGETS:
            slots.relation = kind.name
            slots.relation_mode = "constraint" if kind.always_list else "project"
            value = text.value(m)
            if slots.relation_mode == "project":
                slots.word = value
            else:
                slots.relation_target = value
            return
    for kind in kinds:
        if text.has(kind.project):
            slots.relation, slots.relation_mode = kind.name, "project"
            return


def relation_mode(kind: RelationKind, before: str, noun: str = "") -> str:
    """Constraint (lemmas in the relation) or projection (the related words of a named word).

    ``always_list`` relations (hyponyms and parts of X) are always lists. For
    the others: a plural noun after an article ("i sinonimi di", "the
    antonyms of") asks for the related words of X; a verb ("sono sinonimi di",
    "are the opposite of", "mean the same as") or a head noun ("parole che
    ...") constrains a list of lemmas.
    """
    if kind.always_list:
        return "constraint"
    tail = before[-40:]
    if re.search(rf"\b[a-z]{{4,}}\s+(?:{OF_THE})\s*$", tail):
        return "constraint"  # "le definizioni dei sinonimi di X": the synonyms are what other facts are about
    plural_noun = kind.plural and re.match(rf"(?:{kind.plural})\b", noun)
    verb = re.search(rf"\b{CONSTRAINT_VERB}\s+(?P<art>(?:il|lo|la|i|gli|le|the|a|an)\s+)?$", tail)
    article = re.search(r"\b(?:i|gli|le|lo|il|the|its|their|suoi|sue)\s+"
                        r"(?:(?:parole|words)\s+(?:con|with)\s+(?:lo|the)\s+)?$", tail)
    if kind.verb_phrase and re.match(kind.verb_phrase, noun):
        return "constraint"
    if verb:
        asks_word = re.search(r"\b(?:what|qual|quale|quali|cosa)\s*$", tail[:verb.start()])
        return "project" if asks_word or (plural_noun and verb.group("art")) else "constraint"
    if article:
        return "project"
    if re.search(rf"\b{HEADS}\s+(?:che\s+|that\s+|which\s+)?(?:\w+\s+)?$", tail):
        return "constraint"
    return "ambiguous"


class RelationPattern(Pattern):
    """A pattern over sense relations: its kinds, the shared slots, and the steps it plans from them."""

    kind = "relation"
    slot_fields = RELATION_FIELDS

    def reads_relation(self, slots) -> bool:
        """True when the question names one of this pattern's relations."""
        return any(k.name == slots.relation for k in self.relation_kinds)

    def mention(self, slots) -> str | None:
        kind = next((k for k in self.relation_kinds if k.name == slots.relation), None)
        return f"{kind.project}|{kind.target}" if kind else None

    def readings(self, slots) -> list:
        """An ambiguous relation: about the named (or target) word first, then as a list constraint."""
        if not self.reads_relation(slots) or slots.relation_mode != "ambiguous":
            return []
        return [(slots.copy(word=slots.word or slots.relation_target, relation_mode="project"), 0.9),
                (slots.copy(relation_mode="constraint"), 0.88)]

    def relation_step(self, slots, target: str | None) -> dict:
        """Build slots for the question's relation (``target``: the word the lemmas relate to)."""
        step: dict = {"relation": slots.relation}
        if target:
            step["target"] = target
        return step

    def constraint_steps(self, slots) -> list[dict]:
        if self.reads_relation(slots) and slots.relation_mode == "constraint" and slots.relation_target:
            return [self.relation_step(slots, slots.relation_target)]
        return []

    def projection_steps(self, slots) -> list[dict]:
        if self.reads_relation(slots) and slots.relation_mode == "project":
            return [self.relation_step(slots, None)]
        return []

    word_steps = projection_steps
