"""Validation and repair of any LiITA query (user-written, LLM-written or generated).

:func:`validate` returns :class:`Issue` objects, one per broken rule:

========================  ========  ==========================================================
rule                      severity  what it catches (``../shared/liita/SCHEMA.md``)
========================  ========  ==========================================================
``syntax``                error     the query does not parse
``missing_prefix``        warning   a standard prefix is used but not declared (fixed)
``unknown_prefix``        error     a prefix or IRI that is not the exact LiITA namespace
``graph_iri``             error     ``GRAPH <http://w3id.org/elita/>`` (the graph has no slash; fixed)
``service_missing``       error     CompL-it data (senses, definitions, relations) outside SERVICE
``service_scope``         error     LiITA data (lemmas, emotions, translations…) inside SERVICE
``entry_reuse``           error     one entry variable used for two resources (multi-entry rule)
``iri_literal``           error     a variable used both as an IRI and as a literal
``translation_direction`` error     ``vartrans:translatableAs`` from a dialect entry to an Italian one
``limit_order``           warning   LIMIT without ORDER BY (an arbitrary subset)
``plain_literal``         error     ``ontolex:writtenRep "casa"``: written forms carry language tags
``string_compare``        error     ``?wr = "casa"`` on a language-tagged value (fixed: ``STR(?wr)``)
``case_sensitive``        warning   labels/definitions compared case-sensitively (fixed: ``LCASE``)
``execution``             error     the query fails on the KB (with ``kb``)
``empty_result``          warning   the query returns nothing (with ``kb``), with hints
========================  ========  ==========================================================

:func:`repair` applies the safe fixes (missing prefixes, wrong standard
prefix IRIs, the ELITA graph IRI, ``STR()`` around tagged values, ``LCASE``
for label and definition matching, plain written-form literals) and reports
each one; a fix that would make the query unparsable is not applied.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..errors import Nl2SparqlError, QueryError, QuerySyntaxError
from ..sparql.lexer import has_limit, has_order_by
from ..sparql.dialect import normalise_dialect
from ..sparql.rewrite import complete_prefixes, missing_prefixes
from ..sparql.syntax import check_nesting, check_syntax
from . import fixes, rules
from .triples import parse


@dataclass
class Issue:
    """One broken rule: ``severity`` is ``error`` or ``warning``; ``fix`` describes the automatic fix, if any."""

    rule: str
    severity: str
    message: str
    fix: str | None = None

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.severity}: [{self.rule}] {self.message}" + (f" (fix: {self.fix})" if self.fix else "")


def validate(query: str, kb=None, *, execute: bool = True) -> list[Issue]:
    """Every rule ``query`` breaks; with ``kb`` (and ``execute``) it is also run there."""
    if not isinstance(query, str) or not query.strip():
        return [Issue("syntax", "error", "the query is empty")]
    issues: list[Issue] = []
    try:
        check_syntax(query)
    except QuerySyntaxError as exc:
        dialect = normalise_dialect(query)[1]
        issues.append(Issue("syntax", "error", str(exc), "; ".join(dialect) if dialect else None))
    except QueryError as exc:  # nested too deeply, or the parser's deadline: no rule can read it either
        return [Issue("syntax", "error", str(exc))]
    for name in missing_prefixes(query):
        issues.append(Issue("missing_prefix", "warning", f"prefix {name}: is used but not declared",
                            f"add PREFIX {name}: <{rules.PREFIXES[name]}>"))
    parsed = parse(query)
    issues += rules.prefix_issues(query, parsed)
    issues += rules.graph_issues(parsed)
    issues += rules.service_issues(parsed)
    issues += rules.entry_reuse_issues(parsed)
    issues += rules.iri_literal_issues(parsed)
    issues += rules.direction_issues(parsed)
    issues += rules.string_issues(parsed)
    if has_limit(query) and not has_order_by(query):
        issues.append(Issue("limit_order", "warning",
                            "LIMIT without ORDER BY returns an arbitrary subset; add ORDER BY on the shown columns"))
    if kb is not None and execute and not any(i.rule == "syntax" for i in issues):
        issues += execution_issues(query, kb, parsed)
    return issues


def execution_issues(query: str, kb, parsed=None) -> list[Issue]:
    """Run ``query`` on ``kb``: an error is an issue, an empty answer a warning with hints."""
    try:
        table = kb.execute(query)
    except Nl2SparqlError as exc:
        return [Issue("execution", "error", f"the query failed on {getattr(kb, 'description', 'the KB')}: {exc}")]
    if table.form == "ask" or table.rows:
        return []
    hints = rules.empty_hints(parsed or parse(query), kb)
    message = "the query returns no rows" + (": " + "; ".join(hints) if hints else "")
    return [Issue("empty_result", "warning", message)]


def repair(query: str) -> tuple[str, list[str]]:
    """The query with every safe fix applied, and one line per fix applied (none for a query nested too deeply)."""
    try:
        check_nesting(query)
    except QueryError:
        return query, []
    done_all: list[str] = []
    text = query
    for step in (normalise_dialect, fixes.fix_prefix_iris, fixes.fix_graph_iris, fixes.fix_plain_literals,
                 fixes.fix_string_compare, fixes.fix_case):
        candidate, done = step(text)
        if done and (_parses(candidate) or not _parses(text)):
            text = candidate
            done_all += done
    completed, added = complete_prefixes(text)
    if added:
        text = completed
        done_all += [f"added PREFIX {name}: <{rules.PREFIXES[name]}>" for name in added]
    return text, done_all


def _parses(query: str) -> bool:
    try:
        check_syntax(query)
    except QueryError:
        return False
    return True


def is_blocking(issues: list[Issue]) -> bool:
    """True when any issue is an error."""
    return any(i.severity == "error" for i in issues)


__all__ = ["Issue", "validate", "repair", "execution_issues", "is_blocking"]
