"""The PySAT backend's removal oracle and removal session: the generator's "still unique
without these clues?" tests (see :meth:`sudoku_model.solving.Backend.removal_oracle`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RuleSet
from sudoku_model.solving import (
    Budget,
    RemovalOracle,
    VerdictKind,
)

from .engine import Engine, Run

if TYPE_CHECKING:
    from .backend import PySATBackend

__all__ = ["RemovalSession", "SatRemovalOracle"]


class RemovalSession:
    """Uniqueness tests while clues are removed from one full grid S, in a solver of its
    own (from :meth:`PySATBackend.removal_session`): the generator's SAT calls from 16x16 up.

    The tests are those of :meth:`PySATBackend.digit_is_forced`: the givens are
    assumptions, the removed cells must differ from S somewhere (one assumption for one
    cell, a guarded clause for a group), the phases are S. What the shared solver cannot
    do: clues that will stay (the ones already shown necessary, ``fix=``) become unit
    clauses of this solver, so they sit at level 0 instead of being re-assumed after every
    conflict, and the learnt clauses do not mention them. Late in a 25x25 removal pass
    most givens are such clues: on the 266 SAT calls of one hard 25x25 puzzle the SAT time
    fell from 192 s to 101 s.

    Every call checks that each fixed clue is a given of S in the puzzle it is asked
    about (else ValueError: start a new session), so a unit clause never changes an
    answer. Not thread-safe.
    """

    def __init__(self, backend: PySATBackend, rules: RuleSet, solution: Grid) -> None:
        self._backend = backend
        self.rules = rules
        self.solution = solution
        self.fixed: set[int] = set()
        self._engine: Engine | None = Engine(
            rules, backend.info, backend.encoding, backend.amo, backend.solver_options
        )
        if backend.info.phases:
            self._engine.prefer_phases(solution)

    def compatible(self, givens: Sequence[int]) -> bool:
        """True when every fixed clue is a given (holding S's digit) in ``givens``."""
        sol = self.solution.values
        return all(givens[f] == sol[f] for f in self.fixed)

    def still_unique(
        self,
        givens: Sequence[int],
        removed: Sequence[int],
        *,
        fix: Iterable[int] = (),
        budget: Budget | None = None,
    ) -> bool | None:
        """True when the puzzle ``givens`` (0 = empty, the ``removed`` cells among the
        empty ones) has S as its only solution, False when it has another, None when the
        budget ran out. ``fix``: clues to keep as unit clauses from now on (those that are
        not givens here are ignored).

        Raises:
            ValueError: when ``givens`` has not one value per cell, ``removed`` is empty or
                names a cell that is not empty in ``givens``, a fixed clue is not a given
                of S here, or the session is closed.
        """
        engine = self._engine
        if engine is None:
            raise ValueError("this removal session is closed")
        if len(givens) != engine.cell_count:
            raise ValueError(
                f"givens has {len(givens)} values; the grid has {engine.cell_count} cells"
            )
        if not removed or not all(0 <= c < engine.cell_count and not givens[c] for c in removed):
            raise ValueError(f"the removed cells {list(removed)} must be empty cells of givens")
        if not self.compatible(givens):
            raise ValueError("a fixed clue of this removal session is not a given here")
        sol = self.solution.values
        bases = engine.bases
        solver = engine.solver
        for f in fix:
            if f not in self.fixed and givens[f] and givens[f] == sol[f]:
                solver.add_clause([bases[f] + sol[f]])
                self.fixed.add(f)
        fixed = self.fixed
        assumptions = [bases[c] + v for c, v in enumerate(givens) if v and c not in fixed]
        guard = 0
        if len(removed) == 1:
            assumptions.append(-(bases[removed[0]] + sol[removed[0]]))
        else:
            guard = engine.fresh_guard()
            solver.add_clause([-(bases[c] + sol[c]) for c in removed] + [-guard])
            assumptions.append(guard)
        try:
            result = self._backend._call(engine, assumptions, Run(self._backend._budget(budget)))
        finally:
            if guard:
                solver.add_clause([-guard])
        return None if result is None else not result

    @property
    def closed(self) -> bool:
        """True after :meth:`close` (the session's or its backend's)."""
        return self._engine is None

    def close(self) -> None:
        """Free the solver (also done when the backend is closed); later calls raise
        ValueError."""
        if self._engine is not None:
            self._engine.delete()
            self._engine = None


class SatRemovalOracle(RemovalOracle):
    """PySAT's fast path of :meth:`~sudoku_model.solving.Backend.removal_oracle`.

    A call asks the backend's long-lived solver: for each removed cell c (at most
    :attr:`GROUP_LIMIT` of them), "the givens + (c != S[c])" under assumptions with S as
    the phases (:meth:`PySATBackend.digit_is_forced`), pinning c to S[c] for the next
    cell; a larger group is one ``check_unique(solution=S)``. With the backend's
    ``reduce_from`` (and a grid that large, without constraint rules) every call is one
    search for another solution in a fresh solver loaded with the givens' reduced CNF
    (see :class:`ReducedCNF`). Otherwise, with the backend's
    ``removal_session_after=K``, calls after the first K go to a :class:`RemovalSession`
    of this grid, where the clues shown necessary (its own answers and
    :meth:`note_necessary`) are unit clauses; a new session is loaded when a later call
    removes one of them.
    """

    #: Above this many removed cells, one "another solution?" search beats one call each.
    GROUP_LIMIT = 6

    def __init__(
        self, backend: PySATBackend, rules: RuleSet, solution: Grid, budget: Budget
    ) -> None:
        super().__init__(rules, solution, budget)
        self._backend = backend
        self._calls = 0
        self._session: RemovalSession | None = None
        self._necessary: set[int] = set()

    def note_necessary(self, cells: Iterable[int]) -> None:
        self._necessary.update(cells)

    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        self._check(givens)
        backend = self._backend
        if backend.reduce_from is not None and backend._reduces(
            Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        ):
            answer = self._reduced(givens, removed)
            if answer is False and len(removed) == 1:
                self._necessary.add(removed[0])
            return answer
        after = self._backend.removal_session_after
        if after is None or self._calls < after:
            self._calls += 1
            answer = self._shared(givens, removed)
        else:
            session = self._session
            if session is None or session.closed or not session.compatible(givens):
                if session is not None:
                    session.close()
                session = self._session = self._backend.removal_session(self.rules, self.solution)
            answer = session.still_unique(givens, removed, fix=self._necessary, budget=self.budget)
        if answer is False and len(removed) == 1:
            self._necessary.add(removed[0])
        return answer

    def _reduced(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        """ "Another solution than S?" in a fresh solver with the givens' reduced CNF (the
        backend's ``reduce_from``): the puzzle was unique before the removed cells were
        emptied, so another solution differs from S in one of them."""
        puzzle = Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        outcome = self._backend._search_reduced(
            puzzle, limit=1, budget=self.budget, known=self.solution, differ_in=removed
        )
        if outcome.solutions:
            return False
        return True if outcome.complete else None

    def _shared(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        backend = self._backend
        rules = self.rules
        solution = self.solution
        shape = rules.shape
        if len(removed) > self.GROUP_LIMIT:
            puzzle = Puzzle(Grid._trusted(shape, tuple(givens)), rules)
            kind = backend.check_unique(puzzle, solution=solution, budget=self.budget).kind
            if kind is VerdictKind.UNIQUE:
                return True
            return False if kind is VerdictKind.MULTIPLE else None
        values = list(givens)
        sol = solution.values
        for cell in removed:
            puzzle = Puzzle(Grid._trusted(shape, tuple(values)), rules)
            forced = backend.digit_is_forced(
                puzzle, cell, sol[cell], budget=self.budget, prefer=solution
            )
            if not forced:
                return forced  # False, or None when the budget ran out
            values[cell] = sol[cell]  # solutions differing at this cell are ruled out
        return True

    def close(self) -> None:
        """Free the solver of this oracle's removal session, if it has one. The oracle stays
        usable: a later call that needs a session loads a new one (so does a call after
        the backend was closed)."""
        if self._session is not None:
            self._session.close()
            self._session = None
