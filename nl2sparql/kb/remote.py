"""A remote SPARQL endpoint (the live LiITA endpoint or any other) over the SPARQL 1.1 protocol.

Queries are checked locally first: read-only, nesting depth, parse (in the
sandboxed parser: nothing is evaluated), and every SERVICE target through the
service map (:mod:`.services`); comments are dropped, so the text sent is the
text checked. The request is a form-encoded POST of ``query=`` (our own parse
says it is a read query; a keyword regex would send a SELECT whose comment
says "loaded" as ``update=``).

Every wait is bounded. Each try has the time budget, also for a server that
sends its headers byte by byte; the whole call, retries and back-off
included, ends by a deadline of (retries + 1) × budget, and an answer still
trickling in at the deadline is cut off. 429 and 5xx answers and dropped
connections are retried with exponential backoff, and the final error says
how many tries were made in how many seconds. Redirects are not followed
(the endpoint cannot send the request to another host). The answer is parsed
as it arrives and reading stops at the row cap, so a huge answer never sits
in memory. A 500 whose body says the engine refused the query (Virtuoso
answers ``Virtuoso 37000 Error SP030: SPARQL compiler…`` that way; asking
again gets the same answer) is one query error with the engine's reason, at
once, not retried; so is an error an nl2sparql endpoint (``kb serve``) names
in its ``Nl2sparql-Error`` header (a query stopped at its time budget or
memory cap), and an answer it says it cut at its row cap is marked truncated.

The client is urllib rather than SPARQLWrapper, which reads a whole answer
into memory, follows redirects and picks ``update=`` by a keyword regex.
"""

from __future__ import annotations

import http.client
import itertools
import random
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable

import pyoxigraph as ox

from ..errors import (EndpointError, QueryError, QuerySyntaxError, QueryTimeout, ResourceLimit, UnmappedService,
                      UpdateRefused)
from ..sparql.rewrite import complete_prefixes, rewrite_services
from ..sparql.syntax import check_syntax
from .base import KnowledgeBase, Limits
from .endpoint import ERROR_HEADER, TRUNCATED_HEADER
from .results import ResultTable
from .services import REMOTE_DEFAULT, ServiceMap, check_endpoint_url
from .workers import to_term

USER_AGENT = "nl2sparql/0.1 (+LiITA NL->SPARQL toolkit)"
#: What each form asks the endpoint for.
_ACCEPT = {"select": "application/sparql-results+json, application/json;q=0.9",
           "ask": "application/sparql-results+json, application/json;q=0.9",
           "construct": "text/turtle, application/n-triples;q=0.9",
           "describe": "text/turtle, application/n-triples;q=0.9"}
#: The largest answer body read (a bigger one is refused while it arrives).
MAX_BODY = 256 << 20
_CHUNK = 1 << 16


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Refuse every redirect: a redirected POST loses its query, and the endpoint may not send us elsewhere."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise EndpointError(f"{req.full_url} redirected the query to {newurl} (HTTP {code}); use the URL that "
                            "answers SPARQL itself as the endpoint")


