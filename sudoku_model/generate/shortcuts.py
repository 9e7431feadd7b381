"""Answers to "still unique?" without a solver call, for the removal pass's Python loop
(:meth:`~sudoku_model.solving.RemovalOracle.remove_groups`): naked singles, hidden
singles and, from 16x16 up, full singles propagation. Only yes answers are taken from
logic, so minimality is unaffected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ..fill import Singles
from ..grid import Grid
from ..rules import RuleSet
from ..solving import RemovalOracle, RemovalShortcut

_PEER_GETTERS: dict[RuleSet, tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]] = {}


def _peer_getters(rules: RuleSet) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """Per cell, a function returning the values of its peers (0 included)."""
    getters = _PEER_GETTERS.get(rules)
    if getters is None:
        getters = tuple(itemgetter(*sorted(p)) for p in rules.peers)
        _PEER_GETTERS[rules] = getters
    return getters


_UNITS_OF_CELL: dict[RuleSet, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _full_units_of_cell(rules: RuleSet) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per cell, the units of n cells holding it (each without the cell itself)."""
    table = _UNITS_OF_CELL.get(rules)
    if table is None:
        n = rules.shape.size
        units = rules.units
        table = tuple(
            tuple(tuple(u for u in units[k] if u != cell) for k in ks if len(units[k]) == n)
            for cell, ks in enumerate(rules.units_of_cell)
        )
        _UNITS_OF_CELL[rules] = table
    return table


def _hidden_single(
    cell: int,
    digit: int,
    values: bytearray,
    units: tuple[tuple[tuple[int, ...], ...], ...],
    peer_values: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...],
) -> bool:
    """True when some full unit of ``cell`` has no other place for ``digit``: every other
    cell of it is filled or sees ``digit`` among its peers' givens."""
    for unit in units[cell]:
        for u in unit:
            if not values[u] and digit not in peer_values[u](values):
                break
        else:
            return True
    return False


def _removal_shortcut(rules: RuleSet, solution: Grid, oracle: RemovalOracle) -> RemovalShortcut:
    """The Python loop's answers without a solver call (only yes answers, so minimality
    is unaffected): the emptied cells are naked singles (their peers show every other
    digit) or, for engines whose calls are slow, hidden singles; from 16x16 up, full
    singles propagation is tried first while it keeps succeeding."""
    peer_values = _peer_getters(rules)
    wanted = rules.shape.size  # {0} plus the n - 1 other digits
    known = solution.values
    # Hidden singles cost a few microseconds: worth it only before slow solver calls.
    slow_calls = not oracle.cheap_calls
    hidden = _full_units_of_cell(rules) if slow_calls else None
    # From 16x16 up a solver call costs milliseconds to seconds: a full propagation of
    # singles in Python first (milliseconds) saves most of them while the grid is
    # dense. It stops paying once it keeps failing, so it is dropped after a run of
    # failures (a rule that depends only on the answers: still reproducible).
    propagate = [Singles.of(rules) if slow_calls and rules.shape.size >= 16 else None]
    failures = [0]

    def shortcut(values: bytearray, group: Sequence[int]) -> bool:
        if all(len({0, *peer_values[c](values)}) == wanted for c in group) or (
            hidden and all(_hidden_single(c, known[c], values, hidden, peer_values) for c in group)
        ):
            return True
        singles = propagate[0]
        if singles is not None:
            if singles.solves(values):
                failures[0] = 0
                return True
            failures[0] += 1
            if failures[0] >= 8:
                propagate[0] = None
        return False

    return shortcut
