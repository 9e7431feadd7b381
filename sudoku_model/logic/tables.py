"""Lookup tables the logical solver needs, derived once per :class:`RuleSet`.

Everything is plain tuples of ints so the hot loops index lists, never call methods.
A digit d is bit ``1 << (d - 1)`` of a candidate mask.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..rules import RuleSet
from .constraints import ConstraintTables, constraint_tables

__all__ = ["Tables", "tables_for", "digits_of", "BIT_DIGIT"]


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) whose bits are set in ``mask``, ascending."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


#: Digit of a one-bit mask (for every size up to 25).
BIT_DIGIT: dict[int, int] = {1 << k: k + 1 for k in range(25)}


@dataclass(frozen=True, eq=False)
class Intersection:
    """Two units sharing at least two cells: ``shared``, and the rest of each unit."""

    unit_a: int
    unit_b: int
    shared: tuple[int, ...]
    rest_a: tuple[int, ...]
    rest_b: tuple[int, ...]


class Tables:
    """Precomputed unit and peer tables of one rule set (see :func:`tables_for`)."""

    def __init__(self, rules: RuleSet) -> None:
        shape = rules.shape
        self.rules = rules
        self.shape = shape
        self.n: int = shape.size
        self.cell_count: int = shape.cell_count
        self.all_mask: int = (1 << self.n) - 1
        #: Relation, domain, sum and sandwich rules (None when there are none).
        self.constraints: ConstraintTables | None = constraint_tables(rules)
        # Killer cages are all-different units too (naked subsets, locked candidates with
        # the other units, hidden singles for a cage of n cells), after the rules' units.
        cages = self.constraints.cage_units if self.constraints else ()
        self.units: tuple[tuple[int, ...], ...] = rules.units + cages
        self.unit_count = len(self.units)
        # A unit of n cells must hold every digit (hidden singles, hidden subsets, fish,
        # locked candidates need this); a shorter unit only forbids repeats.
        self.unit_full: tuple[bool, ...] = tuple(len(u) == self.n for u in self.units)
        peers = rules.peers
        cell_units = rules.units_of_cell
        unit_names = tuple(rules.unit_name(i) for i in range(len(rules.units)))
        if cages:
            assert self.constraints is not None
            grown = [set(p) for p in peers]
            in_units = [list(u) for u in cell_units]
            for k, cage in enumerate(cages, len(rules.units)):
                for c in cage:
                    grown[c].update(x for x in cage if x != c)
                    in_units[c].append(k)
            peers = tuple(frozenset(p) for p in grown)
            cell_units = tuple(tuple(u) for u in in_units)
            unit_names += self.constraints.cage_names
        self.cell_units: tuple[tuple[int, ...], ...] = cell_units
        self.peers: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(p)) for p in peers)
        self.peer_sets: tuple[frozenset[int], ...] = peers
        self.unit_names: tuple[str, ...] = unit_names
        self.cell_names: tuple[str, ...] = tuple(shape.cell_name(c) for c in range(self.cell_count))
        self.unit_is_line: tuple[bool, ...] = tuple(
            name.startswith(("row ", "column ")) for name in self.unit_names
        )
        # Fish need rows and columns; every rule set built by RuleSet.build has them as
        # its first two rules, a hand-made one may not.
        self.row_units: tuple[int, ...] | None = None
        self.column_units: tuple[int, ...] | None = None
        offset = 0
        for rule in rules.rules:
            units = getattr(rule, "units", None)
            if units is None:
                continue
            if rule.name == "rows" and units == shape.rows:
                self.row_units = tuple(range(offset, offset + len(units)))
            elif rule.name == "columns" and units == shape.columns:
                self.column_units = tuple(range(offset, offset + len(units)))
            offset += len(units)
        self.intersections: tuple[Intersection, ...] = self._intersections()
        acc: list[list[int]] = [[] for _ in range(self.cell_count)]
        for i, inter in enumerate(self.intersections):
            for c in self.units[inter.unit_a] + self.units[inter.unit_b]:
                if i not in acc[c]:
                    acc[c].append(i)
        # Directed (source -> target) uses of each intersection for locked candidates:
        # (intersection index, source unit, target unit, target cells outside the
        # intersection, source is unit_a); pointing when the source is no row/column.
        pointing: list[tuple[int, int, int, tuple[int, ...], bool]] = []
        claiming: list[tuple[int, int, int, tuple[int, ...], bool]] = []
        for i, inter in enumerate(self.intersections):
            for source, target, rest, source_is_a in (
                (inter.unit_a, inter.unit_b, inter.rest_b, True),
                (inter.unit_b, inter.unit_a, inter.rest_a, False),
            ):
                if self.unit_full[source]:
                    (claiming if self.unit_is_line[source] else pointing).append(
                        (i, source, target, rest, source_is_a)
                    )
        self.locked_pointing = tuple(pointing)
        self.locked_claiming = tuple(claiming)
        #: For each cell, the intersections (indices) whose masks it contributes to.
        self.cell_intersections: tuple[tuple[int, ...], ...] = tuple(tuple(a) for a in acc)

    def _intersections(self) -> tuple[Intersection, ...]:
        out = []
        unit_sets = [frozenset(u) for u in self.units]
        for a in range(self.unit_count):
            for b in range(a + 1, self.unit_count):
                shared = unit_sets[a] & unit_sets[b]
                if len(shared) < 2:
                    continue
                out.append(
                    Intersection(
                        a,
                        b,
                        tuple(sorted(shared)),
                        tuple(c for c in self.units[a] if c not in shared),
                        tuple(c for c in self.units[b] if c not in shared),
                    )
                )
        return tuple(out)

    def cell_name(self, cell: int) -> str:
        return self.cell_names[cell]

    def cells_text(self, cells: list[int] | tuple[int, ...]) -> str:
        """``r1c2, r1c5`` for a list of cells."""
        return ", ".join(self.cell_names[c] for c in cells)


@lru_cache(maxsize=32)
def tables_for(rules: RuleSet) -> Tables:
    """The (cached) tables of a rule set."""
    return Tables(rules)