_OPENER = urllib.request.build_opener(_NoRedirects())


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

    def _open(self, query: str, form: str, timeout: float, deadline: float):
        """POST the query; the response once its headers are in, within this try's budget."""
        request = urllib.request.Request(
            self.url, data=urllib.parse.urlencode({"query": query}).encode("utf-8"), method="POST",
            headers={"Accept": _ACCEPT[form], "User-Agent": USER_AGENT,
                     "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8"})
        budget = max(0.5, min(timeout, deadline - time.monotonic()))
        return _within(budget, lambda: _OPENER.open(request, timeout=budget))

    def _run(self, query: str, form: str, timeout: float, max_rows: int) -> ResultTable:
        check_syntax(query)  # parse only, sandboxed; error positions refer to the text as given
        query = self.prepare(query)
        start = time.perf_counter()
        deadline = time.monotonic() + timeout * (self.retries + 1)
        attempt = 0
        while True:
            try:
                response = self._open(query, form, timeout, deadline)
                break
            except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError) as exc:
                code = getattr(exc, "code", None)
                stated = _stated_error(exc, self.url)
                if stated is not None:  # an nl2sparql endpoint said what stopped the query
                    raise stated from None
                if code == 400:
                    raise QuerySyntaxError(f"the endpoint rejected the query: {_error_body(exc)}") from None
                refusal = _refusal(exc, self.url) if code == 500 else None
                if refusal is not None:  # the engine refused this query: asking again gets the same answer
                    raise refusal from None
                if _timed_out(exc):  # the time budget is spent: retrying would multiply it
                    raise self._timeout(timeout, start) from None
                if _unreachable(exc):
                    raise EndpointError(f"cannot reach {self.url}: {_first_line(exc.reason)} "
                                        "(check the URL and your network)") from None
                if code is not None and code != 429 and code < 500:
                    raise EndpointError(f"{self.url} answered HTTP {code}: {_first_line(exc.reason)} "
                                        f"({_HINTS.get(code, 'check the endpoint URL')})") from None
                delay = self.backoff * (2 ** attempt) * (0.5 + random.random() / 2)
                wait = max(delay, _retry_after(exc) or 0.0)
                if attempt >= self.retries or time.monotonic() + wait >= deadline:
                    raise self._gave_up(exc, attempt + 1, start, attempt < self.retries) from None
                self._sleep(wait)
                attempt += 1
            except http.client.HTTPException as exc:  # not HTTP at all (a bad status line, a header too long)
                raise EndpointError(f"{self.url} did not answer over HTTP ({type(exc).__name__}: "
                                    f"{_first_line(exc)}); check the endpoint URL") from None
        try:
            table = self._parse(_Body(response, deadline, self.url), form, max_rows)
            table.truncated = table.truncated or response.headers.get(TRUNCATED_HEADER) == "true"
        except (socket.timeout, TimeoutError):
            raise QueryTimeout(f"{self.url} was still sending its answer at the deadline ({self.retries + 1} × "
                               f"--timeout, stopped after {time.perf_counter() - start:.1f} s); add LIMIT or raise "
                               "--timeout") from None
        except (OSError, http.client.HTTPException) as exc:
            raise EndpointError(f"{self.url} dropped the connection while answering ({_first_line(exc)}); "
                                "try again") from None
        finally:
            response.close()
        table.elapsed = time.perf_counter() - start
        return table

    def _gave_up(self, exc, tries: int, start: float, by_deadline: bool) -> EndpointError:
        """The error once retrying stops: what kept failing, how many tries, the total wait."""
        code = getattr(exc, "code", None)
        what = f"answering HTTP {code}" if code is not None else \
            f"failing ({_first_line(getattr(exc, 'reason', exc))})"
        why = f"the deadline is {self.retries + 1} × --timeout" if by_deadline else "try again later"
        return EndpointError(f"{self.url} kept {what}; gave up after {tries} tries in "
                             f"{time.perf_counter() - start:.1f} s ({why})")

    def _timeout(self, timeout: float, start: float) -> QueryTimeout:
        return QueryTimeout(f"{self.url} did not answer within {timeout:g} s (stopped after "
                            f"{time.perf_counter() - start:.1f} s; raise --timeout, or make the query more selective)")

    @staticmethod
    def _parse(body: "_Body", form: str, max_rows: int) -> ResultTable:
        """Read the answer as it arrives, stopping after ``max_rows`` rows."""
        if form in ("select", "ask"):
            result = problem = None
            try:
                result = ox.parse_query_results(body, ox.QueryResultsFormat.JSON)
                if isinstance(result, ox.QueryBoolean):
                    return ResultTable("ask", boolean=bool(result))
                variables = [v.value for v in result.variables]
                rows = [tuple(to_term(s[i]) for i in range(len(variables)))
                        for s in itertools.islice(result, max_rows + 1)]
            except SyntaxError as exc:
                problem = _first_line(exc)
            if problem is not None:
                # the reader goes here, in its own thread: an error that kept it (through its traceback) would drop
                # it in another thread, which pyoxigraph reports as "unsendable" noise on stderr
                del result
                raise EndpointError(f"{body.url} answered something that is not SPARQL JSON results ({problem}); "
                                    "is it the SPARQL endpoint's URL?")
            table = ResultTable("select", variables, rows)
        else:
            try:
                rows = [(to_term(t.subject), to_term(t.predicate), to_term(t.object))
                        for t in itertools.islice(ox.parse(body, ox.RdfFormat.TURTLE), max_rows + 1)]
            except SyntaxError as exc:
                raise EndpointError(f"{body.url} answered something that is not Turtle: "
                                    f"{_first_line(exc)}") from None
            table = ResultTable("construct", ["s", "p", "o"], rows)
        if len(table.rows) > max_rows:
            table.rows = table.rows[:max_rows]
            table.truncated = True
        return table


