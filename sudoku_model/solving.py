"""The solving API shared by every backend: budgets, verdicts, results, the base class
and the registry.

This module imports no solver. Backends live in the top-level ``backends`` package and are
found by name through the entry-point group ``sudoku_model.backends``, so a third party can
add one (say z3) without touching this code.

Every backend answers the same four questions the same way:

* ``solve(puzzle)`` -> :class:`SolveResult`
* ``count(puzzle, limit=N)`` -> :class:`CountResult` (exact when ``complete``)
* ``solutions(puzzle, limit=None)`` -> an iterator of :class:`~sudoku_model.Grid`
* ``check_unique(puzzle)`` -> :class:`Verdict` with witnesses

>>> from sudoku_model import Puzzle
>>> backend = get_backend("native")                                   # doctest: +SKIP
>>> backend.check_unique(Puzzle.parse(".2..3....1....4.")).kind        # doctest: +SKIP
<VerdictKind.UNIQUE: 'unique'>
"""

from __future__ import annotations

import abc
import enum
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from .errors import BackendNotFoundError, SearchInterrupted, UnsupportedPuzzleError
from .grid import Grid
from .puzzle import Puzzle

__all__ = [
    "DEFAULT_BACKEND",
    "DEFAULT_BUDGET",
    "ENTRY_POINT_GROUP",
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
    "available_backends",
    "get_backend",
]

ENTRY_POINT_GROUP = "sudoku_model.backends"
DEFAULT_BACKEND = "native"

#: Stable names of backend counters (each backend fills those it has).
STAT_KEYS = ("conflicts", "decisions", "propagations", "nodes", "guesses")


# -- budgets -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """How much one search may spend before it answers ``unknown``.

    ``seconds`` is wall time; ``nodes`` counts search nodes (native, logic); ``conflicts``
    counts SAT conflicts (PySAT solvers that support a conflict limit). ``None`` means no
    limit on that measure. Backends honour the measures their :class:`Capabilities` list.

    >>> Budget(seconds=0.5)
    Budget(seconds=0.5, nodes=None, conflicts=None)

    Raises:
        ValueError: for a negative or non-numeric limit.
    """

    seconds: float | None = None
    nodes: int | None = None
    conflicts: int | None = None

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "conflicts"):
            v = getattr(self, name)
            if v is None:
                continue
            if (
                isinstance(v, bool)
                or not isinstance(v, (int, float))
                or v < 0
                or (isinstance(v, float) and math.isnan(v))
            ):
                raise ValueError(f"budget {name} must be a non-negative number, got {v!r}")

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.nodes is None and self.conflicts is None

    def deadline(self, start: float) -> float | None:
        """The ``time.perf_counter()`` value after which the search must stop."""
        return None if self.seconds is None else start + self.seconds


#: The budget used when none is given: every search ends within a minute.
DEFAULT_BUDGET = Budget(seconds=60.0)


# -- answers -------------------------------------------------------------------------------
class VerdictKind(enum.StrEnum):
    """The six answers to "does this puzzle have exactly one solution?"."""

    MALFORMED = "malformed"  # the text could not be read
    CONTRADICTORY = "contradictory"  # the givens already break a rule
    UNSOLVABLE = "unsolvable"  # no solution (search finished)
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNKNOWN = "unknown"  # budget spent before an answer

    def __str__(self) -> str:
        return self.value


class SolveStatus(enum.StrEnum):
    """The answer of :meth:`Backend.solve`."""

    SOLVED = "solved"
    CONTRADICTORY = "contradictory"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SolveResult:
    """One solution (or why there is none). ``seconds`` is wall time of the whole call."""

    puzzle: Puzzle
    status: SolveStatus
    solution: Grid | None
    backend: str
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status is SolveStatus.SOLVED


@dataclass(frozen=True)
class CountResult:
    """Solutions counted up to a limit.

    ``complete`` is True when ``count`` is exact (the search space was exhausted); a count
    that reached the limit, or a search stopped by the budget, is a lower bound.
    """

    puzzle: Puzzle
    count: int
    complete: bool
    solutions: tuple[Grid, ...]
    limit: int
    backend: str
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    contradictory: bool = False
    budget_exhausted: bool = False

    @property
    def verdict(self) -> VerdictKind:
        if self.contradictory:
            return VerdictKind.CONTRADICTORY
        if self.count >= 2:
            return VerdictKind.MULTIPLE
        if not self.complete:
            return VerdictKind.UNKNOWN
        return VerdictKind.UNSOLVABLE if self.count == 0 else VerdictKind.UNIQUE


@dataclass(frozen=True)
class Verdict:
    """The answer of :meth:`Backend.check_unique`, with evidence.

    ``solution`` is set when ``kind`` is ``unique``; ``witnesses`` holds two different
    solutions when it is ``multiple``; ``conflicts`` describes the clash when
    ``contradictory``.
    """

    kind: VerdictKind
    puzzle: Puzzle | None
    backend: str
    seconds: float
    solution: Grid | None = None
    witnesses: tuple[Grid, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    conflicts: tuple[str, ...] = ()
    error: str | None = None

    @property
    def is_unique(self) -> bool:
        return self.kind is VerdictKind.UNIQUE

    @property
    def differing_cells(self) -> list[int]:
        """Cells where the two witnesses differ (empty unless ``multiple``)."""
        if len(self.witnesses) < 2:
            return []
        return self.witnesses[0].differences(self.witnesses[1])

    # -- Jupyter (drawing code is imported only when a notebook asks) -------------------
    def _repr_svg_(self) -> str:
        from .display import verdict_svg

        return verdict_svg(self)

    def _repr_html_(self) -> str:
        from .display import verdict_html

        return verdict_html(self)


# -- backend base --------------------------------------------------------------------------
@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as data (shown by ``sudoku backends``)."""

    rule_kinds: frozenset[str]
    min_size: int = 4
    max_size: int = 25
    budgets: tuple[str, ...] = ("seconds",)
    notes: str = ""
    #: The search runs in native code that releases the GIL: workflows run it in threads.
    releases_gil: bool = False


