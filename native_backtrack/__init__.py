"""Compiled backtracking Sudoku solver (C99, built on ``pip install``).

The C core knows nothing of the toolkit's model: it takes a grid size ``n`` (4..25), a list
of all-different *units* (sequences of cell indices, row-major ``0 .. n*n-1``) and a list of
extra *pairs* of cells that must differ, and optionally binary *relations* (digit-pair
tables), *domains* (allowed digits per cell), linear *sums* (weights, a total, optionally
distinct digits: killer cages) and *sandwiches* (the sum between the 1 and the n of a
line). Givens and solutions are ``bytes`` of ``n*n`` values ``0..n`` (0 = empty).

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

A model whose constraints are exactly the classic 9x9 rules (``Model.classic9``) is solved
by a fixed-size fast path; ``fast=False`` forces the generic path (the two are cross-checked
in the tests).

:class:`DratChecker` is no solver: a forward DRUP/DRAT proof checker (``drat.c``, a module
of its own that shares no code with the backtracker) for ``sudoku check-certificate``. It
loads a rules CNF once and checks many proofs, each against the rules plus a few clauses of
its own.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from . import _drat
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
    "DratChecker",
    "DratResult",
    "DRAT_VALID",
    "DRAT_INVALID",
    "DRAT_MALFORMED",
    "DRAT_UNKNOWN",
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


#: :attr:`DratResult.status`: the proof refutes the formula.
DRAT_VALID = _drat.VALID
#: A step is neither RUP nor RAT, or the proof never derives the empty clause.
DRAT_INVALID = _drat.INVALID
#: The proof text is not plain-text DRAT (the reason names the line).
DRAT_MALFORMED = _drat.MALFORMED
#: The budget ran out before a verdict.
DRAT_UNKNOWN = _drat.UNKNOWN


class DratResult(NamedTuple):
    """The outcome of :meth:`DratChecker.check`.

    ``step`` is the 1-based proof step (additions and deletions counted) that failed, or
    -1; ``clause`` its literals (DIMACS, repeats dropped). ``work`` counts the checker's
    work units (watch visits, literals scanned): what the ``work`` budget limits.
    """

    status: int
    step: int
    reason: str
    clause: tuple[int, ...]
    lemmas: int
    rat_lemmas: int
    deletions: int
    ignored_deletions: int
    work: int

    @property
    def valid(self) -> bool:
        return self.status == DRAT_VALID


def _flat(clauses: Iterable[Sequence[int]], what: str) -> array[int]:
    out = array("i")
    for clause in clauses:
        if 0 in clause:
            raise ValueError(f"{what}: literal 0 inside clause {list(clause)}")
        try:
            out.extend(clause)
        except (OverflowError, TypeError):
            raise ValueError(f"{what}: clause {list(clause)} is not 32-bit integers") from None
        out.append(0)
    return out


class DratChecker:
    """A rules CNF loaded once (clauses, watch lists, an index for deletions); each
    :meth:`check` adds one formula's own clauses, checks a plain-text DRAT proof of the
    union forward (RUP, else RAT on the first literal; deletions honoured except of unit
    clauses, as drat-trim and dratify do) and undoes the additions.

    One check at a time per checker (another thread's call raises ``RuntimeError``): use
    one per thread. A check releases the GIL.

    >>> rules = [(1, 2), (-1, 2), (1, -2)]           # 3 clauses over 2 variables
    >>> checker = DratChecker(2, rules)
    >>> checker.check([(-1, -2)], b"1 0\\n0\\n").valid
    True
    >>> checker.check([], b"1 0\\n0\\n").reason      # the rules alone are satisfiable
    'clause is neither RUP nor RAT with respect to the clauses available at this point'

    Raises:
        ValueError: for a literal 0 or beyond ``num_vars`` in ``clauses``, or a bad
            ``num_vars``.
        MemoryError: when the clauses do not fit in memory.
    """

    def __init__(self, num_vars: int, clauses: Iterable[Sequence[int]]) -> None:
        self._formula = _drat.Formula(num_vars, _flat(clauses, "rules clauses"))

    @property
    def num_vars(self) -> int:
        return self._formula.num_vars

    @property
    def num_clauses(self) -> int:
        return self._formula.num_clauses

    def check(
        self,
        clauses: Iterable[Sequence[int]],
        proof: bytes,
        *,
        work: int = -1,
        seconds: float = -1.0,
    ) -> DratResult:
        """Check ``proof`` (plain-text DRAT bytes) against the rules plus ``clauses``.
        ``work`` and ``seconds`` bound the check (negative: no bound); past either the
        answer is :data:`DRAT_UNKNOWN`. A malformed proof is :data:`DRAT_MALFORMED` with
        the line, never an exception.

        Raises:
            ValueError: for a literal 0 or beyond ``num_vars`` in ``clauses``.
            RuntimeError: when another thread is checking with this checker.
            MemoryError: when the check runs out of memory (the checker stays usable).
        """
        return DratResult(
            *self._formula.check(_flat(clauses, "clauses"), proof, work=work, seconds=seconds)
        )
