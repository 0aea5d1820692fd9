"""Structural features of any SPARQL query, for tagging and validation.

Works from tokens (see :mod:`.lexer`), so it also reads queries in dialects
Oxigraph does not parse (Jena's bare ``COUNT(?x) AS ?n``). Prefixed names are
expanded to IRIs with the query's own and the standard prefixes, and every IRI
is recorded with where it occurs (inside a SERVICE block or not).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..namespaces import PREFIXES
from .lexer import apply_edits, closing, declared_prefixes, tokenize

AGGREGATES = {"COUNT", "SUM", "AVG", "MIN", "MAX", "GROUP_CONCAT", "SAMPLE"}
STRING_FUNCTIONS = {"STRSTARTS", "STRENDS", "CONTAINS", "REGEX", "STRLEN", "SUBSTR", "LCASE", "UCASE",
                    "STRBEFORE", "STRAFTER", "REPLACE"}


@dataclass
class Features:
    """What a query uses, structurally."""

    iris: set[str] = field(default_factory=set)
    service_iris: set[str] = field(default_factory=set)
    outside_iris: set[str] = field(default_factory=set)
    services: set[str] = field(default_factory=set)
    graphs: set[str] = field(default_factory=set)
    graph_variable: bool = False
    words: set[str] = field(default_factory=set)
    aggregates: set[str] = field(default_factory=set)
    strings: list[str] = field(default_factory=list)
    variables: set[str] = field(default_factory=set)
    group_by: bool = False
    order_by: bool = False
    limit: bool = False
    form: str = "select"
    triples: int = 0
    filters: int = 0
    #: variable → predicates (IRIs) of the triples where it is the object
    object_of: dict[str, set[str]] = field(default_factory=dict)
    #: (function, first variable argument, first string argument) for string functions
    string_calls: list[tuple[str, str, str]] = field(default_factory=list)
    #: (subject, predicate IRI, object) token texts of the triples read
    triple_list: list[tuple[str, str, str]] = field(default_factory=list)
    #: aggregate name → the variables inside its parentheses (``COUNT(DISTINCT ?sense)``: ``{"COUNT": {"sense"}}``)
    aggregate_vars: dict[str, set[str]] = field(default_factory=dict)
    #: a ``FILTER(?x = ?m)`` where ``?m`` names a ``MIN``/``MAX`` (every row at the extreme: a tie-safe ranking)
    extreme_filter: bool = False

    def uses(self, curie_or_iri: str) -> bool:
        """True when the IRI (or ``prefix:local``) occurs anywhere."""
        return _expand(curie_or_iri) in self.iris

    def uses_any(self, *names: str) -> bool:
        """True when any of the IRIs occurs."""
        return any(self.uses(n) for n in names)

    def uses_outside_service(self, *names: str) -> bool:
        """True when any of the IRIs occurs outside every SERVICE block."""
        return any(_expand(n) in self.outside_iris for n in names)

    def uses_in_service(self, *names: str) -> bool:
        """True when any of the IRIs occurs inside a SERVICE block."""
        return any(_expand(n) in self.service_iris for n in names)

    def uses_iri_prefix(self, prefix: str) -> bool:
        """True when some IRI starts with ``prefix``."""
        return any(i.startswith(prefix) for i in self.iris)

    def string_tests_on(self, *predicates: str) -> set[str]:
        """String functions applied to variables bound by any of ``predicates``."""
        wanted = {_expand(p) for p in predicates}
        return {fn for fn, var, _ in self.string_calls if self.object_of.get(var, set()) & wanted}

    def subjects_of(self, var: str, predicate: str) -> set[str]:
        """Subjects (token text) of triples ``?s predicate ?var``."""
        iri = _expand(predicate)
        return {s for s, p, o in self.triple_list if p == iri and o == f"?{var}"}

    def calls(self, *functions: str) -> bool:
        """True when any of the functions/keywords is used."""
        return any(f.upper() in self.words for f in functions)


def _expand(name: str) -> str:
    if name.startswith("<") and name.endswith(">"):
        return name[1:-1]
    prefix, sep, local = name.partition(":")
    if sep and prefix in PREFIXES and not name.startswith("http"):
        return PREFIXES[prefix] + local
    return name


def _term(tok, prefixes) -> str | None:
    if tok.kind == "iri":
        return tok.text[1:-1]
    if tok.kind == "pname":
        p, _, local = tok.text.partition(":")
        return prefixes.get(p, p + ":") + local
    if tok.kind == "word" and tok.text == "a":
        return PREFIXES["rdf"] + "type"
    return None


def _scan_triples(tokens, prefixes, f: Features) -> None:
    """Approximate triple reading: which predicates bind each object variable."""
    subject = predicate = None
    position = "s"
    skip_until = -1
    for i, tok in enumerate(tokens):
        if i <= skip_until:
            continue
        text = tok.text
        if tok.kind == "word" and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            # FILTER(...), BIND(...), a function call: no triple inside, and the next triple starts afresh
            skip_until = closing(tokens, i + 1) or len(tokens)
            subject = predicate = None
            position = "s"
            continue
        if text in ("{", "}") or (tok.kind == "word" and tok.upper not in ("A",)):
            subject = predicate = None
            position = "s"
            continue
        if text == ".":
            position, subject, predicate = "s", None, None
        elif text == ";":
            position = "p"
        elif text == ",":
            position = "o"
        elif text == "[":
            position = "p" if position == "s" else "p"
        elif text == "]":
            position = "p"
        elif tok.kind in ("var", "iri", "pname", "string", "number") or (tok.kind == "word" and text == "a"):
            if position == "s":
                subject, position = tok, "p"
            elif position == "p":
                predicate, position = _term(tok, prefixes), "o"
            else:
                if tok.kind == "var" and predicate:
                    f.object_of.setdefault(tok.text[1:], set()).add(predicate)
                if subject is not None and predicate:
                    f.triple_list.append((subject.text, predicate, tok.text))
                position = "o"


def _vars_in_parentheses(tokens, start: int) -> set[str]:
    """The variables between the parenthesis at ``start`` and the one that closes it."""
    depth, found = 0, set()
    for t in tokens[start:]:
        depth += t.text == "("
        depth -= t.text == ")"
        if t.kind == "var":
            found.add(t.text[1:])
        if depth == 0:
            break
    return found


def _scan_string_calls(tokens, f: Features) -> None:
    for i, tok in enumerate(tokens):
        if tok.kind == "word" and tok.upper in STRING_FUNCTIONS and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            depth, var, literal = 0, None, ""
            for t in tokens[i + 1:]:
                depth += t.text == "("
                depth -= t.text == ")"
                if t.kind == "var" and var is None:
                    var = t.text[1:]
                elif t.kind == "string" and not literal:
                    literal = t.text.strip("'\"")
                if depth == 0:
                    break
            if var is not None:
                f.string_calls.append((tok.upper, var, literal))


def analyze(query: str) -> Features:
    """Extract :class:`Features` from query text."""
    f = Features()
    prefixes = {**PREFIXES, **declared_prefixes(query)}
    tokens = tokenize(query)
    depth = 0
    service_depths: list[int] = []
    pending_service = False
    service_brace = False  # the next "{" opens a SERVICE block
    pending_graph = False
    in_prologue = True
    prev = None
    for i, tok in enumerate(tokens):
        up = tok.upper
        if tok.kind == "word":
            f.words.add(up)
            if in_prologue and up in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
                f.form = up.lower()
                in_prologue = False
            if up == "SERVICE":
                pending_service = True
                service_brace = True
            elif up == "GRAPH":
                pending_graph = True
            elif up in AGGREGATES and i + 1 < len(tokens) and tokens[i + 1].text == "(":
                f.aggregates.add(up)
                f.aggregate_vars.setdefault(up, set()).update(_vars_in_parentheses(tokens, i + 1))
            elif up == "FILTER":
                f.filters += 1
            elif up == "BY" and prev is not None:
                if prev.upper == "GROUP":
                    f.group_by = True
                elif prev.upper == "ORDER":
                    f.order_by = True
            elif up == "LIMIT":
                f.limit = True
        elif tok.kind in ("iri", "pname"):
            declaring = prev is not None and (prev.upper == "PREFIX" or (
                prev.kind == "pname" and i >= 2 and tokens[i - 2].upper == "PREFIX"))
            if declaring:  # the name or the IRI of a PREFIX declaration
                prev = tok
                continue
            iri = _term(tok, prefixes)
            f.iris.add(iri)
            (f.service_iris if service_depths else f.outside_iris).add(iri)
            if pending_service:
                f.services.add(iri)
                pending_service = False
            elif pending_graph:
                f.graphs.add(iri)
                pending_graph = False
        elif tok.kind == "var":
            f.variables.add(tok.text[1:])
            if pending_graph:
                f.graph_variable = True
                pending_graph = False
            pending_service = False
        elif tok.kind == "string":
            text = tok.text
            q = 3 if text[:3] in ('"""', "'''") else 1
            f.strings.append(text[q:-q])
        elif tok.text == "{":
            depth += 1
            pending_service = False
            if service_brace:
                service_brace = False
                service_depths.append(depth)
        elif tok.text == "}":
            if service_depths and service_depths[-1] == depth:
                service_depths.pop()
            depth -= 1
        elif tok.text in (".", ";") and not in_prologue and depth > 0:
            f.triples += 1
        prev = tok
    _scan_triples(tokens, prefixes, f)
    _scan_string_calls(tokens, f)
    f.extreme_filter = _has_extreme_filter(tokens)
    return f


