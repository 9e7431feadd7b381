"""The table-based variant kinds (:mod:`sudoku_model.rules.tables`) read back for
:func:`sudoku_model.rule_marks.rule_marks`: between, lockout, segment sum ("10 lines"),
lunchbox and value indexing lines, equality, rellik and look-and-say cages, quadruples,
x-sum and skyscraper clues outside the grid, and the captions of the global rules
(global entropy, global mod, dutch flatmates).

A table is opaque (a set of digit tuples), so the rule's name says which kind it is and
carries its parameters (``quadruples (1, 4, 6, 7)``, ``rellik cages (5, 3 cells)``); the
cells come from the scopes, and a line's path is put back in order from the adjacency of
its cells. A table whose name is none of these, or whose scopes do not fit the kind its
name says, gives None and keeps its caption.

>>> from sudoku_model.geometry import Shape
>>> from sudoku_model.rules import between_rule
>>> acc = TableMarks(Shape(3, 3))
>>> acc.add(between_rule(Shape(3, 3), [[0, 1, 2, 11]]))
True
>>> [(line.cells, line.look) for line in acc.finish().lines]
[((0, 1, 2, 11), 'between')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .geometry import Shape
from .rule_lines import Line
from .rules import Table

__all__ = ["CageOf", "ClueOf", "Quadruple", "TableDrawing", "TableMarks"]


@dataclass(frozen=True)
class Quadruple:
    """A quadruple: the digits in a small circle on the corner shared by the 2x2 square
    whose top-left cell is ``corner``."""

    corner: int
    digits: tuple[int, ...]


@dataclass(frozen=True)
class CageOf:
    """A dashed cage of a table kind: its cells (sorted), look (``equality``, ``rellik``
    or ``look-and-say``) and the text in its top-left corner (None for none)."""

    cells: tuple[int, ...]
    look: str
    text: str | None


@dataclass(frozen=True)
class ClueOf:
    """A clue outside the grid at (row, col) (row or col -1 or n), its look ``x-sum`` or
    ``skyscraper``."""

    row: int
    col: int
    text: str
    look: str


@dataclass
class TableDrawing:
    """What :class:`TableMarks` read: lines, cages, quadruples, outside clues and legend
    captions."""

    lines: list[Line] = field(default_factory=list)
    cages: list[CageOf] = field(default_factory=list)
    quadruples: list[Quadruple] = field(default_factory=list)
    outside: list[ClueOf] = field(default_factory=list)
    captions: list[str] = field(default_factory=list)


_NUM = r"(\d+)"
_CLUE = r"(\d+|-)"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "between": re.compile(r"between lines"),
    "lockout": re.compile(rf"lockout lines \({_NUM}\)(: ends)?"),
    "segment": re.compile(rf"segment sum (lines|loops) \({_NUM}, {_NUM} cells\)"),
    "lunchbox": re.compile(rf"lunchboxes \({_NUM}, {_NUM} cells\)"),
    "indexing": re.compile(rf"value indexing \({_NUM} of {_NUM}\)"),
    "quadruple": re.compile(r"quadruples \((\d+(?:, \d+)*)\)"),
    "equality": re.compile(rf"equality cages \({_NUM} cells\)"),
    "rellik": re.compile(rf"rellik cages \({_NUM}, {_NUM} cells\)"),
    "look-and-say": re.compile(rf"look-and-say cages \({_NUM}, {_NUM} cells\)"),
    "x-sums": re.compile(rf"x-sums \({_CLUE}, {_CLUE}\)"),
    "skyscrapers": re.compile(rf"skyscrapers \({_CLUE}, {_CLUE}\)"),
    "global": re.compile(r"(global entropy|global mod 3|dutch flatmates(: top|: bottom)?)"),
}

_GLOBAL_CAPTIONS = {
    "global entropy": "global entropy: every 2x2 square holds a low, a middle and a high digit",
    "global mod 3": "global mod 3: every 2x2 square holds a digit of each residue modulo 3",
    "dutch flatmates": (
        "dutch flatmates: every middle digit has a 1 directly above it or the largest digit "
        "directly below it"
    ),
}

_CAGE_CAPTIONS = {
    "equality": "equality cages (dashed, = in the corner): as many even as odd digits, "
    "as many low as high digits",
    "rellik": "rellik cages (dashed, total crossed out in the corner): no set of a cage's "
    "different digits sums to the total",
    "look-and-say": "look-and-say cages (dashed, clue in the corner): the clue reads as "
    "(count, digit) pairs",
}


def _touch(n: int, a: int, b: int) -> int:
    """1 for orthogonal neighbours, 2 for diagonal ones, 0 otherwise."""
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    dr, dc = abs(ra - rb), abs(ca - cb)
    if dr + dc == 1:
        return 1
    return 2 if dr == dc == 1 else 0


def path_order(n: int, start: int, middle: Sequence[int], end: int | None) -> tuple[int, ...]:
    """A path from ``start`` through the ``middle`` cells (to ``end``): the cells in the
    order given when each touches the next (the constructors keep the path's order);
    otherwise each step goes to a cell not yet on the path that touches the last one
    (orthogonal neighbours first, then diagonal, in the given order), or to the next one
    given when none touches."""
    left = list(dict.fromkeys(c for c in middle if c != start and c != end))
    given = [start, *left, *([end] if end is not None and end != start else [])]
    if all(_touch(n, a, b) for a, b in zip(given, given[1:])):
        return tuple(given)
    path = [start]
    while left:
        here = path[-1]
        best = min(
            (i for i, c in enumerate(left) if _touch(n, here, c)),
            key=lambda i: (_touch(n, here, left[i]), i),
            default=0,
        )
        path.append(left.pop(best))
    if end is not None and end != start:
        path.append(end)
    return tuple(path)


class TableMarks:
    """Table rules read one by one with :meth:`add`, their marks given by :meth:`finish`
    (a value indexing line is spread over one rule per position)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.n = shape.size
        self.out = TableDrawing()
        # value indexing: (value, control, m) -> {j: cell}
        self._indexed: dict[tuple[int, int, int], dict[int, int]] = {}
        self._readers = {
            "between": self._between,
            "lockout": self._lockout,
            "segment": self._segment,
            "lunchbox": self._lunchbox,
            "indexing": self._indexing,
            "quadruple": self._quadruple,
            "equality": self._equality,
            "rellik": self._rellik,
            "look-and-say": self._look_and_say,
            "x-sums": self._x_sums,
            "skyscrapers": self._skyscrapers,
            "global": self._global,
        }

    def add(self, rule: Table) -> bool:
        """Read ``rule``; False when its name or scopes are no kind drawn here."""
        for kind, pattern in _PATTERNS.items():
            match = pattern.fullmatch(rule.name)
            if match is None:
                continue
            scopes = [tuple(s) for s in rule.scopes]
            if not scopes or any(not 0 <= c < self.n * self.n for s in scopes for c in s):
                return False
            return self._readers[kind](match, scopes)
        return False

    def finish(self) -> TableDrawing:
        """The marks read, the value indexing lines joined."""
        label = "value indexing: the control cell's digit k says which cell on the line holds "
        label += "the value cell's digit"
        for (value, control, _), cells in self._indexed.items():
            path = (value, control, *(cells[j] for j in sorted(cells)))
            self.out.lines.append(Line(path, "value-indexing", label))
        self._indexed = {}
        return self.out

    # -- lines -------------------------------------------------------------------------------
    def _ended(self, scopes: list[tuple[int, ...]]) -> list[tuple[int, ...]] | None:
        """Lines from (end, end, middle) scopes: consecutive scopes with the same ends."""
        groups: list[tuple[int, int, list[int]]] = []
        for s in scopes:
            if len(s) != 3:
                return None
            a, b, m = s
            if groups and groups[-1][:2] == (a, b):
                groups[-1][2].append(m)
            else:
                groups.append((a, b, [m]))
        return [path_order(self.n, a, mids, b) for a, b, mids in groups]

    def _between(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        paths = self._ended(scopes)
        if paths is None:
            return False
        label = "between lines: digits on a line lie strictly between the digits in its end circles"
        self.out.lines.extend(Line(p, "between", label) for p in paths)
        return True

    def _lockout(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        d = match.group(1)
        if match.group(2):
            if any(len(s) != 2 for s in scopes):
                return False
            paths: list[tuple[int, ...]] | None = scopes
        else:
            paths = self._ended(scopes)
        if paths is None:
            return False
        label = (
            f"lockout lines ({d}): the end diamonds differ by at least {d}, and no digit on "
            "the line lies between them"
        )
        self.out.lines.extend(Line(p, "lockout", label) for p in paths)
        return True

    def _segment(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        loops, total = match.group(1) == "loops", match.group(2)
        what = "loops" if loops else "lines"
        label = f"segment sum {what} ({total}): a line cuts into runs that each sum to {total}"
        for s in scopes:
            path = path_order(self.n, s[0], s[1:], None)
            if loops and len(path) > 2:
                path = (*path, path[0])
            self.out.lines.append(Line(path, "segment-sum", label))
        return True

    def _lunchbox(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        total = match.group(1)
        label = "lunchboxes: the digits between the smallest and the largest sum to the total"
        for s in scopes:
            self.out.lines.append(Line(tuple(s), "lunchbox", label, total))
        return True

    def _indexing(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        j, m = int(match.group(1)), int(match.group(2))
        if any(len(s) != 3 for s in scopes) or not 1 <= j <= m:
            return False
        for control, value, cell in scopes:
            self._indexed.setdefault((value, control, m), {})[j] = cell
        return True

    # -- cells -------------------------------------------------------------------------------
    def _quadruple(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        n = self.n
        digits = tuple(int(v) for v in match.group(1).split(", "))
        for s in scopes:
            corner = min(s)
            r, c = divmod(corner, n)
            square = {corner, corner + 1, corner + n, corner + n + 1}
            if len(s) != 4 or set(s) != square or c == n - 1 or r == n - 1:
                return False
        self.out.quadruples.extend(Quadruple(min(s), digits) for s in scopes)
        self.out.captions.append("quadruples: the digits in a circle appear in its 2x2 square")
        return True

    def _cages(self, look: str, text: str | None, scopes: list[tuple[int, ...]]) -> bool:
        self.out.cages.extend(CageOf(tuple(sorted(s)), look, text) for s in scopes)
        self.out.captions.append(_CAGE_CAPTIONS[look])
        return True

    def _equality(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        return self._cages("equality", "=", scopes)

    def _rellik(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        return self._cages("rellik", "\u2260" + match.group(1), scopes)

    def _look_and_say(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        return self._cages("look-and-say", match.group(1), scopes)

    # -- outside the grid --------------------------------------------------------------------
    def _house(
        self, match: re.Match[str], scopes: list[tuple[int, ...]], look: str, caption: str
    ) -> bool:
        n = self.n
        placed: list[ClueOf] = []
        for s in scopes:
            rows = [i for i, u in enumerate(self.shape.rows) if s in (u, u[::-1])]
            cols = [i for i, u in enumerate(self.shape.columns) if s in (u, u[::-1])]
            if rows:
                i = rows[0]
                forward = s == self.shape.rows[i]
                ends = [(i, -1), (i, n)] if forward else [(i, n), (i, -1)]
            elif cols:
                i = cols[0]
                forward = s == self.shape.columns[i]
                ends = [(-1, i), (n, i)] if forward else [(n, i), (-1, i)]
            else:
                return False
            for (row, col), text in zip(ends, (match.group(1), match.group(2))):
                if text != "-":
                    placed.append(ClueOf(row, col, text, look))
        self.out.outside.extend(placed)
        self.out.captions.append(caption)
        return True

    def _x_sums(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        caption = "x-sums (clues outside the grid): the first X digits from the clue sum to it, "
        return self._house(match, scopes, "x-sum", caption + "X the first of them")

    def _skyscrapers(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        caption = "skyscrapers (clues outside the grid): that many digits are seen from the "
        return self._house(
            match, scopes, "skyscraper", caption + "clue, each higher than all before it"
        )

    def _global(self, match: re.Match[str], scopes: list[tuple[int, ...]]) -> bool:
        name = match.group(1).split(":")[0]
        self.out.captions.append(_GLOBAL_CAPTIONS[name])
        return True
