"""Uniqueness techniques with SE's ratings in Python: unique rectangles and loops (types
1-4, 4.5 and up) and the bivalue universal grave (BUG types 1-4, 5.6 and up), the
reference of the C searches that the product runs (sudoku_model/se/se_unique.c through
:func:`sudoku_model.se.native.unique_loops` and :func:`sudoku_model.se.native.bug`).

Both assume the puzzle has one solution, as SE does.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudoku_model.se.state import (
    BIT,
    CELL_REGIONS,
    DIGITS,
    PEER_SETS,
    POPCOUNT,
    REGIONS,
    State,
    combos,
)
from sudoku_model.se.steps import SEStep

from .loops import valid_loops

__all__ = ["unique_loops", "bug"]


def _loop_rating(size: int) -> float:
    result = 4.5
    if size >= 10:
        result += 0.3
    if size >= 8:
        result += 0.2
    elif size >= 6:
        result += 0.1
    return result


def _loop_name(size: int, kind: int) -> str:
    base = "Unique Rectangle" if size == 4 else f"Unique Loop {size}"
    return f"{base} type {kind}"


def unique_loops(state: State) -> Iterator[SEStep]:
    """Unique rectangles and loops, sorted as SE sorts them (rating, then type)."""
    cands, values = state.cands, state.values
    hints: list[tuple[float, int, SEStep]] = []
    seen: set[tuple[object, ...]] = set()

    def add(kind: int, rating: float, loop: list[int], elims: list[tuple[int, int]]) -> None:
        if not elims:
            return
        key = (kind, frozenset(loop), tuple(sorted(elims)))
        if key in seen:
            return
        seen.add(key)
        step = SEStep(_loop_name(len(loop), kind), rating, tuple(elims), None, tuple(loop))
        hints.append((rating, kind, step))

    for start in range(81):
        m = cands[start]
        if POPCOUNT[m] != 2:
            continue
        v1, v2 = DIGITS[m]
        both = BIT[v1] | BIT[v2]
        for found in valid_loops(cands, start, v1, v2):
            loop = list(found)
            base = _loop_rating(len(loop))
            extra_cells = [c for c in loop if POPCOUNT[cands[c]] > 2]
            if len(extra_cells) == 1:
                c = extra_cells[0]
                add(1, base, loop, [(c, v1), (c, v2)])
            elif len(extra_cells) > 2:
                add(2, base, loop, _type2(cands, extra_cells, both))
            elif len(extra_cells) == 2:
                c1, c2 = extra_cells
                extra = (cands[c1] | cands[c2]) & ~both
                if POPCOUNT[extra] == 1:
                    add(2, base, loop, _type2(cands, extra_cells, both))
                elif POPCOUNT[extra] >= 2:
                    for rating, elims in _type3(cands, values, c1, c2, v1, v2, extra):
                        add(3, base + rating, loop, elims)
                elims4 = _type4(cands, c1, c2, v1, v2)
                if elims4:
                    add(4, base, loop, elims4)
    hints.sort(key=lambda h: (h[0], h[1]))
    for _, _, step in hints:
        yield step


def _type2(cands: list[int], extra_cells: list[int], both: int) -> list[tuple[int, int]]:
    value = DIGITS[cands[extra_cells[0]] & ~both][0]
    bit = BIT[value]
    common = set(PEER_SETS[extra_cells[0]])
    for c in extra_cells[1:]:
        common &= PEER_SETS[c]
    common -= set(extra_cells)
    return [(c, value) for c in sorted(common) if cands[c] & bit]


def _shared_regions(c1: int, c2: int) -> list[int]:
    return [r1 for r1, r2 in zip(CELL_REGIONS[c1], CELL_REGIONS[c2]) if r1 == r2]


def _type3(
    cands: list[int], values: list[int], c1: int, c2: int, v1: int, v2: int, extra: int
) -> Iterator[tuple[float, list[tuple[int, int]]]]:
    """(rating addition, eliminations) of every naked or hidden set that a unique loop
    with two extra cells c1, c2 forms in a region the two cells share."""
    both = BIT[v1] | BIT[v2]
    regions = _shared_regions(c1, c2)
    if not regions:
        return
    for degree in range(2, 8):
        for r in regions:
            cells = REGIONS[r]
            empty = sum(1 for c in cells if not values[c])
            i1 = cells.index(c1)
            i2 = cells.index(c2)
            if degree * 2 <= empty and degree >= POPCOUNT[extra]:
                for combo in combos(degree, 9):
                    if i1 not in combo or i2 in combo:
                        continue
                    naked = extra & cands[c1] & cands[c2]
                    union = 0
                    ok = True
                    others = []
                    for i in combo:
                        m = extra if i == i1 else cands[cells[i]]
                        if i != i1:
                            naked |= m
                            others.append(cells[i])
                        if POPCOUNT[m] <= 1:
                            ok = False
                        union |= m
                    if POPCOUNT[naked] != degree or not ok or POPCOUNT[union] != degree:
                        continue
                    skip = set(others) | {c1, c2}
                    elims = [
                        (c, d) for c in cells if c not in skip for d in DIGITS[cands[c] & union]
                    ]
                    if elims:
                        yield (degree - 1) * 0.1, elims
            if degree * 2 < empty:
                rem = [d for d in range(1, 10) if d not in (v1, v2) and not extra & BIT[d]]
                if degree - 2 <= len(rem):
                    for pick in combos(degree - 2, len(rem)):
                        digits = [rem[i] for i in pick] + [v1, v2]
                        union = 0
                        ok = True
                        for d in digits:
                            pos = 0
                            for i, c in enumerate(cells):
                                if i != i2 and cands[c] & BIT[d]:
                                    pos |= 1 << i
                            union |= pos
                            if pos == 0:
                                ok = False
                                break
                        if not ok or POPCOUNT[union] != degree:
                            continue
                        union &= ~((1 << i1) | (1 << i2))
                        hidden = 0
                        for d in digits:
                            hidden |= BIT[d]
                        elims = [
                            (cells[i], d)
                            for i in range(9)
                            if union >> i & 1
                            for d in DIGITS[cands[cells[i]] & ~hidden]
                        ]
                        if elims:
                            yield (POPCOUNT[union] - 1) * 0.1, elims
    del both


def _type4(cands: list[int], c1: int, c2: int, v1: int, v2: int) -> list[tuple[int, int]]:
    r1 = r2 = -1
    for r in _shared_regions(c1, c2):
        has1 = has2 = False
        for c in REGIONS[r]:
            if c != c1 and c != c2:
                if cands[c] & BIT[v1]:
                    has1 = True
                if cands[c] & BIT[v2]:
                    has2 = True
        if not has1:
            r1 = r
        if not has2:
            r2 = r
    if r1 >= 0:
        return [(c1, v2), (c2, v2)]
    if r2 >= 0:
        return [(c1, v1), (c2, v1)]
    return []


def bug(state: State) -> Iterator[SEStep]:
    """Bivalue universal grave: type 1 (5.6), types 2 and 4 (5.7), type 3 (5.7 + 0.1 per
    digit of the naked set beyond one)."""
    cands = state.cands
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_bug_values = 0
    common: set[int] | None = None
    all_extra: set[int] | None = None
    only_value = 0
    one_value = True

    def add_bug_cell(cell: int) -> bool:
        """Update the common peers; False when no BUG of type 1, 2 or 3 can remain."""
        nonlocal common
        common = set(PEER_SETS[cell]) if common is None else common & PEER_SETS[cell]
        common -= set(bug_cells)
        return not (len(bug_cells) > 1 and POPCOUNT[all_bug_values] > 1 and not common)

    for r in range(27):
        cells = REGIONS[r]
        for d in range(1, 10):
            bit = BIT[d]
            positions = [c for c in cells if cands[c] & bit]
            n = len(positions)
            if n == 0 or n == 2:
                continue
            new_cells = [c for c in positions if POPCOUNT[cands[c]] >= 3]
            if all_extra is None:
                all_extra = set(new_cells)
                only_value = d
            elif one_value:
                if only_value == d:
                    all_extra |= set(new_cells)
                else:
                    one_value = False
            if len(new_cells) == 1:
                cell = new_cells[0]
                if cell not in bug_cells:
                    bug_cells.append(cell)
                bug_values[cell] = bug_values.get(cell, 0) | bit
                all_bug_values |= bit
                temp[cell] &= ~bit
                if not add_bug_cell(cell):
                    return
            if not new_cells:
                return
    if one_value and all_extra is not None and len(all_extra) > len(bug_cells):
        for cell in sorted(all_extra - set(bug_cells)):
            bug_cells.append(cell)
            bug_values[cell] = BIT[only_value]
            temp[cell] &= ~BIT[only_value]
            if not add_bug_cell(cell):
                return
    if not bug_cells:
        return
    for c in range(81):
        if not state.values[c] and POPCOUNT[temp[c]] != 2:
            return
    for r in range(27):
        for d in range(1, 10):
            n = sum(1 for c in REGIONS[r] if temp[c] & BIT[d])
            if n != 0 and n != 2:
                return
    if len(bug_cells) == 1:
        cell = bug_cells[0]
        elims = tuple((cell, d) for d in DIGITS[cands[cell] & ~all_bug_values])
        if elims:
            yield SEStep("BUG type 1", 5.6, elims, None, (cell,))
    elif POPCOUNT[all_bug_values] == 1:
        value = DIGITS[all_bug_values][0]
        if common:
            elims = tuple((c, value) for c in sorted(common) if cands[c] & BIT[value])
            if elims:
                yield SEStep("BUG type 2", 5.7, elims, None, tuple(bug_cells))
        if len(bug_cells) == 2:
            yield from _bug4(cands, bug_cells, bug_values, all_bug_values)
    elif common:
        if len(bug_cells) == 2:
            yield from _bug4(cands, bug_cells, bug_values, all_bug_values)
        yield from _bug3(cands, bug_cells, all_bug_values, common)


def _bug4(
    cands: list[int], bug_cells: list[int], bug_values: dict[int, int], all_values: int
) -> Iterator[SEStep]:
    c1, c2 = bug_cells
    shared = cands[c1] & cands[c2] & ~all_values
    if POPCOUNT[shared] != 1:
        return
    value_bit = shared
    for _ in _shared_regions(c1, c2):
        elims = tuple(
            (c, d) for c in (c1, c2) for d in DIGITS[cands[c] & ~bug_values[c] & ~value_bit]
        )
        if elims:
            yield SEStep("BUG type 4", 5.7, elims, None, (c1, c2))


def _bug3(
    cands: list[int], bug_cells: list[int], all_values: int, common: set[int]
) -> Iterator[SEStep]:
    for degree in range(2, 7):
        for rtype in (0, 1, 2):
            regions = {CELL_REGIONS[c][rtype] for c in bug_cells}
            if len(regions) != 1:
                continue
            r = regions.pop()
            region_cells = [c for c in sorted(common) if CELL_REGIONS[c][rtype] == r]
            if len(region_cells) < degree:
                continue
            for pick in combos(degree - 1, len(region_cells)):
                naked_cells = [region_cells[i] for i in pick]
                other = 0
                ok = POPCOUNT[all_values] >= 2
                for c in naked_cells:
                    other |= cands[c]
                    if POPCOUNT[cands[c]] <= 1:
                        ok = False
                if POPCOUNT[other] != degree or not ok:
                    continue
                naked = other | all_values
                if POPCOUNT[naked] != degree:
                    continue
                skip = set(naked_cells) | set(bug_cells)
                elims = tuple(
                    (c, d) for c in region_cells if c not in skip for d in DIGITS[cands[c] & naked]
                )
                if elims:
                    yield SEStep(
                        "BUG type 3",
                        5.7 + (POPCOUNT[naked] - 1) * 0.1,
                        elims,
                        None,
                        tuple(bug_cells) + tuple(naked_cells),
                    )
