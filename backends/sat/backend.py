"""The PySAT backend's class, :class:`PySATBackend`, and its factory :func:`create`.

Its options and tables are set here; the searches are inherited from
:class:`~backends.sat.search.Searches` (above :class:`~backends.sat.calls.SolverCalls`),
the certificates are :mod:`backends.sat.certificates`, the removal oracle and session
:mod:`backends.sat.removal`. :meth:`PySATBackend.close` frees every solver the backend
holds; a backend that is collected, or still alive at interpreter exit, is closed then
(a safety net: the contract's way is ``close()``).
"""

from __future__ import annotations

import atexit
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from sudoku_model.grid import Grid
from sudoku_model.rules import RULE_KINDS, RuleSet
from sudoku_model.solving import (
    Budget,
    Capabilities,
    Certificate,
    is_full_grid,
)

from ..cnf import DEFAULT_AMO, DEFAULT_ENCODING, encode_rules
from .certificates import certificate_refusal, certify
from .engine import RECYCLE_AFTER, Engine
from .removal import RemovalSession, SatRemovalOracle
from .search import Searches
from .solvers import CADICAL_TUNING, SOLVERS, import_pysat, resolve_solver_name
from .watchdog import Watchdog

__all__ = ["REDUCE_FROM", "PySATBackend", "create"]

#: Default ``reduce_from`` of :class:`PySATBackend`: the grid size from which a puzzle is
#: searched in a fresh solver with its givens-simplified CNF (see :class:`ReducedCNF`).
#: At 16x16 the long-lived solver is as fast (median 15-18 ms on minimal puzzles, 1 ms on
#: 16x16-100.csv against 7 ms); at 25x25 it is 5-10x slower on minimal puzzles.
REDUCE_FROM = 25


class PySATBackend(Searches):
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
            large grids sets it, see the removal route of ``backends.auto.ROUTES``).
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
        solvers = import_pysat()
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
        self._engines: OrderedDict[RuleSet, Engine] = OrderedDict()
        self._random_engines: OrderedDict[RuleSet, Engine] = OrderedDict()
        self._watchdog = Watchdog() if self.info.interrupt else None
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
        """Delete every solver this backend holds: the long-lived solvers of its rule sets,
        those of :meth:`random_model` and those of its removal sessions (a
        :class:`SatRemovalOracle` opens a new session when it needs one; a
        :class:`RemovalSession` refuses further calls). The backend stays usable: a later
        call builds the solvers it needs again. Call it when done; a backend that is
        collected, or still alive at interpreter exit, is closed then as a safety net."""
        for table in (self._engines, self._random_engines):
            for engine in table.values():
                engine.delete()
            table.clear()
        for session in list(self._sessions):
            session.close()

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

    # -- certificates ------------------------------------------------------------------
    def certificate_refusal(self) -> str | None:
        """None when this solver writes trusted DRAT proofs (:data:`PROOF_SOLVERS`), else
        why it cannot certify."""
        return certificate_refusal(self.solver_name)

    def certificate(
        self, rules: RuleSet, givens: Grid, *, budget: Budget | None = None
    ) -> Certificate:
        """See :meth:`sudoku_model.solving.Backend.certificate` and
        :func:`backends.sat.certificates.certify`.

        Raises:
            CertificationUnsupported: for a solver without trusted proofs, or a rule kind
                the certificate encoding lacks.
            ValueError: when ``givens`` has another shape than ``rules``.
            RuntimeError: when the proof solver finds a model of a formula the verdict
                says has none (a solver bug; nothing is certified).
            SearchInterrupted: after :meth:`interrupt`.
        """
        return certify(self, rules, givens, budget=budget)

    def __del__(self) -> None:
        # At interpreter shutdown module globals (contextlib, PySAT) may already be None:
        # a plain try/except needs no global name.
        try:  # noqa: SIM105 - contextlib may be gone at shutdown
            self.close()
        except Exception:
            pass


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
