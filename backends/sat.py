"""The PySAT backend: ``pysat:<solver>`` (default ``pysat:cadical195``).

How it answers (DESIGN.md section 3): the rules of a :class:`~sudoku_model.RuleSet` are
encoded once (extended encoding by default, :mod:`backends.cnf`) into a long-lived solver;
the givens of each puzzle are *assumptions*. Uniqueness: after a first model, a blocking clause over
the non-given cells' literals, guarded by a fresh activation literal ``g``, is added and the
solver runs again under the givens plus ``g``; then ``g`` is retired with the unit clause
``-g``. Retired guards pile up and slow a solver down, so it is rebuilt every
``recycle_after`` (:data:`RECYCLE_AFTER`, 500) retired guards.

Why extended and these CaDiCaL options (``tests/benchmarks/bench_sat.py``, CPU-time medians
per uniqueness check): CaDiCaL 1.9.5 is the fastest solver here, extended the fastest
encoding for it. The ``augmented`` encoding (locked candidates by unit propagation, see
:mod:`backends.cnf`) halves the conflicts on top95 but not on the hardest lists, and costs
more per conflict: 1.3-1.5x slower on forum-hardest-1106 with CaDiCaL, no faster with MiniSat
or Glucose (with or without positive phases). :data:`CADICAL_TUNING` (no eager subsumption,
no radix heap in shrinking, no chronological backtracking) is about 10-17% faster on these
short searches; ``solver_options={}`` restores CaDiCaL's defaults. With the default tuning
the backend also steers phases: every cell literal's phase is forced positive (a decision
places a digit, as a backtracker would), and the search for a second solution starts with
the first solution's literals forced negative (restored after). On forum-hardest-1106 that
is 90 conflicts per check on average instead of 96, on top95 15 instead of 17. Most of the
remaining time is propagation and conflict analysis inside the solver (~25 us per
conflict); models are read in C (:class:`_GridReader`: ~5 us a grid, against ~60 us for
PySAT's whole-model list and its decoding), and 20-30 us per check is Python
(``tests/benchmarks/bench_pysat_overhead.py --floor``).

Budgets: ``seconds`` for every solver but Lingeling; ``conflicts`` where the solver has a
conflict limit (CaDiCaL, MiniSat family; Glucose checks it only at restarts, so it may
overshoot). Solvers with ``interrupt()`` (MiniSat family) are stopped by one persistent
watchdog thread (a ``threading.Timer`` per call costs ~90 us, a quarter of a whole
uniqueness check); CaDiCaL has no interrupt in PySAT, so it runs in slices of conflicts
and the clock is checked between slices. The seconds budget counts from the start of the
call, building the solver included: the rules of a new rule set are encoded in a helper
thread (pure Python, ~0.5 s for 25x25) and loaded into the solver in chunks, both watched
against the deadline; a call whose budget ends during set-up answers ``unknown`` and the
set-up goes on where it stopped at the next call.

Interruption (:meth:`PySATBackend.interrupt`, signals): no solver ever runs with PySAT's own
SIGINT handler, which jumps out of the C++ solver with ``longjmp`` and leaves it unusable
(CaDiCaL then aborts the process with "invalid API usage", exit 134): CaDiCaL is called
without it (``main_thread=0``), the MiniSat family with ``expect_interrupt=True``. In the main
thread every solve returns to Python at least every 0.05 s (a slice), so Python's signal
handlers run; ``interrupt()`` from another thread stops a MiniSat-family solve at once and a
CaDiCaL one at the end of its slice. The interrupted call raises
:class:`~sudoku_model.errors.SearchInterrupted`, and its solver is thrown away (rebuilt by the
next call). Lingeling can be stopped by nothing: it refuses every finite budget (see
:data:`SOLVERS`).

Fast path of the contract's primitives (``capabilities.fast_paths``):
:meth:`PySATBackend.removal_oracle` answers "still unique without these clues?" with
assumptions in the long-lived solver (:meth:`PySATBackend.digit_is_forced`: "givens +
(cell != digit) is unsatisfiable", one call), and, with ``removal_session_after=K``, moves
a grid's calls after the first K to a :class:`RemovalSession` of its own. Full grids for
the generator come from the base class's Python search (state-free, so reproducible):
:meth:`PySATBackend.random_model` (random phases plus a random relabelling of the digits)
depends on what the solver learnt before, so it is not the ``random_solution`` primitive.

>>> from sudoku_model import Puzzle
>>> backend = create("cadical195")
>>> backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value
'unique'

Not thread-safe: use one backend instance per thread.
"""

from __future__ import annotations

import atexit
import math
import random
import signal
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass
from itertools import compress
from operator import add, neg, not_, sub
from typing import Any, cast

from sudoku_model.certcnf import uncertifiable
from sudoku_model.errors import BackendUnavailableError, SearchInterrupted, UnsupportedPuzzleError
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RULE_KINDS, RuleSet
from sudoku_model.solving import (
    DEFAULT_BUDGET,
    Backend,
    Budget,
    Capabilities,
    Certificate,
    CertificationUnsupported,
    RemovalOracle,
    SearchOutcome,
    Verdict,
    VerdictKind,
    is_full_grid,
    verdict_of_count,
)

from .cnf import CNF, DEFAULT_AMO, DEFAULT_ENCODING, encode_constraint_rules, encode_rules
from .threads import SLICE_SECONDS, in_main_thread, wait_in_slices

__all__ = [
    "create",
    "PySATBackend",
    "RemovalSession",
    "SatRemovalOracle",
    "SOLVERS",
    "REFUSED",
    "DEFAULT_SOLVER",
    "REDUCE_FROM",
    "RECYCLE_AFTER",
    "ReducedCNF",
    "CADICAL_TUNING",
    "resolve_solver_name",
    "solver_names",
    "PROOF_SOLVERS",
    "NO_PROOF",
]

DEFAULT_SOLVER = "cadical195"
#: Default ``reduce_from`` of :class:`PySATBackend`: the grid size from which a puzzle is
#: searched in a fresh solver with its givens-simplified CNF (see :class:`ReducedCNF`).
#: At 16x16 the long-lived solver is as fast (median 15-18 ms on minimal puzzles, 1 ms on
#: 16x16-100.csv against 7 ms); at 25x25 it is 5-10x slower on minimal puzzles.
REDUCE_FROM = 25


@dataclass(frozen=True)
class SolverInfo:
    """What a PySAT solver can do, as far as this backend is concerned."""

    name: str
    interrupt: bool  # solve_limited + interrupt(): exact seconds budgets
    limited: bool  # solve_limited with a conflict budget
    phases: bool  # set_phases (random solutions)
    notes: str = ""
    configurable: bool = False  # configure(): CaDiCaL options, set before any clause


#: Every PySAT solver that honours assumptions, by canonical PySAT name.
SOLVERS: dict[str, SolverInfo] = {
    s.name: s
    for s in [
        SolverInfo("cadical195", False, True, True, "CaDiCaL 1.9.5 (default)", True),
        SolverInfo("cadical153", False, True, True, "CaDiCaL 1.5.3", True),
        SolverInfo("cadical103", False, True, False, "CaDiCaL 1.0.3; no set_phases"),
        SolverInfo("cadical300", False, True, True, "CaDiCaL 3.0.0", True),
        SolverInfo("glucose3", True, True, True, "Glucose 3.0"),
        SolverInfo(
            "glucose4", True, True, True, "Glucose 4.1; checks the conflict budget only at restarts"
        ),
        SolverInfo(
            "glucose42",
            True,
            True,
            True,
            "Glucose 4.2.1; checks the conflict budget only at restarts",
        ),
        SolverInfo("gluecard3", True, True, True, "Gluecard 3"),
        SolverInfo("gluecard4", True, True, True, "Gluecard 4"),
        SolverInfo("maplechrono", True, True, True, "MapleLCMDistChronoBT"),
        SolverInfo("maplecm", True, True, True, "Maple_CM"),
        SolverInfo("maplesat", True, True, True, "MapleCOMSPS_LRB"),
        SolverInfo("mergesat3", True, True, True, "MergeSat 3"),
        SolverInfo("minicard", True, True, True, "Minicard 1.2"),
        SolverInfo("minisat22", True, True, True, "MiniSat 2.2"),
        SolverInfo("minisatep", True, True, True, "MiniSat with extended propagation"),
        SolverInfo(
            "lingeling",
            False,
            False,
            True,
            "Lingeling: PySAT can neither limit nor interrupt it, so it takes no budget: a "
            "finite seconds or conflicts budget (the default 60 s too) is refused; run it "
            "with an unlimited one (Budget(), CLI --budget-seconds inf). SIGTERM waits for "
            "the solve to end; Ctrl-C stops it and throws the solver away",
        ),
    ]
}

#: CaDiCaL options set by default (``solver_options=None``), measured on uniqueness checks of
#: 9x9 puzzles with a long-lived solver (tests/benchmarks/bench_sat.py): the searches are
#: ~10-100 conflicts each, where eager subsumption of recent learnt clauses, the radix heap
#: used while shrinking learnt clauses and chronological backtracking cost more than they
#: save (together 10-17% less CPU time, slightly fewer conflicts).
CADICAL_TUNING: dict[str, int] = {"eagersubsume": 0, "shrinkreap": 0, "chrono": 0}

