"""Techniques for the relation, sum and sandwich rules (killer cages, dots, thermometers,
arrows...), each an explained step built on :mod:`sudoku_model.logic.constraints`.

* relation pruning: a candidate at one end of a dot / sign / thermometer pair with no
  partner among the other end's candidates goes;
* cage combinations: a killer cage keeps the digits of the digit sets that still fit it;
  a digit every set holds, with one place left in the cage, goes there;
* sum bounds: a little killer line, arrow or large cage term that cannot fit between the
  total and the other terms' smallest / largest sum goes;
* sandwich bounds: the same for the cells between a placed 1 and n;
* table pruning: a candidate of a table rule's cell that no allowed tuple still possible
  on the cells holds at that place goes;
* innies and outies (the 45 rule): a unit of n cells sums to n(n+1)/2, so the cells it
  holds outside the cages wholly inside it (innies) sum to that minus those cages' totals,
  and, when cages cover the unit, the cells of its overhanging cages outside it (outies)
  sum to their totals minus the innies' sum; a few such cells form a virtual cage;
* cage-unit overlap: a digit every digit set of a cage holds, with its places in the cage
  all seen by a cell outside it, leaves that cell.

Each returns one step (or None) and changes nothing; they cost nothing on rule sets
without these rules. None assumes uniqueness.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from functools import reduce
from operator import and_

from ..constraints import (
    SumTable,
    arc_unsupported,
    cell_mask,
    digit_sets,
    sandwich_allowed,
    sum_allowed,
    table_allowed,
)
from ..engine import CandidateGrid
from ..steps import Step, elimination_text
from ..tables import BIT_DIGIT, Tables, digits_of

__all__ = [
    "relation_pruning",
    "cage_combination",
    "sum_bounds",
    "sandwich_bounds",
    "table_pruning",
    "innies_outies",
    "cage_unit_overlap",
]


def _split(drops: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(cell, mask) pairs as (cell, digit) eliminations."""
    return [(c, d) for c, mask in drops for d in digits_of(mask)]


def _sets_text(sets: list[int]) -> str:
    return " or ".join("{" + ",".join(map(str, digits_of(s))) + "}" for s in sets)


def relation_pruning(grid: CandidateGrid) -> Step | None:
    """A digit at one cell of a related pair with no allowed partner at the other."""
    t = grid.tables
    if t.constraints is None:
        return None
    values, cands = grid.values, grid.cands
    names = t.cell_names
    for arc in t.constraints.arcs:
        drop_a, drop_b = arc_unsupported(arc, values, cands)
        for cell, other, drop in ((arc.a, arc.b, drop_a), (arc.b, arc.a, drop_b)):
            if not drop:
                continue
            if values[cell]:
                grid.broken = (
                    f"{arc.rule}: {names[cell]} = {values[cell]} has no partner at {names[other]}"
                )
                return None
            elims = _split([(cell, drop)])
            partner = digits_of(cell_mask(values, cands, other))
            text = (
                f"{arc.rule} ({names[arc.a]}, {names[arc.b]}): with {names[other]} in "
                f"{{{','.join(map(str, partner))}}}, {elimination_text(t, elims)}"
            )
            return Step(
                "relation_pruning",
                (),
                tuple(elims),
                (arc.a, arc.b),
                (),
                tuple(digits_of(drop)),
                text,
            )
    return None


def _drops(
    values: list[int], cands: list[int], cells: Iterable[int], keeps: Iterable[int]
) -> tuple[list[tuple[int, int]], int | None]:
    """For each cell and the digit mask it may keep: ``(cell, digits to drop)`` where its
    candidates go beyond the mask; or, as the second item, the first filled cell whose
    digit the mask excludes (the rule is broken; the list is then empty)."""
    drops = []
    for c, keep in zip(cells, keeps):
        drop = cell_mask(values, cands, c) & ~keep
        if drop:
            if values[c]:
                return [], c
            drops.append((c, drop))
    return drops, None


