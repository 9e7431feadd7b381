"""Solver backends, one module per solver, each registered under the entry-point group
``sudoku_model.backends`` (see ``pyproject.toml``). Import them through
:func:`sudoku_model.get_backend`, never directly from the core."""
