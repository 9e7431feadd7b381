"""The immutable :class:`Grid` of values (the symbol alphabets used to write it live in
:mod:`sudoku_model.gridtext` and are re-exported here).

>>> g = Grid.parse("1234341221434321")
>>> g[0], g[1, 1], g.clues
(1, 4, 16)
>>> Grid.parse(g.to_line()) == g
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from . import gridtext
from .geometry import Shape, shape_for_cell_count, shape_for_size
from .gridtext import (
    ALPHABETS,
    BLANKS,
    DEFAULT_ALPHABET,
    LETTER_ALPHABET,
    ZERO_BASED_ALPHABET,
    Alphabet,
)

# a registered alphabet pickled before the alphabets moved to gridtext names
# sudoku_model.grid._registered: such pickles still load
from .gridtext import _registered as _registered

__all__ = [
    "ALPHABETS",
    "BLANKS",
    "DEFAULT_ALPHABET",
    "LETTER_ALPHABET",
    "ZERO_BASED_ALPHABET",
    "Alphabet",
    "Grid",
]


class Grid:
    """An immutable n x n grid of values, 0 meaning empty.

    Index by cell number or by ``(row, col)`` (both 0-based).

    Raises:
        ValueError: when the value count is not ``shape.cell_count`` or a value is not in
            0..n.
    """

    __slots__ = ("_hash", "shape", "values")

    shape: Shape
    values: tuple[int, ...]
    _hash: int | None

    def __init__(self, shape: Shape, values: Iterable[int]) -> None:
        vals = tuple(values)
        if len(vals) != shape.cell_count:
            raise ValueError(
                f"a {shape.size}x{shape.size} grid has {shape.cell_count} "
                f"cells, got {len(vals)} values"
            )
        n = shape.size
        for i, v in enumerate(vals):
            if not isinstance(v, int) or not 0 <= v <= n:
                raise ValueError(f"cell {shape.cell_name(i)} holds {v!r}; values are 0..{n}")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "values", vals)
        object.__setattr__(self, "_hash", None)

    @classmethod
    def _trusted(cls, shape: Shape, values: tuple[int, ...]) -> Grid:
        """Build without validation (values known to be in range): hot paths only."""
        g = object.__new__(cls)
        object.__setattr__(g, "shape", shape)
        object.__setattr__(g, "values", values)
        object.__setattr__(g, "_hash", None)
        return g

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Grid is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Grid._trusted, (self.shape, self.values))

    # -- construction ------------------------------------------------------------------
    @classmethod
    def empty(cls, shape: Shape) -> Grid:
        """The grid with every cell empty."""
        return cls._trusted(shape, (0,) * shape.cell_count)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], shape: Shape | None = None) -> Grid:
        """Build from a list of rows of ints (0 = empty)."""
        flat = [v for row in rows for v in row]
        if shape is None:
            shape = shape_for_size(len(rows))
        return cls(shape, flat)

    @classmethod
    def parse(
        cls, text: str, *, shape: Shape | None = None, alphabet: Alphabet = DEFAULT_ALPHABET
    ) -> Grid:
        """Read a grid from one line of cells or from a block of n lines.

        Raises:
            ParseError: naming line and column of the first problem.
        """
        shp, values = gridtext.decode_grid(text, shape=shape, alphabet=alphabet)
        return cls._trusted(shp, values)

    # -- access ------------------------------------------------------------------------
    @overload
    def __getitem__(self, key: int) -> int: ...
    @overload
    def __getitem__(self, key: tuple[int, int]) -> int: ...
    def __getitem__(self, key: int | tuple[int, int]) -> int:
        if isinstance(key, tuple):
            return self.values[self.shape.cell(*key)]
        return self.values[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def clues(self) -> int:
        """Number of filled cells."""
        return sum(1 for v in self.values if v)

    @property
    def is_complete(self) -> bool:
        return 0 not in self.values

    def filled_cells(self) -> list[int]:
        return [i for i, v in enumerate(self.values) if v]

    def empty_cells(self) -> list[int]:
        return [i for i, v in enumerate(self.values) if not v]

    def rows(self) -> list[tuple[int, ...]]:
        n = self.shape.size
        return [self.values[r * n : (r + 1) * n] for r in range(n)]

    # -- derived grids -----------------------------------------------------------------
    def with_value(self, cell: int, value: int) -> Grid:
        """A copy with ``cell`` set to ``value`` (0 clears it)."""
        vals = list(self.values)
        vals[cell] = value
        return Grid(self.shape, vals)

    def without(self, cells: Iterable[int]) -> Grid:
        """A copy with the given cells emptied."""
        vals = list(self.values)
        for c in cells:
            vals[c] = 0
        return Grid._trusted(self.shape, tuple(vals))

    def restricted_to(self, cells: Iterable[int]) -> Grid:
        """A copy keeping only the given cells."""
        keep = set(cells)
        return Grid._trusted(
            self.shape, tuple(v if i in keep else 0 for i, v in enumerate(self.values))
        )

    def differences(self, other: Grid) -> list[int]:
        """The cells where two grids of one shape hold different values."""
        if other.shape != self.shape:
            raise ValueError(f"cannot compare {self.shape.name} with {other.shape.name}")
        return [i for i, (a, b) in enumerate(zip(self.values, other.values)) if a != b]

    # -- text --------------------------------------------------------------------------
    def to_line(self, *, blank: str = ".", alphabet: Alphabet = DEFAULT_ALPHABET) -> str:
        """The n*n symbols on one line, ``blank`` for empty cells."""
        return gridtext.format_line(self.values, blank=blank, alphabet=alphabet)

    def to_block(
        self, *, blank: str = ".", separators: bool = True, alphabet: Alphabet = DEFAULT_ALPHABET
    ) -> str:
        """A pretty n-line block, with ``|`` and ``-+-`` between boxes when ``separators``."""
        return gridtext.format_block(
            self.shape, self.values, blank=blank, separators=separators, alphabet=alphabet
        )

    def __str__(self) -> str:
        return self.to_line()

    def __repr__(self) -> str:
        standard = shape_for_cell_count(self.shape.cell_count)
        if standard == self.shape:
            return f"Grid.parse({self.to_line()!r})"
        return f"Grid.parse({self.to_line()!r}, shape={self.shape!r})"

    # -- identity ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self.shape == other.shape and self.values == other.values

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self.shape.box_rows, self.shape.box_cols, self.values))
            object.__setattr__(self, "_hash", h)
        return h

    # -- Jupyter (drawing code is imported only when a notebook asks) -------------------
    def _repr_svg_(self) -> str:
        from .display import grid_svg

        return grid_svg(self)

    def _repr_html_(self) -> str:
        from .display import grid_html

        return grid_html(self)
