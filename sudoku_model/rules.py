"""Rules as data.

Every rule is one of a few kinds, and backends encode kinds, never rule names:

* :class:`AllDifferent` - a list of units, each a tuple of cells that must hold different
  digits (rows, columns, boxes, diagonals, windoku windows, jigsaw regions). A unit of n
  cells also means "every digit once"; a shorter unit (a diagonal is always n long, but a
  user unit need not be) only means "no repeats".
* :class:`Different` - pairs of cells that must differ (anti-knight, anti-king).
* :class:`Relation` - ordered pairs of cells whose two digits must form an allowed pair of
  one table (kropki dots and their negative constraint, XV, thermometers, greater-than
  signs, non-consecutive).
* :class:`Domain` - cells whose digit must lie in a given set (even and odd cells).
* :class:`Sum` - groups of cells whose weighted digit sum is fixed, optionally with
  distinct digits (killer cages, little killer and sum lines, arrows).
* :class:`Sandwich` - rows or columns where the digits strictly between the 1 and the n
  sum to a clue.

A :class:`RuleSet` is the shape plus an ordered tuple of rules. It is immutable and hashable
(backends key their long-lived solvers on it) and derives, once, the tables every solver
needs: all units, the extra pairs no unit already covers, and the peers of each cell.

>>> from sudoku_model.geometry import Shape
>>> rs = RuleSet.build(Shape(3, 3), variants=["diagonal"])
>>> [r.name for r in rs.rules]
['rows', 'columns', 'boxes', 'diagonals']
>>> len(rs.units), len(rs.peers[0])
(29, 26)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import compress
from typing import ClassVar

from .errors import ShapeError
from .geometry import Shape, peers_of_units

__all__ = [
    "RULE_KINDS",
    "VARIANTS",
    "AllDifferent",
    "Different",
    "Domain",
    "Relation",
    "Rule",
    "RuleError",
    "RuleSet",
    "Sandwich",
    "Sum",
    "SumGroup",
    "Violation",
    "arrow_rule",
    "greater_than_rule",
    "killer_rule",
    "kropki_rules",
    "nonconsecutive_rule",
    "parity_rule",
    "sandwich_rule",
    "sum_lines_rule",
    "thermometer_rule",
    "xv_rules",
]

#: Rule kinds a backend may declare support for.
RULE_KINDS = ("all_different", "different", "relation", "domain", "sum", "sandwich")


class RuleError(ShapeError):
    """A rule that cannot describe a puzzle: a cell outside the grid, a cage total no digits
    can reach, overlapping killer cages, a thermometer that is not a path... The message
    names the rule."""


#: One broken constraint found by a rule's checker: the cells involved and what is wrong.
Violation = tuple[tuple[int, ...], str]


@dataclass(frozen=True)
class AllDifferent:
    """Each unit (a tuple of cells) holds pairwise different digits."""

    name: str
    units: tuple[tuple[int, ...], ...]
    kind: ClassVar[str] = "all_different"


@dataclass(frozen=True)
class Different:
    """Each pair of cells holds different digits."""

    name: str
    pairs: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "different"


def _as_cells(value: Iterable[int], what: str) -> tuple[int, ...]:
    cells = tuple(value)
    for c in cells:
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise RuleError(f"{what}: {c!r} is not a cell index")
    return cells


def _names(shape: Shape | None, cells: Iterable[int]) -> str:
    if shape is None:
        return ", ".join(f"cell {c}" for c in cells)
    return ", ".join(shape.cell_name(c) for c in cells)


def _check_in_grid(shape: Shape, name: str, cells: Iterable[int]) -> None:
    cc = shape.cell_count
    for c in cells:
        if not 0 <= c < cc:
            raise RuleError(f"rule {name!r} names cell {c}, outside the {shape.name} grid")


@dataclass(frozen=True)
class Relation:
    """For every ``(a, b)`` in ``pairs``, (digit at a, digit at b) is in ``allowed``.

    One table per rule, over digits 1..n; a pair is ordered (a thermometer's bulb side
    first, a greater-than sign's big side first). Lists are accepted and stored as tuples.

    >>> Relation("greater-than", ((0, 1),), frozenset({(2, 1)}))
    Relation(name='greater-than', pairs=((0, 1),), allowed=frozenset({(2, 1)}))

    Raises:
        RuleError: for a pair that is not two different cells, or an allowed entry that
            is not two digits >= 1.
    """

    name: str
    pairs: tuple[tuple[int, int], ...]
    allowed: frozenset[tuple[int, int]]
    kind: ClassVar[str] = "relation"

    def __post_init__(self) -> None:
        pairs = []
        for p in self.pairs:
            pair = _as_cells(p, f"rule {self.name!r}")
            if len(pair) != 2 or pair[0] == pair[1]:
                raise RuleError(f"rule {self.name!r}: {p!r} is not a pair of two different cells")
            pairs.append((pair[0], pair[1]))
        allowed = set()
        for entry in self.allowed:
            digits = tuple(entry)
            if len(digits) != 2 or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in digits
            ):
                raise RuleError(f"rule {self.name!r}: allowed entry {entry!r} is not two digits")
            allowed.add((digits[0], digits[1]))
        object.__setattr__(self, "pairs", tuple(pairs))
        object.__setattr__(self, "allowed", frozenset(allowed))

    def validate(self, shape: Shape) -> None:
        """Check the rule against a grid: cells inside, digits 1..n, some pair allowed.

        Raises:
            RuleError: naming the rule.
        """
        _check_in_grid(shape, self.name, (c for p in self.pairs for c in p))
        n = shape.size
        bad = sorted(e for e in self.allowed if max(e) > n)
        if bad:
            raise RuleError(f"rule {self.name!r} allows {bad[0]!r}, beyond the digits 1..{n}")
        if self.pairs and not self.allowed:
            raise RuleError(f"rule {self.name!r} allows no pair of digits 1..{n}")

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Each pair whose two filled cells hold a pair outside the table."""
        out: list[Violation] = []
        allowed = self.allowed
        for a, b in self.pairs:
            va, vb = values[a], values[b]
            if va and vb and (va, vb) not in allowed:
                out.append(((a, b), f"{self.name}: {_names(shape, (a, b))} hold {va}, {vb}"))
        return out


@dataclass(frozen=True)
class Domain:
    """Each listed cell's digit is in its set (even and odd cells).

    >>> Domain("even", ((0, frozenset({2, 4})),))
    Domain(name='even', cells=((0, frozenset({2, 4})),))

    Raises:
        RuleError: for a repeated cell, an empty set or a digit below 1.
    """

    name: str
    cells: tuple[tuple[int, frozenset[int]], ...]
    kind: ClassVar[str] = "domain"

    def __post_init__(self) -> None:
        entries = []
        seen: set[int] = set()
        for cell, digits in self.cells:
            (c,) = _as_cells((cell,), f"rule {self.name!r}")
            ds = frozenset(digits)
            if c in seen:
                raise RuleError(f"rule {self.name!r} lists cell {c} twice")
            if not ds:
                raise RuleError(f"rule {self.name!r} leaves cell {c} no digit")
            if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in ds):
                raise RuleError(f"rule {self.name!r}: {sorted(ds)!r} are not all digits >= 1")
            seen.add(c)
            entries.append((c, ds))
        object.__setattr__(self, "cells", tuple(entries))

    def validate(self, shape: Shape) -> None:
        """Check cells inside the grid and every set meeting 1..n.

        Raises:
            RuleError: naming the rule.
        """
        _check_in_grid(shape, self.name, (c for c, _ in self.cells))
        n = shape.size
        for c, ds in self.cells:
            if max(ds) > n:
                raise RuleError(
                    f"rule {self.name!r} allows digit {max(ds)} at {shape.cell_name(c)}, "
                    f"beyond 1..{n}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Each filled cell whose digit is outside its set."""
        return [
            ((c,), f"{self.name}: {_names(shape, (c,))} holds {values[c]}")
            for c, ds in self.cells
            if values[c] and values[c] not in ds
        ]


@dataclass(frozen=True)
class SumGroup:
    """``sum(weight * digit)`` over ``cells`` equals ``total``; with ``distinct`` the
    cells' digits are pairwise different.

    Raises:
        RuleError: for no cells, a repeated cell, a weight count that differs from the
            cell count, or a zero weight.
    """

    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    distinct: bool

    def __post_init__(self) -> None:
        cells = _as_cells(self.cells, "sum group")
        weights = tuple(self.weights)
        if not cells:
            raise RuleError("a sum group needs at least one cell")
        if len(set(cells)) != len(cells):
            raise RuleError(f"sum group {cells!r} repeats a cell")
        if len(weights) != len(cells):
            raise RuleError(
                f"sum group {cells!r} has {len(weights)} weights for {len(cells)} cells"
            )
        if not all(isinstance(w, int) and not isinstance(w, bool) and w for w in weights):
            raise RuleError(f"sum group {cells!r}: weights {weights!r} must be non-zero integers")
        if not isinstance(self.total, int) or isinstance(self.total, bool):
            raise RuleError(f"sum group {cells!r}: total {self.total!r} is not an integer")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "distinct", bool(self.distinct))

    def reachable(self, n: int) -> bool:
        """Whether digits 1..n can reach the total (exact for unit weights; otherwise
        distinctness is ignored, a necessary condition)."""
        k = len(self.cells)
        if self.distinct and k > n:
            return False
        if self.distinct and all(w == 1 for w in self.weights):
            return k * (k + 1) // 2 <= self.total <= k * (2 * n - k + 1) // 2
        sums = {0}
        for w in self.weights:
            sums = {s + w * d for s in sums for d in range(1, n + 1)}
        return self.total in sums

    def violations(self, values: Sequence[int], shape: Shape | None, name: str) -> list[Violation]:
        out: list[Violation] = []
        cells = self.cells
        if self.distinct:
            seen: dict[int, list[int]] = {}
            for c in cells:
                if values[c]:
                    seen.setdefault(values[c], []).append(c)
            for digit, where in seen.items():
                if len(where) > 1:
                    out.append(
                        (tuple(where), f"{name}: digit {digit} repeated ({_names(shape, where)})")
                    )
        if all(values[c] for c in cells):
            got = sum(w * values[c] for c, w in zip(cells, self.weights))
            if got != self.total:
                out.append(
                    (cells, f"{name}: {_names(shape, cells)} sum to {got}, not {self.total}")
                )
        return out


