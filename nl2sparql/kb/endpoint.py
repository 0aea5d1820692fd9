"""A SPARQL endpoint over an embedded store (``nl2sparql-gen kb serve``): the embedded store's bounds, served.

Every query runs exactly as on the embedded store (:class:`~.embedded.EmbeddedKB`): it is checked
(read-only, nesting depth, every SERVICE through the service map, so ``SERVICE <CompL-it>`` is
answered from the store's own CompL-it graph and nothing is ever called out), then evaluated in a
sandboxed worker process that has no network, a memory cap, and is killed when the query's time
budget runs out. The answer is encoded in that worker too, so the server holds one encoded answer
of at most ``max_rows`` rows, never a query's working memory.

The protocol is the SPARQL 1.1 query operation on ``/query`` (also ``/sparql``): ``GET ?query=``,
a form ``POST`` of ``query=`` or a ``POST`` of ``application/sparql-query``. SELECT and ASK answer
SPARQL JSON results (CSV or TSV when the ``Accept`` header asks for them only), CONSTRUCT and
DESCRIBE answer N-Triples. An answer cut at the row cap says so in the ``Nl2sparql-Truncated``
header. Errors are one plain-text line: 400 for a query that
is refused (syntax, Update, an unmapped SERVICE, dataset parameters), 500 with the error's class in
``Nl2sparql-Error`` for one that was stopped (time, memory) or failed; :class:`~.remote.RemoteKB`
reads that header and reports the error as it is, without retrying.

>>> from nl2sparql.kb import open_sample
>>> serve_kb(open_sample(), ready=print)          # http://127.0.0.1:PORT/query, until Ctrl-C or SIGTERM
"""

from __future__ import annotations

import functools
import json
import signal
import socket
import threading
import time
from typing import Callable

from ..errors import ConfigError, QueryError, QuerySyntaxError, QueryTimeout, UnmappedService, UpdateRefused
from .results import ResultTable

HOST = "127.0.0.1"
PATHS = ("/query", "/sparql")
#: The header naming the class of a query error (see the module docstring).
ERROR_HEADER = "Nl2sparql-Error"
TRUNCATED_HEADER = "Nl2sparql-Truncated"
JSON = "application/sparql-results+json"
#: The table formats a client may ask for instead of JSON (SELECT only): content type and writer.
_TABLES = {"text/csv": ("text/csv; charset=utf-8", ResultTable.to_csv),
           "text/tab-separated-values": ("text/tab-separated-values; charset=utf-8", ResultTable.to_tsv)}
#: Errors that are the query's fault (400); any other project error is the evaluation's (500).
_REFUSED = (QuerySyntaxError, UpdateRefused, UnmappedService)


def encode(table: ResultTable, media: str) -> tuple[bytes, str]:
    """The answer as the body and content type of an HTTP response (runs in the worker process)."""
    if table.form == "construct":
        return table.to_ntriples().encode("utf-8"), "application/n-triples; charset=utf-8"
    if media in _TABLES and table.form == "select":
        content_type, write = _TABLES[media]
        return write(table).encode("utf-8"), content_type
    body = table.to_json()
    body.pop("truncated", None)  # strict SPARQL JSON readers refuse a key of their own: the header says it
    return json.dumps(body, ensure_ascii=False).encode("utf-8"), JSON


def _media(accept: str) -> str:
    """The table format asked for when the client asks for CSV or TSV and not for JSON; else JSON."""
    asked = [part.split(";")[0].strip().lower() for part in (accept or "").split(",")]
    if any(a in (JSON, "application/json", "*/*") for a in asked):
        return JSON
    return next((a for a in asked if a in _TABLES), JSON)


def _first_line(text: str) -> str:
    return " ".join(str(text).split())


def answer(kb, query: str, accept: str = "") -> tuple[int, bytes, dict[str, str]]:
    """Run ``query`` on ``kb`` as the endpoint does: ``(status, body, headers)``."""
    try:
        (body, truncated), content_type = kb.digest(query, functools.partial(_encoded, media=_media(accept)))
    except _REFUSED as exc:
        return _error(400, exc)
    except QueryTimeout:
        return _error(500, QueryTimeout(f"the query was stopped at the endpoint's time budget of "
                                        f"{kb.limits.timeout:g} s (kb serve --query-timeout); make it more selective"))
    except QueryError as exc:
        return _error(500, exc)
    except Exception as exc:  # noqa: BLE001 - anything else is still one line, never a traceback to the client
        return _error(500, QueryError(f"the query failed: {type(exc).__name__}: {_first_line(exc)}"))
    headers = {"Content-Type": content_type}
    if truncated:
        headers[TRUNCATED_HEADER] = "true"
    return 200, body, headers


def _encoded(table: ResultTable, media: str):
    """``((body, truncated), content type)`` of ``table`` (the picklable reduce the worker applies)."""
    body, content_type = encode(table, media)
    return (body, table.truncated), content_type


def _error(status: int, exc: Exception) -> tuple[int, bytes, dict[str, str]]:
    return status, (_first_line(exc) + "\n").encode("utf-8"), {
        "Content-Type": "text/plain; charset=utf-8", ERROR_HEADER: type(exc).__name__}


def _response(status: int, body: bytes, headers: dict[str, str]):
    from starlette.responses import Response
    return Response(body, status_code=status, headers=headers)


def build_app(kb):
    """The Starlette application answering SPARQL queries on ``kb`` (see the module docstring)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    async def query(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        params = dict(request.query_params)
        if request.method == "POST":
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype == "application/sparql-query":
                params["query"] = (await request.body()).decode("utf-8", "replace")
            elif ctype == "application/x-www-form-urlencoded":
                params.update(dict(await request.form()))
            else:
                return PlainTextResponse("send the query as ?query=, as a form field query= or as "
                                         "application/sparql-query\n", 415)
        if "update" in params:
            return _response(*_error(403, UpdateRefused("SPARQL Update is refused: this endpoint is read-only")))
        if params.get("default-graph-uri") or params.get("named-graph-uri"):
            return _response(*_error(400, QueryError(
                "default-graph-uri and named-graph-uri are not supported: the default graph is the union of the "
                "data graphs; use GRAPH <…> in the query")))
        text = params.get("query")
        if not text:
            return PlainTextResponse("no query: send ?query=SELECT… (SPARQL 1.1 protocol)\n", 400)
        return _response(*await run_in_threadpool(answer, kb, str(text), request.headers.get("accept", "")))

    routes = [Route(path, query, methods=["GET", "POST"]) for path in PATHS]
    return Starlette(routes=routes)


def serve_kb(kb, *, port: int | None = None, ready: Callable[[str], None] | None = None) -> None:
    """Serve ``kb`` on 127.0.0.1 (``port``, else a free one) until Ctrl-C or SIGTERM; ``ready(url)`` once it
    answers. The caller closes ``kb``."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port or 0))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {HOST}:{port} ({exc.strerror or exc}); choose another --port") from None
    url = f"http://{HOST}:{sock.getsockname()[1]}{PATHS[0]}"
    server = uvicorn.Server(uvicorn.Config(build_app(kb), log_level="warning", lifespan="off",
                                           timeout_graceful_shutdown=5))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if server.started and ready is not None:
            ready(url)

    def stop(signum, frame):
        raise KeyboardInterrupt  # raised again by uvicorn once it has shut down: ends the serving quietly

    previous = signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=announce, name="nl2sparql-serve-ready", daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    if not server.started:
        raise ConfigError(f"the SPARQL endpoint at {url} did not start")
