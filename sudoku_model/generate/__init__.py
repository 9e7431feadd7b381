"""Generating puzzles: unique by construction, minimal, of any shape and unit-based variant.

How a puzzle is made
--------------------
1. **A random full grid** (a solution of the rules) from a seed: a randomised search with
   random digit order (the native backend's C search; for the other backends the default
   ``random_solution``, a Python search with fewest-candidates branching, naked singles and
   random digit order).
2. **Removal**: the clues are visited in random order and each one is dropped when the
   puzzle stays unique without it. Uniqueness is decided with the known solution S:
   removing clue c from a unique puzzle keeps it unique exactly when "the remaining clues +
   (c != S[c])" has no solution, because any other solution of the smaller puzzle must
   differ from S at c. That is one solver call per clue (a forbidden (cell, digit) pair in
   the native backend, one more assumption in the SAT backend). A clue found necessary stays
   necessary as more clues go, so one pass yields a **minimal** puzzle (every clue needed).

Before asking the solver, cheap logic answers "still unique" when it can: the emptied cell
is a naked single (its peers show every other digit) or, for engines whose calls are slow,
a hidden single; from 16x16 up, full singles propagation is tried first while it keeps
succeeding. Only yes answers are taken from logic, so minimality is unaffected.

Both questions go to the backend through the contract's primitives
(:class:`GenerationEngine`): ``random_solution`` for the full grid and ``removal_oracle``
for "still unique?", so any backend generates, and the fast paths are the backends' own.
The whole pass is one call, :meth:`~sudoku_model.solving.RemovalOracle.remove_groups`:
a Python loop with the shortcuts above by default, one C call with the native backend
(its own singles tests, then a search per clue). The order is drawn here, and every
answer is a fact about the puzzle, so both make the same puzzles for a seed.

Large grids: near-minimal 25x25 puzzles (about 42-45% of the cells given) sit where
quasigroup completion is hardest, and single uniqueness calls there take from milliseconds
to many seconds. On the default backend (``auto``) the native removal oracle gives each
call from 16x16 up a short first try (a fixed number of search nodes, with the known
solution's digits tried first) and hands the calls that need more to a SAT backend
(CaDiCaL in its stable mode, phases set to the known solution), whose learnt clauses are
far better at these; see ``backends.native.NativeRemovalOracle`` and the removal route of
``backends.auto.ROUTES``. Most of those calls
find a second solution, and it is far from the known one (on one 25x25 puzzle, a median
146 of the ~330 empty cells differ), so no local search would find it. Give a budget per
call (``budget=Budget(seconds=...)``): a call that runs out keeps its clue, so the puzzle
is still unique, and ``minimal`` is then reported unknown. A puzzle asks hundreds of such
calls; ``GenerationSpec(max_seconds=...)`` (``--budget-seconds``) bounds the whole puzzle
instead: a wall-clock deadline that every call respects (see :class:`GenerationEngine`).

With a symmetry the clues go in *orbits* (a cell and its images): an orbit is removed when
the puzzle stays unique without all of it, which is tested as "no solution differs from S
at any cell of the orbit". The result is **group-minimal** (no orbit can go); it may still
have single clues that could go alone, so every clue is then tested one by one and
:attr:`GeneratedPuzzle.minimal` says whether the puzzle is minimal in the strict sense.

How random it is (and is not)
-----------------------------
The full grids are *not* uniform over all grids. A randomised backtracking search picks,
at each branching cell, a random candidate, so a grid's probability depends on how many
branching choices led to it: grids reached through fewer, narrower choices are more likely.
Every grid has a non-zero probability, digits are exchangeable (each digit is as likely
anywhere) and the bias in practice is small, but it is not measured away. (SAT solvers
with random phases have a stronger bias, toward the solver's decision order; this package
does not use them for full grids, see below.) The removal order is uniform, but top-down
removal itself is biased toward puzzles with few clues: minimal 9x9 puzzles made this way
have about 24.4 clues on average, against about 26.6 for the real distribution of minimal
puzzles (the figures of the "minimal sudoku" counting studies). :func:`bias_note` says so
in the reports.

Difficulty
----------
With ``level`` (``GenerationSpec(level="hard")``), each made puzzle is graded by the
logical solver (:func:`sudoku_model.logic.grade`) and kept when its level is one of those
asked for; otherwise a new puzzle is made from the next derived seed, up to ``level_tries``
times (:data:`DEFAULT_LEVEL_TRIES`). Grading works for every shape and variant the logic
solver handles, but the levels are calibrated on classic 9x9 puzzles. Minimal 9x9 puzzles
made here grade about 42% easy, 20% medium, 11% hard, 12% expert and 16% extreme (3,000
puzzles, seed 3), so every level takes a handful of tries on average.

Reproducibility
---------------
Puzzle ``i`` of a batch with seed ``S`` is made from its own seed :func:`puzzle_seed`
(S, i), so the output depends neither on the number of worker processes nor on the order
they finish in; with ``level``, try ``t`` of puzzle ``i`` uses :func:`level_seed` of that
seed and ``t`` (try 0 uses the puzzle seed itself, so a puzzle whose first try matches is
the one made without ``level``). Only state-free answers are used: yes/no uniqueness
answers (identical for every correct backend) and full grids from a seeded search that owns
no learnt state. That is why the PySAT backend's full grids come from the Python search
(the default ``random_solution``) and not from its long-lived solver (whose models depend
on the clauses it learnt from earlier puzzles). A search stopped by a time budget is the
one thing that can vary between runs.

Modules
-------
``spec`` (the request, its limits and seeds, the made puzzle), ``symmetry`` (orbits of
clue positions), ``engine`` (the questions asked of a backend, the per-puzzle deadline),
``shortcuts`` (logic answers of the Python removal loop), ``shuffle`` (the removal
order's draws), ``one_puzzle`` (one puzzle from its seed, at a level when asked),
``killer`` (killer puzzles), ``lines`` (renban, whisper, palindrome and negative kropki
puzzles), ``batch`` (batches, in worker processes when asked) and
``reports`` (histograms and the bias note). The public names are imported from the
package itself (its ``__all__``).

>>> from sudoku_model import RuleSet, Shape
>>> symmetry_orbits(Shape(2, 2), "rot180")[:2]
((0, 15), (1, 14))
>>> minimum_clues(RuleSet.classic(Shape(3, 3)))[0]
17
"""

