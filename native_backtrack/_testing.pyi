"""Type stub of the backtracker's test build (native_backtrack/core.c with NB_TESTING):
the API of native_backtrack._core, as a separate copy, plus the hooks for tests and
benchmarks."""

from ._core import *  # noqa: F403

def fail_allocation_after(k: int, /) -> None: ...
def c9_isa(name: str | None = None, /) -> str: ...
