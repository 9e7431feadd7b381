"""Every use of PySAT's internals by this backend, behind one fence.

PySAT's public API is the ``pysat.solvers.Solver`` class. The backend's hot path goes
below it, in three ways, all of them here and nowhere else:

- :func:`quiet_solve_limited`: a CaDiCaL solve through PySAT's C entry point
  ``pysolvers.<solver>_solve_lim`` with ``main_thread=0`` (no SIGINT handler that
  ``longjmp``s out of the solver), writing the wrapper's private ``status`` and
  ``prev_assumps`` so that ``get_model()`` still works;
- :class:`Direct`: the C entry points of a CaDiCaL solver (solve, model, add a clause,
  phases, conflict budget, counters) called without PySAT's Python wrappers;
- :class:`GridReader`: :mod:`backends.sat._satread`, which binds the Itanium-mangled
  ``CaDiCaL::Solver::val`` inside PySAT's own extension and reads a grid in C.

None of them is documented by PySAT, so they are used only where they were tested: the
fence is open when the installed python-sat is one of :data:`TESTED_VERSIONS` and the
environment variable :data:`ENV_SWITCH` is not ``0`` (nor ``false``, ``no``, ``off``).
Behind a closed fence every binder answers None and the backend takes PySAT's public
methods: the same answers, a little slower (``tests/benchmarks/bench_pysat_overhead.py``).
The switch is read each time a solver is built, so a change of it applies to the next
solver. :func:`bindings_made` counts the bindings handed out, for the tests that check a
closed fence binds nothing.

The one fact about a version that correctness depends on, whether CaDiCaL's proofs arrive
whole (:func:`flushes_cadical_proofs`), is here too, beside the other version checks.
"""

from __future__ import annotations

import os
import re
from typing import Any

from .solvers import import_pysat

__all__ = [
    "ENV_SWITCH",
    "TESTED_VERSIONS",
    "Direct",
    "GridReader",
    "bindings_made",
    "fast_path_enabled",
    "fast_path_refusal",
    "flushes_cadical_proofs",
    "grid_reader",
    "interrupted_error",
    "quiet_solve_limited",
]

#: The environment variable that closes the fence: ``SUDOKU_MODEL_PYSAT_FAST=0``.
ENV_SWITCH = "SUDOKU_MODEL_PYSAT_FAST"
_OFF = frozenset({"0", "false", "no", "off"})

#: The python-sat versions whose internals were tested with this backend (its tests with
#: the fence open: the C entry points, the grid reader, certificates); pyproject.toml pins
#: python-sat to their range (1.9.dev18-20 and 23 were never published).
TESTED_VERSIONS = frozenset({"1.9.dev16", "1.9.dev17", "1.9.dev21", "1.9.dev22", "1.9.dev24"})

_bindings = 0


def _pysat_version() -> str:
    import pysat

    return str(pysat.__version__)


def fast_path_refusal() -> str | None:
    """None when the fence is open, else why it is closed (for messages and tests)."""
    if os.environ.get(ENV_SWITCH, "").strip().lower() in _OFF:
        return f"{ENV_SWITCH} switches it off"
    version = _pysat_version()
    if version not in TESTED_VERSIONS:
        return f"python-sat {version} is not one of the tested versions"
    return None


def fast_path_enabled() -> bool:
    """True when the backend may use PySAT's internals (see the module docs)."""
    return fast_path_refusal() is None


def bindings_made() -> int:
    """How many bindings to PySAT's internals this process has handed out so far."""
    return _bindings


def _count() -> None:
    global _bindings
    _bindings += 1


def _version_numbers(version: str) -> tuple[int, int, int | None] | None:
    """(major, minor, dev number or None) of a python-sat version, None for an unknown
    scheme."""
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.?dev(\d+))?", version)
    if m is None:
        return None
    return int(m[1]), int(m[2]), None if m[4] is None else int(m[4])


def flushes_cadical_proofs(version: str | None = None) -> bool:
    """Whether python-sat ``version`` (default: the installed one) hands out CaDiCaL proofs
    whole (1.9.dev16 and later: earlier builds read the proof before CaDiCaL flushed its
    last lines). Certificates depend on it, not on the fence: a CaDiCaL solver of an
    older python-sat refuses to certify."""
    numbers = _version_numbers(_pysat_version() if version is None else version)
    if numbers is None:
        return True  # an unknown scheme is newer than any we know
    major, minor, dev = numbers
    if (major, minor) != (1, 9):
        return (major, minor) > (1, 9)
    return dev is None or dev >= 16


def interrupted_error() -> type[BaseException]:
    """The exception PySAT's C module raises when its SIGINT handler stopped a solve
    (``pysolvers.error``); a class nothing raises when this build has none. Only caught,
    never a binding: used behind a closed fence too."""
    solvers = import_pysat()
    error = getattr(getattr(solvers, "pysolvers", None), "error", None)
    if isinstance(error, type) and issubclass(error, BaseException):
        return error
    return _NeverRaised


