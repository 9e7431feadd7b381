"""The answers of the backend contract: budgets, verdicts, results and their reprs, the raw
outcome of a backend's search, and the columns of a batch.

Plain values: nothing here runs a search or knows a backend.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet

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


def verdict_of_count(count: int, complete: bool, *, contradictory: bool = False) -> VerdictKind:
    """The one rule from a count of solutions to a uniqueness verdict, used by every
    backend and workflow: clashing givens are ``contradictory``; two or more solutions are
    ``multiple`` whatever stopped the search; otherwise an unfinished search (budget
    spent) is ``unknown``, a finished one ``unsolvable`` (0) or ``unique`` (1).

    >>> [verdict_of_count(c, done).value for c, done in ((1, True), (1, False), (2, False))]
    ['unique', 'unknown', 'multiple']
    """
    if contradictory:
        return VerdictKind.CONTRADICTORY
    if count >= 2:
        return VerdictKind.MULTIPLE
    if not complete:
        return VerdictKind.UNKNOWN
    return VerdictKind.UNSOLVABLE if count == 0 else VerdictKind.UNIQUE


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

    def __repr__(self) -> str:
        grid = "None" if self.solution is None else repr(self.solution.to_line())
        return (
            f"<SolveResult {self.status.value} by {self.backend} in {_ms(self.seconds)}: "
            f"{_puzzle_text(self.puzzle)} -> {grid}>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


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
        """The uniqueness verdict this count implies (:func:`verdict_of_count`)."""
        return verdict_of_count(self.count, self.complete, contradictory=self.contradictory)

    def __repr__(self) -> str:
        # Compact: a count up to 10**6 keeps thousands of grids, which a notebook would
        # otherwise print in full as the last line of a cell.
        exact = "exact" if self.complete else "at least"
        return (
            f"<CountResult {exact} {self.count:,} solution{'s' * (self.count != 1)} "
            f"({self.verdict.value}; limit {self.limit:,}) by {self.backend} in "
            f"{_ms(self.seconds)}: {_puzzle_text(self.puzzle)}; "
            f"{_first_grids(self.solutions, len(self.solutions))}>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


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

    def __repr__(self) -> str:
        parts = [f"<Verdict {self.kind.value} by {self.backend} in {_ms(self.seconds)}"]
        if self.puzzle is not None:
            parts.append(f": {_puzzle_text(self.puzzle)}")
        if self.solution is not None:
            parts.append(f"; solution {self.solution.to_line()!r}")
        if self.witnesses:
            parts.append(f"; witnesses {_first_grids(self.witnesses, len(self.witnesses))}")
        if self.conflicts:
            parts.append(f"; conflicts {list(self.conflicts[:3])}")
        if self.error:
            parts.append(f"; error {self.error!r}")
        return "".join(parts) + ">"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    # -- Jupyter (drawing code is imported only when a notebook asks) -------------------
    def _repr_svg_(self) -> str:
        from ..display import verdict_svg

        return verdict_svg(self)

    def _repr_html_(self) -> str:
        from ..display import verdict_html

        return verdict_html(self)


#: Grids shown by the compact reprs of results (a count may hold thousands).
REPR_GRIDS = 3


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def _puzzle_text(puzzle: Puzzle | None) -> str:
    if puzzle is None:
        return "no puzzle"
    line = puzzle.givens.to_line()
    name = puzzle.shape.name
    return f"{name} {line!r}" if len(line) <= 81 else f"{name} {line[:78]!r}..."


def _first_grids(grids: Sequence[Grid], total: int) -> str:
    shown = [g.to_line() for g in grids[:REPR_GRIDS]]
    more = total - len(shown)
    return repr(shown)[:-1] + (f", ... {more:,} more]" if more > 0 else "]")


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


@dataclass(frozen=True)
class UniqueBatch:
    """The answers of :meth:`Backend.check_unique_batch`: uniqueness of many puzzles of one
    rule set, in columns (a fast path fills them straight from its own buffers, with no
    Python object per puzzle until one is asked for).

    ``kinds[i]`` is puzzle i's verdict. ``solutions`` holds ``n*n`` bytes per puzzle: its
    first solution found (the solution when ``unique``), zeros when none was found.
    ``witnesses[i]`` holds two different solutions of a ``multiple`` puzzle (missing when
    the budget ran out before two were found again). ``seconds`` is the wall time of the
    whole batch; ``stats`` the backend's counters summed over it (:data:`STAT_KEYS`).
    """

    rules: RuleSet
    kinds: list[VerdictKind]
    solutions: bytes
    witnesses: dict[int, tuple[bytes, bytes]]
    backend: str
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.kinds)

    def solution(self, index: int) -> Grid | None:
        """The solution of puzzle ``index`` when it is unique, else None."""
        if self.kinds[index] is not VerdictKind.UNIQUE:
            return None
        nc = self.rules.shape.cell_count
        return Grid._trusted(self.rules.shape, tuple(self.solutions[index * nc : (index + 1) * nc]))

    def verdict(self, index: int, puzzle: Puzzle | None = None) -> Verdict:
        """Puzzle ``index``'s answer as a :class:`Verdict` (``seconds`` is its share of the
        batch; ``conflicts`` are listed when ``puzzle`` is given)."""
        kind = self.kinds[index]
        shape = self.rules.shape
        pair = self.witnesses.get(index)
        witnesses = (
            tuple(Grid._trusted(shape, tuple(w)) for w in pair)
            if pair is not None and kind is VerdictKind.MULTIPLE
            else ()
        )
        conflicts: tuple[str, ...] = ()
        if kind is VerdictKind.CONTRADICTORY and puzzle is not None:
            conflicts = tuple(c.describe(shape) for c in puzzle.conflicts())
        return Verdict(
            kind,
            puzzle,
            self.backend,
            self.seconds / max(1, len(self.kinds)),
            solution=self.solution(index),
            witnesses=witnesses,
            conflicts=conflicts,
        )


def evidence_problem(puzzle: Puzzle, verdict: Verdict) -> str | None:
    """Why the evidence of a verdict is wrong (a backend bug), or None when it holds: a
    ``unique`` verdict needs a grid that solves the puzzle, a ``multiple`` one two
    different such grids. The one check of verify, compare and the contract tests.
    """
    kind = verdict.kind
    if kind is VerdictKind.UNIQUE:
        if verdict.solution is None or not puzzle.is_solution(verdict.solution):
            return f"{verdict.backend} answered unique with a grid that does not solve the puzzle"
    elif kind is VerdictKind.MULTIPLE:
        w = verdict.witnesses
        if len(w) < 2 or w[0] == w[1] or not all(puzzle.is_solution(g) for g in w):
            return f"{verdict.backend} answered multiple without two different valid solutions"
    return None


def _verdict_from(
    puzzle: Puzzle,
    backend: str,
    found: list[Grid],
    complete: bool,
    seconds: float,
    stats: dict[str, Any],
) -> Verdict:
    kind = verdict_of_count(len(found), complete)
    if kind is VerdictKind.MULTIPLE:
        return Verdict(kind, puzzle, backend, seconds, witnesses=(found[0], found[1]), stats=stats)
    if kind is VerdictKind.UNIQUE:
        return Verdict(kind, puzzle, backend, seconds, solution=found[0], stats=stats)
    return Verdict(kind, puzzle, backend, seconds, stats=stats)
