"""Per-KB artefacts (nl2sparql/kb/artefacts.py): built once per KB content, kept on disk, shared, and rebuilt
with one line of notice when the KB changed or the file is corrupt or stale."""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from pathlib import Path

import pytest

from nl2sparql.kb import artefacts
from nl2sparql.kb.embedded import EmbeddedKB
from nl2sparql.kb.remote import RemoteKB

TRIPLES = "<http://example.org/a> <http://example.org/p> <http://example.org/b> .\n"
MORE = "<http://example.org/c> <http://example.org/p> <http://example.org/d> .\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache directory, nothing kept in memory, and the notices collected."""
    monkeypatch.setenv("NL2SPARQL_CACHE", str(tmp_path / "cache"))
    artefacts.forget()
    notices: list[str] = []
    monkeypatch.setattr(artefacts, "notify", notices.append)
    yield notices
    artefacts.forget()


class Counter:
    """A builder that counts its calls (and how many triples the KB held then)."""

    def __init__(self, kb=None, delay: float = 0.0):
        self.kb, self.delay, self.calls = kb, delay, 0

    def __call__(self):
        self.calls += 1
        time.sleep(self.delay)
        if self.kb is None:
            return {"n": self.calls}
        return {"triples": int(self.kb.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").rows[0][0].value)}


def get(kb, build, version="v1"):
    return artefacts.get_artefact(kb, "thing", build, version=version, what="the test artefact")


def ttl(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "data.ttl"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_artefact_is_built_once_then_read_from_memory_and_from_its_file(cache, tmp_path):
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    build = Counter(kb)
    assert get(kb, build) == {"triples": 1} and get(kb, build) == {"triples": 1} and build.calls == 1
    artefacts.forget()  # as a new process: the file is read, nothing is asked of the KB
    again = EmbeddedKB.in_memory([tmp_path / "data.ttl"])
    assert get(again, build) == {"triples": 1} and build.calls == 1
    files = list((tmp_path / "cache" / "kb").glob("*/thing.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["value"] == {"triples": 1}
    assert cache == []  # nothing to say: built quickly, read back fine
    kb.close()
    again.close()


def test_changed_content_gets_a_fresh_artefact_with_one_line_of_notice(cache, tmp_path):
    path = ttl(tmp_path, TRIPLES)
    kb = EmbeddedKB.in_memory([path])
    build = Counter(kb)
    assert get(kb, build) == {"triples": 1}
    kb.close()
    path.write_text(TRIPLES + MORE, encoding="utf-8")
    changed = EmbeddedKB.in_memory([path])
    build.kb = changed
    assert get(changed, build) == {"triples": 2} and build.calls == 2
    assert len(cache) == 1 and "built for other content of this KB; rebuilding it" in cache[0]
    changed.close()


def test_an_on_disk_store_extended_by_kb_load_gets_fresh_artefacts(cache, tmp_path):
    store = tmp_path / "store"
    EmbeddedKB.build(store, [ttl(tmp_path, TRIPLES)], progress=False)
    kb = EmbeddedKB.on_disk(store)
    build = Counter(kb)
    before = get(kb, build)
    kb.close()
    again = EmbeddedKB.on_disk(store)
    assert get(again, build) == before and build.calls == 1  # unchanged store: read back
    again.close()
    (tmp_path / "more.ttl").write_text(MORE, encoding="utf-8")
    EmbeddedKB.build(store, [tmp_path / "more.ttl"], progress=False)
    extended = EmbeddedKB.on_disk(store)
    build.kb = extended
    assert get(extended, build) != before and build.calls == 2
    assert any("other content" in line for line in cache)
    extended.close()


@pytest.mark.parametrize("damage", [b"{not json", b"\xff\xfe garbage", b'{"format": 1}', b"[]"])
def test_a_corrupt_file_is_rebuilt_with_one_line_and_no_traceback(cache, tmp_path, damage):
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    build = Counter(kb)
    get(kb, build)
    [path] = (tmp_path / "cache" / "kb").glob("*/thing.json")
    path.write_bytes(damage)
    artefacts.forget()
    assert get(kb, build) == {"triples": 1} and build.calls == 2
    assert len(cache) == 1 and "\n" not in cache[0] and str(path) in cache[0]
    assert "unreadable" in cache[0] or "corrupt" in cache[0]
    assert json.loads(path.read_text())["value"] == {"triples": 1}  # replaced by a good one
    kb.close()


def test_a_file_of_another_builder_version_is_stale(cache, tmp_path):
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    build = Counter()
    get(kb, build, version="v1")
    artefacts.forget()
    assert get(kb, build, version="v2") == {"n": 2}
    assert len(cache) == 1 and "another version" in cache[0]
    kb.close()


def test_a_remote_endpoints_artefacts_expire_after_their_time_to_live(cache, monkeypatch):
    kb = RemoteKB("http://127.0.0.1:9/sparql")  # never asked: the builder below does not query it
    build = Counter()
    assert get(kb, build) == {"n": 1} and get(kb, build) == {"n": 1}
    [path] = (Path(artefacts.artefact_root())).glob("*/thing.json")
    record = json.loads(path.read_text())
    record["built_at"] -= artefacts.REMOTE_TTL + 1
    path.write_text(json.dumps(record))
    artefacts.forget()
    assert get(kb, build) == {"n": 2}
    assert len(cache) == 1 and "time-to-live" in cache[0]
    monkeypatch.setenv("NL2SPARQL_KB_TTL", "0")  # a TTL of 0: every process asks again
    artefacts.forget()
    assert get(RemoteKB("http://127.0.0.1:9/sparql"), build) == {"n": 3}


def test_threads_asking_at_once_wait_for_one_build(cache, tmp_path):
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    build = Counter(delay=0.3)
    got = []
    threads = [threading.Thread(target=lambda: got.append(get(kb, build))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert build.calls == 1 and got == [{"n": 1}] * 4
    kb.close()


def _build_in_child(cache_dir: str, data: str, log: str) -> None:
    import os
    os.environ["NL2SPARQL_CACHE"] = cache_dir
    artefacts.forget()

    def build():
        with open(log, "a") as fh:
            fh.write("built\n")
        time.sleep(0.5)
        return "value"
    kb = EmbeddedKB.in_memory([Path(data)])
    assert artefacts.get_artefact(kb, "shared", build, version="v", what="x") == "value"


def test_processes_share_one_build_through_the_file(cache, tmp_path):
    data = ttl(tmp_path, TRIPLES)
    log = tmp_path / "builds.log"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_build_in_child, args=(str(tmp_path / "cache"), str(data), str(log)))
             for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0]
    assert log.read_text() == "built\n"


def test_a_kb_of_no_known_origin_keeps_its_artefacts_in_memory_only(cache, tmp_path):
    import pyoxigraph as ox
    kb = EmbeddedKB(ox.Store())
    build = Counter()
    assert get(kb, build) == {"n": 1} and get(kb, build) == {"n": 1} and build.calls == 1
    assert not (tmp_path / "cache" / "kb").exists()
    kb.close()


def test_the_lexicon_is_read_from_the_kb_once_per_content(cache, sample_kb, monkeypatch):
    from nl2sparql.translate.concepts import ConceptMapper

    asked = []
    digest = sample_kb.digest
    monkeypatch.setattr(sample_kb, "digest", lambda q, *a, **kw: asked.append(q) or digest(q, *a, **kw))
    first = ConceptMapper(sample_kb).lexicon()
    assert len(asked) == 2  # the Lemma Bank's and CompL-it's written forms
    assert ConceptMapper(sample_kb).lexicon() is first and len(asked) == 2  # one lexicon per process
    artefacts.forget()
    again = ConceptMapper(sample_kb).lexicon()
    assert len(asked) == 2 and again.forms == first.forms and again.pos == first.pos  # read from its file


class Written:
    """The storage an operator writes its rows to, kept in memory."""

    def write(self, rows: list[dict]) -> None:
        self.rows = rows


def test_the_sampler_facts_and_the_kb_profile_are_asked_once(cache, sample_kb, monkeypatch):
    from nl2sparql.operators import SchemaSampler

    asked = []
    digest, execute = sample_kb.digest, sample_kb.execute
    monkeypatch.setattr(sample_kb, "digest", lambda q, *a, **kw: asked.append(q) or digest(q, *a, **kw))
    monkeypatch.setattr(sample_kb, "execute", lambda q, *a, **kw: asked.append(q) or execute(q, *a, **kw))
    runs = []
    for i in range(2):
        storage = Written()
        report = SchemaSampler({"threads": 2}, kb=sample_kb).run(storage)
        runs.append((storage.rows, report.extra))
        if i == 0:
            first_asked = len(asked)
            assert first_asked > 3
    assert len(asked) == first_asked and runs[0] == runs[1]


def test_a_cache_directory_that_cannot_be_made_costs_a_notice_not_the_call(cache, tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("NL2SPARQL_CACHE", str(tmp_path / "a-file" / "cache"))
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    build = Counter()
    assert get(kb, build) == {"n": 1} and get(kb, build) == {"n": 1} and build.calls == 1  # kept in memory
    assert len(cache) == 1 and "NL2SPARQL_CACHE" in cache[0]
    kb.close()


def test_a_view_with_other_limits_shares_its_kbs_artefacts(cache, tmp_path):
    from nl2sparql.kb import Limits
    kb = EmbeddedKB.in_memory([ttl(tmp_path, TRIPLES)])
    view = kb.with_limits(Limits(timeout=5, max_rows=10))
    build = Counter(kb)
    assert get(kb, build) == get(view, build) and build.calls == 1
    assert artefacts.kb_key(view) == artefacts.kb_key(kb)


def test_an_artefact_built_in_another_thread_during_a_build_does_not_deadlock(cache):
    """A KB of no known origin keeps its artefacts by object: one build may wait on another artefact that a pool
    thread builds (the generator's facts on the KB profile), which a lock for the whole KB would deadlock."""
    from concurrent.futures import ThreadPoolExecutor

    class Bare:  # no store, no endpoint: artefacts kept by object only
        pass

    kb = Bare()
    inner = lambda: artefacts.get_artefact(kb, "inner", lambda: {"x": 1}, version="v", what="inner")  # noqa: E731

    def outer():
        pool = ThreadPoolExecutor(1)
        try:
            return {"inner": pool.submit(inner).result(timeout=5)}  # a deadlock is a TimeoutError here
        finally:
            pool.shutdown(wait=False)
    assert artefacts.get_artefact(kb, "outer", outer, version="v", what="outer") == {"inner": {"x": 1}}
