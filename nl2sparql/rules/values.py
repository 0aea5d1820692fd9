"""Rules on values: IRIs are not literals, written forms carry language tags, labels are matched without case.

SCHEMA.md rule 4. The fixes edit the query at token offsets, so strings and
comments are never touched by accident.
"""

from __future__ import annotations

from ..namespaces import EMOTIONS, PREFIXES
from ..sparql.lexer import apply_edits
from .base import Breach, Rule, short
from .query import Parsed, parse

ONTO = PREFIXES["ontolex"]
LABEL = PREFIXES["rdfs"] + "label"
WRITTEN_REP = ONTO + "writtenRep"
LITERAL_PROPS = {WRITTEN_REP, LABEL, PREFIXES["skos"] + "definition", PREFIXES["marl"] + "hasPolarityValue",
                 PREFIXES["marl"] + "Polarity", PREFIXES["rdfs"] + "comment", PREFIXES["lexinfo"] + "senseExample",
                 PREFIXES["skos"] + "example"}
#: Properties whose values carry a language tag.
TAGGED_PROPS = {WRITTEN_REP, PREFIXES["skos"] + "definition"}
STRING_FUNCTIONS = {"STRSTARTS", "STRENDS", "CONTAINS", "REGEX", "LCASE", "UCASE", "STRLEN", "SUBSTR", "LANG",
                    "STRBEFORE", "STRAFTER", "REPLACE"}
#: Labels of LiITA's closed vocabularies as the data spells them (folded → exact).
KNOWN_LABELS = {name.lower(): name for name in EMOTIONS + ("Positive", "Negative", "Neutral")}
KNOWN_LABELS.update({w: w for w in ("noun", "verb", "adjective", "adverb", "pronoun", "numeral", "interjection",
                                    "adposition", "determiner", "proper noun", "past", "present", "future",
                                    "imperfect", "plural", "singular", "masculine", "feminine", "indicative",
                                    "subjunctive", "conditional", "infinitive", "participle", "gerundive",
                                    "first person", "second person", "third person")})
_P = ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/>\nPREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#>\n"
      "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX elita: <http://w3id.org/elita/>\n")


# -- IRIs vs literals -----------------------------------------------------------------------------
def _iri_literal(query: str, parsed: Parsed):
    as_iri: dict[str, str] = {}
    as_literal: dict[str, str] = {}
    for t in parsed.triples:
        if t.s.kind == "var":
            as_iri.setdefault(t.s.value, "the subject of a triple")
        if t.o.kind == "var" and t.predicate:
            if t.predicate in LITERAL_PROPS:
                as_literal.setdefault(t.o.value, f"the value of {short(t.predicate)}")
            elif t.predicate != PREFIXES["rdfs"] + "comment":
                as_iri.setdefault(t.o.value, f"the object of {short(t.predicate)}")
        if t.graph is not None and t.graph.kind == "var":
            as_iri.setdefault(t.graph.value, "a GRAPH name")
    for e in parsed.expressions:
        for name, how in _literal_uses(e.tokens):
            as_literal.setdefault(name, how)
    for name in sorted(set(as_iri) & set(as_literal)):
        if as_iri[name].startswith("the object of") and as_literal[name].startswith("compared"):
            continue  # IRIs compared with strings are reported by string_compare when they matter
        yield Breach(f"?{name} is {as_iri[name]} (an IRI) and {as_literal[name]} (a literal): no value is both; "
                     "use a separate variable")


def _literal_uses(tokens) -> list[tuple[str, str]]:
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind != "var":
            continue
        prev = tokens[i - 1] if i else None
        prev2 = tokens[i - 2] if i > 1 else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if prev is not None and prev.text == "(" and prev2 is not None and prev2.upper in STRING_FUNCTIONS:
            out.append((tok.text[1:], f"used directly in {prev2.upper}()"))
        elif nxt is not None and nxt.text in ("<", ">", "<=", ">=") and i + 2 < len(tokens) and \
                tokens[i + 2].kind == "number":
            out.append((tok.text[1:], "compared with a number"))
    return out


IRI_LITERAL = Rule(
    "iri_literal", "error",
    "A variable is either an IRI (a lemma, an entry, a sense) or a literal (a written form, a label, a score): "
    "never use one variable as both; apply string functions to STR(?x) of literals only.",
    _iri_literal, broken=_P + "SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr . ?wr rdfs:label ?x }")


# -- written forms and labels ---------------------------------------------------------------------
def _literal_vars(parsed: Parsed) -> dict[str, str]:
    out = {}
    for t in parsed.triples:
        if t.o.kind == "var" and t.predicate in (TAGGED_PROPS | {LABEL}):
            out.setdefault(t.o.value, t.predicate)
    return out


