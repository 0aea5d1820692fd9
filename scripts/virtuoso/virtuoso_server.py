#!/usr/bin/env python3
"""Serve the LiITA sample or mirror from Virtuoso Open Source 7 on 127.0.0.1 (see README.md here).

    python scripts/virtuoso/virtuoso_server.py                      # the shipped sample
    python scripts/virtuoso/virtuoso_server.py --mirror ../shared/liita/mirror --dir /var/tmp/liita-virtuoso
    python scripts/virtuoso/virtuoso_server.py FILE.trig FILE.nq.gz --port 8890

It prints the SPARQL endpoint URL on the first stdout line and serves until
Ctrl-C or SIGTERM. Without ``--dir`` the database lives in a temporary
directory removed at the end; with ``--dir`` it is kept, and a later run on the
same directory and files starts without loading again.

What it sets up (the Debian package ``virtuoso-opensource``, no system service):

* a private ``virtuoso.ini`` and database under the directory, both ports
  (HTTP and SQL) bound to 127.0.0.1, a random DBA password (``dba-password``,
  mode 0600), no row cap below 1,000,000 and no server time limit (Virtuoso
  would otherwise return *partial* answers silently at its limits);
* the files bulk-loaded with ``ld_dir`` + ``rdf_loader_run`` (TriG and N-Quads
  keep their graphs; triple files go to ``urn:nl2sparql:default-graph``);
* LiITA's union default graph: a graph group holding every loaded graph
  except the CompL-it one is the endpoint's default graph (``SYS_SPARQL_HOST``),
  so patterns outside ``GRAPH`` see all data graphs and not CompL-it, as on
  liita.it; the loaded graphs (CompL-it's too, not Virtuoso's own) are its
  named graphs. The CompL-it graph stays loaded: ``SERVICE
  <https://klab.ilc.cnr.it/graphdb-compl-it/>`` is answered from it once the
  client's service map rewrites the SERVICE into ``GRAPH`` on this endpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Optional, Sequence

from nl2sparql.errors import DataError, EndpointError, Nl2SparqlError
from nl2sparql.kb.serve import HOST, LocalServer, find_program, free_port, serve_until_stopped
from nl2sparql.namespaces import COMPLIT_SERVICE

UNION_GROUP = "urn:nl2sparql:liita-data"
TRIPLES_GRAPH = "urn:nl2sparql:default-graph"
MARKER = "nl2sparql-virtuoso.json"
INSTALL = "apt-get install virtuoso-opensource (Debian/Ubuntu)"
SYSTEM_GRAPH_PREFIXES = ("http://www.openlinksw.com/", "http://localuriqaserver/", "http://www.w3.org/ns/ldp#")
RDF_SUFFIXES = (".trig", ".nq", ".nt", ".ttl", ".trig.gz", ".nq.gz", ".nt.gz", ".ttl.gz")

INI = """\
[Database]
DatabaseFile       = {db}/virtuoso.db
ErrorLogFile       = {db}/virtuoso.log
LockFile           = {db}/virtuoso.lck
TransactionFile    = {db}/virtuoso.trx
xa_persistent_file = {db}/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = {db}/virtuoso-temp.db
TransactionFile    = {db}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort           = {host}:{sql_port}
DisableUnixSocket    = 1
MaxClientConnections = 10
CheckpointInterval   = 60
CaseMode             = 2
DirsAllowed          = ., {load}
NumberOfBuffers      = {buffers}
MaxDirtyBuffers      = {dirty}
ThreadsPerQuery      = 2
AsyncQueueMaxThreads = 4

[HTTPServer]
ServerPort           = {host}:{http_port}
ServerRoot           = /var/lib/virtuoso-opensource-7/vsp
MaxClientConnections = 10
ServerThreads        = 10
Charset              = UTF-8

