"""Sound candidate elimination before a large grid's SAT search.

:func:`reduce_candidates` narrows each empty cell's candidates with rules every solution
obeys (naked and hidden singles, locked candidates in the general form of "every place of
a digit in a full unit sees this cell", naked and hidden pairs, X-wings), so the formula of
:class:`backends.sat.ReducedCNF` encodes only what is left. Every elimination holds in
every solution, so the reduced formula has exactly the solutions of the puzzle.

Candidates are bit masks (bit ``d`` for digit ``d``); cell sets are Python ints over
cell indices, so a unit's "cells that see all of these" is one AND per cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sudoku_model import RuleSet

__all__ = ["LEVELS", "Reduction", "reduce_candidates"]

#: Strength levels of :func:`reduce_candidates`, cumulative, by name:
#: ``givens`` only takes out digits a peer given holds; ``singles`` adds naked and
#: hidden singles to a fixpoint; ``locked`` adds locked candidates (pointing, claiming,
#: and any "every place of d in a full unit is a peer of this cell"); ``pairs`` adds naked
#: and hidden pairs; ``fish`` adds X-wings on every pair of disjoint full units.
LEVELS: tuple[str, ...] = ("givens", "singles", "locked", "pairs", "fish")


@dataclass(frozen=True)
class _Tables:
    n: int
    peers: tuple[tuple[int, ...], ...]
    peer_mask: tuple[int, ...]  # per cell: its peers as a cell set
    full_units: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    full_of_cell: tuple[tuple[int, ...], ...]  # per cell: indices into full_units
    unit_mask: tuple[int, ...]  # per full unit: its cells as a cell set


@lru_cache(maxsize=8)
def _tables(rules: RuleSet) -> _Tables:
    peers = tuple(tuple(sorted(p)) for p in rules.peers)
    peer_mask = tuple(sum(1 << p for p in ps) for ps in peers)
    full = tuple(rules.full_units)
    of_cell: list[list[int]] = [[] for _ in range(rules.shape.cell_count)]
    for k, unit in enumerate(full):
        for c in unit:
            of_cell[c].append(k)
    return _Tables(
        rules.shape.size,
        peers,
        peer_mask,
        full,
        tuple(rules.units),
        tuple(tuple(k) for k in of_cell),
        tuple(sum(1 << c for c in u) for u in full),
    )


@dataclass
class Reduction:
    """What :func:`reduce_candidates` left: ``candidates[c]``, a digit mask per cell (one
    bit for a given or a cell it decided), ``values`` the givens plus every decided cell,
    ``contradiction`` True when some cell or some full unit's digit has no place left (the
    puzzle has no solution; the masks are then partial)."""

    candidates: list[int]
    values: list[int]
    contradiction: bool


class _Contradiction(Exception):
    pass


def reduce_candidates(
    rules: RuleSet,
    givens: Sequence[int],
    level: str = "locked",
    *,
    stop: Callable[[], bool] | None = None,
) -> Reduction:
    """The candidates left after eliminations up to ``level`` (one of :data:`LEVELS`).

    Only the all-different part of ``rules`` is used (units and "different" pairs), which
    every rule set's solutions obey. ``stop()`` is asked once per round; a true answer
    ends the eliminations early with what is known so far (still sound).

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
    strength = LEVELS.index(level)
    t = _tables(rules)
    n = t.n
    full_digits = ((1 << (n + 1)) - 1) & ~1
    cells = len(givens)
    cand = [full_digits] * cells
    values = list(givens)
    for c, v in enumerate(givens):
        if v:
            cand[c] = 1 << v
    state = _State(t, cand, values)
    try:
        for c, v in enumerate(givens):
            if v:
                state.place(c, v)
        if strength >= 1:
            state.settle()
            while stop is None or not stop():
                changed = state.hidden_singles()
                if strength >= 2 and not changed:
                    changed = state.locked()
                if strength >= 3 and not changed:
                    changed = state.pairs()
                if strength >= 4 and not changed:
                    changed = state.fish()
                if not changed:
                    break
                state.settle()
    except _Contradiction:
        return Reduction(cand, values, True)
    return Reduction(cand, values, any(m == 0 for m in cand))


