"""Naked and hidden singles: the only techniques that place digits."""

from __future__ import annotations

from ..engine import CandidateGrid
from ..steps import Step
from ..tables import BIT_DIGIT

__all__ = ["naked_single", "hidden_single"]


def naked_single(grid: CandidateGrid) -> Step | None:
    """A cell with one candidate left holds it.

    Reads the engine's single queue, so a call costs nothing when no cell changed.
    """
    queue = grid.queue
    values = grid.values
    cands = grid.cands
    while queue:
        c = queue[-1]
        m = cands[c]
        if values[c] or not m or m & (m - 1):
            queue.pop()  # stale: placed since, or emptied (the grid is then broken)
            continue
        d = BIT_DIGIT[m]
        return Step(
            "naked_single",
            ((c, d),),
            (),
            (c,),
            (),
            (d,),
            f"{grid.tables.cell_names[c]} = {d}: the only candidate left in the cell",
        )
    return None


def hidden_single(grid: CandidateGrid) -> Step | None:
    """A digit with one possible cell left in a unit of n cells goes there.

    Examines only the units marked dirty since their last examination; sets
    ``grid.broken`` when a unit has no place left for a digit.
    """
    t = grid.tables
    dirty = grid.dirty
    unit_full = t.unit_full
    all_mask = t.all_mask
    cands = grid.cands
    while dirty:
        u = next(iter(dirty))
        if unit_full[u]:
            placed, once, twice = grid.unit_counts(u)
            if (once | placed) != all_mask:
                missing = all_mask & ~(once | placed)
                grid.broken = (
                    f"{BIT_DIGIT[missing & -missing]} has no place left in {t.unit_names[u]}"
                )
                return None
            singles = once & ~twice
            if singles:
                bit = singles & -singles
                d = BIT_DIGIT[bit]
                for c in t.units[u]:
                    if cands[c] & bit:
                        return Step(
                            "hidden_single",
                            ((c, d),),
                            (),
                            (c,),
                            (u,),
                            (d,),
                            f"{t.cell_names[c]} = {d}: the only place for {d} in {t.unit_names[u]}",
                        )
        dirty.discard(u)
    return None
