"""Singles, intersections, subsets, fish and XY/XYZ-wings, with SE's ratings.

Each producer is a generator of :class:`SEStep` in the order Sudoku Explainer finds its
hints (the rater applies the first one), over a :class:`State`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudoku_model.se.state import (
    BIT,
    DIGITS,
    PEER_SETS,
    PEERS,
    POPCOUNT,
    REGION_SETS,
    REGIONS,
    State,
    combos,
)
from sudoku_model.se.steps import SEStep

__all__ = [
    "hidden_singles",
    "direct_pointing",
    "direct_hidden_sets",
    "naked_singles",
    "locking",
    "naked_sets",
    "hidden_sets",
    "fish",
    "xy_wings",
]

#: SE scans boxes, then columns, then rows for singles and subsets.
_SCAN_TYPES = (0, 2, 1)


def _regions_of_type(rtype: int) -> range:
    return range(9 * rtype, 9 * rtype + 9)


def _position_mask(cands: list[int], region: int, bit: int) -> int:
    """Bit i set when position i of the region holds the digit."""
    m = 0
    for i, c in enumerate(REGIONS[region]):
        if cands[c] & bit:
            m |= 1 << i
    return m


def hidden_singles(state: State) -> Iterator[SEStep]:
    """Full houses (1.0), then hidden singles in boxes (1.2), columns and rows (1.5)."""
    cands, values = state.cands, state.values
    for alone_only in (True, False):
        for rtype in _SCAN_TYPES:
            for r in _regions_of_type(rtype):
                cells = REGIONS[r]
                empty = sum(1 for c in cells if not values[c])
                if empty == 0:
                    continue
                alone = empty == 1
                if alone != alone_only:
                    continue
                for d in range(1, 10):
                    bit = BIT[d]
                    found = -1
                    n = 0
                    for c in cells:
                        if cands[c] & bit:
                            n += 1
                            found = c
                            if n > 1:
                                break
                    if n == 1:
                        if alone:
                            yield SEStep("Full House", 1.0, (), (found, d), (found,))
                        else:
                            rating = 1.2 if rtype == 0 else 1.5
                            yield SEStep("Hidden Single", rating, (), (found, d), (found,))


def naked_singles(state: State) -> Iterator[SEStep]:
    """A cell with one candidate left (2.3)."""
    cands = state.cands
    for c in range(81):
        m = cands[c]
        if m and POPCOUNT[m] == 1:
            yield SEStep("Naked Single", 2.3, (), (c, DIGITS[m][0]), (c,))


_LOCKING_PAIRS = ((0, 2), (0, 1), (2, 0), (1, 0))


def _crossing(r1: int, rtype2: int) -> list[int]:
    """Regions of type rtype2 that share cells with region r1, ascending."""
    s = REGION_SETS[r1]
    return [r2 for r2 in _regions_of_type(rtype2) if s & REGION_SETS[r2]]


_CROSS: dict[tuple[int, int], list[int]] = {
    (r1, t2): _crossing(r1, t2) for r1 in range(27) for t2 in range(3)
}


def _locking(state: State, direct: bool) -> Iterator[SEStep]:
    cands = state.cands
    for t1, t2 in _LOCKING_PAIRS:
        for d in range(1, 10):
            bit = BIT[d]
            for r1 in _regions_of_type(t1):
                pos1 = [c for c in REGIONS[r1] if cands[c] & bit]
                if len(pos1) < 2:
                    continue
                for r2 in _CROSS[(r1, t2)]:
                    s2 = REGION_SETS[r2]
                    if not all(c in s2 for c in pos1):
                        continue
                    s1 = REGION_SETS[r1]
                    elims = tuple((c, d) for c in REGIONS[r2] if c not in s1 and cands[c] & bit)
                    if not elims:
                        continue
                    if direct:
                        name = "Direct Pointing" if t1 == 0 else "Direct Claiming"
                        rating = 1.7 if t1 == 0 else 1.9
                        for r3 in _CROSS[(r2, t1)]:
                            if r3 == r1:
                                continue
                            pos3 = [c for c in REGIONS[r3] if cands[c] & bit]
                            if len(pos3) <= 1:
                                continue
                            rest = [c for c in pos3 if c not in s2]
                            if len(rest) == 1:
                                yield SEStep(name, rating, elims, (rest[0], d), tuple(pos1))
                    else:
                        name = "Pointing" if t1 == 0 else "Claiming"
                        rating = 2.6 if t1 == 0 else 2.8
                        yield SEStep(name, rating, elims, None, tuple(pos1), regions=(r1, r2))


def direct_pointing(state: State) -> Iterator[SEStep]:
    """Pointing (1.7) or claiming (1.9) that leaves a hidden single in another region."""
    return _locking(state, True)


def locking(state: State) -> Iterator[SEStep]:
    """Pointing (2.6) and claiming (2.8)."""
    return _locking(state, False)


_HIDDEN_NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}


def _hidden_sets(state: State, degree: int, direct: bool) -> Iterator[SEStep]:
    cands, values = state.cands, state.values
    value_combos = combos(degree, 9)
    for rtype in _SCAN_TYPES:
        for r in _regions_of_type(rtype):
            cells = REGIONS[r]
            empty = sum(1 for c in cells if not values[c])
            if not (empty > 2 * degree or (direct and empty > degree)):
                continue
            pos = [_position_mask(cands, r, BIT[d]) for d in range(1, 10)]
            for combo in value_combos:
                union = 0
                ok = True
                for i in combo:
                    m = pos[i]
                    if POPCOUNT[m] <= 1:
                        ok = False
                        break
                    union |= m
                if not ok or POPCOUNT[union] != degree:
                    continue
                vmask = 0
                for i in combo:
                    vmask |= 1 << i
                set_cells = [cells[i] for i in range(9) if union >> i & 1]
                elims = tuple((c, d) for c in set_cells for d in DIGITS[cands[c] & ~vmask])
                if direct:
                    for d in range(1, 10):
                        if vmask >> (d - 1) & 1:
                            continue
                        m = pos[d - 1]
                        if POPCOUNT[m] > 1:
                            rest = m & ~union
                            if POPCOUNT[rest] == 1:
                                if elims:
                                    target = cells[rest.bit_length() - 1]
                                    yield SEStep(
                                        f"Direct Hidden {_HIDDEN_NAMES[degree]}",
                                        2.0 if degree == 2 else 2.5,
                                        elims,
                                        (target, d),
                                        tuple(set_cells),
                                    )
                                break
                    continue
                if elims:
                    yield SEStep(
                        f"Hidden {_HIDDEN_NAMES[degree]}",
                        {2: 3.4, 3: 4.0, 4: 5.4}[degree],
                        elims,
                        None,
                        tuple(set_cells),
                        regions=(r,),
                    )


def direct_hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """A hidden pair (2.0) or triplet (2.5) that leaves a hidden single in its region."""
    return _hidden_sets(state, degree, True)


def hidden_sets(state: State, degree: int) -> Iterator[SEStep]:
    """Hidden pairs (3.4), triplets (4.0) and quads (5.4)."""
    return _hidden_sets(state, degree, False)


def naked_sets(state: State, degree: int) -> Iterator[SEStep]:
    """Naked pairs (3.0), triplets (3.6) and quads (5.0)."""
    cands, values = state.cands, state.values
    name = f"Naked {_HIDDEN_NAMES[degree]}"
    rating = {2: 3.0, 3: 3.6, 4: 5.0}[degree]
    cell_combos = combos(degree, 9)
    for rtype in _SCAN_TYPES:
        for r in _regions_of_type(rtype):
            cells = REGIONS[r]
            if sum(1 for c in cells if not values[c]) < 2 * degree:
                continue
            for combo in cell_combos:
                union = 0
                ok = True
                for i in combo:
                    m = cands[cells[i]]
                    if POPCOUNT[m] <= 1:
                        ok = False
                        break
                    union |= m
                if not ok or POPCOUNT[union] != degree:
                    continue
                chosen = {cells[i] for i in combo}
                elims = tuple(
                    (c, d) for c in cells if c not in chosen for d in DIGITS[cands[c] & union]
                )
                if elims:
                    yield SEStep(name, rating, elims, None, tuple(sorted(chosen)), regions=(r,))


_FISH_NAMES = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(state: State, degree: int) -> Iterator[SEStep]:
    """Basic fish on columns then rows: X-wing (3.2), swordfish (3.8), jellyfish (5.2)."""
    cands, values = state.cands, state.values
    name, rating = _FISH_NAMES[degree]
    placed = [0] * 10
    for v in values:
        placed[v] += 1
    index_combos = combos(degree, 9)
    for base_type, cover_type in ((2, 1), (1, 2)):
        base_regions = [REGIONS[9 * base_type + i] for i in range(9)]
        cover_regions = [REGIONS[9 * cover_type + i] for i in range(9)]
        pos_by_digit = [
            [0] * 9
            if d == 0
            else [_position_mask(cands, 9 * base_type + i, BIT[d]) for i in range(9)]
            for d in range(10)
        ]
        for combo in index_combos:
            base_mask = 0
            for i in combo:
                base_mask |= 1 << i
            for d in range(1, 10):
                if placed[d] + degree * 2 > 9:
                    continue
                pos = pos_by_digit[d]
                union = 0
                ok = True
                for i in combo:
                    m = pos[i]
                    if POPCOUNT[m] <= 1:
                        ok = False
                        break
                    union |= m
                if not ok or POPCOUNT[union] != degree:
                    continue
                bit = BIT[d]
                elims = []
                for j in range(9):
                    if union >> j & 1:
                        cover = cover_regions[j]
                        for i in range(9):
                            if not base_mask >> i & 1 and cands[cover[i]] & bit:
                                elims.append((cover[i], d))
                if elims:
                    cells = tuple(
                        base_regions[i][j]
                        for i in combo
                        for j in range(9)
                        if union >> j & 1 and cands[base_regions[i][j]] & bit
                    )
                    lines = tuple(9 * base_type + i for i in combo) + tuple(
                        9 * cover_type + j for j in range(9) if union >> j & 1
                    )
                    yield SEStep(name, rating, tuple(elims), None, cells, regions=lines)


def xy_wings(state: State, xyz: bool) -> Iterator[SEStep]:
    """XY-wing (4.2) or XYZ-wing (4.4)."""
    cands = state.cands
    target = 3 if xyz else 2
    name, rating = ("XYZ-Wing", 4.4) if xyz else ("XY-Wing", 4.2)
    for xy in range(81):
        xyv = cands[xy]
        if POPCOUNT[xyv] != target:
            continue
        for xz in PEERS[xy]:
            xzv = cands[xz]
            if POPCOUNT[xzv] != 2 or POPCOUNT[xyv & ~xzv] != 1:
                continue
            for yz in PEERS[xy]:
                yzv = cands[yz]
                if POPCOUNT[yzv] != 2:
                    continue
                union = xyv | xzv | yzv
                inter = xyv & xzv & yzv
                if POPCOUNT[union] != 3:
                    continue
                if xyz:
                    if POPCOUNT[inter] != 1:
                        continue
                elif inter:
                    continue
                z = xzv & yzv
                zd = DIGITS[z][0]
                zbit = BIT[zd]
                victims = PEER_SETS[xz] & PEER_SETS[yz]
                if xyz:
                    victims = victims & PEER_SETS[xy]
                elims = tuple(
                    (c, zd) for c in sorted(victims) if c not in (xy, xz, yz) and cands[c] & zbit
                )
                if elims:
                    yield SEStep(name, rating, elims, None, (xy, xz, yz))
