"""The candidate grid (pencil marks) and its change-driven propagation.

Each empty cell keeps a bitmask of the digits still possible (digit d is bit ``d - 1``).
Changes are events: placing a digit removes it from the peers, and every cell whose mask
shrinks marks only the units holding it as *dirty* and, when one candidate is left, joins
the naked-single queue. Hidden singles then re-examine only the dirty units, the way an
event-driven solver lets each changed cell wake its row, column and box.

>>> from sudoku_model import Puzzle
>>> grid = CandidateGrid.from_puzzle(Puzzle.parse("1.3..4.2.1.3..2."))
>>> grid.propagate_singles(), grid.is_solved
(True, True)
>>> "".join(map(str, grid.values))
'1234341221434321'
"""

from __future__ import annotations

from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from .tables import BIT_DIGIT, Tables, tables_for

__all__ = ["CandidateGrid"]


class CandidateGrid:
    """Values and candidate masks of a puzzle being solved.

    Attributes:
        tables: the rule set's lookup tables.
        values: the digit of each cell (0 = empty).
        cands: the candidate mask of each empty cell (0 once the cell is placed).
        dirty: units touched since hidden singles last examined them.
        queue: cells that may have one candidate left (entries may be stale).
        broken: None while consistent, else why the position is impossible.
        touched: cells whose mask changed since techniques with a cache last looked.
        memo: technique caches (locked candidates keeps its intersection masks here).
    """

    __slots__ = (
        "tables",
        "values",
        "cands",
        "dirty",
        "queue",
        "broken",
        "empty",
        "touched",
        "memo",
    )

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.values: list[int] = [0] * tables.cell_count
        self.cands: list[int] = [tables.all_mask] * tables.cell_count
        self.dirty: set[int] = set(range(tables.unit_count))
        self.queue: list[int] = []
        self.broken: str | None = None
        self.empty: int = tables.cell_count
        self.touched: list[int] = []
        self.memo: dict[str, object] = {}

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> CandidateGrid:
        """The grid with the givens placed and their digits removed from the peers.

        Clashing givens leave the grid ``broken`` (check ``puzzle.conflicts()`` first to
        tell "contradictory" from "unsolvable").
        """
        return cls.from_values(puzzle.rules, puzzle.givens.values)

    @classmethod
    def from_values(cls, rules: RuleSet, values: tuple[int, ...] | list[int]) -> CandidateGrid:
        grid = cls(tables_for(rules))
        constraints = grid.tables.constraints
        if constraints is not None and constraints.domains is not None:
            # domain rules (even/odd cells) are the cells' first pencil marks
            grid.cands = list(constraints.domains)
            for cell, digit in enumerate(values):
                if digit and not constraints.domains[cell] >> (digit - 1) & 1:
                    grid.broken = (
                        f"given {digit} at {grid.tables.cell_names[cell]} breaks its domain"
                    )
        for cell, digit in enumerate(values):
            if digit:
                if not grid.cands[cell] >> (digit - 1) & 1:
                    if grid.broken is not None:
                        continue
                    grid.broken = (
                        f"given {digit} at {grid.tables.cell_names[cell]} "
                        "clashes with another given"
                    )
                    continue
                grid.place(cell, digit)
        grid.queue = [c for c in range(len(values)) if grid.values[c] == 0]
        if (
            constraints is not None
            and grid.broken is None
            and any(not m for m, v in zip(grid.cands, grid.values) if not v)
        ):
            grid.broken = "a cell has no candidate left"
        return grid

    def copy(self) -> CandidateGrid:
        other = object.__new__(CandidateGrid)
        other.tables = self.tables
        other.values = self.values[:]
        other.cands = self.cands[:]
        other.dirty = set(self.dirty)
        other.queue = self.queue[:]
        other.broken = self.broken
        other.empty = self.empty
        # Caches are not copied: the copy rebuilds them if it needs them (search never does).
        other.touched = []
        other.memo = {}
        return other

    # -- state -------------------------------------------------------------------------
    @property
    def is_solved(self) -> bool:
        return self.empty == 0 and self.broken is None

    def check_full(self) -> bool:
        """For a full grid: mark it ``broken`` (and return False) when it breaks a
        relation, domain, sum or sandwich rule; singles alone can fill a grid that does."""
        if self.empty or self.broken is not None or self.tables.constraints is None:
            return self.broken is None
        broken = self.tables.rules.violations(self.values)
        if broken:
            self.broken = broken[0][1]
            return False
        return True

    def propagate(self) -> bool:
        """:meth:`propagate_singles`, then the relation, sum and sandwich rules
        (:func:`~sudoku_model.logic.constraints.sweep`), until neither changes anything.
        Returns False (and sets ``broken``) on a contradiction."""
        if self.tables.constraints is None:
            return self.propagate_singles()
        from .constraints import sweep

        while self.propagate_singles():
            if not sweep(self):
                return self.broken is None and self.check_full()
        return False

    def to_grid(self) -> Grid:
        """The values as a :class:`Grid` (0 where still empty)."""
        return Grid._trusted(self.tables.shape, tuple(self.values))

    def candidates(self, cell: int) -> list[int]:
        """The digits still possible in ``cell`` (empty list once placed)."""
        mask = self.cands[cell]
        return [d for d in range(1, self.tables.n + 1) if mask >> (d - 1) & 1]

    # -- events ------------------------------------------------------------------------
    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and remove it from every peer.

        A peer left without candidates marks the grid ``broken`` (the move is still made,
        so the caller sees the contradiction at once).
        """
        if self.values[cell]:
            if self.values[cell] != digit:
                self.broken = f"{self.tables.cell_names[cell]} already holds {self.values[cell]}"
            return
        bit = 1 << (digit - 1)
        if not self.cands[cell] & bit:
            self.broken = f"{digit} is not a candidate of {self.tables.cell_names[cell]}"
        self.values[cell] = digit
        self.cands[cell] = 0
        self.empty -= 1
        cands = self.cands
        dirty = self.dirty
        cell_units = self.tables.cell_units
        dirty.update(cell_units[cell])
        touched = self.touched
        touched.append(cell)
        keep = ~bit
        for p in self.tables.peers[cell]:
            m = cands[p]
            if m & bit:
                m &= keep
                cands[p] = m
                dirty.update(cell_units[p])
                touched.append(p)
                if not m & (m - 1):
                    if m:
                        self.queue.append(p)
                    else:
                        self.broken = (
                            f"{self.tables.cell_names[p]} has no candidate left "
                            f"after {self.tables.cell_names[cell]} = {digit}"
                        )

    def eliminate(self, cell: int, mask: int) -> bool:
        """Remove the digits of ``mask`` from ``cell``; True when something changed."""
        m = self.cands[cell]
        if not m & mask:
            return False
        m &= ~mask
        self.cands[cell] = m
        self.dirty.update(self.tables.cell_units[cell])
        self.touched.append(cell)
        if not m & (m - 1):
            if m:
                self.queue.append(cell)
            else:
                self.broken = f"{self.tables.cell_names[cell]} has no candidate left"
        return True

    # -- fast propagation (search) -----------------------------------------------------
    def propagate_singles(self) -> bool:
        """Apply naked and hidden singles until none is left, recording nothing.

        Returns False (and sets ``broken``) on a contradiction.
        """
        t = self.tables
        units = t.units
        unit_full = t.unit_full
        all_mask = t.all_mask
        cands = self.cands
        values = self.values
        queue = self.queue
        dirty = self.dirty
        while self.broken is None:
            if queue:
                c = queue.pop()
                m = cands[c]
                if values[c] == 0 and m and not m & (m - 1):
                    self.place(c, BIT_DIGIT[m])
                continue
            if not dirty:
                return True
            u = dirty.pop()
            if not unit_full[u]:
                continue
            once = twice = placed = 0
            for c in units[u]:
                v = values[c]
                if v:
                    placed |= 1 << (v - 1)
                else:
                    m = cands[c]
                    twice |= once & m
                    once |= m
            if (once | placed) != all_mask:
                lacking = all_mask & ~(once | placed)
                missing = BIT_DIGIT[lacking & -lacking]
                self.broken = f"{missing} has no place left in {t.unit_names[u]}"
                return False
            singles = once & ~twice
            if singles:
                for c in units[u]:
                    m = cands[c] & singles
                    if m:
                        if m & (m - 1):
                            self.broken = (
                                f"{t.cell_names[c]} is the only place for two "
                                f"digits in {t.unit_names[u]}"
                            )
                            return False
                        self.place(c, BIT_DIGIT[m])
        return False

    def unit_counts(self, unit: int) -> tuple[int, int, int]:
        """(placed digits, digits possible at least once, digits possible twice or more)
        as masks over ``unit``."""
        once = twice = placed = 0
        values = self.values
        cands = self.cands
        for c in self.tables.units[unit]:
            v = values[c]
            if v:
                placed |= 1 << (v - 1)
            else:
                m = cands[c]
                twice |= once & m
                once |= m
        return placed, once, twice
