"""The one registry of LiITA rules: the general ones, every pattern's own, and the multi-entry rule.

The validator runs every rule's check, :func:`~nl2sparql.translate.validate.repair`
applies every rule's safe fix, and both LLM prompts list every rule's prose,
all from :data:`RULES`. A pattern adds a rule by listing it in its ``rules``;
the multi-entry rule is built from what the patterns declare as their
resource's entry properties.
"""

from __future__ import annotations

from ..namespaces import expand
from ..rules import GENERAL, Rule, entry_reuse
from .catalogue import CATALOGUE


def _families() -> dict[str, str]:
    """Entry property IRI → the resource whose entries carry it (from the patterns' declarations)."""
    out: dict[str, str] = {}
    for pattern in CATALOGUE.values():
        for prop in pattern.entry_properties:
            out.setdefault(expand(prop), pattern.resource)
    return out


def _registry() -> tuple[Rule, ...]:
    rules = [*GENERAL, entry_reuse(_families())]
    rules += [rule for pattern in CATALOGUE.values() for rule in pattern.rules]
    ids = [r.id for r in rules]
    if len(set(ids)) != len(ids):
        raise ImportError(f"two LiITA rules share an id: {sorted(ids)}")
    return tuple(rules)


RULES: tuple[Rule, ...] = _registry()
BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}


def prose() -> list[str]:
    """Every rule's prose, in registry order (what both LLM prompts list)."""
    return [rule.prose for rule in RULES]
