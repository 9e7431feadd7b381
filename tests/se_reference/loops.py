"""The search for unique loops in Python, for :func:`.unique.unique_loops` (the reference
of the C search in sudoku_model/se/se_unique.c)."""

from __future__ import annotations

from sudoku_model.se.state import BIT, CELL_REGIONS, POPCOUNT, REGIONS


def _find_loops(cands: list[int], start: int, v1: int, v2: int) -> list[list[int]]:
    """Closed paths through cells holding both v1 and v2, changing region type at every
    step, with at most two cells carrying extra digits unless all extras are one digit."""
    both = BIT[v1] | BIT[v2]
    results: list[list[int]] = []
    loop: list[int] = []
    in_loop = [False] * 81

    def walk(cell: int, allowed: int, extra: int, last_type: int) -> None:
        loop.append(cell)
        in_loop[cell] = True
        for rtype in (0, 1, 2):
            if rtype == last_type:
                continue
            for nxt in REGIONS[CELL_REGIONS[cell][rtype]]:
                if nxt == loop[0] and len(loop) >= 4:
                    results.append(list(loop))
                elif not in_loop[nxt]:
                    m = cands[nxt]
                    if m & both == both:
                        new_extra = (extra | m) & ~both
                        n = POPCOUNT[m]
                        if n == 2 or POPCOUNT[new_extra] == 1 or allowed > 0:
                            walk(nxt, allowed - 1 if n > 2 else allowed, new_extra, rtype)
        loop.pop()
        in_loop[cell] = False

    walk(start, 2, 0, -1)
    return results


def _valid_loop(loop: list[int]) -> bool:
    odd: set[int] = set()
    even: set[int] = set()
    is_odd = False
    for cell in loop:
        target = odd if is_odd else even
        for r in CELL_REGIONS[cell]:
            if r in target:
                return False
            target.add(r)
        is_odd = not is_odd
    return odd == even


def valid_loops(cands: list[int], start: int, v1: int, v2: int) -> list[list[int]]:
    """The valid loops through ``start`` on the digits v1 and v2, in SE's order."""
    return [loop for loop in _find_loops(cands, start, v1, v2) if _valid_loop(loop)]
