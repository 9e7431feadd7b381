"""The searches of the SE rater, in C (``sudoku_model.se._core``,
the C files of ``sudoku_model/se/``), as producers of
:class:`SEStep` objects.

They are the rater's one engine for each technique they cover. A Python reference of each
(tests/se_reference) is the tests' oracle: ``tests/sudoku_model/se/test_se_native.py``
checks that both yield the same steps in the same order on every step of rated puzzles.
The chains are C at every level, the nested dynamic forcing chains included
(sudoku_model/se/se_nested.c); the static chains fall back to their Python search
(:mod:`.static_chains`) on a grid whose search outgrows the C node pool.

Scanning techniques ask C for their first hint only (the rater applies one), and for the
rest when a caller reads on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from . import static_chains
from .potentials import ChainBudgetExceeded, chain_step, nested_suffix
from .state import State
from .steps import SEStep

__all__ = [
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
    "bug",
    "multiple_chains",
    "cycles_and_forcing_chains",
    "BASIC_NAMES",
    "BasicRun",
    "basic_steps",
    "broken",
]

from . import _core as _c

#: Technique names by the kind numbers of se_scan.h (its enum, same order); a unique
#: loop's name also tells its size (:func:`_name`).
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
    "Unique Loop type 1",
    "Unique Loop type 2",
    "Unique Loop type 3",
    "Unique Loop type 4",
    "BUG type 1",
    "BUG type 2",
    "BUG type 3",
    "BUG type 4",
)

#: The first kind of unique loop (types 1-4 follow): named by the loop's size.
_UNIQUE_LOOP = NAMES.index("Unique Loop type 1")


def _name(kind: int, cells: tuple[int, ...]) -> str:
    """The technique name of a hint: a unique loop's tells its size (its cells)."""
    if _UNIQUE_LOOP <= kind < _UNIQUE_LOOP + 4:
        base = "Unique Rectangle" if len(cells) == 4 else f"Unique Loop {len(cells)}"
        return f"{base} type {kind - _UNIQUE_LOOP + 1}"
    return NAMES[kind]


def _step(hint: Any) -> SEStep:
    kind, rating, elims, placement, cells, regions = hint
    return SEStep(_name(kind, cells), rating, elims, placement, cells, regions=regions)


def _scan(fn: Callable[..., list[Any]], state: State, arg: int) -> Iterator[SEStep]:
    """The hints of a scanning search: the first alone, the others when asked for."""
    first = fn(state.values, state.cands, arg, 1)
    if not first:
        return
    yield _step(first[0])
    for hint in fn(state.values, state.cands, arg, -1)[1:]:
        yield _step(hint)


def hidden_singles(state: State) -> Iterator[SEStep]:
    """Hidden singles (and full houses), in SE's region order."""
    return _scan(_c.hidden_singles, state, 0)


def naked_singles(state: State) -> Iterator[SEStep]:
    """Naked singles."""
    return _scan(_c.naked_singles, state, 0)


def direct_pointing(state: State) -> Iterator[SEStep]:
    """Direct pointing and claiming (an intersection that leaves a hidden single)."""
    return _scan(_c.direct_locking, state, 0)


def locking(state: State) -> Iterator[SEStep]:
    """Pointing and claiming."""
    return _scan(_c.locking, state, 0)


def direct_hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """Direct hidden pairs and triplets (degree 2 or 3)."""
    return _scan(_c.direct_hidden_sets, state, degree)


def hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """Hidden pairs, triplets and quads (degree 2 to 4)."""
    return _scan(_c.hidden_sets, state, degree)


def naked_sets(state: State, degree: int) -> Iterator[SEStep]:
    """Naked pairs, triplets and quads (degree 2 to 4)."""
    return _scan(_c.naked_sets, state, degree)


def fish(state: State, degree: int) -> Iterator[SEStep]:
    """X-wings, swordfish and jellyfish (degree 2 to 4)."""
    return _scan(_c.fish, state, degree)


def xy_wings(state: State, xyz: bool) -> Iterator[SEStep]:
    """XY-wings, or XYZ-wings when ``xyz``."""
    return _scan(_c.xy_wings, state, int(xyz))


def turbot_fish(state: State) -> Iterator[SEStep]:
    """Turbot fish (skyscrapers, kites: every hint found, then SE's sort)."""
    for hint in _c.turbot_fish(state.cands):
        yield _step(hint)


def three_strong_links(state: State) -> Iterator[SEStep]:
    """Three strong-linked fishes (every hint found, then SE's sort)."""
    for hint in _c.three_strong_links(state.cands):
        yield _step(hint)


def aligned_exclusion(state: State, degree: int) -> Iterator[SEStep]:
    """Aligned pair and triplet exclusion (degree 2 or 3)."""
    return _scan(_c.aligned_exclusion, state, degree)


def als_wing(state: State, size: int) -> Iterator[SEStep]:
    """WXYZ- to TUVWXYZ-wings (size 3 to 6; every hint found, then SE's sort)."""
    for hint in _c.als_wings(state.cands, size):
        yield _step(hint)


def unique_loops(state: State) -> Iterator[SEStep]:
    """Unique rectangles and loops, types 1-4 (every hint found, then SE's sort by rating
    and type)."""
    for hint in _c.unique_loop_hints(state.values, state.cands):
        yield _step(hint)


def bug(state: State) -> Iterator[SEStep]:
    """Bivalue universal grave: type 1 (5.6), types 2 and 4 (5.7), type 3 (5.7 + 0.1 per
    digit of the naked set beyond one)."""
    first = _c.bug(state.values, state.cands, 1)
    if not first:
        return
    yield _step(first[0])
    for hint in _c.bug(state.values, state.cands)[1:]:
        yield _step(hint)


