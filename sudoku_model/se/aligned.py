"""Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5), as SE finds them."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from .state import DIGITS, PEER_SETS, PEERS, POPCOUNT, State, combos
from .steps import SEStep

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
    name = "Aligned Pair Exclusion" if degree == 2 else "Aligned Triplet Exclusion"
    rating = 6.2 if degree == 2 else 7.5
    for i0, i1 in combos(2, len(candidates)):
        c0, c1 = candidates[i0], candidates[i1]
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
            common = set(excluders[cells[0]])
            for c in cells[1:]:
                common &= set(excluders[c])
            if len(common) < 2:
                continue
            elims = _exclusions(cands, cells, common)
            if elims:
                yield SEStep(name, rating, elims, None, cells)


def _exclusions(
    cands: list[int], cells: tuple[int, ...], common: set[int]
) -> tuple[tuple[int, int], ...]:
    n = len(cells)
    sees = [[cells[j] in PEER_SETS[cells[i]] for j in range(n)] for i in range(n)]
    excluder_masks = [cands[e] for e in common]
    allowed: list[set[int]] = [set() for _ in range(n)]
    for combo in product(*(DIGITS[cands[c]] for c in cells)):
        ok = True
        for i in range(n):
            for j in range(i + 1, n):
                if combo[i] == combo[j] and sees[i][j]:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            mask = 0
            for d in combo:
                mask |= 1 << (d - 1)
            for m in excluder_masks:
                if m & ~mask == 0:
                    ok = False
                    break
        if ok:
            for i in range(n):
                allowed[i].add(combo[i])
    return tuple(
        (c, d) for i, c in enumerate(cells) for d in DIGITS[cands[c]] if d not in allowed[i]
    )
