"""YES_NO: whether a named word meets constraints or has a fact (an ASK query).

"Is «cane» a kind of «mammifero»?", "La parola «paura» esprime gioia?",
"Esiste una traduzione siciliana di «formaggio»?": the other patterns'
blocks for the named word, asked as ``ASK``::

    ASK { VALUES ?wr { "cane"@it } … ?lemma a lila:Lemma ; ontolex:writtenRep ?wr }

The generator asks it of an anchor (true) and, now and then, of another lemma
(whatever the KB answers).
"""

from __future__ import annotations

import random
import re

from ..rules import Breach, Parsed, Rule
from ..sparql.lexer import query_form, tokenize
from ..sparql.model import Ask, Values
from .analytics import constrained, constraint_options, it_article, phrases, restricted, step_labels, written
from .base import Facts, frag, italian, quote
from .pattern import StandalonePattern
from .phrasing import topic
from .reading import Text, reads
from .vocab import GENDER_WORDS, POS_WORDS

#: English yes/no questions start with an auxiliary; Italian ones with "è vero che", "esiste", "c'è"…
YES_NO_START = (r"^\s*(?:is|are|does|do|did|has|have|can|could|was|were)\b|"
                r"^\s*(?:e vero che|e'|e|sono|esiste|esistono|c'e|ci sono|c e)\b")
#: Words that make a question ask for something other than yes or no.
ASKS_FOR = (r"^\s*(?:come|che|in che|di che|a che)\b|"
            r"\b(?:quale|quali|qual|chi|cosa|che cosa|quant\w*|dove|perche|mostra\w*|elenca|dammi|dimmi|"
            r"trova|mostri|puoi|potresti|vorrei|elenchi|which|what|who|how|where|why|list|show|give|tell|find)\b")
#: A verb that states something of the word (an Italian yes/no question is a statement with a question mark).
STATES = (r"(?:^|\s)(?:è|sono|ha|hanno|esprime|esprimono|evoca|evocano|trasmette|significa|indica|appartiene|fa|"
          r"fanno|esiste|si traduce|deriva)(?=\s|$)")
#: How often a generated question is asked of a lemma other than the anchor.
OTHER_WORD = 0.3


def _optional_blocks(tokens) -> list[tuple[int, int]]:
    """``(first, last)`` token indexes of each ``OPTIONAL { … }`` (its keyword to its closing brace)."""
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind == "word" and tok.upper == "OPTIONAL" and i + 1 < len(tokens) and tokens[i + 1].text == "{":
            depth = 0
            for j in range(i + 1, len(tokens)):
                depth += (tokens[j].text == "{") - (tokens[j].text == "}")
                if depth == 0:
                    out.append((i, j))
                    break
    return out


def _untested_optionals(query: str) -> list[tuple[int, int]]:
    """The OPTIONAL blocks of an ASK that test nothing: no variable bound only there is read by a FILTER outside."""
    if "OPTIONAL" not in query.upper() or query_form(query) != "ask":
        return []
    tokens = tokenize(query)
    found = []
    for first, last in _optional_blocks(tokens):
        inside = {t.text[1:] for t in tokens[first:last + 1] if t.kind == "var"}
        outside = [i for i in range(len(tokens)) if not first <= i <= last]
        # a FILTER (or BIND) outside that reads a variable of the block: FILTER(!BOUND(?x)) tests its absence
        tested = False
        for i in outside:
            if tokens[i].kind == "word" and tokens[i].upper in ("FILTER", "BIND"):
                depth, j = 0, i + 1
                while j < len(tokens):
                    depth += (tokens[j].text == "(") - (tokens[j].text == ")")
                    if tokens[j].kind == "var" and tokens[j].text[1:] in inside and not first <= j <= last:
                        tested = True
                    if depth == 0 and tokens[j].text == ")":
                        break
                    j += 1
        if not tested:
            found.append((tokens[first].start, tokens[last].start + 1))
    return found


def _ask_optional(query: str, parsed: Parsed):
    if _untested_optionals(query):
        yield Breach("an ASK whose fact sits inside OPTIONAL answers yes whenever the rest matches (a word with no "
                     "Sicilian translation still gives true): make the fact required (drop OPTIONAL)",
                     fix="the OPTIONAL blocks made required")


def _require_optionals(query: str) -> tuple[str, list[str]]:
    """Drop the ``OPTIONAL`` keyword of an ASK's untested blocks: what the question asks is then tested."""
    spans = _untested_optionals(query)
    text = query
    for start, _ in reversed(spans):
        text = text[:start] + text[start + len("OPTIONAL"):].lstrip(" ")
    return text, ["OPTIONAL made required in an ASK"] * len(spans)


ASK_OPTIONAL = Rule(
    "ask_through_optional", "error",
    "A yes/no question (ASK) tests its facts as required triples, never inside OPTIONAL: an OPTIONAL block "
    "matches whether or not the fact exists, so the answer would be yes for any word.",
    _ask_optional,
    broken="PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
           "PREFIX vartrans: <http://www.w3.org/ns/lemon/vartrans#>\n"
           'ASK { VALUES ?wr { "animale"@it } ?lemma ontolex:writtenRep ?wr . '
           "OPTIONAL { ?e ontolex:canonicalForm ?lemma ; vartrans:translatableAs ?d } }",
    fix=_require_optionals)


