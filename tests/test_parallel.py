"""fork_imap: results in order from forked processes, lazily, errors raised, the same as in one process."""

from __future__ import annotations

import os
import time

import pytest

from nl2sparql import parallel
from nl2sparql.parallel import fork_imap, fork_map

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="this platform cannot fork processes")


def _pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_results_come_in_order_from_other_processes():
    results = fork_map(_pid_and_square, range(2000), workers=2, chunk=50)
    assert [square for _, square in results] == [x * x for x in range(2000)]  # complete, in order
    pids = {pid for pid, _ in results}
    # computed in forked children (how the items were shared between the two is the scheduler's business)
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_one_worker_or_few_items_run_here_with_the_same_results():
    for workers, n in ((1, 2000), (2, 10)):
        results = fork_map(_pid_and_square, range(n), workers=workers)
        assert results == [(os.getpid(), x * x) for x in range(n)]


def test_closures_and_items_reach_the_children_without_pickling():
    offset = 7
    items = [object() for _ in range(1000)]  # objects that would not come back equal, only ids are returned
    ids = fork_map(lambda item: id(item) + offset, items, workers=2, chunk=64)  # a lambda cannot be pickled
    assert ids == [id(item) + offset for item in items]


def test_an_error_in_a_child_is_raised_here():
    def fails_at_700(x: int) -> int:
        if x == 700:
            raise ValueError("bad item 700")
        return x

    with pytest.raises(ValueError, match="bad item 700"):
        fork_map(fails_at_700, range(2000), workers=2, chunk=100)


def test_closing_early_stops_the_children_and_wastes_little(tmp_path):
    marks = tmp_path / "done"
    marks.mkdir()

    def slow(x: int) -> int:
        (marks / str(x)).touch()
        time.sleep(0.002)
        return x

    results = fork_imap(slow, range(100_000), workers=2, chunk=50)
    assert [next(results) for _ in range(120)] == list(range(120))
    results.close()
    started = len(list(marks.iterdir()))
    time.sleep(0.3)
    assert len(list(marks.iterdir())) == started  # nothing runs after the close
    assert started <= 120 + 2 * 2 * 50  # at most two chunks per child ahead of the reader


def test_two_threads_mapping_at_once_each_get_their_own_results():
    from concurrent.futures import ThreadPoolExecutor

    def mapped(offset: int) -> list[int]:
        return fork_map(lambda x: x + offset, range(1500), workers=2, chunk=50)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(mapped, [0, 10_000, 20_000, 30_000]))
    assert results == [[x + offset for x in range(1500)] for offset in (0, 10_000, 20_000, 30_000)]
