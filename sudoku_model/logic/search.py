"""Backtracking on the candidate grid, for positions the techniques cannot finish.

Depth first, fewest-candidates cell first, naked and hidden singles after every guess.
A *guess* is one assumed placement that the search actually explored; a *node* is one
position examined.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .engine import CandidateGrid

__all__ = ["iter_search", "search", "SearchResult"]


@dataclass
class SearchResult:
    """Solutions found (value tuples), whether the space was exhausted, and counters."""

    solutions: list[tuple[int, ...]] = field(default_factory=list)
    complete: bool = False
    stopped_by_budget: bool = False
    nodes: int = 0
    guesses: int = 0


def search(
    grid: CandidateGrid, *, limit: int, deadline: float | None = None, node_limit: int | None = None
) -> SearchResult:
    """Find up to ``limit`` solutions of ``grid`` (left untouched).

    ``complete`` is True only when every branch was explored; a search stopped by the
    limit, the ``deadline`` (a ``time.perf_counter()`` value) or ``node_limit`` is not.
    """
    result = SearchResult()
    for values in iter_search(grid, result, deadline=deadline, node_limit=node_limit):
        result.solutions.append(values)
        if len(result.solutions) >= limit:
            break
    return result


def iter_search(
    grid: CandidateGrid,
    result: SearchResult,
    *,
    deadline: float | None = None,
    node_limit: int | None = None,
    clock_every: int = 32,
    check: Callable[[], None] | None = None,
) -> Iterator[tuple[int, ...]]:
    """Yield the solutions of ``grid`` (left untouched) one by one, as value tuples.

    ``result`` gets the counters (``nodes``, ``guesses``) and the outcome: ``complete``
    is True once every branch was explored (also when the consumer stops after a solution
    that left no branch), ``stopped_by_budget`` when the ``deadline`` (looked at every
    ``clock_every`` nodes) or ``node_limit`` ended it. ``check`` runs at every node and may
    raise to stop the search (an interrupt).
    """
    if grid.broken is not None:
        result.complete = True
        return
    clock = time.perf_counter
    stack: list[tuple[CandidateGrid, bool]] = [(grid.copy(), False)]
    n = grid.tables.n
    while stack:
        g, guessed = stack.pop()
        result.nodes += 1
        if guessed:
            result.guesses += 1
        if node_limit is not None and result.nodes > node_limit:
            result.stopped_by_budget = True
            return
        if deadline is not None and result.nodes % clock_every == 0 and clock() > deadline:
            result.stopped_by_budget = True
            return
        if check is not None:
            check()
        g.touched.clear()  # no cached technique runs during search
        if not g.propagate():  # singles, and the relation, sum and sandwich rules
            continue
        if g.empty == 0:
            result.complete = not stack  # stands if the consumer stops here
            yield tuple(g.values)
            result.complete = False
            continue
        cands = g.cands
        best = -1
        best_count = n + 1
        for c, m in enumerate(cands):
            if m:
                k = m.bit_count()
                if k < best_count:
                    best, best_count = c, k
                    if k == 2:
                        break
        m = cands[best]
        digits = [d + 1 for d in range(n) if m >> d & 1]
        for d in reversed(digits):  # so the smallest digit is tried first
            child = g.copy()
            child.place(best, d)
            stack.append((child, True))
    result.complete = True
