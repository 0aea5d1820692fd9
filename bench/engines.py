"""Per-engine pass rates: the embedded store, the Oxigraph server and Virtuoso on the same data.

1. **Sample pool.** Every gold query of a pool generated from the sample
   (``nl2sparql-gen run --target 1000 --seed 3 --out /tmp/p.jsonl``) runs on
   the embedded sample (the reference), on ``nl2sparql-gen kb serve``'s
   Oxigraph server and on Virtuoso loaded by ``scripts/virtuoso/virtuoso_server.py``.
2. **Reference queries on the mirror.** The 139 gold queries of
   ``../shared/reference/nl2sparql_examples.json`` (read at run time) run on an
   on-disk store of ``../shared/liita/mirror`` (reference), the Oxigraph server
   over that store and Virtuoso bulk-loaded with the mirror's N-Quads.
3. **Probes.** Short queries, one SPARQL feature each, on the sample: which
   engine refuses what, and where the answers differ.

For every engine: how many queries execute, and how many give the same rows
as the reference (:mod:`nl2sparql.score.engines`: strict; *close* allows
1e-6 on numbers). Queries are sent as the embedded store runs them: Virtuoso/ARQ
projections in their standard form (as the scorer does), and the CompL-it
``SERVICE`` as ``GRAPH`` of that IRI on the same endpoint (the service map's
same-endpoint mode), so no server ever calls out. Remote clients do not retry
(an engine's refusal is the finding, not a transient error).

Usage::

    nl2sparql-gen run --target 1000 --seed 3 --out /tmp/p.jsonl
    .venv/bin/python bench/engines.py --pool /tmp/p.jsonl [--store DIR] [--virtuoso-dir DIR]
        [--skip-mirror] [--timeout 30] [--json-out bench/out/engines.json]

Without ``--pool`` only the mirror part runs.

``--store``: an existing mirror store (``kb load``), else one is built in a
temporary directory; ``--virtuoso-dir``: keep Virtuoso's mirror database there
and reuse it on the next run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts" / "virtuoso"))

import nl2sparql  # noqa: E402
from nl2sparql.kb import Limits, open_sample  # noqa: E402
from nl2sparql.kb.embedded import DEFAULT_SERVICES, EmbeddedKB  # noqa: E402
from nl2sparql.kb.remote import RemoteKB  # noqa: E402
from nl2sparql.kb.serve import OxigraphServer  # noqa: E402
from nl2sparql.paths import sample_files  # noqa: E402
from nl2sparql.pipelines.storage import read_jsonl  # noqa: E402
from nl2sparql.score.engines import compare_engines, summarise  # noqa: E402
from nl2sparql.sparql.dialect import normalise_dialect  # noqa: E402
from nl2sparql.sparql.rewrite import rewrite_services  # noqa: E402
from virtuoso_server import VirtuosoServer  # noqa: E402

SHARED = REPO.parent / "shared"
P = ("PREFIX lila: <http://lila-erc.eu/ontologies/lila/> PREFIX ontolex: <http://www.w3.org/ns/lemon/ontolex#> "
     "PREFIX lexinfo: <http://www.lexinfo.net/ontology/3.0/lexinfo#> PREFIX marl: <http://www.gsi.upm.es/ontologies/marl/ns#> "
     "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n")
COMPLIT = "GRAPH <https://klab.ilc.cnr.it/graphdb-compl-it/>"
SENSE = "<http://lexica/mylexicon#USem70002organismo>"
PROBES = {  # name: query on the sample
    "COUNT(DISTINCT *)": "SELECT (COUNT(DISTINCT *) AS ?n) WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?w }",
    "GROUP_CONCAT, no separator": "SELECT ?l (GROUP_CONCAT(?w) AS ?ws) WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?w } "
                                  "GROUP BY ?l ORDER BY ?l LIMIT 5",
    "GROUP_CONCAT of @lang values": 'SELECT ?l (GROUP_CONCAT(?w; separator=", ") AS ?ws) WHERE { ?l a lila:Lemma ; '
                                    "ontolex:writtenRep ?w } GROUP BY ?l ORDER BY ?l LIMIT 5",
    "GROUP_CONCAT(STR(?w))": 'SELECT ?l (GROUP_CONCAT(STR(?w); separator=", ") AS ?ws) WHERE { ?l a lila:Lemma ; '
                             "ontolex:writtenRep ?w } GROUP BY ?l ORDER BY ?l LIMIT 5",
    "STR() of an xsd:float": "SELECT ?e (STR(?v) AS ?s) WHERE { ?e marl:hasPolarityValue ?v } ORDER BY ?e LIMIT 20",
    "xsd:decimal() of an xsd:float": "SELECT ?e (xsd:decimal(?v) AS ?d) WHERE { ?e marl:hasPolarityValue ?v } ORDER BY ?e LIMIT 20",
    "VALUES with @it literals": 'SELECT ?l WHERE { VALUES ?w { "casa"@it } ?l ontolex:writtenRep ?w }',
    "STRLEN/UCASE of a VALUES @it literal": 'SELECT (STRLEN(?w) AS ?n) (UCASE(?w) AS ?u) WHERE { VALUES ?w { "casa"@it } }',
    "STRLEN(STR()) of a VALUES @it literal": 'SELECT (STRLEN(STR(?w)) AS ?n) WHERE { VALUES ?w { "casa"@it } }',
    "path + from a constant": f"SELECT ?b WHERE {{ {COMPLIT} {{ {SENSE} lexinfo:hyponym+ ?b }} }}",
    "path + with COUNT(*)": f"SELECT (COUNT(*) AS ?n) WHERE {{ {COMPLIT} {{ {SENSE} lexinfo:hyponym+ ?b }} }}",
    "path + with both ends free": f"SELECT (COUNT(?b) AS ?n) WHERE {{ {COMPLIT} {{ ?a lexinfo:hyponym+ ?b }} }}",
    "path sequence and inverse": "SELECT (COUNT(*) AS ?n) WHERE { ?lemma ^ontolex:canonicalForm/ontolex:otherForm ?f }",
    "GRAPH ?g { }": "SELECT DISTINCT ?g WHERE { GRAPH ?g { } } ORDER BY ?g",
    "GRAPH ?g { ?s ?p ?o }": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g",
    "COUNT(*) in an absent graph": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.org/none> { ?s ?p ?o } }",
    "ORDER BY an @lang variable": "SELECT ?w WHERE { ?l ontolex:writtenRep ?w } ORDER BY ?w LIMIT 30",
    "ORDER BY STR()": "SELECT ?w WHERE { ?l ontolex:writtenRep ?w } ORDER BY STR(?w) ?w LIMIT 30",
    "DISTINCT over xsd:float": "SELECT DISTINCT ?v WHERE { ?e marl:hasPolarityValue ?v . ?e ontolex:canonicalForm ?l . "
                               "?x ontolex:canonicalForm ?l . ?x ontolex:otherForm ?f }",
    "DISTINCT over xsd:decimal(float)": "SELECT DISTINCT (xsd:decimal(?v) AS ?d) WHERE { ?e marl:hasPolarityValue ?v . "
                                        "?e ontolex:canonicalForm ?l . ?x ontolex:canonicalForm ?l . ?x ontolex:otherForm ?f }",
    "float > decimal threshold": "SELECT (COUNT(*) AS ?n) WHERE { ?e marl:hasPolarityValue ?v FILTER(?v > 0.6) }",
    "AVG/SUM of xsd:float": "SELECT (AVG(?v) AS ?a) (SUM(?v) AS ?s) WHERE { ?e marl:hasPolarityValue ?v }",
    "REGEX, class of accented letters": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w '
                                        'FILTER(REGEX(STR(?w), "[àèéìòù]")) }',
    "REGEX, '.' before an accent": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w FILTER(REGEX(STR(?w), "^.{3}$")) }',
    "REGEX, literal accented suffix": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w FILTER(REGEX(STR(?w), "tà$")) }',
    "REGEX on an @lang literal": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w FILTER(REGEX(?w, "^ca")) }',
    "CONTAINS/STRSTARTS on @lang": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w '
                                   'FILTER(CONTAINS(?w, "a") && STRSTARTS(?w, "ca"@it)) }',
    "@lang literal = plain string": 'SELECT (COUNT(*) AS ?n) WHERE { ?l ontolex:writtenRep ?w FILTER(?w = "casa") }',
    "BIND(IF(STRLEN(@lang)))": 'SELECT ?k WHERE { VALUES ?w { "casa"@it } BIND(IF(STRLEN(?w) > 3, "long", "short") AS ?k) }',
    "FILTER NOT EXISTS / MINUS": "SELECT (COUNT(*) AS ?n) WHERE { ?l a lila:Lemma FILTER NOT EXISTS { ?e ontolex:canonicalForm ?l } "
                                 "MINUS { ?l lila:hasPOS lila:verb } }",
    "sub-select": "SELECT ?n WHERE { { SELECT (COUNT(*) AS ?n) WHERE { ?l a lila:Lemma } } }",
    "GROUP BY, HAVING, ORDER BY DESC": "SELECT ?pos (COUNT(?l) AS ?n) WHERE { ?l lila:hasPOS ?pos } GROUP BY ?pos "
                                       "HAVING (COUNT(?l) > 10) ORDER BY DESC(?n) ?pos",
    "DESCRIBE": "DESCRIBE <http://liita.it/data/id/lemma/804005>",
    "CONSTRUCT": "CONSTRUCT { ?l rdfs:label ?w } WHERE { ?l a lila:Lemma ; ontolex:writtenRep ?w } ORDER BY ?l LIMIT 5",
    "ASK": 'ASK { ?l ontolex:writtenRep "casa"@it }',
}


def as_sent(query: str) -> str:
    """Virtuoso/ARQ projections in standard form, the CompL-it SERVICE as GRAPH on the same endpoint."""
    return rewrite_services(normalise_dialect(query)[0], DEFAULT_SERVICES)


def load(path: Path, id_key: str = "id") -> list[tuple[str, str]]:
    """``(id, sparql)`` pairs of a pool (JSONL) or of the reference file (a JSON array)."""
    if path.suffix == ".jsonl":
        return [(str(r[id_key]), r["sparql"]) for r in read_jsonl(path)]
    return [(str(r[id_key]), r["sparql"]) for r in json.loads(path.read_text(encoding="utf-8"))]


def run(title: str, queries, reference, servers: dict, timeout: float) -> dict:
    """Compare ``queries`` on the reference and each started server; print and return the summaries."""
    limits = Limits(timeout=timeout)
    kbs = {name: RemoteKB(server.url, limits=limits, retries=0) for name, server in servers.items()}
    start = time.perf_counter()
    outcomes = compare_engines(queries, reference, kbs, prepare=as_sent,
                               progress=lambda n: print(f"\r{title}: {n}/{len(queries)}", end="", file=sys.stderr))
    print(file=sys.stderr)
    result = {"title": title, "seconds": round(time.perf_counter() - start, 1),
              "engines": {name: summarise(o) for name, o in outcomes.items()}}
    print(f"{title}: {len(queries)} queries in {result['seconds']} s")
    for name, s in result["engines"].items():
        print(f"  {name:<10} executed {s['executed']:>4}/{s['queries']}  same rows {s['same']:>4}/{s['compared']}  "
              f"close {s['close']:>4}/{s['compared']}  failures {s['errors']}")
    result["failures"] = {name: [[o.id, o.error, o.detail] for o in out if o.error] for name, out in outcomes.items()}
    return result


def probes(reference, servers: dict, timeout: float) -> list[dict]:
    """Each probe on each engine: executed / same / the error or difference."""
    limits = Limits(timeout=timeout)
    kbs = {name: RemoteKB(server.url, limits=limits, retries=0) for name, server in servers.items()}
    outcomes = compare_engines([(k, P + q) for k, q in PROBES.items()], reference, kbs)
    rows = []
    print("probes (reference | " + " | ".join(kbs) + "):")
    for i, name in enumerate(PROBES):
        cells = {}
        for engine, out in outcomes.items():
            o = out[i]
            cells[engine] = "same" if o.same else ("close" if o.close else
                                                   (f"refused: {o.detail[:160]}" if not o.executed
                                                    else f"differs: {o.detail[:160]}"))
        cells["reference"] = "ok" if outcomes["reference"][i].executed else \
            f"refused: {outcomes['reference'][i].detail[:120]}"
        rows.append({"probe": name, **cells})
        print(f"  {name:<38} " + " | ".join(cells[e] for e in outcomes))
    return rows


def mirror_store(store: Path | None, tmp: Path) -> Path:
    """The mirror store to serve: ``--store``, else one built under ``tmp``."""
    if store is not None:
        return store
    target = tmp / "mirror-store"
    start = time.perf_counter()
    EmbeddedKB.build(target, sorted((SHARED / "liita" / "mirror").glob("*.nq.gz")), progress=False)
    print(f"built the mirror store in {time.perf_counter() - start:.1f} s")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", type=Path, help="pool generated from the sample (else the sample part is skipped)")
    parser.add_argument("--store", type=Path, help="existing on-disk store of the mirror (kb load)")
    parser.add_argument("--virtuoso-dir", type=Path, help="keep Virtuoso's mirror database here (reused)")
    parser.add_argument("--skip-mirror", action="store_true")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--json-out", type=Path, default=REPO / "bench" / "out" / "engines.json")
    args = parser.parse_args()
    load_avg = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"# bench/engines.py: nl2sparql {nl2sparql.__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {load_avg}; timeout {args.timeout:g} s")
    report: dict = {"timeout": args.timeout, "load_average": load_avg}
    with tempfile.TemporaryDirectory(prefix="nl2sparql-engines-") as tmp:
        if args.pool:
            with open_sample(limits=Limits(timeout=args.timeout)) as sample, \
                    OxigraphServer(query_timeout=args.timeout) as ox, VirtuosoServer(sample_files()) as vi:
                servers = {"oxigraph": ox, "virtuoso": vi}
                report["pool"] = run(f"pool {args.pool.name}", load(args.pool), sample, servers, args.timeout)
                report["probes"] = probes(sample, servers, args.timeout)
        reference_file = SHARED / "reference" / "nl2sparql_examples.json"
        if not args.skip_mirror and reference_file.is_file():
            store = mirror_store(args.store, Path(tmp))
            mirror_files = sorted((SHARED / "liita" / "mirror").glob("*.nq.gz"))
            start = time.perf_counter()
            with OxigraphServer(store, query_timeout=args.timeout) as ox, \
                    VirtuosoServer(mirror_files, directory=args.virtuoso_dir, buffers=100_000) as vi:
                print(f"servers up in {time.perf_counter() - start:.1f} s (Virtuoso bulk load included on a fresh dir)")
                with EmbeddedKB.on_disk(store, limits=Limits(timeout=args.timeout)) as embedded:
                    report["reference"] = run("reference queries on the mirror", load(reference_file), embedded,
                                              {"oxigraph": ox, "virtuoso": vi}, args.timeout)
    args.json_out.parent.mkdir(parents=True, exist_ok=True)
    args.json_out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"per-query results: {args.json_out}")


if __name__ == "__main__":
    main()
