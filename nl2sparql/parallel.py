"""Pure-Python work per item spread over forked processes (the generator's composer and row steps).

Generation spends its main-process time in Python per item (drawing a candidate, phrasing,
tagging and checking a row), one core while the other idles. :func:`fork_imap` runs such a
function over a sequence in ``workers`` forked processes and yields the results in order, lazily:
the children inherit the function and the items (nothing is pickled on the way in, only results
come back), and a caller that stops reading (the composer, once it has enough candidates) stops
the children. One worker, a short sequence or a platform without ``fork`` runs in this process,
with the same results.

The function must be pure for its item (its result the same in any process, in any order):
results are computed in whichever child, and state a child changes never comes back.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from collections import deque
from typing import Callable, Iterator, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Items below this many per worker run in this process (a fork of a large process costs tens of ms).
MIN_PER_WORKER = 256

# what the children run: set just before the fork, inherited, cleared after (under the lock: two threads
# starting pools at once must not hand each other's task to their children)
_TASK: tuple[Callable, Sequence] | None = None
_FORKING = threading.Lock()


def _chunk(bounds: tuple[int, int]) -> list:
    fn, items = _TASK
    return [fn(items[i]) for i in range(*bounds)]


def can_fork() -> bool:
    """True where processes can be forked (Linux, macOS)."""
    return "fork" in mp.get_all_start_methods()


def fork_imap(fn: Callable[[T], R], items: Sequence[T], workers: int, chunk: int = 256) -> Iterator[R]:
    """``fn(item)`` for each item, in order, computed in up to ``workers`` forked processes.

    Lazy: closing the iterator (or leaving a ``for`` loop over it) terminates the children. Children
    work at most a few chunks ahead of the reader.
    """
    global _TASK
    if workers <= 1 or len(items) < MIN_PER_WORKER * 2 or not can_fork():
        yield from map(fn, items)
        return
    if _TASK is not None:  # in a child: a task that itself maps runs in its process
        yield from map(fn, items)
        return
    bounds = [(i, min(i + chunk, len(items))) for i in range(0, len(items), chunk)]
    with _FORKING:
        _TASK = (fn, items)
        try:
            pool = mp.get_context("fork").Pool(workers)
        finally:
            _TASK = None  # the children have their copy
    pending: deque = deque()
    submitted = 0
    try:
        while pending or submitted < len(bounds):
            # two chunks per child in flight: enough to keep them busy, little wasted when the reader stops
            while submitted < len(bounds) and len(pending) < 2 * workers:
                pending.append(pool.apply_async(_chunk, (bounds[submitted],)))
                submitted += 1
            yield from pending.popleft().get()
    finally:
        pool.terminate()
        pool.join()


def fork_map(fn: Callable[[T], R], items: Sequence[T], workers: int, chunk: int = 256) -> list[R]:
    """``list(fork_imap(...))``: every result, in order."""
    return list(fork_imap(fn, items, workers, chunk))