@dataclass
class SearchOutcome:
    """What a backend's primitive search returns.

    ``solutions`` are the solutions found (at most the limit); ``complete`` is True when the
    search space was exhausted, so ``len(solutions)`` is the exact count; ``stopped_by_budget``
    when the budget ended it.
    """

    solutions: list[Grid]
    complete: bool
    stats: dict[str, Any] = field(default_factory=dict)
    stopped_by_budget: bool = False
    #: Solutions counted when more were counted than kept (a backend that counts up to a
    #: huge limit without holding every grid); None means ``len(solutions)``.
    count: int | None = None


class SolutionIterator(Iterator[Grid]):
    """Iterator over solutions; after it is exhausted, ``complete`` tells whether every
    solution was produced (False when the limit or the budget cut it short)."""

    def __init__(self, inner: Iterator[Grid], finish: Callable[[], bool]) -> None:
        self._inner = inner
        self._finish = finish
        self.complete: bool | None = None

    def __iter__(self) -> SolutionIterator:
        return self

    def __next__(self) -> Grid:
        try:
            return next(self._inner)
        except StopIteration:
            if self.complete is None:
                self.complete = self._finish()
            raise

    def close(self) -> None:
        """Stop early and let the backend free what the iteration holds (a generator's
        ``finally``); ``complete`` stays None unless the iteration had already ended."""
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


