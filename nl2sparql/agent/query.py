"""Reading one query as tokens: its outline, projection, statements, vocabulary values.

Not a parser (:mod:`nl2sparql.sparql.lexer` tokens and bracket matching), but
enough to read the shapes the catalogue, the pools and LLMs write, without
being fooled by strings, IRIs or comments. Used by :mod:`.rewrite` (the
answer's shape, the anchors) and :mod:`.fixes` (the safe fixes). Nothing here
changes or runs a query.
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from ..namespaces import COMPLIT_VOCAB, EMOTIONS, PREFIXES
from ..sparql.lexer import Token, closing, declared_prefixes, enclosing, tokenize

#: Closed-vocabulary values a query may fix: (kind, namespace, local names).
VOCABULARY = (("emotion", PREFIXES["elita"], EMOTIONS),
              ("pos", PREFIXES["lila"], ("noun", "verb", "adjective", "adverb", "pronoun", "numeral", "interjection",
                                         "adposition", "determiner", "proper_noun")),
              ("gender", PREFIXES["lila"], ("masculine", "feminine")),
              ("polarity", PREFIXES["marl"], ("Positive", "Negative", "Neutral")))


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


def select_items(o: Outline) -> list[tuple[int, int]]:
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
    for lo, hi in select_items(o):
        tok = o.tokens[hi - 1] if hi > lo else o.tokens[lo]
        if tok.kind == "var":
            names.append(tok.text[1:])
    return names


def vocabulary_value(iri: str | None) -> tuple[str, str] | None:
    """``(kind, local name)`` when ``iri`` is a closed-vocabulary value (an emotion, a POS, a gender, a
    polarity class), else ``None``."""
    for kind, base, names in VOCABULARY:
        if iri and iri.startswith(base) and iri[len(base):] in names:
            return kind, iri[len(base):]
    return None


def iri_of_text(text: str, prefixes: dict[str, str]) -> str | None:
    """The full IRI of a token text (``<…>`` or a prefixed name)."""
    if text.startswith("<") and text.endswith(">"):
        return text[1:-1]
    prefix, sep, local = text.partition(":")
    return prefixes.get(prefix, "") + local if sep and prefix in prefixes else None


def has_aggregate(sparql: str) -> bool:
    """True when the query groups or aggregates (GROUP BY, HAVING, COUNT/SUM/AVG/MIN/MAX/SAMPLE)."""
    words = {t.upper for t in tokenize(sparql) if t.kind == "word"}
    return bool(words & {"GROUP", "HAVING", "COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT"})


def modifiers(o: Outline) -> list[str]:
    """Upper-cased words after the WHERE group (GROUP BY, HAVING, ORDER BY, LIMIT...)."""
    return [t.upper for t in o.tokens[o.where_close + 1:] if t.kind == "word"]


def is_count(sparql: str) -> bool:
    """True when the query answers with a count: one aggregate that groups by nothing (``SELECT (COUNT(…)
    AS ?n)``), or one per named word, after it (``SELECT ?wr (COUNT(…) AS ?n) … VALUES ?wr {…} … GROUP BY ?wr``)."""
    o = outline(sparql)
    if o is None or o.form != "select":
        return False
    items = select_items(o)
    if not items or items[-1][0] == items[-1][1] or not has_aggregate(sparql):
        return False
    if len(items) == 1:
        return "GROUP" not in modifiers(o)
    named = set(re.findall(r"\bVALUES\s+\?(\w+)", sparql, re.IGNORECASE))
    return all(expr == name and name in named for expr, name in items[:-1])


def literal(value: str) -> str:
    """A SPARQL string literal for ``value`` (only the characters SPARQL requires are escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def token_iri(tok: Token, prefixes: dict[str, str]) -> str | None:
    """The full IRI of an IRI or prefixed-name token (``None`` for anything else)."""
    if tok.kind == "iri":
        return tok.text[1:-1]
    if tok.kind == "pname":
        prefix, _, local = tok.text.partition(":")
        base = prefixes.get(prefix)
        return base + local if base is not None else None
    return None


def call_open(tokens: list[Token], i: int) -> int | None:
    """Index of the ``(`` of the call whose argument list contains token ``i`` at depth 1."""
    return enclosing(tokens, i, "(")


def call_of(tokens: list[Token], i: int) -> str | None:
    """The function name of the call whose arguments contain token ``i`` (upper-cased)."""
    k = call_open(tokens, i)
    if k is None or k == 0 or tokens[k - 1].kind != "word":
        return None
    return tokens[k - 1].upper


def in_values(tokens: list[Token], i: int) -> bool:
    """True when token ``i`` is inside the data block of a ``VALUES ?x { … }``."""
    for k in range(i - 1, -1, -1):
        if tokens[k].text in ("}", ".", ";") or tokens[k].upper in ("FILTER", "SELECT", "WHERE"):
            return False
        if tokens[k].text == "{":
            return k >= 2 and tokens[k - 2].upper == "VALUES" and tokens[k - 1].kind == "var"
    return False


def predicate_tokens(sparql: str, wanted) -> list[tuple[Token, str]]:
    """Tokens naming one of the ``wanted`` IRIs (as ``<iri>`` or a prefixed name), with that IRI."""
    prefixes = {**PREFIXES, "complit": COMPLIT_VOCAB, **declared_prefixes(sparql)}
    tokens = tokenize(sparql)
    out = []
    for prev, tok in zip([None, *tokens], tokens):
        if prev is not None and prev.upper == "PREFIX":
            continue
        iri = token_iri(tok, prefixes)
        if iri in wanted:
            out.append((tok, iri))
    return out


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


def simple_triple(st: Statement) -> tuple[str, str, str] | None:
    """``(s, p, o)`` texts of a statement that is exactly one triple ``s p o .``."""
    t = [x for x in st.tokens if x.text != "."]
    if st.kind != "triples" or len(t) != 3:
        return None
    return t[0].text, t[1].text, t[2].text
