"""Token-level rewrites of one query: the answer's shape, and the safe fixes the agent tries.

Every function takes query text and returns new text (or ``None`` when it does
not apply), working on :mod:`nl2sparql.sparql.lexer` tokens so that strings,
IRIs and comments are never touched by accident. Nothing here runs a query.

Shape: :func:`projection`, :func:`drop_columns`, :func:`to_ask`, :func:`to_count`,
:func:`anchor_word`. Fixes: :func:`case_insensitive` (``LCASE`` comparisons and
a REGEX ``"i"`` flag; the string itself is only lower-cased, never escaped),
:func:`both_directions` (symmetric relations read both ways),
:func:`flip_relations` (hypernym ↔ hyponym, meronym ↔ holonym).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..namespaces import COMPLIT_VOCAB, EMOTIONS, PREFIXES
from ..sparql.lexer import Token, apply_edits, closing, declared_prefixes, tokenize

LEXINFO = PREFIXES["lexinfo"]
#: Sense relations that hold both ways (a pair asked from its second member still answers).
SYMMETRIC = {LEXINFO + "approximateSynonym", LEXINFO + "antonym", COMPLIT_VOCAB + "antonymComp",
             COMPLIT_VOCAB + "antonymGrad"}
#: Each directed sense relation and its inverse.
INVERSE = {LEXINFO + a: LEXINFO + b for a, b in (
    ("hypernym", "hyponym"), ("hyponym", "hypernym"), ("partMeronym", "partHolonym"),
    ("partHolonym", "partMeronym"), ("memberMeronym", "memberHolonym"), ("memberHolonym", "memberMeronym"))}
#: Closed-vocabulary values a query may fix: (kind, namespace, local names).
VOCABULARY = (("emotion", PREFIXES["elita"], EMOTIONS),
              ("pos", PREFIXES["lila"], ("noun", "verb", "adjective", "adverb", "pronoun", "numeral", "interjection",
                                         "adposition", "determiner", "proper_noun")),
              ("gender", PREFIXES["lila"], ("masculine", "feminine")),
              ("polarity", PREFIXES["marl"], ("Positive", "Negative", "Neutral")))
#: Functions whose first argument a string is matched against.
STRING_TESTS = ("CONTAINS", "STRSTARTS", "STRENDS")


@dataclass
class Outline:
    """Where the parts of a SELECT or ASK query are (token indexes)."""

    tokens: list[Token]
    form: str
    form_at: int
    where_open: int
    where_close: int

    @property
    def prologue_end(self) -> int:
        """Character offset where the query form starts (the prologue is before it)."""
        return self.tokens[self.form_at].start


def outline(sparql: str) -> Outline | None:
    """The outline of a SELECT or ASK query (``None`` for anything else or unbalanced text)."""
    tokens = tokenize(sparql)
    i = 0
    while i < len(tokens) and tokens[i].upper in ("PREFIX", "BASE"):
        i += 3 if tokens[i].upper == "PREFIX" else 2
    if i >= len(tokens) or tokens[i].upper not in ("SELECT", "ASK"):
        return None
    depth, open_at = 0, None
    for k in range(i + 1, len(tokens)):
        if tokens[k].text == "(":
            depth += 1
        elif tokens[k].text == ")":
            depth -= 1
        elif tokens[k].text == "{" and depth == 0:
            open_at = k
            break
    if open_at is None:
        return None
    close_at = closing(tokens, open_at)
    if close_at is None:
        return None
    return Outline(tokens, tokens[i].upper.lower(), i, open_at, close_at)


def _select_items(o: Outline) -> list[tuple[int, int]]:
    """Token ranges ``[lo, hi]`` of the projected items of a SELECT (``*`` gives none)."""
    items, k = [], o.form_at + 1
    while k < o.where_open:
        tok = o.tokens[k]
        if tok.upper in ("DISTINCT", "REDUCED", "WHERE", "FROM", "NAMED") or tok.kind == "iri":
            k += 1
            continue
        if tok.kind == "var":
            items.append((k, k))
        elif tok.text == "(":
            end = closing(o.tokens, k)
            if end is None:
                break
            items.append((k, end))
            k = end
        k += 1
    return items


def projection(sparql: str) -> list[str]:
    """The projected variable names of a SELECT, in order (``AS`` names for expressions)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return []
    names = []
    for lo, hi in _select_items(o):
        tok = o.tokens[hi - 1] if hi > lo else o.tokens[lo]
        if tok.kind == "var":
            names.append(tok.text[1:])
    return names


