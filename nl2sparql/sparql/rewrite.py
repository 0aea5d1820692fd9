"""Token-level query rewrites that run before a query reaches a store.

* :func:`complete_prefixes` adds the standard LiITA ``PREFIX`` lines a query
  uses but forgot to declare (a common mistake; every fix is reported).
* :func:`rewrite_services` turns ``SERVICE <iri> { … }`` into ``GRAPH <g> { … }``
  for services answered from a local graph, into ``SERVICE <url>`` for
  services mapped to another endpoint, and refuses the others (and any query
  where the lexer cannot be sure it saw every SERVICE) with a clear error. FILTERs written inside such a block are moved
  just after it (see :func:`hoist_service_filters`).
* :func:`lateral_optionals` and :func:`lateral_minus` give OPTIONAL and (where
  the answers stay the same) MINUS groups Oxigraph's ``LATERAL`` reading, looked
  up per solution; only the embedded store applies them, to the text it runs.

All work on tokens (see :mod:`nl2sparql.sparql.lexer`), so text inside string
literals, IRIs and comments is never touched.
"""

from __future__ import annotations

from typing import Mapping

from ..errors import UnmappedService
from ..namespaces import PREFIXES
from .lexer import (SERVICE_LIKE, Token, apply_edits, closing, declared_prefixes, enclosing, iri_value, pname_local,
                    strip_comments, tokenize, used_prefixes)


def missing_prefixes(query: str) -> list[str]:
    """Standard prefixes the query uses without declaring them."""
    declared = declared_prefixes(query)
    return sorted(p for p in used_prefixes(query) if p not in declared and p in PREFIXES)


def complete_prefixes(query: str) -> tuple[str, list[str]]:
    """Prepend missing standard ``PREFIX`` declarations; returns the query and the names added."""
    missing = missing_prefixes(query)
    if not missing:
        return query, []
    lines = "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in missing)
    return lines + query, missing


def service_iri(tokens: list[Token], j: int, prefixes: Mapping[str, str]) -> str | None:
    """The IRI a SERVICE target token denotes (escapes decoded), or None for a variable or anything else."""
    target = tokens[j]
    if target.kind == "iri":
        return iri_value(target.text)
    if target.kind == "pname":
        prefix, _, local = target.text.partition(":")
        if prefix not in prefixes:
            return None
        return prefixes[prefix] + pname_local(local)
    return None


def hidden_services(query: str, tokens: list[Token] | None = None) -> int:
    """How many places the engine may read as SERVICE that this lexer does not (inside strings, IRIs, names)."""
    tokens = tokenize(query) if tokens is None else tokens
    keywords = {t.start for t in tokens if t.kind == "word" and t.upper == "SERVICE"}
    return sum(1 for m in SERVICE_LIKE.finditer(query) if m.start() not in keywords)


def rewrite_services(query: str, services: Mapping[str, str],
                     endpoints: Mapping[str, str] | None = None, where: str = "the embedded store") -> str:
    """Map every SERVICE target; refuse the query when one is not mapped.

    ``services`` maps a service IRI to the local graph that answers it
    (``SERVICE <iri>`` → ``GRAPH <graph>``); ``endpoints`` maps a service IRI
    to the endpoint URL the remote engine should call (``SERVICE <url>``).
    Comments are removed first, so the text checked is the text sent. A
    SERVICE whose target is a variable, an unknown prefix or an IRI in
    neither map, or text that may read as SERVICE inside a string or IRI,
    raises :class:`~nl2sparql.errors.UnmappedService` (``where`` names the KB).
    """
    endpoints = endpoints or {}
    query = strip_comments(query)
    tokens = tokenize(query)
    known = sorted({*services, *endpoints})
    listed = ", ".join(known) or "none"
    if hidden_services(query, tokens):
        raise UnmappedService(
            "the query has text that may read as a SERVICE clause inside a string, IRI or name, so its "
            f"service targets cannot be checked; remove it (allowed services on {where}: {listed})")
    if not any(t.kind == "word" and t.upper == "SERVICE" for t in tokens):
        return query
    prefixes = {**PREFIXES, **declared_prefixes(query)}
    edits: list[tuple[int, int, str]] = []
    for i, j in _service_targets(tokens):
        tok, target = tokens[i], tokens[j]
        iri = service_iri(tokens, j, prefixes)
        if iri is None:
            raise UnmappedService(
                f"SERVICE {target.text} is refused on {where}: name the service by its IRI "
                f"(allowed: {listed}; map others with --service IRI=URL or NL2SPARQL_SERVICES)")
        if iri in services:
            edits.append((tok.start, target.start + len(target.text), f"GRAPH <{services[iri]}>"))
            edits.extend(_hoist_edits(query, tokens, j + 1))
        elif iri in endpoints:
            edits.append((tok.start, target.start + len(target.text), f"SERVICE <{endpoints[iri]}>"))
        else:
            raise UnmappedService(
                f"SERVICE <{iri}> is not available on {where}: it is not in the service map (allowed: {listed}); "
                "map it with --service IRI=URL or IRI=graph, or NL2SPARQL_SERVICES")
    return apply_edits(query, edits)