#: CaDiCaL options of the reduced-CNF searches (:class:`ReducedCNF`) under the default
#: tuning: stable mode only, and every decision tries a digit first (initial phase true,
#: forced). On three minimal 25x25 puzzles 1.78 / 0.49 / 0.35 s CPU per uniqueness check
#: against 2.82 / 0.75 / 0.58 s with :data:`CADICAL_TUNING` and positive phases set by
#: ``set_phases`` (2.19 / 0.56 / 0.48 s with stable mode alone; Glucose 4 4.67 / 0.71 /
#: 0.39, MiniSat 2.2 3.74 / 0.67 / 0.43).
REDUCED_TUNING: dict[str, int] = {
    **CADICAL_TUNING,
    "stabilizeonly": 1,
    "forcephase": 1,
    "phase": 1,
}

#: Solvers PySAT knows that this backend refuses, with the reason.
REFUSED: dict[str, str] = {
    "kissat404": "Kissat ignores assumptions (PySAT warns and drops them), and this backend "
    "passes the givens as assumptions",
    "cryptosat": "CryptoMiniSat is not built into the PySAT wheels",
    "minisatgh": "MiniSat (GitHub) is not built into the PySAT wheels",
    "ergo": "not validated with this backend",
}

#: Solvers whose DRAT proofs (``with_proof=True``, ``get_proof()``) are trusted for
#: certificates: each was checked valid by dratify on small formulas and on Sudoku
#: certificates (tests/backends/test_certificates.py).
PROOF_SOLVERS = frozenset(
    {
        "cadical103",
        "cadical153",
        "cadical195",
        "cadical300",
        "glucose3",
        "glucose4",
        "glucose42",
        "gluecard3",
        "gluecard4",
        "lingeling",
        "maplechrono",
        "maplecm",
    }
)

#: Why the other solvers cannot certify.
NO_PROOF: dict[str, str] = {
    "maplesat": "MapleSAT's DRAT proofs are wrong (PySAT issue 139): its certificates would "
    "not check",
    "mergesat3": "MergeSat 3 writes no proofs in PySAT",
    "minisat22": "MiniSat 2.2 writes no proofs in PySAT",
    "minisatep": "MiniSat with extended propagation writes no proofs in PySAT",
    "minicard": "Minicard writes no proofs in PySAT",
}

#: The certificate encoding (``sudoku_model.certcnf`` rebuilds it independently): the
#: extended encoding with pairwise at-most-one of :mod:`backends.cnf`, the givens as unit
#: clauses and, for ``unique``, the blocking clause of the solution.
CERTIFICATE_ENCODING = "sudoku-cert-1"


def _flushes_cadical_proofs() -> bool:
    """Whether this python-sat hands out CaDiCaL proofs whole (1.9.dev16 and later:
    earlier builds read the proof before CaDiCaL flushed its last lines)."""
    import re

    import pysat

    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.?dev(\d+))?", pysat.__version__)
    if m is None:
        return True  # an unknown scheme is newer than any we know
    major, minor = int(m[1]), int(m[2])
    if (major, minor) != (1, 9):
        return (major, minor) > (1, 9)
    return m[4] is None or int(m[4]) >= 16


class _ProofEngine:
    """What :meth:`PySATBackend._call` uses of an engine, for a fresh proof solver."""

    def __init__(self, solver: Any, solve_limited: Any) -> None:
        self.solver = solver
        self.solve_limited = solve_limited
        self.stale = False


# Our aliases on top of PySAT's (PySAT's "cd" means the old CaDiCaL 1.0.3; "cadical" here
# means the default).
_EXTRA_ALIASES = {
    "cadical": "cadical195",
    "glucose": "glucose4",
    "minisat": "minisat22",
    "gluecard": "gluecard4",
    "maple": "maplesat",
    "mergesat": "mergesat3",
}


_is_positive = (0).__lt__  # lit -> 0 < lit


def _import_pysat() -> Any:
    try:
        import pysat.solvers as solvers
    except ImportError as exc:  # pragma: no cover - python-sat is a core dependency
        raise BackendUnavailableError(
            "the pysat backend needs the python-sat package: pip install python-sat"
        ) from exc
    return solvers


def resolve_solver_name(name: str | None) -> str:
    """The canonical PySAT name of a solver name or alias (``g4`` -> ``glucose4``).

    Raises:
        ValueError: for an unknown name, or a solver this backend refuses (with the reason).
    """
    if not name:
        return DEFAULT_SOLVER
    key = name.strip().lower()
    if key in SOLVERS or key in REFUSED:
        canonical = key
    elif key in _EXTRA_ALIASES:
        canonical = _EXTRA_ALIASES[key]
    else:
        names = _import_pysat().SolverNames
        canonical = next(
            (
                attr
                for attr, aliases in vars(names).items()
                if not attr.startswith("_") and key in aliases
            ),
            "",
        )
    if canonical in REFUSED:
        raise ValueError(f"pysat:{name} is refused: {REFUSED[canonical]}")
    if canonical not in SOLVERS:
        raise ValueError(f"unknown PySAT solver {name!r}; known: {', '.join(SOLVERS)}")
    return canonical


def solver_names() -> list[str]:
    """Canonical names of the selectable solvers (``pysat:<name>``)."""
    return list(SOLVERS)


#: Default ``recycle_after`` of :class:`PySATBackend`. Each retired guard stays in the
#: solver as a variable fixed false: every model read (one per variable) and every check
#: costs a little more (17-clue checks 181 -> 240 us over 1,000 guards, with the model
#: 930 -> 1,930 variables); a rebuild costs ~3.5 ms. Uniqueness checks, CPU alternated,
#: against 1,000: 17-clue 0.97, multi-solution 0.945, forum-hardest-1106 0.98; 250 is
#: slower again (tests/benchmarks/bench_pysat_overhead.py times the whole call).
RECYCLE_AFTER = 500
#: Conflicts of the first slice of a CaDiCaL solve (later slices are sized from the
#: measured rate, see PySATBackend._call_in_slices).
FIRST_SLICE = 1000
#: Clauses added to a solver between two looks at the deadline while it is loaded.
_LOAD_CHUNK = 10_000
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

# Solvers left in an unknown state by PySAT's SIGINT handler (Lingeling): never freed.
_POISONED: list[Any] = []


def _quiet_solve_limited(solver: Any, name: str) -> Any:
    """``solve_limited`` of a CaDiCaL solver without PySAT's SIGINT handler.

    PySAT's CaDiCaL wrappers take ``main_thread`` from the calling thread and, in the main
    thread, replace the SIGINT handler by one that ``longjmp``s out of the solver; the
    solver is then in an invalid state and its next use aborts the process. The C entry
    point takes the flag as an argument: 0 leaves Python's handler in place (the solve
    runs in slices, so the handler runs within a slice). Returns None when this PySAT
    build lacks that entry point (the public method is used then).
    """
    import pysat.solvers as solvers

    inner = solver.solver
    fn = getattr(getattr(solvers, "pysolvers", None), f"{name}_solve_lim", None)
    handle = getattr(inner, "cadical", None)
    if fn is None or handle is None:
        return None

    def solve_limited(assumptions: list[int]) -> bool | None:
        raw = fn(handle, assumptions, 0)
        status = None if raw == 0 else raw > 0
        inner.status = status  # get_model() reads it
        inner.prev_assumps = assumptions
        return status

    return solve_limited


class _Direct:
    """The C entry points of a CaDiCaL solver of PySAT, called without PySAT's Python
    wrappers (the hot path of :meth:`PySATBackend._search`).

    A wrapper costs a Python call or two per use, and ``set_phases`` also reconfigures
    ``lucky`` on every call: about a tenth of a uniqueness check on an easy puzzle.
    ``solve`` runs without PySAT's SIGINT handler (see :func:`_quiet_solve_limited`) and
    does not record its status in the wrapper: a caller that goes on with the wrapper
    (``get_model``) must solve through the wrapper or :func:`_quiet_solve_limited`.
    """

    __slots__ = ("handle", "solve", "model", "add_clause", "set_phases", "budget", "stats")

    def __init__(self, handle: Any, fns: dict[str, Any]) -> None:
        self.handle = handle
        self.solve = fns["solve_lim"]  # (handle, assumptions, main_thread) -> 1 / -1 / 0
        self.model = fns["model"]  # (handle) -> [+-1, ..., +-maxvar] or None
        self.add_clause = fns["add_cl"]
        self.set_phases = fns["setphases"]
        self.budget = fns["cbudget"]
        self.stats = fns["acc_stats"]

    @staticmethod
    def of(solver: Any, name: str) -> _Direct | None:
        """The entry points of ``solver`` (a ``pysat.solvers.Solver`` named ``name``), or
        None when this PySAT build lacks one of them."""
        import pysat.solvers as solvers

        module = getattr(solvers, "pysolvers", None)
        handle = getattr(solver.solver, "cadical", None)
        names = ("solve_lim", "model", "add_cl", "setphases", "cbudget", "acc_stats")
        fns = {k: getattr(module, f"{name}_{k}", None) for k in names}
        if handle is None or None in fns.values():
            return None
        return _Direct(handle, fns)


#: PySAT solver name -> the mangled name of its CaDiCaL's ``int Solver::val(int)``, the
#: symbol :mod:`backends._satread` binds (CaDiCaL 3.0.0's ``val`` takes a second argument:
#: not bound, its models are read through PySAT).
_VAL_SYMBOLS = {
    "cadical103": "_ZN10CaDiCaL1036Solver3valEi",
    "cadical153": "_ZN10CaDiCaL1536Solver3valEi",
    "cadical195": "_ZN10CaDiCaL1956Solver3valEi",
}
#: :func:`_grid_reader`'s answers, per solver name.
_GRID_READERS: dict[str, _GridReader | None] = {}


