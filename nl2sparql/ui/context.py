"""What every tab shares: the app's settings and the rule that every error becomes a message in the page.

Handlers return a tuple whose first item is the status message (HTML). When
a handler raises, :func:`guarded` replaces its outputs with one message and
the handler's empty values: a :class:`~nl2sparql.errors.Nl2SparqlError` shows its own one
line; anything else shows a generic line while the traceback goes to the
server log only.
"""

from __future__ import annotations

import atexit
import functools
import inspect
import logging
import queue
import shutil
import tempfile
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .. import api
from .render import message

log = logging.getLogger("nl2sparql.ui")

GENERIC_ERROR = "something went wrong on the server (the details are in its log); check the input and try again"


@dataclass
class Context:
    """The settings of one running app: the KB, the optional LLM and a private folder for files to download.

    Without ``workdir`` a temporary folder is made, and removed when the process exits.

    The KB is chosen when the app starts (``--store`` / ``--endpoint``), never from the page,
    so a visitor cannot point the server at another host or directory.
    """

    kb: api.KBChoice = field(default_factory=api.KBChoice)
    llm: Any = None
    workdir: Path | None = None

    def __post_init__(self):
        if self.workdir is None:  # a temporary folder of our own, removed at exit
            self.workdir = Path(tempfile.mkdtemp(prefix="nl2sparql-ui-"))
            atexit.register(self.cleanup)
        self.workdir = Path(self.workdir)

    def new_dir(self, kind: str) -> Path:
        """A fresh folder under the work folder for one request's files (``kind-<random>``)."""
        path = self.workdir / f"{kind}-{uuid.uuid4().hex[:12]}"
        path.mkdir(parents=True)
        return path

    def cleanup(self) -> None:
        """Remove the work folder and everything written into it."""
        shutil.rmtree(self.workdir, ignore_errors=True)


def error_line(exc: BaseException) -> str:
    """The one line shown for an exception: the project's own message, else a generic one (logged in full)."""
    if isinstance(exc, api.Nl2SparqlError):
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    log.error("unexpected error in a UI handler", exc_info=exc)
    return GENERIC_ERROR


def guarded(*empty: Any) -> Callable:
    """Make a handler's errors a message in the page, never a trace.

    The handler's first output is the status; ``empty`` gives what each other
    output shows after an error (an empty table keeps its column names). Works
    for plain handlers and for generators (streamed updates): an error in the
    middle of a stream ends it with the message.
    """
    def failed(exc: BaseException) -> tuple:
        return (message("error", error_line(exc)),) + empty

    def decorate(handler: Callable) -> Callable:
        if inspect.isgeneratorfunction(handler):
            @functools.wraps(handler)
            def stream(*args, **kwargs):
                try:
                    yield from handler(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
                    yield failed(exc)
            return stream

        @functools.wraps(handler)
        def call(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - every error becomes a message in the page
                return failed(exc)
        return call
    return decorate


_DONE = object()


def run_in_thread(work: Callable[[Callable[[Any], None]], Any]) -> Iterator[tuple[str, Any]]:
    """Run ``work(emit)`` in a thread; yield ``("event", x)`` for each ``emit(x)``, then ``("result", value)``.

    An exception raised by ``work`` is raised again here, in the caller's thread,
    so that :func:`guarded` turns it into a message. Lets a handler stream the
    progress of an API call that reports through a callback.
    """
    events: queue.Queue = queue.Queue()
    outcome: dict[str, Any] = {}

    def target():
        try:
            outcome["value"] = work(lambda event: events.put(event))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            outcome["error"] = exc
        finally:
            events.put(_DONE)

    threading.Thread(target=target, name="nl2sparql-ui-work", daemon=True).start()
    while (event := events.get()) is not _DONE:
        yield "event", event
    if "error" in outcome:
        raise outcome["error"]
    yield "result", outcome["value"]
