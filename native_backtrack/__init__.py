"""Compiled backtracking Sudoku solver (C99, built on ``pip install``).

The C core knows nothing of the toolkit's model: it takes a grid size ``n`` (4..25), a list
of all-different *units* (sequences of cell indices, row-major ``0 .. n*n-1``) and a list of
extra *pairs* of cells that must differ, and optionally binary *relations* (digit-pair
tables), *domains* (allowed digits per cell), linear *sums* (weights, a total, optionally
distinct digits: killer cages), *sandwiches* (the sum between the 1 and the n of a line)
and *tables* (the digit tuples allowed on scopes of cells). Givens and solutions are
``bytes`` of ``n*n`` values ``0..n`` (0 = empty).

>>> cage = ((0, 1), (1, 1), 3, True)  # cells 0 and 1 sum to 3: {1, 2}
>>> killer = Model(4, [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15],
...                    [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
...                    [0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]], [],
...                sums=[cage])
>>> killer.solve(bytes(16), limit=1000, keep=0)[0]  # a sixth of the 288 grids
48

>>> model = Model(4, [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15],
...                   [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
...                   [0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]], [])
>>> count, status, solutions, nodes, guesses = model.solve(bytes(16), limit=1000, keep=0)
>>> count, status == EXHAUSTED
(288, True)

* :meth:`Model.solve` counts up to a limit, keeps solutions, honours a node / seconds budget,
  excludes ``forbidden`` (cell, digit) pairs and skips one ``avoid`` solution.
* :meth:`Model.batch` answers many puzzles in one call with the GIL released.
* :meth:`Model.search` returns a resumable :class:`Search` (streaming; randomised with a seed).
* :meth:`Model.remove_clues` runs a generator's whole clue-removal pass over a known full grid
  (one call, GIL released; see removal.c).

Statuses: :data:`EXHAUSTED` (count exact), :data:`LIMIT` (the limit was reached),
:data:`BUDGET` (the budget ran out), :data:`CONTRADICTORY` (two givens clash directly),
:data:`INVALID` (a value outside ``0..n``, batch only), :data:`INTERRUPTED` (stopped by
:func:`interrupt`; never a budget answer). Running out of memory raises ``MemoryError``.

:func:`interrupt` sets a process-wide stop flag that every search polls every 256 nodes,
next to its deadline: searches in flight in any thread (batches without the GIL included)
stop within milliseconds, and later ones at once, until :func:`clear_interrupt`. It only
sets a flag, so a signal handler may call it.

A model whose constraints are exactly the classic 9x9 rules (``Model.classic9``), alone or
with per-cell candidate sets (``domains``: pencilmark puzzles), is solved by a fixed-size
fast path; ``fast=False`` forces the generic path (the two are cross-checked in the tests).
``Model.restore_candidates`` is the pencilmark generator's pass (see pmremoval.c).

The modules ``_core`` (this package's API) and ``_testing`` (the same sources built with
the hooks that tests and benchmarks drive: a failing allocation, the classic 9x9
instruction set) are separate copies; the toolkit imports ``_core`` only.
"""

from __future__ import annotations

from ._core import (
    BUDGET,
    CONTRADICTORY,
    EXHAUSTED,
    INTERRUPTED,
    INVALID,
    LIMIT,
    MAX_SIZE,
    Model,
    Search,
    clear_interrupt,
    grid_values,
    interrupt,
    interrupted,
)

__all__ = [
    "Model",
    "Search",
    "EXHAUSTED",
    "LIMIT",
    "BUDGET",
    "CONTRADICTORY",
    "INVALID",
    "INTERRUPTED",
    "MAX_SIZE",
    "interrupt",
    "clear_interrupt",
    "interrupted",
    "grid_values",
    "STATUS_NAMES",
]

#: Readable names of the status codes.
STATUS_NAMES = {
    EXHAUSTED: "exhausted",
    LIMIT: "limit",
    BUDGET: "budget",
    CONTRADICTORY: "contradictory",
    INVALID: "invalid",
    INTERRUPTED: "interrupted",
}
