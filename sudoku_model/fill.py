"""Random full grids and singles propagation in pure Python, on any rule set.

:func:`random_fill` is the default :meth:`~sudoku_model.solving.Backend.random_solution` of
every backend (state-free: the same ``random.Random`` state gives the same grid);
:class:`Singles` also gives the generator its solver-free "still unique?" shortcut on
large grids (naked and hidden singles fill the grid).

>>> import random
>>> from sudoku_model import RuleSet, Shape
>>> grid = random_fill(RuleSet.classic(Shape(2, 2)), random.Random(1))
>>> grid.is_complete
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from .grid import Grid
from .rules import RuleSet

__all__ = ["Singles", "random_fill"]


class Singles:
    """Naked- and hidden-single propagation on candidate bitmasks (bit d-1 = digit d), for
    the Python full-grid search and the solver-free removal shortcut of large grids."""

    _cache: dict[RuleSet, Singles] = {}

    def __init__(self, rules: RuleSet) -> None:
        self.peers = tuple(tuple(sorted(p)) for p in rules.peers)
        self.full = (1 << rules.shape.size) - 1
        self.full_units = rules.full_units

    @classmethod
    def of(cls, rules: RuleSet) -> Singles:
        tables = cls._cache.get(rules)
        if tables is None:
            tables = cls._cache[rules] = cls(rules)
        return tables

    def place(self, values: list[int], cand: list[int], cell: int, bit: int) -> bool:
        """Set ``cell`` to ``bit`` and follow naked singles; False on a contradiction."""
        peers = self.peers
        todo = [(cell, bit)]
        while todo:
            cell, bit = todo.pop()
            if values[cell]:
                if values[cell] != bit:
                    return False
                continue
            if not cand[cell] & bit:
                return False
            values[cell] = bit
            cand[cell] = bit
            for p in peers[cell]:
                cp = cand[p]
                if cp & bit:
                    if values[p]:
                        return False
                    cp ^= bit
                    if not cp:
                        return False
                    cand[p] = cp
                    if not cp & (cp - 1):
                        todo.append((p, cp))
        return True

    def hidden_singles(self, values: list[int], cand: list[int]) -> bool:
        """Place every hidden single (to a fixpoint); False on a contradiction."""
        full = self.full
        changed = True
        while changed:
            changed = False
            for unit in self.full_units:
                once = twice = placed = 0
                for c in unit:
                    if values[c]:
                        placed |= values[c]
                    else:
                        m = cand[c]
                        twice |= once & m
                        once |= m
                if (once | placed) != full:
                    return False  # some digit has no place left in this unit
                lonely = once & ~twice & ~placed
                while lonely:
                    bit = lonely & -lonely
                    lonely ^= bit
                    for c in unit:
                        if not values[c] and cand[c] & bit:
                            if not self.place(values, cand, c, bit):
                                return False
                            changed = True
                            break
        return True

    def solves(self, givens: Sequence[int]) -> bool:
        """True when singles alone fill the grid from ``givens`` (then it is unique)."""
        count = len(givens)
        values = [0] * count
        cand = [self.full] * count
        for cell, v in enumerate(givens):
            if v and not self.place(values, cand, cell, 1 << (v - 1)):
                return False
        return self.hidden_singles(values, cand) and 0 not in values


@lru_cache(maxsize=4)
def _popcount_table(n: int) -> list[int]:
    """Bit counts of 0 .. 2^n - 1 (a list lookup beats ``int.bit_count`` in the hot loop)."""
    table = [0] * (1 << n)
    for m in range(1, 1 << n):
        table[m] = table[m >> 1] + (m & 1)
    return table


def random_fill(
    rules: RuleSet, rng: random.Random, start: Grid | None = None, *, max_nodes: int | None = None
) -> Grid | None:
    """A random solution of ``rules`` extending ``start``: depth-first search on candidate
    bitmasks with naked singles (and hidden singles, except for classic grids up to 9x9,
    where they cost more than the backtracking they save), the cell with fewest candidates
    first (first such cell in cell order) and the digits in random order; a state whose
    filled cells break a constraint rule (:meth:`RuleSet.violations`) is a dead end. None
    when there is no solution or the node limit (default 20 n^2) is reached; the caller
    then draws again."""
    singles = Singles.of(rules)
    place = singles.place
    full = singles.full
    n = rules.shape.size
    use_hidden = not (rules.is_classic and n <= 9) and bool(singles.full_units)
    cell_count = n * n
    limit = max_nodes if max_nodes is not None else 20 * cell_count
    popcount = _popcount_table(n).__getitem__ if n <= 16 else int.bit_count

    # Constraint rules (cages, dots, tables...) prune through their own checkers: a state
    # whose filled cells break one is a dead end, so every grid returned is a solution.
    broken = rules.violations if rules.constraint_rules else None

    def settle(values: list[int], cand: list[int], cell: int, bit: int) -> bool:
        return (
            place(values, cand, cell, bit)
            and (not use_hidden or singles.hidden_singles(values, cand))
            and (broken is None or not broken([v.bit_length() for v in values]))
        )

    values = [0] * cell_count
    cand = [full] * cell_count
    if start is not None:
        for cell, v in enumerate(start.values):
            if v and not place(values, cand, cell, 1 << (v - 1)):
                return None
    if use_hidden and not singles.hidden_singles(values, cand):
        return None
    if broken is not None and broken([v.bit_length() for v in values]):
        return None
    # Depth-first with lazy branching: a frame is a state and the digits still to try at
    # its branching cell; a digit is placed (lists copied) only when it is tried.
    frames: list[tuple[list[int], list[int], int, list[int]]] = []
    nodes = 0
    while True:
        nodes += 1
        if nodes > limit:
            return None
        best, best_count = -1, n + 1
        for cell in range(cell_count):
            if not values[cell]:
                k = popcount(cand[cell])
                if k < best_count:
                    best, best_count = cell, k
                    if k == 2:
                        break
        if best < 0:
            return Grid._trusted(rules.shape, tuple(v.bit_length() for v in values))
        bits = []
        m = cand[best]
        while m:
            low = m & -m
            bits.append(low)
            m ^= low
        frames.append((values, cand, best, bits))
        while frames:
            base_values, base_cand, cell, todo = frames[-1]
            if not todo:
                frames.pop()
                continue
            # One random draw per digit tried (not a shuffle of all): most cells need one.
            bit = todo.pop(rng.randrange(len(todo)))
            values, cand = base_values[:], base_cand[:]
            if settle(values, cand, cell, bit):
                break
        else:
            return None
