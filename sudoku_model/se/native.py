"""The C searches of the SE rater (``sudoku_model.se._core``, ``sudoku_model/se/se_core.c``)
as producers with the signatures of their Python twins.

The Python techniques (basic, strong_links, ...) are the reference; each function here
yields the same :class:`SEStep` objects in the same order (``tests/sudoku_model/se/
test_se_native.py`` compares them on every step of rated puzzles). The C module is an
accelerator, like the minlex of ``canon``: when it does not load, :func:`available` is
False and the rater keeps the Python producers.

Scanning techniques ask C for their first hint only (the rater applies one), and for the
rest when a caller reads on (a dynamic chain "+" reads every hint).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from . import chaining, unique
from .state import State
from .steps import SEStep

__all__ = [
    "available",
    "hidden_singles",
    "naked_singles",
    "direct_pointing",
    "locking",
    "direct_hidden_sets",
    "hidden_sets",
    "naked_sets",
    "fish",
    "xy_wings",
    "turbot_fish",
    "three_strong_links",
    "aligned_exclusion",
    "als_wing",
    "unique_loops",
    "PLUS_RULES",
    "multiple_chains",
    "cycles_and_forcing_chains",
]

try:
    from . import _core as _c
except ImportError:  # a build without the extension: the Python producers serve
    _c = None  # type: ignore[assignment]

#: Technique names by the kind numbers of se_core.c (its enum, same order).
NAMES: tuple[str, ...] = (
    "Full House",
    "Hidden Single",
    "Direct Pointing",
    "Direct Claiming",
    "Direct Hidden Pair",
    "Direct Hidden Triplet",
    "Naked Single",
    "Pointing",
    "Claiming",
    "Naked Pair",
    "Naked Triplet",
    "Naked Quad",
    "Hidden Pair",
    "Hidden Triplet",
    "Hidden Quad",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "XY-Wing",
    "XYZ-Wing",
    "Turbot Fish",
    "Three Strong Links",
    "Aligned Pair Exclusion",
    "Aligned Triplet Exclusion",
    "WXYZ-Wing",
    "VWXYZ-Wing",
    "UVWXYZ-Wing",
    "TUVWXYZ-Wing",
)


def available() -> bool:
    """True when the compiled searches load."""
    return _c is not None


def _step(hint: Any) -> SEStep:
    kind, rating, elims, placement, cells, regions = hint
    return SEStep(NAMES[kind], rating, elims, placement, cells, regions=regions)


def _scan(fn: Callable[..., list[Any]], state: State, arg: int) -> Iterator[SEStep]:
    """The hints of a scanning search: the first alone, the others when asked for."""
    first = fn(state.values, state.cands, arg, 1)
    if not first:
        return
    yield _step(first[0])
    for hint in fn(state.values, state.cands, arg, -1)[1:]:
        yield _step(hint)


def hidden_singles(state: State) -> Iterator[SEStep]:
    """:func:`basic.hidden_singles` in C."""
    return _scan(_c.hidden_singles, state, 0)


def naked_singles(state: State) -> Iterator[SEStep]:
    """:func:`basic.naked_singles` in C."""
    return _scan(_c.naked_singles, state, 0)


def direct_pointing(state: State) -> Iterator[SEStep]:
    """:func:`basic.direct_pointing` in C."""
    return _scan(_c.direct_locking, state, 0)


def locking(state: State) -> Iterator[SEStep]:
    """:func:`basic.locking` in C."""
    return _scan(_c.locking, state, 0)


def direct_hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """:func:`basic.direct_hidden_sets` in C (degree 2 or 3)."""
    return _scan(_c.direct_hidden_sets, state, degree)


def hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """:func:`basic.hidden_sets` in C (degree 2 to 4)."""
    return _scan(_c.hidden_sets, state, degree)


def naked_sets(state: State, degree: int) -> Iterator[SEStep]:
    """:func:`basic.naked_sets` in C (degree 2 to 4)."""
    return _scan(_c.naked_sets, state, degree)


def fish(state: State, degree: int) -> Iterator[SEStep]:
    """:func:`basic.fish` in C (degree 2 to 4)."""
    return _scan(_c.fish, state, degree)


def xy_wings(state: State, xyz: bool) -> Iterator[SEStep]:
    """:func:`basic.xy_wings` in C."""
    return _scan(_c.xy_wings, state, int(xyz))


def turbot_fish(state: State) -> Iterator[SEStep]:
    """:func:`strong_links.turbot_fish` in C (every hint found, then SE's sort)."""
    for hint in _c.turbot_fish(state.cands):
        yield _step(hint)


def three_strong_links(state: State) -> Iterator[SEStep]:
    """:func:`strong_links.three_strong_links` in C (every hint found, then SE's sort)."""
    for hint in _c.three_strong_links(state.cands):
        yield _step(hint)


def aligned_exclusion(state: State, degree: int) -> Iterator[SEStep]:
    """:func:`aligned.aligned_exclusion` in C (degree 2 or 3)."""
    return _scan(_c.aligned_exclusion, state, degree)


def als_wing(state: State, size: int) -> Iterator[SEStep]:
    """:func:`wings.als_wing` in C (size 3 to 6; every hint found, then SE's sort)."""
    for hint in _c.als_wings(state.cands, size):
        yield _step(hint)


def unique_loops(state: State) -> Iterator[SEStep]:
    """:func:`unique.unique_loops` with the search for loops in C."""
    return unique.unique_loops(state, _c.unique_loops)


def _every(fn: Callable[..., list[Any]], state: State, arg: int) -> Iterator[SEStep]:
    """Every hint of a scanning search at once (a dynamic chain "+" reads them all)."""
    for hint in fn(state.values, state.cands, arg, -1):
        yield _step(hint)


#: :data:`chaining.PLUS_RULES` in C: the same hints, in the same order.
PLUS_RULES: tuple[chaining.PlusRule, ...] = (
    (lambda s: _every(_c.locking, s, 0)),
    (lambda s: _every(_c.hidden_sets, s, 2)),
    (lambda s: _every(_c.naked_sets, s, 2)),
    (lambda s: _every(_c.fish, s, 2)),
)


#: Hint kinds of the C multiple-chain search (se_core.c's DK_* enum, same order).
_MULTIPLE_KINDS = (
    "Contradiction Forcing Chain",
    "Double Forcing Chain",
    "Cell Forcing Chain",
    "Region Forcing Chain",
    "Forcing Chain",
)


def multiple_chains(
    state: State,
    *,
    nishio: bool = False,
    multiple: bool = False,
    dynamic: bool = False,
    level: int = 0,
    deadline: float | None = None,
) -> Iterator[SEStep]:
    """:func:`chaining.multiple_chains` with its chains in C: Nishio, multiple, dynamic
    and dynamic "+" (``level`` 0 and 1) search entirely in C and give the same best hint;
    the nested levels (2 and more) run the Python search, whose dynamic chains "+" apply
    the C searches of :data:`PLUS_RULES`. Raises :class:`chaining.ChainBudgetExceeded`
    when the CPU clock (``time.process_time``) passes ``deadline``."""
    if level <= 1:
        yield from _multiple_c(state, nishio, multiple, dynamic, level, deadline)
        return
    yield from chaining.multiple_chains(
        state,
        nishio=nishio,
        multiple=multiple,
        dynamic=dynamic,
        level=level,
        deadline=deadline,
        plus_rules=PLUS_RULES,
    )


def _multiple_c(
    state: State, nishio: bool, multiple: bool, dynamic: bool, level: int, deadline: float | None
) -> Iterator[SEStep]:
    try:
        got = _c.multiple_chains(
            state.values,
            state.cands,
            nishio,
            multiple,
            dynamic,
            level == 1,
            -1.0 if deadline is None else deadline,
        )
    except TimeoutError:
        raise chaining.ChainBudgetExceeded from None
    if got is None:
        return
    kind, base, complexity, sort_key, elims, placement, cells = got
    if level:
        prefix, suffix = "Dynamic ", chaining.nested_suffix(level)
    elif nishio:
        prefix, suffix = "Nishio ", ""
    elif dynamic:
        prefix, suffix = "Dynamic ", ""
    else:
        prefix, suffix = "", ""
    name = f"{prefix}{_MULTIPLE_KINDS[kind]}{suffix}"
    yield chaining.chain_step(name, base, complexity, sort_key, elims, placement, cells)


#: Chain names by (kind, sort key) of the C search: kind 0 a cycle, 1 a forcing chain.
_CHAIN_NAMES = {
    (0, 2): "Bidirectional X-Cycle",
    (0, 3): "Bidirectional Y-Cycle",
    (0, 4): "Bidirectional Cycle",
    (1, 2): "Forcing X-Chain",
    (1, 4): "Forcing Chain",
}


def cycles_and_forcing_chains(state: State, deadline: float | None = None) -> Iterator[SEStep]:
    """:func:`chaining.cycles_and_forcing_chains` in C: the same best hint (rating,
    complexity, kind, eliminations), found by the same searches in the same order.

    Raises :class:`chaining.ChainBudgetExceeded` when the CPU clock (``time.process_time``)
    passes ``deadline``. Where the C search runs out of its fixed node pool (a grid no
    rated puzzle has produced), the Python search answers instead."""
    try:
        got = _c.cycles_and_forcing_chains(state.cands, -1.0 if deadline is None else deadline)
    except TimeoutError:
        raise chaining.ChainBudgetExceeded from None
    except RuntimeError:
        yield from chaining.cycles_and_forcing_chains(state, deadline)
        return
    if got is not None:
        kind, sort_key, base, complexity, elims, placement, cells = got
        yield chaining.chain_step(
            _CHAIN_NAMES[kind, sort_key], base, complexity, sort_key, elims, placement, cells
        )
