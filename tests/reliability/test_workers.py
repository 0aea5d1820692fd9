"""Issue 18, cases 2–4 on the embedded store: deadlines, workers that die with their parent, a memory cap."""

from __future__ import annotations

import os
import signal
import time

import pytest
from corpus import RUNAWAY, doubling
from reliability_helpers import alive, assert_one_line_error, children_of, gen, spawn

#: Every pair of triples, sorted: rows grow as the square of the sample (memory and time).
CARTESIAN = "SELECT ?a ?f WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?a ?f ?c ?d"


def wait_for(predicate, seconds: float, step: float = 0.05):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_the_cli(sig, clean_env):
    proc = spawn("nl2sparql-gen", "kb", "query", RUNAWAY, "--timeout", "300")
    workers: set[int] = set()
    try:
        workers = wait_for(lambda: children_of(proc.pid), 60)
        assert workers, "the query worker never started"
        time.sleep(1.0)  # the worker is busy with the runaway query
        proc.send_signal(sig)
        proc.wait(timeout=10)
        survivors = wait_for(lambda: not any(alive(pid) for pid in workers), 5) or \
            [pid for pid in workers if alive(pid)]
        assert survivors is True, f"workers still alive after {sig.name}: {survivors}"
    finally:
        for pid in children_of(proc.pid) | set(workers or ()) | {proc.pid}:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.mark.parametrize("query", [CARTESIAN, doubling()], ids=["order-by-cartesian", "string-doubling"])
def test_memory_cap_is_one_line(query, monkeypatch, clean_env):
    monkeypatch.setenv("NL2SPARQL_WORKER_MEMORY", "512M")
    start = time.monotonic()
    proc = spawn("nl2sparql-gen", "kb", "query", query, "--timeout", "10")
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.monotonic() - start < 45
    assert proc.returncode == 2, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "memory cap" in lines[0] and "512 MiB" in lines[0], stderr
    assert "backtrace" not in stderr.lower() and "panicked" not in stderr


def test_timeout_stops_a_runaway_query(clean_env):
    start = time.monotonic()
    result = gen("kb", "query", RUNAWAY, "--timeout", "2")
    assert_one_line_error(result, "2 s time budget")
    assert time.monotonic() - start < 15


def test_a_worker_holds_no_pipe_of_its_parent(clean_env):
    """A child the parent talks to through a pipe (an MCP server over stdio, ``kb serve``) sees the end of its
    input when the parent closes it, though a query worker was forked while the pipe was open."""
    import subprocess

    from nl2sparql.kb import open_sample
    child = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    kb = open_sample()
    try:
        kb.ask("ASK { ?s ?p ?o }")  # forks the worker while the pipe to cat is open
        child.stdin.close()
        assert child.wait(timeout=5) == 0
    finally:
        child.kill()
        kb.close()


def _open_files() -> list:
    return [open(os.devnull, "rb") for _ in range(40)]


def _collect_then_count_lost(files: list, message: str) -> int:
    """A worker handle: collect the garbage copied from the parent, then count the files ``init`` opened that
    are no longer open (a descriptor number the garbage collector closed under them)."""
    import gc

    gc.collect()
    lost = 0
    for f in files:
        try:
            os.fstat(f.fileno())
        except OSError:
            lost += 1
    return lost


class _Cycle:
    """Garbage that owns descriptors and lives until the cycle collector runs."""


def test_garbage_from_the_parent_never_closes_a_workers_files():
    """A worker lets go of inherited sockets and pipes; Python objects copied from the parent that own them
    (here in reference cycles, as a finished subprocess or connection can be) may be collected in the worker
    later. Their numbers must not have been handed to the files the worker opened since (the on-disk store's
    index files: "Bad file descriptor" on the mirror after a worker was replaced)."""
    import gc
    import socket

    from nl2sparql.sparql.sandbox import WorkerPool

    gc.disable()  # keep the cycles alive until the fork
    try:
        for _ in range(5):
            holder = _Cycle()
            holder.me = holder
            read, write = os.pipe()
            holder.pipe = (os.fdopen(read, "rb"), os.fdopen(write, "wb"))
            holder.socket = socket.socket()
            del holder
        pool = WorkerPool(_open_files, _collect_then_count_lost, size=1)
        try:
            assert pool.call("check", 30, TimeoutError) == 0
        finally:
            pool.close()
    finally:
        gc.enable()
        gc.collect()


def _grow(state: dict, message: str):
    """A worker handle whose second and later ``crash-if-used`` messages abort the process (a worker
    that grew over its earlier queries); ``crash`` always aborts."""
    state["answered"] = state.get("answered", 0) + 1
    if message == "crash" or (message == "crash-if-used" and state["answered"] > 1):
        os.abort()
    return f"{message}:{os.getpid()}"


def test_a_used_worker_that_dies_gets_one_retry_on_a_fresh_one():
    from nl2sparql.sparql.sandbox import WorkerDied, WorkerPool

    pool = WorkerPool(dict, _grow, size=1)
    try:
        first = pool.call("ping", 30, TimeoutError)
        retried = pool.call("crash-if-used", 30, TimeoutError)  # the used worker aborts; a fresh one answers
        assert retried.startswith("crash-if-used:") and retried.split(":")[1] != first.split(":")[1]
        with pytest.raises(WorkerDied, match="died"):
            pool.call("crash", 30, TimeoutError)  # the fresh worker's failure is the query's own
    finally:
        pool.close()