_STATEMENT_START = ("{", ".", "}", ")")
_NOT_TRIPLES = {"FILTER", "BIND", "VALUES", "OPTIONAL", "MINUS", "UNION", "GRAPH", "SERVICE", "SELECT", "WHERE",
                "ORDER", "GROUP", "HAVING", "LIMIT", "OFFSET", "BY", "ASK", "DISTINCT", "AS", "SILENT"}


def triples(sparql: str) -> list[tuple[str, str, str]]:
    """``(subject, predicate, object)`` token texts of the triple patterns (``;`` and ``,`` lists expanded;
    a property path in parentheses is one predicate). Not a parser: enough to read the usual shapes."""
    tokens = [t for t in tokenize(sparql)]
    out, i = [], 0
    while i < len(tokens):
        tok, prev = tokens[i], tokens[i - 1] if i else None
        starts = prev is None or prev.text in _STATEMENT_START
        if not (starts and tok.kind in ("var", "iri", "pname") and _in_group(tokens, i)):
            i += 1
            continue
        subject, i = tok.text, i + 1
        while i < len(tokens):
            if tokens[i].text == "(":
                end = closing(tokens, i)
                if end is None:
                    return out
                pred, i = "".join(t.text for t in tokens[i:end + 1]), end + 1
            elif tokens[i].kind in ("var", "iri", "pname") or tokens[i].text in ("a", "^"):
                j = i + 1 if tokens[i].text != "^" else i + 2
                pred, i = "".join(t.text for t in tokens[i:j]), j
            else:
                break
            while i < len(tokens) and tokens[i].kind in ("var", "iri", "pname", "string", "number"):
                obj = tokens[i].text
                i += 1
                if i < len(tokens) and tokens[i].kind == "langtag":
                    i += 1
                out.append((subject, pred, obj))
                if i < len(tokens) and tokens[i].text == ",":
                    i += 1
                    continue
                break
            if i < len(tokens) and tokens[i].text == ";":
                i += 1
                continue
            break
    return out


def _in_group(tokens: list[Token], i: int) -> bool:
    """True when token ``i`` may start a triple: inside braces, not in a VALUES block or a SELECT clause."""
    depth = 0
    for k in range(i - 1, -1, -1):
        t = tokens[k]
        if t.text == "}":
            depth += 1
        elif t.text == "{":
            if depth == 0:
                return not (k >= 2 and tokens[k - 2].upper == "VALUES") and not (k >= 1 and tokens[k - 1].text == ")"
                                                                               and _values_tuple(tokens, k - 1))
            depth -= 1
    return False


def _values_tuple(tokens: list[Token], close: int) -> bool:
    """True when the ``)`` at ``close`` ends the variable list of ``VALUES (?a ?b)``."""
    for k in range(close - 1, -1, -1):
        if tokens[k].text == "(":
            return k >= 1 and tokens[k - 1].upper == "VALUES"
        if tokens[k].kind != "var":
            return False
    return False


def subject_vars(sparql: str) -> set[str]:
    """Variables that are the subject of a triple pattern somewhere (so they hold IRIs or blank nodes)."""
    return {s[1:] for s, _, _ in triples(sparql) if s.startswith(("?", "$"))}


def vocabulary_value(iri: str | None) -> tuple[str, str] | None:
    """``(kind, local name)`` when ``iri`` is a closed-vocabulary value (an emotion, a POS, a gender, a
    polarity class), else ``None``."""
    for kind, base, names in VOCABULARY:
        if iri and iri.startswith(base) and iri[len(base):] in names:
            return kind, iri[len(base):]
    return None


