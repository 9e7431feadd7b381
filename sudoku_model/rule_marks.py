"""How each rule looks on a grid, derived from the rule's data: the pictures of
:mod:`sudoku_model.display` are drawn from these marks.

Rules are data (:mod:`sudoku_model.rules`): a kropki white dot is a :class:`Relation` whose
table is "the two digits are consecutive", a killer cage a distinct :class:`SumGroup` with
unit weights. The look is read from that structure, not from a stored hint, so a rule built
by hand, read from a file or renamed draws the same as one from the constructors; the name
only settles what the structure leaves open (a "less than" table is a thermometer when its
name says so or a step is diagonal, signs between neighbours otherwise) and words the
caption of a rule that has nothing to draw (a negative constraint, non-consecutive).

What is recognised:

* :class:`Relation` tables over digits 1..n between orthogonal neighbours: consecutive
  (white dot), one double the other (black dot), sum 10 (X), sum 5 (V), bigger/smaller
  (a greater-than sign); "smaller first" along paths (thermometers, bulb first);
* :class:`Domain` cells whose set is exactly the even or the odd digits;
* :class:`Sum` groups: distinct with unit weights (killer cage); circle cells with negative
  weights, shaft cells weight 1, total 0 (arrow); unit weights, not distinct, along a
  diagonal that starts or ends at the border (little killer, total outside the grid);
  other unit-weight groups (sum line, total at the start);
* :class:`Sandwich` lines that are rows (clue left) or columns (clue on top);
* the ``cages without totals`` all-different units of f-puzzles files (cages, no total);
* the variant lines (whispers, renban, palindromes, entropic and modular lines, region sum
  lines, zippers, double arrows, lines of equal sums) as :class:`Line` paths, recovered
  by :mod:`sudoku_model.rule_lines`;
* the :class:`Table` kinds named by :mod:`sudoku_model.rules.tables` (between, lockout,
  segment sum, lunchbox and value indexing lines; equality, rellik and look-and-say cages;
  quadruples; x-sum and skyscraper clues; the global rules as captions), read by
  :mod:`sudoku_model.rule_tables_marks`.

Anything else is named in :attr:`RuleMarks.captions` so a picture never hides a rule.

>>> from sudoku_model.geometry import Shape
>>> from sudoku_model.rules import RuleSet, killer_rule, kropki_rules
>>> s = Shape(2, 2)
>>> rs = RuleSet.classic(s).with_rules([killer_rule(s, [((0, 1), 3)]), *kropki_rules(s, [(2, 3)])])
>>> m = rule_marks(rs)
>>> m.cages, m.edges
((Cage(cells=(0, 1), total=3, look='killer', text=None),), (EdgeMark(a=2, b=3, look='white-dot'),))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .geometry import Shape
from .rule_lines import LINE_LOOKS, Line, ModularLines, relation_lines, sum_rule_lines
from .rule_tables_marks import Quadruple, TableMarks
from .rules import AllDifferent, Domain, Relation, RuleSet, Sandwich, Sum, SumGroup, Table

__all__ = [
    "Arrow",
    "Cage",
    "CellMark",
    "EdgeMark",
    "LINE_LOOKS",
    "Line",
    "OutsideClue",
    "Quadruple",
    "RuleMarks",
    "SumLine",
    "Thermometer",
    "rule_marks",
]

#: Looks of an :class:`EdgeMark`.
EDGE_LOOKS = ("white-dot", "black-dot", "X", "V", "greater")


@dataclass(frozen=True)
class Cage:
    """A dashed cage: its cells (sorted) and total (None for a cage without one), written
    in the top-left corner of ``cells[0]``, the first in reading order. ``look`` is
    ``killer`` or a table kind (``equality``, ``rellik``, ``look-and-say``), whose corner
    holds ``text`` instead of a total (``=``, the crossed-out total, the clue)."""

    cells: tuple[int, ...]
    total: int | None
    look: str = "killer"
    text: str | None = None

    @property
    def corner(self) -> str | None:
        """The text in the cage's corner: its total, or its ``text``."""
        return str(self.total) if self.total is not None else self.text