def _has_extreme_filter(tokens) -> bool:
    """True for ``(MAX(…) AS ?m)`` … ``FILTER(?x = ?m)`` (either side): rows whose value equals an extreme."""
    aliases = set()
    for i, tok in enumerate(tokens):
        if tok.kind == "word" and tok.upper in ("MIN", "MAX") and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            end = closing(tokens, i + 1)
            if end is not None and end + 2 < len(tokens) and tokens[end + 1].upper == "AS" \
                    and tokens[end + 2].kind == "var":
                aliases.add(tokens[end + 2].text)
    for i, tok in enumerate(tokens[:-5]):
        if tok.upper == "FILTER" and tokens[i + 1].text == "(" and tokens[i + 3].text == "=" \
                and tokens[i + 5].text == ")" and {tokens[i + 2].text, tokens[i + 4].text} & aliases:
            return True
    return False


def without_negations(sparql: str) -> str:
    """The query with its ``NOT EXISTS`` and ``MINUS`` groups emptied: what it reads to find answers, not to exclude.

    The keywords stay (``MINUS { }``), so the query still says that it excludes something.
    """
    tokens = tokenize(sparql)
    edits = []
    for i, t in enumerate(tokens[:-1]):
        if t.kind == "word" and t.upper in ("EXISTS", "MINUS") and (t.upper == "MINUS" or tokens[i - 1].upper == "NOT"):
            end = closing(tokens, i + 1)
            if end is not None:
                edits.append((t.start, tokens[end].start + 1, f"{t.upper} {{ }}"))
    return apply_edits(sparql, edits)