class _GridReader:
    """Reads the grid of a satisfied CaDiCaL solver of PySAT in C (:mod:`backends._satread`:
    CaDiCaL's ``val()`` for the cell variables only, var(cell, digit) = cell * size +
    digit): about a tenth of the cost of PySAT's whole-model read and its decoding in
    Python. Call it only right after a solve that answered SAT: CaDiCaL aborts the process
    on a read in any other state."""

    __slots__ = ("slot", "grid")

    def __init__(self, slot: int, grid: Any) -> None:
        self.slot = slot
        self.grid = grid  # _satread.grid, looked up once

    def digits(self, handle: Any, size: int, cells: int) -> tuple[int, ...] | None:
        """The digit of every cell, or None when a cell has no true digit or two."""
        result: tuple[int, ...] | None = self.grid(self.slot, handle, size, cells)
        return result

    def with_free(
        self, handle: Any, size: int, cells: int, givens: tuple[int, ...]
    ) -> tuple[tuple[int, ...], list[int], list[int]] | None:
        """(:meth:`digits`, the literals of the cells that are not givens in cell order,
        their negations), or None as :meth:`digits`."""
        result: tuple[tuple[int, ...], list[int], list[int]] | None = self.grid(
            self.slot, handle, size, cells, givens
        )
        return result


def _grid_reader(name: str) -> _GridReader | None:
    """The :class:`_GridReader` of the PySAT solver ``name``, or None when this solver,
    platform or PySAT build gives none, or when it reads a test model of its own wrongly:
    models are then read through PySAT."""
    if name not in _GRID_READERS:
        _GRID_READERS[name] = _bind_grid_reader(name)
    return _GRID_READERS[name]


def _bind_grid_reader(name: str) -> _GridReader | None:
    symbol = _VAL_SYMBOLS.get(name)
    if symbol is None:
        return None
    try:
        from . import _satread
    except ImportError:  # compiled on every install; absent only in an unbuilt tree
        return None
    solvers = _import_pysat()
    library = getattr(getattr(solvers, "pysolvers", None), "__file__", None)
    if not isinstance(library, str):
        return None
    slot = _satread.bind(library, symbol)
    if slot < 0:
        return None
    reader = _GridReader(slot, _satread.grid)
    # A test model of three 2-digit cells, read both ways: cells 0 and 1 fixed (digits 2
    # and 1), cell 2 digit 2 and, under the assumption 5, digit 1 as well (no answer).
    solver = solvers.Solver(name=name)
    try:
        direct = _Direct.of(solver, name)
        if direct is None:
            return None
        handle = direct.handle
        for clause in ([2], [-1], [1, 3], [-4], [6]):
            direct.add_clause(handle, clause)
        if direct.solve(handle, [-5], 0) != 1:
            return None
        if direct.model(handle)[:6] != [-1, 2, 3, -4, -5, 6]:
            return None
        if reader.digits(handle, 2, 3) != (2, 1, 2) or reader.with_free(
            handle, 2, 3, (2, 0, 0)
        ) != ((2, 1, 2), [3, 6], [-3, -6]):
            return None
        if direct.solve(handle, [5], 0) != 1 or reader.digits(handle, 2, 3) is not None:
            return None
    finally:
        solver.delete()
    return reader


# -- encoding in a helper thread --------------------------------------------------------------
_ENCODINGS: dict[tuple[RuleSet, str, str], Any] = {}
_ENCODINGS_LOCK = threading.Lock()


def _encode_in_background(rules: RuleSet, encoding: str, amo: str) -> Any:
    """A future of ``encode_rules(rules, ...)``, computed in a daemon thread (one per rule
    set at a time; the result is also cached by :mod:`backends.cnf`)."""
    from concurrent.futures import Future

    key = (rules, encoding, amo)
    with _ENCODINGS_LOCK:
        future = _ENCODINGS.get(key)
        if future is not None:
            return future
        future = Future()
        _ENCODINGS[key] = future

    def work() -> None:
        try:
            future.set_result(encode_rules(rules, encoding=encoding, amo=amo))
        except BaseException as exc:  # handed to whoever waits
            future.set_exception(exc)
        finally:
            with _ENCODINGS_LOCK:
                _ENCODINGS.pop(key, None)

    # A daemon: pure Python, nothing to clean up if the process ends first.
    threading.Thread(target=work, name="pysat-encode", daemon=True).start()
    return future


# -- the watchdog that turns a deadline into solver.interrupt() ------------------------------
class _Watchdog:
    """One daemon thread per backend that interrupts the armed solver at its deadline.

    Arming is two attribute writes under an uncontended lock; the thread is only woken when
    a deadline is earlier than the one it sleeps toward, so with the usual long budgets it
    wakes about once per budget period, not once per call.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._solver: Any = None
        self._deadline: float | None = None
        self._sleeping_until: float | None = None  # None: idle (no timeout)
        self._thread: threading.Thread | None = None
        self.fired = False

    def arm(self, solver: Any, deadline: float) -> None:
        with self._cond:
            self._solver = solver
            self._deadline = deadline
            self.fired = False
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="pysat-watchdog", daemon=True
                )
                self._thread.start()
            if self._sleeping_until is None or deadline < self._sleeping_until:
                self._cond.notify()

    def disarm(self) -> bool:
        """Forget the armed solver; True when it was interrupted (the caller clears it)."""
        with self._cond:
            self._solver = None
            self._deadline = None
            return self.fired

    def _run(self) -> None:
        with self._cond:
            while True:
                deadline = self._deadline
                if deadline is None:
                    self._sleeping_until = None
                    self._cond.wait()
                    continue
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    self._solver.interrupt()
                    self.fired = True
                    self._deadline = None
                    continue
                self._sleeping_until = deadline
                self._cond.wait(remaining)


# -- one long-lived solver per rule set -------------------------------------------------------
class _Engine:
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
        self.direct: _Direct | None = None  # CaDiCaL: its C entry points (the hot path)
        # CaDiCaL: the grid of a model read in C (see _grid_reader); None: through PySAT
        self.reader: _GridReader | None = None
        # Relation, domain, sum and sandwich rules on top of these base rules, each loaded
        # under a guard literal (see activate); ``extra`` is the active one's guard.
        self.overlays: OrderedDict[RuleSet, int] = OrderedDict()
        self.extra: list[int] = []
        self._new_solver(load=load)

    @property
    def fully_loaded(self) -> bool:
        return self.loaded == len(self.clauses)

    def _new_solver(self, *, load: bool = True) -> None:
        solvers = _import_pysat()
        if self.solver is not None:
            self.solver.delete()
        self.solver = solvers.Solver(name=self.info.name)
        if self.options:  # CaDiCaL takes options only before its first clause
            self.solver.solver.configure(self.options)
        self.loaded = 0
        if not self.info.interrupt and self.info.limited:
            self.solve_limited = _quiet_solve_limited(self.solver, self.info.name)
            self.direct = _Direct.of(self.solver, self.info.name)
            if self.direct is not None:
                self.reader = _grid_reader(self.info.name)
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
            end = min(total, self.loaded + _LOAD_CHUNK)
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
        """The grid of the solver's model read in C (:class:`_GridReader`), or None when
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


class _Run:
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


_STAT_NAMES = ("conflicts", "decisions", "propagations")


class _Expired(Exception):
    """The budget ran out while a :class:`ReducedCNF` was built."""


class ReducedCNF:
    """The rules of one puzzle with what its givens decide taken out (Kwon & Jain 2006):
    a variable only for each (empty cell, digit no peer given holds), at-least-one and
    pairwise at-most-one per cell and per (unit, digit not given in the unit), "different"
    pairs on shared candidates. For a one-off large grid: a minimal 25x25 puzzle leaves
    about a fifth of the full encoding's 15,625 variables and a small part of its 752,500
    clauses, built in tens of milliseconds instead of loading the whole formula.

    Only units and "different" pairs (rules without :attr:`RuleSet.constraint_rules`).
    ``impossible`` is True when the givens leave some cell or some unit digit no place
    (no solution; ``clauses`` is then incomplete).
    """

    def __init__(
        self,
        rules: RuleSet,
        givens: Sequence[int],
        *,
        stop: Callable[[], bool] | None = None,
        level: str = "givens",
    ) -> None:
        """``stop()`` is asked every n cells and every unit; a true answer raises
        :class:`_Expired`. ``level`` (one of :data:`backends.preprocess.LEVELS`) narrows
        the candidates first with :func:`backends.preprocess.reduce_candidates`; the
        cells it decides then count as givens (:meth:`decode` fills them in,
        :meth:`blocking_clause` leaves them out: no solution differs there). The default,
        ``givens``, only takes out what a peer given holds: stronger levels were measured
        no faster on minimal 25x25 puzzles (``bench_large.py variants``).

        Raises:
            ValueError: ``level`` is not one of the levels.
        """
        n = rules.shape.size
        peers = rules.peers
        cand: list[tuple[int, ...]] = []
        contradiction = False
        if level != "givens":
            from .preprocess import reduce_candidates

            reduced = reduce_candidates(rules, givens, level, stop=stop)
            givens = tuple(reduced.values)
            contradiction = reduced.contradiction
            for cell, value in enumerate(givens):
                mask = 0 if value else reduced.candidates[cell]
                cand.append(tuple(d for d in range(1, n + 1) if mask >> d & 1))
        else:
            full = frozenset(range(1, n + 1))
            for cell, value in enumerate(givens):
                if value:
                    cand.append(())
                    continue
                cand.append(tuple(sorted(full.difference([givens[p] for p in peers[cell]]))))
        self.givens = givens
        # var(cell, digit) = cell_var[cell] + index of digit among the cell's candidates
        self.candidates = cand
        var_of: list[dict[int, int]] = []
        top = 0
        clauses: list[list[int]] = []
        for cell, digits in enumerate(cand):
            if stop is not None and not cell % n and stop():
                raise _Expired
            table = {}
            for d in digits:
                top += 1
                table[d] = top
            var_of.append(table)
            if digits:
                lits = list(table.values())
                clauses.append(lits)
                clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        self.impossible = contradiction or any(not c and not v for c, v in zip(cand, givens))
        full_units = set(rules.full_units)
        for unit in rules.units:
            if stop is not None and stop():
                raise _Expired
            placed = {givens[c] for c in unit if givens[c]}
            is_full = unit in full_units
            for d in range(1, n + 1):
                if d in placed:
                    continue
                lits = [var_of[c][d] for c in unit if d in var_of[c]]
                if is_full:
                    if not lits:  # the digit has no place left in this unit
                        self.impossible = True
                    clauses.append(lits)
                clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        for a, b in rules.pairs:
            for d, va in var_of[a].items():
                vb = var_of[b].get(d)
                if vb is not None:
                    clauses.append([-va, -vb])
        self.var_of = var_of
        self.num_vars = top
        self.clauses = clauses
        # (var, cell, digit) of every variable, in variable order
        self.meaning = [(v, c, d) for c, table in enumerate(var_of) for d, v in table.items()]

    def decode(self, model: Sequence[int]) -> tuple[int, ...]:
        """The full grid of a model: the givens plus the true candidate of each cell."""
        values = list(self.givens)
        for v, c, d in self.meaning:
            if model[v - 1] > 0:
                values[c] = d
        return tuple(values)

    def blocking_clause(self, grid: Sequence[int], cells: Sequence[int] | None = None) -> list[int]:
        """ "Some empty cell (of ``cells``, default all) differs from ``grid``". Cells
        the givens (or a ``level``'s eliminations) decide are left out: no solution differs
        there, so the clause may be empty (no such solution)."""
        var_of = self.var_of
        givens = self.givens
        if cells is None:
            cells = [c for c, v in enumerate(givens) if not v]
        return [-var_of[c][grid[c]] for c in cells if not givens[c]]

    def phases_of(self, grid: Sequence[int]) -> list[int]:
        """Every variable's literal, positive where ``grid`` holds that digit."""
        return [v if grid[c] == d else -v for v, c, d in self.meaning]


