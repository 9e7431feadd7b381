"""Plain classic 9x9 lines read and answered in bulk (native_backtrack/bulk.c): columns
of values, no text."""

from typing_extensions import Buffer

UNIQUE: int
MULTIPLE: int
MULTIPLE_BARE: int
UNSOLVABLE: int
UNKNOWN: int
CONTRADICTORY: int
OTHER: int
INTERRUPTED: int

def solve_lines(
    text: Buffer, count: int, *, nodes: int = -1, seconds: float = -1.0
) -> tuple[int, bytes, bytes, bytes, bytes, bytes, int, int, int, float, bool]: ...
