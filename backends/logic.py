"""The ``logic`` backend: human techniques first, then backtracking on the candidates.

Every default technique is a sound deduction (none assumes uniqueness), so the position
after logic has exactly the solutions of the puzzle; counting continues from there with a
depth-first search (fewest candidates first, singles after each guess).

>>> from sudoku_model import Puzzle, get_backend
>>> backend = get_backend("logic")
>>> backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value
'unique'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

__all__ = ["LogicBackend", "create"]

#: Sub-solver names: which techniques run before the search.
TECHNIQUE_SETS = ("all", "singles")


class LogicBackend(Backend):
    """Techniques, then search. ``logic`` runs every default technique; ``logic:singles``
    only naked and hidden singles before searching (faster, same answers)."""

    name = "logic"
    capabilities = Capabilities(
        rule_kinds=frozenset({"all_different", "different"}),
        min_size=4,
        max_size=25,
        budgets=("seconds", "nodes"),
        notes="pure Python; fast up to 9x9, slow on large grids (16x16 and up, 25x25 can "
        "take seconds to minutes); nodes count fallback-search positions",
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
        from sudoku_model.logic import CandidateGrid, LogicStatus, search, solve_logically

        start = time.perf_counter()
        deadline = budget.deadline(start)
        grid = CandidateGrid.from_puzzle(puzzle)
        logic = solve_logically(grid, techniques=self._techniques, deadline=deadline)
        stats: dict[str, Any] = {"logic_steps": len(logic.steps), "nodes": 0, "guesses": 0}
        if logic.status == LogicStatus.CONTRADICTION:
            return SearchOutcome([], True, stats)
        if logic.status == LogicStatus.TIMEOUT:
            return SearchOutcome([], False, stats, stopped_by_budget=True)
        if logic.status == LogicStatus.SOLVED:
            return SearchOutcome([grid.to_grid()], True, stats)
        found = search(grid, limit=limit, deadline=deadline, node_limit=budget.nodes)
        stats["nodes"] = found.nodes
        stats["guesses"] = found.guesses
        shape = puzzle.shape
        solutions = [Grid._trusted(shape, values) for values in found.solutions]
        return SearchOutcome(
            solutions, found.complete, stats, stopped_by_budget=found.stopped_by_budget
        )


def create(sub: str | None = None, **options: Any) -> LogicBackend:
    """The backend factory named by the ``logic`` entry point.

    Raises:
        ValueError: for an unknown sub-solver (``logic:all``, ``logic:singles``).
    """
    return LogicBackend(sub or options.pop("techniques", "all"), **options)
