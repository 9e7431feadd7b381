"""Grade a puzzle: the hardest technique it needs, a score, a level, a verdict."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grid import Grid
from ..puzzle import Puzzle
from ..solving import Budget, VerdictKind
from .engine import CandidateGrid
from .search import search
from .solver import LogicStatus, solve_logically
from .steps import Step
from .techniques import LEVELS, TECHNIQUES, TECHNIQUES_BY_KEY, Technique

__all__ = ["Grade", "grade", "LEVELS", "SEARCH_SCORE"]

#: Score added per explored guess when the techniques stall.
SEARCH_SCORE = 10.0


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is for a human, and whether it is a proper puzzle.

    Attributes:
        verdict: ``unique`` for a proper puzzle; ``multiple``, ``unsolvable``,
            ``contradictory`` or ``unknown`` (budget spent) otherwise: a puzzle that is
            not unique is never reported as solved and gets no level.
        level: ``easy`` .. ``expert`` from the hardest technique used, ``extreme`` when
            search was needed; None unless the verdict is ``unique``.
        score: sum of the per-step technique scores, plus :data:`SEARCH_SCORE` per guess.
        hardest: the key of the hardest technique used (``search`` when guessing was
            needed), None when no step was taken.
        histogram: technique key -> number of steps.
        guesses: guesses the fallback search explored (0 when logic sufficed).
        steps: the logical steps, in order (empty when ``keep_steps`` was False).
        solution: the solution when unique.
        seconds: wall time.
        nodes: positions the fallback search examined.
    """

    verdict: VerdictKind
    level: str | None
    score: float
    hardest: str | None
    histogram: dict[str, int]
    guesses: int
    seconds: float
    steps: tuple[Step, ...] = ()
    solution: Grid | None = None
    nodes: int = 0
    logic_steps: int = 0
    reason: str | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        """The fields ``sudoku rate`` writes (without steps and solution)."""
        return {
            "verdict": self.verdict.value,
            "level": self.level,
            "score": round(self.score, 2),
            "hardest": self.hardest,
            "techniques": dict(self.histogram),
            "guesses": self.guesses,
            "seconds": round(self.seconds, 6),
        }


def _hardest(histogram: dict[str, int]) -> Technique | None:
    best = None
    for key in histogram:
        t = TECHNIQUES_BY_KEY.get(key)
        if t is None:
            continue
        if best is None or (LEVELS.index(t.level), t.score) > (
            LEVELS.index(best.level),
            best.score,
        ):
            best = t
    return best


def grade(
    puzzle: Puzzle,
    *,
    techniques: Sequence[Technique] = TECHNIQUES,
    budget: Budget | None = None,
    keep_steps: bool = True,
) -> Grade:
    """Solve with techniques (easiest first), then search if they stall, and grade.

    The level is the level of the hardest technique used (``easy`` for singles only),
    or ``extreme`` when the techniques stalled and search had to guess. Budget seconds
    cover the whole call; budget nodes limit the fallback search. When the budget runs
    out the verdict is ``unknown``.

    >>> from sudoku_model import Puzzle
    >>> g = grade(Puzzle.parse("1.3..4.2.1.3..2."))
    >>> g.verdict.value, g.level, g.hardest
    ('unique', 'easy', 'naked_single')
    """
    start = time.perf_counter()
    scores = {t.key: t.score for t in TECHNIQUES}
    scores.update({t.key: t.score for t in techniques})
    if puzzle.conflicts():
        return Grade(
            VerdictKind.CONTRADICTORY,
            None,
            0.0,
            None,
            {},
            0,
            time.perf_counter() - start,
            reason="; ".join(c.describe(puzzle.shape) for c in puzzle.conflicts()),
        )
    deadline = None if budget is None or budget.seconds is None else start + budget.seconds
    grid = CandidateGrid.from_puzzle(puzzle)
    result = solve_logically(grid, techniques=techniques, deadline=deadline)
    histogram = Counter(s.technique for s in result.steps)
    score = sum(scores[s.technique] for s in result.steps)
    hardest = _hardest(histogram)
    steps = tuple(result.steps) if keep_steps else ()
    logic_steps = len(result.steps)

    def done(
        verdict: VerdictKind,
        level: str | None,
        *,
        guesses: int = 0,
        nodes: int = 0,
        solution: Grid | None = None,
        hardest_key: str | None = None,
        reason: str | None = None,
    ) -> Grade:
        key = hardest_key or (hardest.key if hardest else None)
        return Grade(
            verdict,
            level,
            score + SEARCH_SCORE * guesses,
            key,
            dict(histogram),
            guesses,
            time.perf_counter() - start,
            solution=solution,
            nodes=nodes,
            reason=reason,
            steps=steps,
            logic_steps=logic_steps,
        )

    if result.status == LogicStatus.CONTRADICTION:
        return done(VerdictKind.UNSOLVABLE, None, reason=grid.broken)
    if result.status == LogicStatus.TIMEOUT:
        return done(VerdictKind.UNKNOWN, None, reason="budget spent during logic")
    if result.status == LogicStatus.SOLVED:
        solution = grid.to_grid()
        if not puzzle.is_solution(solution):  # would be a bug in a technique
            raise AssertionError(f"logic produced a wrong solution for {puzzle}")
        level = hardest.level if hardest else LEVELS[0]
        return done(VerdictKind.UNIQUE, level, solution=solution)
    found = search(
        grid, limit=2, deadline=deadline, node_limit=None if budget is None else budget.nodes
    )
    if len(found.solutions) >= 2:
        return done(
            VerdictKind.MULTIPLE,
            None,
            guesses=found.guesses,
            nodes=found.nodes,
            hardest_key="search",
        )
    if not found.complete:
        return done(
            VerdictKind.UNKNOWN,
            None,
            guesses=found.guesses,
            nodes=found.nodes,
            reason="budget spent during search",
        )
    if not found.solutions:
        return done(
            VerdictKind.UNSOLVABLE,
            None,
            guesses=found.guesses,
            nodes=found.nodes,
            hardest_key="search",
        )
    solution = Grid._trusted(puzzle.shape, found.solutions[0])
    return done(
        VerdictKind.UNIQUE,
        "extreme",
        guesses=found.guesses,
        nodes=found.nodes,
        solution=solution,
        hardest_key="search",
    )