class PySATBackend(Backend):
    """Sudoku through a PySAT solver with givens as assumptions (see the module docs).

    Args:
        solver: PySAT solver name or alias (default ``cadical195``).
        encoding: ``minimal``, ``efficient``, ``extended`` (default; the fastest) or
            ``augmented``.
        amo: at-most-one encoding, ``pairwise`` (default) or a :mod:`pysat.card` name.
        recycle_after: rebuild a solver after this many retired guards (default
            :data:`RECYCLE_AFTER`).
        max_rule_sets: how many rule sets keep a loaded solver (least recently used go).
        solver_options: CaDiCaL options (``{"chrono": 1}``) for the CaDiCaL solvers that
            take them (1.5.3, 1.9.5, 3.0.0); None (default) means :data:`CADICAL_TUNING`
            for those and nothing for the others, ``{}`` the solver's own defaults.
            Explicit options also turn off the phase steering of the default tuning.
        removal_session_after: a removal oracle (:meth:`removal_oracle`) answers its
            first K calls in the shared solver, then loads a :class:`RemovalSession` for
            its grid (None, the default: never; the native backend's SAT fallback for
            large grids sets it, see ``backends.native.REMOVAL_FALLBACK``).
        reduce_from: from this grid size up (default :data:`REDUCE_FROM`, 25; None:
            never), uniqueness checks, solve calls and the removal oracle of a puzzle
            without constraint rules (units and "different" pairs only) and with at least
            a quarter of its cells given search a fresh
            solver loaded with its :class:`ReducedCNF` (what the givens decide taken out)
            instead of the long-lived solver with givens as assumptions; counts beyond 2
            stay there. A minimal 25x25 check takes ~0.5 s instead of 2-8 s, and skips
            loading the 752,500 clauses of the full encoding
            (``tests/benchmarks/bench_large.py``).

    Raises:
        ValueError: for an unknown or refused solver, encoding or option.
    """

    def __init__(
        self,
        solver: str | None = None,
        *,
        encoding: str = DEFAULT_ENCODING,
        amo: str = DEFAULT_AMO,
        recycle_after: int = RECYCLE_AFTER,
        max_rule_sets: int = 8,
        solver_options: Mapping[str, int] | None = None,
        removal_session_after: int | None = None,
        reduce_from: int | None = REDUCE_FROM,
    ) -> None:
        canonical = resolve_solver_name(solver)
        solvers = _import_pysat()
        try:  # some names exist in PySAT but are not compiled into every build
            solvers.Solver(name=canonical).delete()
        except solvers.NoSuchSolverError as exc:
            raise ValueError(
                f"PySAT solver {canonical} is not available in this installation"
            ) from exc
        # Encoding a 4x4 grid validates the options before any puzzle arrives.
        encode_rules(_probe_rules(), encoding=encoding, amo=amo)
        if (
            isinstance(recycle_after, bool)
            or not isinstance(recycle_after, int)
            or recycle_after < 1
        ):
            raise ValueError(f"recycle_after must be a positive integer, got {recycle_after!r}")
        if removal_session_after is not None and (
            isinstance(removal_session_after, bool)
            or not isinstance(removal_session_after, int)
            or removal_session_after < 0
        ):
            raise ValueError(
                "removal_session_after must be a non-negative integer or None, "
                f"got {removal_session_after!r}"
            )
        if reduce_from is not None and (
            isinstance(reduce_from, bool) or not isinstance(reduce_from, int) or reduce_from < 1
        ):
            raise ValueError(f"reduce_from must be a positive integer or None, got {reduce_from!r}")
        self.reduce_from = reduce_from
        #: The fraction of given cells below which the long-lived solver answers anyway.
        self.reduce_min_given = 0.25
        self.removal_session_after = removal_session_after
        self.info = SOLVERS[canonical]
        if solver_options is None:
            options = dict(CADICAL_TUNING) if self.info.configurable else {}
        else:
            options = dict(solver_options)
            if options and not self.info.configurable:
                raise ValueError(
                    f"pysat:{canonical} takes no solver_options (only CaDiCaL "
                    "1.5.3, 1.9.5 and 3.0.0 do)"
                )
            bad = [
                k
                for k, v in options.items()
                if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int)
            ]
            if bad:
                raise ValueError(f"solver_options maps option names to integers; bad: {bad}")
        self.solver_options = options
        # Phase steering (see the module docstring) belongs to the default tuning: explicit
        # solver_options leave CaDiCaL's own phase options in charge.
        self.phased = self.info.configurable and solver_options is None
        self.solver_name = canonical
        self.encoding = encoding
        self.amo = amo
        self.recycle_after = recycle_after
        self.max_rule_sets = max_rule_sets
        suffix = "" if (encoding, amo) == (DEFAULT_ENCODING, DEFAULT_AMO) else f"[{encoding},{amo}]"
        self.name = f"pysat:{canonical}{suffix}"
        budgets: tuple[str, ...] = ()
        if self.info.limited:
            budgets = ("seconds", "conflicts")
        self.capabilities = Capabilities(  # type: ignore[misc]
            frozenset(RULE_KINDS),
            4,
            25,
            budgets,
            f"PySAT {self.info.notes}; givens as assumptions, guarded blocking clauses",
            frozenset({"removal_oracle"}),
            certifies=self.certificate_refusal() is None,
            sub_solvers=tuple(SOLVERS),
        )
        self._engines: OrderedDict[RuleSet, _Engine] = OrderedDict()
        self._random_engines: OrderedDict[RuleSet, _Engine] = OrderedDict()
        self._watchdog = _Watchdog() if self.info.interrupt else None
        self._sessions: weakref.WeakSet[RemovalSession] = weakref.WeakSet()
        self._solving: set[Any] = set()  # PySAT solvers in a solve now (see interrupt)
        _LIVE.add(self)

    def interrupt(self) -> None:
        """Stop the solve in flight (see the base class): a MiniSat-family solver at once,
        CaDiCaL at the end of its slice (<= 0.05 s). Takes no lock: safe in a signal
        handler."""
        super().interrupt()
        if self.info.interrupt:
            for solver in tuple(self._solving):  # tuple() of a set is atomic under the GIL
                solver.interrupt()

    def version(self) -> str:
        import pysat

        return f"python-sat {pysat.__version__} ({self.solver_name})"

    def close(self) -> None:
        """Free every loaded solver (they are also freed when the backend is collected)."""
        for table in (self._engines, self._random_engines):
            for engine in table.values():
                engine.delete()
            table.clear()
        for session in list(self._sessions):
            session.close()

    # -- engines ---------------------------------------------------------------------
    def _engine(self, rules: RuleSet, table: OrderedDict | None = None) -> _Engine:
        table = self._engines if table is None else table
        base = rules.base
        engine = self._usable(table, base)
        if engine is None:
            engine = _Engine(base, self.info, self.encoding, self.amo, self.solver_options)
            self._remember(table, base, engine)
        elif not engine.fully_loaded:
            engine.load()
        engine.activate(rules)
        return engine

    def _engine_within(
        self, rules: RuleSet, run: _Run, table: OrderedDict | None = None
    ) -> _Engine | None:
        """The engine of ``rules``, built within the run's budget: None when the deadline
        came first (what was built is kept for the next call).

        Raises:
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._refuse_budget(run)
        table = self._engines if table is None else table
        full_rules, rules = rules, rules.base
        engine = self._usable(table, rules)
        if engine is not None and engine.fully_loaded:
            engine.activate(full_rules)
            return engine

        def stop() -> bool:
            return self._interrupted or run.expired()

        if engine is None:
            future = _encode_in_background(rules, self.encoding, self.amo)
            while not future.done():
                if stop():
                    self._check_interrupt()
                    run.stopped = True
                    return None
                # a timed wait: signal handlers and interrupt() get their turn
                futures_wait([future], timeout=SLICE_SECONDS)
            engine = _Engine(
                rules,
                self.info,
                self.encoding,
                self.amo,
                self.solver_options,
                load=False,
                cnf=future.result(),
            )
            self._remember(table, rules, engine)
        if not engine.load(stop):
            self._check_interrupt()
            run.stopped = True
            return None
        engine.activate(full_rules)
        return engine

    @staticmethod
    def _usable(table: OrderedDict, rules: RuleSet) -> _Engine | None:
        """The engine of ``rules`` in ``table`` unless it must be rebuilt (after an
        interrupted call, once no iterator uses it)."""
        engine = table.get(rules)
        if engine is None:
            return None
        if engine.stale and engine.active_iterators == 0:
            del table[rules]
            engine.delete()
            return None
        if len(table) > 1:
            table.move_to_end(rules)
        return engine

    def _remember(self, table: OrderedDict, rules: RuleSet, engine: _Engine) -> None:
        table[rules] = engine
        while len(table) > self.max_rule_sets:
            _, old = table.popitem(last=False)
            if old.active_iterators == 0:
                old.delete()

    # -- one solver call under the run's limits ------------------------------------------
    def _call(self, engine: _Engine, assumptions: list[int], run: _Run) -> bool | None:
        """True (model), False (unsatisfiable) or None (a budget ran out).

        Raises:
            SearchInterrupted: after :meth:`interrupt` (the engine's solver is then rebuilt
                by the next look-up).
            UnsupportedPuzzleError: a finite budget for a solver that cannot honour one.
        """
        info = self.info
        try:
            self._check_interrupt()
            if not info.limited:
                return self._call_unlimited(engine, assumptions, run)
            deadline = run.deadline
            left = run.conflicts_left
            if (deadline is not None and time.perf_counter() >= deadline) or (
                left is not None and left <= 0
            ):
                run.stopped = True
                return None
            if info.interrupt:
                result = self._call_interruptible(engine.solver, assumptions, run)
            else:
                result = self._call_in_slices(engine, assumptions, run)
            if result is None:
                self._check_interrupt()
                run.stopped = True
            return result
        except BaseException:  # interrupted (or a signal handler raised): never reuse it
            engine.stale = True
            raise

    def _call_interruptible(self, s: Any, assumptions: list[int], run: _Run) -> bool | None:
        """MiniSat family: ``solve_limited(expect_interrupt=True)`` (PySAT installs no SIGINT
        handler then, and releases the GIL), stopped by the watchdog at the deadline.

        In the main thread the first slice ends after SLICE_SECONDS; a search that needs more
        goes on in a helper thread while this one waits, so that signal handlers run (a
        handler's ``interrupt()`` stops the solver). Re-entering the solver after every
        slice would restart its search each time: 20-40% more conflicts on hard puzzles."""
        watchdog = self._watchdog
        main = in_main_thread()
        solving = self._solving
        solving.add(s)
        waiting = False  # in the helper thread from the second slice on
        try:
            while True:
                left = run.conflicts_left
                if left is not None and left <= 0:
                    return None  # spent in an earlier slice (conf_budget(0) is no limit)
                if left is not None:
                    before = s.accum_stats()["conflicts"]
                s.conf_budget(left if left is not None else -1)  # -1: no conflict limit
                until = run.deadline
                if main and not waiting:
                    slice_end = time.perf_counter() + SLICE_SECONDS
                    until = slice_end if until is None else min(until, slice_end)
                if watchdog is not None and until is not None:
                    watchdog.arm(s, until)
                try:
                    if waiting:
                        result = self._solve_waiting(s, assumptions)
                    else:
                        result = s.solve_limited(assumptions, expect_interrupt=True)
                finally:
                    fired = watchdog is not None and until is not None and watchdog.disarm()
                    if fired:
                        s.clear_interrupt()
                if left is not None:
                    run.conflicts_left = left - (s.accum_stats()["conflicts"] - before)
                if result is not None or self._interrupted or not fired or run.expired():
                    return result
                waiting = True  # the first slice ended: signal handlers have run
        finally:
            solving.discard(s)

    def _solve_waiting(self, s: Any, assumptions: list[int]) -> bool | None:
        """``s.solve_limited`` in a helper thread while the calling (main) thread waits in
        short timed waits, during which Python runs its signal handlers."""

        def poll() -> None:
            if self._interrupted:
                s.interrupt()

        def stop() -> Callable[[], None]:  # a signal handler raised: stop the solver first
            s.interrupt()
            return lambda: None

        return wait_in_slices(
            lambda: s.solve_limited(assumptions, expect_interrupt=True),
            name="pysat-solve",
            stop=stop,
            poll=poll,
        )

    def _call_in_slices(self, engine: _Engine, assumptions: list[int], run: _Run) -> bool | None:
        # No interrupt (CaDiCaL): run slices of conflicts and look at the clock and the
        # interrupt flag between them; the slice is sized from the measured rate so that one
        # slice takes about SLICE_SECONDS.
        s = engine.solver
        solve_limited = engine.solve_limited or s.solve_limited
        deadline = run.deadline
        slice_size = FIRST_SLICE
        while True:
            left = run.conflicts_left
            size = slice_size if left is None else min(slice_size, left)
            if size <= 0:
                return None
            start = time.perf_counter()
            s.conf_budget(size)
            # the solver's counters only under a conflict budget: reading them builds a dict,
            # a few us on a path a generator takes ~60 times per 9x9 puzzle
            before = s.accum_stats()["conflicts"] if left is not None else 0
            result = solve_limited(assumptions)
            if left is not None:
                used = s.accum_stats()["conflicts"] - before
                run.conflicts_left = left - used
            else:
                used = size  # an unfinished slice spent its whole conflict budget
            if result is not None:
                return result
            now = time.perf_counter()
            if self._interrupted or (deadline is not None and now >= deadline):
                return None
            rate = max(used, 1) / max(now - start, 1e-6)
            span = SLICE_SECONDS if deadline is None else min(SLICE_SECONDS, deadline - now)
            slice_size = max(100, int(rate * span))

    def _refuse_budget(self, run: _Run) -> None:
        """A finite budget for a solver that cannot be limited (Lingeling) is refused before
        anything is built."""
        if not self.info.limited and (run.deadline is not None or run.conflicts_left is not None):
            raise UnsupportedPuzzleError(
                f"{self.name} cannot honour a seconds or conflicts budget (PySAT can neither "
                "limit nor interrupt Lingeling); use another solver, or an unlimited budget: "
                "Budget() in Python, --budget-seconds inf on the command line"
            )

    def _call_unlimited(self, engine: _Engine, assumptions: list[int], run: _Run) -> bool:
        """Lingeling: no limit and no interrupt in PySAT, so a finite budget is refused.
        In the main thread PySAT's SIGINT handler is the only way out of a solve: after it
        jumped out, the solver is set aside (never used nor freed again), Python's handler is
        put back and the signal delivered to it."""
        self._refuse_budget(run)
        import pysat.solvers as solvers

        s = engine.solver
        try:
            return bool(s.solve(assumptions))
        except solvers.pysolvers.error:
            _POISONED.append(s)
            engine.solver = solvers.Solver(name=self.info.name)  # a harmless stand-in
            engine.stale = True
            if in_main_thread():
                signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))
                signal.raise_signal(signal.SIGINT)
            raise SearchInterrupted(f"backend {self.name}: search interrupted") from None

    def _stats_since(self, engine: _Engine, before: dict[str, int]) -> dict[str, Any]:
        after = engine.solver.accum_stats()
        return {k: after.get(k, 0) - before.get(k, 0) for k in _STAT_NAMES}

    # -- the contract primitives ------------------------------------------------------------
    def check_unique(
        self, puzzle: Puzzle, *, solution: Grid | None = None, budget: Budget | None = None
    ) -> Verdict:
        """See :meth:`sudoku_model.solving.Backend.check_unique`; the same verdicts.

        The clash test of the givens (``puzzle.is_contradictory``) runs only when the solver
        found no solution: clashing givens, passed as assumptions, always make the formula
        unsatisfiable, and the test costs as much as a quarter of an easy check.

        Raises:
            ValueError: when ``solution`` is given but does not solve the puzzle.
            UnsupportedPuzzleError: as :meth:`solve`.
            SearchInterrupted: after :meth:`interrupt`.
        """
        if solution is not None:
            return super().check_unique(puzzle, solution=solution, budget=budget)
        start = time.perf_counter()
        self._require_supported(puzzle)
        self._check_interrupt()
        outcome = self._search(puzzle, limit=2, budget=DEFAULT_BUDGET if budget is None else budget)
        self._check_interrupt()
        found = outcome.solutions
        if not found and puzzle.is_contradictory:
            # the base class answers this before any search, with the clash described
            return super().check_unique(puzzle, budget=budget)
        stats = outcome.stats
        seconds = time.perf_counter() - start
        if len(found) >= 2:
            return Verdict(
                VerdictKind.MULTIPLE,
                puzzle,
                self.name,
                seconds,
                witnesses=tuple(found[:2]),
                stats=stats,
            )
        kind = verdict_of_count(len(found), outcome.complete)
        return Verdict(
            kind, puzzle, self.name, seconds, solution=found[0] if found else None, stats=stats
        )

    def _reduces(self, puzzle: Puzzle) -> bool:
        # A sparse grid's reduced CNF is nearly the full one, built again on every call,
        # where the long-lived solver builds it once (and goes on across calls whose
        # budget ends during set-up): below a quarter of the cells given it stays there.
        return (
            self.reduce_from is not None
            and puzzle.size >= self.reduce_from
            and not puzzle.rules.constraint_rules
            and puzzle.clues >= self.reduce_min_given * puzzle.shape.cell_count
        )

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        if limit <= 2 and self._reduces(puzzle):
            return self._search_reduced(puzzle, limit=limit, budget=budget)
        run = _Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        direct = engine.direct
        if direct is not None and limit == 2 and run.conflicts_left is None:
            return self._unique_direct(engine, direct, puzzle.givens.values, run)
        phased = self.phased
        if phased:
            engine.force_positive_phases()
        givens = puzzle.givens.values
        assumptions = engine.assumptions(givens)
        solver = engine.solver
        stats0 = solver.accum_stats()
        result = self._call(engine, assumptions, run)
        if not result:
            return SearchOutcome(
                [],
                result is False,
                self._stats_since(engine, stats0),
                stopped_by_budget=run.stopped,
            )
        first, positive = engine.model_grid_and_literals()
        if limit == 1:
            return SearchOutcome([first], False, self._stats_since(engine, stats0))
        # Everything found so far is blocked under one guard, retired at the end.
        found = [first]
        guard = engine.fresh_guard()
        assumptions.append(guard)
        complete = False
        if positive is None:
            free = engine.free_literals(first.values, givens)
        else:  # the model's own cell literals: no second pass over the grid
            free = list(compress(positive, map(not_, givens)))
        clause = list(map(neg, free))
        if phased:  # the second search starts away from the first solution
            solver.set_phases(clause)
        clause.append(-guard)
        try:
            while True:
                solver.add_clause(clause)
                result = self._call(engine, assumptions, run)
                if result is None:
                    break
                if result is False:
                    complete = True
                    break
                grid, positive = engine.model_grid_and_literals()
                found.append(grid)
                if len(found) >= limit:
                    break
                if positive is None:
                    blocked = engine.free_literals(grid.values, givens)
                else:
                    blocked = list(compress(positive, map(not_, givens)))
                clause = engine.blocking_clause(guard, blocked)
            stats = self._stats_since(engine, stats0)
        finally:
            if phased:
                solver.set_phases(free)
            engine.retire(guard, self.recycle_after)
        return SearchOutcome(found, complete, stats, stopped_by_budget=run.stopped)

    def _unique_direct(
        self, engine: _Engine, direct: _Direct, givens: tuple[int, ...], run: _Run
    ) -> SearchOutcome:
        """:meth:`_search` with ``limit=2`` and no conflicts budget on a CaDiCaL engine:
        the same searches and answers, with the solver's C entry points called directly
        (:class:`_Direct`); a search that outlasts its first slice goes on in
        :meth:`_call`."""
        handle = direct.handle
        phased = self.phased
        if phased:
            engine.force_positive_phases()
        assumptions = engine.assumptions(givens)
        before = direct.stats(handle)
        result = self._solve_direct(engine, direct, assumptions, run)
        if not result:
            return SearchOutcome(
                [],
                result is False,
                self._stats_since(engine, before),
                stopped_by_budget=run.stopped,
            )
        reader = engine.reader
        read = None
        if reader is not None:  # the grid, its free literals and their negations, in C
            read = reader.with_free(handle, engine.shape.size, engine.cell_count, givens)
        if read is not None:
            digits, free, clause = read
            first = Grid._trusted(engine.shape, digits)
        else:  # PySAT's whole model
            first, positive = engine.decode(direct.model(handle))
            if positive is None:
                free = engine.free_literals(first.values, givens)
            else:  # the model's own cell literals: no second pass over the grid
                free = list(compress(positive, map(not_, givens)))
            clause = list(map(neg, free))
        guard = engine.fresh_guard()
        assumptions.append(guard)
        set_phases = direct.set_phases
        if phased:  # the second search starts away from the first solution
            set_phases(handle, clause)
        clause.append(-guard)
        try:
            direct.add_clause(handle, clause)
            result = self._solve_direct(engine, direct, assumptions, run)
            if result:
                second = engine.read_grid() or engine.decode(direct.model(handle))[0]
                found = [first, second]
            else:
                found = [first]
            after = direct.stats(handle)
        finally:
            if phased:
                set_phases(handle, free)
            engine.retire(guard, self.recycle_after)
        stats = {k: after.get(k, 0) - before.get(k, 0) for k in _STAT_NAMES}
        return SearchOutcome(found, result is False, stats, stopped_by_budget=run.stopped)

    def _solve_direct(
        self, engine: _Engine, direct: _Direct, assumptions: list[int], run: _Run
    ) -> bool | None:
        """:meth:`_call`'s answer for a CaDiCaL engine without a conflicts budget: the
        first slice of conflicts straight through the C entry point (most calls end
        there), the rest in :meth:`_call`.

        Raises:
            SearchInterrupted: as :meth:`_call`.
        """
        deadline = run.deadline
        if self._interrupted or (deadline is not None and time.perf_counter() >= deadline):
            return self._call(engine, assumptions, run)  # it raises or answers None
        try:
            direct.budget(direct.handle, FIRST_SLICE)
            raw = direct.solve(direct.handle, assumptions, 0)
        except BaseException:  # a signal handler raised: never reuse this solver
            engine.stale = True
            raise
        if raw:
            return raw > 0
        return self._call(engine, assumptions, run)

    def _search_reduced(
        self,
        puzzle: Puzzle,
        *,
        limit: int,
        budget: Budget,
        known: Grid | None = None,
        differ_in: Sequence[int] | None = None,
    ) -> SearchOutcome:
        """Up to ``limit`` solutions (other than the solution ``known``, and differing from
        it in one of the empty cells ``differ_in`` when given) from a fresh solver loaded
        with the puzzle's :class:`ReducedCNF`, thrown away after the call. With ``known``
        the phases are its digits (another solution mostly agrees with it)."""
        run = _Run(budget)
        self._refuse_budget(run)

        def stop() -> bool:
            return self._interrupted or run.expired()

        try:
            cnf = ReducedCNF(puzzle.rules, puzzle.givens.values, stop=stop)
        except _Expired:
            self._check_interrupt()
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        if cnf.impossible or (known is not None and cnf.num_vars == 0):
            return SearchOutcome([], True, {})  # no solution; or a full grid: no other
        info = self.info
        solver = _import_pysat().Solver(name=info.name)
        try:
            # the default tuning has its own measured variant here (see REDUCED_TUNING)
            options = REDUCED_TUNING if self.phased else self.solver_options
            if options:
                solver.solver.configure(options)
            clauses = cnf.clauses
            for begin in range(0, len(clauses), _LOAD_CHUNK):
                if begin and stop():  # a sparse grid's formula is nearly the full one
                    self._check_interrupt()
                    return SearchOutcome([], False, {}, stopped_by_budget=True)
                solver.append_formula(clauses[begin : begin + _LOAD_CHUNK])
            if known is not None and info.phases:
                solver.set_phases(cnf.phases_of(known.values))
            elif info.phases and not info.configurable:
                # a decision places a digit, as a backtracker would (CaDiCaL: forcephase)
                solver.set_phases(range(1, cnf.num_vars + 1))
            quiet = None
            if info.limited and not info.interrupt:
                quiet = _quiet_solve_limited(solver, info.name)
            engine = cast(_Engine, _ProofEngine(solver, quiet))
            free = cnf.num_vars > 0
            if known is not None and free:
                solver.add_clause(cnf.blocking_clause(known.values, differ_in))
            found: list[Grid] = []
            complete = False
            while len(found) < limit:
                result = self._call(engine, [], run)
                if result is None:
                    break
                if result is False:
                    complete = True
                    break
                values = cnf.decode(solver.get_model())
                found.append(Grid._trusted(puzzle.shape, values))
                if not free:  # a full grid: nothing else to find
                    complete = len(found) < limit
                    break
                solver.add_clause(cnf.blocking_clause(values))
            after = solver.accum_stats()
            stats = {k: after.get(k, 0) for k in _STAT_NAMES}
        finally:
            solver.delete()
        return SearchOutcome(found, complete, stats, stopped_by_budget=run.stopped)

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        if self._reduces(puzzle):
            return self._search_reduced(puzzle, limit=1, budget=budget, known=solution)
        run = _Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return SearchOutcome([], False, {}, stopped_by_budget=True)
        phased = self.phased
        givens = puzzle.givens.values
        guard = engine.fresh_guard()
        assumptions = engine.assumptions(givens)
        assumptions.append(guard)
        stats0 = engine.solver.accum_stats()
        free = engine.free_literals(solution.values, givens)
        clause = engine.blocking_clause(guard, free)
        solver = engine.solver
        if phased:
            engine.force_positive_phases()
            solver.set_phases(clause[:-1])
        try:
            solver.add_clause(clause)
            result = self._call(engine, assumptions, run)
            other = [engine.model_grid()] if result else []
            stats = self._stats_since(engine, stats0)
        finally:
            if phased:
                solver.set_phases(free)
            engine.retire(guard, self.recycle_after)
        return SearchOutcome(other, result is False, stats, stopped_by_budget=run.stopped)

    def _iter_solutions(
        self, puzzle: Puzzle, *, limit: int | None, budget: Budget, state: dict[str, bool]
    ) -> Iterator[Grid]:
        run = _Run(budget)
        engine = self._engine_within(puzzle.rules, run)
        if engine is None:
            return
        givens = puzzle.givens.values
        guard = engine.fresh_guard()
        assumptions = engine.assumptions(givens)
        assumptions.append(guard)
        engine.active_iterators += 1
        produced = 0
        try:
            while limit is None or produced < limit:
                result = self._call(engine, assumptions, run)
                if result is None:
                    return
                if result is False:
                    state["complete"] = True
                    return
                grid = engine.model_grid()
                engine.solver.add_clause(
                    engine.blocking_clause(guard, engine.free_literals(grid.values, givens))
                )
                produced += 1
                yield grid
        finally:
            engine.active_iterators -= 1
            if engine.solver is not None:
                engine.retire(guard, self.recycle_after)

    # -- for the generator -----------------------------------------------------------------
    def digit_is_forced(
        self,
        puzzle: Puzzle,
        cell: int,
        digit: int,
        *,
        budget: Budget | None = None,
        prefer: Grid | None = None,
    ) -> bool | None:
        """True when every solution of ``puzzle`` holds ``digit`` at ``cell``, that is when
        "givens + (cell != digit)" is unsatisfiable: one solver call, assumptions only;
        None when the budget ran out first.

        The generator's test for removing clue c from a unique puzzle with solution S:
        ``digit_is_forced(puzzle_without_c, c, S[c])`` is True exactly when the smaller
        puzzle is still unique. Vacuously True for a puzzle with no solution (clashing
        givens included).

        ``prefer``, a known solution, sets the solver's phases to it (where the solver has
        ``set_phases``): its literals positive, every other cell literal negative. Only
        the search order changes, never the answer. Measured on the first 60 SAT calls of
        one 25x25 generation with CaDiCaL: 11.0 s, against 13.2 s with the solver's saved
        phases and 16.7 s with all phases negative; setting only the known solution's
        literals positive on top of the uniqueness checks' all-positive phases took 21.9 s.

        Raises:
            IndexError: for a cell or digit outside the grid.
            UnsupportedPuzzleError: as :meth:`solve`.
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._require_supported(puzzle)
        n = puzzle.size
        if not (0 <= cell < puzzle.shape.cell_count and 1 <= digit <= n):
            raise IndexError(f"no cell {cell} / digit {digit} in a {n}x{n} grid")
        engine = self._engine(puzzle.rules)
        assumptions = engine.assumptions(puzzle.givens.values)
        assumptions.append(-(engine.bases[cell] + digit))
        if prefer is not None and self.info.phases:
            engine.prefer_phases(prefer)
        self._check_interrupt()
        run = _Run(self._budget(budget))
        direct = engine.direct
        if direct is not None and run.conflicts_left is None:
            result = self._solve_direct(engine, direct, assumptions, run)
        else:
            result = self._call(engine, assumptions, run)
        self._check_interrupt()
        return None if result is None else not result

    def removal_oracle(
        self, rules: RuleSet, solution: Grid, *, budget: Budget | None = None
    ) -> SatRemovalOracle:
        """See :class:`SatRemovalOracle`.

        Raises:
            ValueError: when ``solution`` is not a full grid of ``rules``.
            UnsupportedPuzzleError: for rules this backend does not handle.
        """
        self._require_rules(rules)
        if not is_full_grid(rules, solution):
            raise ValueError(f"the solution must be a full grid of the rules ({rules.shape.name})")
        return SatRemovalOracle(self, rules, solution, self._budget(budget))

    def removal_session(self, rules: RuleSet, solution: Grid) -> RemovalSession:
        """A solver of its own for removing clues from one full grid (see
        :class:`RemovalSession`). Loading it costs about as much as encoding the rules once
        into a solver (~0.4 s for 25x25, ~3 ms for 9x9).

        Raises:
            ValueError: when ``solution`` is not a full grid of ``rules``.
            UnsupportedPuzzleError: for rules this backend does not handle.
        """
        self._require_rules(rules)
        if not is_full_grid(rules, solution):
            raise ValueError("the solution of a removal session must be a full grid of the rules")
        session = RemovalSession(self, rules, solution)
        self._sessions.add(session)
        return session

    def random_model(
        self, puzzle: Puzzle, *, rng: random.Random | None = None, budget: Budget | None = None
    ) -> Grid | None:
        """A random solution of ``puzzle`` (a random full grid when it has no givens), or
        None when it has none or the budget ran out first.

        Randomness comes from random solver phases (where the solver has ``set_phases``)
        and, for a puzzle without givens under all-different rules only, a random
        relabelling of the digits (those rules are symmetric in the digits, so the
        relabelled grid is a solution too; cages, dots and the like are not). Not
        uniform over all grids. Uses its own solver per rule set, so the random phases do
        not slow down the uniqueness checks. That solver learns from each call, so the grid
        depends on the ``rng`` state *and* on the earlier calls: the same seeds on a fresh
        backend give the same grids. That is why it is not the contract's
        ``random_solution`` primitive (the generator's full grids must not depend on
        history).

        Raises:
            UnsupportedPuzzleError: as :meth:`solve`.
        """
        self._require_supported(puzzle)
        if puzzle.conflicts():
            return None
        rng = rng if rng is not None else random.Random()
        engine = self._engine(puzzle.rules, self._random_engines)
        n = puzzle.size
        if self.info.phases:
            lits = range(1, engine.cell_vars + 1)
            # Mostly negative phases: a positive phase on one digit in n keeps decisions
            # from fighting the at-most-one clauses while still spreading the digits.
            engine.solver.set_phases([v if rng.random() * n < 1 else -v for v in lits])
        result = self._call(
            engine, engine.assumptions(puzzle.givens.values), _Run(self._budget(budget))
        )
        if not result:  # None: the budget ran out
            return None
        grid = engine.model_grid()
        if puzzle.clues == 0 and not puzzle.rules.constraint_rules:
            relabel = list(range(1, n + 1))
            rng.shuffle(relabel)
            relabel.insert(0, 0)
            grid = Grid._trusted(grid.shape, tuple(relabel[v] for v in grid.values))
        return grid

    # -- certificates (issue 14) -------------------------------------------------------
    def certificate_refusal(self) -> str | None:
        """None when this solver writes trusted DRAT proofs (:data:`PROOF_SOLVERS`), else
        why it cannot certify."""
        if self.solver_name in PROOF_SOLVERS:
            if self.solver_name.startswith("cadical") and not _flushes_cadical_proofs():
                import pysat

                return (
                    f"pysat:{self.solver_name} cannot certify with python-sat "
                    f"{pysat.__version__}: before 1.9.dev16 its CaDiCaL proofs arrive "
                    "truncated (unflushed); upgrade python-sat, or certify with pysat:glucose4"
                )
            return None
        why = NO_PROOF.get(self.solver_name, "its proofs were not validated for certificates")
        return (
            f"pysat:{self.solver_name} cannot certify: {why}; certify with pysat:cadical195 "
            f"(the default) or one of {', '.join(sorted(PROOF_SOLVERS))}"
        )

    def certificate(
        self, rules: RuleSet, givens: Grid, *, budget: Budget | None = None
    ) -> Certificate:
        """See :meth:`sudoku_model.solving.Backend.certificate`. The verdict comes from
        :meth:`check_unique` (the long-lived solver); the refutation from a fresh solver
        created with ``with_proof=True`` and loaded with exactly the certified formula
        (encoding :data:`CERTIFICATE_ENCODING`), solved once without assumptions, so the
        proof covers that formula and nothing else. One budget covers both searches.

        Raises:
            CertificationUnsupported: for a solver without trusted proofs, or a rule kind
                the certificate encoding lacks.
            ValueError: when ``givens`` has another shape than ``rules``.
            RuntimeError: when the proof solver finds a model of a formula the verdict
                says has none (a solver bug; nothing is certified).
            SearchInterrupted: after :meth:`interrupt`.
        """
        start = time.perf_counter()
        refusal = self.certificate_refusal()
        if refusal is not None:
            raise CertificationUnsupported(refusal)
        puzzle = Puzzle(givens, rules)
        # Refused generically: a rule kind added later (killer cages, thermometers) is
        # never certified silently under an encoding that lacks it.
        odd_rules = uncertifiable(rules)
        if odd_rules is not None:
            raise CertificationUnsupported(odd_rules)
        self._require_supported(puzzle)
        budget = self._budget(budget)
        run = _Run(budget)
        self._refuse_budget(run)
        version = self.version()

        def answer(kind: VerdictKind, **fields: Any) -> Certificate:
            return Certificate(
                kind,
                puzzle,
                self.name,
                version,
                CERTIFICATE_ENCODING,
                time.perf_counter() - start,
                **fields,
            )

        if puzzle.is_contradictory:
            cells = puzzle.conflicts()[0].cells
            return answer(VerdictKind.CONTRADICTORY, clash=(cells[0], cells[1]))
        verdict = self.check_unique(puzzle, budget=budget)
        if verdict.kind is VerdictKind.MULTIPLE:
            return answer(VerdictKind.MULTIPLE, witnesses=verdict.witnesses[:2])
        if verdict.kind not in (VerdictKind.UNIQUE, VerdictKind.UNSOLVABLE):
            return answer(VerdictKind.UNKNOWN)
        n = puzzle.size
        values = givens.values
        clauses: list[tuple[int, ...]] = [(c * n + v,) for c, v in enumerate(values) if v]
        solution = verdict.solution
        if solution is not None:
            clauses.append(
                tuple(
                    -(c * n + s) for c, (g, s) in enumerate(zip(values, solution.values)) if not g
                )
            )
        cnf = encode_rules(rules, encoding="extended", amo="pairwise")
        solvers = _import_pysat()
        solver = solvers.Solver(name=self.solver_name, with_proof=True)
        try:
            solver.append_formula(cnf.clauses)
            solver.append_formula(clauses)
            quiet = None
            if self.info.limited and not self.info.interrupt:
                quiet = _quiet_solve_limited(solver, self.solver_name)
            result = self._call(cast(_Engine, _ProofEngine(solver, quiet)), [], run)
            if result is None:
                return answer(VerdictKind.UNKNOWN)
            if result:
                raise RuntimeError(
                    f"{self.name} answered {verdict.kind.value}, but the proof solver found a "
                    "model of the formula that should have none: a solver bug, not certified"
                )
            lines = solver.get_proof()
        finally:
            solver.delete()
        # Some solvers stop at a conflict found by propagation at the root without writing
        # the empty clause; it is a RUP step like any other, checked like any other.
        if not lines or lines[-1].strip() != "0":
            lines.append("0")
        return answer(
            verdict.kind,
            solution=solution,
            rule_clauses=cnf.clauses,
            puzzle_clauses=tuple(clauses),
            num_vars=cnf.num_vars,
            proof="\n".join(lines) + "\n",
        )

    def __del__(self) -> None:
        # At interpreter shutdown module globals (contextlib, PySAT) may already be None:
        # a plain try/except needs no global name.
        try:  # noqa: SIM105 - contextlib may be gone at shutdown
            self.close()
        except Exception:
            pass


