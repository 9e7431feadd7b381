"""One PySAT call under a search's limits, and the solver of a rule set to call.

:class:`SolverCalls` is the layer of :class:`~backends.sat.backend.PySATBackend` that
looks up (or builds, within the budget) the long-lived solver of a rule set and runs one
solve under a :class:`~backends.sat.engine.Run`'s deadline and conflicts: the MiniSat
family interrupted by the :class:`~backends.sat.watchdog.Watchdog`, CaDiCaL in slices of
conflicts, Lingeling without limits (see the package docs on budgets and interruption).
"""

from __future__ import annotations

import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import wait as futures_wait
from typing import Any, cast

from sudoku_model.errors import SearchInterrupted, UnsupportedPuzzleError
from sudoku_model.rules import RuleSet
from sudoku_model.solving import Backend

from ..threads import SLICE_SECONDS, in_main_thread, wait_in_slices
from .encoder import encode_in_background
from .engine import STAT_NAMES, Engine, Run
from .internals import Direct, interrupted_error
from .solvers import SolverInfo, import_pysat
from .watchdog import Watchdog

#: Conflicts of the first slice of a CaDiCaL solve (later slices are sized from the
#: measured rate, see PySATBackend._call_in_slices).
FIRST_SLICE = 1000

# Solvers left in an unknown state by PySAT's SIGINT handler (Lingeling): never freed.
_POISONED: list[Any] = []


def _public_solve_limited(s: Any) -> Callable[[list[int]], bool | None]:
    """PySAT's public ``solve_limited`` of a CaDiCaL solver ``s``, for a closed fence of
    :mod:`backends.sat.internals` (no :func:`~backends.sat.internals.quiet_solve_limited`).

    Called from the main thread, PySAT's CaDiCaL wrapper installs its own SIGINT handler,
    which ``longjmp``s out of the solver and leaves it unusable (its next use aborts the
    process). So in the main thread each slice runs in a helper thread, where PySAT installs
    no handler, while the main thread waits and Python's handlers run (see
    :func:`_off_main_thread`). A thread per slice costs ~0.1 ms: the price of the public
    path.
    """
    if not in_main_thread():
        return cast(Callable[[list[int]], bool | None], s.solve_limited)

    def solve_limited(assumptions: list[int]) -> bool | None:
        result: bool | None = _off_main_thread(lambda: s.solve_limited(assumptions))
        return result

    return solve_limited


def _off_main_thread(call: Callable[[], Any]) -> Any:
    """``call()`` in a helper thread while this thread waits in timed waits (Python's signal
    handlers run between them).

    A handler that raises, wherever it lands (in the thread's start too), never leaves the
    call running behind the caller's back: a call that has not begun is cancelled, one that
    has is waited for (a CaDiCaL slice is about :data:`SLICE_SECONDS`; further signals
    meanwhile are ignored), then the exception goes on.

    Raises:
        BaseException: what the call raised, or what a signal handler raised meanwhile.
    """
    done = threading.Event()
    lock = threading.Lock()
    state = {"began": False, "cancelled": False}
    box: list[Any] = []

    def work() -> None:
        with lock:
            if state["cancelled"]:
                return
            state["began"] = True
        try:
            box.append(call())
        except BaseException as exc:  # handed to the waiting thread
            box.append(exc)
        finally:
            done.set()

    try:
        threading.Thread(target=work, name="pysat-slice", daemon=True).start()
        while not done.wait(SLICE_SECONDS):
            pass
    except BaseException:
        with lock:
            state["cancelled"] = True
            began = state["began"]
        while began:
            try:
                done.wait()
                break
            except BaseException:  # a second signal: the slice ends soon
                continue
        raise
    value = box[0]
    if isinstance(value, BaseException):
        raise value
    return value


