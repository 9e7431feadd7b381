"""The candidate state of the SE rater: 81 cells, 9-bit candidate masks, and the
geometry tables every technique reads.

Digits are 1..9; digit ``d`` is bit ``1 << (d - 1)`` of a mask. Regions follow Sudoku
Explainer's numbering, because the order in which SE scans them decides which hint it
finds first: regions 0-8 are the boxes, 9-17 the rows, 18-26 the columns; the cells of a
region are listed in SE's order (row-major in a box, left to right in a row, top to bottom
in a column).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

__all__ = [
    "BOX",
    "ROW",
    "COL",
    "REGIONS",
    "CELL_REGIONS",
    "PEERS",
    "PEER_SETS",
    "POPCOUNT",
    "DIGITS",
    "BIT",
    "State",
    "cell_name",
    "COMBOS",
]

BOX, ROW, COL = 0, 1, 2

#: REGIONS[r] = the 9 cells of region r (0-8 boxes, 9-17 rows, 18-26 columns).
REGIONS: tuple[tuple[int, ...], ...] = tuple(
    [
        tuple(
            (3 * (b // 3) + i // 3) * 9 + 3 * (b % 3) + i % 3  # box b, position i
            for i in range(9)
        )
        for b in range(9)
    ]
    + [tuple(r * 9 + c for c in range(9)) for r in range(9)]
    + [tuple(r * 9 + c for r in range(9)) for c in range(9)]
)

#: CELL_REGIONS[c] = (box region, row region, column region) of cell c.
CELL_REGIONS: tuple[tuple[int, int, int], ...] = tuple(
    (3 * (c // 27) + (c % 9) // 3, 9 + c // 9, 18 + c % 9) for c in range(81)
)

#: REGION_SETS[r] = the cells of region r as a frozenset.
REGION_SETS: tuple[frozenset[int], ...] = tuple(frozenset(r) for r in REGIONS)

#: PEERS[c] = the 20 cells that share a region with c, ascending.
PEERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(set().union(*(REGIONS[r] for r in CELL_REGIONS[c])) - {c})) for c in range(81)
)
PEER_SETS: tuple[frozenset[int], ...] = tuple(frozenset(p) for p in PEERS)

POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(512))
#: DIGITS[mask] = the digits of a mask, ascending.
DIGITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(d for d in range(1, 10) if m >> (d - 1) & 1) for m in range(512)
)
BIT: tuple[int, ...] = (0,) + tuple(1 << (d - 1) for d in range(1, 10))


def _colex(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The k-subsets of range(n) in SE's order (increasing bitmask value)."""
    return tuple(sorted(combinations(range(n), k), key=lambda t: t[::-1]))


#: COMBOS[(k, n)] = k-subsets of range(n) in SE's enumeration order.
COMBOS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (k, n): _colex(k, n) for n in range(0, 10) for k in range(0, min(n, 7) + 1)
}


def combos(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """k-subsets of range(n) in SE's order (cached for n <= 9)."""
    got = COMBOS.get((k, n))
    if got is None:
        got = _colex(k, n)
        COMBOS[(k, n)] = got
    return got


def cell_name(cell: int) -> str:
    """``r3c7`` for cell 24."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


class State:
    """Values and candidates of a 9x9 grid being rated.

    ``values[c]`` is the digit of cell c (0 when empty); ``cands[c]`` its candidate mask
    (0 for a filled cell).
    """

    __slots__ = ("values", "cands")

    def __init__(self, values: Sequence[int], cands: Sequence[int]) -> None:
        self.values = list(values)
        self.cands = list(cands)

    @classmethod
    def from_values(cls, values: Sequence[int]) -> State:
        """The state of a puzzle: every empty cell gets the digits no peer holds.

        Raises:
            ValueError: when ``values`` is not 81 digits 0..9.
        """
        if len(values) != 81 or any(not (0 <= v <= 9) for v in values):
            raise ValueError("an SE rating needs 81 cells with digits 0..9")
        used = [0] * 27  # the digits each region holds
        for c, v in enumerate(values):
            if v:
                b, r, k = CELL_REGIONS[c]
                bit = BIT[v]
                used[b] |= bit
                used[r] |= bit
                used[k] |= bit
        cands = [
            0 if v else 0x1FF & ~(used[b] | used[r] | used[k])
            for v, (b, r, k) in zip(values, CELL_REGIONS)
        ]
        return cls(values, cands)

    @classmethod
    def from_candidates(cls, masks: Sequence[int]) -> State:
        """The state of a pencilmark puzzle, as Sudoku Explainer starts from a
        729-character line: every cell keeps exactly its candidates (no elimination by
        peers), and a cell with one candidate that no peer has becomes a value (SE's
        ``adjustPencilmarks``); a cell with one candidate that a peer still has stays a
        candidate cell, for the singles to place.

        Raises:
            ValueError: when ``masks`` is not 81 candidate masks 1..511.
        """
        if len(masks) != 81 or any(not (0 < m <= 0x1FF) for m in masks):
            raise ValueError("an SE rating of candidates needs 81 masks of digits 1..9")
        values = [0] * 81
        cands = list(masks)
        for c in range(81):
            m = masks[c]
            if POPCOUNT[m] == 1 and not any(masks[p] & m for p in PEERS[c]):
                values[c], cands[c] = DIGITS[m][0], 0
        return cls(values, cands)

    def copy(self) -> State:
        return State(self.values, self.cands)

    def is_solved(self) -> bool:
        return all(self.values)

    def place(self, cell: int, digit: int) -> None:
        """Set a value and remove it from the candidates of the peers."""
        self.values[cell] = digit
        self.cands[cell] = 0
        bit = BIT[digit]
        cands = self.cands
        for p in PEERS[cell]:
            cands[p] &= ~bit

    def positions(self, region: int, digit: int) -> list[int]:
        """The cells of a region that still hold ``digit`` as a candidate."""
        bit = BIT[digit]
        cands = self.cands
        return [c for c in REGIONS[region] if cands[c] & bit]

    def empty_count(self, region: int) -> int:
        values = self.values
        return sum(1 for c in REGIONS[region] if not values[c])

    def key(self) -> tuple[int, ...]:
        """A hashable snapshot of the candidates and values."""
        return tuple(self.values) + tuple(self.cands)
