"""A small SPARQL tokenizer for the checks that must not be fooled by strings and comments.

It is not a parser: it splits a query into tokens (IRIs, prefixed names,
variables, strings, numbers, punctuation, keywords) so that callers can ask
questions such as "what is the query form?", "is there an ORDER BY?" or
"rewrite every SERVICE <x> into GRAPH <x>" without regular expressions that
match inside a string literal or a comment.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

# The terminals of the SPARQL 1.1 grammar, as Oxigraph reads them (checked by probes against
# pyoxigraph, see tests/reliability/test_ssrf.py): whitespace is only space, tab, CR and LF;
# a comment ends at CR or LF; a one-line string holds no raw CR or LF; an IRI may hold
# \uXXXX / \UXXXXXXXX escapes, which Oxigraph decodes inside IRIs and strings only (an
# escaped keyword is a syntax error there).
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>\#[^\r\n]*)
  | (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
              |'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*")
  | (?P<iri><(?:[^<>"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>)
  | (?P<var>[?$][A-Za-z0-9_\u00B7-\uFFFF]+)
  | (?P<number>[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<pname>(?:[A-Za-z\u00C0-\uFFFF][\w\u00B7-\uFFFF.-]*)?:(?:[\w\u00B7-\uFFFF%\\:-](?:[\w\u00B7-\uFFFF.%\\:-]*[\w\u00B7-\uFFFF%\\:-])?)?)
  | (?P<langtag>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\^\^|&&|\|\||!=|<=|>=|[{}()\[\].,;*=<>!+\-/|^?])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_UCHAR_RE = re.compile(_UCHAR)
_PN_LOCAL_ESC = re.compile(r"\\([_~.\-!$&'()*+,;=/?#@%])")

#: Text where Oxigraph may read the keyword SERVICE: the word (any case) not glued to a name
#: before or after it, followed by what can start a service target. Checks count these to
#: fail closed when such text lies inside a token this lexer reads as a string, IRI or name.
SERVICE_LIKE = re.compile(
    r"(?<![A-Za-z_\u00B7\u00C0-\uFFFF:?$])SERVICE(?![A-Za-z0-9_\u00B7\u00C0-\uFFFF:])"
    r"(?=(?:[ \t\r\n]|\#[^\r\n]*)*[<?$:A-Za-z_\u00C0-\uFFFF])",
    re.IGNORECASE)


def decode_uchars(text: str) -> str:
    """Apply SPARQL's ``\\uXXXX`` / ``\\UXXXXXXXX`` escapes (as Oxigraph does inside IRIs and strings)."""
    def one(m: re.Match) -> str:
        code = int(m.group()[2:], 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    return _UCHAR_RE.sub(one, text)


def iri_value(token_text: str) -> str:
    """The IRI an ``<…>`` token denotes (escapes decoded, brackets dropped)."""
    return decode_uchars(token_text[1:-1])


def pname_local(local: str) -> str:
    """The local part of a prefixed name with its ``\\``-escapes removed (``a\\~b`` → ``a~b``)."""
    return _PN_LOCAL_ESC.sub(r"\1", local)


UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
FORM_KEYWORDS = {"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"}


class Token(NamedTuple):
    """One lexical token: its kind, its text and its offset in the query.

    A named tuple: a query has about a hundred tokens and generation lexes
    tens of thousands of queries, and a tuple is made about 3x faster than
    a frozen dataclass.
    """

    kind: str
    text: str
    start: int

    @property
    def upper(self) -> str:
        """The text upper-cased (keywords are case-insensitive)."""
        return self.text.upper()


def tokenize(query: str, keep_trivia: bool = False) -> list[Token]:
    """Split ``query`` into tokens; whitespace and comments only with ``keep_trivia``."""
    return list(_tokens(query, keep_trivia))


@lru_cache(maxsize=256)
def _tokens(query: str, keep_trivia: bool) -> tuple[Token, ...]:
    # memoised: checking, preparing and tagging one query lex the same text several times in a row
    tokens = []
    make = tuple.__new__
    for m in _TOKEN_RE.finditer(query):
        kind = m.lastgroup or "other"
        if not keep_trivia and kind in ("ws", "comment"):
            continue
        tokens.append(make(Token, (kind, m.group(), m.start())))
    return tuple(tokens)


def query_form(query: str) -> str:
    """``select``, ``ask``, ``construct``, ``describe``, ``update`` or ``unknown``.

    The form is the first keyword after the prologue (BASE/PREFIX lines).
    """
    tokens = tokenize(query)
    i = 0
    while i < len(tokens):
        up = tokens[i].upper
        if up == "BASE":
            i += 2
            continue
        if up == "PREFIX":
            i += 3
            continue
        if tokens[i].kind == "word":
            if up in FORM_KEYWORDS:
                return up.lower()
            if up in UPDATE_KEYWORDS:
                return "update"
        return "unknown"
    return "unknown"


def strip_comments(query: str) -> str:
    """The query without ``#`` comments (strings and IRIs untouched; line ends stay, so positions do)."""
    if "#" not in query:
        return query  # no comment without a "#" (and no lexing: generation prepares thousands of queries)
    return "".join(t.text for t in tokenize(query, keep_trivia=True) if t.kind != "comment")


def has_base(query: str) -> bool:
    """True when the query declares a BASE IRI (relative IRIs then resolve against it)."""
    return any(t.kind == "word" and t.upper == "BASE" for t in tokenize(query))


def keywords(query: str) -> list[str]:
    """Upper-cased bare words of the query, in order (keywords and function names)."""
    return [t.upper for t in tokenize(query) if t.kind == "word"]


def has_order_by(query: str) -> bool:
    """True when the query has an ORDER BY clause."""
    words = keywords(query)
    return any(a == "ORDER" and b == "BY" for a, b in zip(words, words[1:]))


def has_limit(query: str) -> bool:
    """True when the query has a LIMIT clause."""
    return "LIMIT" in keywords(query)


def declared_prefixes(query: str) -> dict[str, str]:
    """The ``PREFIX name: <iri>`` declarations of the query."""
    tokens = tokenize(query)
    out = {}
    for a, b, c in zip(tokens, tokens[1:], tokens[2:]):
        if b.kind == "pname" and c.kind == "iri" and a.upper == "PREFIX":
            out[b.text[:-1]] = iri_value(c.text)
    return out


def used_prefixes(query: str) -> set[str]:
    """Prefix names used in prefixed names (``lila:noun`` → ``lila``), declarations excluded."""
    tokens = tokenize(query)
    used = set()
    for prev, tok in zip([None, *tokens], tokens):
        if tok.kind == "pname" and not (prev is not None and prev.upper == "PREFIX"):
            used.add(tok.text.split(":", 1)[0])
    return used


_CLOSING = {"(": ")", "{": "}", "[": "]"}


def nesting_depth(query: str) -> int:
    """The deepest nesting of ``{ ( [`` brackets in the query (strings, IRIs and comments ignored)."""
    depth = deepest = 0
    for tok in tokenize(query):
        if tok.text in _CLOSING:
            depth += 1
            deepest = max(deepest, depth)
        elif tok.text in ("}", ")", "]"):
            depth -= 1
    return deepest


def closing(tokens: list[Token], i: int) -> int | None:
    """Index of the token closing the bracket opened at ``tokens[i]`` (``None``: no bracket there, or it never closes)."""
    if i >= len(tokens) or tokens[i].text not in _CLOSING:
        return None
    open_, close = tokens[i].text, _CLOSING[tokens[i].text]
    depth = 0
    for k in range(i, len(tokens)):
        depth += tokens[k].text == open_
        depth -= tokens[k].text == close
        if depth == 0:
            return k
    return None


def enclosing(tokens: list[Token], i: int, bracket: str = "{") -> int | None:
    """Index of the innermost ``bracket`` (``{``, ``(`` or ``[``) still open at token ``i`` (``None``: none)."""
    close = _CLOSING[bracket]
    depth = 0
    for k in range(i - 1, -1, -1):
        if tokens[k].text == close:
            depth += 1
        elif tokens[k].text == bracket:
            if depth == 0:
                return k
            depth -= 1
    return None


def apply_edits(query: str, edits) -> str:
    """Apply ``(start, end, text)`` replacements at character offsets (the last first, so offsets stay valid)."""
    for start, end, text in sorted(set(edits), key=lambda e: (e[0], e[1]), reverse=True):
        query = query[:start] + text + query[end:]
    return query
