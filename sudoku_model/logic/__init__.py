"""The logical solver: human techniques on a candidate grid, explained step by step,
with a difficulty grade.

>>> from sudoku_model import Puzzle
>>> from sudoku_model.logic import grade, next_step
>>> p = Puzzle.parse("1.3..4.2.1.3..2.")
>>> next_step(p).explanation
'r4c2 = 3: the only candidate left in the cell'
>>> grade(p).level
'easy'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..puzzle import Puzzle
from .engine import CandidateGrid
from .grading import SEARCH_SCORE, Grade, grade
from .search import SearchResult, search
from .solver import LogicResult, LogicStatus, apply_step, iter_steps, solve_logically
from .steps import Step
from .tables import Tables, tables_for
from .techniques import LEVELS, SINGLES, TECHNIQUES, TECHNIQUES_BY_KEY, Technique, select_techniques

__all__ = [
    "CandidateGrid",
    "Grade",
    "grade",
    "SEARCH_SCORE",
    "SearchResult",
    "search",
    "LogicResult",
    "LogicStatus",
    "apply_step",
    "iter_steps",
    "solve_logically",
    "Step",
    "Tables",
    "tables_for",
    "LEVELS",
    "SINGLES",
    "TECHNIQUES",
    "TECHNIQUES_BY_KEY",
    "Technique",
    "select_techniques",
    "next_step",
]


def next_step(puzzle: Puzzle, *, techniques: Sequence[Technique] = TECHNIQUES) -> Step | None:
    """The easiest step available in the puzzle as given (None when it is solved,
    broken, or no technique applies)."""
    grid = CandidateGrid.from_puzzle(puzzle)
    if grid.broken is not None:
        return None
    return next(iter_steps(grid, techniques), None)
