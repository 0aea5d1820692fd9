"""Getting usable content out of model answers, and refusing garbage.

- :func:`extract_sparql` finds the query in an answer (a ```sparql fence, any
  fence holding a query, or a query written inline among prose) and returns
  None when there is nothing query-like or the query is cut off;
  :func:`why_no_sparql` says which.
- :func:`parse_json_verdict` extracts one strict JSON object (a judge's
  verdict) and raises :class:`LLMFormatError` when it is malformed or truncated.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from ..sparql.lexer import FORM_KEYWORDS, query_form, tokenize
from .errors import LLMFormatError

_FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_START_RE = re.compile(r"^[ \t]*(PREFIX|BASE|SELECT|ASK|CONSTRUCT|DESCRIBE)\b", re.IGNORECASE | re.MULTILINE)
_TAIL_RE = re.compile(r"^\s*(GROUP\s+BY|ORDER\s+BY|HAVING|LIMIT|OFFSET|VALUES|[})\]]|#)", re.IGNORECASE)


def extract_sparql(text: str | None) -> str | None:
    """The SPARQL query in a model answer, or None if there is none (or it is truncated).

    Looks, in order, at fenced blocks tagged ``sparql``, other fenced blocks,
    then the raw text from the first line starting with PREFIX/BASE/SELECT/
    ASK/CONSTRUCT/DESCRIBE (prose after the query is dropped). A candidate
    counts only if its form is a query form and its braces balance outside
    strings, IRIs and comments, so a cut-off answer yields None.
    """
    if not text or not text.strip():
        return None
    for candidate in _candidates(text):
        query = candidate.strip()
        if _looks_like_query(query):
            return query
    return None


def why_no_sparql(text: str | None) -> str:
    """Why :func:`extract_sparql` finds no query in ``text``: the reason a caller shows when it falls back."""
    if not text or not text.strip():
        return "the answer is empty"
    if any(query_form(c.strip()) == "update" for c in [*_candidates(text), text]):
        return "the answer is SPARQL Update, which is refused (the knowledge base is read-only)"
    return "the answer contains no complete SPARQL query"


def _candidates(text: str) -> list[str]:
    """Where a query may be: ```sparql fences, other fences, else the text from its first query line."""
    fences = [(lang.lower(), body) for lang, body in _FENCE_RE.findall(text)]
    candidates = [body for lang, body in fences if lang == "sparql"]
    candidates += [body for lang, body in fences if lang != "sparql"]
    if not fences:
        match = _START_RE.search(text)
        if match:
            candidates.append(_cut_prose(text[match.start():]))
    return candidates


def _cut_prose(text: str) -> str:
    """Keep the query lines of ``text`` and drop the explanation that follows the query."""
    kept: list[str] = []
    depth = 0
    opened = False
    for line in text.splitlines():
        if opened and depth == 0 and line.strip() and not _TAIL_RE.match(line):
            break
        kept.append(line)
        for tok in tokenize(line):
            if tok.text == "{":
                depth += 1
                opened = True
            elif tok.text == "}":
                depth -= 1
    return "\n".join(kept)


def _looks_like_query(query: str) -> bool:
    """True when ``query`` has a query form and balanced braces (DESCRIBE may have none)."""
    if not query or query_form(query) not in {k.lower() for k in FORM_KEYWORDS}:
        return False
    depth = 0
    opened = False
    for tok in tokenize(query):
        if tok.kind == "other" and tok.text in "\"'":
            return False  # an unterminated string literal: the answer was cut off
        if tok.text == "{":
            depth += 1
            opened = True
        elif tok.text == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and (opened or query_form(query) == "describe")


def parse_json_verdict(text: str | None, required: Iterable[str] = ()) -> dict[str, Any]:
    """The first JSON object in ``text`` (a ```json fence or inline), parsed strictly.

    Prose before or after the object is ignored, but the object itself must be
    strict JSON. Raises :class:`LLMFormatError` when there is no object, it is
    malformed or truncated, or a key of ``required`` is missing.
    """
    if not text or not text.strip():
        raise LLMFormatError("the model gave an empty answer where a JSON object was expected")
    start = text.find("{")
    if start < 0:
        raise LLMFormatError(f"no JSON object in the model answer: {_snippet(text)}")
    try:
        value, _ = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise LLMFormatError(f"malformed or truncated JSON in the model answer ({exc.msg} at char {exc.pos}): "
                             f"{_snippet(text[start:])}")
    if not isinstance(value, dict):  # pragma: no cover - raw_decode from '{' always gives a dict
        raise LLMFormatError(f"expected a JSON object in the model answer: {_snippet(text)}")
    missing = [key for key in required if key not in value]
    if missing:
        raise LLMFormatError(f"JSON verdict lacks {', '.join(repr(k) for k in missing)}: {_snippet(text[start:])}")
    return value


def _snippet(text: str, limit: int = 80) -> str:
    """A one-line excerpt of ``text`` for error messages."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit] + "...")
