"""Board geometry: the :class:`Shape` of a grid, its cells, units and peers.

A shape is fixed by its box: ``Shape(3, 3)`` is the classic 9x9 grid, ``Shape(2, 3)`` the
6x6 grid whose boxes are 2 rows by 3 columns. Cells are numbered ``0 .. n*n-1`` row-major.

>>> s = Shape(2, 3)
>>> s.size, s.cell_count
(6, 36)
>>> s.box_of(7)
0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from .errors import ShapeError

__all__ = [
    "SUPPORTED_SIZES",
    "Shape",
    "parse_box",
    "shape_for_cell_count",
    "shape_for_size",
]

#: Grid sizes n that have a standard box shape (n = box_rows * box_cols, 4 <= n <= 25).
SUPPORTED_SIZES = tuple(range(4, 26))

MIN_SIZE = 4
MAX_SIZE = 25


@dataclass(frozen=True, order=True)
class Shape:
    """The geometry of an n x n grid with boxes of ``box_rows`` x ``box_cols`` cells.

    Raises:
        ShapeError: when the box is degenerate or the grid is outside 4x4 .. 25x25.
    """

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        for name in ("box_rows", "box_cols"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ShapeError(f"{name} must be a positive integer, got {value!r}")
        n = self.box_rows * self.box_cols
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ShapeError(
                f"box {self.box_rows}x{self.box_cols} gives a {n}x{n} grid; "
                f"sizes {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE} are supported"
            )
        if self.box_rows == 1 or self.box_cols == 1:
            raise ShapeError(f"box {self.box_rows}x{self.box_cols} is a line, not a box")

    def __repr__(self) -> str:
        return f"Shape({self.box_rows}, {self.box_cols})"

    def __reduce__(self) -> tuple[object, ...]:
        # Pickle the two numbers, not the cached unit tables (worker processes).
        return (Shape, (self.box_rows, self.box_cols))

    # -- sizes -----------------------------------------------------------------------
    @property
    def size(self) -> int:
        """n, the number of rows, columns, boxes and digits."""
        return self.box_rows * self.box_cols

    @property
    def cell_count(self) -> int:
        """n * n."""
        return self.size * self.size

    @property
    def digits(self) -> range:
        """The digits 1..n."""
        return range(1, self.size + 1)

    @property
    def name(self) -> str:
        """``"9x9 (3x3 boxes)"``-style description."""
        n = self.size
        return f"{n}x{n} ({self.box_rows}x{self.box_cols} boxes)"

    # -- coordinates -------------------------------------------------------------------
    def cell(self, row: int, col: int) -> int:
        """The index of the cell at 0-based ``row``, ``col``."""
        n = self.size
        if not (0 <= row < n and 0 <= col < n):
            raise IndexError(f"cell ({row}, {col}) is outside a {n}x{n} grid")
        return row * n + col

    def row_col(self, cell: int) -> tuple[int, int]:
        """The 0-based (row, column) of a cell index."""
        return divmod(cell, self.size)

    def box_of(self, cell: int) -> int:
        """The index of the box holding ``cell`` (boxes numbered row-major)."""
        r, c = divmod(cell, self.size)
        boxes_per_row = self.size // self.box_cols
        return (r // self.box_rows) * boxes_per_row + c // self.box_cols

    def cell_name(self, cell: int) -> str:
        """Human name ``r3c7`` (1-based) of a cell."""
        r, c = divmod(cell, self.size)
        return f"r{r + 1}c{c + 1}"

    # -- units -------------------------------------------------------------------------
    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(r * n + c for c in range(n)) for r in range(n))

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(r * n + c for r in range(n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        n, br, bc = self.size, self.box_rows, self.box_cols
        out = []
        for top in range(0, n, br):
            for left in range(0, n, bc):
                out.append(tuple((top + i) * n + left + j for i in range(br) for j in range(bc)))
        return tuple(out)

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then boxes: the classic all-different units."""
        return self.rows + self.columns + self.boxes

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, the other cells sharing a classic unit with it."""
        return peers_of_units(self.cell_count, self.units)

    # -- symbols -----------------------------------------------------------------------
    def transposed(self) -> Shape:
        """The shape with box rows and columns swapped (2x3 -> 3x2)."""
        return Shape(self.box_cols, self.box_rows)


def peers_of_units(cell_count: int, units: Iterable[Sequence[int]]) -> tuple[frozenset[int], ...]:
    """For each of ``cell_count`` cells, the other cells sharing one of ``units`` with it."""
    acc: list[set[int]] = [set() for _ in range(cell_count)]
    for unit in units:
        for a in unit:
            acc[a].update(unit)
    for i, s in enumerate(acc):
        s.discard(i)
    return tuple(frozenset(s) for s in acc)


@cache
def shape_for_size(n: int) -> Shape:
    """The standard shape of an n x n grid: the squarest box, with more columns than rows.

    >>> shape_for_size(9), shape_for_size(6), shape_for_size(12)
    (Shape(3, 3), Shape(2, 3), Shape(3, 4))

    Raises:
        ShapeError: when n has no box shape (a prime such as 7) or is out of range.
    """
    if not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
        raise ShapeError(f"grid size {n!r} is outside 4..25")
    best = None
    for rows in range(2, math.isqrt(n) + 1):
        if n % rows == 0:
            best = rows
    if best is None:
        raise ShapeError(f"a {n}x{n} grid has no box shape ({n} is prime); give regions instead")
    return Shape(best, n // best)


@cache
def shape_for_cell_count(count: int) -> Shape:
    """The standard shape of a grid with ``count`` cells (16, 36, 64, 81, ...).

    Raises:
        ShapeError: when ``count`` is not the square of a supported size.
    """
    n = math.isqrt(count)
    if n * n != count:
        raise ShapeError(f"{count} cells is not a square grid")
    return shape_for_size(n)


def parse_box(text: str) -> Shape:
    """Parse ``"3x3"``, ``"2x3"`` (box rows x box columns) or a bare size ``"9"``.

    Raises:
        ShapeError: on anything else.
    """
    t = text.strip().lower()
    if "x" in t:
        a, _, b = t.partition("x")
        try:
            return Shape(int(a), int(b))
        except ValueError:
            raise ShapeError(f"box {text!r} is not of the form RxC") from None
    try:
        n = int(t)
    except ValueError:
        raise ShapeError(f"size {text!r} is not a number or RxC box") from None
    return shape_for_size(n)  # its own message: "a 7x7 grid has no box shape (7 is prime)"