class _NeverRaised(Exception):
    """Stands for ``pysolvers.error`` where a build has none."""


def quiet_solve_limited(solver: Any, name: str) -> Any:
    """``solve_limited`` of a CaDiCaL solver without PySAT's SIGINT handler.

    PySAT's CaDiCaL wrappers take ``main_thread`` from the calling thread and, in the main
    thread, replace the SIGINT handler by one that ``longjmp``s out of the solver; the
    solver is then in an invalid state and its next use aborts the process. The C entry
    point takes the flag as an argument: 0 leaves Python's handler in place (the solve
    runs in slices, so the handler runs within a slice). Returns None behind a closed
    fence or when this PySAT build lacks that entry point (the public method is used then).
    """
    if not fast_path_enabled():
        return None
    solvers = import_pysat()
    inner = solver.solver
    fn = getattr(getattr(solvers, "pysolvers", None), f"{name}_solve_lim", None)
    handle = getattr(inner, "cadical", None)
    if fn is None or handle is None:
        return None
    _count()

    def solve_limited(assumptions: list[int]) -> bool | None:
        raw = fn(handle, assumptions, 0)
        status = None if raw == 0 else raw > 0
        inner.status = status  # get_model() reads it
        inner.prev_assumps = assumptions
        return status

    return solve_limited


class Direct:
    """The C entry points of a CaDiCaL solver of PySAT, called without PySAT's Python
    wrappers (the hot path of :meth:`PySATBackend._search`).

    A wrapper costs a Python call or two per use, and ``set_phases`` also reconfigures
    ``lucky`` on every call: about a tenth of a uniqueness check on an easy puzzle.
    ``solve`` runs without PySAT's SIGINT handler (see :func:`quiet_solve_limited`) and
    does not record its status in the wrapper: a caller that goes on with the wrapper
    (``get_model``) must solve through the wrapper or :func:`quiet_solve_limited`.
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
    def of(solver: Any, name: str) -> Direct | None:
        """The entry points of ``solver`` (a ``pysat.solvers.Solver`` named ``name``), or
        None behind a closed fence or when this PySAT build lacks one of them."""
        if not fast_path_enabled():
            return None
        solvers = import_pysat()
        module = getattr(solvers, "pysolvers", None)
        handle = getattr(solver.solver, "cadical", None)
        names = ("solve_lim", "model", "add_cl", "setphases", "cbudget", "acc_stats")
        fns = {k: getattr(module, f"{name}_{k}", None) for k in names}
        if handle is None or None in fns.values():
            return None
        _count()
        return Direct(handle, fns)


#: PySAT solver name -> the mangled name of its CaDiCaL's ``int Solver::val(int)``, the
#: symbol :mod:`backends.sat._satread` binds (CaDiCaL 3.0.0's ``val`` takes a second argument:
#: not bound, its models are read through PySAT).
_VAL_SYMBOLS = {
    "cadical103": "_ZN10CaDiCaL1036Solver3valEi",
    "cadical153": "_ZN10CaDiCaL1536Solver3valEi",
    "cadical195": "_ZN10CaDiCaL1956Solver3valEi",
}
#: :func:`grid_reader`'s answers, per solver name.
_GRID_READERS: dict[str, GridReader | None] = {}


class GridReader:
    """Reads the grid of a satisfied CaDiCaL solver of PySAT in C (:mod:`backends.sat._satread`:
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


def grid_reader(name: str) -> GridReader | None:
    """The :class:`GridReader` of the PySAT solver ``name``, or None when this solver,
    platform or PySAT build gives none, behind a closed fence, or when it reads a test
    model of its own wrongly: models are then read through PySAT."""
    if not fast_path_enabled():
        return None
    if name not in _GRID_READERS:
        _GRID_READERS[name] = bind_grid_reader(name)
    reader = _GRID_READERS[name]
    if reader is not None:
        _count()
    return reader


def bind_grid_reader(name: str) -> GridReader | None:
    """A new :class:`GridReader` of the PySAT solver ``name``, checked on a test model of
    its own (see :func:`grid_reader`, which keeps the answer); None where it does not bind
    or misreads. Binds even behind a closed fence: only :func:`grid_reader` hands readers
    out."""
    symbol = _VAL_SYMBOLS.get(name)
    if symbol is None:
        return None
    try:
        from . import _satread
    except ImportError:  # compiled on every install; absent only in an unbuilt tree
        return None
    solvers = import_pysat()
    library = getattr(getattr(solvers, "pysolvers", None), "__file__", None)
    if not isinstance(library, str):
        return None
    slot = _satread.bind(library, symbol)
    if slot < 0:
        return None
    reader = GridReader(slot, _satread.grid)
    # A test model of three 2-digit cells, read both ways: cells 0 and 1 fixed (digits 2
    # and 1), cell 2 digit 2 and, under the assumption 5, digit 1 as well (no answer).
    solver = solvers.Solver(name=name)
    try:
        direct = Direct.of(solver, name)
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
