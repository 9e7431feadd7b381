"""A thread that turns a deadline into a solver's ``interrupt()`` (the MiniSat family's
seconds budget)."""

from __future__ import annotations

import threading
import time
from typing import Any


# -- the watchdog that turns a deadline into solver.interrupt() ------------------------------
class Watchdog:
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
