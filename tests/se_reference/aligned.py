"""Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5), as SE finds them."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from sudoku_model.se.state import DIGITS, PEER_SETS, PEERS, POPCOUNT, State, combos
from sudoku_model.se.steps import SEStep

__all__ = ["aligned_exclusion"]


def aligned_exclusion(state: State, degree: int) -> Iterator[SEStep]:
    """Combinations of digits for ``degree`` cells that would empty a common peer (an
    "excluder" with at most ``degree`` candidates) or repeat a digit in a region are
    impossible; a digit of a cell that appears in no possible combination goes."""
    cands = state.cands
    candidates: list[int] = []
    excluders: dict[int, list[int]] = {}
    for c in range(81):
        if POPCOUNT[cands[c]] < 2:
            continue
        naked_single = False
        excl = []
        for p in PEERS[c]:
            n = POPCOUNT[cands[p]]
            if n == 1:
                naked_single = True
            elif 2 <= n <= degree:
                excl.append(p)
        if not naked_single and excl:
            candidates.append(c)
            excluders[c] = excl
    if len(candidates) < degree:
        return
    candidate_set = set(candidates)
    # Excluders as bitsets of cells: the common excluders of a group are one AND, and a
    # pair with fewer than two common excluders has no triplet with two either.
    ex_bits = {c: sum(1 << e for e in excl) for c, excl in excluders.items()}
    name = "Aligned Pair Exclusion" if degree == 2 else "Aligned Triplet Exclusion"
    rating = 6.2 if degree == 2 else 7.5
    for i0, i1 in combos(2, len(candidates)):
        c0, c1 = candidates[i0], candidates[i1]
        common01 = ex_bits[c0] & ex_bits[c1]
        if common01 & (common01 - 1) == 0:
            continue
        if degree == 2:
            groups: Iterator[tuple[int, ...]] = iter([(c0, c1)])
        else:
            twin: dict[int, None] = {}
            for c in excluders[c0] + excluders[c1]:
                if c in candidate_set and c != c0 and c != c1:
                    twin[c] = None
            tail = list(twin)
            groups = (
                (c0, c1) + tuple(tail[j] for j in pick) for pick in combos(degree - 2, len(tail))
            )
        for cells in groups:
            common = common01
            for c in cells[2:]:
                common &= ex_bits[c]
            if common & (common - 1) == 0:
                continue
            elims = _exclusions(cands, cells, common)
            if elims:
                yield SEStep(name, rating, elims, None, cells)


def _exclusions(
    cands: list[int], cells: tuple[int, ...], common: int
) -> tuple[tuple[int, int], ...]:
    """The candidates of ``cells`` that no combination allows: one that repeats a digit
    in a region or covers every candidate of a common excluder (``common``, a bitset of
    cells) is impossible. The enumeration stops as soon as every candidate is allowed,
    which is the usual outcome."""
    n = len(cells)
    sees = [[cells[j] in PEER_SETS[cells[i]] for j in range(n)] for i in range(n)]
    excluder_masks = []
    while common:
        low = common & -common
        excluder_masks.append(cands[low.bit_length() - 1])
        common ^= low
    want = [cands[c] for c in cells]
    allowed = [0] * n
    if n == 3:
        _allowed3(want, sees, excluder_masks, allowed)
    else:
        missing = n  # cells with a candidate not yet allowed
        for combo in product(*(DIGITS[w] for w in want)):
            ok = True
            for i in range(n):
                for j in range(i + 1, n):
                    if combo[i] == combo[j] and sees[i][j]:
                        ok = False
                        break
                if not ok:
                    break
            if not ok:
                continue
            mask = 0
            for d in combo:
                mask |= 1 << (d - 1)
            for m in excluder_masks:
                if m & ~mask == 0:
                    break
            else:
                for i in range(n):
                    bit = 1 << (combo[i] - 1)
                    if not allowed[i] & bit:
                        allowed[i] |= bit
                        if allowed[i] == want[i]:
                            missing -= 1
                if not missing:
                    return ()
    if allowed == want:
        return ()
    return tuple(
        (c, d)
        for i, c in enumerate(cells)
        for d in DIGITS[want[i]]
        if not allowed[i] >> (d - 1) & 1
    )


def _allowed3(
    want: list[int], sees: list[list[bool]], excluder_masks: list[int], allowed: list[int]
) -> None:
    """:func:`_exclusions` for three cells, in nested loops over candidate bits: a pair
    of digits that already covers a two-candidate excluder rules out every third one."""
    s01, s02, s12 = sees[0][1], sees[0][2], sees[1][2]
    pairs = [m for m in excluder_masks if POPCOUNT[m] == 2]
    w0, w1, w2 = want
    a0 = a1 = a2 = 0
    m0 = w0
    while m0:
        b0 = m0 & -m0
        m0 ^= b0
        m1 = w1 & ~b0 if s01 else w1
        while m1:
            b1 = m1 & -m1
            m1 ^= b1
            m01 = b0 | b1
            if any(m & ~m01 == 0 for m in pairs):
                continue
            m2 = w2
            if s02:
                m2 &= ~b0
            if s12:
                m2 &= ~b1
            while m2:
                b2 = m2 & -m2
                m2 ^= b2
                mask = m01 | b2
                for m in excluder_masks:
                    if m & ~mask == 0:
                        break
                else:
                    a0 |= b0
                    a1 |= b1
                    a2 |= b2
                    if a0 == w0 and a1 == w1 and a2 == w2:
                        allowed[:] = want
                        return
    allowed[:] = [a0, a1, a2]
