"""A remote SPARQL endpoint (the live LiITA endpoint or any other) through SPARQLWrapper.

Queries are checked locally first: read-only, nesting depth, parse (in the
sandboxed parser: nothing is evaluated), and every SERVICE target through the
service map (:mod:`.services`); comments are dropped, so the text sent is the
text checked. The request says ``query=`` because our own parse says it is a
read query (SPARQLWrapper's keyword regex would send a SELECT whose comment
says "loaded" as ``update=``). Each try has the time budget; the whole call,
retries and back-off included, ends by a deadline of (retries + 1) × budget,
and a body trickling in past it is cut off. 429 and 5xx answers and dropped
connections are retried with exponential backoff, except a 500 whose body
says the engine refused the query (Virtuoso answers ``Virtuoso 37000 Error
SP030: SPARQL compiler…`` that way; asking again gets the same answer): that
is one query error with the engine's reason, at once. An unreachable
endpoint is one clear error line.
"""

from __future__ import annotations

import ast
import json
import random
import re
import socket
import time
import urllib.error
from typing import Callable

import pyoxigraph as ox
from SPARQLWrapper import ASK, CONSTRUCT, DESCRIBE, JSON, POST, SELECT, TURTLE, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import (EndPointInternalError, EndPointNotFound,
                                            QueryBadFormed, SPARQLWrapperException, Unauthorized)

from ..errors import EndpointError, QueryError, QuerySyntaxError, QueryTimeout, ResourceLimit
from ..sparql.rewrite import complete_prefixes, rewrite_services
from ..sparql.syntax import check_syntax
from .base import KnowledgeBase, Limits
from .results import ResultTable
from .services import REMOTE_DEFAULT, ServiceMap, check_endpoint_url
from .workers import to_term

USER_AGENT = "nl2sparql/0.1 (+LiITA NL->SPARQL toolkit)"
#: SPARQLWrapper's query type for each form our own parse finds.
_QUERY_TYPES = {"select": SELECT, "ask": ASK, "construct": CONSTRUCT, "describe": DESCRIBE}
#: The largest answer body read (bigger answers are refused, not loaded).
MAX_BODY = 256 << 20
_CHUNK = 1 << 16


