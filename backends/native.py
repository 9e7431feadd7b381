"""The ``native`` backend: the compiled C backtracker of :mod:`native_backtrack`.

Rules arrive as data: every all-different unit of the :class:`~sudoku_model.RuleSet` and its
extra "different" pairs are compiled once into a :class:`native_backtrack.Model` (cached per
rule set), then each puzzle is one C call. The classic 9x9 rules take a fixed-size fast path.

Budgets: ``seconds`` (wall time, checked every 1,024 nodes) and ``nodes`` (search nodes);
without one, the base class passes :data:`~sudoku_model.solving.DEFAULT_BUDGET` (60 s).
Stats: ``nodes`` (propagation rounds, one per guess plus the root) and ``guesses``
(branching points).

Besides the backend contract, it offers what generators and bulk verification need:

* :meth:`NativeBackend.random_solution` - a random complete grid (or completion of givens)
  from a seed.
* :meth:`NativeBackend.search_excluding` - solutions with some (cell, digit) pairs excluded;
  :meth:`NativeBackend.keeps_unique_without` asks "is the puzzle still unique without this
  clue?" as one call ("remaining clues + cell != its digit" has no solution).
* :meth:`NativeBackend.count_batch` - many puzzles of one rule set in one C call, GIL
  released, returning a :class:`BatchResult`.

>>> from sudoku_model import Puzzle
>>> backend = create()
>>> backend.count(Puzzle.parse("." * 16), limit=1000).count
288
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import native_backtrack as nb
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RuleSet
from sudoku_model.solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    Capabilities,
    SearchOutcome,
    VerdictKind,
)

__all__ = ["NativeBackend", "BatchResult", "create", "STREAM_CHUNK", "MAX_KEPT"]

#: Solutions fetched from C per step when streaming ``solutions(limit=None)``.
STREAM_CHUNK = 1024

#: Most grids a count keeps (it counts further without holding them: a count up to 10^8
#: returns the exact number and the first MAX_KEPT solutions).
MAX_KEPT = 10_000

_MODEL_CACHE_SIZE = 64


def create(sub: str | None = None, **options: Any) -> NativeBackend:
    """The factory registered under the entry point ``native``.

    Options: ``fast`` (default True) lets classic 9x9 puzzles take the fixed-size path;
    False forces the generic path (for cross-checks).

    Raises:
        ValueError: for a sub-solver name (native has none) or an unknown option.
    """
    if sub:
        raise ValueError(f"the native backend has no sub-solver; got {sub!r}")
    unknown = set(options) - {"fast"}
    if unknown:
        raise ValueError(f"unknown option(s) for the native backend: {', '.join(sorted(unknown))}")
    return NativeBackend(fast=bool(options.get("fast", True)))


def _budget_args(budget: Budget) -> dict[str, Any]:
    return {
        "nodes": -1 if budget.nodes is None else int(budget.nodes),
        "seconds": -1.0 if budget.seconds is None else float(budget.seconds),
    }


def _grid(shape: Shape, raw: bytes) -> Grid:
    return Grid._trusted(shape, tuple(raw))


@dataclass(frozen=True)
class BatchResult:
    """The answers of :meth:`NativeBackend.count_batch` for ``len(counts)`` puzzles.

    ``counts[i]`` solutions were found (up to the limit); ``statuses[i]`` is a
    :mod:`native_backtrack` status (``EXHAUSTED`` means the count is exact);
    ``solutions`` holds ``keep`` grids of ``n*n`` bytes per puzzle (zeros where fewer were
    found).
    """

    shape: Shape
    limit: int
    keep: int
    counts: list[int]
    statuses: bytes
    solutions: bytes
    nodes: int
    guesses: int
    seconds: float

    def __len__(self) -> int:
        return len(self.counts)

    def solutions_of(self, index: int) -> list[Grid]:
        """The solutions kept for puzzle ``index``."""
        nc = self.shape.cell_count
        base = index * self.keep * nc
        k = min(self.counts[index], self.keep)
        return [
            _grid(self.shape, self.solutions[base + j * nc : base + (j + 1) * nc]) for j in range(k)
        ]

    def complete(self, index: int) -> bool:
        """True when the count of puzzle ``index`` is exact."""
        return self.statuses[index] == nb.EXHAUSTED

    def verdict(self, index: int) -> VerdictKind:
        """The uniqueness verdict of puzzle ``index`` (meaningful for ``limit >= 2``)."""
        status, count = self.statuses[index], self.counts[index]
        if status == nb.CONTRADICTORY:
            return VerdictKind.CONTRADICTORY
        if status == nb.INVALID:
            return VerdictKind.MALFORMED
        if count >= 2:
            return VerdictKind.MULTIPLE
        if status != nb.EXHAUSTED:
            return VerdictKind.UNKNOWN
        return VerdictKind.UNIQUE if count == 1 else VerdictKind.UNSOLVABLE


class NativeBackend(Backend):
    """Backend over the compiled backtracker (see the module docstring)."""

    name = "native"
    capabilities = Capabilities(
        frozenset({"all_different", "different"}),
        min_size=4,
        max_size=nb.MAX_SIZE,
        budgets=("seconds", "nodes"),
        notes="C backtracker: naked + hidden singles, fewest-candidates branching; "
        "classic 9x9 fast path; default budget 60 s",
        releases_gil=True,
    )

    def __init__(self, *, fast: bool = True) -> None:
        self.fast = fast
        self._models: OrderedDict[RuleSet, nb.Model] = OrderedDict()
        self._lock = threading.Lock()

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("sudoku-model")
        except PackageNotFoundError:  # running from a source tree
            return "unknown"

    # -- models ------------------------------------------------------------------------
    def model(self, rules: RuleSet) -> nb.Model:
        """The compiled model of a rule set (built once, cached; safe across threads)."""
        with self._lock:
            m = self._models.get(rules)
            if m is not None:
                self._models.move_to_end(rules)
                return m
        m = nb.Model(rules.shape.size, rules.units, rules.pairs)
        with self._lock:
            self._models[rules] = m
            while len(self._models) > _MODEL_CACHE_SIZE:
                self._models.popitem(last=False)
        return m

    # -- the contract ------------------------------------------------------------------
    def _outcome(
        self, puzzle: Puzzle, result: tuple[int, int, list[bytes], int, int]
    ) -> SearchOutcome:
        count, status, raw, nodes, guesses = result
        shape = puzzle.shape
        return SearchOutcome(
            [_grid(shape, s) for s in raw],
            complete=status in (nb.EXHAUSTED, nb.CONTRADICTORY),
            stats={"nodes": nodes, "guesses": guesses},
            stopped_by_budget=status == nb.BUDGET,
            count=count,
        )

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        m = self.model(puzzle.rules)
        return self._outcome(
            puzzle,
            m.solve(
                bytes(puzzle.givens.values),
                limit=limit,
                keep=min(limit, MAX_KEPT),
                fast=self.fast,
                **_budget_args(budget),
            ),
        )

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        # One search that skips the known solution: no second copy of it is counted.
        m = self.model(puzzle.rules)
        return self._outcome(
            puzzle,
            m.solve(
                bytes(puzzle.givens.values),
                limit=1,
                avoid=bytes(solution.values),
                fast=self.fast,
                **_budget_args(budget),
            ),
        )

    def _iter_solutions(
        self, puzzle: Puzzle, *, limit: int | None, budget: Budget, state: dict[str, bool]
    ) -> Iterator[Grid]:
        # A resumable C search: chunks of solutions, never all of them in memory. The
        # budget counts the search's own time and nodes, not the consumer's.
        search = self.model(puzzle.rules).search(bytes(puzzle.givens.values))
        shape = puzzle.shape
        produced = 0
        spent_seconds = 0.0
        state["complete"] = False
        while limit is None or produced < limit:
            want = STREAM_CHUNK if limit is None else min(STREAM_CHUNK, limit - produced)
            args = _budget_args(budget)
            if budget.seconds is not None:
                args["seconds"] = max(0.0, budget.seconds - spent_seconds)
            if budget.nodes is not None:
                args["nodes"] = max(0, budget.nodes - search.nodes)
            start = time.perf_counter()
            status, raw = search.run(want, **args)
            spent_seconds += time.perf_counter() - start
            for s in raw:
                yield _grid(shape, s)
            produced += len(raw)
            if status in (nb.EXHAUSTED, nb.CONTRADICTORY):
                state["complete"] = True
                return
            if status == nb.BUDGET:
                return

    # -- extras for generators and bulk work -------------------------------------------
    def random_solution(
        self, rules: RuleSet, seed: int, *, givens: Grid | None = None, budget: Budget | None = None
    ) -> Grid | None:
        """A random solution from ``seed``: a full grid of ``rules`` (or a completion of
        ``givens``), random digit order and cell tie-breaks. Same seed, same grid.

        Returns None when there is no solution or the budget ran out first.

        Raises:
            ValueError: when ``givens`` have another shape.
        """
        if givens is not None and givens.shape != rules.shape:
            raise ValueError(f"givens of {givens.shape.name} for rules of {rules.shape.name}")
        values = bytes(givens.values) if givens is not None else bytes(rules.shape.cell_count)
        search = self.model(rules).search(values, seed=seed)
        status, raw = search.run(1, **_budget_args(budget or DEFAULT_BUDGET))
        return _grid(rules.shape, raw[0]) if raw else None

    def search_excluding(
        self,
        puzzle: Puzzle,
        forbidden: Iterable[tuple[int, int]],
        *,
        limit: int = 1,
        budget: Budget | None = None,
    ) -> SearchOutcome:
        """Solutions of ``puzzle`` in which no cell holds a digit paired with it in
        ``forbidden`` (``(cell, digit)`` pairs), up to ``limit``.

        ``complete`` with no solutions means there is none (for instance: removing a clue
        keeps the puzzle unique, see :meth:`keeps_unique_without`).

        Raises:
            UnsupportedPuzzleError: for a rule or size this backend lacks.
        """
        self._require_supported(puzzle)
        m = self.model(puzzle.rules)
        return self._outcome(
            puzzle,
            m.solve(
                bytes(puzzle.givens.values),
                limit=limit,
                forbidden=list(forbidden),
                fast=self.fast,
                **_budget_args(budget or DEFAULT_BUDGET),
            ),
        )

    def keeps_unique_without(
        self, puzzle: Puzzle, cell: int, solution: Grid, *, budget: Budget | None = None
    ) -> bool | None:
        """Whether ``puzzle`` (unique, with ``solution``) stays unique after removing the
        clue at ``cell``: True when "remaining clues + (cell != its digit)" has no
        solution, False when it has one, None when the budget ran out.

        Raises:
            ValueError: when ``cell`` holds no clue.
        """
        digit = puzzle.givens.values[cell]
        if not digit:
            raise ValueError(f"cell {puzzle.shape.cell_name(cell)} holds no clue")
        reduced = puzzle.with_givens(puzzle.givens.without([cell]))
        outcome = self.search_excluding(reduced, [(cell, solution.values[cell])], budget=budget)
        if outcome.solutions:
            return False
        return True if outcome.complete else None

    def count_batch(
        self,
        rules: RuleSet,
        givens: bytes | Sequence[Grid] | Sequence[Puzzle],
        *,
        limit: int = 2,
        keep: int = 1,
        budget: Budget | None = None,
    ) -> BatchResult:
        """Count solutions of many puzzles of one rule set in one C call (GIL released,
        so threads run batches in parallel).

        ``givens`` is either bytes (``n*n`` values ``0..n`` per puzzle, back to back) or a
        sequence of grids / puzzles (whose rules are not checked: they must be ``rules``).
        The budget applies to each puzzle.

        Raises:
            ValueError: for a limit < 1, keep outside 0..64, or data of the wrong length.
        """
        if limit < 1:
            raise ValueError(f"limit must be a positive integer, got {limit!r}")
        if not isinstance(givens, (bytes, bytearray, memoryview)):
            givens = b"".join(
                bytes((g.givens if isinstance(g, Puzzle) else g).values) for g in givens
            )
        start = time.perf_counter()
        counts, statuses, solutions, nodes, guesses = self.model(rules).batch(
            givens, limit=limit, keep=keep, fast=self.fast, **_budget_args(budget or DEFAULT_BUDGET)
        )
        return BatchResult(
            rules.shape,
            limit,
            min(keep, limit),
            counts,
            statuses,
            solutions,
            nodes,
            guesses,
            time.perf_counter() - start,
        )
