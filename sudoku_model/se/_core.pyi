"""Type stub of the SE rater's C searches (the C files of sudoku_model/se/).

A hint is (kind, rating, eliminations, placement, cells, regions); kind indexes
sudoku_model.se.native.NAMES. ``limit`` is the number of hints wanted (-1: all)."""

from collections.abc import Sequence

Hint = tuple[
    int,
    float,
    tuple[tuple[int, int], ...],
    tuple[int, int] | None,
    tuple[int, ...],
    tuple[int, ...],
]

def hidden_singles(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def naked_singles(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def direct_locking(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def locking(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def direct_hidden_sets(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def hidden_sets(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def naked_sets(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def fish(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def xy_wings(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def turbot_fish(cands: Sequence[int], /) -> list[Hint]: ...
def three_strong_links(cands: Sequence[int], /) -> list[Hint]: ...
def aligned_exclusion(
    values: Sequence[int], cands: Sequence[int], degree: int = 0, limit: int = -1
) -> list[Hint]: ...
def als_wings(cands: Sequence[int], size: int, /) -> list[Hint]: ...
def unique_loop_hints(
    values: Sequence[int], cands: Sequence[int], limit: int = -1
) -> list[Hint]: ...
def bug(values: Sequence[int], cands: Sequence[int], limit: int = -1) -> list[Hint]: ...
def cycles_and_forcing_chains(
    cands: Sequence[int], deadline: float = -1.0, /
) -> (
    tuple[
        int, int, float, int, tuple[tuple[int, int], ...], tuple[int, int] | None, tuple[int, ...]
    ]
    | None
): ...
def multiple_chains(
    values: Sequence[int],
    cands: Sequence[int],
    nishio: bool,
    multiple: bool,
    dynamic: bool,
    plus: bool,
    deadline: float = -1.0,
    /,
) -> (
    tuple[
        int, float, int, int, tuple[tuple[int, int], ...], tuple[int, int] | None, tuple[int, ...]
    ]
    | None
): ...
def nested_chains(
    values: Sequence[int],
    cands: Sequence[int],
    level: int,
    deadline: float = -1.0,
    /,
) -> (
    tuple[
        int, float, int, int, tuple[tuple[int, int], ...], tuple[int, int] | None, tuple[int, ...]
    ]
    | None
): ...
def basic_steps(
    values: list[int],
    cands: list[int],
    count: int,
    deadline: float = -1.0,
    max_steps: int = -1,
) -> tuple[list[tuple[int, Hint]], int]: ...
def broken(values: Sequence[int], cands: Sequence[int]) -> bool: ...
