"""Type stub of the compiled DRAT checker (see sudoku_model/drat.c)."""

from typing_extensions import Buffer

VALID: int
INVALID: int
MALFORMED: int
UNKNOWN: int

class Formula:
    def __init__(self, num_vars: int, clauses: Buffer) -> None: ...
    @property
    def num_vars(self) -> int: ...
    @property
    def num_clauses(self) -> int: ...
    def check(
        self, clauses: Buffer, proof: Buffer, *, work: int = -1, seconds: float = -1.0
    ) -> tuple[int, int, str, tuple[int, ...], int, int, int, int, int]: ...