class SolverCalls(Backend):
    """The solver look-ups and solver calls of :class:`~backends.sat.backend.PySATBackend`
    (which sets these attributes)."""

    info: SolverInfo
    encoding: str
    amo: str
    solver_options: dict[str, int]
    max_rule_sets: int
    _engines: OrderedDict[RuleSet, Engine]
    _watchdog: Watchdog | None
    _solving: set[Any]

    # -- engines ---------------------------------------------------------------------
    def _engine(self, rules: RuleSet, table: OrderedDict | None = None) -> Engine:
        table = self._engines if table is None else table
        base = rules.base
        engine = self._usable(table, base)
        if engine is None:
            engine = Engine(base, self.info, self.encoding, self.amo, self.solver_options)
            self._remember(table, base, engine)
        elif not engine.fully_loaded:
            engine.load()
        engine.activate(rules)
        return engine

    def _engine_within(
        self, rules: RuleSet, run: Run, table: OrderedDict | None = None
    ) -> Engine | None:
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
            future = encode_in_background(rules, self.encoding, self.amo)
            while not future.done():
                if stop():
                    self._check_interrupt()
                    run.stopped = True
                    return None
                # a timed wait: signal handlers and interrupt() get their turn
                futures_wait([future], timeout=SLICE_SECONDS)
            engine = Engine(
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
    def _usable(table: OrderedDict, rules: RuleSet) -> Engine | None:
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

    def _remember(self, table: OrderedDict, rules: RuleSet, engine: Engine) -> None:
        table[rules] = engine
        while len(table) > self.max_rule_sets:
            _, old = table.popitem(last=False)
            if old.active_iterators == 0:
                old.delete()

    # -- one solver call under the run's limits ------------------------------------------
    def _call(self, engine: Engine, assumptions: list[int], run: Run) -> bool | None:
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

    def _call_interruptible(self, s: Any, assumptions: list[int], run: Run) -> bool | None:
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

    def _call_in_slices(self, engine: Engine, assumptions: list[int], run: Run) -> bool | None:
        # No interrupt (CaDiCaL): run slices of conflicts and look at the clock and the
        # interrupt flag between them; the slice is sized from the measured rate so that one
        # slice takes about SLICE_SECONDS.
        s = engine.solver
        solve_limited = engine.solve_limited or _public_solve_limited(s)
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

    def _refuse_budget(self, run: Run) -> None:
        """A finite budget for a solver that cannot be limited (Lingeling) is refused before
        anything is built."""
        if not self.info.limited and (run.deadline is not None or run.conflicts_left is not None):
            raise UnsupportedPuzzleError(
                f"{self.name} cannot honour a seconds or conflicts budget (PySAT can neither "
                "limit nor interrupt Lingeling); use another solver, or an unlimited budget: "
                "Budget() in Python, --budget-seconds inf on the command line"
            )

    def _call_unlimited(self, engine: Engine, assumptions: list[int], run: Run) -> bool:
        """Lingeling: no limit and no interrupt in PySAT, so a finite budget is refused.
        In the main thread PySAT's SIGINT handler is the only way out of a solve: after it
        jumped out, the solver is set aside (never used nor freed again), Python's handler is
        put back and the signal delivered to it."""
        self._refuse_budget(run)
        solvers = import_pysat()
        s = engine.solver
        try:
            return bool(s.solve(assumptions))
        except interrupted_error():
            _POISONED.append(s)
            engine.solver = solvers.Solver(name=self.info.name)  # a harmless stand-in
            engine.stale = True
            if in_main_thread():
                signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))
                signal.raise_signal(signal.SIGINT)
            raise SearchInterrupted(f"backend {self.name}: search interrupted") from None

    def _stats_since(self, engine: Engine, before: dict[str, int]) -> dict[str, Any]:
        after = engine.solver.accum_stats()
        return {k: after.get(k, 0) - before.get(k, 0) for k in STAT_NAMES}

    def _solve_direct(
        self, engine: Engine, direct: Direct, assumptions: list[int], run: Run
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
