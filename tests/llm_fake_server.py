"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests.

It is a real HTTP server (stdlib ``http.server`` in a thread, ephemeral port)
answering ``POST /v1/chat/completions``. What it answers is scripted, in order
of precedence:

1. a queue of replies (:meth:`FakeLLMServer.enqueue`), consumed one per request;
2. a handler function ``(request_json) -> reply`` (:attr:`FakeLLMServer.handler`),
   e.g. one built by :func:`reply_by_content` when concurrent requests make
   queue order unpredictable;
3. ``default_text`` as a normal completion.

A reply is a :class:`Reply`, a string (the completion text), or a tuple
``(status, body)`` where a dict body is sent as JSON and a str/bytes body raw.
Every request is recorded (:attr:`FakeLLMServer.requests`, with headers and
JSON) and the server tracks the most requests it held at once
(:attr:`FakeLLMServer.max_in_flight`).

Usage::

    with FakeLLMServer() as server:
        server.enqueue(error(500), "SELECT ...")
        monkeypatch.setattr(os, "environ", {**os.environ, **server.env(tmp_path)})

or the ``fake_llm`` pytest fixture (``from llm_fake_server import fake_llm``).
"""

from __future__ import annotations

import collections
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

FAKE_MODEL = "fake-model"
FAKE_KEY = "sk-test-key"


@dataclass
class Reply:
    """One scripted answer: HTTP status, body (dict → JSON, str/bytes → raw), delay before answering."""

    status: int = 200
    body: Any = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass
class RecordedRequest:
    """A request the server received: path, headers (lower-cased names) and parsed JSON body."""

    path: str
    headers: dict[str, str]
    json: Any


def completion(text: str | None, *, model: str = FAKE_MODEL, finish_reason: str = "stop",
               prompt_tokens: int = 10, completion_tokens: int = 5) -> dict[str, Any]:
    """A chat-completion response body with ``text`` as the assistant's answer."""
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def error(status: int, message: str = "scripted failure", **headers: str) -> Reply:
    """An error reply in the OpenAI error shape (``Retry-After`` etc. as keyword headers)."""
    return Reply(status=status, headers={k.replace("_", "-"): v for k, v in headers.items()},
                 body={"error": {"message": message, "type": "fake_error", "param": None, "code": None}})


def reply_by_content(rules: Iterable[tuple[str, Any]], default: Any = None) -> Callable[[dict], Any]:
    """A handler choosing the reply by the first regex (in ``rules``) found in the request's messages."""
    compiled = [(re.compile(pattern, re.IGNORECASE | re.DOTALL), reply) for pattern, reply in rules]

    def handler(request: dict) -> Any:
        text = "\n".join(str(m.get("content", "")) for m in request.get("messages", []))
        for pattern, reply in compiled:
            if pattern.search(text):
                return reply(request) if callable(reply) else reply
        return default
    return handler


class FakeLLMServer:
    """The scripted server; start it with ``with`` or :meth:`start`, its URL is :attr:`url`."""

    def __init__(self, *, handler: Callable[[dict], Any] | None = None, default_text: str = "ok",
                 model: str = FAKE_MODEL) -> None:
        self.handler = handler
        self.default_text = default_text
        self.model = model
        self.requests: list[RecordedRequest] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._queue: collections.deque = collections.deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting -------------------------------------------------------------------------
    def enqueue(self, *replies: Any) -> "FakeLLMServer":
        """Queue replies for the next requests, in order."""
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def request_count(self) -> int:
        """How many chat requests arrived so far."""
        with self._lock:
            return len(self.requests)

    @property
    def url(self) -> str:
        """The base URL to configure (``http://127.0.0.1:PORT/v1``)."""
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def env(self, tmp_path: Path | None = None, *, fast_model: str | None = None) -> dict[str, str]:
        """Environment variables pointing the client at this server (cache in ``tmp_path`` or off)."""
        out = {"OPENAI_BASE_URL": self.url, "OPENAI_API_KEY": FAKE_KEY, "NL2SPARQL_LLM_MODEL": self.model,
               "NL2SPARQL_LLM_CACHE": str(tmp_path / "llm_cache.sqlite") if tmp_path else "off"}
        if fast_model:
            out["NL2SPARQL_LLM_FAST_MODEL"] = fast_model
        return out

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> "FakeLLMServer":
        """Bind an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                server._serve(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; handlers still sleeping are released."""
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- serving ---------------------------------------------------------------------------
    def _next_reply(self, request: Any) -> Reply:
        with self._lock:
            scripted = self._queue.popleft() if self._queue else None
        if scripted is None and self.handler is not None:
            scripted = self.handler(request)
        if scripted is None:
            scripted = self.default_text
        if isinstance(scripted, Reply):
            return scripted
        if isinstance(scripted, str):
            return Reply(body=completion(scripted, model=self.model))
        if isinstance(scripted, tuple):
            status, body = scripted
            return Reply(status=status, body=body)
        raise TypeError(f"cannot serve scripted reply {scripted!r}")

    def _serve(self, http: BaseHTTPRequestHandler) -> None:
        length = int(http.headers.get("Content-Length") or 0)
        raw = http.rfile.read(length) if length else b""
        try:
            request = json.loads(raw or b"null")
        except ValueError:
            request = None
        with self._lock:
            self.requests.append(RecordedRequest(http.path, {k.lower(): v for k, v in http.headers.items()},
                                                 request))
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            if http.path.rstrip("/") != "/v1/chat/completions":
                reply = error(404, f"no route {http.path}")
            else:
                reply = self._next_reply(request)
            if reply.delay:
                self._stopping.wait(reply.delay)
            if isinstance(reply.body, (dict, list)):
                payload = json.dumps(reply.body).encode()
            elif isinstance(reply.body, str):
                payload = reply.body.encode()
            else:
                payload = reply.body or b""
            http.send_response(reply.status)
            http.send_header("Content-Type", reply.content_type)
            http.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                http.send_header(name, value)
            http.end_headers()
            http.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to answer
        finally:
            with self._lock:
                self._in_flight -= 1


@pytest.fixture
def fake_llm():
    """A started :class:`FakeLLMServer`, stopped after the test."""
    with FakeLLMServer() as server:
        yield server
