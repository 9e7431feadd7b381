"""The generation engine: the two questions a generator asks a backend (a random full
grid, "still unique?") through the contract's primitives, and the deadline of one puzzle
that every search of it respects.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from ..deadline import Watchdog
from ..errors import SearchInterrupted
from ..grid import Grid
from ..rules import RuleSet
from ..solving import DEFAULT_BUDGET, Backend, Budget, RemovalOracle, RemovalPass
from .shortcuts import _removal_shortcut

#: Groups per call of the removal pass under a deadline from 16x16 up
#: (:meth:`GenerationEngine.remove_groups`): what a deadline can cut at once. A smaller
#: grid's pass (a millisecond) is one call.
DEADLINE_SLICE = 16


class GenerationEngine:
    """What the generator asks a backend, through two primitives of the backend contract
    (:mod:`sudoku_model.solving`), so any backend generates and the fast paths (native's C
    search with its SAT fallback, PySAT's assumptions) are the backends' own overrides:

    * :meth:`random_full_grid` - :meth:`~sudoku_model.solving.Backend.random_solution`;
    * :meth:`still_unique` - the :meth:`~sudoku_model.solving.Backend.removal_oracle` of the
      current full grid (one oracle per grid, closed when the grid changes).

    ``stats`` adds up what the oracles counted (native: ``fallback_calls``, the calls its
    SAT fallback answered).

    Within :meth:`deadline` (a puzzle of a spec with ``max_seconds``) every search gets at
    most the time left, a :class:`~sudoku_model.deadline.Watchdog` interrupts the backend
    when the deadline passes, and from then on the questions above answer "not known"
    (None) without asking the backend: :attr:`expired` says so.
    """

    def __init__(
        self, backend: Backend, budget: Budget | None = None, *, bulk_removal: bool = True
    ) -> None:
        self.backend = backend
        self.name = backend.engine_name()  # records name the engine (auto: native)
        self.budget = DEFAULT_BUDGET if budget is None else budget
        #: False: every removal pass runs as the Python loop of the contract's default
        #: (:meth:`RemovalOracle.remove_groups`), even where the oracle has a bulk pass of
        #: its own (native: C); the output is the same (a test compares), only slower.
        self.bulk_removal = bulk_removal
        self.stats: Counter[str] = Counter()
        self._oracle: RemovalOracle | None = None
        self._deadline: float | None = None  # time.perf_counter() value, within deadline()
        self._watchdog: Watchdog | None = None

    # -- the deadline of one puzzle -------------------------------------------------------
    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Within this context the engine's searches end ``seconds`` from now at the
        latest (see the class notes); None or infinity: no deadline. Nested uses keep the
        outer deadline. On exit after the deadline passed, the current oracle is closed
        and the backend's interrupt cleared, so the next puzzle starts clean."""
        if seconds is None or math.isinf(seconds) or self._deadline is not None:
            yield
            return
        watchdog = self._watchdog
        if watchdog is None:
            watchdog = self._watchdog = Watchdog(self.backend.interrupt)
        self._deadline = time.perf_counter() + seconds
        watchdog.arm(seconds)
        try:
            yield
        finally:
            self._deadline = None
            if watchdog.disarm():
                self.close()
                self.backend.clear_interrupt()

    @contextmanager
    def node_cap(self, nodes: int) -> Iterator[None]:
        """Within this context every search, the removal oracles' included, stops after
        ``nodes`` search nodes (or SAT conflicts) at most, on top of :attr:`budget`; a
        removal test cut so keeps its clue (the puzzle stays unique, its minimality is
        unknown). The oracle is closed on entry and on exit, so none outlives its cap."""
        saved = self.budget
        self.close()
        self.budget = replace(
            saved,
            nodes=min(saved.nodes or nodes, nodes),
            conflicts=min(saved.conflicts or nodes, nodes),
        )
        try:
            yield
        finally:
            self.budget = saved
            self.close()

    @property
    def expired(self) -> bool:
        """True within :meth:`deadline` once the deadline has passed."""
        at = self._deadline
        return at is not None and time.perf_counter() >= at

    def time_left(self) -> float | None:
        """Seconds left before the deadline (None outside :meth:`deadline`)."""
        at = self._deadline
        return None if at is None else max(0.0, at - time.perf_counter())

    def budget_now(self) -> Budget:
        """The budget of the next search: :attr:`budget`, its seconds cut to the time
        left before the deadline."""
        at = self._deadline
        if at is None:
            return self.budget
        left = max(0.0, at - time.perf_counter())
        if self.budget.seconds is not None and self.budget.seconds <= left:
            return self.budget
        return replace(self.budget, seconds=left)

    def _cut(self, exc: SearchInterrupted) -> None:
        """Re-raise ``exc`` unless the deadline interrupted the search."""
        if not (self._watchdog is not None and self._watchdog.fired and self._deadline):
            raise exc

    @property
    def fallback_calls(self) -> int:
        """Uniqueness calls answered by a backend's fallback solver (native from 16x16)."""
        self._collect()
        return self.stats["fallback_calls"]

    def random_full_grid(
        self, rules: RuleSet, rng: random.Random, *, start: Grid | None = None
    ) -> Grid | None:
        """A random solution of ``rules`` extending ``start``, drawn from ``rng`` only
        (the same ``rng`` state gives the same grid), or None when none was found (or the
        deadline passed)."""
        if self._deadline is None:
            return self.backend.random_solution(rules, rng, start=start, budget=self.budget)
        if self.expired:
            return None
        try:
            return self.backend.random_solution(rules, rng, start=start, budget=self.budget_now())
        except SearchInterrupted as exc:
            self._cut(exc)
            return None

    def oracle(self, rules: RuleSet, solution: Grid) -> RemovalOracle:
        """The removal oracle of this full grid (made on first use, kept until the grid
        changes)."""
        oracle = self._oracle
        if oracle is not None and oracle.solution is solution and oracle.rules is rules:
            return oracle  # the common case, without comparing grids
        if oracle is None or oracle.solution != solution or oracle.rules != rules:
            self.close()
            oracle = self._oracle = self.backend.removal_oracle(
                rules, solution, budget=self.budget_now()
            )
        return oracle

    def still_unique(
        self, rules: RuleSet, givens: Sequence[int], removed: Sequence[int], solution: Grid
    ) -> bool | None:
        """Whether ``givens`` (``solution`` minus some clues) is still unique, knowing the
        puzzle was unique before the ``removed`` cells were emptied: no other solution may
        differ from ``solution`` in a removed cell. None when a budget ran out."""
        if self._deadline is None:
            return self.oracle(rules, solution).still_unique(givens, removed)
        if self.expired:
            return None
        try:
            return self.oracle(rules, solution).still_unique(givens, removed)
        except SearchInterrupted as exc:
            self._cut(exc)
            return None

    def remove_groups(
        self,
        rules: RuleSet,
        solution: Grid,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None = None,
    ) -> RemovalPass:
        """The removal pass over ``solution`` (:meth:`RemovalOracle.remove_groups`): the
        oracle's own bulk pass (native: one C call), or the contract's Python loop with
        the logic shortcuts of :mod:`.shortcuts` when it has none or :attr:`bulk_removal` is off.

        Within a :meth:`deadline` the pass of a 16x16 or larger grid runs in slices of
        :data:`DEADLINE_SLICE` groups (the same answers: each is a fact about the
        puzzle), so that a deadline keeps what the slices before it removed; the groups
        it cut answer None."""
        oracle = self.oracle(rules, solution)
        bulk = self.bulk_removal and oracle.bulk_removal
        if self._deadline is None:  # the whole pass in one call
            if bulk:
                return oracle.remove_groups(givens, groups, target=target)
            return RemovalOracle.remove_groups(
                oracle,
                givens,
                groups,
                target=target,
                shortcut=_removal_shortcut(rules, solution, oracle),
            )
        shortcut = None if bulk else _removal_shortcut(rules, solution, oracle)

        def run(values: Sequence[int], part: Sequence[Sequence[int]]) -> RemovalPass:
            if bulk:
                return oracle.remove_groups(values, part, target=target)
            return RemovalOracle.remove_groups(
                oracle, values, part, target=target, shortcut=shortcut
            )

        values: Sequence[int] = givens
        answers: list[bool | None] = []
        step = DEADLINE_SLICE if rules.shape.size >= 16 else len(groups) or 1
        for start in range(0, len(groups), step):
            part = groups[start : start + step]
            done = None
            if not self.expired:
                try:
                    done = run(values, part)
                except SearchInterrupted as exc:
                    self._cut(exc)
            if done is None:  # the deadline passed: the groups left stay
                answers.extend([None] * (len(groups) - start))
                break
            values = done.givens
            answers.extend(done.answers)
            if len(done.answers) < len(part):  # the clue target was reached
                break
        return RemovalPass(bytes(values), tuple(answers))

    def all_necessary(
        self,
        rules: RuleSet,
        solution: Grid,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
    ) -> bool | None:
        """The minimality test over ``groups`` (:meth:`RemovalOracle.all_necessary`),
        in bulk where the oracle can; None once the deadline has passed."""
        if self._deadline is None:
            oracle = self.oracle(rules, solution)
            if self.bulk_removal and oracle.bulk_removal:
                return oracle.all_necessary(givens, groups)
            return RemovalOracle.all_necessary(oracle, givens, groups)
        if self.expired:
            return None
        try:
            oracle = self.oracle(rules, solution)
            if self.bulk_removal and oracle.bulk_removal:
                return oracle.all_necessary(givens, groups)
            return RemovalOracle.all_necessary(oracle, givens, groups)
        except SearchInterrupted as exc:
            self._cut(exc)
            return None

    def _collect(self) -> None:
        oracle = self._oracle
        if oracle is not None and oracle.stats:
            self.stats.update(oracle.stats)
            oracle.stats.clear()

    def close(self) -> None:
        """Close the current oracle (its counters go to ``stats``)."""
        if self._oracle is not None:
            self._collect()
            self._oracle.close()
            self._oracle = None


def engine_for(
    backend: Backend | str, *, budget: Budget | None = None, bulk_removal: bool = True
) -> GenerationEngine:
    """The generation engine of a backend (object or registered name); ``bulk_removal``
    as :class:`GenerationEngine`.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend name that cannot load.
    """
    if isinstance(backend, str):
        from ..solving import get_backend

        backend = get_backend(backend)
    return GenerationEngine(backend, budget, bulk_removal=bulk_removal)