def evidence_columns(sparql: str) -> set[str]:
    """Projected variables that only echo a condition: tested by a FILTER against a constant
    (``CONTAINS(?definition, "…")``), or a value of a resource fixed to a vocabulary value
    (``?s marl:hasPolarity marl:Negative ; marl:hasPolarityValue ?polarity``). The first column is never one."""
    names = set(projection(sparql)[1:])
    if not names:
        return set()
    prefixes = {**PREFIXES, **declared_prefixes(sparql)}
    tokens = tokenize(sparql)
    out = set()
    for i, tok in enumerate(tokens):
        if tok.upper == "FILTER" and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            inside = tokens[i + 1:(closing(tokens, i + 1) or i + 1) + 1]
            if any(t.kind in ("string", "number") for t in inside):
                out |= {t.text[1:] for t in inside if t.kind == "var" and t.text[1:] in names}
    found = triples(sparql)
    fixed = {s for s, _, o in found if vocabulary_value(_iri_text(o, prefixes))}
    out |= {o[1:] for s, _, o in found if s in fixed and o[1:] in names and o.startswith("?")}
    return out


def _iri_text(text: str, prefixes: dict[str, str]) -> str | None:
    """The full IRI of a token text (``<…>`` or a prefixed name)."""
    if text.startswith("<") and text.endswith(">"):
        return text[1:-1]
    prefix, sep, local = text.partition(":")
    return prefixes.get(prefix, "") + local if sep and prefix in prefixes else None


def has_aggregate(sparql: str) -> bool:
    """True when the query groups or aggregates (GROUP BY, HAVING, COUNT/SUM/AVG/MIN/MAX/SAMPLE)."""
    words = {t.upper for t in tokenize(sparql) if t.kind == "word"}
    return bool(words & {"GROUP", "HAVING", "COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT"})


def drop_columns(sparql: str, names: set[str]) -> str | None:
    """The SELECT without the projected variables ``names`` (``None`` when none of them is projected
    or nothing would be left)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return None
    items = _select_items(o)
    drop = [(lo, hi) for lo, hi in items if lo == hi and o.tokens[lo].text[1:] in names]
    if not drop or len(drop) == len(items):
        return None
    edits = []
    for lo, _ in drop:
        start, end = o.tokens[lo].start, o.tokens[lo].start + len(o.tokens[lo].text)
        edits.append((start, end + 1 if sparql[end:end + 1] == " " else end, ""))
    return apply_edits(sparql, edits)


def _modifiers(o: Outline) -> list[str]:
    """Upper-cased words after the WHERE group (GROUP BY, HAVING, ORDER BY, LIMIT...)."""
    return [t.upper for t in o.tokens[o.where_close + 1:] if t.kind == "word"]


def to_ask(sparql: str) -> str | None:
    """The yes/no form of a SELECT: ``ASK { … }`` (a sub-select when it groups or aggregates)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return None
    prologue = sparql[:o.prologue_end]
    if has_aggregate(sparql) or "LIMIT" in _modifiers(o) or "OFFSET" in _modifiers(o):
        return f"{prologue}ASK {{\n  {{ {sparql[o.prologue_end:].strip()} }}\n}}\n"
    body = sparql[o.tokens[o.where_open].start:o.tokens[o.where_close].start + 1]
    return f"{prologue}ASK WHERE {body}\n"


def is_count(sparql: str) -> bool:
    """True when the query returns one aggregate and groups by nothing (``SELECT (COUNT(…) AS ?n)``)."""
    o = outline(sparql)
    if o is None or o.form != "select" or "GROUP" in _modifiers(o):
        return False
    items = _select_items(o)
    return len(items) == 1 and items[0][0] != items[0][1] and has_aggregate(sparql)


