"""Safe automatic fixes for LiITA queries (used by :func:`~nl2sparql.translate.validate.repair`).

Each ``fix_*`` function takes query text and returns ``(fixed text, one line
per fix)``. Edits are made at token offsets, so strings and comments are
never touched by accident, and every fix keeps the query's meaning: exact
prefix IRIs, the ELITA graph IRI without slash, ``STR()`` around
language-tagged values, case-insensitive matching of vocabulary labels, a
variable plus ``FILTER(STR(?v) = "…")`` for plain written-form literals.
"""

from __future__ import annotations

from ..namespaces import PREFIXES
from ..sparql.lexer import apply_edits, tokenize
from .rules import GRAPH_SLASH, ONTO, case_sensitive_matches, function_of, regex_close, string_compares
from .triples import parse



def fix_prefix_iris(query: str) -> tuple[str, list[str]]:
    """Point standard prefix names at their exact LiITA IRIs."""
    edits, fixes = [], []
    tokens = tokenize(query)
    for a, b, c in zip(tokens, tokens[1:], tokens[2:]):
        name = b.text[:-1] if b.kind == "pname" else None
        if a.upper == "PREFIX" and name in PREFIXES and c.kind == "iri" and c.text[1:-1] != PREFIXES[name]:
            edits.append((c.start, c.start + len(c.text), f"<{PREFIXES[name]}>"))
            fixes.append(f"PREFIX {name}: {c.text} → <{PREFIXES[name]}>")
    return apply_edits(query, edits), fixes


def fix_graph_iris(query: str) -> tuple[str, list[str]]:
    """``GRAPH <http://w3id.org/elita/>`` → ``GRAPH <http://w3id.org/elita>``."""
    edits, fixes = [], []
    tokens = tokenize(query)
    for a, b in zip(tokens, tokens[1:]):
        if a.upper == "GRAPH" and b.kind == "iri" and b.text[1:-1] in GRAPH_SLASH:
            edits.append((b.start, b.start + len(b.text), f"<{GRAPH_SLASH[b.text[1:-1]]}>"))
            fixes.append(f"GRAPH {b.text} → <{GRAPH_SLASH[b.text[1:-1]]}>")
    return apply_edits(query, edits), fixes


def fix_plain_literals(query: str) -> tuple[str, list[str]]:
    """``?l ontolex:writtenRep "casa"`` → a variable plus ``FILTER(STR(?v) = "casa")`` in the same group."""
    parsed = parse(query)
    edits, fixes, n = [], [], 0
    for t in parsed.triples:
        if t.predicate == ONTO + "writtenRep" and t.o.kind == "literal" and not t.o.lang and not t.o.datatype:
            n += 1
            var = f"?wrFix{n}"
            literal = query[t.o.start:t.o.end]
            edits.append((t.o.start, t.o.end, var))
            close = parsed.groups[t.group].close
            edits.append((close, close, f" FILTER(STR({var}) = {literal}) "))
            fixes.append(f"ontolex:writtenRep {literal} → {var} with FILTER(STR({var}) = {literal})")
    return apply_edits(query, edits), fixes


def fix_string_compare(query: str) -> tuple[str, list[str]]:
    """``?wr = "casa"`` → ``STR(?wr) = "casa"`` for language-tagged values."""
    edits, fixes = [], []
    for _, tok, _ in string_compares(parse(query)):
        edits.append((tok.start, tok.start + len(tok.text), f"STR({tok.text})"))
        fixes.append(f"{tok.text} → STR({tok.text}) in a string comparison")
    return apply_edits(query, edits), fixes


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
