"""The backend contract: :class:`Capabilities` (what a backend declares, as data) and
:class:`Backend` (the base class: the four public questions built on one primitive, the
optional primitives with their generic defaults, interruption and :meth:`Backend.close`).
See the package docstring of :mod:`sudoku_model.solving`."""

from __future__ import annotations

import abc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import NotSupported, SearchInterrupted, UnsupportedPuzzleError
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from .bulk import BulkColumns
from .removal import RemovalOracle, _CheckUniqueOracle
from .results import (
    DEFAULT_BUDGET,
    STAT_KEYS,
    Budget,
    CountResult,
    SearchOutcome,
    SolutionIterator,
    SolveResult,
    SolveStatus,
    UniqueBatch,
    Verdict,
    VerdictKind,
    _verdict_from,
)

if TYPE_CHECKING:  # certification is imported when a backend is asked for it
    from .certificate import Certificate

# -- backend base --------------------------------------------------------------------------
#: The optional primitives of the backend contract: each has a generic default on
#: :class:`Backend` built on the four public methods; a backend that overrides one with a
#: faster path names it in :attr:`Capabilities.fast_paths`.
PRIMITIVES = ("check_unique_batch", "removal_oracle", "random_solution", "restore_candidates")


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as data (shown by ``sudoku backends``). Every optional path
    of the contract is declared here; workflows read these fields, never ``getattr`` on a
    backend and never a call with dummy arguments.

    ``fast_paths`` names the :data:`PRIMITIVES` the backend overrides with a path of its
    own (the others run the generic defaults). ``releases_gil``: its searches run in
    native code that releases the GIL, so the executor may run them in threads
    (:func:`sudoku_model.executor.choose_kind`). ``bulk_verify``: it implements
    :meth:`Backend.verify_plain_lines` (no generic default). ``certifies``: it implements
    :meth:`Backend.certificate` (then :meth:`Backend.certificate_refusal` answers None).
    ``sub_solvers``: the names it takes after a colon (``pysat:glucose4``), empty when
    none. ``routing``: for a composite backend, one line per rule of its routing table
    (which engine answers what), in words.

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
    #: :meth:`Backend.verify_plain_lines` is implemented (the bulk path of ``verify``).
    bulk_verify: bool = False
    #: :meth:`Backend.certificate` is implemented (proof-logging solver).
    certifies: bool = False
    #: Sub-solver names this backend takes after a colon.
    sub_solvers: tuple[str, ...] = ()
    #: A composite backend's routing table, one rule per line (empty for an engine).
    routing: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.fast_paths) - set(PRIMITIVES)
        if unknown:
            raise ValueError(
                f"unknown fast path(s) {sorted(unknown)}; the primitives are {PRIMITIVES}"
            )


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

    def engine_name(self) -> str:
        """The name that records carry where no answer names the engine that gave it (a
        malformed line, a refused puzzle, a generator's puzzles): this backend's own name;
        a composite backend names the engine that answers what it does not route (auto:
        ``native``). Answers (verdicts, counts, batches) always name their engine."""
        return self.name

    def answer_names(self) -> frozenset[str]:
        """The backend names that mark an output as this backend's: its own and
        :meth:`engine_name`. ``verify --resume`` refuses an output none of whose records
        carries one of them (a composite's routed engines are left out on purpose: an
        output that only they answered could as well be theirs, and resuming it is then
        the user's explicit choice, ``--resume-any-settings``)."""
        return frozenset({self.name, self.engine_name()})

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
        """The pencilmark generator's pass. ``masks`` (one per cell, bit d-1 = digit d)
        is a candidate puzzle of ``rules`` (see :mod:`sudoku_model.solving.candidates`)
        whose only solution is ``solution``; each eliminated (cell, digit) of ``order`` in
        turn is restored as a candidate when the puzzle stays unique with it (no solution
        puts the digit in the cell), and stays eliminated otherwise; the pass stops once
        at most ``target`` eliminations are left. ``budget`` applies to each search (one
        that spends it keeps its elimination). Returns the final masks and one answer byte
        per pair visited (``candidates.NECESSARY``, ``RESTORED`` or ``UNKNOWN``). The
        default is one primitive search per pair; fast path: native (the whole pass in C).

        Raises:
            ValueError: for a mask without the solution's digit or a pair naming it.
            UnsupportedPuzzleError: for rules this backend lacks (domains included).
        """
        from .candidates import restore_by_search, with_candidates_rule

        self._require_rules(with_candidates_rule(rules))
        return restore_by_search(
            self, rules, solution, masks, order, target=target, budget=self._budget(budget)
        )

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
        from ..fill import random_fill

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
        (asked once, before a run). The default follows :attr:`Capabilities.certifies`:
        a backend that declares it answers None, one that does not says it has no
        proof-logging solver. A backend that certifies only under some conditions (a
        solver, a package version) overrides this and declares ``certifies`` to match.
        """
        if self.capabilities.certifies:
            return None
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
        exactly that formula. The default raises: a backend that does not declare
        :attr:`Capabilities.certifies` cannot certify.

        Raises:
            CertificationUnsupported: (a :class:`~sudoku_model.errors.NotSupported`) this
                backend (or solver) writes no trustworthy proofs, or the rules hold a kind
                the certificate encoding lacks.
            ValueError: when ``givens`` has another shape than ``rules``.
            SearchInterrupted: after :meth:`interrupt`.
        """
        from .certificate import CertificationUnsupported

        raise CertificationUnsupported(self.certificate_refusal() or "cannot certify")

    # -- bulk verification of plain lines (not a fast path: no generic default) ---------
    def verify_plain_lines(
        self, text: str, count: int, *, budget: Budget | None = None
    ) -> BulkColumns | None:
        """``sudoku verify``'s common case in bulk: ``text`` holds ``count`` lines joined by
        newlines; the plain classic 9x9 lines among them (exactly 81 characters of
        ``1-9``, ``.`` and ``0``) are read and answered in one call, with no Python object
        per puzzle, and returned as :class:`BulkColumns` (values, no text: the workflow
        writes the records). The budget applies to each puzzle. A backend that has this
        path declares :attr:`Capabilities.bulk_verify`; workflows call it only then, and
        otherwise parse and ask :meth:`check_unique_batch`.

        None when ``text`` does not split into ``count`` lines, or when the backend cannot
        take this chunk after all (the caller then answers it the general way).

        Raises:
            NotSupported: when the backend does not declare ``bulk_verify`` (the default).
            SearchInterrupted: after :meth:`interrupt` (no line of the chunk is answered).
        """
        raise NotSupported(f"backend {self.name} has no bulk verification path")

    # -- resources ---------------------------------------------------------------------
    def close(self) -> None:
        """Free the solvers and caches this backend holds (the default holds none). The
        backend stays usable: a later call loads what it needs again. A composite backend
        closes the engines it started. Also called on leaving a ``with`` block."""
        return None

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


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