@dataclass(frozen=True)
class Thermometer:
    """Cells from the bulb along the tube; ``bulb`` is False for a branch that leaves
    another thermometer's tube or bulb (drawn without a bulb of its own)."""

    cells: tuple[int, ...]
    bulb: bool


@dataclass(frozen=True)
class Arrow:
    """An arrow: its circle (one cell, or two read as a two-digit number) and its shaft in
    order, the arrowhead at the shaft's last cell."""

    circle: tuple[int, ...]
    shaft: tuple[int, ...]


@dataclass(frozen=True)
class EdgeMark:
    """A mark on the edge between orthogonal neighbours ``a`` and ``b``: ``white-dot``,
    ``black-dot``, ``X``, ``V``, or ``greater`` (a sign saying a's digit is bigger)."""

    a: int
    b: int
    look: str


@dataclass(frozen=True)
class CellMark:
    """A shaded cell: ``even`` (a grey square) or ``odd`` (a grey circle)."""

    cell: int
    look: str


@dataclass(frozen=True)
class SumLine:
    """Cells whose digits (repeats allowed) sum to ``total``, drawn as a line with the total
    at its first cell."""

    cells: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class OutsideClue:
    """A number outside the grid at (row, col), one step beyond it (row or col is -1 or n):
    a sandwich total (``direction`` None) or a little killer total whose diagonal starts in
    ``direction`` (a (row step, column step) pair). ``look`` is ``sandwich`` for those, or
    ``x-sum`` or ``skyscraper`` for the clues of those table kinds."""

    row: int
    col: int
    text: str
    direction: tuple[int, int] | None = None
    look: str = "sandwich"


@dataclass(frozen=True)
class RuleMarks:
    """Everything drawn for a rule set's rules beyond the grid lines, and caption lines for
    what has no picture."""

    cages: tuple[Cage, ...] = ()
    thermometers: tuple[Thermometer, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    edges: tuple[EdgeMark, ...] = ()
    cells: tuple[CellMark, ...] = ()
    sum_lines: tuple[SumLine, ...] = ()
    outside: tuple[OutsideClue, ...] = ()
    lines: tuple[Line, ...] = ()
    quadruples: tuple[Quadruple, ...] = ()
    captions: tuple[str, ...] = ()

    def legend(self) -> tuple[tuple[str, str], ...]:
        """The (look, label) of each kind of line drawn, in order of first appearance."""
        return tuple(dict.fromkeys((line.look, line.label) for line in self.lines))

    def bands(self, n: int) -> tuple[bool, bool, bool, bool]:
        """Whether clues stand outside an n x n grid on the (left, top, right, bottom)."""
        out = self.outside
        return (
            any(c.col == -1 for c in out),
            any(c.row == -1 for c in out),
            any(c.col == n for c in out),
            any(c.row == n for c in out),
        )


# -- tables ----------------------------------------------------------------------------------
def _table(n: int, test: Callable[[int, int], bool]) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if test(a, b))


def _edge_tables(n: int) -> dict[frozenset[tuple[int, int]], str]:
    return {
        _table(n, lambda a, b: abs(a - b) == 1): "white-dot",
        _table(n, lambda a, b: a == 2 * b or b == 2 * a): "black-dot",
        _table(n, lambda a, b: a + b == 10): "X",
        _table(n, lambda a, b: a + b == 5): "V",
        _table(n, lambda a, b: a > b): "greater",
    }


#: Captions of relations that constrain cells without a mark of their own.
_NEGATIVE_CAPTIONS = {
    "non-consecutive": "non-consecutive: orthogonal neighbours never differ by 1",
    "kropki negative": "kropki: neighbours without a dot are neither consecutive nor double",
    "XV negative": "XV: neighbours without an X or V sum to neither 10 nor 5",
}