def _plain_literal(query: str, parsed: Parsed):
    for t in parsed.triples:
        if t.predicate == WRITTEN_REP and t.o.kind == "literal" and not t.o.lang and not t.o.datatype:
            yield Breach(f'ontolex:writtenRep "{t.o.value}" never matches: written forms carry a language tag '
                         '(@it, @scn, @roa)', f'compare with FILTER(STR(?wr) = "{t.o.value}")')


def fix_plain_literals(query: str) -> tuple[str, list[str]]:
    """``?l ontolex:writtenRep "casa"`` → a variable plus ``FILTER(STR(?v) = "casa")`` in the same group."""
    parsed = parse(query)
    edits, fixes, n = [], [], 0
    for t in parsed.triples:
        if t.predicate == WRITTEN_REP and t.o.kind == "literal" and not t.o.lang and not t.o.datatype:
            n += 1
            var = f"?wrFix{n}"
            literal = query[t.o.start:t.o.end]
            edits.append((t.o.start, t.o.end, var))
            close = parsed.groups[t.group].close
            edits.append((close, close, f" FILTER(STR({var}) = {literal}) "))
            fixes.append(f"ontolex:writtenRep {literal} → {var} with FILTER(STR({var}) = {literal})")
    return apply_edits(query, edits), fixes


PLAIN_LITERAL = Rule(
    "plain_literal", "error",
    "Italian lemmas: ?lemma a lila:Lemma ; ontolex:writtenRep ?wr. Written forms carry language tags (\"casa\"@it, "
    "@scn, @roa): never match them with a plain literal such as ontolex:writtenRep \"casa\".",
    _plain_literal, broken=_P + 'SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep "casa" }',
    fix=fix_plain_literals)


def string_compares(parsed: Parsed):
    """``?x = "lit"`` / ``"lit" = ?x`` / ``?x != "lit"`` where ?x is a tagged value (not inside STR)."""
    tagged = _literal_vars(parsed)
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "var" or tok.text[1:] not in tagged:
                continue
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.text in ("=", "!=") and i + 2 < len(toks) and toks[i + 2].kind == "string" \
                    or prev is not None and prev.text in ("=", "!=") and i > 1 and toks[i - 2].kind == "string":
                if not (i > 1 and toks[i - 1].text == "(" and toks[i - 2].upper in ("STR", "LCASE", "UCASE")):
                    yield e, tok, tagged[tok.text[1:]]


def _string_compare(query: str, parsed: Parsed):
    for _, tok, prop in string_compares(parsed):
        yield Breach(f"{tok.text} = \"…\" compares a language-tagged value ({short(prop)}) with a plain string: it "
                     "never matches", f"compare STR({tok.text})", None if prop in TAGGED_PROPS else "warning")


def fix_string_compare(query: str) -> tuple[str, list[str]]:
    """``?wr = "casa"`` → ``STR(?wr) = "casa"`` for language-tagged values."""
    edits, fixes = [], []
    for _, tok, _ in string_compares(parse(query)):
        edits.append((tok.start, tok.start + len(tok.text), f"STR({tok.text})"))
        fixes.append(f"{tok.text} → STR({tok.text}) in a string comparison")
    return apply_edits(query, edits), fixes


STRING_COMPARE = Rule(
    "string_compare", "error",
    "Compare a written form as a string: FILTER(STR(?wr) = \"casa\"), never ?wr = \"casa\".",
    _string_compare, broken=_P + 'SELECT ?l WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?wr . FILTER(?wr = "casa") }',
    fix=fix_string_compare)


def case_sensitive_matches(parsed: Parsed):
    """Vocabulary labels (emotions, polarity classes, POS, features) matched with the wrong case.

    Emotion labels are capitalised ("Paura"@it), polarity labels too
    ("Positive"@en), POS and feature labels are lower case ("noun"@en): a
    comparison without LCASE/UCASE (or a REGEX "i" flag) whose string has
    another case matches nothing.
    """
    labels = {v for v, p in _literal_vars(parsed).items() if p == LABEL}
    for e in parsed.expressions:
        toks = e.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "var" or tok.text[1:] not in labels:
                continue
            lo, hi = _operand(toks, i)
            if lo > 0 and toks[lo - 1].text == "(" and lo > 1 and toks[lo - 2].upper in ("LCASE", "UCASE"):
                continue
            partner = _partner_string(toks, lo, hi)
            value = partner.text.strip("\"'") if partner is not None else ""
            if function_of(toks, lo) == "REGEX":
                value = value.strip("^$")
            if partner is None or value == KNOWN_LABELS.get(value.lower(), value):
                continue  # only labels of the closed vocabularies with the wrong case are reported
            if function_of(toks, lo) == "REGEX" and "i" in (regex_flags(toks) or ""):
                continue
            yield tok, LABEL, e, lo, hi, partner
            break


