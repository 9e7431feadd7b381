"""Basic fish on rows and columns: X-Wing (2), Swordfish (3), Jellyfish (4).

If, for a digit d, k rows have all their d-candidates inside the same k columns, those k
rows put their k d's in these columns, so the other cells of the columns lose d (and the
same with rows and columns swapped). Defined wherever the rule set has the full row and
column units (every shape and every variant built by ``RuleSet.build``); variant units
(boxes, diagonals, regions) are not used as fish bases here.
"""

from __future__ import annotations

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from .subsets import subset_combinations

__all__ = ["fish", "x_wing", "swordfish", "jellyfish"]

_NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}
_TITLES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def fish(grid: CandidateGrid, k: int) -> Step | None:
    """The first fish of size ``k`` that removes a candidate, or None (also None when the
    rule set has no row and column units)."""
    t = grid.tables
    if t.row_units is None or t.column_units is None:
        return None
    n = t.n
    cands = grid.cands
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        # by_row[r]: columns of row r where d is possible; by_col the transpose.
        by_row = [0] * n
        by_col = [0] * n
        for r in range(n):
            base = r * n
            for c in range(n):
                if cands[base + c] & bit:
                    by_row[r] |= 1 << c
                    by_col[c] |= 1 << r
        for base_is_row in (True, False):
            lines = by_row if base_is_row else by_col
            candidates = [(i, m) for i, m in enumerate(lines) if 2 <= m.bit_count() <= k]
            if len(candidates) < k:
                continue
            # base lines: k lines whose candidate positions cover exactly k cover lines
            for base_lines, cover in subset_combinations(candidates, k):
                base_set = set(base_lines)
                elims = []
                for cover_line in range(n):
                    if not cover >> cover_line & 1:
                        continue
                    for other in range(n):
                        if other in base_set:
                            continue
                        cell = other * n + cover_line if base_is_row else cover_line * n + other
                        if cands[cell] & bit:
                            elims.append((cell, d))
                if not elims:
                    continue
                cover_lines = [i for i in range(n) if cover >> i & 1]
                if base_is_row:
                    units = tuple(t.row_units[r] for r in base_lines) + tuple(
                        t.column_units[c] for c in cover_lines
                    )
                    cells = tuple(
                        r * n + c for r in base_lines for c in cover_lines if cands[r * n + c] & bit
                    )
                else:
                    units = tuple(t.column_units[c] for c in base_lines) + tuple(
                        t.row_units[r] for r in cover_lines
                    )
                    cells = tuple(
                        sorted(
                            r * n + c
                            for c in base_lines
                            for r in cover_lines
                            if cands[r * n + c] & bit
                        )
                    )
                base_names = ", ".join(t.unit_names[u] for u in units[:k])
                cover_names = ", ".join(t.unit_names[u] for u in units[k:])
                text = (
                    f"{_TITLES[k]} on {d}: in {base_names} it fits only in "
                    f"{cover_names}: {elimination_text(t, elims)}"
                )
                return Step(_NAMES[k], (), tuple(elims), cells, units, (d,), text)
    return None


def x_wing(grid: CandidateGrid) -> Step | None:
    """Fish of size 2."""
    return fish(grid, 2)


def swordfish(grid: CandidateGrid) -> Step | None:
    """Fish of size 3."""
    return fish(grid, 3)


def jellyfish(grid: CandidateGrid) -> Step | None:
    """Fish of size 4."""
    return fish(grid, 4)