class _State:
    def __init__(self, t: _Tables, cand: list[int], values: list[int]) -> None:
        self.t = t
        self.cand = cand
        self.values = values
        self.queue: list[int] = []  # cells decided whose digit is not yet taken from peers

    def place(self, cell: int, d: int) -> None:
        """Take ``d`` from the peers of ``cell`` (which holds it)."""
        bit = 1 << d
        cand = self.cand
        for p in self.t.peers[cell]:
            m = cand[p]
            if m & bit:
                m &= ~bit
                cand[p] = m
                if not m:
                    raise _Contradiction
                if not m & (m - 1) and not self.values[p]:
                    self.decide(p, m.bit_length() - 1)

    def decide(self, cell: int, d: int) -> None:
        self.values[cell] = d
        self.cand[cell] = 1 << d
        self.queue.append(cell)

    def settle(self) -> None:
        while self.queue:
            c = self.queue.pop()
            self.place(c, self.values[c])

    def remove(self, cell: int, bits: int) -> bool:
        m = self.cand[cell]
        if not m & bits:
            return False
        m &= ~bits
        if not m:
            raise _Contradiction
        self.cand[cell] = m
        if not m & (m - 1) and not self.values[cell]:
            self.decide(cell, m.bit_length() - 1)
        return True

    def places(self, unit: Sequence[int], bit: int) -> list[int]:
        cand = self.cand
        return [c for c in unit if cand[c] & bit]

    def hidden_singles(self) -> bool:
        changed = False
        values = self.values
        for unit in self.t.full_units:
            for d in range(1, self.t.n + 1):
                where = self.places(unit, 1 << d)
                if not where:
                    raise _Contradiction
                if len(where) == 1 and not values[where[0]]:
                    self.decide(where[0], d)
                    changed = True
        return changed

    def locked(self) -> bool:
        """A digit's places in a full unit that all see some other cell: not there."""
        changed = False
        cand = self.cand
        values = self.values
        peer_mask = self.t.peer_mask
        for unit in self.t.full_units:
            for d in range(1, self.t.n + 1):
                bit = 1 << d
                where = [c for c in unit if cand[c] & bit]
                if len(where) < 2 or any(values[c] for c in where):
                    continue
                seen = -1
                for c in where:
                    seen &= peer_mask[c]
                    if not seen:
                        break
                while seen:
                    low = seen & -seen
                    c = low.bit_length() - 1
                    seen ^= low
                    if self.remove(c, bit):
                        changed = True
        return changed

    def pairs(self) -> bool:
        changed = False
        cand = self.cand
        n = self.t.n
        for unit in self.t.units:
            empty = [c for c in unit if not self.values[c]]
            # naked pairs: two cells with the same two candidates
            seen: dict[int, int] = {}
            for c in empty:
                m = cand[c]
                if m & (m - 1) and not (m & (m - 1)) & ((m & (m - 1)) - 1):
                    other = seen.get(m)
                    if other is None:
                        seen[m] = c
                        continue
                    for e in empty:
                        if e != c and e != other and self.remove(e, m):
                            changed = True
        for unit in self.t.full_units:
            # hidden pairs: two digits whose only places are the same two cells
            by_places: dict[tuple[int, ...], int] = {}
            for d in range(1, n + 1):
                where = tuple(c for c in unit if cand[c] & (1 << d))
                if len(where) != 2 or self.values[where[0]] or self.values[where[1]]:
                    continue
                other = by_places.get(where)
                if other is None:
                    by_places[where] = d
                    continue
                keep = (1 << d) | (1 << other)
                for c in where:
                    if cand[c] & ~keep:
                        self.cand[c] = keep
                        changed = True
        return changed

    def fish(self) -> bool:
        """X-wings: a digit's places in two disjoint full units lie in two other units,
        so it is in neither of those elsewhere."""
        changed = False
        t = self.t
        cand = self.cand
        for d in range(1, t.n + 1):
            bit = 1 << d
            # per full unit with exactly two places: the pair, as a cell set
            twos: list[tuple[int, int, int]] = []
            for k, unit in enumerate(t.full_units):
                where = [c for c in unit if cand[c] & bit]
                if len(where) == 2 and not self.values[where[0]] and not self.values[where[1]]:
                    twos.append((k, where[0], where[1]))
            for i, (k1, a1, b1) in enumerate(twos):
                for k2, a2, b2 in twos[i + 1 :]:
                    if t.unit_mask[k1] & t.unit_mask[k2]:
                        continue
                    for x, y in ((a2, b2), (b2, a2)):
                        # a1,x share a unit and b1,y share one: d is at (a1 and y) or at
                        # (b1 and x), so the cells both a1 and x see lose it, and b1's and y's
                        if not (t.peer_mask[a1] >> x) & 1 or not (t.peer_mask[b1] >> y) & 1:
                            continue
                        for p1, p2 in ((a1, x), (b1, y)):
                            both = t.peer_mask[p1] & t.peer_mask[p2]
                            while both:
                                low = both & -both
                                c = low.bit_length() - 1
                                both ^= low
                                if self.remove(c, bit):
                                    changed = True
        return changed
