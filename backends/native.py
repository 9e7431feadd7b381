"""The ``native`` backend: the compiled C backtracker of :mod:`native_backtrack`.

Rules arrive as data: every all-different unit of the :class:`~sudoku_model.RuleSet`, its
extra "different" pairs and its relation, domain, sum, sandwich and table rules (killer cages,
dots, thermometers, arrows...) are compiled once into a :class:`native_backtrack.Model`
(cached per rule set), then each puzzle is one C call. The classic 9x9 rules take a
fixed-size fast path.

Budgets: ``seconds`` (wall time, checked every 256 nodes) and ``nodes`` (search nodes);
without one, the base class passes :data:`~sudoku_model.solving.DEFAULT_BUDGET` (60 s).
:meth:`NativeBackend.interrupt` also raises the C core's process-wide stop flag, polled with
the clock: every native search in flight, in any thread, stops within milliseconds and
raises :class:`~sudoku_model.errors.SearchInterrupted`.
Stats: ``nodes`` (propagation rounds, one per guess plus the root) and ``guesses``
(branching points).

Fast paths of the contract's primitives (``capabilities.fast_paths``):

* :meth:`NativeBackend.check_unique_batch` - many puzzles of one rule set in one C call, GIL
  released (threads run batches in parallel); C statuses are decoded here, nowhere else.
* :meth:`NativeBackend.removal_oracle` - "still unique without these clues?" as one C search
  with forbidden (cell, digit) pairs; given a fallback oracle (the ``auto`` backend's
  routing policy gives one from 16x16 up), a short first try, then the fallback for the
  calls that need more.
* :meth:`NativeBackend.random_solution` - a random full grid from the C search seeded by
  the caller's ``random.Random``.
* :meth:`NativeBackend.restore_candidates` - the pencilmark generator's pass in one C call
  (one search per elimination, with the digit placed and the current candidates).

Native only: every search runs in C, whatever the size (the choice of another engine for
large grids is the ``auto`` backend's, :mod:`backends.auto`).

Extras: :meth:`NativeBackend.search_excluding` (solutions with some (cell, digit) pairs
excluded) and :meth:`NativeBackend.count_batch` (raw counts of a batch, a
:class:`BatchResult`).

>>> from sudoku_model import Puzzle
>>> backend = create()
>>> backend.count(Puzzle.parse("." * 16), limit=1000).count
288
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sudoku_model import native_backtrack as nb
from sudoku_model.errors import SearchInterrupted, UnsupportedPuzzleError
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.native_backtrack import (
    _bulk,  # plain 9x9 lines read and answered in bulk: columns
)
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RULE_KINDS, Domain, Relation, RuleSet, Sandwich, Sum, Table
from sudoku_model.solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    BulkColumns,
    Capabilities,
    RemovalOracle,
    RemovalPass,
    RemovalShortcut,
    SearchOutcome,
    UniqueBatch,
    VerdictKind,
    verdict_of_count,
)

from .threads import SLICE_SECONDS, in_main_thread, wait_in_slices

__all__ = [
    "NativeBackend",
    "BatchResult",
    "NativeRemovalOracle",
    "create",
    "FallbackOracle",
    "STREAM_CHUNK",
    "MAX_KEPT",
]

#: Solutions fetched from C per step when streaming ``solutions(limit=None)``.
STREAM_CHUNK = 1024

#: Most grids a count keeps (it counts further without holding them: a count up to 10^8
#: returns the exact number and the first MAX_KEPT solutions).
MAX_KEPT = 10_000

_MODEL_CACHE_SIZE = 64

#: A fallback for :class:`NativeRemovalOracle`: ``fallback(rules, solution, budget)`` makes
#: the oracle (of another engine) that answers the calls a short C try does not settle,
#: or None when there is none for these rules (then C goes on under the whole budget). It
#: is called at most once per native oracle, at its first such call. The routing policy
#: that composes native with another engine passes it (:mod:`backends.auto`); native
#: never looks an engine up itself.
FallbackOracle = Callable[[RuleSet, Grid, Budget], RemovalOracle | None]

#: (C status, count) -> verdict, from the one rule of :func:`verdict_of_count` (a batch of
#: uniqueness checks counts up to 2).
_BATCH_KINDS: dict[tuple[int, int], VerdictKind] = {
    (status, count): verdict_of_count(
        count,
        status in (nb.EXHAUSTED, nb.CONTRADICTORY),
        contradictory=status == nb.CONTRADICTORY,
    )
    for status in (nb.EXHAUSTED, nb.LIMIT, nb.BUDGET, nb.CONTRADICTORY)
    for count in (0, 1, 2)
}


def _off_main_thread(call: Callable[[], Any]) -> Any:
    """``call()`` in a helper thread while the main thread waits in short timed waits, so
    that signal handlers run during a long C call. A handler that raises (Ctrl-C) stops the
    C call through the stop flag before the exception goes on."""
    return wait_in_slices(call, name="native-search", stop=_stop_c_search)


def _stop_c_search() -> Callable[[], None] | None:
    if nb.interrupted():  # the handler called interrupt(): the search ends by itself
        return None
    nb.interrupt()  # raised by a handler that did not call interrupt()
    return nb.clear_interrupt


def create(sub: str | None = None, **options: Any) -> NativeBackend:
    """The factory registered under the entry point ``native``.

    Options: ``fast`` (default True) lets classic 9x9 puzzles take the fixed-size path;
    False forces the generic path (for cross-checks).

    Raises:
        ValueError: for a sub-solver name (native has none) or an unknown option.
    """
    return NativeBackend(fast=fast_option("native", sub, options))


def fast_option(name: str, sub: str | None, options: dict[str, Any]) -> bool:
    """The ``fast`` option of a factory whose backend takes no sub-solver and no other
    option (``native``, and ``auto``, whose native engine it configures).

    Raises:
        ValueError: for a sub-solver name or an unknown option.
    """
    if sub:
        raise ValueError(f"the {name} backend has no sub-solver; got {sub!r}")
    unknown = set(options) - {"fast"}
    if unknown:
        raise ValueError(f"unknown option(s) for the {name} backend: {', '.join(sorted(unknown))}")
    return bool(options.get("fast", True))


def _compile(rules: RuleSet) -> nb.Model:
    """The C model of a rule set: its units and pairs, and each relation, domain, sum,
    sandwich and table rule as the C core's tables (see :class:`native_backtrack.Model`).

    Raises:
        UnsupportedPuzzleError: for a rule the C core cannot hold (a sum weight beyond
            2**30).
    """
    relations: list[tuple[Any, Any]] = []
    domains: list[tuple[int, Any]] = []
    sums: list[tuple[Any, Any, int, bool]] = []
    sandwiches: list[tuple[Any, int]] = []
    tables: list[tuple[Any, Any]] = []
    for rule in rules.constraint_rules:
        if isinstance(rule, Relation):
            relations.append((rule.pairs, rule.allowed))
        elif isinstance(rule, Domain):
            domains.extend(rule.cells)
        elif isinstance(rule, Sum):
            sums.extend((g.cells, g.weights, g.total, g.distinct) for g in rule.groups)
        elif isinstance(rule, Sandwich):
            sandwiches.extend(rule.lines)
        elif isinstance(rule, Table):
            tables.append((rule.scopes, sorted(rule.allowed)))
        else:  # a kind added to the model without a native encoding: never ignore it
            raise UnsupportedPuzzleError(f"backend native: rule kind {rule.kind!r} has no encoding")
    sums.extend(_implied_sums(rules, sums))
    try:
        return nb.Model(
            rules.shape.size,
            rules.units,
            rules.pairs,
            relations=relations,
            domains=domains or None,
            sums=sums,
            sandwiches=sandwiches,
            tables=tables,
        )
    except ValueError as exc:
        raise UnsupportedPuzzleError(f"backend native: {exc}") from None


def _implied_sums(
    rules: RuleSet, sums: list[tuple[Any, Any, int, bool]]
) -> list[tuple[tuple[int, ...], tuple[int, ...], int, bool]]:
    """Sums the killer cages imply (the 45 rule), added to the C model as redundant
    groups: a unit of n cells holds 1..n, so its cells outside the cages wholly inside it
    (innies) sum to n(n+1)/2 minus those cages' totals and hold distinct digits; and when
    cages cover the unit, the cells of its overhanging cages outside it (outies) sum to
    their totals minus the innies' sum. Each follows from the rules, so the solutions are
    the same; the search gets the bounds a human solver starts with (on generated 9x9
    killers near the edge of uniqueness, several times fewer nodes)."""
    n = rules.shape.size
    cages = [
        (frozenset(cells), total)
        for cells, weights, total, distinct in sums
        if distinct and all(w == 1 for w in weights)
    ]
    if not cages or sum(map(len, (c for c, _ in cages))) != len(
        frozenset().union(*(c for c, _ in cages))
    ):
        return []  # no cages, or cages of two rules that overlap: the 45 rule needs a partition
    peers = rules.peers
    whole = n * (n + 1) // 2
    out: list[tuple[tuple[int, ...], tuple[int, ...], int, bool]] = []
    seen = {cells for cells, _ in cages}
    for unit in rules.full_units:
        members = frozenset(unit)
        inside = [(cells, t) for cells, t in cages if cells <= members]
        over = [(cells, t) for cells, t in cages if cells & members and not cells <= members]
        covered = frozenset().union(*(cells for cells, _ in inside))
        innies = tuple(c for c in unit if c not in covered)
        inner = whole - sum(t for _, t in inside)
        if innies and len(innies) < n and frozenset(innies) not in seen:
            seen.add(frozenset(innies))
            out.append((innies, (1,) * len(innies), inner, True))
        if over and frozenset(innies) <= frozenset().union(*(cells for cells, _ in over)):
            outies = tuple(sorted(c for cells, _ in over for c in cells if c not in members))
            if outies and frozenset(outies) not in seen:
                seen.add(frozenset(outies))
                distinct = all(b in peers[a] for i, a in enumerate(outies) for b in outies[i + 1 :])
                total = sum(t for _, t in over) - inner
                out.append((outies, (1,) * len(outies), total, distinct))
    return out


def _budget_args(budget: Budget) -> dict[str, Any]:
    return {
        "nodes": -1 if budget.nodes is None else int(budget.nodes),
        "seconds": -1.0 if budget.seconds is None else float(budget.seconds),
    }


def _grid(shape: Shape, raw: bytes) -> Grid:
    # untracked by the garbage collector (only ints inside): a count's 10,000 grids no
    # longer make it run over them while the answer is built (see nb.grid_values)
    return Grid._trusted(shape, nb.grid_values(raw))


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
        if status == nb.INVALID:
            return VerdictKind.MALFORMED
        return verdict_of_count(
            count,
            status in (nb.EXHAUSTED, nb.CONTRADICTORY),
            contradictory=status == nb.CONTRADICTORY,
        )


#: The C statuses of _bulk.solve_lines as the contract's (sudoku_model.solving.PLAIN_KINDS).
_BULK_STATUSES = bytes.maketrans(
    bytes(
        [
            _bulk.UNIQUE,
            _bulk.MULTIPLE,
            _bulk.MULTIPLE_BARE,
            _bulk.UNSOLVABLE,
            _bulk.UNKNOWN,
            _bulk.CONTRADICTORY,
            _bulk.OTHER,
        ]
    ),
    bytes(range(7)),
)


class NativeBackend(Backend):
    """Backend over the compiled backtracker (see the module docstring)."""

    name = "native"
    capabilities = Capabilities(
        frozenset(RULE_KINDS),
        min_size=4,
        max_size=nb.MAX_SIZE,
        budgets=("seconds", "nodes"),
        notes="C backtracker: naked + hidden singles, fewest-candidates branching; "
        "relations to arc consistency, sums through digit sets or bounds, sandwiches by "
        "bounds once their 1 and n are placed, tables to generalised arc consistency; "
        "classic 9x9 fast path; default budget 60 s",
        fast_paths=frozenset(
            {"check_unique_batch", "removal_oracle", "random_solution", "restore_candidates"}
        ),
        releases_gil=True,
        bulk_verify=True,
    )

    def __init__(self, *, fast: bool = True) -> None:
        self.fast = fast
        self._models: OrderedDict[RuleSet, nb.Model] = OrderedDict()
        self._lock = threading.Lock()
        #: The rules and grid of the last random_solution (see removal_oracle).
        self._last_random: tuple[RuleSet, Grid] | None = None

    def version(self) -> str:
        # The C core is built with the package, so its version is the package's; read from
        # the module, not from the installed metadata, whose lookup costs tens of ms at start.
        from sudoku_model import __version__

        return __version__

    # -- interruption ------------------------------------------------------------------
    def interrupt(self) -> None:
        """Stop every search in flight now (see the base class), native searches of *every*
        instance in this process included: the C core's stop flag is process-wide (a signal
        is too). Only sets flags: safe in a signal handler."""
        super().interrupt()
        nb.interrupt()

    def clear_interrupt(self) -> None:
        """Let searches run again (this instance's flag and the C core's)."""
        super().clear_interrupt()
        nb.clear_interrupt()

    def close(self) -> None:
        """Drop the compiled models (built again when next needed)."""
        with self._lock:
            self._models.clear()

    def _interrupted_error(self) -> SearchInterrupted:
        return SearchInterrupted(f"backend {self.name}: search interrupted")

    # -- models ------------------------------------------------------------------------
    def model(self, rules: RuleSet) -> nb.Model:
        """The compiled model of a rule set (built once, cached; safe across threads)."""
        with self._lock:
            m = self._models.get(rules)
            if m is not None:
                self._models.move_to_end(rules)
                return m
        m = _compile(rules)
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
        if status == nb.INTERRUPTED:
            raise self._interrupted_error()
        shape = puzzle.shape
        return SearchOutcome(
            [_grid(shape, s) for s in raw],
            complete=status in (nb.EXHAUSTED, nb.CONTRADICTORY),
            stats={"nodes": nodes, "guesses": guesses},
            stopped_by_budget=status == nb.BUDGET,
            count=count,
        )

    def _solve(self, m: nb.Model, budget: Budget, **options: Any) -> Any:
        """``m.solve(**options)`` under the budget, responsive to signals in the main thread.

        A C search holds the main thread until it ends, and Python runs signal handlers only
        between bytecodes of the main thread: a search there first runs for SLICE_SECONDS;
        one that needs more runs again from the start in a helper thread while the main
        thread waits in short timed waits (the first slice is lost: at most SLICE_SECONDS
        of a search that takes longer). A handler that raises (Ctrl-C) stops the helper's
        search through the stop flag before the exception goes on.
        """
        args = _budget_args(budget)
        seconds = budget.seconds
        if not in_main_thread() or (seconds is not None and seconds <= SLICE_SECONDS):
            return m.solve(**options, **args)
        start = time.perf_counter()
        first = m.solve(**options, nodes=args["nodes"], seconds=SLICE_SECONDS)
        if first[1] != nb.BUDGET or (budget.nodes is not None and first[3] >= budget.nodes):
            return first
        if seconds is not None:
            args["seconds"] = max(0.0, seconds - (time.perf_counter() - start))
        return _off_main_thread(lambda: m.solve(**options, **args))

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        m = self.model(puzzle.rules)
        return self._outcome(
            puzzle,
            self._solve(
                m,
                budget,
                givens=bytes(puzzle.givens.values),
                limit=limit,
                keep=min(limit, MAX_KEPT),
                fast=self.fast,
            ),
        )

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        # One search that skips the known solution: no second copy of it is counted.
        m = self.model(puzzle.rules)
        return self._outcome(
            puzzle,
            self._solve(
                m,
                budget,
                givens=bytes(puzzle.givens.values),
                limit=1,
                avoid=bytes(solution.values),
                fast=self.fast,
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
        main = in_main_thread()  # slices there, so that signal handlers run (see _solve)
        while limit is None or produced < limit:
            want = STREAM_CHUNK if limit is None else min(STREAM_CHUNK, limit - produced)
            args = _budget_args(budget)
            if budget.seconds is not None:
                args["seconds"] = max(0.0, budget.seconds - spent_seconds)
            if main:
                args["seconds"] = (
                    SLICE_SECONDS if args["seconds"] < 0 else min(SLICE_SECONDS, args["seconds"])
                )
            if budget.nodes is not None:
                args["nodes"] = max(0, budget.nodes - search.nodes)
            self._check_interrupt()
            start = time.perf_counter()
            status, raw = search.run(want, **args)
            spent_seconds += time.perf_counter() - start
            if status == nb.INTERRUPTED:
                raise self._interrupted_error()
            for s in raw:
                yield _grid(shape, s)
            produced += len(raw)
            if status in (nb.EXHAUSTED, nb.CONTRADICTORY):
                state["complete"] = True
                return
            if status == nb.BUDGET:
                nodes_spent = budget.nodes is not None and search.nodes >= budget.nodes
                seconds_spent = budget.seconds is not None and spent_seconds >= budget.seconds
                if nodes_spent or seconds_spent or not main:
                    return
                # the end of a slice: go on

    # -- fast paths of the contract's primitives ---------------------------------------
    def random_solution(
        self,
        rules: RuleSet,
        rng: random.Random,
        *,
        start: Grid | None = None,
        budget: Budget | None = None,
    ) -> Grid | None:
        """A random full grid of ``rules`` (or completion of ``start``): the C search with
        random digit order and cell tie-breaks, seeded by one draw from ``rng``.

        Returns None when there is no solution or the budget ran out first.

        Raises:
            ValueError: when ``start`` has another shape.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
        """
        if start is not None and start.shape != rules.shape:
            raise ValueError(f"start of {start.shape.name} for rules of {rules.shape.name}")
        self._require_rules(rules)
        values = bytes(start.values) if start is not None else bytes(rules.shape.cell_count)
        self._check_interrupt()
        search = self.model(rules).search(values, seed=rng.getrandbits(63))
        status, raw = search.run(1, **_budget_args(budget or DEFAULT_BUDGET))
        if status == nb.INTERRUPTED:
            raise self._interrupted_error()
        self._check_interrupt()
        if not raw:
            return None
        grid = _grid(rules.shape, raw[0])
        self._last_random = (rules, grid)  # a solution: removal_oracle need not check it
        return grid

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
        """The contract's pass (see the base class), in one C call
        (``Model.restore_candidates``): one search per pair with the digit placed and the
        current masks as the domain, on the classic 9x9 fast path when the rules are
        classic 9x9.

        Raises:
            ValueError: for a mask without the solution's digit or a pair naming it.
            UnsupportedPuzzleError: for rules this backend lacks.
        """
        self._require_rules(rules)
        self._check_interrupt()
        out, answers, status, _nodes, _guesses = self.model(rules).restore_candidates(
            list(masks),
            bytes(solution.values),
            [(int(c), int(d)) for c, d in order],
            target=-1 if target is None else target,
            fast=self.fast,
            **_budget_args(budget or DEFAULT_BUDGET),
        )
        if status == nb.INTERRUPTED:
            raise self._interrupted_error()
        return tuple(out), answers

    def removal_oracle(
        self,
        rules: RuleSet,
        solution: Grid,
        *,
        budget: Budget | None = None,
        fallback: FallbackOracle | None = None,
    ) -> NativeRemovalOracle:
        """See :class:`NativeRemovalOracle`; ``fallback`` (None: C answers every call)
        is the oracle maker a routing policy composes native with.

        Raises:
            ValueError: when ``solution`` is not a full grid of ``rules``.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
        """
        self._require_rules(rules)
        # The generator's grids come from random_solution just before: checking them again
        # in C costs ~5 us of a 200 us minimal 9x9 puzzle (one attribute read per call, so
        # threads sharing the backend at worst check again).
        last = self._last_random
        made_here = last is not None and last[1] is solution and last[0] is rules
        if not made_here and not self._is_full_grid(rules, solution):
            raise ValueError(f"the solution must be a full grid of the rules ({rules.shape.name})")
        return NativeRemovalOracle(self, rules, solution, budget or DEFAULT_BUDGET, fallback)

    def _is_full_grid(self, rules: RuleSet, grid: Grid) -> bool:
        # In C: a complete grid that does not clash is a solution (Python's is_solution
        # costs ~100 us at 9x9, a fifth of a whole generated puzzle).
        if grid.shape != rules.shape or 0 in grid.values:
            return False
        count, status, *_ = self.model(rules).solve(bytes(grid.values), limit=1, keep=0)
        if status == nb.INTERRUPTED:
            raise self._interrupted_error()
        return count == 1 and status != nb.CONTRADICTORY

    def check_unique_batch(
        self,
        rules: RuleSet,
        givens: bytes | Sequence[bytes],
        *,
        budget: Budget | None = None,
    ) -> UniqueBatch:
        """One C call counting up to two solutions per puzzle (GIL released), then one
        more for the ``multiple`` ones keeping two witnesses. See
        :meth:`~sudoku_model.solving.Backend.check_unique_batch`.

        Raises:
            ValueError: for data of the wrong length or a value outside 0..n.
            UnsupportedPuzzleError: for rules or a size this backend lacks.
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._require_rules(rules)
        data = givens if isinstance(givens, (bytes, bytearray)) else b"".join(givens)
        nc = rules.shape.cell_count
        if len(data) % nc:
            raise ValueError(f"{len(data)} bytes is not a whole number of {nc}-cell grids")
        budget = budget or DEFAULT_BUDGET
        self._check_interrupt()
        first = self.count_batch(rules, data, limit=2, keep=1, budget=budget)
        statuses = first.statuses
        if nb.INVALID in statuses:
            raise ValueError(f"a value outside 0..{rules.shape.size} in the givens")
        kinds = list(map(_BATCH_KINDS.__getitem__, zip(statuses, first.counts)))
        seconds = first.seconds
        witnesses: dict[int, tuple[bytes, bytes]] = {}
        nodes, guesses = first.nodes, first.guesses
        multiple = [j for j, c in enumerate(first.counts) if c >= 2]
        if multiple:
            self._check_interrupt()
            again = self.count_batch(
                rules,
                b"".join(data[j * nc : (j + 1) * nc] for j in multiple),
                limit=2,
                keep=2,
                budget=budget,
            )
            seconds += again.seconds
            nodes += again.nodes
            guesses += again.guesses
            raw = again.solutions
            for k, j in enumerate(multiple):
                if again.counts[k] >= 2:
                    base = 2 * k * nc
                    witnesses[j] = (raw[base : base + nc], raw[base + nc : base + 2 * nc])
        self._check_interrupt()
        return UniqueBatch(
            rules,
            kinds,
            first.solutions,
            witnesses,
            self.name,
            seconds,
            {"nodes": nodes, "guesses": guesses},
        )

    # -- bulk verification of plain lines ---------------------------------------------
    def verify_plain_lines(
        self, text: str, count: int, *, budget: Budget | None = None
    ) -> BulkColumns | None:
        """One C call reads the plain classic 9x9 lines of ``text`` and answers them as
        :meth:`check_unique_batch` would (the same C entry point; GIL released; off the
        main thread so that signal handlers run), see
        :meth:`~sudoku_model.solving.Backend.verify_plain_lines`. None with ``fast=False``
        (the generic path answers, with its own counters).

        Raises:
            SearchInterrupted: after :meth:`interrupt`.
        """
        if not self.fast:
            return None
        args = _budget_args(budget or DEFAULT_BUDGET)
        # undecodable characters make a line not plain either way; replacing them keeps
        # the line count
        data = text.encode("utf-8", "replace")
        self._check_interrupt()

        def call() -> Any:
            return _bulk.solve_lines(data, count, **args)

        answer = _off_main_thread(call) if in_main_thread() and count else call()
        self._check_interrupt()
        status, codes, givens, solutions, witnesses, clues, size, nodes, guesses, seconds, ok = (
            answer
        )
        if status == _bulk.INTERRUPTED:
            raise self._interrupted_error()
        if status:
            return None
        return BulkColumns(
            codes.translate(_BULK_STATUSES),
            givens,
            clues,
            solutions,
            witnesses,
            size,
            seconds,
            {"nodes": nodes, "guesses": guesses},
            ok,
        )

    # -- extras ------------------------------------------------------------------------
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
        keeps the puzzle unique, see :meth:`removal_oracle`).

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
        model = self.model(rules)
        args = _budget_args(budget or DEFAULT_BUDGET)
        self._check_interrupt()

        def call() -> Any:
            return model.batch(givens, limit=limit, keep=keep, fast=self.fast, **args)

        # In the main thread a batch runs in a helper thread, so that a signal handler can
        # stop it (through interrupt()) instead of waiting for the whole batch.
        counts, statuses, solutions, nodes, guesses = (
            _off_main_thread(call) if in_main_thread() else call()
        )
        if nb.INTERRUPTED in statuses:
            raise self._interrupted_error()
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


