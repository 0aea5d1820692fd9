"""A tolerant reader of the triple patterns and FILTERs of any SPARQL query, for the rule checks.

It works on lexer tokens (:mod:`nl2sparql.sparql.lexer`), so it also reads
queries Oxigraph refuses, and records for every triple pattern whether it
sits inside a ``SERVICE`` block (and which), inside which ``GRAPH``, and its
predicate as expanded IRIs (property paths keep every IRI they use). FILTER
and BIND expressions are kept as token lists with their character span.
Anything it does not understand is skipped, never fatal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..namespaces import PREFIXES
from ..sparql.lexer import Token, declared_prefixes, tokenize

RDF_TYPE = PREFIXES["rdf"] + "type"
_GROUP_KEYWORDS = {"OPTIONAL", "MINUS", "UNION"}
_STOP_WORDS = {"FILTER", "BIND", "VALUES", "OPTIONAL", "MINUS", "UNION", "GRAPH", "SERVICE", "SELECT"}
#: A sub-select's solution modifiers, after its group: they read no triple.
_MODIFIERS = {"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET"}


@dataclass(frozen=True)
class Term:
    """A triple term: ``var`` (name), ``iri``, ``literal`` (text, lang, datatype), ``bnode`` or ``other``."""

    kind: str
    value: str
    lang: str | None = None
    datatype: str | None = None
    start: int = -1
    end: int = -1


@dataclass
class TriplePattern:
    """One triple pattern with where it occurs; ``p_iris`` are the IRIs of its predicate (or path)."""

    s: Term
    p: Term | None
    o: Term
    p_iris: tuple[str, ...] = ()
    inverse: bool = False
    path: bool = False
    service: str | None = None
    graph: Term | None = None
    group: int = 0

    @property
    def predicate(self) -> str | None:
        """The predicate IRI when it is a single IRI (not a path or a variable)."""
        return self.p.value if self.p is not None and self.p.kind == "iri" and not self.path else None


@dataclass
class Expression:
    """A FILTER or BIND expression: its tokens, its span and the block it occurs in."""

    kind: str
    tokens: list[Token]
    start: int
    end: int
    service: str | None = None
    group: int = 0


@dataclass
class Group:
    """A ``{ … }`` block: the offsets of its braces and whether it is a SERVICE body."""

    open: int
    close: int
    service: str | None = None


@dataclass
class Parsed:
    """What :func:`parse` read."""

    triples: list[TriplePattern] = field(default_factory=list)
    expressions: list[Expression] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    prefixes: dict[str, str] = field(default_factory=dict)


class _Reader:
    def __init__(self, query: str):
        self.tokens = tokenize(query)
        self.i = 0
        self.out = Parsed(prefixes={**PREFIXES, **declared_prefixes(query)})
        self._bnodes = 0

    # -- helpers --------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def next(self) -> Token | None:
        tok = self.peek()
        self.i += 1
        return tok

    def iri(self, tok: Token) -> str:
        if tok.kind == "iri":
            return tok.text[1:-1]
        prefix, _, local = tok.text.partition(":")
        return self.out.prefixes.get(prefix, prefix + ":") + local

    # -- query level ----------------------------------------------------------------------------
    def run(self) -> Parsed:
        while self.peek() is not None:
            tok = self.peek()
            if tok.text == "{":
                self.group(None, None)
            else:
                self.i += 1
        return self.out

    def group(self, service: str | None, graph: Term | None) -> None:
        open_tok = self.next()
        index = len(self.out.groups)
        self.out.groups.append(Group(open_tok.start, -1, service))
        while self.peek() is not None and self.peek().text != "}":
            before = self.i
            self.element(service, graph, index)
            if self.i == before:
                self.i += 1
        close = self.next()
        self.out.groups[index].close = close.start if close is not None else -1

    def element(self, service, graph, index) -> None:
        tok = self.peek()
        up = tok.upper if tok.kind == "word" else ""
        if tok.text == "{":
            self.group(service, graph)
        elif up in _GROUP_KEYWORDS or tok.text == ".":
            self.i += 1
        elif up == "GRAPH":
            self.i += 1
            target = self.term(self.next())
            if self.peek() is not None and self.peek().text == "{":
                self.group(service, target)
        elif up == "SERVICE":
            self.i += 1
            if self.peek() is not None and self.peek().upper == "SILENT":
                self.i += 1
            target = self.next()
            iri = self.iri(target) if target is not None and target.kind in ("iri", "pname") else "?"
            if self.peek() is not None and self.peek().text == "{":
                self.group(iri, graph)
        elif up in ("FILTER", "BIND"):
            self.expression(up, service, index)
        elif up == "VALUES":
            self.skip_values()
        elif up == "SELECT":
            self.skip_select()
        elif up in _MODIFIERS:
            self.skip_modifiers()
        else:
            self.triples_block(service, graph, index)

    def expression(self, kind, service, index) -> None:
        start_tok = self.next()
        tokens: list[Token] = []
        tok = self.peek()
        if tok is not None and tok.upper in ("NOT", "EXISTS"):
            while self.peek() is not None and self.peek().text != "{":
                self.i += 1
            if self.peek() is not None:
                self.group(service, None)
            return
        if tok is not None and tok.kind == "word" and self.peek(1) is not None and self.peek(1).text == "(":
            tokens.append(self.next())  # FILTER regex(...) without outer parentheses
        depth = 0
        while self.peek() is not None:
            tok = self.next()
            tokens.append(tok)
            if tok.text == "(":
                depth += 1
            elif tok.text == ")":
                depth -= 1
                if depth <= 0:
                    break
            elif depth == 0:
                break
        end = tokens[-1].start + len(tokens[-1].text) if tokens else start_tok.start
        self.out.expressions.append(Expression(kind, tokens, start_tok.start, end, service, index))

    def skip_values(self) -> None:
        self.i += 1
        while self.peek() is not None and self.peek().text != "{":
            self.i += 1
        depth = 0
        while self.peek() is not None:
            tok = self.next()
            depth += tok.text == "{"
            depth -= tok.text == "}"
            if depth == 0:
                break

    def skip_select(self) -> None:
        while self.peek() is not None and self.peek().text != "{":
            self.i += 1

    def skip_modifiers(self) -> None:
        """A sub-select's ``GROUP BY … HAVING (…) ORDER BY … LIMIT n``: no triples (up to its closing brace)."""
        while self.peek() is not None and self.peek().text not in ("{", "}"):
            self.i += 1

    # -- triples --------------------------------------------------------------------------------
    def term(self, tok: Token | None) -> Term:
        if tok is None:
            return Term("other", "")
        end = tok.start + len(tok.text)
        if tok.kind == "var":
            return Term("var", tok.text[1:], start=tok.start, end=end)
        if tok.kind in ("iri", "pname"):
            return Term("iri", self.iri(tok), start=tok.start, end=end)
        if tok.kind == "string":
            q = 3 if tok.text[:3] in ('"""', "'''") else 1
            lang = datatype = None
            nxt = self.peek()
            if nxt is not None and nxt.kind == "langtag":
                lang = self.next().text[1:]
                end = nxt.start + len(nxt.text)
            elif nxt is not None and nxt.text == "^^":
                self.i += 1
                dt = self.next()
                datatype = self.iri(dt) if dt is not None and dt.kind in ("iri", "pname") else None
                end = dt.start + len(dt.text) if dt is not None else end
            return Term("literal", tok.text[q:-q], lang, datatype, tok.start, end)
        if tok.kind == "number" or tok.upper in ("TRUE", "FALSE"):
            return Term("literal", tok.text, datatype="number", start=tok.start, end=end)
        if tok.text.startswith("_:"):
            return Term("bnode", tok.text, start=tok.start, end=end)
        return Term("other", tok.text, start=tok.start, end=end)

    def node(self, service, graph, index) -> Term:
        tok = self.peek()
        if tok is not None and tok.text == "[":
            self.i += 1
            self._bnodes += 1
            subject = Term("bnode", f"_:b{self._bnodes}", start=tok.start, end=tok.start + 1)
            if self.peek() is not None and self.peek().text != "]":
                self.property_list(subject, service, graph, index)
            if self.peek() is not None and self.peek().text == "]":
                self.i += 1
            return subject
        if tok is not None and tok.text == "(":  # collections: skipped
            depth = 0
            while self.peek() is not None:
                t = self.next()
                depth += t.text == "("
                depth -= t.text == ")"
                if depth == 0:
                    break
            return Term("other", "()")
        return self.term(self.next())

    def triples_block(self, service, graph, index) -> None:
        tok = self.peek()
        if tok is None or tok.kind not in ("var", "iri", "pname", "string", "number") and tok.text not in ("[", "("):
            self.i += 1
            return
        subject = self.node(service, graph, index)
        nxt = self.peek()
        if nxt is not None and nxt.text not in (".", "}"):
            self.property_list(subject, service, graph, index)
        if self.peek() is not None and self.peek().text == ".":
            self.i += 1

    def property_list(self, subject: Term, service, graph, index) -> None:
        while self.peek() is not None:
            tok = self.peek()
            if tok.text in (".", "}", "]") or (tok.kind == "word" and tok.upper in _STOP_WORDS):
                return
            verb, iris, inverse, is_path = self.verb()
            while True:
                obj = self.node(service, graph, index)
                self.out.triples.append(TriplePattern(subject, verb, obj, iris, inverse, is_path, service, graph,
                                                      index))
                if self.peek() is not None and self.peek().text == ",":
                    self.i += 1
                    continue
                break
            if self.peek() is not None and self.peek().text == ";":
                while self.peek() is not None and self.peek().text == ";":
                    self.i += 1
                continue
            return

    def verb(self) -> tuple[Term | None, tuple[str, ...], bool, bool]:
        """A predicate: a variable, ``a``, an IRI, or a property path (all its IRIs kept)."""
        tok = self.peek()
        if tok.kind == "var":
            self.i += 1
            return self.term(tok), (), False, False
        iris: list[str] = []
        parts = 0
        inverse = False
        depth = 0
        start = tok.start
        while self.peek() is not None:
            tok = self.peek()
            if tok.kind in ("iri", "pname"):
                iris.append(self.iri(tok))
            elif tok.kind == "word" and tok.text == "a":
                iris.append(RDF_TYPE)
            elif tok.text == "^":
                inverse = parts == 0
            elif tok.text == "(":
                depth += 1
            elif tok.text == ")":
                depth -= 1
            elif tok.text in ("/", "|", "*", "+", "?", "!"):
                pass
            else:
                break
            parts += 1
            self.i += 1
            nxt = self.peek()
            if depth == 0 and tok.text not in ("^", "/", "|", "!", "(") and not (
                    nxt is not None and nxt.text in ("/", "|", "*", "+", "?", ")")):
                break
        is_path = parts > 1
        if len(iris) == 1 and not is_path:
            return Term("iri", iris[0], start=start), tuple(iris), False, False
        if len(iris) == 1 and inverse and parts == 2:
            return Term("iri", iris[0], start=start), tuple(iris), True, False
        return None, tuple(iris), inverse, True


def parse(query: str) -> Parsed:
    """Read the triple patterns, FILTER/BIND expressions and groups of ``query``."""
    return _Reader(query).run()
