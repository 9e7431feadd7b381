"""The line and block readers: one puzzle per line (its comment kept, a published solution
read from it), or n rows of n cells per block."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..errors import ParseError, ShapeError
from ..geometry import Shape
from ..grid import Grid
from ..gridtext import Alphabet, decode_line
from ..gridtext import block_row as _block_row
from ..gridtext import is_decoration_line as _is_decoration_line
from ..puzzle import Puzzle
from .grids import parse_block
from .record import Record, _rules


def _content_lines(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str, str]]:
    """(line number, line without its end, stripped line) of every line that is neither
    blank nor a ``#`` comment."""
    for lineno, raw in lines:
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            yield lineno, raw.rstrip("\r\n"), stripped


def _line_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    for lineno, text, _ in _content_lines(lines):
        try:
            # decode_line, not parse_line: the hot path keeps its call depth
            shp, values, comment = decode_line(
                text, shape=shape, alphabet=alphabet, source=name, line=lineno
            )
            puzzle = Puzzle(Grid._trusted(shp, values), _rules(shp, variants, None))
        except ParseError as exc:
            if _is_decoration_line(text):
                continue  # a separator line (+---+---+) holds no puzzle
            yield Record(name, lineno, text, None, exc)
            continue
        except (ValueError, ShapeError) as exc:
            yield Record(
                name,
                lineno,
                text,
                None,
                ParseError(str(exc), source=name, line=lineno, column=1, text=text),
            )
            continue
        solution = _published_in_comment(comment, shp, alphabet) if comment else None
        yield Record(name, lineno, text, puzzle, None, comment, solution)


def _published_in_comment(comment: str, shape: Shape, alphabet: Alphabet) -> Grid | None:
    """The solution a line carries: the comment is ``COUNT:GRID`` (``puzzle:count:solution``,
    as tdoku's test lists have it) or the grid alone (``quiz,answer``), a full grid of the
    puzzle's shape; else None (the comment stays a comment)."""
    count, sep, rest = comment.partition(":")
    if not sep:
        # a bare full grid: headerless `quiz,answer` CSV under any name, `puzzle solution`
        count, rest = "0", comment
    if not count.strip().isdigit():
        return None
    cells = rest.strip()
    if len(cells) != shape.cell_count:
        return None
    try:
        grid = Grid.parse(cells, shape=shape, alphabet=alphabet)
    except (ParseError, ValueError):
        return None
    return grid if 0 not in grid.values else None


def _block_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    """Blocks end at a blank line or after n rows (n = the cells of the first row, or the
    shape's size); a first row that cannot start a block (fewer than 4 cells, more than 25)
    is a record of its own (a whole puzzle on one line is read as one), so one odd line
    never swallows the lines after it. Linear in the input."""
    block: list[str] = []
    start = 0
    rows = 0
    n = 0

    def flush() -> Record:
        text = "\n".join(b.rstrip("\r\n") for b in block)
        try:
            grid = parse_block(block, shape=shape, alphabet=alphabet, source=name, first_line=start)
            return Record(name, start, text, Puzzle(grid, _rules(grid.shape, variants, None)))
        except ParseError as exc:
            return Record(name, start, text, None, exc)
        except (ValueError, ShapeError) as exc:
            return Record(
                name,
                start,
                text,
                None,
                ParseError(str(exc), source=name, line=start, column=1, text=text),
            )

    for lineno, raw in lines:
        s = raw.strip()
        if s.startswith("#"):
            continue
        if not s:
            if rows == 1 and shape is None and _is_title(block[-1]):
                pass  # a title alone before a blank line: no record
            elif rows:
                yield flush()
            block, rows = [], 0
            continue
        if _is_decoration_line(s):
            if not block:
                start = lineno
            block.append(raw)
            continue
        if rows == 0:
            cells = len(_block_row(raw)[0])
            whole = shape.cell_count if shape is not None else 26
            if cells >= whole or cells > 25:
                # a puzzle on one line (or no puzzle at all), never the start of a block
                yield from _line_records([(lineno, raw)], name, shape, alphabet, variants)
                block = []
                continue
            if not block:
                start = lineno
            n = shape.size if shape is not None else cells
            if n < 4:
                block.append(raw)
                rows = 1
                yield flush()
                block, rows = [], 0
                continue
        elif rows == 1 and shape is None:
            cells = len(_block_row(raw)[0])
            if cells != n:
                # a lone first row: a title (``Grid 01`` of Project Euler's file) is no
                # record; anything else is a malformed record of its own; this row starts
                # the block
                first = next(b for b in block if not _is_decoration_line(b))
                first_no = start + block.index(first)
                if not _is_title(first):
                    msg = f"a lone row of {n} cells (the next row has {cells}): not a block"
                    err = ParseError(msg, source=name, line=first_no, column=1, text=first)
                    yield Record(name, first_no, first.rstrip("\r\n"), None, err)
                if cells > 25 or cells < 4:
                    yield from _line_records([(lineno, raw)], name, shape, alphabet, variants)
                    block, rows = [], 0
                    continue
                block, rows, start, n = [], 0, lineno, cells
        block.append(raw)
        rows += 1
        if rows == n:
            yield flush()
            block, rows = [], 0
    if rows:
        yield flush()


_TITLE = re.compile(r"[a-z]{2}")


def _is_title(row: str) -> bool:
    """Whether a line that cannot be a block row reads as a title: it holds two lower-case
    letters in a row, as ``Grid 01`` or ``Puzzle 7`` do (cells are digits, upper-case
    letters and blanks)."""
    return _TITLE.search(row) is not None