class NativeRemovalOracle(RemovalOracle):
    """The native fast path of :meth:`~sudoku_model.solving.Backend.removal_oracle`.

    One call is one C search: "the givens + (a removed cell != its digit in S)" has no
    solution exactly when the puzzle stays unique (a forbidden pair; a group of more than
    :attr:`GROUP_LIMIT` cells is one search that avoids S). The known digits are tried
    first at each branch, because another solution usually agrees with S almost
    everywhere.

    With a ``fallback`` (a :data:`FallbackOracle`, given by the caller's routing policy:
    the ``auto`` backend gives one from 16x16 up) a call first gets
    :attr:`FIRST_TRY_NODES` search nodes; one that needs more (a uniqueness proof deep in
    a near-minimal grid, where a backtracker without learning can take minutes) goes to
    the fallback oracle (a SAT solver whose learnt clauses prove it in a fraction of a
    second), under the same budget. Both answer the same yes/no question, so the answer
    does not depend on which one gave it. ``stats["fallback_calls"]`` counts the calls
    the fallback answered. Without one, every call is one C search under the budget.
    """

    cheap_calls: ClassVar[bool] = True
    bulk_removal: ClassVar[bool] = True
    #: Above this many removed cells, one "another solution?" search beats one per cell.
    GROUP_LIMIT = 6
    #: Native search nodes per call (with a fallback) before the fallback answers. On the 300
    #: calls after the first fallback of a 25x25 puzzle, 500 nodes answered 66 (7 ms each on
    #: a miss) and 2,000 answered 80 (28 ms on a miss), while a fallback call costs ~0.2 s:
    #: 500 is the cheaper first try.
    FIRST_TRY_NODES = 500
    #: Sizes whose first try gets another number of nodes. At 16x16 a C search of 20,000
    #: nodes (a few ms) settles nearly every call that 500 left to the fallback (9 calls
    #: per puzzle, ~60 ms of SAT session set-up): generation median 145 -> ~80 ms CPU.
    FIRST_TRY_NODES_BY_SIZE: ClassVar[dict[int, int]] = {16: 20_000}

    def __init__(
        self,
        backend: NativeBackend,
        rules: RuleSet,
        solution: Grid,
        budget: Budget,
        fallback: FallbackOracle | None = None,
    ) -> None:
        super().__init__(rules, solution, budget)
        self._backend = backend
        self._model = backend.model(rules)
        self._known = bytes(solution.values)
        self._limits = _budget_args(budget)
        nodes = self._limits["nodes"]
        first = self.FIRST_TRY_NODES_BY_SIZE.get(rules.shape.size, self.FIRST_TRY_NODES)
        self._first_limits = (
            dict(self._limits, nodes=first if nodes < 0 else min(nodes, first))
            if fallback is not None
            else None
        )
        self._make_fallback = fallback
        self._fallback: RemovalOracle | None = None
        self._fallback_loaded = False
        # Clues shown necessary for this grid: the fallback keeps them as fixed clauses.
        self._necessary: set[int] = set()

    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        self._check(givens)
        backend = self._backend
        backend._check_interrupt()
        if self._first_limits is None:
            return self._search(givens, removed, self._limits)
        answer = self._search(givens, removed, self._first_limits)
        if answer is None and self._first_limits != self._limits:
            answer = self._after_first_try(givens, removed)
        if answer is False and len(removed) == 1:
            self._necessary.add(removed[0])  # a necessary clue stays a given of this grid
        backend._check_interrupt()
        return answer

    def _after_first_try(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        """The answer for a call whose short first try ran out: the fallback's, or the
        native search's under the whole budget when there is no fallback."""
        fallback = self._fallback_oracle()
        if fallback is None:
            return self._search(givens, removed, self._limits)
        self.stats["fallback_calls"] = self.stats.get("fallback_calls", 0) + 1
        fallback.note_necessary(self._necessary)
        return fallback.still_unique(givens, removed)

    # -- the removal pass in C ------------------------------------------
    def remove_groups(
        self,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None = None,
        shortcut: RemovalShortcut | None = None,
    ) -> RemovalPass:
        """The whole removal pass in one C call (``Model.remove_clues``, GIL released),
        answering like the default loop of
        :meth:`~sudoku_model.solving.RemovalOracle.remove_groups` (``shortcut`` is not
        needed: the C pass tests naked and hidden singles itself). From 16x16 up the pass
        stops at a group whose short first try runs out; that group is asked as
        :meth:`still_unique` would (the SAT fallback), and the pass resumes after it.

        Raises:
            ValueError: for givens of the wrong length or that differ from the solution,
                or groups that overlap or name a cell outside the grid.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        values, answers = self._run_pass(givens, groups, target=target, probe=False)
        return RemovalPass(values, tuple(map(_ANSWERS.__getitem__, answers)))

    def all_necessary(self, givens: Sequence[int], groups: Iterable[Sequence[int]]) -> bool | None:
        """:meth:`~sudoku_model.solving.RemovalOracle.all_necessary` in one C call.

        Raises:
            ValueError: as :meth:`remove_groups`.
            SearchInterrupted: after the backend's ``interrupt()``.
        """
        _, answers = self._run_pass(givens, list(groups), target=None, probe=True)
        if 1 in answers:
            return False
        return None if 2 in answers else True

    def _run_pass(
        self,
        givens: Sequence[int],
        groups: Sequence[Sequence[int]],
        *,
        target: int | None,
        probe: bool,
    ) -> tuple[bytes, bytes]:
        backend = self._backend
        backend._check_interrupt()
        first = self._first_limits
        staged = first is not None and first != self._limits
        limits = first if first is not None else self._limits
        values = givens if isinstance(givens, bytes) else bytes(givens)
        answers = b""
        start = 0
        while True:
            values, more, stopped, status, _, _ = self._model.remove_clues(
                values,
                self._known,
                groups,
                start=start,
                target=-1 if target is None else target,
                probe=probe,
                stop_on_budget=staged,
                fast=backend.fast,
                **limits,
            )
            if status == nb.INTERRUPTED:
                raise backend._interrupted_error()
            answers += more
            if staged and not probe:  # the fallback keeps necessary clues as fixed clauses
                self._necessary.update(
                    groups[start + k][0]
                    for k, a in enumerate(more)
                    if a == 0 and len(groups[start + k]) == 1
                )
            if stopped < 0:
                break
            # A call the first try did not settle: ask it as still_unique would.
            group = groups[stopped]
            trial = bytearray(values)
            for c in group:
                trial[c] = 0
            answer = self._after_first_try(trial, group)
            backend._check_interrupt()
            if answer is False and len(group) == 1:
                self._necessary.add(group[0])
            answers += bytes((_CODES[answer],))
            if answer is True and not probe:
                values = bytes(trial)
            start = stopped + 1
            if probe and answer is True:
                break
        backend._check_interrupt()
        return values, answers

    def _fallback_oracle(self) -> RemovalOracle | None:
        if not self._fallback_loaded:
            self._fallback_loaded = True
            make = self._make_fallback
            self._fallback = None if make is None else make(self.rules, self.solution, self.budget)
        return self._fallback

    def _search(
        self, givens: Sequence[int], removed: Sequence[int], limits: dict[str, Any]
    ) -> bool | None:
        model = self._model
        known = self._known
        if len(removed) > self.GROUP_LIMIT:
            count, status, *_ = model.solve(
                bytes(givens), limit=1, keep=0, avoid=known, prefer=known, **limits
            )
            if count:
                return False
            if status == nb.INTERRUPTED:
                raise self._backend._interrupted_error()
            return None if status == nb.BUDGET else True
        values = bytearray(givens)
        sol = self.solution.values
        for cell in removed:
            count, status, *_ = model.solve(
                values, limit=1, keep=0, prefer=known, forbidden=((cell, sol[cell]),), **limits
            )
            if count:
                return False
            if status == nb.INTERRUPTED:
                raise self._backend._interrupted_error()
            if status == nb.BUDGET:
                return None
            values[cell] = sol[cell]  # other solutions differing here are ruled out
        return True

    def close(self) -> None:
        if self._fallback is not None:
            self._fallback.close()
            self._fallback = None


#: The C pass's answer bytes as the contract's answers, and back.
_ANSWERS: dict[int, bool | None] = {0: False, 1: True, 2: None}
_CODES: dict[bool | None, int] = {False: 0, True: 1, None: 2}
