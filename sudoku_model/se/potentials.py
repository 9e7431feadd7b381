"""Potentials and their links, as Sudoku Explainer's chains record them (the overview is
:mod:`.chaining`'s).

A potential is a candidate assumed on or off, encoded as an int; a node is a potential
with the parents it follows from and its cause. Here: the implications of one potential
on a grid (on to off, off to on) in SE's scan order, a chain's ancestors and complexity,
SE's length addition to a chain's rating, and the hint a chain search makes
(:func:`chain_step` for a hint found by the C searches).
"""

from __future__ import annotations

from ..errors import SudokuError
from .state import BIT, CELL_REGIONS, DIGITS, POPCOUNT, REGIONS
from .steps import SEStep

#: A node: its key, its parents, and its *tag*: for an "on" node the unit whose single it
#: is (a region index 0-26 for a hidden single, :data:`NAKED` for a naked single,
#: :data:`NO_CAUSE` for an assumption); for an "off" node made by a nested chain, that
#: chain's hint (SE's ``nestedChain``, which adds its complexity to the outer chain's),
#: else :data:`NO_CAUSE`.
Node = tuple[int, tuple["Node", ...], "int | _Hint"]

NAKED = 27
NO_CAUSE = -1


class ChainBudgetExceeded(SudokuError):
    """The per-puzzle time budget ran out inside a chain search."""


def nested_suffix(level: int) -> str:
    """SE's name suffix of a nesting level of dynamic forcing chains."""
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return f" (+ Dynamic Forcing Chains{nested_suffix(level - 3)})"
    return ""