def hoist_service_filters(query: str) -> str:
    """Move each FILTER out of a simple ``SERVICE`` block to just after the block.

    Oxigraph plans a group holding a FILTER as one opaque unit, so a filtered
    block inside a GRAPH is joined by hash join after everything else; with
    the FILTER outside, the block's triples join the main group's plan and
    start from its most selective element (20 s → 6 ms on the CompL-it joins
    of the mirror). The answer is the same: a block is *simple* when it holds
    only triples, VALUES, BIND and FILTER, and a FILTER is moved only when
    every variable it reads is bound by the block's own triples or VALUES.
    """
    tokens = tokenize(query)
    return apply_edits(query, [e for _, j in _service_targets(tokens) for e in _hoist_edits(query, tokens, j + 1)])


def lateral_optionals(query: str) -> str:
    """``OPTIONAL { … }`` → ``LATERAL { OPTIONAL { … } }``: the same answers, evaluated once per solution.

    Oxigraph evaluates the right side of an OPTIONAL on its own and joins it by hash, so a facet such as
    "with their Parmigiano translation" reads every translation in the KB (0.2–1 s on the mirror); as
    LATERAL it is looked up for each lemma already found (a few ms). LATERAL (SEP-0006) is Oxigraph's,
    so only the embedded store applies this, to the text it runs; answers are those of the OPTIONAL, whose
    left side is the same group's preceding patterns in both readings.
    """
    if "OPTIONAL" not in query.upper():
        return query
    tokens = tokenize(query)
    inserts: dict[int, str] = {}
    for i, tok in enumerate(tokens[:-1]):
        if tok.kind == "word" and tok.upper == "OPTIONAL" and tokens[i + 1].text == "{":
            end = closing(tokens, i + 1)
            if end is None:
                return query  # unbalanced: the engine reports the syntax error on the original text
            inserts[tok.start] = inserts.get(tok.start, "") + "LATERAL { "
            after = tokens[end].start + 1
            inserts[after] = " }" + inserts.get(after, "")
    for at in sorted(inserts, reverse=True):
        query = query[:at] + inserts[at] + query[at:]
    return query


def lateral_minus(query: str) -> str:
    """``MINUS { P }`` → ``LATERAL { OPTIONAL { P } FILTER(!BOUND(?w)) }`` where that gives the same answers.

    Oxigraph evaluates the right side of a MINUS on its own (every lemma with a Sicilian translation, with
    an emotion, …) and subtracts it by hash: 0.1–0.2 s on the mirror even when the left side holds one
    lemma. As LATERAL, ``P`` is looked up for each solution already found (under a millisecond), and the
    solution is dropped when it matches (``?w``, a variable of ``P`` only, is then bound). ``FILTER NOT
    EXISTS`` would read the same but Oxigraph evaluates it without the solution's bindings (seconds).

    The answers are those of the MINUS when (checked on tokens; otherwise the MINUS is left as written):
    ``P`` is a plain block of triples (no FILTER, BIND, VALUES or nested group); each of its variables is
    either bound by a triple written earlier at the top level of the same group (so bound in every
    solution MINUS compares) or used nowhere else in the query (so never bound on the left, and unseen
    wherever the LATERAL puts it in scope); at least one is of each kind (MINUS with no shared variable
    removes nothing); and no ``SELECT *`` or ``DESCRIBE *`` would list the new in-scope variables.
    """
    if "MINUS" not in query.upper():
        return query
    tokens = tokenize(query)
    if any(t.text == "*" and _star_projection(tokens, k) for k, t in enumerate(tokens)):
        return query
    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(tokens[:-1]):
        if tok.kind != "word" or tok.upper != "MINUS" or tokens[i + 1].text != "{":
            continue
        end = closing(tokens, i + 1)
        group = enclosing(tokens, i)
        if end is None or group is None:
            return query  # unbalanced: the engine reports the syntax error on the original text
        witness = _minus_witness(tokens, group, i, end)
        if witness is not None:
            edits.append((tok.start, tok.start + len(tok.text), "LATERAL { OPTIONAL"))
            after = tokens[end].start + 1
            edits.append((after, after, f" FILTER(!BOUND({witness})) }}"))
    return apply_edits(query, edits)


_PLAIN_TRIPLE_OPS = {".", ";", ",", "[", "]", "(", ")", "^^", "/", "|", "^", "*", "+", "?", "!"}


