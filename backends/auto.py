"""The ``auto`` backend: the toolkit's routing policy, a composite of engines.

``auto`` is no solver. It answers every question with the ``native`` engine (the C
backtracker), except where its routing table (:data:`ROUTES`) names another engine for a
question on a grid size: there the other engine answers, after a short native try where
the route says so. It is the command line's default backend
(:data:`sudoku_model.solving.DEFAULT_BACKEND`); ``sudoku backends`` prints its table.

The table (data, read by :meth:`AutoBackend._route`; nothing else in the toolkit chooses
an engine by grid size):

* ``search`` from 25x25 up, plain rules (units and "different" pairs; rule sets with
  constraint rules stay native): ``pysat:cadical195`` on the puzzle's givens-simplified
  CNF (``reduce_from=16``, see ``backends.sat.ReducedCNF``). Uniqueness checks, solve
  calls and counts up to 2 first get a native try of ``first_try_nodes`` (2,000) nodes:
  a sparse grid (two solutions at once) or one with many clues ends in C within
  milliseconds, where building its reduced CNF would take seconds; what the try does not
  settle goes to the engine. A batch goes to the engine whole. A backtracker without
  learning answers ``unknown`` after 60 s and ~9.5M nodes on minimal 25x25 puzzles;
  CaDiCaL proves the stored ones unique in 0.3-6 s CPU (tests/benchmarks/bench_large.py).
* ``search`` on 9x9 pencilmark puzzles of the classic rules with
  :data:`PENCILMARK_MIN_CANDIDATES` (586) candidates or more: ``mip:highs`` after a native
  try of :data:`PENCILMARK_FIRST_TRY_NODES` (100,000) nodes. Few eliminations make a
  backtracker's search explode while HiGHS's LP relaxation cuts it (1m+ backtracks for
  minisat, 15-34 s for native, about 1 s for HiGHS); on the puzzles with fewer candidates
  native wins by far and keeps them. The choice reads the puzzle only (deterministic).
* ``search`` on puzzles with variant constraint rules (killer cages, arrows, lines, dots,
  tables...; a pencilmark puzzle's candidates are no variant): ``pysat:cadical195`` after
  a native try of :data:`VARIANT_FIRST_TRY_NODES` (20,000) nodes. Native settles most
  variant puzzles in milliseconds; on the few it does not (long lines, big tables, sums
  with few givens) CaDiCaL answers in 0.07-2.2 s where native takes from 0.4 s to more
  than 10 s. A batch of one puzzle (verify asks so) gets the same try; longer batches stay
  native.
* ``removal`` from 16x16 up (any rules): the native removal oracle, composed with the
  removal oracle of ``pysat:cadical195`` as its fallback (a
  :data:`backends.native.FallbackOracle`) for the calls its short first try does not
  settle. The engine's options: ``backends.sat.CADICAL_TUNING`` plus ``stabilizeonly``
  (these calls mostly look for a second solution, where CaDiCaL's stable mode needs half
  the conflicts: 39 s instead of 58 s on the 220 fallback calls of one 25x25 puzzle); a
  grid's first 8 fallback calls go to the shared solver, later ones to a solver of the
  grid's own (``removal_session_after``); from 25x25 each call loads the givens' reduced
  CNF (``reduce_from=25``).

Every answer names the engine that gave it (a verdict's ``backend`` is ``native`` or
``pysat:cadical195``); :meth:`AutoBackend.engine_name` is ``native``, the name records
carry where no engine's answer names one. An engine that is not installed (no
python-sat) leaves its questions to native. Engines of a route are made once per thread
(their solvers are not thread-safe) by name, through the registry: ``auto`` composes
backends, it implements none. :meth:`AutoBackend.interrupt` stops every engine it
started; :meth:`AutoBackend.close` frees them.

>>> from sudoku_model import Puzzle
>>> backend = create()
>>> backend.check_unique(Puzzle.parse(".2..3....1....4.")).backend
'native'
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

from sudoku_model.errors import (
    BackendNotFoundError,
    BackendUnavailableError,
    UnsupportedPuzzleError,
)
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle, rules_without_candidates
from sudoku_model.rules import RuleSet
from sudoku_model.solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    BulkColumns,
    CountResult,
    RemovalOracle,
    SearchOutcome,
    SolutionIterator,
    SolveResult,
    SolveStatus,
    UniqueBatch,
    Verdict,
    VerdictKind,
    get_backend,
)

from .native import NativeBackend, fast_option

__all__ = [
    "AutoBackend",
    "PENCILMARK_FIRST_TRY_NODES",
    "PENCILMARK_MIN_CANDIDATES",
    "PRIMARY",
    "ROUTES",
    "Route",
    "VARIANT_FIRST_TRY_NODES",
    "create",
]

#: The engine that answers whatever no route takes.
PRIMARY = "native"

#: A search question's answer (a Verdict, SolveResult or CountResult).
_Answer = TypeVar("_Answer")


@dataclass(frozen=True, eq=False)
class Route:
    """One rule of the routing table: ``question`` (``search``: uniqueness checks, solve
    calls, counts up to 2 and batches; ``removal``: the removal oracle's hard calls) on
    grids of ``min_size`` and up goes to the backend ``engine`` made with ``options``.
    ``first_try_nodes``: the native search nodes a single search gets first (None: the
    engine answers at once). ``plain_rules_only``: rule sets with constraint rules
    (killer cages, dots...) stay native. ``pencilmark_min_candidates``: the route takes
    only pencilmark puzzles of the classic rules (their candidates their one constraint
    rule) with at least that many candidates, one puzzle at a time (never a batch).
    ``variant_rules_only``: the route takes only rule sets with a constraint rule other
    than a pencilmark puzzle's candidates (killer cages, lines, dots, tables...); a batch
    of one puzzle gets the same native first try, a longer batch stays native."""

    question: str
    min_size: int
    engine: str
    options: Mapping[str, Any] = field(default_factory=dict)
    first_try_nodes: int | None = None
    plain_rules_only: bool = True
    pencilmark_min_candidates: int | None = None
    variant_rules_only: bool = False

    def applies(self, question: str, rules: RuleSet, puzzle: Puzzle | None = None) -> bool:
        """Whether this route takes ``question`` on ``rules`` (on ``puzzle``, when the
        question is about one puzzle)."""
        if question != self.question or rules.shape.size < self.min_size:
            return False
        if self.pencilmark_min_candidates is not None:
            if puzzle is None or not puzzle.is_pencilmark:
                return False
            if not rules_without_candidates(rules).is_classic:
                return False
            return sum(map(len, puzzle.candidates)) >= self.pencilmark_min_candidates
        if self.variant_rules_only:
            return bool(rules_without_candidates(rules).constraint_rules)
        return not (self.plain_rules_only and rules.constraint_rules)

    def describe(self) -> str:
        """The route in words (``sudoku backends``)."""
        n = self.min_size
        rules = "plain rules" if self.plain_rules_only else "any rules"
        if self.pencilmark_min_candidates is not None:
            rules = (
                f"pencilmark puzzles of the classic rules with "
                f"{self.pencilmark_min_candidates}+ candidates"
            )
        if self.variant_rules_only:
            rules = "variant constraint rules (cages, lines, dots, tables...)"
        first = (
            f" after a native try of {self.first_try_nodes:,} nodes"
            if self.first_try_nodes is not None
            else ""
        )
        what = {
            "search": "uniqueness, solve and counts up to 2"
            + (" (batches of one puzzle)" if self.variant_rules_only else " (batches whole)"),
            "removal": "removal calls a short native try does not settle",
        }[self.question]
        return f"{what}, {n}x{n} and up, {rules}: {self.engine}{first}"


#: Pencilmark puzzles with this many candidates and more (few eliminations) are the ones
#: where a backtracker's search explodes and a MIP solver's LP relaxation cuts it: on
#: t-dillon/pencilmark_sudoku's hard sets (tests/benchmarks/bench_portfolio.py), the
#: ``minisat_bt_1m+`` puzzles have 588-600 candidates (native 15-34 s, HiGHS about 1 s),
#: the ``020-029k`` and ``gurobi_hard`` ones 547-584 (native 0.1-0.6 s, HiGHS 10-38 s).
PENCILMARK_MIN_CANDIDATES = 586
#: Native's try on such a puzzle before the MIP engine answers.
PENCILMARK_FIRST_TRY_NODES = 100_000

#: Native's try on a puzzle with variant constraint rules before CaDiCaL answers. Native
#: settles 41 of the 50 ISS examples the toolkit reads within 8,000 nodes (milliseconds);
#: the others take it 0.4 s to more than 10 s, where CaDiCaL needs 0.07-2.2 s
#: (tests/benchmarks/bench_iss.py).
VARIANT_FIRST_TRY_NODES = 20_000

#: The routing table, read in order; what no route takes goes to :data:`PRIMARY`.
ROUTES: tuple[Route, ...] = (
    Route("search", 25, "pysat:cadical195", {"reduce_from": 16}, first_try_nodes=2000),
    Route(
        "search",
        9,
        "mip:highs",
        first_try_nodes=PENCILMARK_FIRST_TRY_NODES,
        pencilmark_min_candidates=PENCILMARK_MIN_CANDIDATES,
    ),
    Route(
        "search",
        4,
        "pysat:cadical195",
        first_try_nodes=VARIANT_FIRST_TRY_NODES,
        plain_rules_only=False,
        variant_rules_only=True,
    ),
    Route(
        "removal",
        16,
        "pysat:cadical195",
        {
            "solver_options": {"eagersubsume": 0, "shrinkreap": 0, "chrono": 0, "stabilizeonly": 1},
            "removal_session_after": 8,
            "reduce_from": 25,
        },
        plain_rules_only=False,
    ),
)


def create(sub: str | None = None, **options: Any) -> AutoBackend:
    """The factory registered under the entry point ``auto``.

    ``auto:race`` (or the option ``race=True``) races a route's engine against native on
    a second core instead of trying them in turn (see :class:`AutoBackend`). Options:
    ``fast`` (default True) is the native engine's (False forces its generic path).

    Raises:
        ValueError: for a sub-solver name other than ``race`` or an unknown option.
    """
    race = bool(options.pop("race", False))
    if sub == "race":
        race, sub = True, None
    return AutoBackend(fast=fast_option("auto", sub, options), race=race)


class AutoBackend(Backend):
    """The routing policy over native and the engines of :data:`ROUTES` (see the module
    docstring).

    ``race``: a single search question that a route with a native first try takes runs
    native (with the whole budget) and the route's engine at once, in two threads (two
    cores), instead of one after the other; the first definite answer is returned and the
    other search is interrupted. The verdicts are those of the sequential policy (both
    engines are exact); which engine answers, and so the solution a ``solve`` of a puzzle
    with several returns, may then depend on timing. Batches and questions no such route
    takes are answered as without ``race``.
    """

    name = "auto"
    capabilities = replace(
        NativeBackend.capabilities,
        notes="routing policy: native, with the engines of its routing table for what "
        "native answers slowly; every answer names the engine that gave it",
        routing=tuple(route.describe() for route in ROUTES),
        sub_solvers=("race",),
    )

    def __init__(
        self, *, fast: bool = True, race: bool = False, routes: Sequence[Route] = ROUTES
    ) -> None:
        self.routes = tuple(routes)
        self.race = race
        if race:
            self.name = "auto:race"
        self._fast = fast
        self._native = NativeBackend(fast=fast)
        self._local = threading.local()  # each thread's engines, by route
        self._engines: list[Backend] = []  # every engine started, for interrupt and close
        self._lock = threading.Lock()

    # -- the policy ----------------------------------------------------------------------
    def _route(self, question: str, rules: RuleSet, puzzle: Puzzle | None = None) -> Route | None:
        for route in self.routes:
            if route.applies(question, rules, puzzle):
                return route
        return None

    def _engine(self, route: Route) -> Backend | None:
        """This thread's engine of ``route``, made at first use; None when it is not
        installed (then native answers)."""
        table: dict[Route, Backend | None] = self._local.__dict__.setdefault("table", {})
        if route in table:
            return table[route]
        try:
            engine: Backend | None = get_backend(route.engine, **route.options)
        except (BackendNotFoundError, BackendUnavailableError):
            engine = None
        table[route] = engine
        if engine is not None:
            with self._lock:
                self._engines.append(engine)
            if self._interrupted:
                engine.interrupt()
        return engine

    def _racer(self) -> Backend:
        """This thread's native engine for races (its own instance: interrupting the
        loser of a race must not stop native searches of other threads)."""
        racer: Backend | None = self._local.__dict__.get("racer")
        if racer is None:
            racer = self._local.racer = NativeBackend(fast=self._fast)
            with self._lock:
                self._engines.append(racer)
            if self._interrupted:
                racer.interrupt()
        return racer

    def _answer(
        self,
        route: Route,
        engine: Backend,
        ask: Callable[[Backend, Budget | None], _Answer],
        settled: Callable[[_Answer], bool],
        budget: Budget | None,
    ) -> _Answer:
        """The answer of a routed search question: ``ask(native, first_try)`` and, when
        that is not ``settled``, ``ask(engine, budget)``; or, with :attr:`race`, both at
        once (:meth:`_race`)."""
        if route.first_try_nodes is None:
            return ask(engine, budget)
        if self.race:
            return self._race(engine, ask, settled, budget)
        first = ask(self._native, self._first_try(route, budget))
        if settled(first):
            return first
        self._check_interrupt()
        return ask(engine, budget)

    def _race(
        self,
        engine: Backend,
        ask: Callable[[Backend, Budget | None], _Answer],
        settled: Callable[[_Answer], bool],
        budget: Budget | None,
    ) -> _Answer:
        """``ask`` native (this thread's racer) and ``engine`` at once, each with the whole
        budget, the engine in a helper thread: the first settled answer wins and the other
        search is interrupted and awaited; when neither settles, the engine's answer.

        Raises:
            SearchInterrupted: after :meth:`interrupt`.
        """
        racer = self._racer()
        answers: dict[str, Any] = {}

        def run(key: str, backend: Backend, other: Backend) -> None:
            try:
                answer = answers[key] = ask(backend, budget)
            except BaseException as exc:  # handed to the waiting thread
                answers[key] = exc
                return
            if settled(answer):
                other.interrupt()

        helper = threading.Thread(
            target=run, args=("engine", engine, racer), name="auto-race", daemon=True
        )
        helper.start()
        try:
            run("native", racer, engine)
            helper.join()
        except BaseException:  # a signal handler raised here: stop the engine too
            engine.interrupt()
            helper.join()
            raise
        finally:
            if not self._interrupted:
                engine.clear_interrupt()
                racer.clear_interrupt()
        for key in ("native", "engine"):
            answer = answers.get(key)
            if not isinstance(answer, BaseException) and answer is not None and settled(answer):
                return answer  # type: ignore[no-any-return]
        self._check_interrupt()
        for key in ("engine", "native"):
            answer = answers.get(key)
            if not isinstance(answer, BaseException) and answer is not None:
                return answer  # type: ignore[no-any-return]
        raise answers["engine"]

    def _routed(
        self, question: str, rules: RuleSet, puzzle: Puzzle | None = None
    ) -> tuple[Route, Backend] | None:
        route = self._route(question, rules, puzzle)
        if route is None:
            return None
        engine = self._engine(route)
        return None if engine is None else (route, engine)

    def _routed_puzzles(
        self, rules: RuleSet, givens: bytes | Sequence[bytes]
    ) -> tuple[Route, Backend] | None:
        """The route and engine that take every puzzle of a batch of pencilmark puzzles
        (the routes read from the puzzle), or None (native answers)."""
        if rules_without_candidates(rules) is rules:  # no candidates rule
            return None
        nc = rules.shape.cell_count
        rows = (
            [bytes(givens[k : k + nc]) for k in range(0, len(givens), nc)]
            if isinstance(givens, (bytes, bytearray, memoryview))
            else [bytes(g) for g in givens]
        )
        if not rows or any(len(row) != nc for row in rows):
            return None  # the engine refuses it as it should
        shape = rules.shape
        routes = {self._route("search", rules, Puzzle(Grid(shape, row), rules)) for row in rows}
        route = routes.pop() if len(routes) == 1 else None
        engine = None if route is None else self._engine(route)
        return None if route is None or engine is None else (route, engine)

    @staticmethod
    def _first_try(route: Route, budget: Budget | None) -> Budget:
        budget = DEFAULT_BUDGET if budget is None else budget
        nodes = route.first_try_nodes or 0
        return replace(budget, nodes=nodes if budget.nodes is None else min(nodes, budget.nodes))

    # -- identity, interruption, resources -----------------------------------------------
    def version(self) -> str:
        return self._native.version()

    def engine_name(self) -> str:
        """``native``: the engine of every question no route takes."""
        return self._native.name

    def interrupt(self) -> None:
        """Stop every search in flight: native's and those of every engine this backend
        started, in any thread. Only sets flags: safe in a signal handler."""
        super().interrupt()
        self._native.interrupt()
        for engine in tuple(self._engines):
            engine.interrupt()

    def clear_interrupt(self) -> None:
        super().clear_interrupt()
        self._native.clear_interrupt()
        for engine in tuple(self._engines):
            engine.clear_interrupt()

    def close(self) -> None:
        """Close native and every engine this backend started (a later call starts them
        again)."""
        self._native.close()
        with self._lock:
            engines, self._engines = self._engines, []
            self._local = threading.local()
        for engine in engines:
            engine.close()

    # -- the four questions --------------------------------------------------------------
    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        return self._native._search(puzzle, limit=limit, budget=budget)

    def check_unique(
        self, puzzle: Puzzle, *, solution: Grid | None = None, budget: Budget | None = None
    ) -> Verdict:
        """See the base class; a routed question that native's first try leaves
        ``unknown`` goes to the route's engine (the verdict names the engine)."""
        routed = self._routed("search", puzzle.rules, puzzle)
        if routed is None:
            return self._native.check_unique(puzzle, solution=solution, budget=budget)
        route, engine = routed
        return self._answer(
            route,
            engine,
            lambda backend, b: backend.check_unique(puzzle, solution=solution, budget=b),
            lambda verdict: verdict.kind is not VerdictKind.UNKNOWN,
            budget,
        )

    def solve(self, puzzle: Puzzle, *, budget: Budget | None = None) -> SolveResult:
        """See the base class; routed as :meth:`check_unique`."""
        routed = self._routed("search", puzzle.rules, puzzle)
        if routed is None:
            return self._native.solve(puzzle, budget=budget)
        route, engine = routed
        return self._answer(
            route,
            engine,
            lambda backend, b: backend.solve(puzzle, budget=b),
            lambda result: result.status is not SolveStatus.UNKNOWN,
            budget,
        )

    def count(self, puzzle: Puzzle, *, limit: int, budget: Budget | None = None) -> CountResult:
        """See the base class; counts up to 2 are routed as :meth:`check_unique`, longer
        ones stay native (enumerating by blocking clauses is no match for C)."""
        routed = self._routed("search", puzzle.rules, puzzle) if limit <= 2 else None
        if routed is None:
            return self._native.count(puzzle, limit=limit, budget=budget)
        route, engine = routed
        return self._answer(
            route,
            engine,
            lambda backend, b: backend.count(puzzle, limit=limit, budget=b),
            lambda result: result.complete or result.count >= limit,
            budget,
        )

    def solutions(
        self, puzzle: Puzzle, *, limit: int | None = None, budget: Budget | None = None
    ) -> SolutionIterator:
        """See the base class: native's resumable C search."""
        return self._native.solutions(puzzle, limit=limit, budget=budget)

    # -- the primitives --------------------------------------------------------------------
    def check_unique_batch(
        self,
        rules: RuleSet,
        givens: bytes | Sequence[bytes],
        *,
        budget: Budget | None = None,
    ) -> UniqueBatch:
        """See the base class; a routed batch goes to the route's engine whole (a batch of
        pencilmark puzzles when the route takes every puzzle of it). A route of variant
        rules takes a batch of one puzzle after native's first try, as a single question;
        a longer batch of them stays native."""
        self._require_rules(rules)
        routed = self._routed("search", rules) or self._routed_puzzles(rules, givens)
        if routed is None:
            return self._native.check_unique_batch(rules, givens, budget=budget)
        route, engine = routed
        if route.variant_rules_only:
            nc = rules.shape.cell_count
            count = (
                len(givens) // nc
                if isinstance(givens, (bytes, bytearray, memoryview))
                else len(givens)
            )
            if count != 1:
                return self._native.check_unique_batch(rules, givens, budget=budget)
            return self._answer(
                route,
                engine,
                lambda backend, b: backend.check_unique_batch(rules, givens, budget=b),
                lambda batch: batch.kinds[0] is not VerdictKind.UNKNOWN,
                budget,
            )
        return engine.check_unique_batch(rules, givens, budget=budget)

    def removal_oracle(
        self, rules: RuleSet, solution: Grid, *, budget: Budget | None = None
    ) -> RemovalOracle:
        """Native's removal oracle, composed with the removal route's engine as its
        fallback where a route takes the rules."""
        route = self._route("removal", rules)
        if route is None:
            return self._native.removal_oracle(rules, solution, budget=budget)
        return self._native.removal_oracle(
            rules, solution, budget=budget, fallback=partial(self._fallback_oracle, route)
        )

    def _fallback_oracle(
        self, route: Route, rules: RuleSet, solution: Grid, budget: Budget
    ) -> RemovalOracle | None:
        engine = self._engine(route)
        if engine is None:
            return None
        try:
            return engine.removal_oracle(rules, solution, budget=budget)
        except UnsupportedPuzzleError:  # its rule kinds: native goes on alone
            return None

    def restore_candidates(
        self,
        rules: RuleSet,
        solution: Grid,
        masks: Sequence[int],
        order: Sequence[tuple[int, int]],
        *,
        target: int | None = None,
        budget: Budget | None = None,
    ) -> tuple[tuple[int, ...], bytes]:
        """Native's pass in C (see :meth:`backends.native.NativeBackend.restore_candidates`)."""
        return self._native.restore_candidates(
            rules, solution, masks, order, target=target, budget=budget
        )

    def random_solution(
        self,
        rules: RuleSet,
        rng: random.Random,
        *,
        start: Grid | None = None,
        budget: Budget | None = None,
    ) -> Grid | None:
        """Native's (see :meth:`backends.native.NativeBackend.random_solution`)."""
        return self._native.random_solution(rules, rng, start=start, budget=budget)

    def verify_plain_lines(
        self, text: str, count: int, *, budget: Budget | None = None
    ) -> BulkColumns | None:
        """Native's bulk path (plain classic 9x9 lines: no route takes them)."""
        return self._native.verify_plain_lines(text, count, budget=budget)
