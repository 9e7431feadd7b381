"""The searches of the PySAT backend: uniqueness checks, solution counts and
enumeration, "another solution?", the generator's forced-digit test and random models.

:class:`Searches` is the layer of :class:`~backends.sat.backend.PySATBackend` above its
solver calls (:class:`~backends.sat.calls.SolverCalls`): the long-lived solver with givens
as assumptions and guarded blocking clauses, its C entry points where the fence of
:mod:`backends.sat.internals` is open, and for large sparse-free grids a fresh solver
loaded with the puzzle's :class:`~backends.cnf.reduced.ReducedCNF`.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from itertools import compress
from operator import neg, not_
from typing import cast

from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RuleSet
from sudoku_model.solving import (
    DEFAULT_BUDGET,
    Budget,
    SearchOutcome,
    Verdict,
    VerdictKind,
    verdict_of_count,
)

from ..cnf.reduced import ReducedCNF, Stopped
from .calls import SolverCalls
from .engine import LOAD_CHUNK, STAT_NAMES, Engine, ProofEngine, Run
from .internals import Direct, quiet_solve_limited
from .solvers import REDUCED_TUNING, import_pysat


class Searches(SolverCalls):
    """The search primitives of :class:`~backends.sat.backend.PySATBackend` (which sets
    these attributes)."""

    phased: bool
    recycle_after: int
    reduce_from: int | None
    reduce_min_given: float
    _random_engines: OrderedDict[RuleSet, Engine]

    # -- the contract primitives ------------------------------------------------------------
    def check_unique(
        self, puzzle: Puzzle, *, solution: Grid | None = None, budget: Budget | None = None
    ) -> Verdict:
        """See :meth:`sudoku_model.solving.Backend.check_unique`; the same verdicts.

        The clash test of the givens (``puzzle.is_contradictory``) runs only when the solver
        found no solution: clashing givens, passed as assumptions, always make the formula
        unsatisfiable, and the test costs as much as a quarter of an easy check.

        Raises:
            ValueError: when ``solution`` is given but does not solve the puzzle.
            UnsupportedPuzzleError: as :meth:`solve`.
            SearchInterrupted: after :meth:`interrupt`.
        """
        if solution is not None:
            return super().check_unique(puzzle, solution=solution, budget=budget)
        start = time.perf_counter()
        self._require_supported(puzzle)
        self._check_interrupt()
        outcome = self._search(puzzle, limit=2, budget=DEFAULT_BUDGET if budget is None else budget)
        self._check_interrupt()
        found = outcome.solutions
        if not found and puzzle.is_contradictory:
            # the base class answers this before any search, with the clash described
            return super().check_unique(puzzle, budget=budget)
        stats = outcome.stats
        seconds = time.perf_counter() - start
        if len(found) >= 2:
            return Verdict(
                VerdictKind.MULTIPLE,
                puzzle,
                self.name,
                seconds,
                witnesses=tuple(found[:2]),
                stats=stats,
            )
        kind = verdict_of_count(len(found), outcome.complete)
        return Verdict(
            kind, puzzle, self.name, seconds, solution=found[0] if found else None, stats=stats
        )

    def _reduces(self, puzzle: Puzzle) -> bool:
        # A sparse grid's reduced CNF is nearly the full one, built again on every call,
        # where the long-lived solver builds it once (and goes on across calls whose
        # budget ends during set-up): below a quarter of the cells given it stays there.
        return (
            self.reduce_from is not None
            and puzzle.size >= self.reduce_from
            and not puzzle.rules.constraint_rules
            and puzzle.clues >= self.reduce_min_given * puzzle.shape.cell_count
        )

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        if limit <= 2 and self._reduces(puzzle):
            return self._search_reduced(puzzle, limit=limit, budget=budget)
        run = Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        direct = engine.direct
        if direct is not None and limit == 2 and run.conflicts_left is None:
            return self._unique_direct(engine, direct, puzzle.givens.values, run)
        phased = self.phased
        if phased:
            engine.force_positive_phases()
        givens = puzzle.givens.values
        assumptions = engine.assumptions(givens)
        solver = engine.solver
        stats0 = solver.accum_stats()
        result = self._call(engine, assumptions, run)
        if not result:
            return SearchOutcome(
                [],
                result is False,
                self._stats_since(engine, stats0),
                stopped_by_budget=run.stopped,
            )
        first, positive = engine.model_grid_and_literals()
        if limit == 1:
            return SearchOutcome([first], False, self._stats_since(engine, stats0))
        # Everything found so far is blocked under one guard, retired at the end.
        found = [first]
        guard = engine.fresh_guard()
        assumptions.append(guard)
        complete = False
        if positive is None:
            free = engine.free_literals(first.values, givens)
        else:  # the model's own cell literals: no second pass over the grid
            free = list(compress(positive, map(not_, givens)))
        clause = list(map(neg, free))
        if phased:  # the second search starts away from the first solution
            solver.set_phases(clause)
        clause.append(-guard)
        try:
            while True:
                solver.add_clause(clause)
                result = self._call(engine, assumptions, run)
                if result is None:
                    break
                if result is False:
                    complete = True
                    break
                grid, positive = engine.model_grid_and_literals()
                found.append(grid)
                if len(found) >= limit:
                    break
                if positive is None:
                    blocked = engine.free_literals(grid.values, givens)
                else:
                    blocked = list(compress(positive, map(not_, givens)))
                clause = engine.blocking_clause(guard, blocked)
            stats = self._stats_since(engine, stats0)
        finally:
            if phased:
                solver.set_phases(free)
            engine.retire(guard, self.recycle_after)
        return SearchOutcome(found, complete, stats, stopped_by_budget=run.stopped)

    def _unique_direct(
        self, engine: Engine, direct: Direct, givens: tuple[int, ...], run: Run
    ) -> SearchOutcome:
        """:meth:`_search` with ``limit=2`` and no conflicts budget on a CaDiCaL engine:
        the same searches and answers, with the solver's C entry points called directly
        (:class:`Direct`); a search that outlasts its first slice goes on in
        :meth:`_call`."""
        handle = direct.handle
        phased = self.phased
        if phased:
            engine.force_positive_phases()
        assumptions = engine.assumptions(givens)
        before = direct.stats(handle)
        result = self._solve_direct(engine, direct, assumptions, run)
        if not result:
            return SearchOutcome(
                [],
                result is False,
                self._stats_since(engine, before),
                stopped_by_budget=run.stopped,
            )
        reader = engine.reader
        read = None
        if reader is not None:  # the grid, its free literals and their negations, in C
            read = reader.with_free(handle, engine.shape.size, engine.cell_count, givens)
        if read is not None:
            digits, free, clause = read
            first = Grid._trusted(engine.shape, digits)
        else:  # PySAT's whole model
            first, positive = engine.decode(direct.model(handle))
            if positive is None:
                free = engine.free_literals(first.values, givens)
            else:  # the model's own cell literals: no second pass over the grid
                free = list(compress(positive, map(not_, givens)))
            clause = list(map(neg, free))
        guard = engine.fresh_guard()
        assumptions.append(guard)
        set_phases = direct.set_phases
        if phased:  # the second search starts away from the first solution
            set_phases(handle, clause)
        clause.append(-guard)
        try:
            direct.add_clause(handle, clause)
            result = self._solve_direct(engine, direct, assumptions, run)
            if result:
                second = engine.read_grid() or engine.decode(direct.model(handle))[0]
                found = [first, second]
            else:
                found = [first]
            after = direct.stats(handle)
        finally:
            if phased:
                set_phases(handle, free)
            engine.retire(guard, self.recycle_after)
        stats = {k: after.get(k, 0) - before.get(k, 0) for k in STAT_NAMES}
        return SearchOutcome(found, result is False, stats, stopped_by_budget=run.stopped)

    def _search_reduced(
        self,
        puzzle: Puzzle,
        *,
        limit: int,
        budget: Budget,
        known: Grid | None = None,
        differ_in: Sequence[int] | None = None,
    ) -> SearchOutcome:
        """Up to ``limit`` solutions (other than the solution ``known``, and differing from
        it in one of the empty cells ``differ_in`` when given) from a fresh solver loaded
        with the puzzle's :class:`ReducedCNF`, thrown away after the call. With ``known``
        the phases are its digits (another solution mostly agrees with it)."""
        run = Run(budget)
        self._refuse_budget(run)

        def stop() -> bool:
            return self._interrupted or run.expired()

        try:
            cnf = ReducedCNF(puzzle.rules, puzzle.givens.values, stop=stop)
        except Stopped:
            self._check_interrupt()
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        if cnf.impossible or (known is not None and cnf.num_vars == 0):
            return SearchOutcome([], True, {})  # no solution; or a full grid: no other
        info = self.info
        solver = import_pysat().Solver(name=info.name)
        try:
            # the default tuning has its own measured variant here (see REDUCED_TUNING)
            options = REDUCED_TUNING if self.phased else self.solver_options
            if options:
                solver.configure(options)
            clauses = cnf.clauses
            for begin in range(0, len(clauses), LOAD_CHUNK):
                if begin and stop():  # a sparse grid's formula is nearly the full one
                    self._check_interrupt()
                    return SearchOutcome([], False, {}, stopped_by_budget=True)
                solver.append_formula(clauses[begin : begin + LOAD_CHUNK])
            if known is not None and info.phases:
                solver.set_phases(cnf.phases_of(known.values))
            elif info.phases and not info.configurable:
                # a decision places a digit, as a backtracker would (CaDiCaL: forcephase)
                solver.set_phases(range(1, cnf.num_vars + 1))
            quiet = None
            if info.limited and not info.interrupt:
                quiet = quiet_solve_limited(solver, info.name)
            engine = cast(Engine, ProofEngine(solver, quiet))
            free = cnf.num_vars > 0
            if known is not None and free:
                solver.add_clause(cnf.blocking_clause(known.values, differ_in))
            found: list[Grid] = []
            complete = False
            while len(found) < limit:
                result = self._call(engine, [], run)
                if result is None:
                    break
                if result is False:
                    complete = True
                    break
                values = cnf.decode(solver.get_model())
                found.append(Grid._trusted(puzzle.shape, values))
                if not free:  # a full grid: nothing else to find
                    complete = len(found) < limit
                    break
                solver.add_clause(cnf.blocking_clause(values))
            after = solver.accum_stats()
            stats = {k: after.get(k, 0) for k in STAT_NAMES}
        finally:
            solver.delete()
        return SearchOutcome(found, complete, stats, stopped_by_budget=run.stopped)

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        if self._reduces(puzzle):
            return self._search_reduced(puzzle, limit=1, budget=budget, known=solution)
        run = Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        phased = self.phased
        givens = puzzle.givens.values
        guard = engine.fresh_guard()
        assumptions = engine.assumptions(givens)
        assumptions.append(guard)
        stats0 = engine.solver.accum_stats()
        free = engine.free_literals(solution.values, givens)
        clause = engine.blocking_clause(guard, free)
        solver = engine.solver
        if phased:
            engine.force_positive_phases()
            solver.set_phases(clause[:-1])
        try:
            solver.add_clause(clause)
            result = self._call(engine, assumptions, run)
            other = [engine.model_grid()] if result else []
            stats = self._stats_since(engine, stats0)
        finally:
            if phased:
                solver.set_phases(free)
            engine.retire(guard, self.recycle_after)
        return SearchOutcome(other, result is False, stats, stopped_by_budget=run.stopped)

    def _iter_solutions(
        self, puzzle: Puzzle, *, limit: int | None, budget: Budget, state: dict[str, bool]
    ) -> Iterator[Grid]:
        run = Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return
        givens = puzzle.givens.values
        guard = engine.fresh_guard()
        assumptions = engine.assumptions(givens)
        assumptions.append(guard)
        engine.active_iterators += 1
        produced = 0
        try:
            while limit is None or produced < limit:
                result = self._call(engine, assumptions, run)
                if result is None:
                    return
                if result is False:
                    state["complete"] = True
                    return
                grid = engine.model_grid()
                engine.solver.add_clause(
                    engine.blocking_clause(guard, engine.free_literals(grid.values, givens))
                )
                produced += 1
                yield grid
        finally:
            engine.active_iterators -= 1
            if engine.solver is not None:
                engine.retire(guard, self.recycle_after)

    # -- for the generator -----------------------------------------------------------------
    def digit_is_forced(
        self,
        puzzle: Puzzle,
        cell: int,
        digit: int,
        *,
        budget: Budget | None = None,
        prefer: Grid | None = None,
    ) -> bool | None:
        """True when every solution of ``puzzle`` holds ``digit`` at ``cell``, that is when
        "givens + (cell != digit)" is unsatisfiable: one solver call, assumptions only;
        None when the budget ran out first.

        The generator's test for removing clue c from a unique puzzle with solution S:
        ``digit_is_forced(puzzle_without_c, c, S[c])`` is True exactly when the smaller
        puzzle is still unique. Vacuously True for a puzzle with no solution (clashing
        givens included).

        ``prefer``, a known solution, sets the solver's phases to it (where the solver has
        ``set_phases``): its literals positive, every other cell literal negative. Only
        the search order changes, never the answer. Measured on the first 60 SAT calls of
        one 25x25 generation with CaDiCaL: 11.0 s, against 13.2 s with the solver's saved
        phases and 16.7 s with all phases negative; setting only the known solution's
        literals positive on top of the uniqueness checks' all-positive phases took 21.9 s.

        Raises:
            IndexError: for a cell or digit outside the grid.
            UnsupportedPuzzleError: as :meth:`solve`.
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._require_supported(puzzle)
        n = puzzle.size
        if not (0 <= cell < puzzle.shape.cell_count and 1 <= digit <= n):
            raise IndexError(f"no cell {cell} / digit {digit} in a {n}x{n} grid")
        engine = self._engine(puzzle.rules)
        assumptions = engine.assumptions(puzzle.givens.values)
        assumptions.append(-(engine.bases[cell] + digit))
        if prefer is not None and self.info.phases:
            engine.prefer_phases(prefer)
        self._check_interrupt()
        run = Run(self._budget(budget))
        direct = engine.direct
        if direct is not None and run.conflicts_left is None:
            result = self._solve_direct(engine, direct, assumptions, run)
        else:
            result = self._call(engine, assumptions, run)
        self._check_interrupt()
        return None if result is None else not result

    def random_model(
        self, puzzle: Puzzle, *, rng: random.Random | None = None, budget: Budget | None = None
    ) -> Grid | None:
        """A random solution of ``puzzle`` (a random full grid when it has no givens), or
        None when it has none or the budget ran out first.

        Randomness comes from random solver phases (where the solver has ``set_phases``)
        and, for a puzzle without givens under all-different rules only, a random
        relabelling of the digits (those rules are symmetric in the digits, so the
        relabelled grid is a solution too; cages, dots and the like are not). Not
        uniform over all grids. Uses its own solver per rule set, so the random phases do
        not slow down the uniqueness checks. That solver learns from each call, so the grid
        depends on the ``rng`` state *and* on the earlier calls: the same seeds on a fresh
        backend give the same grids. That is why it is not the contract's
        ``random_solution`` primitive (the generator's full grids must not depend on
        history).

        Raises:
            UnsupportedPuzzleError: as :meth:`solve`.
        """
        self._require_supported(puzzle)
        if puzzle.conflicts():
            return None
        rng = rng if rng is not None else random.Random()
        engine = self._engine(puzzle.rules, self._random_engines)
        n = puzzle.size
        if self.info.phases:
            lits = range(1, engine.cell_vars + 1)
            # Mostly negative phases: a positive phase on one digit in n keeps decisions
            # from fighting the at-most-one clauses while still spreading the digits.
            engine.solver.set_phases([v if rng.random() * n < 1 else -v for v in lits])
        result = self._call(
            engine, engine.assumptions(puzzle.givens.values), Run(self._budget(budget))
        )
        if not result:  # None: the budget ran out
            return None
        grid = engine.model_grid()
        if puzzle.clues == 0 and not puzzle.rules.constraint_rules:
            relabel = list(range(1, n + 1))
            rng.shuffle(relabel)
            relabel.insert(0, 0)
            grid = Grid._trusted(grid.shape, tuple(relabel[v] for v in grid.values))
        return grid
