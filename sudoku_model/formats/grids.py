"""One grid from text: a line, a block, either, or a grid of arbitrary marks. The cell
codec is :mod:`sudoku_model.gridtext`'s; these wrap its values in a Grid."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ParseError, ShapeError
from ..geometry import Shape, shape_for_size
from ..grid import Grid
from ..gridtext import DEFAULT_ALPHABET, Alphabet, decode_block, decode_grid, decode_line
from ..gridtext import block_row as _block_row
from ..gridtext import is_decoration_line as _is_decoration_line
from ..gridtext import shape_for_count as _shape_for_count


def parse_line(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
    line: int = 1,
) -> tuple[Grid, str]:
    """Read one line of cells; returns the grid and the comment that followed the cells.

    Raises:
        ParseError: bad symbol, value above n, wrong cell count, nothing to read.
    """
    shp, values, comment = decode_line(
        text, shape=shape, alphabet=alphabet, source=source, line=line
    )
    return Grid._trusted(shp, values), comment


def parse_block(
    lines: Sequence[str],
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
    first_line: int = 1,
) -> Grid:
    """Read n lines of n cells (separator lines and ``| +`` between cells are ignored).

    ``lines`` is the block as read, separator lines included; ``first_line`` the file line
    number of ``lines[0]``.

    Raises:
        ParseError: ragged row, wrong number of rows, bad symbol, value above n.
    """
    shp, values = decode_block(
        lines, shape=shape, alphabet=alphabet, source=source, first_line=first_line
    )
    return Grid._trusted(shp, values)


def parse_grid(
    text: str,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    source: str = "<string>",
) -> Grid:
    """Read one grid from a line of cells or from a block; a single line may carry a
    comment, which is dropped.

    Raises:
        ParseError: as :func:`parse_line` and :func:`parse_block`; also for empty text.
    """
    shp, values = decode_grid(text, shape=shape, alphabet=alphabet, source=source)
    return Grid._trusted(shp, values)


def read_char_grid(
    text: str, *, source: str = "<string>", shape: Shape | None = None
) -> tuple[Shape, list[str]]:
    """Read a grid of arbitrary one-character marks (a clue pattern, jigsaw region labels):
    one line of n*n characters or n lines of n, spaces and ``|`` ignored, ``#`` lines and
    separator lines (only ``- + =``) skipped. Returns the shape and the characters
    row-major.

    >>> shape, marks = read_char_grid("x..x\\n....\\n....\\nx..x")
    >>> shape, "".join(marks)
    (Shape(2, 2), 'x..x........x..x')

    Raises:
        ParseError: naming line and column of a ragged row, a wrong count or no content.
    """
    rows: list[tuple[int, list[str], list[int], str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or _is_decoration_line(raw):
            continue
        chars, cols = _block_row(raw)
        rows.append((lineno, list(chars), cols, raw))
    if not rows:
        raise ParseError("empty input: no grid found", source=source, line=1, column=1)
    if len(rows) == 1:
        lineno, cells, cols, raw = rows[0]
        found = _shape_for_count(len(cells), shape, source=source, line=lineno, column=1, text=raw)
        return found, cells
    n = shape.size if shape is not None else len(rows[0][1])
    for lineno, cells, cols, raw in rows:
        if len(cells) != n:
            col = cols[n] if len(cells) > n else (cols[-1] + 1 if cols else 1)
            raise ParseError(
                f"ragged grid: row has {len(cells)} characters, expected {n}",
                source=source,
                line=lineno,
                column=col,
                text=raw,
            )
    if len(rows) != n:
        lineno, _, cols, raw = rows[-1]
        raise ParseError(
            f"{len(rows)} rows of {n} characters: a {n}x{n} grid needs {n} rows",
            source=source,
            line=lineno,
            column=1,
            text=raw,
        )
    try:
        found = shape if shape is not None else shape_for_size(n)
    except ShapeError as exc:
        lineno, _, _, raw = rows[0]
        raise ParseError(
            f"{n} rows of {n} characters: {exc}", source=source, line=lineno, column=1, text=raw
        ) from None
    return found, [c for _, cells, _, _ in rows for c in cells]
