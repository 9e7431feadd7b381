"""XY-Wing and XYZ-Wing.

"Sees" means "is a peer of" (shares a unit or a Different pair), so both work for every
unit-based variant and for anti-knight/anti-king.

* XY-Wing: a pivot {x,y} sees pincers {x,z} and {y,z}. Whatever the pivot holds, one
  pincer is z, so a cell seeing both pincers is not z.
* XYZ-Wing: a pivot {x,y,z} sees pincers {x,z} and {y,z}; one of the three is z, so a cell
  seeing all three is not z.
"""

from __future__ import annotations

from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import BIT_DIGIT

__all__ = ["xy_wing", "xyz_wing"]


def _wing(grid: CandidateGrid, *, pivot_size: int) -> Step | None:
    t = grid.tables
    cands = grid.cands
    peers = t.peers
    peer_sets = t.peer_sets
    for pivot in range(t.cell_count):
        pm = cands[pivot]
        if pm.bit_count() != pivot_size:
            continue
        shared_with_pivot = 1 if pivot_size == 2 else 2
        pincers = [
            p
            for p in peers[pivot]
            if cands[p].bit_count() == 2 and (cands[p] & pm).bit_count() == shared_with_pivot
        ]
        if pivot_size == 3:
            # XYZ pincers are subsets of the pivot.
            pincers = [p for p in pincers if cands[p] & ~pm == 0]
        for i, a in enumerate(pincers):
            am = cands[a]
            for b in pincers[i + 1 :]:
                bm = cands[b]
                if am == bm:
                    continue
                z = am & bm
                if z.bit_count() != 1:
                    continue
                if pivot_size == 2:
                    if (am | bm) & ~z != pm or z & pm:
                        continue
                    seen = peer_sets[a] & peer_sets[b]
                else:
                    if (am | bm) != pm:
                        continue
                    seen = peer_sets[a] & peer_sets[b] & peer_sets[pivot]
                d = BIT_DIGIT[z]
                elims = sorted((c, d) for c in seen if cands[c] & z and c not in (pivot, a, b))
                if not elims:
                    continue
                key = "xy_wing" if pivot_size == 2 else "xyz_wing"
                title = "XY-Wing" if pivot_size == 2 else "XYZ-Wing"
                names = t.cell_names
                text = (
                    f"{title}: pivot {names[pivot]} {{{_digits(pm)}}} with pincers "
                    f"{names[a]} {{{_digits(am)}}} and {names[b]} {{{_digits(bm)}}}: "
                    f"one of them is {d}: {elimination_text(t, elims)}"
                )
                return Step(key, (), tuple(elims), (pivot, a, b), (), _tuple_digits(pm | z), text)
    return None


def _digits(mask: int) -> str:
    return ",".join(str(d) for d in _tuple_digits(mask))


def _tuple_digits(mask: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


def xy_wing(grid: CandidateGrid) -> Step | None:
    """A bivalue pivot and two bivalue pincers sharing z: cells seeing both pincers
    lose z."""
    return _wing(grid, pivot_size=2)


def xyz_wing(grid: CandidateGrid) -> Step | None:
    """A trivalue pivot and two bivalue pincers inside it sharing z: cells seeing all
    three lose z."""
    return _wing(grid, pivot_size=3)
