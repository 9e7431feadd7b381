"""Locked candidates between any two units sharing two or more cells.

If, inside a unit A of n cells, digit d can only go in the cells A shares with a unit B,
then d is in that intersection, so no other cell of B holds d. Named *pointing* when A is
not a row or column (the classic box -> line case, also diagonal or region -> other unit)
and *claiming* when A is a row or column (line -> box, line -> region ...). Rows and
columns share one cell only, so they never form an intersection here.
"""

from __future__ import annotations

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import BIT_DIGIT

__all__ = ["locked_pointing", "locked_claiming"]


def _locked(grid: CandidateGrid, *, claiming: bool) -> Step | None:
    t = grid.tables
    cands = grid.cands
    full = t.unit_full
    is_line = t.unit_is_line
    for inter in t.intersections:
        shared = 0
        for c in inter.shared:
            shared |= cands[c]
        if not shared:
            continue
        rest_a = rest_b = 0
        for c in inter.rest_a:
            rest_a |= cands[c]
        for c in inter.rest_b:
            rest_b |= cands[c]
        for source, target, rest_source, rest_target, target_cells in (
                (inter.unit_a, inter.unit_b, rest_a, rest_b, inter.rest_b),
                (inter.unit_b, inter.unit_a, rest_b, rest_a, inter.rest_a)):
            if not full[source] or is_line[source] != claiming:
                continue
            confined = shared & ~rest_source & rest_target
            if not confined:
                continue
            bit = confined & -confined
            d = BIT_DIGIT[bit]
            elims = [(c, d) for c in target_cells if cands[c] & bit]
            pattern = tuple(c for c in inter.shared if cands[c] & bit)
            key = "locked_claiming" if claiming else "locked_pointing"
            text = (f"in {t.unit_names[source]}, {d} can only go in {t.cells_text(pattern)}, "
                    f"which are also in {t.unit_names[target]}: "
                    f"{elimination_text(t, elims)}")
            return Step(key, (), tuple(elims), pattern, (source, target), (d,), text)
    return None


def locked_pointing(grid: CandidateGrid) -> Step | None:
    """Locked candidates, pointing: a digit confined to one line within a box (or within
    any non-line unit) leaves the rest of that line."""
    return _locked(grid, claiming=False)


def locked_claiming(grid: CandidateGrid) -> Step | None:
    """Locked candidates, claiming: a digit confined to one box within a row or column
    leaves the rest of that box."""
    return _locked(grid, claiming=True)
