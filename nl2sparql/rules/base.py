"""What a LiITA rule is: written once, it drives the validator, the safe fixes and the LLM prompts.

A :class:`Rule` has an ``id`` (the name its issues carry), the ``prose`` LLM
prompts give, a ``check`` that reads a query and yields a :class:`Breach` per
violation, optionally a ``fix`` that rewrites the query text safely, and a
``broken`` query that breaks it (the tests check every rule against its own).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from ..namespaces import PREFIXES
from .query import Parsed


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


@dataclass
class Breach:
    """What a check found: the message, the fix it suggests, and a severity when not the rule's usual one."""

    message: str
    fix: str | None = None
    severity: str | None = None


#: A rule's check: the query text and what :func:`~.query.parse` read from it → its breaches.
Check = Callable[[str, Parsed], Iterable[Breach]]
#: A safe fix: query text → (fixed text, one line per fix applied).
Fix = Callable[[str], tuple[str, list[str]]]


@dataclass(frozen=True)
class Rule:
    """One LiITA rule (see the module docstring).

    ``severity`` is the usual severity of its issues (a breach may set another).
    """

    id: str
    severity: str
    prose: str
    check: Check
    broken: str
    fix: Fix | None = None

    def issues(self, query: str, parsed: Parsed) -> list[Issue]:
        """The issues ``query`` raises under this rule."""
        return [Issue(self.id, b.severity or self.severity, b.message, b.fix) for b in self.check(query, parsed)]


def short(iri: str) -> str:
    """``prefix:local`` for an IRI in a standard namespace, else ``<iri>``."""
    for name, ns in PREFIXES.items():
        if iri.startswith(ns):
            return f"{name}:{iri[len(ns):]}"
    return f"<{iri}>"
