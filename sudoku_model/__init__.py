"""Sudoku modelling toolkit: one puzzle model, several solver backends.

>>> from sudoku_model import Puzzle, Shape
>>> p = Puzzle.parse(".2..3....1....4.")
>>> p.shape == Shape(2, 2)
True
"""

from __future__ import annotations

from .errors import (BackendNotFoundError, BackendUnavailableError, ParseError,
                     ShapeError, SudokuError, UnsupportedPuzzleError)
from .geometry import Shape, shape_for_cell_count, shape_for_size
from .grid import DEFAULT_ALPHABET, ZERO_BASED_ALPHABET, Alphabet, Grid
from .puzzle import CheckReport, Conflict, Problem, Puzzle
from .rules import AllDifferent, Different, RuleSet
from .solving import (DEFAULT_BUDGET, Backend, Budget, CountResult, SolveResult,
                      SolveStatus, Verdict, VerdictKind, available_backends, get_backend)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "Shape", "shape_for_size", "shape_for_cell_count",
    "Grid", "Alphabet", "DEFAULT_ALPHABET", "ZERO_BASED_ALPHABET",
    "Puzzle", "Conflict", "Problem", "CheckReport",
    "RuleSet", "AllDifferent", "Different",
    "Budget", "DEFAULT_BUDGET", "Backend", "SolveResult", "SolveStatus", "CountResult",
    "Verdict", "VerdictKind", "get_backend", "available_backends",
    "SudokuError", "ParseError", "ShapeError", "UnsupportedPuzzleError",
    "BackendNotFoundError", "BackendUnavailableError",
]
