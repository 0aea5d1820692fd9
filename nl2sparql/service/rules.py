"""The LiITA rules as data: constraints, schema facts, the pattern catalogue, and two focused checks.

These are what an LLM client needs before it writes a query (the rules and
prefixes, the graphs, one example per pattern) and two narrow tools it may
call afterwards (:func:`fix_case`, :func:`check_variable_reuse`). The rules
themselves live in the one registry (:data:`nl2sparql.patterns.RULES`), the
patterns in their modules and the IRIs in :mod:`nl2sparql.namespaces`; this
module only reads them.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import DataError
from .query import _issues, _need_query
from .types import FixResult, ValidationResult

#: Validator rules that :func:`check_variable_reuse` reports.
REUSE_RULES = ("syntax", "entry_reuse", "iri_literal")


def _labels(patterns: Sequence[str] | str | None) -> list[str]:
    """Pattern labels in catalogue order; an unknown label is a :class:`DataError` naming the known ones."""
    from ..patterns import LABELS

    if not patterns:
        return []
    if isinstance(patterns, str):
        patterns = [patterns]
    wanted = [p.strip().upper() for value in patterns for p in str(value).split(",") if p.strip()]
    unknown = [p for p in wanted if p not in LABELS]
    if unknown:
        raise DataError(f"unknown pattern label(s) {', '.join(unknown)}; known: {', '.join(LABELS)}")
    return [label for label in LABELS if label in wanted]


def constraints(patterns: Sequence[str] | str | None = None) -> dict:
    """The rules a LiITA query must keep: exact prefixes, base rules, and the rules of ``patterns``.

    ``patterns`` are catalogue labels (``EMOTION_LEXICON``, ``TRANSLATION``, …;
    a list or a comma-separated string). The result also holds the whole
    constraint prompt the LLM translator uses (``system_prompt``).
    """
    from ..namespaces import PREFIXES, prologue
    from ..patterns.guide import pattern_guide, rules_text
    from ..translate.prompts import system_prompt

    labels = _labels(patterns)
    return {"patterns": labels, "prefixes": dict(PREFIXES), "prologue": prologue(), "rules": rules_text(),
            "pattern_guides": pattern_guide(labels), "system_prompt": system_prompt(labels)}


def schema() -> dict:
    """LiITA's layout: prefixes, graphs, the CompL-it SERVICE, lemma banks, emotions, and the rules."""
    from .. import namespaces as ns
    from ..patterns import RULES

    return {
        "prefixes": dict(ns.PREFIXES),
        "graphs": {"lemma_bank": ns.LIITA_GRAPH, "elita": ns.ELITA_GRAPH, "sentix": ns.SENTIX_GRAPH,
                   "parmigiano": ns.PARMIGIANO_GRAPH, "siciliano": ns.SICILIANO_GRAPH,
                   "complit_links": ns.COMPLIT_LINKS_GRAPH},
        "services": {"complit": ns.COMPLIT_SERVICE},
        "lemma_banks": {"italian": ns.LEMMA_BANK, "parmigiano": ns.PARMIGIANO_LEMMA_BANK,
                        "siciliano": ns.SICILIANO_LEMMA_BANK},
        "emotions": list(ns.EMOTIONS),
        "rules": [{"id": rule.id, "severity": rule.severity, "rule": rule.prose, "safe_fix": rule.fix is not None}
                  for rule in RULES],
    }


def pattern_catalogue() -> list[dict]:
    """Every pattern of the catalogue: label, what it does, its guidance, its block, and one shipped example.

    The example is the first shipped pool item whose heaviest pattern is the
    label, else the pattern's canonical block (``None`` when it has neither).
    """
    from ..fileio import read_pool
    from ..patterns import CATALOGUE
    from ..patterns.guide import canonical_block
    from .pools import shipped_pools

    examples: dict[str, dict] = {}
    for path in shipped_pools().values():
        for item in read_pool(path)[0]:
            weights = item.get("patterns") or {}
            if isinstance(weights, dict) and weights and item.get("sparql"):
                top = max(weights, key=lambda k: weights[k])
                examples.setdefault(top, {"id": str(item.get("id", "")), "question": item.get("nl") or "",
                                          "question_en": item.get("nl_en") or "", "sparql": item["sparql"]})
    out = []
    for label, pattern in CATALOGUE.items():
        doc = (type(pattern).__doc__ or "").strip().splitlines()
        block = canonical_block(label)
        example = examples.get(label) or (block and {"id": None, "question": "", "question_en": "", "sparql": block,
                                                     "source": "the pattern's canonical block (no shipped item yet)"})
        out.append({"label": label, "description": doc[0] if doc else "", "guidance": pattern.guidance,
                    "rules": [rule.prose for rule in pattern.rules], "canonical_block": block, "example": example})
    return out


def fix_case(query: str) -> FixResult:
    """Make label comparisons case-insensitive (``LCASE(STR(?label))``, REGEX ``"i"``), and list each change.

    Emotion and polarity labels are capitalised in the data and POS labels are
    lower case: a comparison with another case matches nothing.
    """
    from ..patterns.rules import BY_ID
    from ..translate.validate import validate as run_rules

    _need_query(query)
    before = run_rules(query, None, execute=False)
    fixed, fixes = BY_ID["case_sensitive"].fix(query)
    after = run_rules(fixed, None, execute=False) if fixes else before
    if _syntax(after) and not _syntax(before):
        fixed, fixes, after = query, [], before  # never turn a parsable query into an unparsable one
    before, after = ([i for i in found if i.rule == "case_sensitive"] for found in (before, after))
    return FixResult(query, fixed, fixes, _issues(before), _issues(after))


def _syntax(issues) -> bool:
    return any(i.rule == "syntax" for i in issues)


def check_variable_reuse(query: str) -> ValidationResult:
    """Variables used for two things: one entry variable for two resources (ELITA, Sentix, a glossary,
    CompL-it, the forms), or one variable both as an IRI and as a literal. ``ok`` when there is none."""
    from ..translate.validate import is_blocking, validate as run_rules

    _need_query(query)
    found = [i for i in run_rules(query, None, execute=False) if i.rule in REUSE_RULES]
    return ValidationResult(query, not is_blocking(found), _issues(found), executed=False)
