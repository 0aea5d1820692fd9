"""MORPHO_REGEX: written forms with a prefix, a suffix or a substring."""

from __future__ import annotations

import bisect
import random
import re

from ..folding import fold_same_length
from ..namespaces import expand
from ..sparql.model import Call, Filter, Lit, Op, str_
from .base import Facts, Frame, frag, quote
from .pattern import Pattern
from .reading import NOT_A_WORD, QUOTED, VALUE, Text, is_quoted, reads
from .sense_definition import DEFINITION_NOUNS

WRITTEN_REP, RDFS_LABEL = expand("ontolex:writtenRep"), expand("rdfs:label")
ELITA_HAS_EMOTION = expand("elita:HasEmotion")

#: Real Italian suffixes → True when nearly every word ending in them has that suffix (so a question may
#: call the string test a "suffix"); False: a real suffix that many words merely end in (-ino: «vino»),
#: asked as "ending in" only.
SUFFIXES = {"zione": True, "bile": True, "evole": True, "ezza": True, "issimo": True, "ismo": True, "ità": True,
            "mente": False, "mento": False, "ista": False, "tore": False, "trice": False, "aggio": False,
            "oso": False, "ale": False, "ino": False, "etto": False, "ello": False, "one": False, "accio": False,
            "iere": False, "aio": False, "eria": False, "logia": True, "are": False, "ere": False, "ire": False}
#: Real Italian prefixes, the same way (ri-: «riso» merely starts with it).
PREFIXES = {"anti": True, "auto": True, "contro": True, "sopra": True, "sotto": True, "super": True, "inter": True,
            "semi": True, "extra": True, "tele": True, "micro": True, "macro": True, "multi": True, "iper": True,
            "ultra": True, "pseudo": True, "vice": True, "arci": True, "infra": True, "sovra": True,
            "ri": False, "in": False, "dis": False, "s": False, "pre": False, "de": False, "tras": False,
            "stra": False, "bio": False, "geo": False, "mono": False, "poli": False, "neo": False, "post": False}
#: Real morphemes and roots a question may look for inside written forms («acqua»: «acquazzone»).
ROOTS = ("acqua", "terra", "fiore", "luce", "sole", "mare", "porta", "mano", "capo", "casa", "fuoco", "vento",
         "pietra", "ferro", "latte", "grafia", "logo", "fono", "metro", "crono", "foto", "idro", "psico", "termo")


_UNIT = r"(?:lettere|caratteri|letters|characters|chars)"
#: Length tests on the written form: (regex with the numbers ``n`` and maybe ``m``, the comparisons they give).
LENGTHS = (
    (rf"\b(?:tra|between|fra)\s+(?P<n>\d+)\s+(?:e|and)\s+(?P<m>\d+)\s+{_UNIT}", (">=", "<=")),
    (rf"\b(?:piu lung\w* di|longer than|more than|over|oltre|piu di|with more than)\s+(?P<n>\d+)\s+{_UNIT}", (">",)),
    (rf"\b(?:piu cort\w* di|shorter than|fewer than|less than|meno di)\s+(?P<n>\d+)\s+{_UNIT}", ("<",)),
    (rf"\b(?P<n>\d+)\s+(?:{_UNIT}\s+)?(?:o|or)\s+(?:meno|fewer|less)(?:\s+{_UNIT})?", ("<=",)),
    (rf"\b(?:at most|al massimo|massimo|up to|fino a)\s+(?P<n>\d+)\s+{_UNIT}", ("<=",)),
    (rf"\b(?P<n>\d+)\s+(?:{_UNIT}\s+)?(?:o|or)\s+(?:piu|more)(?:\s+{_UNIT})?", (">=",)),
    (rf"\b(?:at least|almeno)\s+(?P<n>\d+)\s+{_UNIT}", (">=",)),
    (rf"\b(?:di|of|with|con|lunghe|long|esattamente|exactly)\s+(?:esattamente\s+|exactly\s+)?(?P<n>\d+)\s+{_UNIT}", ("=",)),
)
_LENGTH_WORDS = {">": ("più di {n} lettere", "more than {n} letters"), "<": ("meno di {n} lettere", "fewer than {n} letters"),
                 ">=": ("almeno {n} lettere", "at least {n} letters"), "<=": ("al massimo {n} lettere", "at most {n} letters"),
                 "=": ("{n} lettere", "{n} letters")}


