"""Locked candidates between any two units sharing two or more cells.

If, inside a unit A of n cells, digit d can only go in the cells A shares with a unit B,
then d is in that intersection, so no other cell of B holds d. Named *pointing* when A is
not a row or column (the classic box -> line case, also diagonal or region -> other unit)
and *claiming* when A is a row or column (line -> box, line -> region ...). Rows and
columns share one cell only, so they never form an intersection here.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import cast

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import BIT_DIGIT

__all__ = ["locked_pointing", "locked_claiming"]


def _locked(grid: CandidateGrid, *, claiming: bool) -> Step | None:
    t = grid.tables
    cands = grid.cands
    masks = _masks(grid)
    for index, source, target, target_cells, source_is_a in (
        t.locked_claiming if claiming else t.locked_pointing
    ):
        shared, rest_a, rest_b = masks[index]
        if source_is_a:
            confined = shared & ~rest_a & rest_b
        else:
            confined = shared & ~rest_b & rest_a
        if not confined:
            continue
        bit = confined & -confined
        d = BIT_DIGIT[bit]
        elims = [(c, d) for c in target_cells if cands[c] & bit]
        pattern = tuple(c for c in t.intersections[index].shared if cands[c] & bit)
        key = "locked_claiming" if claiming else "locked_pointing"
        text = (
            f"in {t.unit_names[source]}, {d} can only go in {t.cells_text(pattern)}, "
            f"which are also in {t.unit_names[target]}: "
            f"{elimination_text(t, elims)}"
        )
        return Step(key, (), tuple(elims), pattern, (source, target), (d,), text)
    return None


def _masks(grid: CandidateGrid) -> list[tuple[int, int, int]]:
    """(shared, rest of A, rest of B) candidate masks of every intersection, kept in
    ``grid.memo`` and recomputed only for intersections holding a touched cell: this scan
    runs every time the singles stall, so it follows the engine's change events."""
    t = grid.tables
    get = grid.cands.__getitem__
    intersections = t.intersections
    masks = cast("list[tuple[int, int, int]] | None", grid.memo.get("locked"))
    if masks is None:
        stale: set[int] | range = range(len(intersections))
        masks = [(0, 0, 0)] * len(intersections)
        grid.memo["locked"] = masks
    else:
        stale = set()
        cell_intersections = t.cell_intersections
        for c in set(grid.touched):
            stale.update(cell_intersections[c])
    grid.touched.clear()
    for index in stale:
        inter = intersections[index]
        # map/reduce keep the OR loops in C.
        masks[index] = (
            reduce(or_, map(get, inter.shared), 0),
            reduce(or_, map(get, inter.rest_a), 0),
            reduce(or_, map(get, inter.rest_b), 0),
        )
    return masks


def locked_pointing(grid: CandidateGrid) -> Step | None:
    """Locked candidates, pointing: a digit confined to one line within a box (or within
    any non-line unit) leaves the rest of that line."""
    return _locked(grid, claiming=False)


def locked_claiming(grid: CandidateGrid) -> Step | None:
    """Locked candidates, claiming: a digit confined to one box within a row or column
    leaves the rest of that box."""
    return _locked(grid, claiming=True)