from __future__ import annotations

from .batch import generate
from .engine import GenerationEngine, engine_for
from .killer import generate_killer_one
from .lines import generate_drawn_one
from .one_puzzle import generate_one, random_full_grid
from .reports import bias_note, clue_histogram, level_histogram
from .spec import (
    DEFAULT_LEVEL_TRIES,
    DEFAULT_MAX_TRIES,
    DRAWN_KINDS,
    LEVEL_NAMES,
    DrawnOptions,
    GeneratedPuzzle,
    GenerationError,
    GenerationSpec,
    ImpossibleRequestError,
    KillerOptions,
    level_seed,
    minimum_clues,
    parse_levels,
    parse_pattern,
    puzzle_seed,
)
from .symmetry import SYMMETRIES, is_symmetric, symmetry_orbits

__all__ = [
    "SYMMETRIES",
    "symmetry_orbits",
    "is_symmetric",
    "puzzle_seed",
    "minimum_clues",
    "parse_pattern",
    "GenerationError",
    "ImpossibleRequestError",
    "GenerationSpec",
    "GeneratedPuzzle",
    "KillerOptions",
    "generate_killer_one",
    "DRAWN_KINDS",
    "DrawnOptions",
    "generate_drawn_one",
    "GenerationEngine",
    "engine_for",
    "random_full_grid",
    "generate_one",
    "generate",
    "clue_histogram",
    "bias_note",
    "DEFAULT_MAX_TRIES",
    "LEVEL_NAMES",
    "DEFAULT_LEVEL_TRIES",
    "parse_levels",
    "level_seed",
    "level_histogram",
]