def _orthogonal(n: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def _chains(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Paths back from the ordered pairs of a thermometer rule (one path's pairs are
    consecutive, each starting where the previous one ended)."""
    paths: list[list[int]] = []
    for a, b in pairs:
        if paths and paths[-1][-1] == a:
            paths[-1].append(b)
        else:
            paths.append([a, b])
    return paths


# -- the marks of a rule set -----------------------------------------------------------------
def rule_marks(rules: RuleSet) -> RuleMarks:
    """The marks of every rule of ``rules`` beyond the all-different units and pairs (which
    the grid lines, shading and the variant captions of the picture show), in rule order."""
    shape = rules.shape
    acc = _Marks(shape)
    tables = TableMarks(shape)
    for rule in rules.rules:
        if isinstance(rule, Relation):
            acc.relation(rule)
        elif isinstance(rule, Domain):
            acc.domain(rule)
        elif isinstance(rule, Sum):
            lines = sum_rule_lines(shape.size, rule)
            if lines is not None:
                acc.lines.extend(lines)
                continue
            for group in rule.groups:
                acc.sum_group(rule.name, group)
        elif isinstance(rule, Sandwich):
            acc.sandwich(rule)
        elif isinstance(rule, Table) and rule.scopes:
            if not tables.add(rule):
                acc.captions.append(
                    f"{rule.name}: {len(rule.scopes)} cell groups with a digit-tuple table"
                    " (not drawn)"
                )
        elif isinstance(rule, AllDifferent) and rule.name == "cages without totals":
            acc.cages.extend(Cage(tuple(sorted(u)), None) for u in rule.units)
    drawn = tables.finish()
    acc.lines.extend(drawn.lines)
    acc.cages.extend(Cage(c.cells, None, c.look, c.text) for c in drawn.cages)
    acc.outside.extend(OutsideClue(c.row, c.col, c.text, None, c.look) for c in drawn.outside)
    acc.captions.extend(drawn.captions)
    modular, joined = acc.modular.lines()
    acc.lines.extend(modular)
    if not joined:
        acc.captions.append("modular lines: cells that continue no line (not drawn)")
    return RuleMarks(
        cages=tuple(acc.cages),
        thermometers=tuple(acc.thermometers),
        arrows=tuple(acc.arrows),
        edges=tuple(acc.edges),
        cells=tuple(acc.cells),
        sum_lines=tuple(acc.sum_lines),
        outside=tuple(acc.outside),
        lines=tuple(acc.lines),
        quadruples=tuple(drawn.quadruples),
        captions=tuple(dict.fromkeys(acc.captions)),
    )


class _Marks:
    """The lists :func:`rule_marks` fills, one method per rule kind."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.n = shape.size
        self.cages: list[Cage] = []
        self.thermometers: list[Thermometer] = []
        self.arrows: list[Arrow] = []
        self.edges: list[EdgeMark] = []
        self.cells: list[CellMark] = []
        self.sum_lines: list[SumLine] = []
        self.outside: list[OutsideClue] = []
        self.lines: list[Line] = []
        self.modular = ModularLines()
        self.captions: list[str] = []

    def relation(self, rule: Relation) -> None:
        n = self.n
        if rule.name in _NEGATIVE_CAPTIONS:
            self.captions.append(_NEGATIVE_CAPTIONS[rule.name])
            return
        lines = relation_lines(n, rule, self.modular)
        if lines is not None:
            self.lines.extend(lines)
            return
        look = _edge_tables(n).get(rule.allowed)
        all_orthogonal = all(_orthogonal(n, a, b) for a, b in rule.pairs)
        less = rule.allowed == _table(n, lambda a, b: a < b)
        if less and ("thermo" in rule.name.lower() or not all_orthogonal):
            pairs = rule.pairs
            seconds = {b for _, b in pairs}
            bulbs: set[int] = set()
            for path in _chains(pairs):
                # two tubes from one bulb (or a branch off a tube) share a single bulb
                bulb = path[0] not in seconds and path[0] not in bulbs
                bulbs.add(path[0])
                self.thermometers.append(Thermometer(tuple(path), bulb))
        elif less and all_orthogonal:
            self.edges.extend(EdgeMark(b, a, "greater") for a, b in rule.pairs)
        elif look is not None and all_orthogonal:
            self.edges.extend(EdgeMark(a, b, look) for a, b in rule.pairs)
        elif rule.pairs:
            self.captions.append(
                f"{rule.name}: {len(rule.pairs)} cell pairs with a digit-pair table (not drawn)"
            )

    def domain(self, rule: Domain) -> None:
        n = self.n
        even = frozenset(range(2, n + 1, 2))
        odd = frozenset(range(1, n + 1, 2))
        undrawn = 0
        for cell, digits in rule.cells:
            if digits == even:
                self.cells.append(CellMark(cell, "even"))
            elif digits == odd:
                self.cells.append(CellMark(cell, "odd"))
            else:
                undrawn += 1
        if undrawn:
            self.captions.append(f"{rule.name}: {undrawn} cells with restricted digits (not drawn)")

    def sum_group(self, name: str, group: SumGroup) -> None:
        cells, weights = group.cells, group.weights
        if all(w == 1 for w in weights):
            if group.distinct:
                self.cages.append(Cage(tuple(sorted(cells)), group.total))
            else:
                self._line(group)
            return
        circle = tuple(c for c, w in zip(cells, weights) if w < 0)
        shaft = tuple(c for c, w in zip(cells, weights) if w > 0)
        if (
            group.total == 0
            and not group.distinct
            and circle
            and shaft
            and all(w == 1 for w in weights if w > 0)
            and [-w for w in weights if w < 0]
            == [10 ** (len(circle) - 1 - i) for i in range(len(circle))]
        ):
            self.arrows.append(Arrow(circle, shaft))
            return
        self.captions.append(
            f"{name}: a weighted sum over {', '.join(map(self.shape.cell_name, cells))} (not drawn)"
        )

    def _line(self, group: SumGroup) -> None:
        """A little killer diagonal with its total outside the grid, else a sum line."""
        n = self.n
        cells = list(group.cells)
        placed = _diagonal_clue(n, cells)
        if placed is None:
            self.sum_lines.append(SumLine(tuple(cells), group.total))
        else:
            (row, col), step = placed
            self.outside.append(OutsideClue(row, col, str(group.total), step))

    def sandwich(self, rule: Sandwich) -> None:
        rows, columns = self.shape.rows, self.shape.columns
        for line, total in rule.lines:
            for units, at in ((rows, lambda i: (i, -1)), (columns, lambda i: (-1, i))):
                index = _index_of_line(units, line)
                if index is not None:
                    row, col = at(index)
                    self.outside.append(OutsideClue(row, col, str(total)))
                    break
            else:
                self.captions.append(f"{rule.name}: a line that is not a row or column (not drawn)")


def _index_of_line(units: Sequence[tuple[int, ...]], line: tuple[int, ...]) -> int | None:
    for i, unit in enumerate(units):
        if line == unit or line == unit[::-1]:
            return i
    return None


def _diagonal_clue(n: int, cells: list[int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a little killer total stands: one diagonal step outside the grid before the
    diagonal's first cell (or after its last), with the step into the grid; None when the
    cells are not one diagonal run touching the border."""
    coords = sorted(divmod(c, n) for c in cells)
    if len(coords) == 1:
        (r, c) = coords[0]
        # a single corner cell: its diagonal starts outside the corner
        corner = {
            (0, 0): (1, 1),
            (0, n - 1): (1, -1),
            (n - 1, 0): (-1, 1),
            (n - 1, n - 1): (-1, -1),
        }
        step = corner.get((r, c))
        return None if step is None else ((r - step[0], c - step[1]), step)
    dr, dc = coords[1][0] - coords[0][0], coords[1][1] - coords[0][1]
    if dr != 1 or abs(dc) != 1:
        return None
    if any(b[0] - a[0] != dr or b[1] - a[1] != dc for a, b in zip(coords, coords[1:])):
        return None
    ends = [(coords[0], (dr, dc)), (coords[-1], (-dr, -dc))]
    first = divmod(cells[0], n)
    if first == coords[-1]:  # the cells were listed from the other end: try that end first
        ends.reverse()
    for (r, c), (sr, sc) in ends:
        outside = (r - sr, c - sc)
        if not (0 <= outside[0] < n and 0 <= outside[1] < n):
            return outside, (sr, sc)
    return None
