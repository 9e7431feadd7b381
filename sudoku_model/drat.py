"""A forward DRUP/DRAT proof checker in C (``sudoku_model/drat.c``, the module
``sudoku_model._drat``) for ``sudoku check-certificate``: the typed wrapper.

It is no solver and shares no code with the backtracker or any encoder. A
:class:`DratChecker` loads a rules CNF once and checks many proofs, each against the rules
plus a few clauses of its own.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from . import _drat

__all__ = [
    "DratChecker",
    "DratResult",
    "DRAT_VALID",
    "DRAT_INVALID",
    "DRAT_MALFORMED",
    "DRAT_UNKNOWN",
]

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
