"""``python -m sudoku_model.cli``: the same as the ``sudoku`` command."""

from . import run

run()
