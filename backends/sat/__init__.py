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

The package, one concern a module: :mod:`.solvers` (the solver table, aliases, tunings),
:mod:`.internals` (every use of PySAT's internals and of :mod:`._satread`, behind one
fence: see there), :mod:`.encoder` (encoding in a helper thread), :mod:`.watchdog`,
:mod:`.engine` (a rule set loaded into a long-lived solver, a search's limits),
:mod:`.calls` (one solver call under a search's limits), :mod:`.search` (the searches),
:mod:`.backend` (:class:`PySATBackend`), :mod:`.certificates`, :mod:`.removal` (the
removal oracle and session). The encoding of one puzzle's reduced CNF is
:class:`backends.cnf.reduced.ReducedCNF`.
"""

from __future__ import annotations

from ..cnf.reduced import ReducedCNF
from .backend import REDUCE_FROM, PySATBackend, create
from .calls import FIRST_SLICE
from .engine import RECYCLE_AFTER
from .removal import RemovalSession, SatRemovalOracle
from .solvers import (
    CADICAL_TUNING,
    DEFAULT_SOLVER,
    NO_PROOF,
    PROOF_SOLVERS,
    REDUCED_TUNING,
    REFUSED,
    SOLVERS,
    resolve_solver_name,
    solver_names,
)

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
    "REDUCED_TUNING",
    "FIRST_SLICE",
    "resolve_solver_name",
    "solver_names",
    "PROOF_SOLVERS",
    "NO_PROOF",
]
