"""Token-level query rewrites that run before a query reaches a store.

* :func:`complete_prefixes` adds the standard LiITA ``PREFIX`` lines a query
  uses but forgot to declare (a common mistake; every fix is reported).
* :func:`rewrite_services` turns ``SERVICE <iri> { … }`` into ``GRAPH <g> { … }``
  for services the embedded store answers from a local graph, and refuses the
  others with a clear error.

Both work on tokens (see :mod:`nl2sparql.sparql.lexer`), so text inside string
literals, IRIs and comments is never touched.
"""

from __future__ import annotations

from ..errors import UnmappedService
from ..namespaces import PREFIXES
from .lexer import declared_prefixes, tokenize, used_prefixes


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


def rewrite_services(query: str, services: dict[str, str]) -> str:
    """Replace ``SERVICE [SILENT] <iri>`` by ``GRAPH <services[iri]>``.

    ``services`` maps a service endpoint IRI to the local graph that answers it.
    A SERVICE whose IRI is not mapped (or is a variable) raises
    :class:`~nl2sparql.errors.UnmappedService`.
    """
    tokens = tokenize(query)
    if not any(t.upper == "SERVICE" for t in tokens):
        return query
    prefixes = {**PREFIXES, **declared_prefixes(query)}
    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(tokens):
        if tok.upper != "SERVICE" or tok.kind != "word":
            continue
        j = i + 1
        if j < len(tokens) and tokens[j].upper == "SILENT":
            j += 1
        if j >= len(tokens):
            break
        target = tokens[j]
        if target.kind == "iri":
            iri = target.text[1:-1]
        elif target.kind == "pname":
            prefix, _, local = target.text.partition(":")
            iri = prefixes.get(prefix, "") + local
        else:
            raise UnmappedService(
                f"SERVICE {target.text} is not supported by the embedded store: name the service IRI "
                f"(mapped: {', '.join(sorted(services)) or 'none'})")
        graph = services.get(iri)
        if graph is None:
            raise UnmappedService(
                f"SERVICE <{iri}> is not available on the embedded store (mapped services: "
                f"{', '.join(sorted(services)) or 'none'}); query a real endpoint with --endpoint")
        edits.append((tok.start, target.start + len(target.text), f"GRAPH <{graph}>"))
    for start, end, text in reversed(edits):
        query = query[:start] + text + query[end:]
    return query
