"""Small bipartite-matching helpers (no SciPy): augmenting paths and bounded enumeration.

Used twice by the scorer: to map gold columns to predicted columns whose
value fingerprints agree, and to pair rows that agree only within a numeric
tolerance (where hashing cannot pair them).
"""

from __future__ import annotations

from typing import Iterator, Sequence


def max_matching(adj: Sequence[Sequence[int]], n_right: int) -> list[int]:
    """A maximum matching of a bipartite graph (Kuhn's augmenting paths, iterative).

    ``adj[u]`` lists the right vertices left vertex ``u`` may take. Returns,
    for every left vertex, its right partner or ``-1``.
    """
    match_left = [-1] * len(adj)
    match_right = [-1] * n_right
    stamp = [-1] * n_right
    for root in range(len(adj)):
        if not adj[root]:
            continue
        parent: dict[int, int] = {}
        stack = [(root, iter(adj[root]))]
        free = -1
        while stack and free < 0:
            left, options = stack[-1]
            for right in options:
                if stamp[right] == root:
                    continue
                stamp[right] = root
                parent[right] = left
                if match_right[right] < 0:
                    free = right
                else:
                    nxt = match_right[right]
                    stack.append((nxt, iter(adj[nxt])))
                break
            else:
                stack.pop()
        if free < 0:
            continue
        right = free
        while True:  # flip the augmenting path back to the root
            left = parent[right]
            previous = match_left[left]
            match_left[left] = right
            match_right[right] = left
            if left == root:
                break
            right = previous
    return match_left


def has_perfect_matching(adj: Sequence[Sequence[int]], n_right: int) -> bool:
    """Whether every left vertex can be matched to a distinct right vertex."""
    if len(adj) > n_right:
        return False
    return all(m >= 0 for m in max_matching(adj, n_right))


def iter_assignments(candidates: Sequence[Sequence[int]], n_right: int,
                     limit: int) -> Iterator[list[int]]:
    """Yield up to ``limit`` injective assignments ``left -> right`` within ``candidates``.

    Backtracking visits the most constrained left vertex first and prunes any
    branch after which the remaining vertices have no perfect matching, so
    each yielded assignment costs a few matchings, and the common case (a
    single consistent assignment) is found without trying permutations.
    Candidate lists are tried in the order given.
    """
    n = len(candidates)
    if limit <= 0 or not has_perfect_matching(candidates, n_right):
        return
    order = sorted(range(n), key=lambda i: len(candidates[i]))
    assignment = [-1] * n
    used = [False] * n_right
    produced = 0

    def feasible(depth: int) -> bool:
        rest = [[c for c in candidates[i] if not used[c]] for i in order[depth:]]
        return has_perfect_matching(rest, n_right)

    def walk(depth: int) -> Iterator[list[int]]:
        nonlocal produced
        if depth == n:
            produced += 1
            yield list(assignment)
            return
        left = order[depth]
        for right in candidates[left]:
            if used[right]:
                continue
            used[right] = True
            assignment[left] = right
            if depth + 1 == n or feasible(depth + 1):
                yield from walk(depth + 1)
            used[right] = False
            assignment[left] = -1
            if produced >= limit:
                return

    yield from walk(0)