def _group_step(grid: CandidateGrid, table: SumTable, key: str, what: str) -> Step | None:
    """The eliminations (or a forced digit) of one sum group, as a step."""
    t = grid.tables
    values, cands = grid.values, grid.cands
    found = sum_allowed(table, values, cands)
    if found is None:
        grid.broken = f"{table.label} cannot reach its total"
        return None
    allowed, required = found
    drops, bad = _drops(values, cands, table.cells, allowed)
    if bad is not None:
        grid.broken = f"{table.label}: {t.cell_names[bad]} = {values[bad]} cannot fit"
        return None
    sets_text = ""
    if table.sets is not None:
        placed = 0
        for c in table.cells:
            if values[c]:
                placed |= 1 << (values[c] - 1)
        union = reduce(lambda x, y: x | y, allowed, 0) | placed
        live = [s for s in table.sets if s & placed == placed and not s & ~union]
        sets_text = f"digit sets {_sets_text(live)}: " if live else ""
    if drops:
        elims = _split(drops)
        text = f"{table.label}: {sets_text or what + ': '}{elimination_text(t, elims)}"
        return Step(
            key, (), tuple(elims), table.cells, (), tuple(sorted({d for _, d in elims})), text
        )
    while required:
        bit = required & -required
        required ^= bit
        homes = [c for c in table.cells if not values[c] and cands[c] & bit]
        if len(homes) == 1:
            d = BIT_DIGIT[bit]
            text = (
                f"{table.label}: every digit set left holds {d}, and only "
                f"{t.cell_names[homes[0]]} can take it: {t.cell_names[homes[0]]} = {d}"
            )
            return Step(key, ((homes[0], d),), (), table.cells, (), (d,), text)
    return None


def cage_combination(grid: CandidateGrid) -> Step | None:
    """Killer cages through their digit sets."""
    t = grid.tables
    if t.constraints is None:
        return None
    for table in t.constraints.sums:
        if table.sets is not None:
            step = _group_step(grid, table, "cage_combination", "")
            if step is not None or grid.broken is not None:
                return step
    return None


def sum_bounds(grid: CandidateGrid) -> Step | None:
    """Sums without digit sets (lines, arrows, large cages) through bounds."""
    t = grid.tables
    if t.constraints is None:
        return None
    for table in t.constraints.sums:
        if table.sets is None:
            step = _group_step(
                grid, table, "sum_bounds", "the other cells' smallest and largest sums"
            )
            if step is not None or grid.broken is not None:
                return step
    return None


def sandwich_bounds(grid: CandidateGrid) -> Step | None:
    """The cells between a settled 1 and n of a sandwich line, through bounds."""
    t = grid.tables
    if t.constraints is None:
        return None
    values, cands = grid.values, grid.cands
    for table in t.constraints.sandwiches:
        found = sandwich_allowed(table, values, cands, t.n)
        if found is None:
            grid.broken = f"{table.rule}: the line cannot sum to {table.total} between 1 and {t.n}"
            return None
        drops, bad = _drops(values, cands, *found)
        if bad is not None:
            grid.broken = f"{table.rule}: {t.cell_names[bad]} breaks the sandwich total"
            return None
        if drops:
            elims = _split(drops)
            text = (
                f"{table.rule} {t.cells_text(table.cells[:1])}..{t.cells_text(table.cells[-1:])}"
                f" ({table.total}): the cells between the 1 and the {t.n} "
                f"({t.cells_text(found[0])}) must sum to {table.total}: "
                f"{elimination_text(t, elims)}"
            )
            return Step(
                "sandwich_bounds",
                (),
                tuple(elims),
                tuple(found[0]),
                (),
                tuple(sorted({d for _, d in elims})),
                text,
            )
    return None


def table_pruning(grid: CandidateGrid) -> Step | None:
    """A candidate of a table rule's cell that no still possible allowed tuple holds there
    (a tuple is possible while each of its digits is a candidate of its cell)."""
    t = grid.tables
    if t.constraints is None:
        return None
    values, cands = grid.values, grid.cands
    for scope in t.constraints.tables:
        kept = table_allowed(scope, values, cands)
        if kept is None:
            grid.broken = f"{scope.rule}: no allowed tuple fits {t.cells_text(scope.cells)}"
            return None
        drops, bad = _drops(values, cands, scope.cells, kept)
        if bad is not None:
            grid.broken = f"{scope.rule}: {t.cell_names[bad]} = {values[bad]} fits no tuple"
            return None
        if drops:
            elims = _split(drops)
            text = (
                f"{scope.rule} ({t.cells_text(scope.cells)}): no allowed tuple that fits the "
                f"candidates has these digits there: {elimination_text(t, elims)}"
            )
            return Step(
                "table_pruning",
                (),
                tuple(elims),
                tuple(scope.cells),
                (),
                tuple(sorted({d for _, d in elims})),
                text,
            )
    return None


#: Virtual cages (innies / outies) of more cells than this are not looked at.
MAX_VIRTUAL = 4