def to_count(sparql: str) -> str | None:
    """How many answers a SELECT has: the count of its first projected variable, or of its groups
    (``COUNT(*)`` over it as a sub-select) when it groups; ``None`` when it is already a count."""
    o = outline(sparql)
    names = projection(sparql)
    if o is None or o.form != "select" or not names or is_count(sparql):
        return None
    prologue = sparql[:o.prologue_end]
    if has_aggregate(sparql) or {"LIMIT", "OFFSET"} & set(_modifiers(o)):
        return f"{prologue}SELECT (COUNT(*) AS ?count) WHERE {{\n  {{ {sparql[o.prologue_end:].strip()} }}\n}}\n"
    body = sparql[o.tokens[o.where_open].start:o.tokens[o.where_close].start + 1]
    return f"{prologue}SELECT (COUNT(DISTINCT ?{names[0]}) AS ?count) WHERE {body}\n"


def anchor_word(sparql: str, var: str, word: str, lang: str = "it") -> str | None:
    """``VALUES ?var { "word"@lang }`` at the start of the WHERE group (``None`` when ``?var`` is not used
    or already has VALUES)."""
    o = outline(sparql)
    if o is None:
        return None
    texts = [t.text for t in o.tokens]
    if f"?{var}" not in texts[o.where_open:o.where_close]:
        return None
    if any(a.upper == "VALUES" and b.text == f"?{var}" for a, b in zip(o.tokens, o.tokens[1:])):
        return None
    at = o.tokens[o.where_open].start + 1
    return sparql[:at] + f"\n  VALUES ?{var} {{ {_literal(word)}@{lang} }}" + sparql[at:]


LEMMA_CLASS = PREFIXES["lila"] + "Lemma"
RDF_TYPE = PREFIXES["rdf"] + "type"
#: Language tags a named word may carry (Italian, Sicilian, Parmigiano) and the plain string.
WORD_TAGS = ("it", "scn", "roa", None)


def uses_word(sparql: str, word: str) -> bool:
    """True when a string literal of the query is ``word`` (any case), or contains it."""
    wanted = word.lower()
    return any(t.kind == "string" and wanted in t.text[1:-1].lower() for t in tokenize(sparql))


def anchor_named(sparql: str, word: str) -> str | None:
    """The query restricted to the named word: ``VALUES ?wr`` on the lemma's written form when the query
    has one, else a written form of the first ``lila:Lemma`` variable (``None`` when neither exists)."""
    prefixes = {**PREFIXES, **declared_prefixes(sparql)}
    found = triples(sparql)
    written = [o for s, p, o in found if o.startswith("?") and _iri_text(p, prefixes) == PREFIXES["ontolex"]
               + "writtenRep" and any(s2 == s and _is_lemma_type(p2, o2, prefixes) for s2, p2, o2 in found)]
    if written:
        return anchor_word(sparql, written[0][1:], word)
    tokens = tokenize(sparql)
    for a, b, c in zip(tokens, tokens[1:], tokens[2:]):
        if a.kind == "var" and _is_lemma_type(b.text, c.text, prefixes):
            values = " ".join(f"{_literal(word)}@{tag}" if tag else _literal(word) for tag in WORD_TAGS)
            var = f"?{a.text[1:]}Named"
            end = c.start + len(c.text)
            rest = sparql[end:].lstrip(" ")
            if rest.startswith("."):
                rest = rest[1:]
            elif rest.startswith(";"):
                rest = f"{a.text} " + rest[1:].lstrip(" ")  # the subject's other predicates go on
            return sparql[:end] + f" ; ontolex:writtenRep {var} .\n    VALUES {var} {{ {values} }} " + rest
    return None


def _is_lemma_type(pred: str, obj: str, prefixes: dict[str, str]) -> bool:
    return (pred == "a" or _iri_text(pred, prefixes) == RDF_TYPE) and _iri_text(obj, prefixes) == LEMMA_CLASS


def rename_var(sparql: str, old: str, new: str) -> str:
    """Every ``?old`` written ``?new`` (unchanged when ``?new`` is already used)."""
    tokens = tokenize(sparql)
    if any(t.kind == "var" and t.text[1:] == new for t in tokens):
        return sparql
    return apply_edits(sparql, [(t.start, t.start + len(t.text), "?" + new) for t in tokens
                                if t.kind == "var" and t.text[1:] == old])