def affix_text(kind: str, affix: str) -> str:
    """How a question writes an affix: «-zione», «anti-», or the bare string for a substring."""
    return f"-{affix}" if kind == "suffix" else f"{affix}-" if kind == "prefix" else affix


def is_real(kind: str, affix: str) -> bool:
    """True when a string test for ``affix`` may be called a prefix or suffix (see :data:`SUFFIXES`)."""
    table = SUFFIXES if kind == "suffix" else PREFIXES if kind == "prefix" else {}
    return bool(table.get(affix))


#: Affix kind → the words that introduce it in a question.
AFFIX_CUES = (
    ("prefix", r"(?:inizi\w*|comincia\w*|cominci\w*|start\w*|begin\w*|prefiss[oi]|prefix(?:es)?)"),
    ("suffix", r"(?:finisc\w*|finiscono|termina\w*|terminan\w*|suffiss[oi]|suffix(?:es)?|end(?:s|ing)?|desinenz[ae]|"
               r"(?:formed with|formati con|formate con|built with)(?=\s+(?:the\s+|il\s+|la\s+)?(?:suffi\w+\s+)?[-«\"'\x02]))"),
    ("contains", r"(?:contien\w*|contengon\w*|contenent\w*|contain\w*|includ\w*)"),
)
#: What may stand between the cue and the affix ("con il suffisso", "with the letters").
AFFIX_FILLER = (r"\s*(?:(?:con|per|with|by|in|a)\s+)?(?:(?:(?:il|la|le|the|a|an)\s+)?"
                r"(?:prefisso|suffisso|desinenza|sequenza|stringa|lettera|lettere|prefix|suffix|string|"
                r"sequence|letters?)\s+)?")
_REGEX_SPECIAL = re.compile(r"([\\.^$|?*+()\[\]{}])")


def regex_escape(text: str) -> str:
    """Escape XPath-regex metacharacters so ``text`` matches literally."""
    return _REGEX_SPECIAL.sub(r"\\\1", text)


def _written_index(facts: Facts) -> tuple[list, list]:
    """Written forms sorted forwards and reversed, for prefix and suffix look-ups by bisection."""
    pairs = [(row[0], lemma) for lemma, rows in facts.by_lemma("lemma").items() for row in rows]
    return sorted(pairs), sorted((wr[::-1], lemma) for wr, lemma in pairs)


GRAM = 4


def _gram_index(facts: Facts) -> dict[str, list[int]]:
    """Positions in the forward written-form index of every form containing each 4-letter substring."""
    forward, _ = facts.derived("morpho_index", _written_index)
    grams: dict[str, list[int]] = {}
    for i, (wr, _) in enumerate(forward):
        for gram in {wr[k:k + GRAM] for k in range(len(wr) - GRAM + 1)}:
            grams.setdefault(gram, []).append(i)
    return grams


def _containing(facts: Facts, affix: str) -> set[str]:
    forward, _ = facts.derived("morpho_index", _written_index)
    if len(affix) < GRAM:
        return {lemma for wr, lemma in forward if affix in wr}
    positions = facts.derived("morpho_grams", _gram_index).get(affix[:GRAM], [])
    return {forward[i][1] for i in positions if affix in forward[i][0]}


def _prefixed(index: list, prefix: str) -> set[str]:
    start = bisect.bisect_left(index, (prefix,))
    end = bisect.bisect_left(index, (prefix + "\U0010ffff",))
    return {lemma for _, lemma in index[start:end]}


