r"""The safe fixes ``execute`` tries when a query answers nothing, each returning ``(query, notes)``.

* :func:`case_insensitive`: ``LCASE`` comparisons, ``LCASE`` under
  CONTAINS / STRSTARTS / STRENDS, the REGEX ``"i"`` flag, and the other
  spellings of a tagged VALUES literal. Strings are only lower-cased, never
  regex-escaped (escapes such as ``\.`` or ``\ `` are not SPARQL string escapes).
* :func:`both_directions`: symmetric relations read both ways, ``(P|^P)``.
* :func:`flip_relations`: hypernym ↔ hyponym, part/member meronym ↔ holonym.

``notes`` is empty when the fix does not apply (the query is returned unchanged).
"""

from __future__ import annotations

from ..namespaces import COMPLIT_VOCAB, PREFIXES
from ..sparql.lexer import Token, apply_edits, tokenize
from .query import call_of, call_open, in_values, predicate_tokens

LEXINFO = PREFIXES["lexinfo"]
#: Sense relations that hold both ways (a pair asked from its second member still answers).
SYMMETRIC = {LEXINFO + "approximateSynonym", LEXINFO + "antonym", COMPLIT_VOCAB + "antonymComp",
             COMPLIT_VOCAB + "antonymGrad"}
#: Each directed sense relation and its inverse.
INVERSE = {LEXINFO + a: LEXINFO + b for a, b in (
    ("hypernym", "hyponym"), ("hyponym", "hypernym"), ("partMeronym", "partHolonym"),
    ("partHolonym", "partMeronym"), ("memberMeronym", "memberHolonym"), ("memberHolonym", "memberMeronym"))}


#: Functions whose first argument a string is matched against.
STRING_TESTS = ("CONTAINS", "STRSTARTS", "STRENDS")


def lower_literal(text: str) -> str:
    """A string token lower-cased outside its escape sequences (``\\U0001F600`` keeps its meaning)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            width = {"u": 6, "U": 10}.get(text[i + 1], 2)
            out.append(text[i:i + width])
            i += width
            continue
        out.append(text[i].lower())
        i += 1
    return "".join(out)


def case_insensitive(sparql: str) -> tuple[str, list[str]]:
    """String tests made case-insensitive: ``STR(?x) = "Foo"`` → ``LCASE(STR(?x)) = "foo"``, CONTAINS /
    STRSTARTS / STRENDS on ``LCASE(STR(…))``, REGEX gets the ``"i"`` flag, and a tagged VALUES literal
    also gets its lower-case and capitalised spellings. The strings are never regex-escaped."""
    tokens = tokenize(sparql)
    edits, notes = [], []
    for i, tok in enumerate(tokens):
        if tok.kind != "string":
            continue
        text = tok.text
        operand = _compared_operand(tokens, i)
        if operand is not None:
            lo, hi = operand
            if tokens[lo].upper in ("LCASE", "UCASE"):
                continue
            inner = sparql[tokens[lo].start:tokens[hi].start + len(tokens[hi].text)]
            wrapped = inner if tokens[lo].upper == "STR" else f"STR({inner})"
            edits.append((tokens[lo].start, tokens[hi].start + len(tokens[hi].text), f"LCASE({wrapped})"))
            edits.append((tok.start, tok.start + len(text), lower_literal(text)))
            notes.append(f"case-insensitive comparison with {text}")
        elif i >= 2 and tokens[i - 1].text == "," and call_of(tokens, i) in STRING_TESTS:
            name, open_at = call_of(tokens, i), call_open(tokens, i)
            arg = sparql[tokens[open_at + 1].start:tokens[i - 1].start].strip()
            if arg.upper().startswith(("LCASE(", "UCASE(")):
                continue
            inner = arg if arg.upper().startswith("STR(") else f"STR({arg})"
            edits.append((tokens[open_at + 1].start, tokens[i - 1].start, f"LCASE({inner})"))
            edits.append((tok.start, tok.start + len(text), lower_literal(text)))
            notes.append(f"case-insensitive {name.lower()} with {text}")
        elif i >= 2 and tokens[i - 1].text == "," and call_of(tokens, i) == "REGEX":
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            if after is not None and after.text == ")":
                edits.append((after.start, after.start, ', "i"'))
                notes.append(f"case-insensitive regex {text}")
        elif in_values(tokens, i) and i + 1 < len(tokens) and tokens[i + 1].kind == "langtag":
            tag = tokens[i + 1].text
            quote = text[0]
            inner = text[1:-1]
            variants = []
            for v in (lower_literal(inner), inner[:1].upper() + inner[1:]):
                if v != inner and f"{quote}{v}{quote}{tag}" not in variants:
                    variants.append(f"{quote}{v}{quote}{tag}")
            if variants:
                end = tokens[i + 1].start + len(tag)
                edits.append((end, end, " " + " ".join(variants)))
                notes.append(f"other spellings of {text}{tag}: {', '.join(variants)}")
    return (apply_edits(sparql, edits), notes) if edits else (sparql, [])


def _compared_operand(tokens: list[Token], i: int) -> tuple[int, int] | None:
    """Token range of ``?x`` or ``F(…)`` compared (``=``/``!=``) with the string at ``i`` (left side only)."""
    if i < 2 or tokens[i - 1].text not in ("=", "!="):
        return None
    if tokens[i - 2].kind == "var":
        return i - 2, i - 2
    if tokens[i - 2].text != ")":
        return None
    depth = 0
    for k in range(i - 2, 0, -1):
        depth += tokens[k].text == ")"
        depth -= tokens[k].text == "("
        if depth == 0:
            return (k - 1, i - 2) if tokens[k - 1].upper in ("STR", "LCASE", "UCASE") else None
    return None


def both_directions(sparql: str) -> tuple[str, list[str]]:
    """Each symmetric relation ``P`` read both ways: ``(P|^P)`` (already two-way queries are left alone)."""
    found = predicate_tokens(sparql, SYMMETRIC)
    tokens = tokenize(sparql)
    if not found or any(t.text == "^" for t in tokens):
        return sparql, []
    edits = [(tok.start, tok.start + len(tok.text), f"({tok.text}|^{tok.text})") for tok, _ in found]
    names = sorted({tok.text for tok, _ in found})
    return apply_edits(sparql, edits), [f"{n} read in both directions" for n in names]


def flip_relations(sparql: str) -> tuple[str, list[str]]:
    """Every directed sense relation replaced by its inverse (hypernym ↔ hyponym, meronym ↔ holonym)."""
    found = predicate_tokens(sparql, INVERSE)
    if not found:
        return sparql, []
    edits, notes = [], []
    for tok, iri in found:
        new = INVERSE[iri]
        text = f"<{new}>" if tok.kind == "iri" else tok.text.split(":", 1)[0] + ":" + new[len(LEXINFO):]
        edits.append((tok.start, tok.start + len(tok.text), text))
        notes.append(f"{tok.text} → {text}")
    return apply_edits(sparql, edits), sorted(set(notes))