class RemovalSession:
    """Uniqueness tests while clues are removed from one full grid S, in a solver of its
    own (from :meth:`PySATBackend.removal_session`): the generator's SAT calls from 16x16 up.

    The tests are those of :meth:`PySATBackend.digit_is_forced`: the givens are
    assumptions, the removed cells must differ from S somewhere (one assumption for one
    cell, a guarded clause for a group), the phases are S. What the shared solver cannot
    do: clues that will stay (the ones already shown necessary, ``fix=``) become unit
    clauses of this solver, so they sit at level 0 instead of being re-assumed after every
    conflict, and the learnt clauses do not mention them. Late in a 25x25 removal pass
    most givens are such clues: on the 266 SAT calls of one hard 25x25 puzzle the SAT time
    fell from 192 s to 101 s.

    Every call checks that each fixed clue is a given of S in the puzzle it is asked
    about (else ValueError: start a new session), so a unit clause never changes an
    answer. Not thread-safe.
    """

    def __init__(self, backend: PySATBackend, rules: RuleSet, solution: Grid) -> None:
        self._backend = backend
        self.rules = rules
        self.solution = solution
        self.fixed: set[int] = set()
        self._engine: _Engine | None = _Engine(
            rules, backend.info, backend.encoding, backend.amo, backend.solver_options
        )
        if backend.info.phases:
            self._engine.prefer_phases(solution)

    def compatible(self, givens: Sequence[int]) -> bool:
        """True when every fixed clue is a given (holding S's digit) in ``givens``."""
        sol = self.solution.values
        return all(givens[f] == sol[f] for f in self.fixed)

    def still_unique(
        self,
        givens: Sequence[int],
        removed: Sequence[int],
        *,
        fix: Iterable[int] = (),
        budget: Budget | None = None,
    ) -> bool | None:
        """True when the puzzle ``givens`` (0 = empty, the ``removed`` cells among the
        empty ones) has S as its only solution, False when it has another, None when the
        budget ran out. ``fix``: clues to keep as unit clauses from now on (those that are
        not givens here are ignored).

        Raises:
            ValueError: when ``givens`` has not one value per cell, ``removed`` is empty or
                names a cell that is not empty in ``givens``, a fixed clue is not a given
                of S here, or the session is closed.
        """
        engine = self._engine
        if engine is None:
            raise ValueError("this removal session is closed")
        if len(givens) != engine.cell_count:
            raise ValueError(
                f"givens has {len(givens)} values; the grid has {engine.cell_count} cells"
            )
        if not removed or not all(0 <= c < engine.cell_count and not givens[c] for c in removed):
            raise ValueError(f"the removed cells {list(removed)} must be empty cells of givens")
        if not self.compatible(givens):
            raise ValueError("a fixed clue of this removal session is not a given here")
        sol = self.solution.values
        bases = engine.bases
        solver = engine.solver
        for f in fix:
            if f not in self.fixed and givens[f] and givens[f] == sol[f]:
                solver.add_clause([bases[f] + sol[f]])
                self.fixed.add(f)
        fixed = self.fixed
        assumptions = [bases[c] + v for c, v in enumerate(givens) if v and c not in fixed]
        guard = 0
        if len(removed) == 1:
            assumptions.append(-(bases[removed[0]] + sol[removed[0]]))
        else:
            guard = engine.fresh_guard()
            solver.add_clause([-(bases[c] + sol[c]) for c in removed] + [-guard])
            assumptions.append(guard)
        try:
            result = self._backend._call(engine, assumptions, _Run(self._backend._budget(budget)))
        finally:
            if guard:
                solver.add_clause([-guard])
        return None if result is None else not result

    def close(self) -> None:
        """Free the solver (also done when the backend is closed)."""
        if self._engine is not None:
            self._engine.delete()
            self._engine = None


