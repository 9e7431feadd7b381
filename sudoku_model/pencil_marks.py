"""Pencil marks: the candidates of each empty cell under all the rules, and where in a cell
to draw them (:mod:`sudoku_model.display` draws them).

The candidates are the logic solver's basic eliminations
(:class:`~sudoku_model.logic.engine.CandidateGrid` and
:func:`~sudoku_model.logic.constraints.sweep`): a digit is dropped when a peer holds it,
when a domain (even/odd cell) or relation (kropki dot, XV, sign, thermometer) excludes it,
or when no digit set of a killer cage or sum line, nor the bounds of an arrow or a
sandwich, leaves room for it, repeated until nothing changes. No cell is filled: a cell
left with one candidate shows that one mark.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .rules import RuleSet

__all__ = ["candidates", "MarkBox", "mark_boxes"]


def candidates(rules: RuleSet, values: Sequence[int]) -> list[frozenset[int]]:
    """For each empty cell, the digits the rules leave it (module notes); the empty set
    for filled cells. When the digits placed break a rule, the marks fall back to the
    digits no peer holds (the drawing shows the clash, not an empty board).

    >>> from sudoku_model import Grid, RuleSet
    >>> g = Grid.parse(".2..3....1....4.")
    >>> sorted(candidates(RuleSet.classic(g.shape), g.values)[0])
    [1, 4]
    """
    from .logic.constraints import sweep
    from .logic.engine import CandidateGrid

    grid = CandidateGrid.from_values(rules, list(values))
    while grid.broken is None and sweep(grid):
        pass
    if grid.broken is not None:
        return _peer_candidates(rules, values)
    n = rules.shape.size
    return [
        frozenset() if v else frozenset(d for d in range(1, n + 1) if mask >> (d - 1) & 1)
        for v, mask in zip(values, grid.cands)
    ]


def _peer_candidates(rules: RuleSet, values: Sequence[int]) -> list[frozenset[int]]:
    n = rules.shape.size
    full = frozenset(range(1, n + 1))
    peers = rules.peers
    return [
        frozenset() if v else full - {values[p] for p in peers[cell]}
        for cell, v in enumerate(values)
    ]


@dataclass(frozen=True)
class MarkBox:
    """Where the marks of one cell go, in cell units from its top-left corner: the
    centre of digit d's mark is ``centre(d)``; ``size`` is the font size in cells."""

    left: float
    top: float
    width: float
    height: float
    columns: int
    rows: int
    size: float

    def centre(self, digit: int) -> tuple[float, float]:
        i, j = divmod(digit - 1, self.columns)
        return (
            self.left + (j + 0.5) * self.width / self.columns,
            self.top + (i + 0.5) * self.height / self.rows,
        )


def mark_boxes(n: int, label_band: float | None = None) -> tuple[MarkBox, MarkBox]:
    """The layouts of the marks of an n-digit grid: for a plain cell and for a cell with a
    corner label (a cage total or a sum-line total ``label_band`` cells high).

    Without labels (``label_band`` None) both are a near-square grid of digits over the
    whole cell. With them, the marks stay inside the cage outlines, below the label in a
    labelled cell, in one font size for every cell.
    """
    columns = math.ceil(math.sqrt(n))
    rows = math.ceil(n / columns)
    if label_band is None:
        whole = MarkBox(0.0, 0.0, 1.0, 1.0, columns, rows, 0.8 / columns)
        return whole, whole
    left, right, bottom = 0.13, 0.87, 0.88
    top = label_band + 0.02
    width = right - left
    size = min(0.8 * width / columns, 0.95 * (bottom - top) / rows)
    return (
        MarkBox(left, 0.13, width, bottom - 0.13, columns, rows, size),
        MarkBox(left, top, width, bottom - top, columns, rows, size),
    )
