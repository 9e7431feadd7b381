"""A backend written from the contract alone, for the tests: a pure-Python backtracker that
implements only what :class:`~sudoku_model.solving.Backend` requires (``_search``), and
checks the relation, domain, sum and sandwich rules with their own checkers.

A module of its own (importable as ``minimal_backend`` once ``tests/`` is on ``sys.path``),
so that its factory :func:`create` pickles by reference and the executor's worker processes
can register it again.
"""

from __future__ import annotations

import time
from typing import Any

from sudoku_model import Puzzle
from sudoku_model.grid import Grid
from sudoku_model.rules import RULE_KINDS
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

NAME = "minimal"


class MinimalBackend(Backend):
    """Depth-first search on candidate bitmasks, the cell with fewest candidates first."""

    name = NAME
    capabilities = Capabilities(
        frozenset(RULE_KINDS),
        min_size=4,
        max_size=16,
        budgets=("seconds", "nodes"),
        notes="tests only: a plain Python backtracker",
    )

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        rules = puzzle.rules
        n = puzzle.size
        full = (1 << n) - 1
        peers = [tuple(p) for p in rules.peers]
        values = list(puzzle.givens.values)
        deadline = budget.deadline(time.perf_counter())
        found: list[Grid] = []
        nodes = 0
        stopped = False
        # Relation, domain, sum and sandwich rules: a branch dies as soon as the filled
        # cells break one (the rules' own checkers, so this backend is an oracle that
        # shares no encoding with the solvers it is compared with).
        broken = rules.violations if rules.constraint_rules else None

        def candidates(cell: int) -> int:
            used = 0
            for p in peers[cell]:
                if values[p]:
                    used |= 1 << (values[p] - 1)
            return full & ~used

        def walk() -> bool:
            """False when the search must stop (limit reached or budget spent)."""
            nonlocal nodes, stopped
            nodes += 1
            if (budget.nodes is not None and nodes > budget.nodes) or (
                deadline is not None and nodes % 256 == 0 and time.perf_counter() > deadline
            ):
                stopped = True
                return False
            best, best_mask, best_count = -1, 0, n + 1
            for cell, v in enumerate(values):
                if not v:
                    mask = candidates(cell)
                    count = mask.bit_count()
                    if count < best_count:
                        best, best_mask, best_count = cell, mask, count
                        if count <= 1:
                            break
            if best < 0:
                found.append(Grid._trusted(puzzle.shape, tuple(values)))
                return len(found) < limit
            while best_mask:
                bit = best_mask & -best_mask
                best_mask ^= bit
                values[best] = bit.bit_length()
                if broken is not None and broken(values):
                    continue
                if not walk():
                    values[best] = 0
                    return False
            values[best] = 0
            return True

        complete = walk()
        stats: dict[str, Any] = {"nodes": nodes}
        return SearchOutcome(found, complete, stats, stopped_by_budget=stopped)


def create(sub: str | None = None, **options: Any) -> MinimalBackend:
    """The factory registered under :data:`NAME` (as an entry point's would be called)."""
    return MinimalBackend()