class MorphoRegex(Pattern):
    """``FILTER(STRSTARTS|STRENDS|CONTAINS|REGEX(STR(?wr), …))``."""

    label = "MORPHO_REGEX"
    rank = 100
    guidance = ("Affixes on the written form: STRSTARTS / STRENDS / CONTAINS (STR(?wr), \"…\").")
    example = ("list", None, {"kind": "suffix", "affix": "zione"})
    question_cues = [
        (r"\b(inizi\w*|comincia\w*|prefiss\w*|start\w*|begin\w*|prefix\w*)\b", 0.85),
        (r"\b(finisc\w*|termina\w*|suffiss\w*|end(s|ing)? (in|with)|suffix\w*)\b", 0.85),
        (r"\b(contien\w*|conteng\w*|contenent\w*|contain\w*|sottostringa|substring)\b", 0.6),
        (r"\b(lunghezza|lunghe|length|long|caratteri|characters)\b", 0.5),
    ]
    compose = {"constraint": 2}
    build_order = 2
    slot_fields = {"affixes": list, "affixes_any": False, "lengths": list}

    @reads(40)
    def read_affixes(self, text: Text, slots) -> None:
        """Prefixes, suffixes and substrings ("che finiscono in -zione", "starting with 'ri'")."""
        for kind, cue in AFFIX_CUES:
            for m in list(re.finditer(rf"\b{cue}\b{AFFIX_FILLER}(?:\(\s*)?{VALUE}", text.folded)):
                before = text.folded[max(0, m.start() - 40):m.start()]
                if re.search(rf"(?:{DEFINITION_NOUNS})\s+(?:\w+\s+)?$", before) or (
                        kind == "contains" and re.search(DEFINITION_NOUNS, before)):
                    continue  # the definition contains it or starts with it (SENSE_DEFINITION)
                if kind == "suffix" and re.match(r"end(?:s|ing)?\b", m.group(0)) and not re.search(
                        r"\bend(?:s|ing)?\s+(?:in|with|by)\b", m.group(0)):
                    continue
                hyphen = m.group("v").startswith("-") or m.group("v").endswith("-")
                if not is_quoted(m) and not hyphen and fold_same_length(text.raw(m)) in NOT_A_WORD | {"lettera", "letter"}:
                    continue
                affix = text.value(m)
                if affix and (kind, affix) not in slots.affixes:
                    slots.affixes.append((kind, affix))
                    self._read_alternatives(text, slots, kind, m.end())
        if slots.affixes and text.has(r"\bregex\b|\bregular expression|espressione regolare"):
            slots.notes.append("regex")

    @reads(41)
    def read_lengths(self, text: Text, slots) -> None:
        """Tests on the written form's length ("più lunghe di 10 lettere", "between 12 and 15 characters")."""
        for pattern, ops in LENGTHS:
            m = text.search(pattern)
            if m:
                numbers = [int(m.group("n"))] + ([int(m.group("m"))] if "m" in m.groupdict() and m.group("m") else [])
                slots.lengths = [[op, n] for op, n in zip(ops, numbers)]
                text.mask(*m.span())
                return

    @staticmethod
    def _read_alternatives(text: Text, slots, kind: str, end: int) -> None:
        """"-ino, -etto o -ello", "(-one, -ona)", "con «pre» o con «post»": further affixes of the same kind right after one, either of them."""
        tail = re.match(rf"(?:\s*\)?\s*(?:,|\bo\b|\bor\b|\boppure\b|\be\b|\band\b|\()\s*(?:(?:con|with|by|in|per)\s+)?"
                        rf"(?:-[a-z]+|[a-z]+-|{QUOTED}))+",
                        text.folded[end:])
        if not tail:
            return
        for m in re.finditer(rf"(?P<v>-[a-z]+|[a-z]+-|{QUOTED})", tail.group(0)):
            value = text.original[end + m.start():end + m.end()].strip("«»\"'").strip("-")
            if value and (kind, value) not in slots.affixes:
                slots.affixes.append((kind, value))
                slots.affixes_any = True
        text.mask(end, end + tail.end())

    def constraint_steps(self, slots) -> list[dict]:
        lengths = [{"kind": "length", "lengths": [list(t) for t in slots.lengths]}] if slots.lengths else []
        return lengths + self._affix_steps(slots)

    def _affix_steps(self, slots) -> list[dict]:
        if slots.affixes_any and len({kind for kind, _ in slots.affixes}) == 1:
            kind = slots.affixes[0][0]
            return [{"kind": kind, "affix": slots.affixes[0][1], "any": [a for _, a in slots.affixes]}]
        return [{"kind": kind, "affix": affix, "regex": "regex" in slots.notes and kind != "contains"}
                for kind, affix in slots.affixes]

    def applicable(self, facts: Facts, lemma: str) -> bool:
        return bool(self._options(facts.labels.get(lemma, "")))

    @staticmethod
    def _options(wr: str) -> list[tuple[str, str]]:
        wr = wr.lower()
        if len(wr) < 5 or not wr.replace(" ", "").isalpha():
            return []
        opts = [("suffix", s) for s in SUFFIXES if wr.endswith(s) and len(wr) > len(s) + 2]
        opts += [("prefix", p) for p in PREFIXES if wr.startswith(p) and len(wr) > len(p) + 3]
        opts += [("contains", r) for r in ROOTS if r in wr[1:] and len(wr) > len(r) + 2]
        return opts

    def choose(self, facts: Facts, lemma: str, shape: str, rng: random.Random) -> dict:
        kind, affix = rng.choice(self._options(facts.labels[lemma]))
        return {"kind": kind, "affix": affix, "regex": rng.random() < 0.25 and kind != "contains"}

    def matching(self, facts: Facts, slots: dict) -> set[str] | None:
        kind, affix = slots["kind"], slots["affix"]
        forward, backward = facts.derived("morpho_index", _written_index)
        if kind == "prefix":
            return _prefixed(forward, affix)
        if kind == "suffix":
            return _prefixed(backward, affix[::-1])
        return _containing(facts, affix)

    def build(self, frame: Frame, slots: dict, rng: random.Random) -> None:
        if slots.get("kind") == "length":
            self._build_length(frame, [tuple(t) for t in slots["lengths"]])
            return
        if slots.get("any"):
            self._build_any(frame, slots["kind"], list(slots["any"]))
            return
        kind, affix = slots["kind"], slots["affix"]
        target = str_(frame.wr)
        test = "REGEX" if slots.get("regex") else {"prefix": "STRSTARTS", "suffix": "STRENDS", "contains": "CONTAINS"}[kind]
        if slots.get("regex"):
            pattern = f"^{regex_escape(affix)}" if kind == "prefix" else f"{regex_escape(affix)}$"
            frame.where.add(Filter(Call("REGEX", (target, Lit(pattern)))))
        else:
            frame.where.add(Filter(Call(test, (target, Lit(affix)))))
        shown = affix_text(kind, affix)
        qi, qe = quote("it", shown), quote("en", shown)
        if len(affix) == 1:  # "start with the letter «z»", not «z-»
            qi, qe = f"la lettera {quote('it', affix)}", f"the letter {quote('en', affix)}"
        real = is_real(kind, affix)
        if kind == "prefix":
            it, en = [f"iniziano con {qi}", f"cominciano con {qi}"], [f"start with {qe}", f"begin with {qe}"]
            if real:
                it, en = it + [f"hanno il prefisso {qi}"], en + [f"have the prefix {qe}"]
            it_verb, en_verb = "inizia con", "starts with"
        elif kind == "suffix":
            it, en = [f"finiscono in {qi}", f"terminano in {qi}"], [f"end in {qe}", f"end with {qe}"]
            if real:
                it, en = it + [f"hanno il suffisso {qi}"], en + [f"have the suffix {qe}"]
            it_verb, en_verb = "termina in", "ends in"
        else:
            it, en = [f"contengono {qi}", f"contengono la sequenza {qi}"], [f"contain {qe}", f"contain the string {qe}"]
            it_verb, en_verb = "contiene", "contains"
        f = frag("constraint", it, en, f"con un ontolex:writtenRep che {it_verb} {quote('it', affix)} ({test})",
                 f"with an ontolex:writtenRep that {en_verb} {quote('en', affix)} ({test})")
        frame.fragments.append(f)
        frame.slot(kind, affix)
        frame.tag(self.label, 0.9)

    def _build_length(self, frame: Frame, tests: list[tuple[str, int]]) -> None:
        """``FILTER(STRLEN(STR(?wr)) > 10)``: the written form's length in characters."""
        length = Call("STRLEN", (str_(frame.wr),))
        for op, n in tests:
            frame.where.add(Filter(Op(op, (length, Lit(int(n))))))
        it = " e ".join(_LENGTH_WORDS[op][0].format(n=n) for op, n in tests)
        en = " and ".join(_LENGTH_WORDS[op][1].format(n=n) for op, n in tests)
        tech = " e ".join(f"STRLEN {op} {n}" for op, n in tests)
        frame.fragments.append(frag("constraint", [f"hanno {it}", f"sono lunghe {it}"], [f"have {en}", f"are {en} long"],
                                    f"con un ontolex:writtenRep di {tech}", f"with an ontolex:writtenRep of {tech}"))
        frame.slot("length", ", ".join(f"{op}{n}" for op, n in tests))
        frame.tag(self.label, 0.8)

    def _build_any(self, frame: Frame, kind: str, affixes: list[str]) -> None:
        """Written forms with any of the affixes: ``FILTER(STRENDS(STR(?wr), "ino") || STRENDS(STR(?wr), "etto"))``."""
        test = {"prefix": "STRSTARTS", "suffix": "STRENDS", "contains": "CONTAINS"}[kind]
        tests = [Call(test, (str_(frame.wr), Lit(a))) for a in affixes]
        frame.where.add(Filter(Op("||", tuple(tests))))
        shown_it = ", ".join(quote("it", affix_text(kind, a)) for a in affixes[:-1]) + " o " + quote("it", affix_text(kind, affixes[-1]))
        shown_en = ", ".join(quote("en", affix_text(kind, a)) for a in affixes[:-1]) + " or " + quote("en", affix_text(kind, affixes[-1]))
        it = {"prefix": f"iniziano con {shown_it}", "suffix": f"finiscono in {shown_it}", "contains": f"contengono {shown_it}"}
        en = {"prefix": f"start with {shown_en}", "suffix": f"end in {shown_en}", "contains": f"contain {shown_en}"}
        frame.fragments.append(frag("constraint", it[kind], en[kind],
                                    f"con un ontolex:writtenRep che soddisfa {test} per uno tra {shown_it}",
                                    f"with an ontolex:writtenRep passing {test} for one of {shown_en}"))
        for a in affixes:
            frame.slot(kind, a)
        frame.tag(self.label, 0.9)

    def sparql_weight(self, f) -> float:
        # String tests on written forms or lemma labels; not on definitions, not on the
        # labels of emotions, and not exact-match lookups such as REGEX(?wr, "^casa$").
        emotions = {o for _, p, o in f.triple_list if p == ELITA_HAS_EMOTION}
        tests = set()
        for fn, var, literal in f.string_calls:
            bound = f.object_of.get(var, set())
            if WRITTEN_REP in bound or (RDFS_LABEL in bound and not (f.subjects_of(var, "rdfs:label") & emotions)):
                if not (fn == "REGEX" and re.fullmatch(r"\^\w+\$", literal)):
                    tests.add(fn)
        if tests & {"STRSTARTS", "STRENDS", "REGEX"}:
            return 0.9
        if "CONTAINS" in tests:
            return 0.8
        if tests & {"STRLEN", "SUBSTR"}:
            return 0.6
        return 0.0


PATTERN = MorphoRegex()
