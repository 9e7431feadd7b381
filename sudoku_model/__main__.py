"""``python -m sudoku_model``: the same as the ``sudoku`` command."""

from sudoku_model.cli import run

run()
