"""The solving API shared by every backend: budgets, verdicts, results, the base class,
the optional primitives and the registry.

This module imports no solver. Backends live in the top-level ``backends`` package and are
found by name through the entry-point group ``sudoku_model.backends`` (or, for tests and
notebooks, :func:`register_backend`), so a third party can add one (say z3) without
touching this code.

The backend contract
--------------------
A backend subclasses :class:`Backend` and implements one method, ``_search(puzzle, *,
limit, budget) -> SearchOutcome`` (up to ``limit`` solutions, and whether the search space
was exhausted). The base class builds the four public questions on it, the same way for
every backend (capabilities and clashing givens checked first, wall time measured alike):

* ``solve(puzzle)`` -> :class:`SolveResult`
* ``count(puzzle, limit=N)`` -> :class:`CountResult` (exact when ``complete``)
* ``solutions(puzzle, limit=None)`` -> an iterator of :class:`~sudoku_model.Grid`
* ``check_unique(puzzle, solution=None)`` -> :class:`Verdict` with witnesses

Beyond the four, the workflows (verify, generate, compare) use three optional primitives
(:data:`PRIMITIVES`), each with a generic default here built on the four, so a backend
that implements only ``_search`` gets every workflow:

* ``check_unique_batch(rules, givens)`` -> :class:`UniqueBatch`: uniqueness of many puzzles
  of one rule set (packed givens in, columns out). Default: ``check_unique`` per puzzle.
* ``removal_oracle(rules, solution)`` -> :class:`RemovalOracle`, whose
  ``still_unique(givens, removed)`` says whether the puzzle stays unique without some
  clues of the full grid. Default: ``check_unique(puzzle, solution=...)``. The oracle
  also runs a generator's whole removal pass, ``remove_groups(givens, groups,
  target=)`` -> :class:`RemovalPass`, and its minimality test, ``all_necessary``:
  by default a Python loop over ``still_unique``; an oracle with
  ``bulk_removal`` (native: one C call per pass) does the same pass in one call.
* ``random_solution(rules, rng, start=None)`` -> a random full grid drawn from ``rng``.
  Default: a randomised Python search (:mod:`sudoku_model.fill`).

A backend that does better overrides a primitive and names it in its
:class:`Capabilities` (``fast_paths``; ``sudoku backends`` shows them): native overrides all
three (one C call per batch, releasing the GIL; forbidden pairs with a SAT fallback for
large grids; a seeded C search), PySAT the removal oracle (assumptions in a long-lived
solver). Workflows read capabilities as data, never probe methods with ``getattr``; the
contract tests check that what a backend declares is what it overrides, and that each
override answers like the default.

Budgets and interruption: every search takes a :class:`Budget` (:data:`DEFAULT_BUDGET`
when None). Budget spent has one meaning everywhere: the verdict ``unknown`` (a count not
``complete``, a solve ``unknown``, a batch entry ``unknown``), or ``None`` from the
primitives that answer yes/no or a grid (``still_unique``, ``random_solution``); never an
exception. :meth:`Backend.interrupt` (safe from a signal handler) makes the search in
flight, and every later call until :meth:`Backend.clear_interrupt`, raise
:class:`~sudoku_model.errors.SearchInterrupted`, which is never a verdict. A count becomes a
verdict by one rule, :func:`verdict_of_count`; the evidence of a verdict is checked by one
function, :func:`evidence_problem`.

>>> from sudoku_model import Puzzle
>>> backend = get_backend("native")                                   # doctest: +SKIP
>>> backend.check_unique(Puzzle.parse(".2..3....1....4.")).kind        # doctest: +SKIP
<VerdictKind.UNIQUE: 'unique'>
"""

from __future__ import annotations

import abc
import enum
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from .errors import BackendNotFoundError, SearchInterrupted, UnsupportedPuzzleError
from .grid import Grid
from .puzzle import Puzzle
from .rules import RuleSet

