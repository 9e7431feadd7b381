"""The ``logic`` backend: human techniques first, then backtracking on the candidates.

Every default technique is a sound deduction (none assumes uniqueness), so the position
after logic has exactly the solutions of the puzzle; counting continues from there with a
depth-first search (fewest candidates first, singles after each guess, and the relation,
sum and sandwich rules swept after them: killer cages, dots, arrows... are never left to a
final check alone).

The search looks at the clock and at :meth:`LogicBackend.interrupt` at every node (a node
costs far more than a clock read), so it stops within a node of its deadline; a count keeps
at most :data:`MAX_KEPT` grids and counts the rest without holding them, and
``solutions()`` streams them.

>>> from sudoku_model import Puzzle, get_backend
>>> backend = get_backend("logic")
>>> backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value
'unique'
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RULE_KINDS
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

__all__ = ["LogicBackend", "create", "MAX_KEPT"]

#: Most grids a count keeps (as the native backend): it counts further without them.
MAX_KEPT = 10_000

#: Sub-solver names: which techniques run before the search.
TECHNIQUE_SETS = ("all", "singles")


class LogicBackend(Backend):
    """Techniques, then search. ``logic`` runs every default technique; ``logic:singles``
    only naked and hidden singles before searching (faster, same answers)."""

    name = "logic"
    capabilities = Capabilities(
        rule_kinds=frozenset(RULE_KINDS),
        min_size=4,
        max_size=25,
        budgets=("seconds", "nodes"),
        notes="pure Python; fast up to 9x9, slow on large grids (16x16 and up, 25x25 can "
        "take seconds to minutes); nodes count fallback-search positions",
        sub_solvers=TECHNIQUE_SETS,
    )

    def __init__(self, techniques: str = "all") -> None:
        from sudoku_model.logic import SINGLES, TECHNIQUES

        if techniques not in TECHNIQUE_SETS:
            raise ValueError(
                f"unknown logic technique set {techniques!r}; known: {', '.join(TECHNIQUE_SETS)}"
            )
        self.name = "logic" if techniques == "all" else f"logic:{techniques}"
        self._techniques: Sequence[Any] = TECHNIQUES if techniques == "all" else SINGLES

    def version(self) -> str:
        from sudoku_model import __version__

        return __version__

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        stats: dict[str, Any] = {"logic_steps": 0, "nodes": 0, "guesses": 0}
        state = {"complete": False, "stopped_by_budget": False}
        shape = puzzle.shape
        kept: list[Grid] = []
        count = 0
        for values in self._solutions(puzzle, limit, budget, stats, state):
            count += 1
            if len(kept) < MAX_KEPT:
                kept.append(Grid._trusted(shape, values))
        return SearchOutcome(
            kept,
            state["complete"],
            stats,
            stopped_by_budget=state["stopped_by_budget"],
            count=count,
        )

    def _iter_solutions(
        self, puzzle: Puzzle, *, limit: int | None, budget: Budget, state: dict[str, bool]
    ) -> Iterator[Grid]:
        shape = puzzle.shape
        run = {"complete": False, "stopped_by_budget": False}
        for values in self._solutions(puzzle, limit, budget, {}, run):
            yield Grid._trusted(shape, values)
        state["complete"] = run["complete"]

    def _solutions(
        self,
        puzzle: Puzzle,
        limit: int | None,
        budget: Budget,
        stats: dict[str, Any],
        state: dict[str, bool],
    ) -> Iterator[tuple[int, ...]]:
        """Yield up to ``limit`` solutions (value tuples): techniques, then a depth-first
        search. ``state`` gets ``complete`` / ``stopped_by_budget``, ``stats`` the counters.

        Raises:
            SearchInterrupted: after :meth:`interrupt` (checked at every node).
        """
        from sudoku_model.logic import CandidateGrid, LogicStatus, solve_logically
        from sudoku_model.logic.search import SearchResult, iter_search

        start = time.perf_counter()
        deadline = budget.deadline(start)
        grid = CandidateGrid.from_puzzle(puzzle)
        logic = solve_logically(grid, techniques=self._techniques, deadline=deadline)
        self._check_interrupt()
        stats.update(logic_steps=len(logic.steps), nodes=0, guesses=0)
        if logic.status == LogicStatus.CONTRADICTION:
            state["complete"] = True
            return
        if logic.status == LogicStatus.TIMEOUT:
            state["stopped_by_budget"] = True
            return
        if logic.status == LogicStatus.SOLVED:
            state["complete"] = True
            yield tuple(grid.values)
            return
        walk = SearchResult()
        found = 0
        try:
            # the clock at every node: a node costs far more than a clock read
            for values in iter_search(
                grid,
                walk,
                deadline=deadline,
                node_limit=budget.nodes,
                clock_every=1,
                check=self._check_interrupt,
            ):
                yield values
                found += 1
                if limit is not None and found >= limit:
                    break
            state["complete"] = walk.complete
            state["stopped_by_budget"] = walk.stopped_by_budget
        finally:
            stats["nodes"] = walk.nodes
            stats["guesses"] = walk.guesses


def create(sub: str | None = None, **options: Any) -> LogicBackend:
    """The backend factory named by the ``logic`` entry point.

    Raises:
        ValueError: for an unknown sub-solver (``logic:all``, ``logic:singles``).
    """
    return LogicBackend(sub or options.pop("techniques", "all"), **options)
