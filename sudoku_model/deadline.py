"""A wall-clock deadline over a piece of work made of many searches (one generated puzzle).

A :class:`~sudoku_model.solving.Budget` bounds one search; a piece of work that asks
hundreds of searches (the removal pass of a 25x25 puzzle) can take hundreds of budgets.
:class:`Watchdog` bounds the whole: :meth:`Watchdog.arm` sets a deadline, and when it
passes a thread of its own calls the function it was given (the caller's backend's
``interrupt()``, which only sets flags), so that the searches in flight stop within the
backend's interrupt latency, whichever primitive or fallback runs them. :meth:`disarm`
ends the watch and says whether it fired; after it returns, the function is not called
for that deadline.

The thread is started on the first :meth:`arm` and ends after a second without one, so a
batch of puzzles shares one thread and an idle engine holds none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["Watchdog"]

#: Seconds an unarmed watchdog's thread waits for the next deadline before it ends.
IDLE_SECONDS = 1.0


class Watchdog:
    """Calls ``fire`` once when an armed deadline passes (see the module notes)."""

    def __init__(self, fire: Callable[[], None]) -> None:
        self._fire = fire
        self._cond = threading.Condition()
        self._at: float | None = None
        self._fired = False
        self._thread: threading.Thread | None = None
        self._sleeping_until = 0.0  # when the thread wakes up next (inf: when notified)

    def arm(self, seconds: float) -> None:
        """Watch a deadline ``seconds`` from now (replacing any other).

        Raises:
            ValueError: for a negative or NaN number of seconds.
        """
        if not seconds >= 0:
            raise ValueError(f"a deadline needs non-negative seconds, got {seconds!r}")
        with self._cond:
            at = self._at = time.perf_counter() + seconds
            self._fired = False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="deadline", daemon=True)
                self._thread.start()
            elif at < self._sleeping_until:  # else it wakes in time and sees the new one
                self._cond.notify()

    def disarm(self) -> bool:
        """Stop watching; True when the deadline passed and ``fire`` was called."""
        with self._cond:  # the thread wakes when it planned to and finds nothing to do
            fired = self._fired
            self._at = None
            self._fired = False
        return fired

    @property
    def fired(self) -> bool:
        """Whether the armed deadline has passed (and ``fire`` was called)."""
        return self._fired

    def _run(self) -> None:
        with self._cond:
            while True:
                at = self._at
                now = time.perf_counter()
                if at is None:
                    self._sleeping_until = now + IDLE_SECONDS
                    if not self._cond.wait(IDLE_SECONDS) and self._at is None:
                        self._thread = None
                        return
                    continue
                if at > now:
                    self._sleeping_until = at
                    self._cond.wait(at - now)
                    continue
                # Under the lock: disarm() cannot return before fire() is done, so a fire
                # never lands after the watch it belonged to.
                self._at = None
                self._fired = True
                self._fire()
