"""Type stub of the pysat backend's model reader (see backends/sat/_satread.c)."""

from typing import Any, overload

def bind(library: str, symbol: str, /) -> int: ...
@overload
def grid(slot: int, handle: Any, size: int, cells: int, /) -> tuple[int, ...] | None: ...
@overload
def grid(
    slot: int, handle: Any, size: int, cells: int, givens: tuple[int, ...], /
) -> tuple[tuple[int, ...], list[int], list[int]] | None: ...
