"""Errors of the LLM client, reported to the user as one clear line.

Configuration problems are :class:`nl2sparql.errors.ConfigError`; what goes
wrong once a request is under way is an :class:`LLMError`, and an answer that
cannot be used (malformed or truncated JSON, no query in it) is an
:class:`LLMFormatError`.
"""

from __future__ import annotations

from ..errors import Nl2SparqlError


class LLMError(Nl2SparqlError):
    """An LLM request failed for good (after the retries) or was refused by the server.

    ``status`` is the HTTP status of the last answer (None for connection
    errors and timeouts) and ``attempts`` the number of requests made.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class LLMFormatError(LLMError):
    """The model answered, but not in the expected shape (bad or truncated JSON, no query)."""