class YesNo(StandalonePattern):
    """``ASK { VALUES ?wr { "x"@it } … }`` over the other patterns' blocks."""

    label = "YES_NO"
    rank = 119
    guidance = ("Yes/no questions about a word are ASK queries: ASK { VALUES ?wr { \"cane\"@it } ?lemma a lila:Lemma ; "
                "ontolex:writtenRep ?wr . … } (the answer is a boolean, no SELECT).")
    example = ("standalone", None, {"word": "paura", "steps": [("EMOTION_LEXICON", {"mode": "constraint",
                                                                                     "emotion": "Paura"})]})
    question_cues = [(r"^\s*(?:is|are|does|do|has|have|e vero che|esiste|esistono)\b", 0.5)]
    slot_fields = {"yes_no": False}
    rules = (ASK_OPTIONAL,)

    # -- generator ----------------------------------------------------------------------------
    def variants(self, facts: Facts) -> list[dict]:
        """A constraint or two that an anchor meets, asked of the anchor or of another lemma (sampled)."""
        rng = random.Random(self.label)
        lemmas = sorted(facts.lemmas("lemma"))
        out: list[dict] = []
        for anchor in rng.sample(lemmas, min(len(lemmas), 120)):
            steps = [s for s in constraint_options(facts, anchor, rng, most=2)]
            if not any(label != "POS_FILTER" for label, _ in steps):
                continue
            asked = rng.choice(lemmas) if rng.random() < OTHER_WORD else anchor
            word = written(facts, asked)
            if word and all(word != values.get("target") for _, values in steps):
                out.append({"word": word, "steps": steps})
        return out

    def build(self, slots: dict, rng: random.Random):
        steps = [tuple(s) for s in slots.get("steps") or []]
        word = slots["word"]
        frame = constrained(steps, "list", rng=rng)
        frame.any_written_rep()  # the word asked about, however it is spelt
        for facet in list(frame.facets):  # what is asked is tested: a fact in OPTIONAL would answer yes for any word
            frame.require(facet)
        rest = [e for e in frame.where.elements if not any(e is b for b in frame.base)]
        frame.where.elements = [Values(frame.wr, [italian(word)])] + frame.base + rest
        query = Ask(frame.where)
        tags = {**step_labels(steps), **frame.labels, self.label: 0.9}
        mentions = [(word, word)] + list(frame.mentions)
        return query, [self._question(frame, word, rng)], tags, mentions

    def _question(self, frame, word: str, rng: random.Random):
        head_it, vps_it = phrases(frame, "it", "plain", rng)
        head_en, vps_en = phrases(frame, "en", "plain", rng)
        qi, qe = quote("it", word), quote("en", word)
        art = it_article(head_it)
        it = [f"{qi} è tra {art} {restricted(head_it, vps_it, 'it')}?",
              f"È vero che {qi} è tra {art} {restricted(head_it, vps_it, 'it')}?"]
        en = [f"Is {qe} one of the {restricted(head_en, vps_en, 'en')}?",
              f"Is the word {qe} among the {restricted(head_en, vps_en, 'en')}?"]
        _, tech_it = phrases(frame, "it", "tech", rng)
        _, tech_en = phrases(frame, "en", "tech", rng)
        return frag("standalone", it, en,
                    f"Il lila:Lemma con ontolex:writtenRep {qi} è tra quelli {tech_it}? (ASK)",
                    f"Is the lila:Lemma whose ontolex:writtenRep is {qe} among those {tech_en}? (ASK)",
                    ling=(f"Il lemma {qi} rientra tra {art} {restricted(head_it, vps_it, 'it')}?",
                          f"Does the lemma {qe} belong to the {restricted(head_en, vps_en, 'en')}?"),
                    lead=topic(frame.fragments, "italian"))

    # -- tagger -------------------------------------------------------------------------------
    def sparql_weight(self, f) -> float:
        return 0.9 if f.form == "ask" else 0.0

    # -- translator ---------------------------------------------------------------------------
    @reads(16)
    def read_yes_no(self, text: Text, slots) -> None:
        """A question answered by yes or no: it starts with an auxiliary, or it names a word and asks for nothing."""
        folded = text.folded.rsplit(":", 1)[-1].strip()  # after a lead-in ("Per capire …: «x» è …?")
        if re.search(ASKS_FOR, folded):  # "can you list them?", "is there a word that …, which …?"
            return
        if self._alternative(text, slots):
            return
        if re.search(YES_NO_START, folded):
            slots.yes_no = True
        elif folded.endswith("?") and re.search(r"[«\"]", text.original) and \
                re.search(STATES, text.original.rsplit(":", 1)[-1].lower()):  # "è", not the conjunction "e"
            slots.yes_no = True  # «paura» esprime gioia?

    @staticmethod
    def _alternative(text: Text, slots) -> bool:
        """"«mano» è maschile o femminile?", "is «casa» a noun or a verb?": the word's gender or part of speech is
        asked (the two values are masked), not a yes or no."""
        if not slots.quoted:  # (the named word is read later: a quoted one stands for it here)
            return False
        for words, asked in ((GENDER_WORDS, "gender_asked"), (POS_WORDS, "pos_asked")):
            value = "(?:" + "|".join(w for _, w in words) + ("|nome" if asked == "pos_asked" else "") + ")"
            m = re.search(rf"\b(?:(?:un|una|uno|un'|a|an)\s*)?{value}\s+(?:o|or|oppure)\s+(?:(?:un|una|uno|un'|a|an)\s*)?"
                          rf"{value}\b", text.folded)
            if m:
                setattr(slots, asked, True)
                text.mask(*m.span())
                return True
        return False

    def wrap(self, slots, steps: list, shape: str, facts: list = ()) -> dict | None:
        steps = list(steps) + list(facts)
        if not slots.yes_no or not slots.word or not steps or shape == "standalone":
            return None
        return {"word": slots.word, "steps": steps}


PATTERN = YesNo()
