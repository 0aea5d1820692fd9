"""Choosing the knowledge base, the same way for every API function.

Every function of :mod:`nl2sparql.api` that touches data takes ``kb=``, which
may be:

* ``None``: the environment's choice (``NL2SPARQL_STORE`` /
  ``NL2SPARQL_ENDPOINT``), else the embedded sample;
* ``"sample"``, an ``http(s)://`` endpoint URL, or a store directory path;
* a :class:`KBChoice` (the same, plus the per-query defaults);
* an open :class:`~nl2sparql.kb.KnowledgeBase` (used as is, never closed here).

Opened knowledge bases are shared within the process (a long-lived MCP server
or web UI opens the sample once, not per request) and closed at exit. Time
budgets and row caps are passed per query, so one shared KB serves callers
with different limits.
"""

from __future__ import annotations

import atexit
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Union

from ..checks import check_count, check_timeout
from ..errors import ConfigError
from ..kb import KnowledgeBase, Limits, open_kb
from ..kb.embedded import require_store
from ..kb.services import check_endpoint_url

SAMPLE = "sample"


@dataclass(frozen=True)
class KBChoice:
    """Which knowledge base to use, with per-query defaults.

    ``store`` (an on-disk Oxigraph store directory) and ``endpoint`` (a SPARQL
    endpoint URL) exclude each other; with neither, the embedded sample.
    ``timeout`` (seconds) and ``max_rows`` are the defaults for each query;
    ``workers`` is how many queries an embedded store runs in parallel;
    ``services`` are service-map entries (``IRI=graph`` or ``IRI=URL``) added to
    the KB's own (else ``NL2SPARQL_SERVICES``): a SERVICE to any other target is refused.
    ``memory`` copies a store into memory first (faster queries for a long run, see
    :mod:`nl2sparql.kb.memory`).
    """

    store: str | None = None
    endpoint: str | None = None
    timeout: float | None = None
    max_rows: int | None = None
    workers: int = 1
    services: tuple[str, ...] | None = None
    memory: bool = False

    def __post_init__(self):
        if self.services is None:  # the environment's entries, so that they are part of the choice
            from_env = os.environ.get("NL2SPARQL_SERVICES") or ""
            object.__setattr__(self, "services", tuple(e for e in from_env.replace(",", " ").split() if e))
        else:
            object.__setattr__(self, "services", tuple(self.services))
        if self.store and self.endpoint:
            raise ConfigError("choose one KB: a store directory or an endpoint URL, not both")
        # checked here, when the choice is made (a server checks them at start, not at its first call)
        if self.endpoint:
            check_endpoint_url(self.endpoint)
        if self.timeout is not None:
            object.__setattr__(self, "timeout", check_timeout(self.timeout))
        if self.max_rows is not None:
            object.__setattr__(self, "max_rows", check_count(self.max_rows, "--max-rows"))
        check_count(self.workers, "workers (--threads)", 1, 64)

    def check_store(self) -> None:
        """Raise one line when ``store`` is set and names no Oxigraph store (a path check; nothing is opened)."""
        if self.store:
            require_store(Path(self.store))

    @staticmethod
    def from_env() -> "KBChoice":
        """The choice made by ``NL2SPARQL_STORE`` / ``NL2SPARQL_ENDPOINT`` (the sample when unset)."""
        return KBChoice(store=os.environ.get("NL2SPARQL_STORE") or None,
                        endpoint=os.environ.get("NL2SPARQL_ENDPOINT") or None)

    @property
    def label(self) -> str:
        """A short human description: ``sample``, ``store:DIR`` or ``endpoint:URL``."""
        if self.endpoint:
            return f"endpoint:{self.endpoint}"
        if self.store:
            return f"store:{self.store}"
        return SAMPLE

    def to_dict(self) -> dict:
        """JSON-ready view (for configuration resources)."""
        return {"kb": self.label, "store": self.store, "endpoint": self.endpoint, "timeout": self.timeout,
                "max_rows": self.max_rows, "workers": self.workers, "services": list(self.services),
                "memory": self.memory}


KBLike = Union[None, str, Path, KBChoice, KnowledgeBase]

_OPEN: dict[tuple, KnowledgeBase] = {}
_LOCK = threading.Lock()


def as_choice(kb: KBLike) -> KBChoice:
    """Read any accepted ``kb=`` value (not an open KB) as a :class:`KBChoice`."""
    if kb is None:
        return KBChoice.from_env()
    if isinstance(kb, KBChoice):
        return kb
    if isinstance(kb, Path):
        return KBChoice(store=str(kb))
    if isinstance(kb, str):
        text = kb.strip()
        if text.lower() == SAMPLE:
            return KBChoice()
        if "://" in text:
            return KBChoice(endpoint=text)
        return KBChoice(store=text)
    raise ConfigError(f"kb must be 'sample', a store path, an endpoint URL or a KBChoice, not {type(kb).__name__}")


def shared_kb(choice: KBChoice) -> KnowledgeBase:
    """The process-wide open KB for ``choice`` (opened on first use, closed at exit)."""
    key = (choice.store and str(Path(choice.store).resolve()), choice.endpoint, choice.workers, choice.services,
           choice.memory)
    with _LOCK:
        kb = _OPEN.get(key)
        if kb is None:
            kb = open_kb(store=choice.store, endpoint=choice.endpoint, workers=choice.workers,
                         services=list(choice.services) or None, use_env=False, memory=choice.memory)
            _OPEN[key] = kb
        return kb


@contextmanager
def using_kb(kb: KBLike) -> Iterator[KnowledgeBase]:
    """The KB for one API call: an open KB as given, else the shared one for the choice, under the choice's
    limits (every query of the call, also those made for it, such as a validation's)."""
    if isinstance(kb, KnowledgeBase):
        yield kb
        return
    choice = as_choice(kb)
    shared = shared_kb(choice)
    if choice.timeout is None and choice.max_rows is None:
        yield shared
    else:
        yield shared.with_limits(Limits(choice.timeout if choice.timeout is not None else shared.limits.timeout,
                                        choice.max_rows if choice.max_rows is not None else shared.limits.max_rows))


def limits(kb: KBLike, timeout: float | None, max_rows: int | None) -> tuple[float | None, int | None]:
    """Per-query limits: the call's own, else the choice's defaults (``None``: the KB's own defaults)."""
    choice = kb if isinstance(kb, KBChoice) else None
    return (timeout if timeout is not None or choice is None else choice.timeout,
            max_rows if max_rows is not None or choice is None else choice.max_rows)


def close_all() -> None:
    """Close every shared KB (at exit; tests call it to start afresh)."""
    with _LOCK:
        opened = list(_OPEN.values())
        _OPEN.clear()
    for kb in opened:
        kb.close()


atexit.register(close_all)
