"""Run techniques on a candidate grid, easiest first, recording steps."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..puzzle import Puzzle
from .engine import CandidateGrid
from .steps import Step
from .techniques import TECHNIQUES, Technique

__all__ = ["apply_step", "iter_steps", "solve_logically", "LogicResult", "LogicStatus"]


class LogicStatus:
    """Why :func:`solve_logically` stopped."""

    SOLVED = "solved"
    STALLED = "stalled"  # no technique applies
    CONTRADICTION = "contradiction"  # the position is impossible
    TIMEOUT = "timeout"  # the deadline passed


@dataclass
class LogicResult:
    """The grid after logic, the steps taken and why it stopped."""

    grid: CandidateGrid
    steps: list[Step] = field(default_factory=list)
    status: str = LogicStatus.STALLED


def apply_step(grid: CandidateGrid, step: Step) -> None:
    """Make the step's placements and eliminations on ``grid``."""
    for cell, digit in step.placements:
        grid.place(cell, digit)
    for cell, digit in step.eliminations:
        grid.eliminate(cell, 1 << (digit - 1))


def iter_steps(
    grid: CandidateGrid,
    techniques: Sequence[Technique] = TECHNIQUES,
    *,
    deadline: float | None = None,
) -> Iterator[Step]:
    """Apply and yield steps until the grid is solved, broken or no technique applies.

    After each step the search restarts from the easiest technique, so a step is always
    the easiest one available. Check ``grid.broken`` / ``grid.is_solved`` afterwards.
    """
    finders = [t.find for t in techniques]
    clock = time.perf_counter
    while grid.empty and grid.broken is None:
        if deadline is not None and clock() > deadline:
            return
        for find in finders:
            step = find(grid)
            if grid.broken is not None:
                return
            if step is not None:
                apply_step(grid, step)
                yield step
                break
        else:
            return


def solve_logically(
    puzzle: Puzzle | CandidateGrid,
    *,
    techniques: Sequence[Technique] = TECHNIQUES,
    deadline: float | None = None,
) -> LogicResult:
    """Solve as far as the techniques go.

    ``deadline`` is a ``time.perf_counter()`` value. The status is ``solved``, ``stalled``,
    ``contradiction`` (the puzzle has no solution) or ``timeout``.
    """
    grid = puzzle if isinstance(puzzle, CandidateGrid) else CandidateGrid.from_puzzle(puzzle)
    result = LogicResult(grid)
    if grid.broken is None:
        result.steps.extend(iter_steps(grid, techniques, deadline=deadline))
    grid.check_full()  # a grid filled by singles may still break a sum or relation rule
    if grid.broken is not None:
        result.status = LogicStatus.CONTRADICTION
    elif grid.empty == 0:
        result.status = LogicStatus.SOLVED
    elif deadline is not None and time.perf_counter() > deadline:
        result.status = LogicStatus.TIMEOUT
    else:
        result.status = LogicStatus.STALLED
    return result