def length_addition(complexity: int) -> float:
    """SE's rating addition for a chain of the given complexity."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    is_odd = False
    while length > ceil:
        added += 0.1
        ceil = (ceil * 3) // 2 if not is_odd else (ceil * 4) // 3
        is_odd = not is_odd
    return added


# -- geometry in SE's scan order ------------------------------------------------------

#: For each cell: the other cells of its box (box order), then of its row outside the
#: box, then of its column outside the box: the order in which SE switches peers off.
_PEER_SCAN: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in REGIONS[CELL_REGIONS[c][0]] if x != c)
    + tuple(x for x in REGIONS[CELL_REGIONS[c][1]] if CELL_REGIONS[x][0] != CELL_REGIONS[c][0])
    + tuple(x for x in REGIONS[CELL_REGIONS[c][2]] if CELL_REGIONS[x][0] != CELL_REGIONS[c][0])
    for c in range(81)
)
_REGION_OTHERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(x for x in REGIONS[r] if x != c) for r in CELL_REGIONS[c]) for c in range(81)
)


def _on_to_off(cands: list[int], key: int, y: bool) -> list[int]:
    """Off keys that follow from the on potential ``key``."""
    cd = key >> 1
    cell, d0 = divmod(cd, 9)
    bit = 1 << d0
    out = []
    if y:
        m = cands[cell] & ~bit
        base = cell * 18
        while m:
            low = m & -m
            out.append(base + ((low.bit_length() - 1) << 1))
            m ^= low
    for c in _PEER_SCAN[cell]:
        if cands[c] & bit:
            out.append((c * 9 + d0) << 1)
    return out


def _off_to_on(
    cands: list[int],
    source: list[int] | None,
    key: int,
    y: bool,
    x: bool,
    to_off: dict[int, Node],
    p: Node,
) -> list[Node]:
    """On nodes that follow from the off node ``p`` (with SE's hidden parents: the
    earlier removals that made the cell or region single, when ``source`` is given)."""
    cd = key >> 1
    cell, d0 = divmod(cd, 9)
    bit = 1 << d0
    out: list[Node] = []
    if y:
        m = cands[cell]
        if POPCOUNT[m] == 2:
            other = m & ~bit
            if other == m:  # the digit itself is gone: SE takes the lower one
                other = m & -m
            else:
                other &= -other
            on_key = ((cell * 9 + other.bit_length() - 1) << 1) | 1
            parents: tuple[Node, ...] = (p,)
            if source is not None:
                hidden = source[cell] & ~m
                while hidden:
                    low = hidden & -hidden
                    parents += (to_off[cell * 18 + ((low.bit_length() - 1) << 1)],)
                    hidden ^= low
            out.append((on_key, parents, NAKED))
    if x:
        seen = 0
        for rtype in range(3):
            found = -1
            for c in _REGION_OTHERS[cell][rtype]:
                if cands[c] & bit:
                    if found >= 0:
                        found = -2
                        break
                    found = c
            if found >= 0:
                on_key = ((found * 9 + d0) << 1) | 1
                if seen and any(n[0] == on_key for n in out):
                    continue
                parents = (p,)
                if source is not None:
                    for c in REGIONS[CELL_REGIONS[cell][rtype]]:
                        if source[c] & bit and not cands[c] & bit:
                            parents += (to_off[(c * 9 + d0) << 1],)
                out.append((on_key, parents, CELL_REGIONS[cell][rtype]))
                seen = 1
    return out


def _ancestors(node: Node) -> int:
    seen: set[int] = set()
    todo = [node]
    while todo:
        nxt: list[Node] = []
        for n in todo:
            if n[0] not in seen:
                seen.add(n[0])
                nxt.extend(n[1])
        todo = nxt
    return len(seen)


def _chain(target: Node) -> list[Node]:
    """SE's ``getChain``: the target and its ancestors, breadth first, one node per
    potential (the first met)."""
    seen: set[int] = set()
    out: list[Node] = []
    todo = [target]
    while todo:
        nxt: list[Node] = []
        for n in todo:
            if n[0] not in seen:
                seen.add(n[0])
                out.append(n)
                nxt.extend(n[1])
        todo = nxt
    return out


def _key_cell_digit(key: int) -> tuple[int, int]:
    cell, d0 = divmod(key >> 1, 9)
    return cell, d0 + 1


# -- hints ------------------------------------------------------------------------------


class _Hint:
    __slots__ = (
        "name",
        "difficulty",
        "complexity",
        "sort_key",
        "elims",
        "placement",
        "cells",
        "targets",
        "root_cause",
        "_signature",
    )

    def __init__(
        self,
        name: str,
        base: float,
        complexity: int,
        sort_key: int,
        elims: tuple[tuple[int, int], ...],
        placement: tuple[int, int] | None,
        cells: tuple[int, ...],
        targets: tuple[Node, ...] = (),
        root_cause: int = NO_CAUSE,
    ) -> None:
        self.name = name
        self.difficulty = base + length_addition(complexity)
        self.complexity = complexity
        self.sort_key = sort_key
        self.elims = elims
        self.placement = placement
        self.cells = cells
        # What a nested use of the hint needs: the ends of its chains (SE's
        # getChainsTargets) and the unit its assumptions fill (a cell forcing chain's
        # cell: NAKED; a region forcing chain's region).
        self.targets = targets
        self.root_cause = root_cause
        self._signature: tuple[tuple[int, ...], ...] | None = None

    def rank(self) -> tuple[float, int, int]:
        return (self.difficulty, self.complexity, self.sort_key)

    def signature(self) -> tuple[tuple[int, ...], ...]:
        """What SE's ``FullChain`` compares: the potentials of each chain, in order."""
        if self._signature is None:
            self._signature = tuple(tuple(n[0] for n in _chain(t)) for t in self.targets)
        return self._signature

    def step(self) -> SEStep:
        return SEStep(
            self.name,
            self.difficulty,
            self.elims,
            self.placement,
            self.cells,
            self.complexity,
            self.sort_key,
        )


def chain_step(
    name: str,
    base: float,
    complexity: int,
    sort_key: int,
    elims: tuple[tuple[int, int], ...],
    placement: tuple[int, int] | None,
    cells: tuple[int, ...],
) -> SEStep:
    """The step of a chain hint found elsewhere (the C searches of :mod:`.native`),
    rated as this module rates its own: ``base`` plus SE's length addition."""
    return _Hint(name, base, complexity, sort_key, elims, placement, cells).step()


def _on_target(
    cands: list[int], key: int
) -> tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]:
    """Eliminations and placement of a conclusion: an on potential places its digit and
    removes the cell's others; an off potential removes its candidate."""
    cell, d = _key_cell_digit(key)
    if key & 1:
        return tuple((cell, e) for e in DIGITS[cands[cell] & ~BIT[d]]), (cell, d)
    return ((cell, d),), None