class Backend(abc.ABC):
    """Base class of every backend.

    A backend implements one primitive, :meth:`_search`; this class builds the public
    questions on it, measures wall time the same way for all, checks capabilities and
    clashing givens before any search, and turns outcomes into verdicts. Backends may
    override :meth:`_search_other` (find a solution different from a known one) and
    :meth:`_iter_solutions` when they can do better than the defaults.
    """

    #: Registered name, with the sub-solver after a colon (``pysat:cadical195``).
    name: str = "abstract"
    capabilities: ClassVar[Capabilities] = Capabilities(frozenset({"all_different"}))
    #: Set by :meth:`interrupt`, cleared by :meth:`clear_interrupt`.
    _interrupted: bool = False

    # -- interruption ------------------------------------------------------------------
    def interrupt(self) -> None:
        """Ask every search of this backend in flight (any thread) to stop now.

        Safe to call from a signal handler: it only sets flags. The interrupted call raises
        :class:`~sudoku_model.errors.SearchInterrupted` (never a verdict), and so does every
        later call until :meth:`clear_interrupt`. Backends whose solver can be stopped from
        outside override this to stop it too (and call ``super().interrupt()``).
        """
        self._interrupted = True

    def clear_interrupt(self) -> None:
        """Let searches run again after :meth:`interrupt`."""
        self._interrupted = False

    def _check_interrupt(self) -> None:
        if self._interrupted:
            raise SearchInterrupted(f"backend {self.name}: search interrupted")

    # -- to implement ------------------------------------------------------------------
    @abc.abstractmethod
    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        """Find up to ``limit`` solutions of a puzzle whose givens do not clash."""

    def version(self) -> str:
        """Version of the underlying solver package."""
        return "unknown"

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        """Find a solution different from ``solution`` (default: search for two)."""
        outcome = self._search(puzzle, limit=2, budget=budget)
        outcome.solutions = [s for s in outcome.solutions if s != solution][:1]
        return outcome

    def _iter_solutions(
        self, puzzle: Puzzle, *, limit: int | None, budget: Budget, state: dict[str, bool]
    ) -> Iterator[Grid]:
        """Yield solutions; set ``state['complete']`` at the end (default: one search)."""
        cap = limit if limit is not None else 1_000_000
        outcome = self._search(puzzle, limit=cap, budget=budget)
        state["complete"] = outcome.complete
        yield from outcome.solutions

    # -- public API --------------------------------------------------------------------
    def supports(self, puzzle: Puzzle) -> str | None:
        """None when this backend can answer the puzzle, else the reason it cannot."""
        caps = self.capabilities
        missing = puzzle.rules.kinds - caps.rule_kinds
        if missing:
            return f"backend {self.name} does not support rule kind(s) {', '.join(sorted(missing))}"
        n = puzzle.size
        if not caps.min_size <= n <= caps.max_size:
            return (
                f"backend {self.name} supports sizes {caps.min_size}..{caps.max_size}, not {n}x{n}"
            )
        return None

    def _require_supported(self, puzzle: Puzzle) -> None:
        reason = self.supports(puzzle)
        if reason is not None:
            raise UnsupportedPuzzleError(reason)

    @staticmethod
    def _budget(budget: Budget | None) -> Budget:
        return DEFAULT_BUDGET if budget is None else budget

    def solve(self, puzzle: Puzzle, *, budget: Budget | None = None) -> SolveResult:
        """Find one solution.

        Raises:
            UnsupportedPuzzleError: when the puzzle uses a rule or size this backend lacks.
        """
        self._require_supported(puzzle)
        start = time.perf_counter()
        if puzzle.is_contradictory:
            return SolveResult(
                puzzle, SolveStatus.CONTRADICTORY, None, self.name, time.perf_counter() - start, {}
            )
        self._check_interrupt()
        outcome = self._search(puzzle, limit=1, budget=self._budget(budget))
        self._check_interrupt()
        seconds = time.perf_counter() - start
        if outcome.solutions:
            status = SolveStatus.SOLVED
        elif outcome.complete:
            status = SolveStatus.UNSOLVABLE
        else:
            status = SolveStatus.UNKNOWN
        return SolveResult(
            puzzle,
            status,
            outcome.solutions[0] if outcome.solutions else None,
            self.name,
            seconds,
            outcome.stats,
        )

    def count(self, puzzle: Puzzle, *, limit: int, budget: Budget | None = None) -> CountResult:
        """Count solutions up to ``limit`` (``complete`` says whether the count is exact).

        Raises:
            ValueError: when ``limit`` < 1.
            UnsupportedPuzzleError: as :meth:`solve`.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be a positive integer, got {limit!r}")
        self._require_supported(puzzle)
        start = time.perf_counter()
        if puzzle.is_contradictory:
            return CountResult(
                puzzle,
                0,
                True,
                (),
                limit,
                self.name,
                time.perf_counter() - start,
                {},
                contradictory=True,
            )
        self._check_interrupt()
        outcome = self._search(puzzle, limit=limit, budget=self._budget(budget))
        self._check_interrupt()
        seconds = time.perf_counter() - start
        return CountResult(
            puzzle,
            len(outcome.solutions) if outcome.count is None else outcome.count,
            outcome.complete,
            tuple(outcome.solutions),
            limit,
            self.name,
            seconds,
            outcome.stats,
            budget_exhausted=outcome.stopped_by_budget,
        )

    def solutions(
        self, puzzle: Puzzle, *, limit: int | None = None, budget: Budget | None = None
    ) -> SolutionIterator:
        """Iterate over solutions (all of them when ``limit`` is None, within the budget).

        The returned iterator's ``complete`` attribute, set once it is exhausted, tells
        whether every solution was produced.
        """
        self._require_supported(puzzle)
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise ValueError(f"limit must be a non-negative integer or None, got {limit!r}")
        state: dict[str, bool] = {"complete": False}
        if puzzle.is_contradictory or limit == 0:
            state["complete"] = limit != 0
            return SolutionIterator(iter(()), lambda: state["complete"])
        inner = self._iter_solutions(puzzle, limit=limit, budget=self._budget(budget), state=state)
        return SolutionIterator(inner, lambda: state["complete"])

    def check_unique(
        self, puzzle: Puzzle, *, solution: Grid | None = None, budget: Budget | None = None
    ) -> Verdict:
        """Decide whether the puzzle has exactly one solution, with witnesses.

        A known ``solution`` skips the first search: only "is there another?" is asked.

        Raises:
            ValueError: when ``solution`` is given but does not solve the puzzle.
            UnsupportedPuzzleError: as :meth:`solve`.
        """
        self._require_supported(puzzle)
        start = time.perf_counter()
        if puzzle.is_contradictory:
            conflicts = puzzle.conflicts()
            return Verdict(
                VerdictKind.CONTRADICTORY,
                puzzle,
                self.name,
                time.perf_counter() - start,
                conflicts=tuple(c.describe(puzzle.shape) for c in conflicts),
            )
        budget = self._budget(budget)
        self._check_interrupt()
        if solution is not None:
            if not puzzle.is_solution(solution):
                raise ValueError(
                    "the known solution given to check_unique does not solve the puzzle"
                )
            outcome = self._search_other(puzzle, solution, budget=budget)
            found = [solution] + outcome.solutions[:1]
            complete = outcome.complete
        else:
            outcome = self._search(puzzle, limit=2, budget=budget)
            found = outcome.solutions
            complete = outcome.complete
        self._check_interrupt()
        seconds = time.perf_counter() - start
        return _verdict_from(puzzle, self.name, found, complete, seconds, outcome.stats)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _verdict_from(
    puzzle: Puzzle,
    backend: str,
    found: list[Grid],
    complete: bool,
    seconds: float,
    stats: dict[str, Any],
) -> Verdict:
    if len(found) >= 2:
        return Verdict(
            VerdictKind.MULTIPLE,
            puzzle,
            backend,
            seconds,
            witnesses=(found[0], found[1]),
            stats=stats,
        )
    if not complete:
        return Verdict(VerdictKind.UNKNOWN, puzzle, backend, seconds, stats=stats)
    if not found:
        return Verdict(VerdictKind.UNSOLVABLE, puzzle, backend, seconds, stats=stats)
    return Verdict(VerdictKind.UNIQUE, puzzle, backend, seconds, solution=found[0], stats=stats)


# -- registry ------------------------------------------------------------------------------
_ALIASES = {"sat": "pysat", "cp-sat": "cpsat", "ortools": "cpsat", "c": "native"}


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def available_backends() -> list[str]:
    """Names registered under the ``sudoku_model.backends`` entry-point group."""
    return sorted(_entry_points())


def get_backend(name: str = DEFAULT_BACKEND, **options: Any) -> Backend:
    """A new backend instance by name: ``native``, ``pysat`` / ``pysat:glucose4``, ``cpsat``.

    The part after a colon selects a sub-solver and is passed to the backend's factory.

    Raises:
        BackendNotFoundError: no backend of that name is registered.
        BackendUnavailableError: it is registered but its solver package is missing.
        ValueError: the sub-solver name is unknown to the backend.
    """
    base, _, sub = name.strip().partition(":")
    base = _ALIASES.get(base.lower(), base.lower())
    eps = _entry_points()
    if base not in eps:
        known = ", ".join(sorted(eps)) or "none (is the package installed?)"
        raise BackendNotFoundError(f"no backend named {name!r}; registered: {known}")
    factory = eps[base].load()
    return factory(sub or None, **options)