def _minus_witness(tokens, group: int, minus: int, end: int) -> str | None:
    """The variable that marks a match of the MINUS block ``tokens[minus + 1:end + 1]``, or None if unsafe."""
    body = tokens[minus + 2:end]
    for t in body:
        plain = (t.kind in ("var", "iri", "pname", "string", "number", "langtag")
                 or (t.kind == "op" and t.text in _PLAIN_TRIPLE_OPS)
                 or (t.kind == "word" and t.text in ("a", "true", "false")))
        if not plain:
            return None
    names = {t.text[1:]: t.text for t in body if t.kind == "var"}
    elsewhere = {t.text[1:] for k, t in enumerate(tokens) if t.kind == "var" and not minus + 1 < k < end}
    bound = _triple_variables(tokens, group + 1, minus)
    if not all(n in bound or n not in elsewhere for n in names):
        return None
    private = [n for n in names if n not in elsewhere]
    if not private or len(private) == len(names):
        return None
    return names[private[0]]


def _triple_variables(tokens, start: int, stop: int) -> set[str]:
    """Variables of the triples written at the top level of ``tokens[start:stop]`` (not in nested blocks,
    expressions, VALUES or a GRAPH/SERVICE name): bound in every solution of that part of a group."""
    found: set[str] = set()
    k = start
    while k < stop:
        tok = tokens[k]
        if tok.text in ("{", "("):
            k = (closing(tokens, k) or stop) + 1
            continue
        if tok.kind == "word" and tok.upper == "VALUES":
            k = next((m for m in range(k, stop) if tokens[m].text == "{"), stop)
            continue
        if tok.kind == "word" and tok.upper in ("GRAPH", "SERVICE"):
            k += 2
            continue
        if tok.kind == "var":
            found.add(tok.text[1:])
        k += 1
    return found


def _star_projection(tokens, k: int) -> bool:
    """True when the ``*`` at ``tokens[k]`` is ``SELECT *`` (DISTINCT/REDUCED allowed) or ``DESCRIBE *``."""
    before = [t.upper for t in tokens[max(0, k - 2):k]]
    return bool(before) and (before[-1] in ("SELECT", "DESCRIBE")
                             or before[-1] in ("DISTINCT", "REDUCED") and before[:1] == ["SELECT"])


def _service_targets(tokens):
    """``(index of SERVICE, index of its IRI or variable)`` for each SERVICE keyword (SILENT skipped)."""
    for i, tok in enumerate(tokens):
        if tok.upper != "SERVICE" or tok.kind != "word":
            continue
        j = i + 2 if i + 1 < len(tokens) and tokens[i + 1].upper == "SILENT" else i + 1
        yield i, min(j, len(tokens) - 1)


def _hoist_edits(query: str, tokens, brace: int) -> list[tuple[int, int, str]]:
    """Edits that move the FILTERs of the block opening at ``tokens[brace]`` after it (none if unsafe)."""
    if brace >= len(tokens) or tokens[brace].text != "{":
        return []
    end = closing(tokens, brace)
    if end is None:
        return []
    filters: list[tuple[int, int]] = []
    bound: set[str] = set()
    ends = {brace}  # tokens after which the next element needs no "." (block starts, FILTER/BIND/VALUES ends)
    k = brace + 1
    while k < end:
        tok = tokens[k]
        if tok.upper == "FILTER":
            call = k + 1 if tokens[k + 1].text == "(" else k + 2
            if call >= end or tokens[call].text != "(":
                return []
            close = closing(tokens, call)
            if close is None or close >= end:
                return []
            filters.append((k, close))
            ends.add(close)
            k = close + 1
            continue
        if tok.upper == "VALUES":
            block = next((m for m in range(k + 1, end) if tokens[m].text == "{"), None)
            if block is None:
                return []
            close = closing(tokens, block)
            if close is None:
                return []
            bound.update(t.text[1:] for t in tokens[k + 1:block] if t.kind == "var")
            ends.add(close)
            k = close + 1
            continue
        if tok.text == "{" or tok.upper in ("OPTIONAL", "UNION", "MINUS", "GRAPH", "SERVICE", "SELECT", "EXISTS"):
            return []  # not a simple block: leave it as written
        if tok.upper == "BIND":
            close = closing(tokens, k + 1)
            if close is None:
                return []
            ends.add(close)
            k = close + 1
            continue
        if tok.text == ".":
            ends.add(k)
        if tok.kind == "var":
            bound.add(tok.text[1:])
        k += 1
    edits = []
    for first, last in filters:
        used = {t.text[1:] for t in tokens[first:last + 1] if t.kind == "var"}
        if not used <= bound:
            continue
        start, stop = tokens[first].start, tokens[last].start + 1
        dot = tokens[last + 1] if last + 1 < end and tokens[last + 1].text == "." else None
        if first - 1 in ends:
            edits.append((start, dot.start + 1 if dot else stop, ""))  # "FILTER(…) ." is allowed: the dot goes too
        else:
            # the FILTER also ended the triples before it ("?s ?p ?o FILTER(…) ?s ?q ?x"): keep them apart
            edits.append((start, stop, "" if dot else "."))
        edits.append((tokens[end].start + 1, tokens[end].start + 1, " " + query[start:stop]))
    return edits