@dataclass(frozen=True)
class Sum:
    """Groups of cells with a fixed weighted digit sum (see :class:`SumGroup`).

    Killer cage: weights 1, distinct. Little killer / sum line: weights 1, not distinct.
    Arrow: shaft weights 1, circle weights -10**k (a two-cell circle reads as a two-digit
    number, its first cell the tens), total 0, not distinct.

    Raises:
        RuleError: naming the rule, for a bad group or two distinct groups (killer cages)
            that share a cell.
    """

    name: str
    groups: tuple[SumGroup, ...]
    kind: ClassVar[str] = "sum"

    def __post_init__(self) -> None:
        groups = tuple(self.groups)
        owner: dict[int, int] = {}
        for k, g in enumerate(groups):
            if not isinstance(g, SumGroup):
                raise RuleError(f"rule {self.name!r}: {g!r} is not a SumGroup")
            if g.distinct:
                for c in g.cells:
                    if c in owner:
                        raise RuleError(
                            f"rule {self.name!r}: cages {owner[c] + 1} and {k + 1} overlap "
                            f"at cell {c}"
                        )
                    owner[c] = k
        object.__setattr__(self, "groups", groups)

    def validate(self, shape: Shape) -> None:
        """Check cells inside the grid and every total reachable with digits 1..n.

        Raises:
            RuleError: naming the rule and the group.
        """
        n = shape.size
        for k, g in enumerate(self.groups):
            _check_in_grid(shape, self.name, g.cells)
            if not g.reachable(n):
                raise RuleError(
                    f"rule {self.name!r}: group {k + 1} ({_names(shape, g.cells)}) cannot "
                    f"reach total {g.total} with digits 1..{n}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Repeats inside a distinct group, and complete groups with a wrong sum."""
        return [v for g in self.groups for v in g.violations(values, shape, self.name)]


def sandwich_sums(n: int) -> frozenset[int]:
    """The totals a sandwich clue can have on an n x n grid: sums of subsets of 2..n-1."""
    sums = {0}
    for d in range(2, n):
        sums |= {s + d for s in sums}
    return frozenset(sums)


@dataclass(frozen=True)
class Sandwich:
    """For each ``(cells, total)`` line (a full row or column, cells in order), the digits
    strictly between the 1 and the n sum to ``total`` (0 when they are adjacent).

    Each line must be an all-different unit of n cells of the rule set it joins (a row,
    column, box or region), so it holds one 1 and one n: :class:`RuleSet` refuses any
    other line with a :class:`RuleError`. The checker reports a full line without a 1 or
    an n (only a grid that breaks its unit has one).

    Raises:
        RuleError: naming the rule, for a line that repeats a cell or a negative total.
    """

    name: str
    lines: tuple[tuple[tuple[int, ...], int], ...]
    kind: ClassVar[str] = "sandwich"

    def __post_init__(self) -> None:
        lines = []
        for cells, total in self.lines:
            line = _as_cells(cells, f"rule {self.name!r}")
            if len(set(line)) != len(line):
                raise RuleError(f"rule {self.name!r}: line {line!r} repeats a cell")
            if not isinstance(total, int) or isinstance(total, bool) or total < 0:
                raise RuleError(f"rule {self.name!r}: total {total!r} is not a number >= 0")
            lines.append((line, total))
        object.__setattr__(self, "lines", tuple(lines))

    def validate(self, shape: Shape) -> None:
        """Check that every line has n cells inside the grid and a reachable total.

        Raises:
            RuleError: naming the rule.
        """
        n = shape.size
        reachable = sandwich_sums(n)
        for line, total in self.lines:
            _check_in_grid(shape, self.name, line)
            if len(line) != n:
                raise RuleError(f"rule {self.name!r}: a line has {len(line)} cells, not {n}")
            if total not in reachable:
                raise RuleError(
                    f"rule {self.name!r}: total {total} between {_names(shape, line[:1])} "
                    f"and {_names(shape, line[-1:])} cannot be reached with digits 2..{n - 1}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Lines whose 1 and n are placed with every cell between them filled, and whose
        sum between is wrong."""
        out: list[Violation] = []
        for line, total in self.lines:
            n = len(line)
            digits = [values[c] for c in line]
            if 1 not in digits or n not in digits:
                if all(digits):  # a full line without its ends (a unit clash too)
                    missing = 1 if 1 not in digits else n
                    out.append(
                        (
                            line,
                            f"{self.name}: {_names(shape, (line[0], line[-1]))} line holds "
                            f"no {missing}, so it has no sandwich",
                        )
                    )
                continue
            i, j = sorted((digits.index(1), digits.index(n)))
            between = digits[i + 1 : j]
            if all(between) and sum(between) != total:
                out.append(
                    (
                        line,
                        f"{self.name}: {_names(shape, (line[0], line[-1]))} line sums to "
                        f"{sum(between)} between 1 and {n}, not {total}",
                    )
                )
        return out


#: The kinds with a checker of their own (everything but the all-different families).
ConstraintRule = Relation | Domain | Sum | Sandwich


Rule = AllDifferent | Different | Relation | Domain | Sum | Sandwich


# -- rule constructors ---------------------------------------------------------------------
def rows_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("rows", shape.rows)


def columns_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("columns", shape.columns)


def boxes_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("boxes", shape.boxes)


def diagonals_rule(shape: Shape) -> AllDifferent:
    n = shape.size
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + (n - 1 - i) for i in range(n))
    return AllDifferent("diagonals", (main, anti))


def windoku_rule(shape: Shape) -> AllDifferent:
    """Extra box-sized windows one cell in from the edges, one empty line between them."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    tops = list(range(1, n - br + 1, br + 1))
    lefts = list(range(1, n - bc + 1, bc + 1))
    units = tuple(
        tuple((top + i) * n + left + j for i in range(br) for j in range(bc))
        for top in tops
        for left in lefts
    )
    if not units:
        raise ShapeError(f"windoku has no window on a {shape.name} grid")
    return AllDifferent("windoku", units)


def regions_rule(shape: Shape, labels: Sequence[int]) -> AllDifferent:
    """Jigsaw regions from one label per cell: n regions of n cells each.

    Raises:
        ShapeError: when there are not exactly n labels used n times each.
    """
    n = shape.size
    if len(labels) != shape.cell_count:
        raise ShapeError(f"regions need one label per cell ({shape.cell_count}), got {len(labels)}")
    groups: dict[int, list[int]] = {}
    for cell, label in enumerate(labels):
        groups.setdefault(label, []).append(cell)
    if len(groups) != n:
        raise ShapeError(f"a {n}x{n} jigsaw needs {n} regions, got {len(groups)}")
    for label, cells in groups.items():
        if len(cells) != n:
            raise ShapeError(f"region {label!r} has {len(cells)} cells; each needs {n}")
    ordered = sorted(groups.values(), key=lambda cells: cells[0])
    return AllDifferent("regions", tuple(tuple(c) for c in ordered))


def _offset_pairs(shape: Shape, name: str, moves: Iterable[tuple[int, int]]) -> Different:
    n = shape.size
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < n and 0 <= c2 < n:
                    a, b = r * n + c, r2 * n + c2
                    pairs.add((min(a, b), max(a, b)))
    return Different(name, tuple(sorted(pairs)))


def anti_knight_rule(shape: Shape) -> Different:
    return _offset_pairs(shape, "anti-knight", [(1, 2), (2, 1), (1, -2), (2, -1)])


def anti_king_rule(shape: Shape) -> Different:
    # Orthogonal neighbours already share a row or column: only the diagonal steps matter.
    return _offset_pairs(shape, "anti-king", [(1, 1), (1, -1)])


# -- constructors of the constraint kinds ------------------------------------------------
def _pair_table(n: int, test: Callable[[int, int], bool]) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if test(a, b))


def _orthogonal_pairs(shape: Shape) -> list[tuple[int, int]]:
    n = shape.size
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                out.append((r * n + c, (r + 1) * n + c))
    return out


def _neighbour_pairs(
    shape: Shape, name: str, pairs: Iterable[Sequence[int]], *, ordered: bool = False
) -> list[tuple[int, int]]:
    """Checked pairs of orthogonal neighbours; sorted within each pair unless ``ordered``."""
    n = shape.size
    out: dict[tuple[int, int], None] = {}
    for p in pairs:
        pair = _as_cells(p, f"rule {name!r}")
        if len(pair) != 2:
            raise RuleError(f"rule {name!r}: {p!r} is not a pair of cells")
        _check_in_grid(shape, name, pair)
        (ra, ca), (rb, cb) = divmod(pair[0], n), divmod(pair[1], n)
        if abs(ra - rb) + abs(ca - cb) != 1:
            raise RuleError(f"rule {name!r}: {_names(shape, pair)} are not orthogonal neighbours")
        a, b = pair
        out[(a, b) if ordered else (min(a, b), max(a, b))] = None
    return list(out)


def kropki_rules(
    shape: Shape,
    white: Iterable[Sequence[int]] = (),
    black: Iterable[Sequence[int]] = (),
    *,
    negative: bool = False,
) -> tuple[Relation, ...]:
    """Kropki dots between orthogonal neighbours: a white dot joins consecutive digits,
    a black dot digits where one is double the other. With ``negative``, every
    neighbour pair without a dot is neither consecutive nor in ratio 2.

    Returns the non-empty rules among ``kropki white``, ``kropki black``,
    ``kropki negative``.

    Raises:
        RuleError: for a dot between cells that are not neighbours, or two dots on a pair.
    """
    return _edge_mark_rules(
        shape,
        "kropki",
        "dots",
        ("kropki white", white, lambda x, y: abs(x - y) == 1),
        ("kropki black", black, lambda x, y: x == 2 * y or y == 2 * x),
        negative,
    )


def xv_rules(
    shape: Shape,
    x: Iterable[Sequence[int]] = (),
    v: Iterable[Sequence[int]] = (),
    *,
    negative: bool = False,
) -> tuple[Relation, ...]:
    """XV signs between orthogonal neighbours: X joins digits summing to 10, V digits
    summing to 5. With ``negative``, no other neighbour pair sums to 5 or 10.

    Returns the non-empty rules among ``XV x``, ``XV v``, ``XV negative``.

    Raises:
        RuleError: for a sign between cells that are not neighbours, two signs on a pair,
            or a sum the grid's digits cannot make (an X on a 4x4 grid).
    """
    return _edge_mark_rules(
        shape,
        "XV",
        "signs",
        ("XV x", x, lambda a, b: a + b == 10),
        ("XV v", v, lambda a, b: a + b == 5),
        negative,
    )


def _edge_mark_rules(
    shape: Shape,
    family: str,
    marks: str,
    first: tuple[str, Iterable[Sequence[int]], Callable[[int, int], bool]],
    second: tuple[str, Iterable[Sequence[int]], Callable[[int, int], bool]],
    negative: bool,
) -> tuple[Relation, ...]:
    """Two kinds of marks between orthogonal neighbours (kropki dots, XV signs), each a
    relation, and with ``negative`` a third: every unmarked neighbour pair is in neither
    relation. Returns the non-empty rules, validated.

    Raises:
        RuleError: for a mark between cells that are not neighbours, two marks on one
            pair, or a relation no digits of the grid satisfy.
    """
    n = shape.size
    kinds = [
        (name, _neighbour_pairs(shape, name, pairs), ok) for name, pairs, ok in (first, second)
    ]
    both = set(kinds[0][1]) & set(kinds[1][1])
    if both:
        raise RuleError(f"rule {family!r}: {_names(shape, min(both))} have two {marks}")
    rules = [Relation(name, tuple(pairs), _pair_table(n, ok)) for name, pairs, ok in kinds if pairs]
    if negative:
        marked = set(kinds[0][1]) | set(kinds[1][1])
        rest = tuple(p for p in _orthogonal_pairs(shape) if p not in marked)
        oks = [ok for _, _, ok in kinds]
        table = _pair_table(n, lambda a, b: not any(ok(a, b) for ok in oks))
        rules.append(Relation(f"{family} negative", rest, table))
    for rule in rules:
        rule.validate(shape)
    return tuple(rules)


def thermometer_rule(
    shape: Shape, thermometers: Iterable[Sequence[int]], name: str = "thermometers"
) -> Relation:
    """Digits strictly increase along each thermometer, from its bulb (first cell).

    Raises:
        RuleError: for a thermometer that is not a path (a repeated cell, a step to a cell
            that does not touch the previous one orthogonally or diagonally), a cell outside
            the grid, or more cells than digits.
    """
    n = shape.size
    pairs: dict[tuple[int, int], None] = {}
    for k, path in enumerate(thermometers, 1):
        cells = _as_cells(path, f"rule {name!r}")
        _check_in_grid(shape, name, cells)
        if not cells:
            raise RuleError(f"rule {name!r}: thermometer {k} has no cell")
        if len(set(cells)) != len(cells):
            raise RuleError(f"rule {name!r}: thermometer {k} repeats a cell")
        if len(cells) > n:
            raise RuleError(
                f"rule {name!r}: thermometer {k} has {len(cells)} cells; digits 1..{n} "
                f"cannot increase along more than {n}"
            )
        for a, b in zip(cells, cells[1:]):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            if max(abs(ra - rb), abs(ca - cb)) != 1:
                raise RuleError(
                    f"rule {name!r}: thermometer {k} is not a path "
                    f"({_names(shape, (a, b))} do not touch)"
                )
            pairs[(a, b)] = None
    rule = Relation(name, tuple(pairs), _pair_table(n, lambda a, b: a < b))
    rule.validate(shape)
    return rule


def greater_than_rule(
    shape: Shape, signs: Iterable[Sequence[int]], name: str = "greater-than"
) -> Relation:
    """Each sign ``(big, small)`` between orthogonal neighbours: big's digit is larger.

    Raises:
        RuleError: for cells that are not neighbours or outside the grid.
    """
    pairs = _neighbour_pairs(shape, name, signs, ordered=True)
    rule = Relation(name, tuple(pairs), _pair_table(shape.size, lambda a, b: a > b))
    rule.validate(shape)
    return rule


def nonconsecutive_rule(shape: Shape) -> Relation:
    """Orthogonal neighbours never hold consecutive digits."""
    pairs = tuple(_orthogonal_pairs(shape))
    return Relation("non-consecutive", pairs, _pair_table(shape.size, lambda a, b: abs(a - b) != 1))


def parity_rule(
    shape: Shape, even: Iterable[int] = (), odd: Iterable[int] = (), name: str = "even/odd"
) -> Domain:
    """Even cells hold even digits, odd cells odd digits.

    Raises:
        RuleError: for a cell marked both, or outside the grid.
    """
    n = shape.size
    evens = _as_cells(even, f"rule {name!r}")
    odds = _as_cells(odd, f"rule {name!r}")
    _check_in_grid(shape, name, evens + odds)
    both = set(evens) & set(odds)
    if both:
        raise RuleError(f"rule {name!r}: {_names(shape, (min(both),))} is marked even and odd")
    even_digits = frozenset(range(2, n + 1, 2))
    odd_digits = frozenset(range(1, n + 1, 2))
    cells = [(c, even_digits) for c in dict.fromkeys(evens)]
    cells += [(c, odd_digits) for c in dict.fromkeys(odds)]
    rule = Domain(name, tuple(sorted(cells)))
    rule.validate(shape)
    return rule


def killer_rule(
    shape: Shape, cages: Iterable[tuple[Iterable[int], int]], name: str = "killer"
) -> Sum:
    """Killer cages: each ``(cells, total)`` holds different digits summing to the total.

    Raises:
        RuleError: for overlapping cages, a cell outside the grid, or a total no distinct
            digits 1..n can reach.
    """
    groups = []
    owner: dict[int, int] = {}
    for k, (cells, total) in enumerate(cages, 1):
        cs = _as_cells(cells, f"rule {name!r}")
        _check_in_grid(shape, name, cs)
        for c in cs:
            if c in owner and owner[c] != k:
                raise RuleError(
                    f"rule {name!r}: cages {owner[c]} and {k} overlap at {shape.cell_name(c)}"
                )
            owner[c] = k
        try:
            groups.append(SumGroup(cs, (1,) * len(cs), total, True))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: cage {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def sum_lines_rule(
    shape: Shape, lines: Iterable[tuple[Iterable[int], int]], name: str = "little killer"
) -> Sum:
    """Lines (little killer diagonals, sum lines) whose digits, repeats allowed, sum to a
    total.

    Raises:
        RuleError: for a cell outside the grid or an unreachable total.
    """
    groups = []
    for k, (cells, total) in enumerate(lines, 1):
        cs = _as_cells(cells, f"rule {name!r}")
        try:
            groups.append(SumGroup(cs, (1,) * len(cs), total, False))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: line {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def arrow_rule(
    shape: Shape, arrows: Iterable[tuple[Sequence[int], Sequence[int]]], name: str = "arrows"
) -> Sum:
    """Arrows ``(circle, shaft)``: the digits on the shaft sum to the circle's number.

    A circle of one cell holds the sum; a circle of two cells (a "pill") reads as a
    two-digit decimal number, its first cell the tens (so on grids above 9x9 a digit of 10
    or more in the tens cell still counts ten per unit).

    Raises:
        RuleError: for an empty circle or shaft, a cell in both, or an arrow no digits can
            satisfy.
    """
    groups = []
    for k, (circle, shaft) in enumerate(arrows, 1):
        head = _as_cells(circle, f"rule {name!r}")
        body = _as_cells(shaft, f"rule {name!r}")
        if not head or not body:
            raise RuleError(f"rule {name!r}: arrow {k} needs a circle and a shaft")
        weights = tuple(-(10 ** (len(head) - 1 - i)) for i in range(len(head)))
        try:
            groups.append(SumGroup(head + body, weights + (1,) * len(body), 0, False))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: arrow {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def sandwich_rule(
    shape: Shape,
    rows: Mapping[int, int] | None = None,
    columns: Mapping[int, int] | None = None,
    name: str = "sandwich",
) -> Sandwich:
    """Sandwich clues by 0-based row and column index: the digits between the 1 and the n
    of that row or column sum to the clue.

    Raises:
        RuleError: for an index outside the grid or an unreachable total.
    """
    n = shape.size
    lines = []
    for label, clues, units in (("row", rows, shape.rows), ("column", columns, shape.columns)):
        for index, total in sorted((clues or {}).items()):
            if not isinstance(index, int) or not 0 <= index < n:
                raise RuleError(f"rule {name!r}: {label} {index!r} is outside the grid")
            lines.append((units[index], total))
    rule = Sandwich(name, tuple(lines))
    rule.validate(shape)
    return rule


#: Variant names accepted by :meth:`RuleSet.build` (``jigsaw`` needs ``regions``).
VARIANTS = ("classic", "diagonal", "windoku", "jigsaw", "anti-knight", "anti-king")

_VARIANT_ALIASES = {
    "x": "diagonal",
    "diagonals": "diagonal",
    "x-sudoku": "diagonal",
    "window": "windoku",
    "hyper": "windoku",
    "irregular": "jigsaw",
    "regions": "jigsaw",
    "antiknight": "anti-knight",
    "anti_knight": "anti-knight",
    "antiking": "anti-king",
    "anti_king": "anti-king",
}


def canonical_variant(name: str) -> str:
    """The canonical name of a variant (``"x"`` -> ``"diagonal"``).

    Raises:
        ValueError: for an unknown variant, listing the known ones.
    """
    key = name.strip().lower()
    key = _VARIANT_ALIASES.get(key, key)
    if key not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return key


class RuleSet:
    """A shape and its rules; immutable, hashable, with derived tables cached.

    Build one with :meth:`classic` or :meth:`build`; puzzles that share rules should share
    the object (``classic`` is cached), so backends reuse their encoded models.
    """

    __slots__ = ("__dict__", "_hash", "_key", "rules", "shape", "variants")

    def __init__(
        self, shape: Shape, rules: Sequence[Rule], variants: Sequence[str] = ("classic",)
    ) -> None:
        cc = shape.cell_count
        for rule in rules:
            cells: Iterable[int]
            if isinstance(rule, AllDifferent):
                cells = (c for u in rule.units for c in u)
                if any(len(set(u)) != len(u) or len(u) > shape.size for u in rule.units):
                    raise ShapeError(
                        f"rule {rule.name!r} has a unit with repeated cells "
                        f"or more than {shape.size} cells"
                    )
            elif isinstance(rule, Different):
                cells = (c for p in rule.pairs for c in p)
            elif isinstance(rule, (Relation, Domain, Sum, Sandwich)):
                rule.validate(shape)
                continue
            else:
                raise TypeError(f"not a rule: {rule!r}")
            if any(not 0 <= c < cc for c in cells):
                raise ShapeError(f"rule {rule.name!r} names a cell outside the grid")
        _check_sandwich_lines(shape, rules)
        self.shape = shape
        self.rules = tuple(rules)
        self.variants = tuple(variants)
        self._key = (shape.box_rows, shape.box_cols, self.rules)
        self._hash = hash(self._key)

    # -- construction ------------------------------------------------------------------
    @staticmethod
    @lru_cache(maxsize=64)
    def classic(shape: Shape) -> RuleSet:
        """Rows, columns and boxes (cached: every classic puzzle of a shape shares it)."""
        return RuleSet(shape, (rows_rule(shape), columns_rule(shape), boxes_rule(shape)))

    @staticmethod
    def build(
        shape: Shape, variants: Iterable[str] = (), regions: Sequence[int] | None = None
    ) -> RuleSet:
        """Classic rules plus variants, by name.

        ``jigsaw`` (or passing ``regions``) replaces the boxes with the given regions.

        Raises:
            ValueError: for an unknown variant or a jigsaw without regions.
            ShapeError: for regions that do not tile the grid.
        """
        names = [canonical_variant(v) for v in variants]
        names = [v for v in dict.fromkeys(names) if v != "classic"]
        if regions is not None and "jigsaw" not in names:
            names.insert(0, "jigsaw")
        if not names:
            return RuleSet.classic(shape)
        if "jigsaw" in names and regions is None:
            raise ValueError("the jigsaw variant needs regions (one label per cell)")
        rules: list[Rule] = [rows_rule(shape), columns_rule(shape)]
        if "jigsaw" in names:
            assert regions is not None
            rules.append(regions_rule(shape, regions))
        else:
            rules.append(boxes_rule(shape))
        makers: dict[str, Callable[[Shape], Rule]] = {
            "diagonal": diagonals_rule,
            "windoku": windoku_rule,
            "anti-knight": anti_knight_rule,
            "anti-king": anti_king_rule,
        }
        order = ["diagonal", "windoku", "anti-knight", "anti-king"]
        for name in order:
            if name in names:
                rules.append(makers[name](shape))
        return RuleSet(shape, rules, variants=[v for v in VARIANTS if v in names])

    # -- identity ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RuleSet):
            return NotImplemented
        return self._hash == other._hash and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        extra = [r.name for r in self.constraint_rules]
        return f"<RuleSet {self.shape.name} {'+'.join([*self.variants, *extra])}>"

    def with_rules(self, rules: Iterable[Rule]) -> RuleSet:
        """These rules plus ``rules`` (killer cages, dots...), same shape and variants.

        Raises:
            RuleError: for a rule that does not fit the shape.
        """
        return RuleSet(self.shape, (*self.rules, *rules), self.variants)

    def __reduce__(self) -> tuple[object, ...]:
        if self.is_classic:
            return (RuleSet.classic, (self.shape,))
        return (RuleSet, (self.shape, self.rules, self.variants))

    @property
    def is_classic(self) -> bool:
        return (
            self.variants == ("classic",)
            and len(self.rules) == 3
            and self.rules == RuleSet.classic(self.shape).rules
        )

    @property
    def kinds(self) -> frozenset[str]:
        """The rule kinds used (what a backend must support)."""
        return frozenset(r.kind for r in self.rules)

    @property
    def regions(self) -> tuple[int, ...] | None:
        """The jigsaw region label of each cell, or None when the boxes are used."""
        for rule in self.rules:
            if isinstance(rule, AllDifferent) and rule.name == "regions":
                labels = [0] * self.shape.cell_count
                for k, unit in enumerate(rule.units):
                    for c in unit:
                        labels[c] = k
                return tuple(labels)
        return None

    # -- derived tables ----------------------------------------------------------------
    @cached_property
    def constraint_rules(self) -> tuple[ConstraintRule, ...]:
        """The rules with a checker of their own (relations, domains, sums, sandwiches),
        in rule order; the all-different families are :attr:`units` and :attr:`pairs`."""
        return tuple(r for r in self.rules if isinstance(r, (Relation, Domain, Sum, Sandwich)))

    @cached_property
    def base(self) -> RuleSet:
        """This rule set without its :attr:`constraint_rules` (itself when it has none).

        Equal bases are one shared object (the classic rules are ``RuleSet.classic``), so
        its cached tables and a backend's solver loaded with it serve every killer or
        variant puzzle on top of it.
        """
        if not self.constraint_rules:
            return self
        kept = tuple(r for r in self.rules if isinstance(r, (AllDifferent, Different)))
        return _interned(RuleSet(self.shape, kept, self.variants))

    @cached_property
    def candidate_digits(self) -> tuple[frozenset[int], ...]:
        """For each cell, the digits the domain and relation rules alone leave it (arc
        consistency over those rules; all-different, sums and sandwiches ignored).

        A thermometer's bulb cannot hold n, a black kropki dot's cells hold no 5, 7 or 9 on
        a 9x9 grid: encoders write these as unit facts. An empty set means no solution.
        """
        n = self.shape.size
        full = frozenset(range(1, n + 1))
        domains = [set(full) for _ in range(self.shape.cell_count)]
        arcs: list[tuple[int, int, frozenset[tuple[int, int]], bool]] = []
        for rule in self.constraint_rules:
            if isinstance(rule, Domain):
                for c, ds in rule.cells:
                    domains[c] &= ds
            elif isinstance(rule, Relation):
                for a, b in rule.pairs:
                    arcs.append((a, b, rule.allowed, True))
                    arcs.append((b, a, rule.allowed, False))
        by_cell: dict[int, list[int]] = {}
        for k, (_, b, _, _) in enumerate(arcs):
            by_cell.setdefault(b, []).append(k)
        pending = list(range(len(arcs)))
        queued = set(pending)
        while pending:
            k = pending.pop()
            queued.discard(k)
            a, b, allowed, forward = arcs[k]
            other = domains[b]
            keep = {
                d
                for d in domains[a]
                if any(((d, e) if forward else (e, d)) in allowed for e in other)
            }
            if keep != domains[a]:
                domains[a] = keep
                for j in by_cell.get(a, ()):
                    if j not in queued:
                        queued.add(j)
                        pending.append(j)
        return tuple(frozenset(d) for d in domains)

    def violations(self, values: Sequence[int]) -> list[Violation]:
        """What the filled cells already break in :attr:`constraint_rules` (repeats in
        units and pairs are :meth:`has_clash`'s and ``Puzzle.conflicts``'s)."""
        return [v for r in self.constraint_rules for v in r.violations(values, self.shape)]

    # The tables below depend on the all-different and "different" rules alone, which a
    # rule set shares with its base: a killer or variant puzzle reuses the base's tables
    # (computing them anew costs ~0.5 ms per 9x9 rule set, as much as a uniqueness check).
    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every all-different unit of every rule, in rule order."""
        if self.constraint_rules:
            return self.base.units
        return tuple(u for r in self.rules if isinstance(r, AllDifferent) for u in r.units)

    @cached_property
    def full_units(self) -> tuple[tuple[int, ...], ...]:
        """The units of exactly n cells: each holds every digit once."""
        if self.constraint_rules:
            return self.base.full_units
        n = self.shape.size
        return tuple(u for u in self.units if len(u) == n)

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs from :class:`Different` rules that no unit already covers, sorted."""
        if self.constraint_rules:
            return self.base.pairs
        unit_peers = self._unit_peers
        out = set()
        for r in self.rules:
            if isinstance(r, Different):
                for a, b in r.pairs:
                    if a != b and b not in unit_peers[a]:
                        out.add((min(a, b), max(a, b)))
        return tuple(sorted(out))

    @cached_property
    def _unit_peers(self) -> tuple[frozenset[int], ...]:
        if self.constraint_rules:
            return self.base._unit_peers
        return peers_of_units(self.shape.cell_count, self.units)

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, every other cell that must hold a different digit."""
        if self.constraint_rules:
            return self.base.peers
        acc = [set(p) for p in self._unit_peers]
        for a, b in self.pairs:
            acc[a].add(b)
            acc[b].add(a)
        return tuple(frozenset(s) for s in acc)

    @cached_property
    def units_of_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into :attr:`units`) of the units holding it."""
        if self.constraint_rules:
            return self.base.units_of_cell
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for k, unit in enumerate(self.units):
            for c in unit:
                acc[c].append(k)
        return tuple(tuple(a) for a in acc)

    @cached_property
    def _pair_partners(self) -> tuple[tuple[int, ...], ...]:
        if self.constraint_rules:
            return self.base._pair_partners
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for a, b in self.pairs:
            acc[a].append(b)
        return tuple(tuple(a) for a in acc)

    def has_clash(self, values: Sequence[int]) -> bool:
        """True when the values (0 = empty) put one digit twice where a rule forbids it.

        The fast yes/no behind :meth:`sudoku_model.Puzzle.conflicts`: a bitmask per unit,
        visiting only the filled cells (~5 us for a 9x9 puzzle with 25 givens).
        """
        if self.constraint_rules and self.violations(values):
            return True
        units_of = self.units_of_cell
        partners = self._pair_partners if self.pairs else None
        masks = [0] * len(self.units)
        for cell in compress(range(len(values)), values):
            v = values[cell]
            bit = 1 << v
            for u in units_of[cell]:
                m = masks[u]
                if m & bit:
                    return True
                masks[u] = m | bit
            if partners is not None:
                for other in partners[cell]:
                    if values[other] == v:
                        return True
        return False

    def unit_name(self, index: int) -> str:
        """A readable name for unit ``index``: ``row 3``, ``box 5``, ``diagonal 1`` ..."""
        k = index
        for r in self.rules:
            if isinstance(r, AllDifferent):
                if k < len(r.units):
                    singular = {
                        "rows": "row",
                        "columns": "column",
                        "boxes": "box",
                        "diagonals": "diagonal",
                        "windoku": "window",
                        "regions": "region",
                    }.get(r.name, r.name)
                    return f"{singular} {k + 1}"
                k -= len(r.units)
        raise IndexError(index)

    # -- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        """A JSON-ready description (see :mod:`sudoku_model.formats` for the file form)."""
        d: dict[str, object] = {
            "box": [self.shape.box_rows, self.shape.box_cols],
            "variants": [v for v in self.variants if v != "classic"],
        }
        regions = self.regions
        if regions is not None:
            d["regions"] = list(regions)
        return d


def _check_sandwich_lines(shape: Shape, rules: Sequence[Rule]) -> None:
    """Every sandwich line must be an all-different unit of n cells of these rules.

    That is the definition of a sandwich clue here: its line holds every digit once, so
    its 1 and its n are there and there is one of each (a row or column of classic
    sudoku always is such a unit). A line that is not one could miss its 1 or n, or hold
    two of them; "between the 1 and the n" means nothing there, so such a rule set is
    refused rather than read one way by the checker and another by each backend.

    Raises:
        RuleError: naming the rule and the line.
    """
    lines = [(r.name, line) for r in rules if isinstance(r, Sandwich) for line, _ in r.lines]
    if not lines:
        return
    units = {
        frozenset(u)
        for r in rules
        if isinstance(r, AllDifferent)
        for u in r.units
        if len(u) == shape.size
    }
    for name, line in lines:
        if frozenset(line) not in units:
            raise RuleError(
                f"rule {name!r}: line {shape.cell_name(line[0])}..{shape.cell_name(line[-1])} "
                "is not a row, column, box or "
                f"region of these rules; a sandwich line must hold every digit once, so "
                f"that its 1 and its {shape.size} are there and unique"
            )


@lru_cache(maxsize=256)
def _interned(rules: RuleSet) -> RuleSet:
    """The first rule set seen equal to ``rules`` (the classic one when it is classic)."""
    if rules.is_classic:
        return RuleSet.classic(rules.shape)
    return rules
