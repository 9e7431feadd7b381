"""Running a blocking solver call in a helper thread, shared by the backends.

Python runs signal handlers only between bytecodes of the main thread, so a long C call
there (a native search, a PySAT solve, a CP-SAT solve) would hold back Ctrl-C and SIGTERM
until it ends. The backends run such calls in a helper thread while the main thread waits in
short timed waits (at most :data:`SLICE_SECONDS` each), during which handlers run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["SLICE_SECONDS", "Background", "in_main_thread", "wait_in_slices"]

#: Longest a blocking call holds the main thread before Python's signal handlers get a chance.
SLICE_SECONDS = 0.05


def in_main_thread() -> bool:
    """True in the thread where Python runs signal handlers."""
    return threading.current_thread() is threading.main_thread()


class Background:
    """``call()`` started at once in a helper thread; :meth:`result` returns its value or
    raises its exception in the waiting thread."""

    def __init__(self, call: Callable[[], Any], *, name: str, daemon: bool = True) -> None:
        self._done = threading.Event()
        self._box: list[Any] = []

        def work() -> None:
            try:
                self._box.append(call())
            except BaseException as exc:  # handed to the waiting thread
                self._box.append(exc)
            finally:
                self._done.set()

        threading.Thread(target=work, name=name, daemon=daemon).start()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the call has ended (waiting at most ``timeout`` seconds)."""
        return self._done.wait(timeout)

    def result(self) -> Any:
        """The call's value, or its exception raised here (only after :meth:`wait` said True).

        Raises:
            BaseException: whatever the call raised.
        """
        value = self._box[0]
        if isinstance(value, BaseException):
            raise value
        return value


def wait_in_slices(
    call: Callable[[], Any],
    *,
    name: str,
    stop: Callable[[], Callable[[], None] | None],
    poll: Callable[[], None] | None = None,
) -> Any:
    """``call()`` in a helper thread while this thread waits in slices of
    :data:`SLICE_SECONDS`, running ``poll()`` after each.

    When a signal handler raises here (Ctrl-C), ``stop()`` asks the call to end and returns
    either None (leave at once) or a function to run once the call has ended; then the
    exception goes on.

    Raises:
        BaseException: what the call raised, or what a signal handler raised while waiting.
    """
    job = Background(call, name=name)
    try:
        while not job.wait(SLICE_SECONDS):
            if poll is not None:
                poll()
    except BaseException:
        after = stop()
        if after is not None:
            job.wait()
            after()
        raise
    return job.result()