class SatRemovalOracle(RemovalOracle):
    """PySAT's fast path of :meth:`~sudoku_model.solving.Backend.removal_oracle`.

    A call asks the backend's long-lived solver: for each removed cell c (at most
    :attr:`GROUP_LIMIT` of them), "the givens + (c != S[c])" under assumptions with S as
    the phases (:meth:`PySATBackend.digit_is_forced`), pinning c to S[c] for the next
    cell; a larger group is one ``check_unique(solution=S)``. With the backend's
    ``reduce_from`` (and a grid that large, without constraint rules) every call is one
    search for another solution in a fresh solver loaded with the givens' reduced CNF
    (see :class:`ReducedCNF`). Otherwise, with the backend's
    ``removal_session_after=K``, calls after the first K go to a :class:`RemovalSession`
    of this grid, where the clues shown necessary (its own answers and
    :meth:`note_necessary`) are unit clauses; a new session is loaded when a later call
    removes one of them.
    """

    #: Above this many removed cells, one "another solution?" search beats one call each.
    GROUP_LIMIT = 6

    def __init__(
        self, backend: PySATBackend, rules: RuleSet, solution: Grid, budget: Budget
    ) -> None:
        super().__init__(rules, solution, budget)
        self._backend = backend
        self._calls = 0
        self._session: RemovalSession | None = None
        self._necessary: set[int] = set()

    def note_necessary(self, cells: Iterable[int]) -> None:
        self._necessary.update(cells)

    def still_unique(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        self._check(givens)
        backend = self._backend
        if backend.reduce_from is not None and backend._reduces(
            Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        ):
            answer = self._reduced(givens, removed)
            if answer is False and len(removed) == 1:
                self._necessary.add(removed[0])
            return answer
        after = self._backend.removal_session_after
        if after is None or self._calls < after:
            self._calls += 1
            answer = self._shared(givens, removed)
        else:
            session = self._session
            if session is None or not session.compatible(givens):
                if session is not None:
                    session.close()
                session = self._session = self._backend.removal_session(self.rules, self.solution)
            answer = session.still_unique(givens, removed, fix=self._necessary, budget=self.budget)
        if answer is False and len(removed) == 1:
            self._necessary.add(removed[0])
        return answer

    def _reduced(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        """ "Another solution than S?" in a fresh solver with the givens' reduced CNF (the
        backend's ``reduce_from``): the puzzle was unique before the removed cells were
        emptied, so another solution differs from S in one of them."""
        puzzle = Puzzle(Grid._trusted(self.rules.shape, tuple(givens)), self.rules)
        outcome = self._backend._search_reduced(
            puzzle, limit=1, budget=self.budget, known=self.solution, differ_in=removed
        )
        if outcome.solutions:
            return False
        return True if outcome.complete else None

    def _shared(self, givens: Sequence[int], removed: Sequence[int]) -> bool | None:
        backend = self._backend
        rules = self.rules
        solution = self.solution
        shape = rules.shape
        if len(removed) > self.GROUP_LIMIT:
            puzzle = Puzzle(Grid._trusted(shape, tuple(givens)), rules)
            kind = backend.check_unique(puzzle, solution=solution, budget=self.budget).kind
            if kind is VerdictKind.UNIQUE:
                return True
            return False if kind is VerdictKind.MULTIPLE else None
        values = list(givens)
        sol = solution.values
        for cell in removed:
            puzzle = Puzzle(Grid._trusted(shape, tuple(values)), rules)
            forced = backend.digit_is_forced(
                puzzle, cell, sol[cell], budget=self.budget, prefer=solution
            )
            if not forced:
                return forced  # False, or None when the budget ran out
            values[cell] = sol[cell]  # solutions differing at this cell are ruled out
        return True

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


# PySAT's own finalisers fail once the interpreter has torn its C module down: free every
# live solver while it still can.
_LIVE: weakref.WeakSet[PySATBackend] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for backend in list(_LIVE):
        backend.close()


def _probe_rules() -> RuleSet:
    from sudoku_model.geometry import Shape

    return RuleSet.classic(Shape(2, 2))


def create(sub: str | None = None, **options: Any) -> PySATBackend:
    """Entry-point factory: ``get_backend("pysat:glucose4", encoding="minimal")``.

    Raises:
        ValueError: for an unknown or refused solver name or option.
    """
    return PySATBackend(sub, **options)
