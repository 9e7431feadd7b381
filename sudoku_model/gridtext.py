"""The text of a grid's cells: the symbol alphabets, and reading and writing the cells of
one grid as a line or a block, on a :class:`~sudoku_model.geometry.Shape` and a tuple of
values (0 = empty).

This is the lowest layer of the text formats: it imports only ``geometry`` and ``errors``,
so that :mod:`sudoku_model.grid` can read and write itself without importing
:mod:`sudoku_model.formats` (which builds grids, puzzles and records on top of it).

>>> shape, values, comment = decode_line("1234341221434321  # a 4x4")
>>> shape, values[:4], comment
(Shape(2, 2), (1, 2, 3, 4), 'a 4x4')
>>> format_line(values[:4], blank=".")
'1234'
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .errors import ParseError, ShapeError
from .geometry import Shape, shape_for_cell_count, shape_for_size

__all__ = [
    "ALPHABETS",
    "BLANKS",
    "BLOCK_DECORATION",
    "CELL_COUNTS",
    "COMMENT_SEPARATORS",
    "DEFAULT_ALPHABET",
    "LETTER_ALPHABET",
    "ZERO_BASED_ALPHABET",
    "Alphabet",
    "decode_block",
    "decode_grid",
    "decode_line",
    "format_block",
    "format_line",
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


#: Cell counts whose shape is inferred (n*n for n = 4..25 with a box shape).
CELL_COUNTS = tuple(n * n for n in range(4, 26) if n not in (5, 7, 11, 13, 17, 19, 23))
#: Characters that end the cells of a line and start its comment.
COMMENT_SEPARATORS = " \t#;:,"
#: Characters allowed in block separator lines and between block cells.
BLOCK_DECORATION = "|+-=  \t"


# -- one grid from a line ------------------------------------------------------------------
def decode_cells(
    cells: str, shape: Shape, alphabet: Alphabet, *, source: str, line: int, column: int, text: str
) -> tuple[int, ...]:
    """Values of a run of cell symbols (column = 1-based column of the first one)."""
    n = shape.size
    # Fast path: one bytes.translate over the run; fall back to the per-character loop
    # below only to locate and name the first bad character.
    fast = _byte_table(alphabet).get(n)
    if fast is not None:
        try:
            translated = cells.encode("ascii").translate(fast)
        except UnicodeEncodeError:
            translated = b"\xff"
        if b"\xff" not in translated:
            return tuple(translated)
    decode = alphabet._decode
    values: list[int] = []
    append = values.append
    for i, ch in enumerate(cells):
        v = decode.get(ch)
        if v is None or v > n:
            raw = alphabet.raw_value(ch)
            if raw is not None and raw > n:
                msg = f"value {raw} ({ch!r}) is above {n} for a {n}x{n} grid"
            else:
                msg = bad_symbol(ch)
            raise ParseError(msg, source=source, line=line, column=column + i, text=text)
        append(v)
    return tuple(values)


@lru_cache(maxsize=16)
def _byte_table(alphabet: Alphabet) -> dict[int, bytes]:
    """Per size n, a bytes.translate table: symbol byte -> value, anything else -> 0xFF."""
    tables = {}
    for n in range(4, 26):
        table = bytearray(b"\xff" * 256)
        for ch, v in alphabet._decode.items():
            if len(ch) == 1 and ord(ch) < 128 and v <= n:
                table[ord(ch)] = v
        tables[n] = bytes(table)
    return tables


_SEPARATOR = re.compile(r"[ \t#;:,]")


def bad_symbol(ch: str) -> str:
    """Words for a character that is no symbol (binary data and invisible characters named)."""
    if ch == "\ufffd":
        return "bad symbol: bytes that are not UTF-8 text (binary data?)"
    if ch < " " or ch == "\x7f":
        return f"bad symbol: control character {ch!r} (binary data?)"
    if not ch.isascii() or not ch.isprintable():
        return f"bad symbol {ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})"
    return f"bad symbol {ch!r}"


_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")


def _check_symbols(
    cells: str, alphabet: Alphabet, *, source: str, line: int, column: int, text: str
) -> None:
    """Raise the bad-symbol error of a run of cells that holds a character other than
    printable ASCII (binary data, a zero-width space): named before a wrong cell count,
    which it usually causes."""
    m = _NOT_PRINTABLE_ASCII.search(cells)
    if m is not None:
        raise ParseError(
            bad_symbol(m.group()), source=source, line=line, column=column + m.start(), text=text
        )


def cell_run(text: str, alphabet: Alphabet) -> int:
    """Length of the leading run of characters that are not comment separators."""
    m = _SEPARATOR.search(text)
    return len(text) if m is None else m.start()


def shape_for_count(
    count: int, shape: Shape | None, *, source: str, line: int, column: int, text: str
) -> Shape:
    if shape is not None:
        if count != shape.cell_count:
            what = "too few" if count < shape.cell_count else "too many"
            col = column + min(count, shape.cell_count)
            raise ParseError(
                f"{count} cells, {what}: a {shape.size}x{shape.size} grid has {shape.cell_count}",
                source=source,
                line=line,
                column=col,
                text=text,
            )
        return shape
    if count == 0:
        raise ParseError(
            "no cells before the comment", source=source, line=line, column=column, text=text
        )
    try:
        return shape_for_cell_count(count)
    except ShapeError:
        k = math.isqrt(count)
        sizes = ", ".join(str(math.isqrt(c)) for c in CELL_COUNTS)
        near = min(CELL_COUNTS, key=lambda c: abs(c - count))
        if k * k == count and k > 25:
            what = f"a {k}x{k} grid ({count} cells) is larger than the largest supported, 25x25"
        elif k * k == count and k >= 4:
            what = f"a {k}x{k} grid ({count} cells) has no box shape ({k} is prime)"
        elif count > CELL_COUNTS[-1]:
            what = f"{count:,} cells: more than the {CELL_COUNTS[-1]} of a 25x25 grid"
        else:
            what = f"{count} cells is not a grid"
            word = text[column - 1 : column - 1 + count]
            if word.isalpha() and word.isascii() and count < 16:
                # letters are cells of large grids, so a title line reads as a few cells
                what = f"{word!r} reads as {count} cells, not a grid (a title or a word?)"
            elif abs(near - count) <= 3:
                what += f" (a {math.isqrt(near)}x{math.isqrt(near)} grid has {near})"
        raise ParseError(
            f"{what}; supported sizes n (n*n cells on a line): {sizes}",
            source=source,
            line=line,
            column=column + min(count, near),
            text=text,
        ) from None


def decode_line(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
    line: int = 1,
) -> tuple[Shape, tuple[int, ...], str]:
    """Read one line of cells; returns the shape (``shape``, or the one inferred from the
    cell count), the values row-major and the comment that followed the cells.

    Raises:
        ParseError: bad symbol, value above n, wrong cell count, nothing to read.
    """
    body = text.rstrip("\r\n")
    stripped = body.lstrip()
    indent = len(body) - len(stripped)
    run = cell_run(stripped, alphabet)
    cells = stripped[:run]
    rest = stripped[run:]
    comment = rest.strip(COMMENT_SEPARATORS + "\r") if rest else ""
    try:
        shp = shape_for_count(
            len(cells), shape, source=source, line=line, column=indent + 1, text=body
        )
    except ParseError:
        # an invisible or binary character is named, not counted as a cell
        _check_symbols(cells, alphabet, source=source, line=line, column=indent + 1, text=body)
        raise
    values = decode_cells(
        cells, shp, alphabet, source=source, line=line, column=indent + 1, text=body
    )
    return shp, values, comment


def is_decoration_line(text: str) -> bool:
    """A separator line of a drawn grid (``+---+---+``, ``------``, ``=====``): only
    decoration characters, at least one of ``- = +``."""
    # the three substring tests answer nearly every puzzle line at C speed
    if "-" not in text and "=" not in text and "+" not in text:
        return False
    s = text.strip()
    return bool(s) and all(ch in BLOCK_DECORATION for ch in s)


def block_row(text: str) -> tuple[str, list[int]]:
    """Cells of one block row and the 1-based column of each."""
    cells = []
    cols = []
    for i, ch in enumerate(text.rstrip("\r\n")):
        if ch in " \t|+":
            continue
        cells.append(ch)
        cols.append(i + 1)
    return "".join(cells), cols


def decode_block(
    lines: Sequence[str],
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
    first_line: int = 1,
) -> tuple[Shape, tuple[int, ...]]:
    """Read n lines of n cells (separator lines and ``| +`` between cells are ignored);
    returns the shape and the values row-major.

    ``lines`` is the block as read, separator lines included; ``first_line`` the file line
    number of ``lines[0]``.

    Raises:
        ParseError: ragged row, wrong number of rows, bad symbol, value above n.
    """
    rows: list[tuple[int, str, list[int], str]] = []
    for k, raw in enumerate(lines):
        if is_decoration_line(raw) or not raw.strip():
            continue
        cells, cols = block_row(raw)
        rows.append((first_line + k, cells, cols, raw.rstrip("\r\n")))
    if not rows:
        raise ParseError("empty block", source=source, line=first_line, column=1)
    n = shape.size if shape is not None else len(rows[0][1])
    if shape is None and len(rows) == 1 and n != 1:
        # a lone line that is no grid (a title, words): say that, rather than ask for the
        # other rows of an n x n block it never meant to start
        lineno, cells, _, raw = rows[0]
        raise ParseError(
            f"a line of {n} cells with no block rows after it is not a grid; a grid is "
            "n*n cells on one line or n rows of n cells",
            source=source,
            line=lineno,
            column=1,
            text=raw,
        )
    for lineno, cells, cols, raw in rows:
        if len(cells) != n:
            col = cols[n] if len(cells) > n else (cols[-1] + 1 if cols else 1)
            raise ParseError(
                f"ragged block: row has {len(cells)} cells, expected {n}",
                source=source,
                line=lineno,
                column=col,
                text=raw,
            )
    if len(rows) != n:
        last = rows[-1][0]
        what = "too few" if len(rows) < n else "too many"
        bad = rows[n][0] if len(rows) > n else last + 1
        raise ParseError(
            f"block has {len(rows)} row{'s' if len(rows) != 1 else ''}, "
            f"{what}: a {n}x{n} block has {n}",
            source=source,
            line=bad,
            column=1,
            text=rows[min(n, len(rows) - 1)][3],
        )
    if shape is None:
        try:
            shape = shape_for_size(n)
        except ShapeError as exc:
            raise ParseError(
                f"a block of {n}x{n} cells: {exc}",
                source=source,
                line=rows[0][0],
                column=1,
                text=rows[0][3],
            ) from None
    values: list[int] = []
    for lineno, cells, cols, raw in rows:
        for ch, col in zip(cells, cols):
            values.extend(
                decode_cells(ch, shape, alphabet, source=source, line=lineno, column=col, text=raw)
            )
    return shape, tuple(values)


def decode_grid(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
) -> tuple[Shape, tuple[int, ...]]:
    """Read one grid from a line of cells or from a block; a single line may carry a
    comment, which is dropped. Returns the shape and the values row-major.

    Raises:
        ParseError: as :func:`decode_line` and :func:`decode_block`; also for empty text.
    """
    lines = [ln for ln in text.replace("\r\n", "\n").split("\n")]
    content = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        raise ParseError("empty input: no puzzle found", source=source, line=1, column=1)
    if len(content) == 1:
        i = content[0]
        shp, values, _ = decode_line(
            lines[i], shape=shape, alphabet=alphabet, source=source, line=i + 1
        )
        return shp, values
    first, last = content[0], content[-1]
    return decode_block(
        lines[first : last + 1], shape=shape, alphabet=alphabet, source=source, first_line=first + 1
    )


# -- writing -------------------------------------------------------------------------------
def format_line(
    values: Sequence[int], *, blank: str = ".", alphabet: Alphabet = DEFAULT_ALPHABET
) -> str:
    """The symbols of the values on one line, ``blank`` for empty cells (0)."""
    syms = alphabet.symbols
    return "".join(blank if v == 0 else syms[v - 1] for v in values)


def format_block(
    shape: Shape,
    values: Sequence[int],
    *,
    blank: str = ".",
    separators: bool = True,
    alphabet: Alphabet = DEFAULT_ALPHABET,
) -> str:
    """n lines of n cells; with ``separators``, ``|`` between boxes and a ``-+-`` line
    between bands."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    syms = alphabet.symbols
    out = []
    for r in range(n):
        row = values[r * n : (r + 1) * n]
        chars = [blank if v == 0 else syms[v - 1] for v in row]
        if separators:
            groups = [" ".join(chars[c : c + bc]) for c in range(0, n, bc)]
            out.append(" | ".join(groups))
            if (r + 1) % br == 0 and r + 1 < n:
                out.append("-+-".join("-" * (2 * bc - 1) for _ in range(n // bc)))
        else:
            out.append("".join(chars))
    return "\n".join(out)