class RemoteKB(KnowledgeBase):
    """A SPARQL 1.1 endpoint reached over HTTP.

    ``services`` (a :class:`~.services.ServiceMap`) extends the default map,
    which passes ``SERVICE <CompL-it>`` through to the endpoint.
    """

    def __init__(self, url: str, limits: Limits | None = None, retries: int = 3,
                 backoff: float = 1.0, sleep: Callable[[float], None] = time.sleep,
                 services: ServiceMap | None = None):
        super().__init__(limits)
        self.url = check_endpoint_url(url)
        self.description = f"endpoint:{url}"
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep
        self.services = (services or ServiceMap()).over(REMOTE_DEFAULT)

    def prepare(self, query: str) -> str:
        """The text sent: missing standard prefixes added, comments dropped, SERVICE targets mapped."""
        query, _ = complete_prefixes(query)
        return rewrite_services(query, self.services.graphs, self.services.endpoints, where=self.url)

    def _request(self, query: str, form: str, timeout: float, deadline: float) -> bytes:
        client = SPARQLWrapper(self.url, agent=USER_AGENT)
        client.setQuery(query)
        client.queryType = _QUERY_TYPES[form]  # our parse, not SPARQLWrapper's keyword regex
        client.setMethod(POST)
        client.timeout = max(0.5, min(timeout, deadline - time.monotonic()))  # setTimeout() truncates to int
        client.setReturnFormat(JSON if form in ("select", "ask") else TURTLE)
        response = client.query().response
        chunks, size = [], 0
        while True:
            if time.monotonic() > deadline:
                raise socket.timeout("the answer was still arriving at the deadline")
            chunk = response.read(_CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_BODY:
                raise ResourceLimit(f"{self.url} answered more than {MAX_BODY >> 20} MiB; add LIMIT or lower "
                                    "--max-rows")
            chunks.append(chunk)

    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        check_syntax(query)  # parse only, sandboxed; error positions refer to the text as given
        query = self.prepare(query)
        start = time.perf_counter()
        deadline = time.monotonic() + timeout * (self.retries + 1)
        attempt = 0
        while True:
            try:
                body = self._request(query, form, timeout, deadline)
                break
            except QueryBadFormed as exc:
                raise QuerySyntaxError(f"the endpoint rejected the query: {_first_line(_response(exc))}") from None
            except (EndPointNotFound, Unauthorized) as exc:
                raise EndpointError(f"{self.url}: {type(exc).__name__} ({_first_line(exc)})") from None
            except (EndPointInternalError, urllib.error.HTTPError, urllib.error.URLError,
                    socket.timeout, TimeoutError, ConnectionError) as exc:
                code = getattr(exc, "code", None) or (500 if isinstance(exc, EndPointInternalError) else None)
                refusal = _refusal(exc, self.url) if code == 500 else None
                if refusal is not None:  # the engine refused this query: asking again gets the same answer
                    raise refusal from None
                if _timed_out(exc):  # the time budget is spent: retrying would multiply it
                    raise QueryTimeout(f"{self.url} did not answer within {timeout:g} s "
                                       f"(stopped after {time.perf_counter() - start:.1f} s; raise --timeout, "
                                       "or make the query more selective)") from None
                if _unreachable(exc):
                    raise EndpointError(f"cannot reach {self.url}: {_first_line(exc.reason)} "
                                        "(check the URL and your network)") from None
                retryable = code is None or code == 429 or code >= 500
                if isinstance(exc, urllib.error.HTTPError) and not retryable:
                    raise EndpointError(f"{self.url} answered HTTP {code}: {exc.reason}") from None
                if attempt >= self.retries:
                    raise self._final_error(exc, code, timeout) from None
                delay = self.backoff * (2 ** attempt) * (0.5 + random.random() / 2)
                wait = max(delay, _retry_after(exc) or 0.0)
                if time.monotonic() + wait >= deadline:
                    raise EndpointError(f"{self.url} kept failing ({code or _first_line(getattr(exc, 'reason', exc))}); "
                                        f"gave up after {attempt + 1} tries in {time.perf_counter() - start:.1f} s "
                                        f"(the deadline is {self.retries + 1} × --timeout)") from None
                self._sleep(wait)
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


#: A 500 body in which the engine refuses the query: Virtuoso's ``Virtuoso <SQLSTATE> Error <code>: …``
#: and Oxigraph's parse errors (``error at 1:25: …``, ``Parser error …``).
_VIRTUOSO = re.compile(r"Virtuoso (?P<state>[0-9A-Z]{5}) Error\b")
_OXIGRAPH_PARSE = re.compile(r"^(error at \d+:\d+|Parser error)\b", re.IGNORECASE)
#: SQLSTATE classes that are worth another try (transaction rollback, e.g. a deadlock; connection).
_TRANSIENT_STATES = ("40", "08")
_TIMEOUT_STATES = ("S1T00", "HYT00", "HYT01")


def _response(exc) -> str:
    """The body an HTTP error answered with (SPARQLWrapper keeps only its repr in the message)."""
    if isinstance(exc, urllib.error.HTTPError):
        try:
            return exc.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
    text = str(exc)
    _, found, raw = text.partition("Response:\n")
    if not found:
        return text
    try:
        value = ast.literal_eval(raw.strip())
    except (ValueError, SyntaxError):
        return raw
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _refusal(exc, url: str) -> QueryError | None:
    """The query error a 500 answer reports, or ``None`` for a server fault worth retrying."""
    body = _response(exc).strip()
    reason = " ".join(body.split("\n\nSPARQL query:")[0].split())[:300]  # Virtuoso echoes the query after
    state = _VIRTUOSO.search(body)
    if state:
        if state.group("state").startswith(_TRANSIENT_STATES):
            return None
        if state.group("state") in _TIMEOUT_STATES:
            return QueryTimeout(f"{url} stopped the query: {reason} (raise its time limit, or make the query "
                                "more selective)")
        syntax = state.group("state") == "37000" and "SPARQL compiler" in body
        return (QuerySyntaxError if syntax else QueryError)(f"the endpoint refused the query: {reason}")
    if _OXIGRAPH_PARSE.match(body):
        return QuerySyntaxError(f"the endpoint rejected the query: {reason}")
    return None


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
