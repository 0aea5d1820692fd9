"""Validation and repair of any LiITA query (user-written, LLM-written or generated).

:func:`validate` runs the check of every rule in the one registry
(:data:`nl2sparql.patterns.RULES`: the general rules of :mod:`nl2sparql.rules`
and the patterns' own) and returns an :class:`Issue` per breach; with a KB it
also runs the query (``execution`` when it fails, ``empty_result`` with hints
when it returns nothing). :func:`repair` applies every rule's safe fix and
reports each one; a fix that would make a parsing query unparsable is not
applied.
"""

from __future__ import annotations

from ..errors import Nl2SparqlError, QueryError
from ..patterns import RULES
from ..rules import Issue, parse
from ..rules.hints import empty_hints
from ..sparql.syntax import check_nesting, parses


def validate(query: str, kb=None, *, execute: bool = True) -> list[Issue]:
    """Every rule ``query`` breaks; with ``kb`` (and ``execute``) it is also run there."""
    if not isinstance(query, str) or not query.strip():
        return [Issue("syntax", "error", "the query is empty")]
    try:
        check_nesting(query)
    except QueryError as exc:  # nested too deeply: no rule can read it either
        return [Issue("syntax", "error", str(exc))]
    parsed = parse(query)
    issues = [issue for rule in RULES for issue in rule.issues(query, parsed)]
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
    hints = empty_hints(parsed or parse(query), kb)
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
    for rule in RULES:
        if rule.fix is None:
            continue
        candidate, done = rule.fix(text)
        if done and (parses(candidate) or not parses(text)):
            text = candidate
            done_all += done
    return text, done_all


def is_blocking(issues: list[Issue]) -> bool:
    """True when any issue is an error."""
    return any(i.severity == "error" for i in issues)


__all__ = ["Issue", "validate", "repair", "execution_issues", "is_blocking"]