def _case_sensitive(query: str, parsed: Parsed):
    for tok, prop, *_ in case_sensitive_matches(parsed):
        yield Breach(f"{tok.text} ({short(prop)}) is matched case-sensitively: labels such as emotion names must be "
                     "compared case-insensitively", f"compare LCASE(STR({tok.text})) with a lower-case string")


def fix_case(query: str) -> tuple[str, list[str]]:
    """Case-insensitive label matching: ``LCASE(STR(?label))`` against a lower-cased string (REGEX gets "i")."""
    edits, fixes = [], []
    for tok, _, e, lo, hi, partner in case_sensitive_matches(parse(query)):
        toks = e.tokens
        if function_of(toks, lo) == "REGEX":
            paren = regex_close(toks)
            if paren is None:
                continue
            edits.append((paren.start, paren.start, ', "i"'))
        else:
            start, end = toks[lo].start, toks[hi].start + len(toks[hi].text)
            operand = query[start:end]
            wrapped = operand if lo != hi else f"STR({operand})"
            edits.append((start, end, f"LCASE({wrapped})"))
            edits.append((partner.start, partner.start + len(partner.text), partner.text.lower()))
        fixes.append(f"case-insensitive match on {tok.text}")
    return apply_edits(query, edits), fixes


CASE_SENSITIVE = Rule(
    "case_sensitive", "warning",
    "Compare labels such as emotion names case-insensitively: LCASE(STR(?label)) = \"paura\" (emotion labels are "
    "capitalised, part-of-speech labels are lower case).",
    _case_sensitive,
    broken=_P + 'SELECT ?e WHERE { ?e elita:HasEmotion ?em . ?em rdfs:label ?l . FILTER(STR(?l) = "paura") }',
    fix=fix_case)


# -- token helpers --------------------------------------------------------------------------------
def _operand(toks, i: int) -> tuple[int, int]:
    """Token range of ``?x`` or ``STR(?x)`` around the variable at ``i``."""
    if i > 1 and toks[i - 1].text == "(" and toks[i - 2].upper == "STR" and i + 1 < len(toks) and toks[i + 1].text == ")":
        return i - 2, i + 1
    return i, i


def function_of(toks, lo: int) -> str | None:
    """The function whose first argument starts at ``lo`` (``None`` if none)."""
    if lo > 1 and toks[lo - 1].text == "(" and toks[lo - 2].kind == "word":
        return toks[lo - 2].upper
    return None


def _partner_string(toks, lo: int, hi: int):
    """The string literal the operand is compared with (``=``/``!=``) or matched against (2nd argument)."""
    if hi + 2 < len(toks) and toks[hi + 1].text in ("=", "!=") and toks[hi + 2].kind == "string":
        return toks[hi + 2]
    if lo > 1 and toks[lo - 1].text in ("=", "!=") and toks[lo - 2].kind == "string":
        return toks[lo - 2]
    if function_of(toks, lo) in ("STRSTARTS", "STRENDS", "CONTAINS", "REGEX") and hi + 2 < len(toks) and \
            toks[hi + 1].text == "," and toks[hi + 2].kind == "string":
        return toks[hi + 2]
    return None


def _regex_call(toks):
    """``(closing parenthesis or None, flags text or None)`` of the first REGEX call in ``toks``.

    The closing parenthesis is where an "i" flag goes, and only for a
    two-argument call; the flags are the third argument's text.
    """
    for i, t in enumerate(toks):
        if t.upper == "REGEX" and i + 1 < len(toks) and toks[i + 1].text == "(":
            depth, commas = 0, 0
            for j, u in enumerate(toks[i + 1:], start=i + 1):
                if u.text == "(":
                    depth += 1
                elif u.text == ")":
                    depth -= 1
                    if depth == 0:
                        return (u if commas == 1 else None), None
                elif u.text == "," and depth == 1:
                    commas += 1
                    if commas == 2 and j + 1 < len(toks) and toks[j + 1].kind == "string":
                        return None, toks[j + 1].text.strip("\"'")
    return None, None


def regex_close(toks):
    """The closing parenthesis of a two-argument REGEX call (where the "i" flag goes), else ``None``."""
    return _regex_call(toks)[0]


def regex_flags(toks) -> str | None:
    """The flags argument of the REGEX call in ``toks`` (``None`` when absent)."""
    return _regex_call(toks)[1]
