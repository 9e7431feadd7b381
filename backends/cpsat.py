"""The CP-SAT backend (``cpsat``): OR-Tools' CP-SAT solver on an integer model.

One integer variable per cell with domain 1..n (a given fixes its domain), AllDifferent per
unit of the rule set, ``!=`` per pair of a :class:`~sudoku_model.rules.Different` rule, and
for the relation, domain, sum, sandwich and table rules table, domain, linear and element
constraints (see :func:`_add_constraint_rules`).
The model of a rule set is built once and copied per puzzle with the givens' domains set
(measured: a copy is cheaper than building the model through the Python API).

Uniqueness and counting enumerate solutions (``enumerate_all_solutions``, which keeps
presolve from removing feasible solutions) with a callback that stops the search at the
limit. One worker by default (``workers=``): on a 9x9 grid more workers only add start-up
time. Budgets: ``seconds`` (``max_time_in_seconds``) and ``conflicts``
(``max_number_of_conflicts``). Each call costs ~4-5 ms even for trivial puzzles: that is the
solver's start-up, not the search.

Stopping: the seconds budget counts from the start of the call (building the model
included). CP-SAT cannot be stopped while it loads a model (about 0.25 s on 25x25, whatever
``max_time_in_seconds`` says), so each solve runs in a helper thread while the calling thread
waits: at the deadline, or on :meth:`CPSATBackend.interrupt`, the solve is told to stop
(``StopSearch``) and, if it has not ended 0.02 s later, left to end on its own (it does once
the model is loaded) while the call answers ``unknown`` or raises
:class:`~sudoku_model.errors.SearchInterrupted`. The waiting thread stays responsive to
signals (a solve in the main thread would hold off Python's signal handlers until it ends),
and OR-Tools' own SIGINT handler is switched off (``catch_sigint_signal``): it swallowed
Ctrl-C, and a second one aborted the process with ``std::bad_function_call``.

>>> from sudoku_model import Puzzle
>>> backend = create()
>>> backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value
'unique'
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from sudoku_model.errors import BackendUnavailableError
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RULE_KINDS, Domain, Relation, RuleSet, Sandwich, Sum, Table
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

from .threads import Background

__all__ = ["create", "CPSATBackend"]

#: How often the waiting thread looks at the clock and the interrupt flag (seconds).
_POLL = 0.02
#: How long a stopped solve may take to end before the call answers without it (seconds).
_GRACE = 0.02


def _import_cp_model() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError as exc:  # pragma: no cover - ortools is a core dependency
        raise BackendUnavailableError(
            "the cpsat backend needs OR-Tools: pip install ortools"
        ) from exc
    return cp_model


class CPSATBackend(Backend):
    """Sudoku through CP-SAT with integer cells and AllDifferent (see the module docs).

    Args:
        workers: CP-SAT ``num_workers`` (default 1) for single-solution searches; counting
            and uniqueness always enumerate with one worker (several miss solutions).
        parameters: extra ``SatParameters`` fields by name (for experiments).

    Raises:
        ValueError: for a worker count below 1 or an unknown parameter.
        BackendUnavailableError: when OR-Tools is not installed.
    """

    name = "cpsat"
    capabilities = Capabilities(
        frozenset(RULE_KINDS),
        4,
        25,
        ("seconds", "conflicts"),
        "OR-Tools CP-SAT; integer cells, AllDifferent, tables for relations, linear sums, "
        "element constraints for sandwiches; enumeration with a stopping callback",
    )

    def __init__(self, *, workers: int = 1, parameters: dict[str, Any] | None = None) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self._cp = _import_cp_model()
        self.workers = workers
        self.parameters = dict(parameters or {})
        probe = self._cp.CpSolver().parameters
        for key in self.parameters:
            if not hasattr(probe, key):
                raise ValueError(f"unknown CP-SAT parameter {key!r}")
        self._models: OrderedDict[RuleSet, Any] = OrderedDict()
        self._active: set[Any] = set()  # the CpSolvers solving now (see interrupt)

    def version(self) -> str:
        from importlib.metadata import version

        return f"ortools {version('ortools')}"

    def close(self) -> None:
        """Drop the cached CP-SAT models (built again when next needed)."""
        self._models.clear()

    # -- model ---------------------------------------------------------------------------
    def _base_model(self, rules: RuleSet) -> Any:
        model = self._models.get(rules)
        if model is None:
            n = rules.shape.size
            if rules.constraint_rules:
                # the all-different part is shared by every killer or dot puzzle on it
                model = self._cp.CpModel()
                model.proto.copy_from(self._base_model(rules.base).proto)
                cells = [model.get_int_var_from_proto_index(c) for c in range(n * n)]
                _add_constraint_rules(self._cp, model, cells, rules)
            else:
                model = self._cp.CpModel()
                cells = [model.new_int_var(1, n, f"c{c}") for c in range(rules.shape.cell_count)]
                for unit in rules.units:
                    model.add_all_different([cells[c] for c in unit])
                for a, b in rules.pairs:
                    model.add(cells[a] != cells[b])
            self._models[rules] = model
            while len(self._models) > 16:
                self._models.popitem(last=False)
        return model

    def _model(self, puzzle: Puzzle) -> Any:
        base = self._base_model(puzzle.rules)
        model = self._cp.CpModel()
        model.proto.copy_from(base.proto)
        variables = model.proto.variables
        for cell, value in enumerate(puzzle.givens.values):
            if value:
                domain = variables[cell].domain  # [1, n] in the base model
                domain[0] = value
                domain[1] = value
        return model

    def _solver(self, budget: Budget, enumerate_all: bool, seconds: float | None = None) -> Any:
        """A solver for one call; ``seconds`` is what is left of the budget's."""
        solver = self._cp.CpSolver()
        params = solver.parameters
        # Enumeration with several workers misses solutions (measured: 168 of the 288 of
        # the empty 4x4): enumerate with one worker, use more only to find one solution.
        params.num_workers = 1 if enumerate_all else self.workers
        params.enumerate_all_solutions = enumerate_all
        if seconds is None:
            seconds = budget.seconds
        if seconds is not None:
            params.max_time_in_seconds = max(0.0, float(seconds))
        if budget.conflicts is not None:
            params.max_number_of_conflicts = int(budget.conflicts)
        for key, value in self.parameters.items():
            setattr(params, key, value)
        # Stopping is ours (see the module docs): OR-Tools' handler would swallow Ctrl-C.
        params.catch_sigint_signal = False
        return solver

    # -- interruption ----------------------------------------------------------------------
    def interrupt(self) -> None:
        """Stop every solve of this backend in flight (``StopSearch``; see the base class).
        Takes no lock: safe in a signal handler."""
        super().interrupt()
        for solver in tuple(self._active):  # tuple() of a set is atomic under the GIL
            solver.stop_search()

    def _run(self, solver: Any, model: Any, collector: Any, deadline: float | None) -> Any:
        """``solver.solve(model, collector)`` in a helper thread: the CP-SAT status, or None
        when the deadline came first (the solve is stopped and left to end on its own).

        Raises:
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._active.add(solver)
        try:
            self._check_interrupt()
            # Not a daemon: a solve left behind (stopped, ending within ~0.25 s) is joined
            # at exit instead of being torn down inside OR-Tools.
            job = Background(
                lambda: solver.solve(model, collector), name="cpsat-solve", daemon=False
            )
            stop_at: float | None = None  # when StopSearch was first asked for
            while True:
                now = time.perf_counter()
                if stop_at is not None:
                    wait = max(0.0, min(_POLL, stop_at + _GRACE - now))
                elif deadline is not None:
                    wait = min(_POLL, max(0.0, deadline - now))
                else:
                    wait = _POLL
                if job.wait(wait):
                    break
                now = time.perf_counter()
                if self._interrupted or (deadline is not None and now >= deadline):
                    # again at each poll: a stop asked before solve() began is lost
                    solver.stop_search()
                    if stop_at is None:
                        stop_at = now
                    elif now - stop_at >= _GRACE:
                        break
        except BaseException:  # a signal handler raised in this (main) thread
            solver.stop_search()
            raise
        finally:
            self._active.discard(solver)
        self._check_interrupt()
        if not job.wait(0):
            return None
        return job.result()

    # -- the contract primitive -----------------------------------------------------------
    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        cp = self._cp
        deadline = budget.deadline(time.perf_counter())
        if budget.seconds == 0 or budget.conflicts == 0:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        model = self._model(puzzle)
        shape = puzzle.shape
        collector = _collector_class(cp)(shape, limit)
        found = collector.found
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        solver = self._solver(budget, enumerate_all=limit > 1, seconds=left)
        status = self._run(solver, model, collector, deadline)
        if status is None:  # the deadline came while CP-SAT could not stop
            return SearchOutcome(list(found[:limit]), False, {}, stopped_by_budget=True)
        stats = {
            "conflicts": solver.num_conflicts,
            "decisions": solver.num_branches,
            "propagations": solver.response_proto.num_binary_propagations
            + solver.response_proto.num_integer_propagations,
            "solver_wall_seconds": solver.wall_time,
        }
        if status == cp.INFEASIBLE:
            return SearchOutcome([], True, stats)
        if status == cp.MODEL_INVALID:  # pragma: no cover - a bug in the model builder
            raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
        found = found[:limit]
        # OPTIMAL after an enumeration means the search space was exhausted.
        complete = status == cp.OPTIMAL and limit > 1 and len(found) < limit
        stopped = status == cp.UNKNOWN or (not complete and len(found) < limit)
        return SearchOutcome(found, complete, stats, stopped_by_budget=stopped)


def _add_constraint_rules(cp: Any, model: Any, cells: list[Any], rules: RuleSet) -> None:
    """The relation, domain, sum, sandwich and table rules on the cell variables.

    Relations: a table constraint (allowed assignments) per pair; tables the same per
    scope. Domains: a linear
    expression in a domain (the cell variables keep domain 1..n, which ``_model``
    overwrites for givens). Sums: a linear equality, plus AllDifferent for a distinct
    group (a killer cage). Sandwich lines: the positions of the 1 and the n through
    element constraints (``line[p1] == 1``), and prefix sums ``S[k]`` (the first k cells),
    so the clue is ``S[max] - S[min + 1]``. Every auxiliary variable is a function of the
    cells, so enumeration never repeats a grid.
    """
    n = rules.shape.size
    for rule in rules.constraint_rules:
        if isinstance(rule, Relation):
            table = sorted(rule.allowed)
            for a, b in rule.pairs:
                model.add_allowed_assignments([cells[a], cells[b]], table)
        elif isinstance(rule, Domain):
            for c, digits in rule.cells:
                model.add_linear_expression_in_domain(
                    cells[c], cp.Domain.from_values(sorted(digits))
                )
        elif isinstance(rule, Sum):
            for group in rule.groups:
                xs = [cells[c] for c in group.cells]
                model.add(sum(w * x for w, x in zip(group.weights, xs)) == group.total)
                if group.distinct and len(xs) > 1:
                    model.add_all_different(xs)
        elif isinstance(rule, Sandwich):
            for line, total in rule.lines:
                xs = [cells[c] for c in line]
                size = len(xs)
                prefix = [sum(xs[:k]) for k in range(size + 1)]
                p1 = model.new_int_var(0, size - 1, "")
                pn = model.new_int_var(0, size - 1, "")
                model.add_element(p1, xs, 1)
                model.add_element(pn, xs, n)
                lo = model.new_int_var(0, size - 1, "")
                hi = model.new_int_var(0, size - 1, "")
                model.add_min_equality(lo, [p1, pn])
                model.add_max_equality(hi, [p1, pn])
                top = n * size
                upper = model.new_int_var(0, top, "")
                lower = model.new_int_var(0, top, "")
                model.add_element(hi, prefix, upper)
                model.add_element(lo + 1, prefix, lower)
                model.add(upper - lower == total)
        elif isinstance(rule, Table):
            rows = sorted(rule.allowed)
            for scope in rule.scopes:
                model.add_allowed_assignments([cells[c] for c in scope], rows)


_COLLECTOR: Any = None


def _collector_class(cp: Any) -> Any:
    """The solution callback class (made once: cp_model is imported lazily)."""
    global _COLLECTOR
    if _COLLECTOR is None:

        class Collector(cp.CpSolverSolutionCallback):  # type: ignore[name-defined,misc]
            """Keeps each solution as a Grid and stops the search at the limit."""

            def __init__(self, shape: Any, limit: int) -> None:
                super().__init__()
                self.shape = shape
                self.cells = range(shape.cell_count)
                self.limit = limit
                self.found: list[Grid] = []

            def on_solution_callback(self) -> None:
                # Indexing the repeated field is ~3x faster than list() on it.
                solution = self.response_proto.solution
                values = tuple([solution[i] for i in self.cells])
                self.found.append(Grid._trusted(self.shape, values))
                if len(self.found) >= self.limit:
                    self.stop_search()

        _COLLECTOR = Collector
    return _COLLECTOR


def create(sub: str | None = None, **options: Any) -> CPSATBackend:
    """Entry-point factory: ``get_backend("cpsat", workers=2)``.

    Raises:
        ValueError: when a sub-solver is named (CP-SAT has none) or an option is invalid.
    """
    if sub:
        raise ValueError(f"the cpsat backend has no sub-solvers (got {sub!r})")
    return CPSATBackend(**options)