__all__ = [
    "CERTIFICATE_VERDICTS",
    "Certificate",
    "CertificationUnsupported",
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
    "PRIMITIVES",
    "RemovalOracle",
    "RemovalPass",
    "UniqueBatch",
    "BulkColumns",
    "PLAIN_KINDS",
    "available_backends",
    "evidence_problem",
    "is_full_grid",
    "get_backend",
    "register_backend",
    "registered_backends",
    "unregister_backend",
    "verdict_of_count",
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
        from .display import verdict_svg

        return verdict_svg(self)

    def _repr_html_(self) -> str:
        from .display import verdict_html

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


# -- certificates (issue 14) ----------------------------------------------------------------
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


class CertificationUnsupported(UnsupportedPuzzleError):
    """A backend (or a solver of it) that cannot produce certificates, or rules that
    cannot be certified; the message says which and why."""


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


# -- backend base --------------------------------------------------------------------------
#: The optional primitives of the backend contract: each has a generic default on
#: :class:`Backend` built on the four public methods; a backend that overrides one with a
#: faster path names it in :attr:`Capabilities.fast_paths`.
PRIMITIVES = ("check_unique_batch", "removal_oracle", "random_solution")


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as data (shown by ``sudoku backends``).

    ``fast_paths`` names the :data:`PRIMITIVES` the backend overrides with a path of its
    own (the others run the generic defaults); workflows read it, never ``getattr``.

    Raises:
        ValueError: for a fast path that is not one of :data:`PRIMITIVES`.
    """

    rule_kinds: frozenset[str]
    min_size: int = 4
    max_size: int = 25
    budgets: tuple[str, ...] = ("seconds",)
    notes: str = ""
    fast_paths: frozenset[str] = frozenset()
    #: The search runs in native code that releases the GIL: workflows run it in threads.
    releases_gil: bool = False
    #: :meth:`Backend.verify_plain_lines` answers plain classic 9x9 lines in bulk.
    bulk_verify: bool = False

    def __post_init__(self) -> None:
        unknown = set(self.fast_paths) - set(PRIMITIVES)
        if unknown:
            raise ValueError(
                f"unknown fast path(s) {sorted(unknown)}; the primitives are {PRIMITIVES}"
            )


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


# -- bulk verification of plain lines: a primitive of its own, declared by bulk_verify ------
#: What each status of :attr:`BulkColumns.statuses` means: the verdict, or None for a line
#: the bulk path did not answer (not a plain line: the caller reads it the general way).
#: Statuses 1 and 2 are both ``multiple`` (2: the second search ran out of budget before
#: it found two solutions again, so there are no witnesses).
PLAIN_KINDS: tuple[VerdictKind | None, ...] = (
    VerdictKind.UNIQUE,
    VerdictKind.MULTIPLE,
    VerdictKind.MULTIPLE,
    VerdictKind.UNSOLVABLE,
    VerdictKind.UNKNOWN,
    VerdictKind.CONTRADICTORY,
    None,
)


@dataclass(frozen=True)
class BulkColumns:
    """The answers of :meth:`Backend.verify_plain_lines` for one chunk of text lines, as
    columns of values (no text: the workflow writes the records).

    ``statuses`` holds one byte per line (see :data:`PLAIN_KINDS`); ``givens`` and
    ``solutions`` 81 values per line (0 = empty; the solution of a ``unique`` line),
    ``clues`` one byte per line (the givens of a plain line, 0 for the others),
    ``witnesses`` 162 per line (the two solutions of a ``multiple`` line of status 1);
    values of other lines are unspecified. ``size`` counts the plain lines, which were
    answered as one batch of :meth:`Backend.check_unique_batch` would answer them (the
    same verdicts, counters and witnesses); ``seconds`` is that batch's wall time and
    ``stats`` its counters; ``evidence_ok`` says that every solution and witness solves its
    puzzle (a full grid without a clash that keeps the givens) and that the two witnesses
    differ; a caller that finds it False answers the chunk another way.
    """

    statuses: bytes
    givens: bytes
    clues: bytes
    solutions: bytes
    witnesses: bytes
    size: int
    seconds: float
    stats: dict[str, Any]
    evidence_ok: bool


@dataclass(frozen=True)
class RemovalPass:
    """What :meth:`RemovalOracle.remove_groups` did.

    ``givens``: the values after the pass (n*n bytes, 0 = empty). ``answers``: one per
    visited group, in visiting order: True (it went), False (necessary: it stayed), None (a
    budget ran out: it stayed). Groups from ``len(answers)`` on were not visited (the clue
    target was reached first).
    """

    givens: bytes
    answers: tuple[bool | None, ...]

    @property
    def clues(self) -> int:
        """The number of givens left."""
        return len(self.givens) - self.givens.count(0)


#: A caller's shortcut for :meth:`RemovalOracle.remove_groups`: ``shortcut(values, group)``
#: with the group emptied in ``values``; True only when the puzzle is surely still unique
#: (say, every emptied cell is forced by the givens), else False (then the oracle asks).
RemovalShortcut = Callable[[bytearray, Sequence[int]], bool]


class RemovalOracle(abc.ABC):
    """Answers "is the puzzle still unique?" while clues are removed from one full grid S
    (from :meth:`Backend.removal_oracle`): the generator's and ``--minimal``'s question.

    ``still_unique(givens, removed)``: ``givens`` are S with some cells emptied (0), and
    the puzzle was unique before the ``removed`` cells were emptied too. Then it is still
    unique exactly when no solution differs from S in a removed cell, which a backend can
    ask as one search ("the givens + a removed cell != its digit in S"). True: still
    unique; False: another solution exists; None: the budget ran out first (the one
    meaning of "budget spent" for every primitive; never an exception).

    ``cheap_calls`` says that one call costs microseconds (a C search), so a caller should
    not spend Python time on shortcuts first. ``stats`` counts what the oracle did, under
    keys of its own (native: ``fallback_calls``). Use it as a context manager, or call
    :meth:`close`, to free a solver it holds. Not thread-safe.
    """

    cheap_calls: ClassVar[bool] = False

    def __init__(self, rules: RuleSet, solution: Grid, budget: Budget) -> None:
        self.rules = rules
        self.solution = solution
        self.budget = budget
        self.stats: dict[str, int] = {}

    @abc.abstractmethod
    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        """See the class docstring.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after :meth:`Backend.interrupt`.
        """

    #: True when :meth:`remove_groups` and :meth:`all_necessary` run the whole pass in
    #: one call of the backend's own (native: C), ignoring the caller's shortcut.
    bulk_removal: ClassVar[bool] = False

    def remove_groups(
        self,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None = None,
        shortcut: RemovalShortcut | None = None,
    ) -> RemovalPass:
        """The removal pass of the generator: the ``groups`` (disjoint cell groups, e.g.
        the orbits of a symmetry, in the order the caller drew) are visited in turn, each
        emptied and left empty when the puzzle stays unique without it
        (:meth:`still_unique`), else put back. Before a group the pass stops once at most
        ``target`` clues are left (None: visit every group). ``givens`` (S with some cells
        emptied, unique) is not changed.

        This default is the Python loop, one :meth:`still_unique` per group after the
        caller's ``shortcut`` (see :data:`RemovalShortcut`); a backend overrides it (and
        sets :attr:`bulk_removal`) to run the same pass in one call. Every correct oracle
        gives the same result, since each answer is a fact about the puzzle; only a
        budget that runs out (answer None, the group stays) can make two differ.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        self._check(givens)
        values = bytearray(givens)
        clues = len(values) - values.count(0)
        answers: list[bool | None] = []
        known = self.solution.values
        for group in groups:
            if target is not None and clues <= target:
                break
            for c in group:
                values[c] = 0
            if shortcut is not None and shortcut(values, group):
                answer: bool | None = True
            else:
                answer = self.still_unique(values, group)
            answers.append(answer)
            if answer is True:
                clues -= len(group)
            else:
                for c in group:
                    values[c] = known[c]
        return RemovalPass(bytes(values), tuple(answers))

    def all_necessary(self, givens: Sequence[int], groups: Iterable[Sequence[int]]) -> bool | None:
        """Whether every group is necessary: False as soon as one could go (the puzzle
        stays unique without it), None when a budget stopped some test and none could go,
        True otherwise (``givens`` is a unique subset of S holding every group; the
        minimality test). The default asks :meth:`still_unique` per group.

        Raises:
            ValueError: when ``givens`` has not one value per cell.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        self._check(givens)
        values = bytearray(givens)
        known = self.solution.values
        unknown = False
        for group in groups:
            for c in group:
                values[c] = 0
            answer = self.still_unique(values, group)
            for c in group:
                values[c] = known[c]
            if answer is True:
                return False
            if answer is None:
                unknown = True
        return None if unknown else True

    def note_necessary(self, cells: Iterable[int]) -> None:
        """A hint from the caller: these clues were shown necessary and stay givens of
        this grid from now on (an oracle may make them fixed constraints of its own; the
        default ignores it). Answers never depend on it."""
        return None

    def _check(self, givens: Sequence[int]) -> None:
        if len(givens) != self.rules.shape.cell_count:
            raise ValueError(
                f"givens has {len(givens)} values; the grid has {self.rules.shape.cell_count} cells"
            )

    def close(self) -> None:
        """Free what the oracle holds (nothing, by default)."""
        return None

    def __enter__(self) -> RemovalOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _CheckUniqueOracle(RemovalOracle):
    """The default removal oracle: one ``check_unique(puzzle, solution=S)`` per call."""

    def __init__(self, backend: Backend, rules: RuleSet, solution: Grid, budget: Budget) -> None:
        super().__init__(rules, solution, budget)
        self.backend = backend

    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        self._check(givens)
        puzzle = Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        kind = self.backend.check_unique(puzzle, solution=self.solution, budget=self.budget).kind
        if kind is VerdictKind.UNIQUE:
            return True
        return False if kind is VerdictKind.MULTIPLE else None


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
        return _refusal(self.capabilities, self.name, puzzle.rules)

    def _require_supported(self, puzzle: Puzzle) -> None:
        reason = _refusal(self.capabilities, self.name, puzzle.rules)
        if reason is not None:
            raise UnsupportedPuzzleError(reason)

    def _require_rules(self, rules: RuleSet) -> None:
        """:meth:`_require_supported` for the rules alone (the primitives' check)."""
        reason = _refusal(self.capabilities, self.name, rules)
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

    # -- the optional primitives (generic defaults; fast paths in Capabilities) ------------
    def check_unique_batch(
        self,
        rules: RuleSet,
        givens: bytes | Sequence[bytes],
        *,
        budget: Budget | None = None,
    ) -> UniqueBatch:
        """:meth:`check_unique` for many puzzles of one rule set, in one call.

        ``givens`` holds ``n*n`` values (0 = empty, 1..n) per puzzle: one ``bytes`` per
        puzzle, or all of them back to back. The budget applies to each puzzle. The default
        asks :meth:`check_unique` once per puzzle; a fast path (native: one C call that
        releases the GIL, so threads overlap batches) answers the same.

        Raises:
            ValueError: for data of the wrong length or a value outside 0..n.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
            SearchInterrupted: after :meth:`interrupt`.
        """
        rows = _split_givens(rules, givens)
        self._require_rules(rules)
        start = time.perf_counter()
        shape = rules.shape
        empty = bytes(shape.cell_count)
        kinds: list[VerdictKind] = []
        solutions: list[bytes] = []
        witnesses: dict[int, tuple[bytes, bytes]] = {}
        stats: dict[str, Any] = {}
        for i, row in enumerate(rows):
            v = self.check_unique(Puzzle(Grid._trusted(shape, tuple(row)), rules), budget=budget)
            kinds.append(v.kind)
            first = v.solution if v.solution is not None else (v.witnesses or (None,))[0]
            solutions.append(empty if first is None else bytes(first.values))
            if v.kind is VerdictKind.MULTIPLE and len(v.witnesses) >= 2:
                witnesses[i] = (bytes(v.witnesses[0].values), bytes(v.witnesses[1].values))
            for key in STAT_KEYS:
                value = v.stats.get(key)
                if isinstance(value, int):
                    stats[key] = stats.get(key, 0) + value
        return UniqueBatch(
            rules,
            kinds,
            b"".join(solutions),
            witnesses,
            self.name,
            time.perf_counter() - start,
            stats,
        )

    def removal_oracle(
        self, rules: RuleSet, solution: Grid, *, budget: Budget | None = None
    ) -> RemovalOracle:
        """An oracle answering "still unique without these clues?" for the full grid
        ``solution`` (see :class:`RemovalOracle`); ``budget`` applies to each call. The
        default asks :meth:`check_unique` with the known solution (one search for another
        one); fast paths: native (forbidden pairs in C, a SAT fallback for the hard calls
        of large grids), PySAT (assumptions in a long-lived solver).

        Raises:
            ValueError: when ``solution`` is not a full grid of ``rules``.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
        """
        _require_full_grid(rules, solution)
        self._require_rules(rules)
        return _CheckUniqueOracle(self, rules, solution, self._budget(budget))

    def random_solution(
        self,
        rules: RuleSet,
        rng: random.Random,
        *,
        start: Grid | None = None,
        budget: Budget | None = None,
    ) -> Grid | None:
        """A random solution of ``rules`` (a full grid; one extending ``start`` when
        given), drawn from ``rng`` only: the same ``rng`` state gives the same grid, on
        any backend that does not override this. Not uniform over all grids.

        The default is a randomised depth-first search in Python (fewest candidates first,
        singles, random digit order; :func:`sudoku_model.fill.random_fill`) with a node
        limit; when that gives up on a ``start``, the backend's own :meth:`solve` answers
        (not random). None: no grid this time (the node limit or the budget ran out, or
        ``start`` has no solution): draw again.

        Raises:
            ValueError: when ``start`` has another shape.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
        """
        from .fill import random_fill

        if start is not None and start.shape != rules.shape:
            raise ValueError(f"start of {start.shape.name} for rules of {rules.shape.name}")
        self._require_rules(rules)
        grid = random_fill(rules, rng, start)
        if grid is None and start is not None:
            grid = self.solve(Puzzle(start, rules), budget=budget).solution
        return grid

    # -- certificates (not a fast path: there is no generic default) -------------------
    def certificate_refusal(self) -> str | None:
        """None when :meth:`certificate` can work, else why this backend cannot certify
        (asked once, before a run; the default: it cannot)."""
        return (
            f"backend {self.name} cannot certify verdicts: it has no proof-logging solver; "
            "use pysat (pysat:cadical195, the default certifier, or another solver that "
            "writes DRAT proofs)"
        )

    def certificate(
        self, rules: RuleSet, givens: Grid, *, budget: Budget | None = None
    ) -> Certificate:
        """A :class:`Certificate` of the verdict on the puzzle ``givens`` under ``rules``:
        a DRAT refutation for ``unique`` (of the rules, the givens and the blocking clause
        of the solution) and ``unsolvable``, witnesses for ``multiple``, the clash for
        ``contradictory``; verdict ``unknown`` (nothing proved) when the budget ran out.
        Each certificate comes from a fresh proof-logging solver, so the proof covers
        exactly that formula. The default raises: a backend without proofs cannot certify.

        Raises:
            CertificationUnsupported: this backend (or solver) writes no trustworthy
                proofs, or the rules hold a kind the certificate encoding lacks.
            ValueError: when ``givens`` has another shape than ``rules``.
            SearchInterrupted: after :meth:`interrupt`.
        """
        raise CertificationUnsupported(self.certificate_refusal() or "cannot certify")

    # -- bulk verification of plain lines (not a fast path: no generic default) ---------
    def verify_plain_lines(
        self, text: str, count: int, *, budget: Budget | None = None
    ) -> BulkColumns | None:
        """``sudoku verify``'s common case in bulk: ``text`` holds ``count`` lines joined by
        newlines; the plain classic 9x9 lines among them (exactly 81 characters of
        ``1-9``, ``.`` and ``0``) are read and answered in one call, with no Python object
        per puzzle, and returned as :class:`BulkColumns`. The budget applies to each
        puzzle. A backend declares this path with :attr:`Capabilities.bulk_verify`; the
        workflows call it only then.

        None when this backend has no such path (the default), or when ``text`` does not
        split into ``count`` lines.

        Raises:
            SearchInterrupted: after :meth:`interrupt` (no line of the chunk is answered).
        """
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


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


@lru_cache(maxsize=512)
def _refusal(caps: Capabilities, name: str, rules: RuleSet) -> str | None:
    # Cached: the primitives ask once per grid or batch, and building the answer costs
    # more than many a native search.
    missing = rules.kinds - caps.rule_kinds
    if missing:
        return f"backend {name} does not support rule kind(s) {', '.join(sorted(missing))}"
    n = rules.shape.size
    if not caps.min_size <= n <= caps.max_size:
        return f"backend {name} supports sizes {caps.min_size}..{caps.max_size}, not {n}x{n}"
    return None


def _split_givens(rules: RuleSet, givens: bytes | Sequence[bytes]) -> list[bytes]:
    """One ``bytes`` per puzzle, checked: n*n values in 0..n each."""
    nc = rules.shape.cell_count
    n = rules.shape.size
    if isinstance(givens, (bytes, bytearray, memoryview)):
        data = bytes(givens)
        if len(data) % nc:
            raise ValueError(f"{len(data)} bytes is not a whole number of {nc}-cell grids")
        rows = [data[k : k + nc] for k in range(0, len(data), nc)]
    else:
        rows = [bytes(g) for g in givens]
        if any(len(r) != nc for r in rows):
            raise ValueError(f"every puzzle needs {nc} values")
    if any(max(r, default=0) > n for r in rows):
        raise ValueError(f"a value outside 0..{n} in the givens")
    return rows


def is_full_grid(rules: RuleSet, grid: Grid) -> bool:
    """True when ``grid`` is a complete solution of ``rules``: no empty cell, no unit with
    a repeated digit, no "different" pair with equal digits (a fast
    :meth:`Puzzle.is_solution` for grids without givens to keep).
    """
    if grid.shape != rules.shape:
        return False
    values = grid.values
    if 0 in values:
        return False
    units, pairs = _grid_checks(rules)
    return all(len(set(get(values))) == size for get, size in units) and all(
        values[a] != values[b] for a, b in pairs
    )


@lru_cache(maxsize=64)
def _grid_checks(
    rules: RuleSet,
) -> tuple[tuple[tuple[Callable[[Sequence[int]], Any], int], ...], tuple[tuple[int, int], ...]]:
    from operator import itemgetter

    units = tuple((itemgetter(*u), len(u)) for u in rules.units if len(u) > 1)
    return units, rules.pairs


def _require_full_grid(rules: RuleSet, solution: Grid) -> None:
    if not is_full_grid(rules, solution):
        raise ValueError(f"the solution must be a full grid of the rules ({rules.shape.name})")


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


# -- registry ------------------------------------------------------------------------------
_ALIASES = {"sat": "pysat", "cp-sat": "cpsat", "ortools": "cpsat", "c": "native"}


#: The toolkit's own backends, as pyproject.toml declares them in the entry-point group (a
#: test keeps the two equal). get_backend resolves these names without scanning every
#: installed distribution's entry points, which costs tens of milliseconds at each start of
#: the command line; other names (third-party backends) go through the scan.
_BUILTIN = {
    "native": "backends.native:create",
    "pysat": "backends.sat:create",
    "cpsat": "backends.cpsat:create",
    "logic": "backends.logic:create",
}


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load_builtin(name: str) -> Callable[..., Backend]:
    import importlib

    module, _, attr = _BUILTIN[name].partition(":")
    factory: Callable[..., Backend] = getattr(importlib.import_module(module), attr)
    return factory


#: Backends registered at run time (:func:`register_backend`), by name.
_REGISTERED: dict[str, Callable[..., Backend]] = {}


def register_backend(name: str, factory: Callable[..., Backend]) -> None:
    """Register a backend factory under ``name`` for this process, beside the entry points
    (which it shadows): ``factory(sub, **options)`` is called as an entry point's is, with
    the part of the name after a colon (or None). For tests, notebooks and experiments; a
    package registers through the ``sudoku_model.backends`` entry-point group instead.

    The workflows' worker processes (:mod:`sudoku_model.executor`) register it again when
    ``factory`` can be pickled by reference (a module-level function or class of a module
    the workers can import); a lambda or a local function stays in this process: run such
    workflows with one job.

    Raises:
        ValueError: for an empty name or one with a colon.
    """
    key = name.strip().lower()
    if not key or ":" in key:
        raise ValueError(f"a backend name is a non-empty word without a colon, got {name!r}")
    _REGISTERED[key] = factory


def registered_backends() -> dict[str, Callable[..., Backend]]:
    """The backends of :func:`register_backend` in this process, by name."""
    return dict(_REGISTERED)


def unregister_backend(name: str) -> None:
    """Forget a backend of :func:`register_backend` (no error when there is none)."""
    _REGISTERED.pop(name.strip().lower(), None)


def available_backends() -> list[str]:
    """Names registered under the ``sudoku_model.backends`` entry-point group, and those
    of :func:`register_backend`."""
    return sorted(set(_entry_points()) | set(_REGISTERED))


def get_backend(name: str = DEFAULT_BACKEND, **options: Any) -> Backend:
    """A new backend instance by name: ``native``, ``pysat`` / ``pysat:glucose4``, ``cpsat``.

    The part after a colon selects a sub-solver and is passed to the backend's factory.
    Names of :func:`register_backend` come first, then the toolkit's own four (without
    scanning the installed entry points, which is slow), then the entry-point group.

    Raises:
        BackendNotFoundError: no backend of that name is registered.
        BackendUnavailableError: it is registered but its solver package is missing.
        ValueError: the sub-solver name is unknown to the backend.
    """
    base, _, sub = name.strip().partition(":")
    base = _ALIASES.get(base.lower(), base.lower())
    registered = _REGISTERED.get(base)
    if registered is not None:
        return registered(sub or None, **options)
    if base in _BUILTIN:
        return _load_builtin(base)(sub or None, **options)
    eps = _entry_points()
    if base not in eps:
        known = ", ".join(available_backends()) or "none (is the package installed?)"
        raise BackendNotFoundError(f"no backend named {name!r}; registered: {known}")
    factory: Callable[..., Backend] = eps[base].load()
    return factory(sub or None, **options)
