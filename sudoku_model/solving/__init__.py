"""The solving API shared by every backend: budgets, verdicts, results, the base class,
the optional primitives and the registry (a package of one concern per module:
:mod:`~sudoku_model.solving.results`, :mod:`~sudoku_model.solving.contract`,
:mod:`~sudoku_model.solving.removal`, :mod:`~sudoku_model.solving.certificate`,
:mod:`~sudoku_model.solving.bulk`, :mod:`~sudoku_model.solving.registry`; import the
names from here).

This module imports no solver. Backends live in the top-level ``backends`` package and are
found by name through the entry-point group ``sudoku_model.backends`` (or, for tests and
notebooks, :func:`register_backend`), so a third party can add one (say z3) without
touching this code.

The backend contract
--------------------
A backend subclasses :class:`Backend` and implements one method, ``_search(puzzle, *,
limit, budget) -> SearchOutcome`` (up to ``limit`` solutions, and whether the search space
was exhausted). The base class builds the four public questions on it, the same way for
every backend (capabilities and clashing givens checked first, wall time measured alike):

* ``solve(puzzle)`` -> :class:`SolveResult`
* ``count(puzzle, limit=N)`` -> :class:`CountResult` (exact when ``complete``)
* ``solutions(puzzle, limit=None)`` -> an iterator of :class:`~sudoku_model.Grid`
* ``check_unique(puzzle, solution=None)`` -> :class:`Verdict` with witnesses

Beyond the four, the workflows (verify, generate, compare) use four optional primitives
(:data:`PRIMITIVES`), each with a generic default here built on the four, so a backend
that implements only ``_search`` gets every workflow:

* ``check_unique_batch(rules, givens)`` -> :class:`UniqueBatch`: uniqueness of many puzzles
  of one rule set (packed givens in, columns out). Default: ``check_unique`` per puzzle.
* ``removal_oracle(rules, solution)`` -> :class:`RemovalOracle`, whose
  ``still_unique(givens, removed)`` says whether the puzzle stays unique without some
  clues of the full grid. Default: ``check_unique(puzzle, solution=...)``. The oracle
  also runs a generator's whole removal pass, ``remove_groups(givens, groups,
  target=)`` -> :class:`RemovalPass`, and its minimality test, ``all_necessary``:
  by default a Python loop over ``still_unique``; an oracle with
  ``bulk_removal`` (native: one C call per pass) does the same pass in one call.
* ``random_solution(rules, rng, start=None)`` -> a random full grid drawn from ``rng``.
  Default: a randomised Python search (:mod:`sudoku_model.fill`).
* ``restore_candidates(rules, solution, masks, order)`` -> the pencilmark generator's pass:
  which eliminations of ``order`` can be undone, one after the other, with the puzzle
  staying unique. Default: one primitive search per pair
  (:mod:`sudoku_model.solving.candidates`).

A backend that does better overrides a primitive and names it in its
:class:`Capabilities` (``fast_paths``; ``sudoku backends`` shows them): native overrides all
four (one C call per batch, releasing the GIL; forbidden pairs with a SAT fallback for
large grids; a seeded C search; the candidates pass in one C call), PySAT the removal
oracle (assumptions in a long-lived solver). Workflows read capabilities as data, never
probe methods with ``getattr``; the contract tests check that what a backend declares is
what it overrides, and that each override answers like the default.

Budgets and interruption: every search takes a :class:`Budget` (:data:`DEFAULT_BUDGET`
when None). Budget spent has one meaning everywhere: the verdict ``unknown`` (a count not
``complete``, a solve ``unknown``, a batch entry ``unknown``), or ``None`` from the
primitives that answer yes/no or a grid (``still_unique``, ``random_solution``); never an
exception. :meth:`Backend.interrupt` (safe from a signal handler) makes the search in
flight, and every later call until :meth:`Backend.clear_interrupt`, raise
:class:`~sudoku_model.errors.SearchInterrupted`, which is never a verdict. A count becomes a
verdict by one rule, :func:`verdict_of_count`; the evidence of a verdict is checked by one
function, :func:`evidence_problem`.

>>> from sudoku_model import Puzzle
>>> backend = get_backend("native")                                   # doctest: +SKIP
>>> backend.check_unique(Puzzle.parse(".2..3....1....4.")).kind        # doctest: +SKIP
<VerdictKind.UNIQUE: 'unique'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bulk import PLAIN_KINDS, BulkColumns
from .contract import PRIMITIVES, Backend, Capabilities, is_full_grid
from .registry import (
    DEFAULT_BACKEND,
    ENTRY_POINT_GROUP,
    available_backends,
    get_backend,
    register_backend,
    registered_backends,
    unregister_backend,
)
from .removal import RemovalOracle, RemovalPass, RemovalShortcut
from .results import (
    DEFAULT_BUDGET,
    REPR_GRIDS,
    STAT_KEYS,
    Budget,
    CountResult,
    SearchOutcome,
    SolutionIterator,
    SolveResult,
    SolveStatus,
    UniqueBatch,
    Verdict,
    VerdictKind,
    evidence_problem,
    verdict_of_count,
)

if TYPE_CHECKING:  # imported on first use: only certification needs them
    from .certificate import CERTIFICATE_VERDICTS, Certificate, CertificationUnsupported

_CERTIFICATE_NAMES = frozenset({"CERTIFICATE_VERDICTS", "Certificate", "CertificationUnsupported"})


def __getattr__(name: str) -> Any:
    """The names of :mod:`.certificate`, imported when first asked for (start-up time)."""
    if name in _CERTIFICATE_NAMES:
        from . import certificate

        return vars(certificate)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CERTIFICATE_VERDICTS",
    "Certificate",
    "CertificationUnsupported",
    "DEFAULT_BACKEND",
    "DEFAULT_BUDGET",
    "ENTRY_POINT_GROUP",
    "REPR_GRIDS",
    "STAT_KEYS",
    "Backend",
    "Budget",
    "Capabilities",
    "CountResult",
    "SearchOutcome",
    "SolutionIterator",
    "SolveResult",
    "SolveStatus",
    "Verdict",
    "VerdictKind",
    "PRIMITIVES",
    "RemovalOracle",
    "RemovalPass",
    "RemovalShortcut",
    "UniqueBatch",
    "BulkColumns",
    "PLAIN_KINDS",
    "available_backends",
    "evidence_problem",
    "is_full_grid",
    "get_backend",
    "register_backend",
    "registered_backends",
    "unregister_backend",
    "verdict_of_count",
]
