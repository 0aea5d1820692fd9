"""LiITA rules: what a query must keep, each written once (id, prose for LLMs, check, safe fix).

This package holds the machinery (:class:`Rule`, :class:`Issue`, the query
reader of :mod:`.query`) and the rules that are not about one pattern, in the
order prompts list them. Patterns declare their own rules in their modules;
:data:`nl2sparql.patterns.RULES` is the one registry of all of them, which the
validator, the fixes and both LLM prompts read.
"""

from __future__ import annotations

from .base import Breach, Issue, Rule, short
from .entries import entry_reuse
from .form import LIMIT_ORDER, MISSING_PREFIX, SYNTAX, UNKNOWN_PREFIX
from .query import Parsed, parse
from .service import SERVICE_MISSING, SERVICE_SCOPE
from .values import CASE_SENSITIVE, IRI_LITERAL, PLAIN_LITERAL, STRING_COMPARE

#: The rules that hold for every query, in the order the prompts give them.
GENERAL: tuple[Rule, ...] = (SYNTAX, UNKNOWN_PREFIX, PLAIN_LITERAL, STRING_COMPARE, SERVICE_MISSING, SERVICE_SCOPE,
                             IRI_LITERAL, CASE_SENSITIVE, LIMIT_ORDER, MISSING_PREFIX)

__all__ = ["Breach", "GENERAL", "Issue", "Parsed", "Rule", "entry_reuse", "parse", "short"]