[SPARQL]
ResultSetMaxRows           = 1000000
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime      = 0
"""


class VirtuosoServer(LocalServer):
    """Virtuoso (``virtuoso-t +foreground``) loaded with ``files``; ``directory`` keeps the database.

    ``service_graphs`` are loaded but left out of the union default graph.
    ``buffers`` is Virtuoso's page cache in 8 KB pages.
    """

    engine = "Virtuoso"

    def __init__(self, files: Sequence[Path], *, directory: Optional[Path] = None, port: Optional[int] = None,
                 service_graphs: Iterable[str] = (COMPLIT_SERVICE,), buffers: int = 20000):
        super().__init__(port, directory)
        self.binary = find_program("virtuoso-t", install=INSTALL)
        self.isql = find_program("isql-vt", install=INSTALL)
        self.files = [Path(f).resolve() for f in files]
        for f in self.files:
            if not f.is_file():
                raise DataError(f"{f}: no such file (check the path)")
            if not f.name.lower().endswith(RDF_SUFFIXES):
                raise DataError(f"{f}: Virtuoso's bulk loader reads .trig .nq .nt .ttl (optionally .gz)")
        self.service_graphs = set(service_graphs)
        self.buffers = buffers
        self.sql_port: Optional[int] = None
        self.password = ""

    # -- files ---------------------------------------------------------------
    @property
    def marker(self) -> Path:
        """Written once the data is loaded and configured: what was loaded, from which files."""
        return self.workdir / MARKER

    def _fingerprint(self) -> list[list]:
        return [[str(f), f.stat().st_size, int(f.stat().st_mtime)] for f in self.files]

    def prepare(self) -> None:
        (self.workdir / "db").mkdir(exist_ok=True)
        load = self.workdir / "load"
        load.mkdir(exist_ok=True)
        if self.marker.is_file():
            if json.loads(self.marker.read_text(encoding="utf-8")).get("files") != self._fingerprint():
                raise DataError(f"{self.workdir} holds a database loaded from other files; "
                                "use another --dir (or delete this one) to load these")
            self.password = (self.workdir / "dba-password").read_text(encoding="utf-8").strip()
            return
        if (self.workdir / "db" / "virtuoso.db").exists():
            raise DataError(f"{self.workdir}: a database whose loading did not finish; delete the directory "
                            "and run again")
        for i, f in enumerate(self.files):  # ld_dir reads one directory; numbered links keep names unique
            link = load / f"{i:03d}-{f.name}"
            if not link.exists():
                link.symlink_to(f)

    def command(self, port: int) -> list[str]:
        self.sql_port = free_port()
        db, load = self.workdir / "db", self.workdir / "load"
        ini = INI.format(db=db, load=load, host=HOST, sql_port=self.sql_port, http_port=port,
                         buffers=self.buffers, dirty=self.buffers * 3 // 4)
        (self.workdir / "virtuoso.ini").write_text(ini, encoding="utf-8")
        return [self.binary, "+configfile", str(self.workdir / "virtuoso.ini"), "+foreground"]

    def endpoint(self, port: int) -> str:
        return f"http://{HOST}:{port}/sparql"

    def log_tail(self) -> str:
        own = super().log_tail()
        log = self.workdir / "db" / "virtuoso.log" if self.workdir else None
        if log is not None and log.is_file():
            lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
            return lines[-1].strip()[:300] if lines else own
        return own

    # -- loading -------------------------------------------------------------
    def after_start(self) -> None:
        if self.marker.is_file():
            return
        self.password = "nl" + secrets.token_hex(16)  # an SQL identifier: a letter, then letters and digits
        self.sql(f"SET PASSWORD dba {self.password};", password="dba")
        secret = self.workdir / "dba-password"
        secret.write_text(self.password + "\n", encoding="utf-8")
        secret.chmod(0o600)
        before = set(self.graphs())
        load = self.workdir / "load"
        self.sql(f"ld_dir('{load}', '*', '{TRIPLES_GRAPH}'); rdf_loader_run(); checkpoint;")
        failed = self.sql_column("SELECT COUNT(*) FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL;")[0]
        if failed != "0":
            raise DataError(f"Virtuoso's bulk loader failed on {failed} file(s): "
                            + self.sql("SELECT ll_file, ll_error FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL;")
                            .strip().splitlines()[-3][:300])
        loaded = set(self.graphs()) - before
        members = sorted(g for g in loaded if g not in self.service_graphs and not g.startswith(SYSTEM_GRAPH_PREFIXES))
        named = sorted(g for g in loaded if not g.startswith(SYSTEM_GRAPH_PREFIXES))
        # The default graph alone would leave GRAPH <iri> empty (no named graphs in the dataset) while
        # GRAPH ?g still ranged over everything, Virtuoso's own graphs included: name the loaded graphs.
        defines = " ".join(f"define input:named-graph-uri <{_sql_text(g)}>" for g in named)
        self.sql(f"DB.DBA.RDF_GRAPH_GROUP_CREATE('{UNION_GROUP}', 1);"
                 + "".join(f"DB.DBA.RDF_GRAPH_GROUP_INS('{UNION_GROUP}', '{_sql_text(g)}');" for g in members)
                 + "DELETE FROM DB.DBA.SYS_SPARQL_HOST WHERE SH_HOST = '*';"
                 + "INSERT INTO DB.DBA.SYS_SPARQL_HOST (SH_HOST, SH_GRAPH_URI, SH_DEFINES) "
                 + f"VALUES ('*', '{UNION_GROUP}', '{defines}');"
                 + "checkpoint;")
        tmp = self.marker.with_suffix(".tmp")
        tmp.write_text(json.dumps({"files": self._fingerprint(), "union_default_graph": members,
                                   "named_graphs": named}, indent=1), encoding="utf-8")
        tmp.replace(self.marker)

    def graphs(self) -> list[str]:
        """The graph IRIs holding at least one quad (from the quad table: SPARQL takes minutes on the mirror)."""
        return self.sql_column("SELECT id_to_iri(G) FROM (SELECT DISTINCT G FROM DB.DBA.RDF_QUAD) x;")

    def sql(self, statements: str, password: Optional[str] = None) -> str:
        """Run SQL through ``isql-vt`` as DBA; its output. An error in any statement raises."""
        done = subprocess.run([self.isql, f"{HOST}:{self.sql_port}", "dba", password or self.password,
                               f"exec={statements}"], capture_output=True, text=True, timeout=3600)
        out = done.stdout + done.stderr
        if done.returncode != 0 or "*** Error" in out:
            line = next((ln for ln in out.splitlines() if "Error" in ln), out.strip()[-300:])
            raise EndpointError(f"Virtuoso refused `{statements[:80]}`: {line.strip()[:300]}")
        return done.stdout

    def sql_column(self, select: str) -> list[str]:
        """The values of a one-column SELECT, as isql prints them."""
        lines = [ln.strip() for ln in self.sql(select).splitlines() if ln.strip()]
        rule = next(i for i, ln in enumerate(lines) if set(ln) == {"_"})
        return [ln for ln in lines[rule + 1:] if not re.fullmatch(r"\d+ Rows?\. -- \d+ msec\.", ln)]


def _sql_text(value: str) -> str:
    """A value safe inside a single-quoted SQL string."""
    if not re.fullmatch(r"[^'\\\s]+", value):
        raise DataError(f"graph IRI {value!r} cannot be quoted for Virtuoso")
    return value


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: load, print the endpoint URL, serve until Ctrl-C or SIGTERM."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="RDF files (default: the shipped sample)")
    parser.add_argument("--mirror", type=Path, help="load every *.nq.gz of this directory (the LiITA mirror)")
    parser.add_argument("--dir", type=Path, help="keep the database here (loaded once, reused)")
    parser.add_argument("--port", type=int, help="HTTP port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--buffers", type=int, default=20000, help="page cache in 8 KB pages (default 20000)")
    args = parser.parse_args(argv)
    files = list(args.files)
    if args.mirror:
        files += sorted(args.mirror.glob("*.nq.gz"))
        if not files:
            parser.error(f"{args.mirror}: no *.nq.gz files")
    if not files:
        from nl2sparql.paths import sample_files
        files = sample_files()

    def ready(server: LocalServer) -> None:
        print(server.url, flush=True)
        print(f"Virtuoso serves {len(files)} file(s) from {server.workdir}; use --endpoint {server.url} "
              "(Ctrl-C stops)", file=sys.stderr, flush=True)

    try:
        serve_until_stopped(VirtuosoServer(files, directory=args.dir, port=args.port, buffers=args.buffers), ready)
    except Nl2SparqlError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
