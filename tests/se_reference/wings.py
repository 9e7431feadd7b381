"""SukakuExplainer's WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-wings.

A wing of size k: k mutually visible cells (so in one region) holding k + 1 digits between
them (an almost locked set), and a bivalue cell outside them whose two digits both belong
to the set. When every set cell holding one of those digits (x) sees the bivalue cell, x is
a restricted common: the other digit (z) goes from every cell that sees the bivalue cell
and every set cell holding z. When both digits are restricted (doubly linked), the set's
other digits go from the cells that see all set cells holding them, and x and z from the
cells that see the bivalue cell and the set cells holding them.

Ratings (SukakuExplainer): WXYZ 5.5-5.6 and VWXYZ 6.2-6.4 by the largest candidate count
of a set cell (middle sizes rate higher), UVWXYZ 6.6, TUVWXYZ 7.5.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudoku_model.se.state import BIT, DIGITS, PEER_SETS, PEERS, POPCOUNT, State
from sudoku_model.se.steps import SEStep

__all__ = ["als_wing", "WING_NAMES"]

WING_NAMES = {3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing", 6: "TUVWXYZ-Wing"}

#: For each cell, its peers with a higher index (SE's "forward visible" cells).
_FORWARD: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in PEERS[c] if p > c) for c in range(81)
)


def _rating(size: int, biggest: int) -> float:
    if size == 3:
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
    if size == 4:
        return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1
    return 6.6 if size == 5 else 7.5


def _restricted(cands: list[int], cells: tuple[int, ...], yz: int, bit: int) -> bool:
    return all(yz in PEER_SETS[c] for c in cells if cands[c] & bit)


def _victims(
    cands: list[int], cells: tuple[int, ...], bit: int, start: set[int] | None
) -> set[int]:
    out = start
    for c in cells:
        if cands[c] & bit:
            out = set(PEER_SETS[c]) if out is None else out & PEER_SETS[c]
    return out if out is not None else set()


def als_wing(state: State, size: int) -> Iterator[SEStep]:
    """Wings of ``size`` set cells (3: WXYZ ... 6: TUVWXYZ), sorted as SukakuExplainer
    sorts them: rating, then more eliminations first, then its suffix, descending."""
    cands = state.cands
    digits_max = size + 1
    found: list[tuple[float, int, str, int, SEStep]] = []

    def clique(cells: tuple[int, ...], union: int, allowed: tuple[int, ...]) -> None:
        if len(cells) == size:
            if POPCOUNT[union] == digits_max:
                _bivalues(cells, union)
            return
        for nxt in allowed:
            m = cands[nxt]
            if POPCOUNT[m] < 2:
                continue
            u = union | m
            last = len(cells) + 1 == size
            if (POPCOUNT[u] == digits_max) if last else (POPCOUNT[u] <= digits_max):
                fwd = set(_FORWARD[nxt])
                clique(cells + (nxt,), u, tuple(c for c in allowed if c in fwd))

    def _bivalues(cells: tuple[int, ...], union: int) -> None:
        cell_set = set(cells)
        around: set[int] = set()
        for c in cells:
            around |= PEER_SETS[c]
        biggest = max(POPCOUNT[cands[c]] for c in cells)
        wing_size = sum(POPCOUNT[cands[c]] for c in cells)
        rating = _rating(size, biggest)
        for yz in sorted(around - cell_set):
            m = cands[yz]
            if POPCOUNT[m] != 2 or m & union != m:
                continue
            x, z = DIGITS[m]
            x_ok = _restricted(cands, cells, yz, BIT[x])
            z_ok = _restricted(cands, cells, yz, BIT[z])
            if x_ok:
                _hint(cells, union, yz, x, z, z_ok, biggest, wing_size, rating)
            elif z_ok:
                _hint(cells, union, yz, z, x, False, biggest, wing_size, rating)

    def _hint(
        cells: tuple[int, ...],
        union: int,
        yz: int,
        x: int,
        z: int,
        double: bool,
        biggest: int,
        wing_size: int,
        rating: float,
    ) -> None:
        skip = set(cells) | {yz}
        elims: list[tuple[int, int]] = []
        weak = strong_x = strong_z = False
        if double:
            for w in DIGITS[union & ~(BIT[x] | BIT[z])]:
                for c in sorted(_victims(cands, cells, BIT[w], None) - skip):
                    if cands[c] & BIT[w]:
                        elims.append((c, w))
                        weak = True
            for c in sorted(_victims(cands, cells, BIT[x], set(PEER_SETS[yz])) - skip):
                if cands[c] & BIT[x]:
                    elims.append((c, x))
                    strong_x = True
        for c in sorted(_victims(cands, cells, BIT[z], set(PEER_SETS[yz])) - skip):
            if cands[c] & BIT[z]:
                elims.append((c, z))
                strong_z = True
        if double and not weak and (not strong_z or not strong_x):
            double = False
        if not elims:
            return
        suffix = f"{2 if double else 1}{biggest}{wing_size}"
        step = SEStep(WING_NAMES[size], rating, tuple(elims), None, cells + (yz,))
        found.append((rating, len(elims), suffix, len(found), step))

    all_cells = tuple(range(81))
    for first in all_cells:
        m = cands[first]
        if 2 <= POPCOUNT[m] <= digits_max:
            clique((first,), m, _FORWARD[first])
    found.sort(key=lambda h: h[2], reverse=True)
    found.sort(key=lambda h: (h[0], -h[1]))
    for *_, step in found:
        yield step
