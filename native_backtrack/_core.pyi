"""Type stub of the compiled module (see native_backtrack/core.c)."""

from collections.abc import Iterable, Sequence

from typing_extensions import Buffer

EXHAUSTED: int
LIMIT: int
BUDGET: int
CONTRADICTORY: int
INVALID: int
INTERRUPTED: int
MAX_SIZE: int

def grid_values(cells: Buffer, /) -> tuple[int, ...]: ...
def interrupt() -> None: ...
def clear_interrupt() -> None: ...
def interrupted() -> bool: ...

class Model:
    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        pairs: Sequence[int] | Sequence[tuple[int, int]],
        *,
        locked: bool = True,
        relations: Iterable[tuple[Iterable[tuple[int, int]], Iterable[tuple[int, int]]]]
        | None = None,
        domains: Iterable[tuple[int, Iterable[int]]] | None = None,
        sums: Iterable[tuple[Sequence[int], Sequence[int], int, bool]] | None = None,
        sandwiches: Iterable[tuple[Sequence[int], int]] | None = None,
        tables: Iterable[tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]]] | None = None,
    ) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def classic9(self) -> bool: ...
    @property
    def full_units(self) -> int: ...
    @property
    def locked_pairs(self) -> int: ...
    def solve(
        self,
        givens: Buffer,
        *,
        limit: int = 1,
        keep: int | None = None,
        nodes: int = -1,
        seconds: float = -1.0,
        forbidden: Sequence[tuple[int, int]] | None = None,
        avoid: Buffer | None = None,
        fast: bool = True,
        prefer: Buffer | None = None,
    ) -> tuple[int, int, list[bytes], int, int]: ...
    def batch(
        self,
        data: Buffer,
        *,
        limit: int = 2,
        keep: int = 1,
        nodes: int = -1,
        seconds: float = -1.0,
        fast: bool = True,
    ) -> tuple[list[int], bytes, bytes, int, int]: ...
    def remove_clues(
        self,
        givens: Buffer,
        known: Buffer,
        groups: Sequence[Sequence[int]],
        *,
        start: int = 0,
        target: int = -1,
        probe: bool = False,
        stop_on_budget: bool = False,
        nodes: int = -1,
        seconds: float = -1.0,
        fast: bool = True,
    ) -> tuple[bytes, bytes, int, int, int, int]: ...
    def restore_candidates(
        self,
        masks: Sequence[int],
        known: Buffer,
        order: Sequence[tuple[int, int]],
        *,
        target: int = -1,
        nodes: int = -1,
        seconds: float = -1.0,
        fast: bool = True,
    ) -> tuple[list[int], bytes, int, int, int]: ...
    def search(
        self,
        givens: Buffer,
        *,
        seed: int | None = None,
        forbidden: Sequence[tuple[int, int]] | None = None,
        avoid: Buffer | None = None,
    ) -> Search: ...

class Search:
    @property
    def nodes(self) -> int: ...
    @property
    def guesses(self) -> int: ...
    def run(
        self, want: int, *, nodes: int = -1, seconds: float = -1.0
    ) -> tuple[int, list[bytes]]: ...
