"""Real SPARQL servers for tests: the Oxigraph server and Virtuoso, as subprocesses on free ports.

Fixtures (session-scoped; import them into a test module):

* ``oxigraph_sample`` / ``virtuoso_sample``: the shipped sample served by each
  engine (Oxigraph from a temporary store built like ``kb load`` builds one,
  Virtuoso bulk-loaded by ``scripts/virtuoso/virtuoso_server.py``);
* ``oxigraph_mirror``: the cached mirror test store (``mirror_store``) served
  read-only;
* ``engine_sample``: parametrised over both engines.

Each waits until its endpoint answers, is ALWAYS stopped at the end of the
session (and dies with the test process on Linux), and skips with the reason
when the engine is not installed (``pip install -e '.[test]'`` installs the
Oxigraph server; ``apt-get install virtuoso-opensource`` installs Virtuoso).

:func:`as_sent` is what the tests send in place of the CompL-it ``SERVICE``
until the client's service map exists: the ``GRAPH`` of that IRI on the same
endpoint (the map's "answer from the graph on the same endpoint" mode).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from nl2sparql.errors import ConfigError
from nl2sparql.kb.embedded import DEFAULT_SERVICES
from nl2sparql.kb.serve import OxigraphServer
from nl2sparql.sparql.rewrite import rewrite_services

REPO = Path(__file__).resolve().parents[1]
VIRTUOSO_SCRIPT = REPO / "scripts" / "virtuoso" / "virtuoso_server.py"


def virtuoso_module():
    """``scripts/virtuoso/virtuoso_server.py`` imported as a module."""
    name = "virtuoso_server"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, VIRTUOSO_SCRIPT)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def as_sent(query: str) -> str:
    """The query with the CompL-it SERVICE answered from the graph of that IRI (no server ever calls out)."""
    return rewrite_services(query, DEFAULT_SERVICES)  # as the embedded store answers it


def _started(make):
    """Start the server ``make()`` builds, or skip the test with why it cannot be run."""
    try:
        server = make()
    except ConfigError as exc:  # the engine is not installed
        pytest.skip(f"real-server test skipped: {exc}")
    return server.start()


@pytest.fixture(scope="session")
def oxigraph_sample():
    """The sample served by ``oxigraph serve-read-only``."""
    server = _started(OxigraphServer)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def oxigraph_mirror(mirror_store):
    """The mirror test store served by ``oxigraph serve-read-only``."""
    server = _started(lambda: OxigraphServer(mirror_store))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def virtuoso_sample():
    """The sample bulk-loaded into a private Virtuoso, union default graph configured."""
    from nl2sparql.paths import sample_files

    server = _started(lambda: virtuoso_module().VirtuosoServer(sample_files()))
    yield server
    server.stop()


@pytest.fixture(scope="session", params=["oxigraph", "virtuoso"])
def engine_sample(request):
    """Each engine serving the sample (a test using it runs once per engine)."""
    return request.getfixturevalue(f"{request.param}_sample")
