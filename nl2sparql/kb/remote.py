"""A remote SPARQL endpoint (the live LiITA endpoint or any other) through SPARQLWrapper.

Queries are checked locally first (read-only, parses), sent with a timeout,
and retried with exponential backoff on 429 and 5xx answers and on dropped
connections. An unreachable endpoint is one clear error line.
"""

from __future__ import annotations

import json
import random
import socket
import time
import urllib.error
from typing import Callable

import pyoxigraph as ox
from SPARQLWrapper import JSON, POST, TURTLE, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import (EndPointInternalError, EndPointNotFound,
                                            QueryBadFormed, SPARQLWrapperException, Unauthorized)

from ..errors import EndpointError, QuerySyntaxError, QueryTimeout
from ..sparql.rewrite import complete_prefixes
from ..sparql.syntax import check_syntax
from .base import KnowledgeBase, Limits
from .results import ResultTable
from .workers import to_term

USER_AGENT = "nl2sparql/0.1 (+LiITA NL->SPARQL toolkit)"


class RemoteKB(KnowledgeBase):
    """A SPARQL 1.1 endpoint reached over HTTP."""

    def __init__(self, url: str, limits: Limits | None = None, retries: int = 3,
                 backoff: float = 1.0, sleep: Callable[[float], None] = time.sleep):
        super().__init__(limits)
        if not url.startswith(("http://", "https://")):
            raise EndpointError(f"{url!r} is not an endpoint URL: use http(s)://host/path, "
                                "e.g. https://liita.it/sparql")
        self.url = url
        self.description = f"endpoint:{url}"
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep

    def _request(self, query: str, form: str, timeout: float):
        client = SPARQLWrapper(self.url, agent=USER_AGENT)
        client.setQuery(query)
        client.setMethod(POST)
        client.setTimeout(max(1, int(round(timeout))))
        client.setReturnFormat(JSON if form in ("select", "ask") else TURTLE)
        response = client.query().response
        return response.read()

    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        check_syntax(query)  # error positions refer to the text as given
        query, _ = complete_prefixes(query)
        start = time.perf_counter()
        attempt = 0
        while True:
            try:
                body = self._request(query, form, timeout)
                break
            except QueryBadFormed as exc:
                raise QuerySyntaxError(f"the endpoint rejected the query: {_first_line(exc)}") from None
            except (EndPointNotFound, Unauthorized) as exc:
                raise EndpointError(f"{self.url}: {type(exc).__name__} ({_first_line(exc)})") from None
            except (EndPointInternalError, urllib.error.HTTPError, urllib.error.URLError,
                    socket.timeout, TimeoutError, ConnectionError) as exc:
                code = getattr(exc, "code", None) or (500 if isinstance(exc, EndPointInternalError) else None)
                if _timed_out(exc):  # the time budget is spent: retrying would multiply it
                    raise QueryTimeout(f"{self.url} did not answer within {timeout:g} s "
                                       "(raise --timeout, or make the query more selective)") from None
                if _unreachable(exc):
                    raise EndpointError(f"cannot reach {self.url}: {_first_line(exc.reason)} "
                                        "(check the URL and your network)") from None
                retryable = code is None or code == 429 or code >= 500
                if isinstance(exc, urllib.error.HTTPError) and not retryable:
                    raise EndpointError(f"{self.url} answered HTTP {code}: {exc.reason}") from None
                if attempt >= self.retries:
                    raise self._final_error(exc, code, timeout) from None
                delay = self.backoff * (2 ** attempt) * (0.5 + random.random() / 2)
                retry_after = _retry_after(exc)
                self._sleep(max(delay, retry_after or 0.0))
                attempt += 1
            except SPARQLWrapperException as exc:
                raise EndpointError(f"{self.url}: {_first_line(exc)}") from None
        elapsed = time.perf_counter() - start
        return self._parse(body, form, max_rows, elapsed)

    def _final_error(self, exc, code, timeout):
        reason = getattr(exc, "reason", exc)
        if code is not None:
            return EndpointError(f"{self.url} kept answering HTTP {code} "
                                 f"(after {self.retries + 1} tries); try again later")
        return EndpointError(f"cannot reach {self.url}: {_first_line(reason)} "
                             "(check the URL and your network)")

    @staticmethod
    def _parse(body: bytes, form: str, max_rows: int, elapsed: float) -> ResultTable:
        if form in ("select", "ask"):
            try:
                obj = json.loads(body)
            except ValueError:
                raise EndpointError("the endpoint answered something that is not SPARQL JSON "
                                    "results") from None
            table = ResultTable.from_json(obj, form)
        else:
            try:
                rows = [(to_term(t.subject), to_term(t.predicate), to_term(t.object))
                        for t in ox.parse(body, ox.RdfFormat.TURTLE)]
            except SyntaxError as exc:
                raise EndpointError("the endpoint answered something that is not Turtle: "
                                    f"{_first_line(exc)}") from None
            table = ResultTable("construct", ["s", "p", "o"], rows)
        if len(table.rows) > max_rows:
            table.rows = table.rows[:max_rows]
            table.truncated = True
        table.elapsed = elapsed
        return table


def _timed_out(exc) -> bool:
    """The request ran past its timeout (while connecting or waiting for the answer)."""
    return isinstance(exc, (socket.timeout, TimeoutError)) or \
        isinstance(getattr(exc, "reason", None), (socket.timeout, TimeoutError))


def _unreachable(exc) -> bool:
    """A refused connection or unknown host: retrying will not help."""
    if isinstance(exc, urllib.error.HTTPError) or not isinstance(exc, urllib.error.URLError):
        return False
    return not isinstance(exc.reason, (socket.timeout, TimeoutError))


def _retry_after(exc) -> float | None:
    headers = getattr(exc, "headers", None)
    value = headers.get("Retry-After") if headers else None
    try:
        return min(float(value), 60.0) if value else None
    except ValueError:
        return None


def _first_line(exc) -> str:
    text = exc.decode("utf-8", "replace") if isinstance(exc, bytes) else str(exc)
    return " ".join(text.split())[:300]
