"""The immutable :class:`Grid` of values, and the symbol alphabets used to write it.

>>> g = Grid.parse("1234341221434321")
>>> g[0], g[1, 1], g.clues
(1, 4, 16)
>>> Grid.parse(g.to_line()) == g
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from .geometry import Shape, shape_for_cell_count, shape_for_size

__all__ = [
    "ALPHABETS",
    "BLANKS",
    "DEFAULT_ALPHABET",
    "LETTER_ALPHABET",
    "ZERO_BASED_ALPHABET",
    "Alphabet",
    "Grid",
]

#: Characters read as an empty cell (with the default alphabet).
BLANKS = ".0_-*"


class Alphabet:
    """How values 1..n are written: ``symbols[v - 1]`` is the symbol of value v.

    The default writes 1-9 then A-Z (16x16 as 1-9A-G); ``ZERO_BASED_ALPHABET`` is the 0-F
    convention (value 1 written ``0``), where ``0`` is a digit and not a blank;
    ``LETTER_ALPHABET`` writes A-P (16x16) or A-Y (25x25).
    Letters are read case-insensitively.
    """

    __slots__ = ("_decode", "blanks", "name", "symbols")

    def __init__(self, name: str, symbols: str, blanks: str) -> None:
        self.name = name
        self.symbols = symbols
        self.blanks = blanks
        decode: dict[str, int] = {}
        for value, sym in enumerate(symbols, start=1):
            decode[sym] = value
            decode[sym.lower()] = value
        for b in blanks:
            decode[b] = 0
        self._decode = decode

    def __repr__(self) -> str:
        return f"<Alphabet {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # the registered alphabets unpickle as themselves (records cross process pools)
        if ALPHABETS.get(self.name) is self:
            return (_registered, (self.name,))
        return (Alphabet, (self.name, self.symbols, self.blanks))

    def value_of(self, char: str, size: int) -> int | None:
        """The value of one character for an n x n grid, or None when it is no symbol."""
        v = self._decode.get(char)
        if v is None or v > size:
            return None
        return v

    def raw_value(self, char: str) -> int | None:
        """The value a character would have in the largest grid (to tell 'too big')."""
        return self._decode.get(char)

    def symbol(self, value: int, blank: str = ".") -> str:
        return blank if value == 0 else self.symbols[value - 1]


DEFAULT_ALPHABET = Alphabet("1-9A-Z", "123456789ABCDEFGHIJKLMNOP", BLANKS)
ZERO_BASED_ALPHABET = Alphabet("0-9A-Z", "0123456789ABCDEFGHIJKLMNO", "._-*")
#: Letters only, value 1 written ``A``: A-P for 16x16, A-Y for 25x25 (``0`` is a blank).
LETTER_ALPHABET = Alphabet("A-Y", "ABCDEFGHIJKLMNOPQRSTUVWXY", BLANKS)

#: Alphabets by the names the command line accepts (``--alphabet``).
ALPHABETS = {
    "1-9A-Z": DEFAULT_ALPHABET,
    "default": DEFAULT_ALPHABET,
    "0-9A-Z": ZERO_BASED_ALPHABET,
    "0-F": ZERO_BASED_ALPHABET,
    "zero": ZERO_BASED_ALPHABET,
    "A-P": LETTER_ALPHABET,
    "A-Y": LETTER_ALPHABET,
    "letters": LETTER_ALPHABET,
}


def _registered(name: str) -> Alphabet:
    return ALPHABETS[name]


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

    def __reduce__(self) -> tuple[object, ...]:
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
        from .formats import parse_grid  # formats imports this module

        return parse_grid(text, shape=shape, alphabet=alphabet)

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
        syms = alphabet.symbols
        return "".join(blank if v == 0 else syms[v - 1] for v in self.values)

    def to_block(
        self, *, blank: str = ".", separators: bool = True, alphabet: Alphabet = DEFAULT_ALPHABET
    ) -> str:
        """A pretty n-line block, with ``|`` and ``-+-`` between boxes when ``separators``."""
        from .formats import format_block

        return format_block(self, blank=blank, separators=separators, alphabet=alphabet)

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