#: Hint kinds of the C multiple-chain search (se_chains.h's DK_* enum, same order).
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
    """SE's multiple-chain producers in C, their best hint: Nishio, multiple, dynamic and
    dynamic "+" forcing chains (``level`` 0 and 1), and the nested dynamic forcing chains
    (``level`` 2 and more, always multiple and dynamic: each nests the chaining rule of
    its level, as SE's "+ Forcing Chains" up to "+ Dynamic Forcing Chains (+ ...)").

    Raises :class:`ChainBudgetExceeded` when the CPU clock
    (``time.process_time``) passes ``deadline``, and ValueError for a nested level that
    is not multiple and dynamic."""
    if level >= 2 and not (multiple and dynamic and not nishio):
        raise ValueError("nested forcing chains are multiple and dynamic")
    try:
        if level >= 2:
            got = _c.nested_chains(
                state.values, state.cands, level, -1.0 if deadline is None else deadline
            )
        else:
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
        raise ChainBudgetExceeded from None
    if got is None:
        return
    kind, base, complexity, sort_key, elims, placement, cells = got
    if level:
        prefix, suffix = "Dynamic ", nested_suffix(level)
    elif nishio:
        prefix, suffix = "Nishio ", ""
    elif dynamic:
        prefix, suffix = "Dynamic ", ""
    else:
        prefix, suffix = "", ""
    name = f"{prefix}{_MULTIPLE_KINDS[kind]}{suffix}"
    yield chain_step(name, base, complexity, sort_key, elims, placement, cells)


#: Chain names by (kind, sort key) of the C search: kind 0 a cycle, 1 a forcing chain.
_CHAIN_NAMES = {
    (0, 2): "Bidirectional X-Cycle",
    (0, 3): "Bidirectional Y-Cycle",
    (0, 4): "Bidirectional Cycle",
    (1, 2): "Forcing X-Chain",
    (1, 4): "Forcing Chain",
}


def cycles_and_forcing_chains(state: State, deadline: float | None = None) -> Iterator[SEStep]:
    """:func:`static_chains.cycles_and_forcing_chains` in C: the same best hint (rating,
    complexity, kind, eliminations), found by the same searches in the same order.

    Raises :class:`ChainBudgetExceeded` when the CPU clock (``time.process_time``)
    passes ``deadline``. Where the C search runs out of its fixed node pool (a grid no
    rated puzzle has produced), the Python search answers instead."""
    try:
        got = _c.cycles_and_forcing_chains(state.cands, -1.0 if deadline is None else deadline)
    except TimeoutError:
        raise ChainBudgetExceeded from None
    except RuntimeError:
        yield from static_chains.cycles_and_forcing_chains(state, deadline)
        return
    if got is not None:
        kind, sort_key, base, complexity, elims, placement, cells = got
        yield chain_step(
            _CHAIN_NAMES[kind, sort_key], base, complexity, sort_key, elims, placement, cells
        )


#: The producers that :func:`basic_steps` runs, by name, in the rater's order: the first
#: ``len(BASIC_NAMES)`` of ``rater.PRODUCERS`` (se_rate.c's table; a test checks both agree).
BASIC_NAMES: tuple[str, ...] = (
    "Hidden Single",
    "Direct Pointing",
    "Direct Hidden Pair",
    "Naked Single",
    "Direct Hidden Triplet",
    "Pointing",
    "Naked Pair",
    "X-Wing",
    "Hidden Pair",
    "Naked Triplet",
    "Swordfish",
    "Hidden Triplet",
    "Turbot Fish",
    "XY-Wing",
    "XYZ-Wing",
    "Unique Rectangle",
    "Naked Quad",
    "Jellyfish",
    "Hidden Quad",
    "Three Strong Links",
    "WXYZ-Wing",
    "BUG",
    "VWXYZ-Wing",
    "Aligned Pair Exclusion",
)


class BasicRun(NamedTuple):
    """What :func:`basic_steps` did: the steps taken, each with the index of its producer,
    and why it stopped: ``solved``, ``none`` (no producer of the run has a hint),
    ``broken`` (a cell lost its last candidate, or a digit repeats in a region),
    ``deadline`` or ``limit`` (``max_steps`` taken)."""

    steps: list[tuple[int, SEStep]]
    stop: str


_STOPS = ("solved", "none", "broken", "deadline", "limit")


def basic_steps(
    state: State, count: int, deadline: float | None = None, max_steps: int = -1
) -> BasicRun:
    """Rate with the first ``count`` producers of :data:`BASIC_NAMES` only, in C: apply
    the first hint of the first of them that has one, again and again, to ``state`` (which
    it changes), as the rater's loop would with those producers.

    Stops when the grid is solved or broken, when none of them has a hint, when the CPU
    clock (``time.process_time``) passes ``deadline`` (checked before each step), or after
    ``max_steps`` steps (-1: no limit).

    Raises:
        ValueError: when ``count`` is outside 0..len(BASIC_NAMES).
    """
    got, stop = _c.basic_steps(
        state.values, state.cands, count, -1.0 if deadline is None else deadline, max_steps
    )
    return BasicRun([(p, _step(hint)) for p, hint in got], _STOPS[stop])


def broken(state: State) -> bool:
    """A cell with neither value nor candidate, or a digit twice in a region."""
    return _c.broken(state.values, state.cands)
