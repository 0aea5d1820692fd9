"""Local SPARQL servers run as child processes: the Oxigraph server over a store, and what every engine shares.

These are real engines' own servers, for comparing engines (``bench/engines.py``, the real-server
tests) and for ``scripts/virtuoso/``; ``nl2sparql-gen kb serve`` serves with the embedded store's
bounds instead (:mod:`.endpoint`). The Oxigraph server is the ``oxigraph`` command from PyPI (``pip install
oxigraph==0.5.13``, the same version as pyoxigraph), run read-only on a store
directory built by ``nl2sparql-gen kb load``, bound to 127.0.0.1 on a free
port. Such a store's default graph already holds the union of its data
graphs (see :func:`nl2sparql.kb.embedded.materialise_default_graph`), so
patterns outside ``GRAPH`` see what they see on the embedded store and on
the live LiITA endpoint. Without a store, the shipped sample is built into a
temporary store first and removed when the server stops.

:class:`LocalServer` holds what every local engine server shares (a child
process that never outlives its parent, a log file, readiness polling, a
clean stop); ``scripts/virtuoso/`` builds its Virtuoso server on it.

>>> from nl2sparql.kb import open_kb
>>> with OxigraphServer() as server:          # the sample, on a free port
...     kb = open_kb(endpoint=server.url)
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Callable, Optional

from ..errors import ConfigError, DataError, EndpointError

HOST = "127.0.0.1"
OXIGRAPH_ENV = "NL2SPARQL_OXIGRAPH"
OXIGRAPH_INSTALL = "pip install oxigraph==0.5.13 (the same version as pyoxigraph)"


def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def find_program(name: str, env: Optional[str] = None, install: str = "") -> str:
    """The path of an engine's executable: ``$env`` if set, else ``PATH``, else beside this Python.

    Looking beside ``sys.executable`` finds ``oxigraph`` in the virtualenv
    even when the virtualenv is not activated.
    """
    explicit = os.environ.get(env) if env else None
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise ConfigError(f"{env}={explicit} is not an executable file")
        return explicit
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        hint = f": {install}" if install else ""
        also = f", or set {env} to its path" if env else ""
        raise ConfigError(f"`{name}` is not installed{hint}{also}")
    return found


def sparql_ask(url: str, timeout: float = 2.0) -> bool:
    """True when ``url`` answers ``ASK {}`` with SPARQL JSON results (readiness probe)."""
    body = urllib.parse.urlencode({"query": "ASK {}"}).encode()
    request = urllib.request.Request(url, data=body, headers={
        "Accept": "application/sparql-results+json",
        "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return "boolean" in json.loads(response.read())
    except (OSError, ValueError):
        return False


def _parent_death_signal() -> Optional[Callable[[], None]]:
    """Linux: a pre-exec hook that makes the child get SIGTERM when its parent thread dies.

    So a server never outlives the process that started it (a killed test
    run, a closed terminal). Resolved in the parent: the hook itself only
    calls ``prctl`` between fork and exec.
    """
    if sys.platform != "linux":
        return None
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


class LocalServer:
    """A SPARQL server run as a child process on 127.0.0.1 (subclasses say which engine).

    Use it as a context manager, or call :meth:`start` and :meth:`stop`
    (always: ``stop`` is safe to call twice and after a crash). ``url`` is
    the SPARQL endpoint once started.
    """

    #: Engine name for messages.
    engine = "server"
    #: Seconds to wait for the server to answer after it was started.
    startup_timeout = 60.0

    def __init__(self, port: Optional[int] = None, workdir: Optional[Path] = None):
        self.requested_port = port
        self.port: Optional[int] = None
        self.process: Optional[subprocess.Popen] = None
        #: The server's files: a given directory is kept, a temporary one is removed by stop().
        self.workdir: Optional[Path] = None if workdir is None else Path(workdir)
        self.temporary = workdir is None
        self.log_path: Optional[Path] = None

    # -- what subclasses provide -------------------------------------------
    def command(self, port: int) -> list[str]:
        """The command line that starts the server on ``port``."""
        raise NotImplementedError

    def endpoint(self, port: int) -> str:
        """The SPARQL endpoint URL on ``port``."""
        raise NotImplementedError

    def prepare(self) -> None:
        """Work before the process starts (create files under :attr:`workdir`)."""

    def after_start(self) -> None:
        """Work once the endpoint answers (loading data, configuration)."""

    def cleanup(self) -> None:
        """Remove :attr:`workdir` if it is temporary."""
        if self.workdir is not None and self.temporary:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    # -- lifecycle ----------------------------------------------------------
    @property
    def url(self) -> str:
        """The SPARQL endpoint URL (after :meth:`start`)."""
        if self.port is None:
            raise EndpointError(f"the {self.engine} server is not started")
        return self.endpoint(self.port)

    def start(self) -> "LocalServer":
        """Start the server and return once its endpoint answers; stops it again on failure."""
        try:
            if self.workdir is None:
                self.workdir = Path(tempfile.mkdtemp(prefix=f"nl2sparql-{self.engine.lower()}-"))
            self.workdir.mkdir(parents=True, exist_ok=True)
            self.log_path = self.workdir / "server.log"
            self.prepare()
            tries = 1 if self.requested_port else 5  # a free port may be taken before the server binds it
            for attempt in range(tries):
                port = self.requested_port or free_port()
                if self._launch(port):
                    break
                if attempt == tries - 1 or "in use" not in self.log_tail().lower():
                    raise EndpointError(f"the {self.engine} server did not start on {HOST}:{port}: "
                                        f"{self.log_tail() or 'no message'}")
            self.after_start()
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self, port: int) -> bool:
        """Start the process on ``port``; True once it answers, False if it exited."""
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.command(port), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                cwd=self.workdir, preexec_fn=_parent_death_signal())
        url = self.endpoint(port)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                return False
            if sparql_ask(url, timeout=1.0):
                self.port = port
                return True
            time.sleep(0.1)
        raise EndpointError(f"the {self.engine} server did not answer at {url} within "
                            f"{self.startup_timeout:g} s: {self.log_tail() or 'no message'}")

    def stop(self, grace: float = 15.0) -> Optional[int]:
        """Stop the server (SIGTERM, then SIGKILL after ``grace`` s), remove temporary files; exit status."""
        code = None
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(grace)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            code = process.returncode
        self.port = None
        self.cleanup()
        return code

    def wait(self) -> int:
        """Block until the server exits; its exit status."""
        if self.process is None:
            raise EndpointError(f"the {self.engine} server is not started")
        return self.process.wait()

    def log_tail(self) -> str:
        """The server's error line from its log (its first ``Error…`` line, else its last line)."""
        if self.log_path is None or not self.log_path.is_file():
            return ""
        lines = [" ".join(line.split())[:300] for line in
                 self.log_path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        return next((line for line in lines if line.lower().startswith("error")), lines[-1] if lines else "")

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class OxigraphServer(LocalServer):
    """``oxigraph serve-read-only`` on a store directory (``store=None``: the shipped sample).

    ``query_timeout`` is the server's own per-query limit in seconds (the
    client's ``--timeout`` only stops waiting; this stops the work).
    """

    engine = "Oxigraph"

    def __init__(self, store: Optional[Path] = None, *, port: Optional[int] = None,
                 query_timeout: Optional[float] = None):
        super().__init__(port)
        self.binary = find_program("oxigraph", OXIGRAPH_ENV, OXIGRAPH_INSTALL)
        self.store = None if store is None else Path(store).resolve()  # the server runs in its own directory
        if self.store is not None:
            check_store(self.store)
        self.query_timeout = query_timeout
        self.location: Optional[Path] = None

    def prepare(self) -> None:
        if self.store is not None:
            self.location = self.store
            return
        from ..paths import sample_files
        from .embedded import EmbeddedKB

        files = sample_files()
        if not files:
            raise DataError("the embedded sample is missing (nl2sparql/data/sample/*.trig); reinstall from a "
                            "checkout or set NL2SPARQL_DATA")
        self.location = self.workdir / "sample-store"
        EmbeddedKB.build(self.location, files, progress=False)

    def command(self, port: int) -> list[str]:
        cmd = [self.binary, "serve-read-only", "--location", str(self.location), "--bind", f"{HOST}:{port}"]
        if self.query_timeout:
            cmd += ["--timeout-s", str(max(1, round(self.query_timeout)))]
        return cmd

    def endpoint(self, port: int) -> str:
        return f"http://{HOST}:{port}/query"


def check_store(path: Path) -> None:
    """Refuse a directory that is not a store built by ``kb load`` (its default graph would not be the union)."""
    from .embedded import MARKER

    if not path.is_dir():
        raise DataError(f"{path}: no Oxigraph store here; build one with "
                        "`nl2sparql-gen kb load FILES… --store DIR`")
    if not (path / MARKER).is_file():
        raise DataError(f"{path}: not a store built by `nl2sparql-gen kb load` (no {MARKER}), so its default "
                        "graph is not the union of its data graphs; rebuild it with kb load, or serve it "
                        "yourself with `oxigraph serve-read-only --location DIR --union-default-graph`")


def serve_until_stopped(server: LocalServer, on_ready: Callable[[LocalServer], None]) -> None:
    """Start ``server``, call ``on_ready``, and block until Ctrl-C or SIGTERM; always stops it.

    Raises :class:`EndpointError` when the server stops by itself.
    """
    def terminate(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        server.start()
        on_ready(server)
        code = server.wait()
        if code not in (-signal.SIGINT, -signal.SIGTERM):  # not the Ctrl-C our process group also got
            raise EndpointError(f"the {server.engine} server stopped by itself (exit status {code}): "
                                f"{server.log_tail() or 'no message'}")
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
