"""Value checks shared by every way in: a bad number is one clear :class:`~nl2sparql.errors.ConfigError` line.

The KB limits, the generation settings and the CLI's own options use these,
so the CLI, the API, the MCP server and the web UI refuse the same values
with the same words.
"""

from __future__ import annotations

import math
import re

from .errors import ConfigError, DataError

#: The longest time budget accepted for one query (a day); larger values are typos.
MAX_TIMEOUT = 86_400.0
#: The largest row cap accepted.
MAX_ROWS = 10_000_000


def check_timeout(value, what: str = "--timeout") -> float:
    """``value`` as seconds when it is a finite number in (0, :data:`MAX_TIMEOUT`]; :class:`ConfigError` otherwise."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{what} must be a number of seconds, got {value!r}") from None
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT:
        raise ConfigError(f"{what} must be more than 0 and at most {MAX_TIMEOUT:g} seconds, got {value!r}")
    return seconds


def check_count(value, what: str, low: int = 1, high: int = MAX_ROWS) -> int:
    """``value`` as an int in [low, high]; :class:`ConfigError` naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or (isinstance(value, float) and not value.is_integer()):
        raise ConfigError(f"{what} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{what} must be between {low:,} and {high:,}, got {value!r}")
    return int(value)


#: The longest question (or search text) accepted, in characters: a long paragraph. Every way in refuses a
#: longer one with the same line, before any reader runs.
MAX_QUESTION = 2_000


def check_question(question, what: str = "question") -> str:
    """``question`` when it is a non-blank string of at most :data:`MAX_QUESTION` characters; one clear
    :class:`~nl2sparql.errors.DataError` line otherwise."""
    if not isinstance(question, str) or not question.strip():
        raise DataError(f"the {what} is empty: ask something about LiITA in Italian or English")
    return check_length(question, what)


def check_length(text: str, what: str) -> str:
    """``text`` when it is at most :data:`MAX_QUESTION` characters of text (see :func:`check_text`)."""
    if len(text) > MAX_QUESTION:
        raise DataError(f"the {what} is {len(text):,} characters long: ask in at most {MAX_QUESTION:,} characters")
    return check_text(text, what)


#: A UTF-16 surrogate code point: never a character of text (it comes from broken JSON or undecodable bytes).
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, what: str) -> str:
    """``text`` unless it holds a lone surrogate, which no encoder, tokenizer or engine accepts; one clear
    :class:`~nl2sparql.errors.DataError` line then."""
    found = _SURROGATE.search(text)
    if found:
        raise DataError(f"the {what} holds U+{ord(found.group()):04X} at character {found.start() + 1}, a lone "
                        "surrogate that is not text: send it as UTF-8")
    return text