def _literal(value: str) -> str:
    """A SPARQL string literal for ``value`` (only the characters SPARQL requires are escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def _iri(tok: Token, prefixes: dict[str, str]) -> str | None:
    """The full IRI of an IRI or prefixed-name token (``None`` for anything else)."""
    if tok.kind == "iri":
        return tok.text[1:-1]
    if tok.kind == "pname":
        prefix, _, local = tok.text.partition(":")
        base = prefixes.get(prefix)
        return base + local if base is not None else None
    return None


def _lower_literal(text: str) -> str:
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
            edits.append((tok.start, tok.start + len(text), _lower_literal(text)))
            notes.append(f"case-insensitive comparison with {text}")
        elif i >= 2 and tokens[i - 1].text == "," and _call_of(tokens, i) in STRING_TESTS:
            name, open_at = _call_of(tokens, i), _call_open(tokens, i)
            arg = sparql[tokens[open_at + 1].start:tokens[i - 1].start].strip()
            if arg.upper().startswith(("LCASE(", "UCASE(")):
                continue
            inner = arg if arg.upper().startswith("STR(") else f"STR({arg})"
            edits.append((tokens[open_at + 1].start, tokens[i - 1].start, f"LCASE({inner})"))
            edits.append((tok.start, tok.start + len(text), _lower_literal(text)))
            notes.append(f"case-insensitive {name.lower()} with {text}")
        elif i >= 2 and tokens[i - 1].text == "," and _call_of(tokens, i) == "REGEX":
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            if after is not None and after.text == ")":
                edits.append((after.start, after.start, ', "i"'))
                notes.append(f"case-insensitive regex {text}")
        elif _in_values(tokens, i) and i + 1 < len(tokens) and tokens[i + 1].kind == "langtag":
            tag = tokens[i + 1].text
            quote = text[0]
            inner = text[1:-1]
            variants = []
            for v in (_lower_literal(inner), inner[:1].upper() + inner[1:]):
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


def _call_open(tokens: list[Token], i: int) -> int | None:
    """Index of the ``(`` of the call whose argument list contains token ``i`` at depth 1."""
    depth = 0
    for k in range(i - 1, -1, -1):
        if tokens[k].text == ")":
            depth += 1
        elif tokens[k].text == "(":
            if depth == 0:
                return k
            depth -= 1
    return None


def _call_of(tokens: list[Token], i: int) -> str | None:
    """The function name of the call whose arguments contain token ``i`` (upper-cased)."""
    k = _call_open(tokens, i)
    if k is None or k == 0 or tokens[k - 1].kind != "word":
        return None
    return tokens[k - 1].upper


def _in_values(tokens: list[Token], i: int) -> bool:
    """True when token ``i`` is inside the data block of a ``VALUES ?x { … }``."""
    for k in range(i - 1, -1, -1):
        if tokens[k].text in ("}", ".", ";") or tokens[k].upper in ("FILTER", "SELECT", "WHERE"):
            return False
        if tokens[k].text == "{":
            return k >= 2 and tokens[k - 2].upper == "VALUES" and tokens[k - 1].kind == "var"
    return False


def _predicate_tokens(sparql: str, wanted) -> list[tuple[Token, str]]:
    """Tokens naming one of the ``wanted`` IRIs (as ``<iri>`` or a prefixed name), with that IRI."""
    prefixes = {**PREFIXES, "complit": COMPLIT_VOCAB, **declared_prefixes(sparql)}
    tokens = tokenize(sparql)
    out = []
    for prev, tok in zip([None, *tokens], tokens):
        if prev is not None and prev.upper == "PREFIX":
            continue
        iri = _iri(tok, prefixes)
        if iri in wanted:
            out.append((tok, iri))
    return out


def both_directions(sparql: str) -> tuple[str, list[str]]:
    """Each symmetric relation ``P`` read both ways: ``(P|^P)`` (already two-way queries are left alone)."""
    found = _predicate_tokens(sparql, SYMMETRIC)
    tokens = tokenize(sparql)
    if not found or any(t.text == "^" for t in tokens):
        return sparql, []
    edits = [(tok.start, tok.start + len(tok.text), f"({tok.text}|^{tok.text})") for tok, _ in found]
    names = sorted({tok.text for tok, _ in found})
    return apply_edits(sparql, edits), [f"{n} read in both directions" for n in names]


def flip_relations(sparql: str) -> tuple[str, list[str]]:
    """Every directed sense relation replaced by its inverse (hypernym ↔ hyponym, meronym ↔ holonym)."""
    found = _predicate_tokens(sparql, INVERSE)
    if not found:
        return sparql, []
    edits, notes = [], []
    for tok, iri in found:
        new = INVERSE[iri]
        text = f"<{new}>" if tok.kind == "iri" else tok.text.split(":", 1)[0] + ":" + new[len(LEXINFO):]
        edits.append((tok.start, tok.start + len(tok.text), text))
        notes.append(f"{tok.text} → {text}")
    return apply_edits(sparql, edits), sorted(set(notes))


# -- statements of the WHERE group, and re-anchoring a named word ------------------------------------
_BLOCKS = ("SERVICE", "GRAPH", "OPTIONAL", "MINUS")


@dataclass
class Statement:
    """One element of the outer WHERE group: a triple block, VALUES, FILTER, BIND or a nested block."""

    kind: str
    lo: int
    hi: int
    tokens: list[Token]

    def span(self, sparql: str) -> tuple[int, int]:
        """Character offsets of the statement (its final ``.`` included)."""
        last = self.tokens[-1]
        return self.tokens[0].start, last.start + len(last.text)


def statements(sparql: str) -> list[Statement]:
    """The top-level elements of the outer WHERE group, in order."""
    o = outline(sparql)
    if o is None:
        return []
    toks, out, k = o.tokens, [], o.where_open + 1
    while k < o.where_close:
        tok = toks[k]
        if tok.upper == "VALUES":
            brace = next((j for j in range(k, o.where_close) if toks[j].text == "{"), None)
            end = closing(toks, brace) if brace is not None else None
            kind = "values"
        elif tok.upper in ("FILTER", "BIND"):
            nxt = k + 1
            if toks[nxt].upper in ("NOT", "EXISTS"):
                brace = next((j for j in range(nxt, o.where_close) if toks[j].text == "{"), None)
                end = closing(toks, brace) if brace is not None else None
            else:
                end = closing(toks, nxt)
            kind = tok.upper.lower()
        elif tok.upper in _BLOCKS or tok.text == "{":
            brace = k if tok.text == "{" else next((j for j in range(k, o.where_close) if toks[j].text == "{"), None)
            end = closing(toks, brace) if brace is not None else None
            while end is not None and end + 2 < o.where_close and toks[end + 1].upper == "UNION":
                end = closing(toks, end + 2)
            kind = tok.upper.lower() if tok.text != "{" else "group"
        else:
            end, depth = k, 0
            while end < o.where_close:
                t = toks[end]
                depth += t.text in ("(", "[")
                depth -= t.text in (")", "]")
                if depth == 0 and (t.text == "." or (end > k and (t.upper in ("VALUES", "FILTER", "BIND", *_BLOCKS)
                                                                    or t.text in ("{", "}")))):
                    break
                end += 1
            if end >= o.where_close or toks[end].text != ".":
                end -= 1
            kind = "triples"
        if end is None:
            return []
        if end + 1 < o.where_close and toks[end + 1].text == "." and kind != "triples":
            end += 1
        out.append(Statement(kind, k, end, toks[k:end + 1]))
        k = end + 1
    return out


def _simple_triple(st: Statement) -> tuple[str, str, str] | None:
    """``(s, p, o)`` texts of a statement that is exactly one triple ``s p o .``."""
    t = [x for x in st.tokens if x.text != "."]
    if st.kind != "triples" or len(t) != 3:
        return None
    return t[0].text, t[1].text, t[2].text


def _anchor_parts(sparql: str, word: str):
    """The named-word anchor ``VALUES ?X { "word"@… } ?L ontolex:writtenRep ?X . [?L a lila:Lemma .]``."""
    sts = statements(sparql)
    wanted = word.lower()
    for st in sts:
        if st.kind != "values" or len(st.tokens) < 4 or st.tokens[1].kind != "var":
            continue
        strings = [t.text[1:-1].lower() for t in st.tokens if t.kind == "string"]
        if wanted not in strings:
            continue
        var = st.tokens[1].text
        for wr in sts:
            triple = _simple_triple(wr)
            if triple and triple[2] == var and triple[1] in ("ontolex:writtenRep", f"<{PREFIXES['ontolex']}writtenRep>"):
                lemma = triple[0]
                typed = next((s for s in sts if _simple_triple(s) and _simple_triple(s)[0] == lemma
                              and _simple_triple(s)[1] in ("a", "rdf:type") and _simple_triple(s)[2] == "lila:Lemma"),
                             None)
                return sts, st, wr, typed, lemma, var
    return None


def as_hypolemma(sparql: str, word: str) -> str | None:
    """The named word read as a hypolemma: ``?L a lila:Lemma`` → ``?L a lila:Hypolemma``."""
    parts = _anchor_parts(sparql, word)
    if parts is None or parts[3] is None:
        return None
    typed = parts[3]
    obj = [t for t in typed.tokens if t.text != "."][2]
    return apply_edits(sparql, [(obj.start, obj.start + len(obj.text), "lila:Hypolemma")])


def lemma_of_hypolemma(sparql: str, word: str) -> str | None:
    """The named word read as a hypolemma standing for its lemma: ``?h ontolex:writtenRep ?X ; lila:isHypolemma ?L``."""
    parts = _anchor_parts(sparql, word)
    if parts is None:
        return None
    _, _, wr, _, lemma, var = parts
    start, end = wr.span(sparql)
    hypo = f"{lemma}Hypolemma"
    return apply_edits(sparql, [(start, end, f"{hypo} ontolex:writtenRep {var} ; lila:isHypolemma {lemma} .")])


def anchor_in_complit(sparql: str, word: str, service: str) -> str | None:
    """The named word looked up in CompL-it instead of the Lemma Bank (for words only CompL-it has).

    ``VALUES ?X {…} ?L a lila:Lemma . ?L ontolex:writtenRep ?X . ?W ontolex:canonicalForm ?L .
    SERVICE <s> { ?W … }`` becomes ``SERVICE <s> { VALUES ?X {…} ?W ontolex:canonicalForm ?WForm .
    ?WForm ontolex:writtenRep ?X . ?W … }``; ``None`` when ``?L`` is used anywhere else.
    """
    parts = _anchor_parts(sparql, word)
    if parts is None:
        return None
    sts, values, wr, typed, lemma, var = parts
    link = next((s for s in sts if _simple_triple(s) and _simple_triple(s)[2] == lemma
                 and _simple_triple(s)[1] == "ontolex:canonicalForm"), None)
    if link is None:
        return None
    word_var = _simple_triple(link)[0]
    block = next((s for s in sts if s.kind == "service" and any(t.text == f"<{service}>" for t in s.tokens[:3])
                  and any(t.text == word_var for t in s.tokens)), None)
    removed = [s for s in (values, wr, typed, link) if s is not None]
    uses = sum(t.text == lemma for t in tokenize(sparql))
    if block is None or uses != sum(t.text == lemma for s in removed for t in s.tokens):
        return None
    brace = next(t for t in block.tokens if t.text == "{")
    form = f"{word_var}Form"
    values_text = sparql[slice(*values.span(sparql))]
    edits = [(*s.span(sparql), "") for s in removed]
    edits.append((brace.start + 1, brace.start + 1, f"\n    {values_text}\n    {word_var} ontolex:canonicalForm {form} .\n"
                                                    f"    {form} ontolex:writtenRep {var} ."))
    return "\n".join(line for line in apply_edits(sparql, edits).split("\n") if line.strip())
