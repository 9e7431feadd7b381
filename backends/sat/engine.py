"""The rules of one rule set loaded into a long-lived PySAT solver, and a search's limits.

An :class:`Engine` holds one solver with a rule set's CNF (loaded in chunks, so that the
loading can stop at a deadline), the overlays of constraint rules under guard literals,
the tables of the hot path (assumptions, blocking clauses, phases, model decoding) and,
where the fence of :mod:`backends.sat.internals` is open, the solver's C entry points and
grid reader. A :class:`Run` holds the deadline and conflicts left of one public call.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from itertools import compress
from operator import add, neg, not_, sub
from typing import Any

from sudoku_model.grid import Grid
from sudoku_model.rules import RuleSet
from sudoku_model.solving import (
    Budget,
)

from ..cnf import CNF, encode_constraint_rules, encode_rules
from .internals import Direct, GridReader, grid_reader, quiet_solve_limited
from .solvers import SolverInfo, import_pysat

#: Default ``recycle_after`` of :class:`PySATBackend`. Each retired guard stays in the
#: solver as a variable fixed false: every model read (one per variable) and every check
#: costs a little more (17-clue checks 181 -> 240 us over 1,000 guards, with the model
#: 930 -> 1,930 variables); a rebuild costs ~3.5 ms. Uniqueness checks, CPU alternated,
#: against 1,000: 17-clue 0.97, multi-solution 0.945, forum-hardest-1106 0.98; 250 is
#: slower again (tests/benchmarks/bench_pysat_overhead.py times the whole call).
RECYCLE_AFTER = 500
#: Clauses added to a solver between two looks at the deadline while it is loaded.
LOAD_CHUNK = 10_000
#: Overlays (killer cages, dots... on top of loaded base rules) one solver keeps at once:
#: a killer list visits each rule set once, so older guards are retired, not kept.
MAX_OVERLAYS = 4
#: Variables of retired overlays after which a solver is rebuilt before the next overlay
#: (when its base formula is small enough to load again at once: RELOAD_CLAUSES). A retired
#: overlay's variables and clauses stay in the solver and every later call pays for them:
#: on killer-200 the solve time per puzzle grew from 1.1 ms to 3 ms over the list; a
#: rebuild every ~20 killer puzzles keeps it flat (bench_rules.py --backends pysat).
RETIRED_OVERLAY_VARS = 2_000
RELOAD_CLAUSES = 100_000


class ProofEngine:
    """What :meth:`PySATBackend._call` uses of an engine, for a fresh proof solver."""

    def __init__(self, solver: Any, solve_limited: Any) -> None:
        self.solver = solver
        self.solve_limited = solve_limited
        self.stale = False


# -- one long-lived solver per rule set -------------------------------------------------------
class Engine:
    """The rules of one RuleSet loaded into a solver, plus the tables of the hot path."""

    def __init__(
        self,
        rules: RuleSet,
        info: SolverInfo,
        encoding: str,
        amo: str,
        options: dict[str, int],
        *,
        load: bool = True,
        cnf: CNF | None = None,
    ) -> None:
        if cnf is None:
            cnf = encode_rules(rules, encoding=encoding, amo=amo)
        self.options = options
        shape = rules.shape
        n = shape.size
        self.info = info
        self.shape = shape
        self.clauses = cnf.clauses
        self.variables = cnf.variables
        self.first_free = cnf.num_vars + 1
        self.cell_count = shape.cell_count
        self.cell_vars = n**3
        # var(cell, digit) = base[cell] + digit
        self.bases = tuple(c * n for c in range(shape.cell_count))
        self.generation = 0
        self.active_iterators = 0
        self.retired = 0
        self.retired_vars = 0  # variables of the retired overlays (see RETIRED_OVERLAY_VARS)
        self.overlay_vars: dict[int, int] = {}  # guard -> variables of its overlay
        # CaDiCaL: every cell literal's phase is forced positive (see PySATBackend); False
        # after a call set other phases, so the next uniqueness check sets them again.
        self.positive_phases = False
        self.preferred: Grid | None = None  # the grid of the last prefer_phases
        self.solver: Any = None
        # True after an interrupted call: the next look-up replaces the solver.
        self.stale = False
        self.loaded = 0  # clauses loaded into the solver so far
        self.solve_limited: Any = None  # CaDiCaL: solve_limited without PySAT's SIGINT handler
        self.direct: Direct | None = None  # CaDiCaL: its C entry points (the hot path)
        # CaDiCaL: the grid of a model read in C (see grid_reader); None: through PySAT
        self.reader: GridReader | None = None
        # Relation, domain, sum and sandwich rules on top of these base rules, each loaded
        # under a guard literal (see activate); ``extra`` is the active one's guard.
        self.overlays: OrderedDict[RuleSet, int] = OrderedDict()
        self.extra: list[int] = []
        self._new_solver(load=load)

    @property
    def fully_loaded(self) -> bool:
        return self.loaded == len(self.clauses)

    def _new_solver(self, *, load: bool = True) -> None:
        solvers = import_pysat()
        if self.solver is not None:
            self.solver.delete()
        self.solver = solvers.Solver(name=self.info.name)
        if self.options:  # CaDiCaL takes options only before its first clause
            self.solver.configure(self.options)
        self.loaded = 0
        if not self.info.interrupt and self.info.limited:
            self.solve_limited = quiet_solve_limited(self.solver, self.info.name)
            self.direct = Direct.of(self.solver, self.info.name)
            if self.direct is not None:
                self.reader = grid_reader(self.info.name)
        if load:
            self.load()
        self.next_var = self.first_free
        self.retired = 0
        self.retired_vars = 0
        self.overlay_vars = {}
        self.overlays.clear()
        self.extra = []
        self.positive_phases = False
        self.preferred = None
        self.generation += 1

    def load(self, stop: Any = None) -> bool:
        """Load the clauses not loaded yet, in chunks; ``stop()`` is asked between chunks
        and a true answer ends the loading there (False is returned; call again to go on)."""
        clauses = self.clauses
        total = len(clauses)
        direct = self.direct
        while self.loaded < total:
            end = min(total, self.loaded + LOAD_CHUNK)
            if direct is not None:  # a third faster than append_formula (rebuilds included)
                add, handle = direct.add_clause, direct.handle
                for clause in clauses[self.loaded : end]:
                    add(handle, clause)
            else:
                self.solver.append_formula(clauses[self.loaded : end])
            self.loaded = end
            if end < total and stop is not None and stop():
                return False
        return True

    def activate(self, rules: RuleSet) -> None:
        """Make ``rules`` (these base rules plus relation, domain, sum or sandwich rules)
        the ones the next calls answer: their clauses are added once, each with the
        negation of a guard literal that :meth:`assumptions` then appends. The least
        recently used overlays beyond :data:`MAX_OVERLAYS` are retired (not while an
        iterator may still use one)."""
        if not rules.constraint_rules:
            self.extra = []
            return
        guard = self.overlays.get(rules)
        if guard is None:
            if (
                self.retired_vars >= RETIRED_OVERLAY_VARS
                and self.active_iterators == 0
                and len(self.clauses) <= RELOAD_CLAUSES
            ):
                self._new_solver()
            start = self.next_var
            clauses, top = encode_constraint_rules(rules, top=self.next_var - 1)
            guard = top + 1
            self.next_var = guard + 1
            self.overlay_vars[guard] = self.next_var - start
            off = -guard
            for clause in clauses:
                clause.append(off)
            self.solver.append_formula(clauses)
            self.overlays[rules] = guard
            while len(self.overlays) > MAX_OVERLAYS and self.active_iterators == 0:
                _, old = self.overlays.popitem(last=False)
                self.solver.add_clause([-old])
                self.retired += 1
                self.retired_vars += self.overlay_vars.pop(old, 0)
        else:
            self.overlays.move_to_end(rules)
        self.extra = [guard]

    def fresh_guard(self) -> int:
        g = self.next_var
        self.next_var += 1
        return g

    def retire(self, guard: int, recycle_after: int) -> None:
        direct = self.direct
        if direct is not None:
            direct.add_clause(direct.handle, [-guard])
        else:
            self.solver.add_clause([-guard])
        self.retired += 1
        if self.retired >= recycle_after and self.active_iterators == 0:
            self._new_solver()

    # The hot path builds its lists with map/filter/compress (C loops): a list
    # comprehension over a 9x9 model costs ~20 us, a quarter of an easy uniqueness check.
    def assumptions(self, values: tuple[int, ...]) -> list[int]:
        """The literals of the givens (the non-zero values), in cell order, then the
        active overlay's guard."""
        lits = list(compress(map(add, self.bases, values), values))
        if self.extra:
            lits += self.extra
        return lits

    def model_grid(self) -> Grid:
        return self.model_grid_and_literals()[0]

    def model_grid_and_literals(self) -> tuple[Grid, list[int] | None]:
        """The grid of the solver's model and its cell literals in cell order (None when
        they were not listed: the grid was read in C, or the rules do not give every cell
        one digit and the grid was decoded the slow way). Only right after a solve that
        answered SAT."""
        grid = self.read_grid()
        if grid is not None:
            return grid, None
        return self.decode(self.solver.get_model())

    def read_grid(self) -> Grid | None:
        """The grid of the solver's model read in C (:class:`GridReader`), or None when
        there is no reader or a cell has no true digit or two (read the model then). Only
        right after a solve that answered SAT."""
        reader, direct = self.reader, self.direct
        if reader is None or direct is None:
            return None
        digits = reader.digits(direct.handle, self.shape.size, self.cell_count)
        return None if digits is None else Grid._trusted(self.shape, digits)

    def decode(self, model: list[int]) -> tuple[Grid, list[int] | None]:
        """:meth:`model_grid_and_literals` of a model read already."""
        # A comprehension over a slice is the cheapest pure-Python filter here (~9 us at
        # 9x9, against ~14 us for sorted() and ~20 us for filter() with a bound method);
        # it is on every call.
        positive = [lit for lit in model[: self.cell_vars] if lit > 0]
        if len(positive) != self.cell_count:  # rules without full rows: decode the slow way
            return self.variables.decode(model), None
        # digit = literal - base of its cell: map() over builtins runs in C without a
        # Python call per cell (a bound tuple.__getitem__ builds an argument tuple each)
        grid = Grid._trusted(self.shape, tuple(map(sub, positive, self.bases)))
        return grid, positive

    def free_literals(self, solution: tuple[int, ...], givens: tuple[int, ...]) -> list[int]:
        """The literals of ``solution`` in the cells that are not givens."""
        return list(compress(map(add, self.bases, solution), map(not_, givens)))

    @staticmethod
    def blocking_clause(guard: int, free: list[int]) -> list[int]:
        """ "Some free cell differs" (``free`` from :meth:`free_literals`), guarded."""
        clause = list(map(neg, free))
        clause.append(-guard)
        return clause

    def force_positive_phases(self) -> None:
        """Make every cell literal's phase positive (CaDiCaL), unless it already is."""
        if not self.positive_phases:
            self.solver.set_phases(range(1, self.cell_vars + 1))
            self.positive_phases = True
            self.preferred = None

    def prefer_phases(self, grid: Grid) -> None:
        """Phases of a full assignment: the grid's literals positive, all others negative
        (skipped when the same grid was the last one set)."""
        if self.preferred is grid:
            return
        phases = list(range(-1, -self.cell_vars - 1, -1))
        for lit in compress(map(add, self.bases, grid.values), grid.values):
            phases[lit - 1] = lit
        self.solver.set_phases(phases)
        self.positive_phases = False
        self.preferred = grid

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class Run:
    """The limits of one search (one public call), shared by its solver calls. Created
    before the solver is looked up, so that building one counts against the budget."""

    __slots__ = ("deadline", "conflicts_left", "stopped")

    def __init__(self, budget: Budget) -> None:
        seconds = budget.seconds
        self.deadline = (
            None if seconds is None or math.isinf(seconds) else time.perf_counter() + seconds
        )
        self.conflicts_left = budget.conflicts
        self.stopped = False

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline


STAT_NAMES = ("conflicts", "decisions", "propagations")
