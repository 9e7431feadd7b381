"""Sudoku modelling toolkit: one puzzle model, several solver backends.

>>> from sudoku_model import Puzzle, Shape
>>> p = Puzzle.parse(".2..3....1....4.")
>>> p.shape == Shape(2, 2)
True
"""

from __future__ import annotations

from .errors import (
    BackendNotFoundError,
    BackendUnavailableError,
    ParseError,
    ShapeError,
    SudokuError,
    UnsupportedPuzzleError,
)
from .geometry import Shape, shape_for_cell_count, shape_for_size
from .grid import DEFAULT_ALPHABET, ZERO_BASED_ALPHABET, Alphabet, Grid
from .puzzle import CheckReport, Conflict, Problem, Puzzle
from .rules import AllDifferent, Different, RuleSet
from .solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    CountResult,
    SolveResult,
    SolveStatus,
    Verdict,
    VerdictKind,
    available_backends,
    get_backend,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ALPHABET",
    "DEFAULT_BUDGET",
    "ZERO_BASED_ALPHABET",
    "AllDifferent",
    "Alphabet",
    "Backend",
    "BackendNotFoundError",
    "BackendUnavailableError",
    "Budget",
    "CheckReport",
    "Conflict",
    "CountResult",
    "Different",
    "Grid",
    "ParseError",
    "Problem",
    "Puzzle",
    "RuleSet",
    "Shape",
    "ShapeError",
    "SolveResult",
    "SolveStatus",
    "SudokuError",
    "UnsupportedPuzzleError",
    "Verdict",
    "VerdictKind",
    "__version__",
    "available_backends",
    "get_backend",
    "shape_for_cell_count",
    "shape_for_size",
]
