"""Knowledge-base layer: one execution interface over the embedded store and remote endpoints.

>>> from nl2sparql.kb import open_kb
>>> kb = open_kb()                      # the embedded LiITA sample
>>> table = kb.select("SELECT ?l WHERE { ?l a lila:Lemma } LIMIT 3")
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ConfigError
from .base import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT, KnowledgeBase, Limits
from .results import ResultTable, Term

__all__ = ["KnowledgeBase", "Limits", "ResultTable", "Term", "open_kb", "open_sample"]


def open_sample(limits: Limits | None = None, workers: int = 1, service_map=None):
    """The embedded LiITA sample shipped in ``nl2sparql/data/sample`` (in memory)."""
    from ..errors import DataError
    from ..paths import sample_files
    from .embedded import EmbeddedKB

    files = sample_files()
    if not files:
        raise DataError("the embedded sample is missing (nl2sparql/data/sample/*.trig); reinstall from a "
                        "checkout or set NL2SPARQL_DATA")
    return EmbeddedKB.in_memory(files, limits=limits, workers=workers, description="sample",
                                service_map=service_map)


def open_kb(store: Path | str | None = None, endpoint: str | None = None,
            timeout: float | None = None, max_rows: int | None = None,
            workers: int = 1, services=None, use_env: bool = True, memory: bool = False) -> KnowledgeBase:
    """Open the KB chosen by ``store`` / ``endpoint`` / environment, else the embedded sample.

    ``NL2SPARQL_STORE`` and ``NL2SPARQL_ENDPOINT`` are read when neither
    argument is given (unless ``use_env`` is false: then neither means the
    sample). ``services`` (``IRI=graph`` / ``IRI=URL`` entries, a
    mapping, or a :class:`~.services.ServiceMap`; else ``NL2SPARQL_SERVICES``)
    extends the backend's default service map (see :mod:`.services`). Every
    value is checked here, so each way in (CLI, API, MCP, UI) gets one clear
    line for a bad timeout, row cap, worker count, URL or service entry.
    ``memory`` copies a ``store`` into memory first (queries about 4× faster
    on LiITA, at the price of a copy: see :mod:`.memory`).
    """
    from ..checks import check_count
    from .services import service_map
    if use_env:
        store = store or os.environ.get("NL2SPARQL_STORE") or None
        endpoint = endpoint or os.environ.get("NL2SPARQL_ENDPOINT") or None
    if store and endpoint:
        raise ConfigError("choose one KB: --store DIR or --endpoint URL, not both "
                          "(check NL2SPARQL_STORE / NL2SPARQL_ENDPOINT)")
    limits = Limits(timeout if timeout is not None else DEFAULT_TIMEOUT,
                    max_rows if max_rows is not None else DEFAULT_MAX_ROWS)
    workers = check_count(workers, "--threads", 1, 64)
    mapping = service_map(services)
    if endpoint:
        from .remote import RemoteKB
        return RemoteKB(endpoint, limits=limits, services=mapping)
    if store:
        from .embedded import EmbeddedKB
        return EmbeddedKB.on_disk(Path(store), memory=memory, limits=limits, workers=workers, service_map=mapping)
    return open_sample(limits=limits, workers=workers, service_map=mapping)