_VIRTUAL: weakref.WeakKeyDictionary[Tables, list[tuple[int, SumTable]]] = (
    weakref.WeakKeyDictionary()
)


def _virtual_groups(t: Tables) -> list[tuple[int, SumTable]]:
    """(unit, virtual group) for each full unit whose innies or outies are few (cached
    per tables: the cages never change)."""
    cached = _VIRTUAL.get(t)
    if cached is not None:
        return cached
    out: list[tuple[int, SumTable]] = []
    assert t.constraints is not None
    cages = [g for g in t.constraints.sums if g.distinct and all(w == 1 for w in g.weights)]
    cells = [c for g in cages for c in g.cells]
    if len(cells) != len(set(cells)):  # cages of two rules overlap: no partition to reason on
        cages = []
    n = t.n
    whole = n * (n + 1) // 2
    names = t.cell_names
    for u, unit in enumerate(t.units[: len(t.rules.units)]):
        if len(unit) != n:
            continue
        members = set(unit)
        inside = [g for g in cages if members.issuperset(g.cells)]
        over = [g for g in cages if not members.issuperset(g.cells) and members & set(g.cells)]
        covered = {c for g in inside for c in g.cells}
        innies = tuple(c for c in unit if c not in covered)
        inner_total = whole - sum(g.total for g in inside)
        unit_name = t.unit_names[u]
        if 0 < len(innies) <= MAX_VIRTUAL and not any(set(g.cells) == set(innies) for g in cages):
            label = f"innies of {unit_name} ({', '.join(names[c] for c in innies)}; {inner_total})"
            inner_sets = digit_sets(n, len(innies), inner_total)
            out.append(
                (
                    u,
                    SumTable(
                        "45 rule", label, innies, (1,) * len(innies), inner_total, True, inner_sets
                    ),
                )
            )
        if over and set(innies) <= {c for g in over for c in g.cells}:
            outies = tuple(c for g in over for c in g.cells if c not in members)
            if 0 < len(outies) <= MAX_VIRTUAL:
                total = sum(g.total for g in over) - inner_total
                label = f"outies of {unit_name} ({', '.join(names[c] for c in outies)}; {total})"
                # distinct when they all see each other (one unit, one cage...)
                distinct = all(
                    b in t.peer_sets[a] for i, a in enumerate(outies) for b in outies[i + 1 :]
                )
                sets: tuple[int, ...] | None = (
                    digit_sets(n, len(outies), total) if distinct else None
                )
                out.append(
                    (
                        u,
                        SumTable(
                            "45 rule", label, outies, (1,) * len(outies), total, distinct, sets
                        ),
                    )
                )
    _VIRTUAL[t] = out
    return out


def innies_outies(grid: CandidateGrid) -> Step | None:
    """The 45 rule: few innies or outies of a unit form a virtual cage."""
    t = grid.tables
    if t.constraints is None or not t.constraints.cage_units:
        return None
    for u, table in _virtual_groups(t):
        step = _group_step(
            grid, table, "innies_outies", "its other cells' smallest and largest sums"
        )
        if grid.broken is not None:
            return None
        if step is not None:
            return Step(
                step.technique,
                step.placements,
                step.eliminations,
                step.cells,
                (u,),
                step.digits,
                f"45 rule on {t.unit_names[u]}: " + step.explanation,
            )
    return None


def cage_unit_overlap(grid: CandidateGrid) -> Step | None:
    """A digit every digit set of a cage holds leaves the cells outside the cage that see
    all its places in the cage."""
    t = grid.tables
    if t.constraints is None:
        return None
    values, cands = grid.values, grid.cands
    peer_sets = t.peer_sets
    for table in t.constraints.sums:
        if table.sets is None:
            continue
        found = sum_allowed(table, values, cands)
        if found is None:
            grid.broken = f"{table.label} cannot reach its total"
            return None
        required = found[1]
        while required:
            bit = required & -required
            required ^= bit
            homes = [c for c in table.cells if not values[c] and cands[c] & bit]
            if not homes:
                continue
            seen = reduce(and_, (peer_sets[c] for c in homes)) - set(table.cells)
            targets = sorted(c for c in seen if cands[c] & bit)
            if not targets:
                continue
            d = BIT_DIGIT[bit]
            elims = [(c, d) for c in targets]
            text = (
                f"{table.label}: every digit set holds {d}, which can only go in "
                f"{t.cells_text(homes)}: {elimination_text(t, elims)}"
            )
            return Step("cage_unit_overlap", (), tuple(elims), tuple(homes), (), (d,), text)
    return None