class _Body:
    """The answer's body as a file the parser reads: what has arrived, cut off at the deadline and at MAX_BODY."""

    def __init__(self, response, deadline: float, url: str):
        self.response, self.deadline, self.url = response, deadline, url
        self.size = 0

    def read(self, n: int = -1) -> bytes:
        if time.monotonic() > self.deadline:
            raise socket.timeout("the answer was still arriving at the deadline")
        chunk = self.response.read1(_CHUNK if n is None or n < 0 else min(n, _CHUNK))
        self.size += len(chunk)
        if self.size > MAX_BODY:
            raise ResourceLimit(f"{self.url} answered more than {MAX_BODY >> 20} MiB; add LIMIT or lower "
                                "--max-rows")
        return chunk


def _within(seconds: float, call: Callable):
    """``call()`` in a helper thread, given up after ``seconds`` (a socket timeout cannot stop a trickle)."""
    done = threading.Event()
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            outcome["error"] = exc
        done.set()

    threading.Thread(target=target, name="nl2sparql-endpoint", daemon=True).start()
    if not done.wait(seconds + 0.5):
        raise socket.timeout("no answer within the time budget")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


_HINTS = {401: "the endpoint wants credentials", 403: "the endpoint refused access",
          404: "not found: check the endpoint URL", 405: "the URL does not accept SPARQL POST requests",
          414: "the query is too long for this endpoint"}


#: A 500 body in which the engine refuses the query: Virtuoso's ``Virtuoso <SQLSTATE> Error <code>: …``
#: and Oxigraph's parse errors (``error at 1:25: …``, ``Parser error …``).
_VIRTUOSO = re.compile(r"Virtuoso (?P<state>[0-9A-Z]{5}) Error\b")
_OXIGRAPH_PARSE = re.compile(r"^(error at \d+:\d+|Parser error)\b", re.IGNORECASE)
#: SQLSTATE classes that are worth another try (transaction rollback, e.g. a deadlock; connection).
_TRANSIENT_STATES = ("40", "08")
_TIMEOUT_STATES = ("S1T00", "HYT00", "HYT01")


def _refusal(exc, url: str) -> QueryError | None:
    """The query error a 500 answer reports, or ``None`` for a server fault worth retrying."""
    body = (_body_text(exc, 8192) or "").strip()
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


#: The errors an nl2sparql endpoint names in its error header (:mod:`.endpoint`); any other name is a QueryError.
_STATED = {cls.__name__: cls for cls in (QueryTimeout, ResourceLimit, QuerySyntaxError, UpdateRefused,
                                         UnmappedService)}


def _stated_error(exc, url: str) -> QueryError | None:
    """The error an nl2sparql endpoint (``kb serve``) names in its error header, with its one line."""
    headers = getattr(exc, "headers", None)
    name = headers.get(ERROR_HEADER) if headers else None
    if not name:
        return None
    return _STATED.get(name, QueryError)(f"{url}: {_error_body(exc)}")


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


def _body_text(exc, limit: int) -> str | None:
    """Up to ``limit`` bytes of an error answer's body that have arrived (never waiting on a trickle);
    ``None`` when it cannot be read."""
    try:
        return exc.read1(limit).decode("utf-8", "replace")
    except (OSError, AttributeError, ValueError):
        return None


def _error_body(exc) -> str:
    """The first line of an error answer's body (at most 2 KiB of it), else its reason."""
    body = _body_text(exc, 2048)
    return _first_line(body if body is not None else getattr(exc, "reason", exc))


def _first_line(exc) -> str:
    text = exc.decode("utf-8", "replace") if isinstance(exc, bytes) else str(exc)
    return " ".join(text.split())[:300]
