"""Certificate data: what :meth:`~sudoku_model.solving.Backend.certificate` returns, and the
error of a backend that cannot certify (the checkers live in
:mod:`sudoku_model.certificates` and :mod:`sudoku_model.certcnf`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import NotSupported, UnsupportedPuzzleError
from ..grid import Grid
from ..puzzle import Puzzle
from .results import VerdictKind, _ms, _puzzle_text

# -- certificates ----------------------------------------------------------------
#: The verdicts a :class:`Certificate` proves: ``unique`` and ``unsolvable`` with a DRAT
#: refutation, ``multiple`` with two witnesses, ``contradictory`` with the clashing givens.
CERTIFICATE_VERDICTS = frozenset(
    {
        VerdictKind.UNIQUE,
        VerdictKind.UNSOLVABLE,
        VerdictKind.MULTIPLE,
        VerdictKind.CONTRADICTORY,
    }
)


class CertificationUnsupported(NotSupported, UnsupportedPuzzleError):
    """A backend (or a solver of it) that cannot produce certificates, or rules that
    cannot be certified; the message says which and why. A :class:`NotSupported` (the
    contract's error for an undeclared path), and an ``UnsupportedPuzzleError`` as
    before."""


@dataclass(frozen=True)
class Certificate:
    """Evidence for a verdict that anyone can re-check without trusting the solver (the
    answer of :meth:`Backend.certificate`; the format is described in the README,
    "Certificates").

    ``unique``: ``solution`` S, and a DRAT ``proof`` that the formula ``rule_clauses +
    puzzle_clauses`` (the rules, the givens as unit clauses and the blocking clause of S
    over the non-given cells) is unsatisfiable. ``unsolvable``: the same without a
    blocking clause. ``multiple``: two different ``witnesses``; ``contradictory``: the
    ``clash`` (two cells, same digit, where a rule forbids it); no proof for these two.
    ``unknown``: the budget ran out; nothing is proved. Clauses are DIMACS literals over
    the variables ``cell * n + digit`` (cell ``r * n + c``, so ``r*n*n + c*n + d``).
    """

    verdict: VerdictKind
    puzzle: Puzzle
    backend: str
    solver_version: str
    encoding: str
    seconds: float
    solution: Grid | None = None
    witnesses: tuple[Grid, ...] = ()
    clash: tuple[int, int] | None = None
    rule_clauses: Sequence[Sequence[int]] = ()
    puzzle_clauses: tuple[tuple[int, ...], ...] = ()
    num_vars: int = 0
    #: DRAT proof text (plain text, deletions as ``d ...``); None when no proof is needed.
    proof: str | None = None

    def __repr__(self) -> str:
        proof = "no proof" if self.proof is None else f"proof {len(self.proof):,} bytes"
        return (
            f"<Certificate {self.verdict.value} by {self.backend} in {_ms(self.seconds)}: "
            f"{_puzzle_text(self.puzzle)}; {proof}>"
        )
