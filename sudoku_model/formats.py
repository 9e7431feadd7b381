"""Reading and writing puzzles: line, block, CSV, JSON, JSONL and the variant JSON file.

Formats
-------
* **line**: one puzzle per line, n*n cells; blanks ``. 0 _ - *``; symbols 1-9 then A-Z for
  n > 9 (16x16 as 1-9A-G), or the 0-F convention with ``alphabet=ZERO_BASED_ALPHABET``.
  Text after the cells, separated by white space or one of ``# ; : ,``, is kept as the
  record's comment (collections carry counts, ratings and solutions there). ``#`` lines and
  blank lines are skipped; CRLF is accepted.
* **block**: n lines of n cells, with or without ``|``, ``+``, ``-`` separators and spaces;
  several blocks in one file are separated by blank lines.
* **csv**: a header naming the puzzle column (``puzzle``, ``quizzes``, ``quiz``, ``givens``)
  and optionally the solution column (``solution``, ``solutions``).
* **json**: a list of puzzles, ``{"puzzles": [...]}``, or one puzzle object;
  **jsonl**: one puzzle per line. A puzzle is a string of cells or an object (below).
* **variant JSON** (one object per puzzle)::

      {"box": [3, 3],                      # or "size": 9 (optional when inferable)
       "variants": ["diagonal"],           # diagonal, windoku, anti-knight, anti-king
       "regions": "111222333...",          # jigsaw: one label per cell (string or list)
       "puzzle": "4.....8.5.3...",         # givens: a line, or a list of row strings
       "solution": "..."}                  # optional

Reading streams: :func:`iter_records` yields one :class:`Record` per puzzle in constant
memory, with either a :class:`~sudoku_model.Puzzle` or the :class:`ParseError` that says
where the text went wrong. ``.gz`` files are read transparently.

>>> line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> rec = next(iter_records([line + "  # top95 #1"]))
>>> rec.puzzle.clues, rec.comment
(17, 'top95 #1')
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import IO, Any, NamedTuple, TextIO

from .errors import ParseError, ShapeError
from .geometry import Shape, shape_for_cell_count, shape_for_size
from .grid import DEFAULT_ALPHABET, Alphabet, Grid
from .puzzle import Puzzle
from .rules import RuleSet

__all__ = [
    "CELL_COUNTS",
    "FORMATS",
    "WRITABLE_FORMATS",
    "Record",
    "format_block",
    "format_line",
    "iter_records",
    "open_text",
    "parse_block",
    "read_char_grid",
    "parse_grid",
    "parse_line",
    "puzzle_from_json",
    "puzzle_to_json",
    "read_puzzle",
    "read_puzzles",
    "write_records",
]

#: Cell counts whose shape is inferred (n*n for n = 4..25 with a box shape).
CELL_COUNTS = tuple(n * n for n in range(4, 26) if n not in (5, 7, 11, 13, 17, 19, 23))
FORMATS = ("auto", "line", "block", "csv", "json", "jsonl")
WRITABLE_FORMATS = ("line", "block", "csv", "json", "jsonl")

#: Characters that end the cells of a line and start its comment.
COMMENT_SEPARATORS = " \t#;:,"
#: Characters allowed in block separator lines and between block cells.
BLOCK_DECORATION = "|+-=  \t"

_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "givens", "grid")
_SOLUTION_COLUMNS = ("solution", "solutions", "answer")


class Record(NamedTuple):
    """One puzzle read from a source, or the error that stopped it.

    ``line`` is the 1-based line where the puzzle starts; ``text`` the raw text read;
    ``comment`` what followed the cells on a line; ``solution`` a solution carried by the
    input (CSV/JSON solution field), if any; ``position`` the 0-based position of the record
    in its source (unique and stable even where several records share a line, as in a JSON
    array). (A named tuple: cheap to make by the million.)
    """

    source: str
    line: int
    text: str
    puzzle: Puzzle | None
    error: ParseError | None = None
    comment: str = ""
    solution: Grid | None = None
    position: int = -1

    @property
    def ok(self) -> bool:
        return self.error is None


# -- rules cache ---------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _rules(shape: Shape, variants: tuple[str, ...], regions: tuple[int, ...] | None) -> RuleSet:
    return RuleSet.build(shape, variants, regions)


# -- one grid from a line ------------------------------------------------------------------
def _decode_cells(
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
                msg = f"bad symbol {ch!r}"
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


def _cell_run(text: str, alphabet: Alphabet) -> int:
    """Length of the leading run of characters that are not comment separators."""
    m = _SEPARATOR.search(text)
    return len(text) if m is None else m.start()


def _shape_for_count(
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
        sizes = ", ".join(str(c) for c in CELL_COUNTS[:6])
        near = min(CELL_COUNTS, key=lambda c: abs(c - count))
        hint = (
            f"; a {int(near**0.5)}x{int(near**0.5)} grid has {near}"
            if abs(near - count) <= 3
            else ""
        )
        raise ParseError(
            f"{count} cells is not a grid (expected one of {sizes}, ...){hint}",
            source=source,
            line=line,
            column=column + min(count, near),
            text=text,
        ) from None


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
    body = text.rstrip("\r\n")
    stripped = body.lstrip()
    indent = len(body) - len(stripped)
    run = _cell_run(stripped, alphabet)
    cells = stripped[:run]
    rest = stripped[run:]
    comment = rest.strip(COMMENT_SEPARATORS + "\r") if rest else ""
    shp = _shape_for_count(
        len(cells), shape, source=source, line=line, column=indent + 1, text=body
    )
    values = _decode_cells(
        cells, shp, alphabet, source=source, line=line, column=indent + 1, text=body
    )
    return Grid._trusted(shp, values), comment


def _is_decoration_line(text: str) -> bool:
    s = text.strip()
    return bool(s) and all(ch in BLOCK_DECORATION for ch in s) and any(ch in "-=+" for ch in s)


def _block_row(text: str) -> tuple[str, list[int]]:
    """Cells of one block row and the 1-based column of each."""
    cells = []
    cols = []
    for i, ch in enumerate(text.rstrip("\r\n")):
        if ch in " \t|+":
            continue
        cells.append(ch)
        cols.append(i + 1)
    return "".join(cells), cols


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
    rows: list[tuple[int, str, list[int], str]] = []
    for k, raw in enumerate(lines):
        if _is_decoration_line(raw) or not raw.strip():
            continue
        cells, cols = _block_row(raw)
        rows.append((first_line + k, cells, cols, raw.rstrip("\r\n")))
    if not rows:
        raise ParseError("empty block", source=source, line=first_line, column=1)
    n = shape.size if shape is not None else len(rows[0][1])
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
                _decode_cells(ch, shape, alphabet, source=source, line=lineno, column=col, text=raw)
            )
    return Grid._trusted(shape, tuple(values))


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
    lines = [ln for ln in text.replace("\r\n", "\n").split("\n")]
    content = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        raise ParseError("empty input: no puzzle found", source=source, line=1, column=1)
    if len(content) == 1:
        i = content[0]
        return parse_line(lines[i], shape=shape, alphabet=alphabet, source=source, line=i + 1)[0]
    first, last = content[0], content[-1]
    return parse_block(
        lines[first : last + 1], shape=shape, alphabet=alphabet, source=source, first_line=first + 1
    )


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


# -- streams -------------------------------------------------------------------------------
def open_text(path: str | os.PathLike[str]) -> TextIO:
    """Open a text file for reading, gzip-compressed when it ends in ``.gz``; undecodable
    bytes become U+FFFD (reported later as a bad symbol, never a crash)."""
    p = os.fspath(path)
    if p.endswith(".gz"):
        return gzip.open(p, "rt", encoding="utf-8", errors="replace", newline=None)
    return open(p, encoding="utf-8", errors="replace", newline=None)


def _detect(first: str, name: str, alphabet: Alphabet, shape: Shape | None) -> str:
    lower = name.lower().removesuffix(".gz")
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    s = first.strip()
    if s.startswith(("{", "[")):
        return "jsonl" if s.startswith("{") and s.endswith("}") else "json"
    head = s.split(",")[0].strip().strip('"').lower()
    if head in _PUZZLE_COLUMNS:
        return "csv"
    if _is_decoration_line(s):
        return "block"
    run = s[: _cell_run(s, alphabet)]
    cells, _ = _block_row(s)
    if shape is not None:
        if len(run) == shape.cell_count:
            return "line"
        if len(cells) == shape.size:
            return "block"
        return "line"
    if any(ch in s for ch in "|+") or (" " in s.strip() and len(cells) <= 25 and len(run) < 16):
        return "block"
    if len(run) in CELL_COUNTS:
        if len(run) == 16:
            # 16 cells: a 4x4 puzzle on a line, or a row of a 16x16 block (values above 4).
            values = [alphabet.raw_value(ch) or 0 for ch in run]
            return "block" if max(values) > 4 else "line"
        return "line"
    if 4 <= len(run) <= 25 and len(run) == len(cells):
        return "block"
    return "line"


def iter_records(
    src: str | os.PathLike[str] | IO[str] | Iterable[str],
    *,
    source: str | None = None,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    variants: Sequence[str] = (),
    fmt: str = "auto",
) -> Iterator[Record]:
    """Stream the puzzles of a file, a text stream or an iterable of lines.

    Each malformed puzzle is one record with ``error`` set; reading goes on. Memory stays
    constant for line, block, CSV and JSONL input (JSON documents are read whole).

    Args:
        src: a path (``.gz`` read transparently), an open text stream, or lines.
        source: the name used in records and errors (default: the path).
        shape: the box shape; inferred from the cell count when None.
        alphabet: symbols for values.
        variants: extra rules attached to every puzzle read (JSON puzzles may name their own).
        fmt: one of :data:`FORMATS`; ``auto`` decides from the name and first content line.

    Raises:
        ParseError: when the input holds no puzzle at all (empty file), and for an unknown
            format name.
        OSError: when the file cannot be opened.
    """
    if fmt not in FORMATS:
        raise ParseError(
            f"unknown format {fmt!r}; known: {', '.join(FORMATS)}", source=source or "<options>"
        )
    close = None
    name = source
    if isinstance(src, (str, os.PathLike)):
        name = name or os.fspath(src)
        stream: Iterable[str] = open_text(src)
        close = stream
    else:
        name = name or getattr(src, "name", "<stream>")
        stream = src
    assert name is not None
    try:
        for position, record in enumerate(
            _iter_stream(stream, name, shape, alphabet, tuple(variants), fmt)
        ):
            yield record._replace(position=position)
    finally:
        if close is not None:
            close.close()  # type: ignore[attr-defined]


def _iter_stream(
    stream: Iterable[str],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
    fmt: str,
) -> Iterator[Record]:
    it = iter(stream)
    buffered: list[tuple[int, str]] = []
    lineno = 0
    # Find the first content line to choose the format.
    for raw in it:
        lineno += 1
        buffered.append((lineno, raw))
        s = raw.strip()
        if s and not s.startswith("#"):
            break
    if not any(r.strip() and not r.strip().startswith("#") for _, r in buffered):
        raise ParseError("empty input: no puzzle found", source=name, line=max(lineno, 1), column=1)
    first = buffered[-1][1]
    if fmt == "auto":
        fmt = _detect(first, name, alphabet, shape)

    def lines() -> Iterator[tuple[int, str]]:
        yield from buffered
        n = lineno
        for raw in it:
            n += 1
            yield n, raw

    if fmt == "line":
        yield from _line_records(lines(), name, shape, alphabet, variants)
    elif fmt == "block":
        yield from _block_records(lines(), name, shape, alphabet, variants)
    elif fmt == "csv":
        yield from _csv_records(lines(), name, shape, alphabet, variants)
    elif fmt == "jsonl":
        yield from _jsonl_records(lines(), name, shape, alphabet, variants)
    else:
        yield from _json_records(lines(), name, shape, alphabet, variants)


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
            grid, comment = parse_line(
                text, shape=shape, alphabet=alphabet, source=name, line=lineno
            )
            puzzle = Puzzle(grid, _rules(grid.shape, variants, None))
        except ParseError as exc:
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
        yield Record(name, lineno, text, puzzle, None, comment)


def _block_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    block: list[str] = []
    start = 0

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
            if block:
                yield flush()
                block = []
            continue
        if not block:
            start = lineno
            # a block ends after n rows even without a blank line between blocks
        block.append(raw)
        rows = [b for b in block if not _is_decoration_line(b)]
        n = shape.size if shape is not None else len(_block_row(rows[0])[0])
        if len(rows) == n and n >= 4:
            # keep a trailing separator line out of the next block
            yield flush()
            block = []
    if block:
        yield flush()


def _csv_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    header: list[str] | None = None
    puzzle_col = solution_col = -1
    for lineno, text, _ in _content_lines(lines):
        fields = next(csv.reader([text]))
        if header is None:
            header = [f.strip().lower() for f in fields]
            for i, h in enumerate(header):
                if h in _PUZZLE_COLUMNS and puzzle_col < 0:
                    puzzle_col = i
                elif h in _SOLUTION_COLUMNS and solution_col < 0:
                    solution_col = i
            if puzzle_col < 0:
                raise ParseError(
                    f"CSV header has no puzzle column (one of {', '.join(_PUZZLE_COLUMNS)})",
                    source=name,
                    line=lineno,
                    column=1,
                    text=text,
                )
            continue
        if puzzle_col >= len(fields):
            yield Record(
                name,
                lineno,
                text,
                None,
                ParseError(
                    f"row has {len(fields)} fields; the puzzle is field {puzzle_col + 1}",
                    source=name,
                    line=lineno,
                    column=len(text) + 1,
                    text=text,
                ),
            )
            continue
        offset = _field_offset(text, fields, puzzle_col)
        try:
            grid, _ = parse_line(
                fields[puzzle_col], shape=shape, alphabet=alphabet, source=name, line=lineno
            )
            solution = None
            if 0 <= solution_col < len(fields) and fields[solution_col].strip():
                sol_off = _field_offset(text, fields, solution_col)
                try:
                    solution, _ = parse_line(
                        fields[solution_col],
                        shape=grid.shape,
                        alphabet=alphabet,
                        source=name,
                        line=lineno,
                    )
                except ParseError as exc:
                    raise exc.located(column_offset=sol_off) from None
            yield Record(
                name,
                lineno,
                text,
                Puzzle(grid, _rules(grid.shape, variants, None)),
                None,
                "",
                solution,
            )
        except ParseError as exc:
            if exc.text == fields[puzzle_col].rstrip("\r\n"):
                exc = exc.located(column_offset=offset)
            yield Record(
                name,
                lineno,
                text,
                None,
                ParseError(exc.message, source=name, line=lineno, column=exc.column, text=text),
            )
    if header is None:
        raise ParseError("empty CSV: no header", source=name, line=1, column=1)


def _field_offset(text: str, fields: list[str], index: int) -> int:
    """Column offset of field ``index`` in a CSV line (exact for unquoted fields)."""
    pos = 0
    for i, f in enumerate(fields):
        found = text.find(f, pos)
        if found < 0:
            return 0
        if i == index:
            return found
        pos = found + len(f)
    return 0


def _jsonl_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    for lineno, text, s in _content_lines(lines):
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as exc:
            yield Record(
                name,
                lineno,
                text,
                None,
                ParseError(
                    f"invalid JSON: {exc.msg}",
                    source=name,
                    line=lineno,
                    column=exc.colno + (len(text) - len(text.lstrip())),
                    text=text,
                ),
            )
            continue
        yield _json_record(obj, name, lineno, text, shape, alphabet, variants)


def _json_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    collected = list(lines)
    first_line = collected[0][0] if collected else 1
    doc = "".join(raw for _, raw in collected)
    try:
        obj = json.loads(doc)
    except json.JSONDecodeError as exc:
        bad = doc.split("\n")[exc.lineno - 1] if doc else ""
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            source=name,
            line=exc.lineno + first_line - 1,
            column=exc.colno,
            text=bad,
        ) from None
    items = obj.get("puzzles", [obj]) if isinstance(obj, dict) else obj
    if not isinstance(items, list):
        raise ParseError(
            'JSON must hold a puzzle, a list of puzzles or {"puzzles": [...]}',
            source=name,
            line=first_line,
            column=1,
        )
    for k, item in enumerate(items):
        yield _json_record(item, name, first_line, f"[{k}]", shape, alphabet, variants)


def _json_record(
    obj: Any,
    name: str,
    lineno: int,
    text: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Record:
    try:
        puzzle, solution = puzzle_from_json(
            obj, shape=shape, alphabet=alphabet, variants=variants, source=name, line=lineno
        )
    except ParseError as exc:
        return Record(name, lineno, text, None, exc)
    return Record(name, lineno, text, puzzle, None, "", solution)


# -- JSON puzzle objects -------------------------------------------------------------------
def puzzle_from_json(
    obj: Any,
    *,
    shape: Shape | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    variants: Sequence[str] = (),
    source: str = "<json>",
    line: int = 1,
) -> tuple[Puzzle, Grid | None]:
    """Build a puzzle (and its solution, when present) from a JSON value: a string of cells
    or an object with ``puzzle``/``givens``, optional ``box``/``size``, ``variants``,
    ``regions`` and ``solution``.

    Raises:
        ParseError: for a missing or malformed field, naming it.
    """

    def fail(msg: str) -> ParseError:
        return ParseError(
            msg,
            source=source,
            line=line,
            column=1,
            text=json.dumps(obj)[:120] if not isinstance(obj, str) else obj,
        )

    if isinstance(obj, str):
        obj = {"puzzle": obj}
    if not isinstance(obj, dict):
        raise fail("a puzzle must be a string of cells or an object")
    shp = shape
    try:
        if "box" in obj:
            box = obj["box"]
            if not (isinstance(box, list) and len(box) == 2):
                raise fail('"box" must be [rows, columns]')
            shp = Shape(int(box[0]), int(box[1]))
        elif "size" in obj:
            shp = shape_for_size(int(obj["size"]))
    except (ShapeError, ValueError, TypeError) as exc:
        if isinstance(exc, ParseError):
            raise
        raise fail(f"bad shape: {exc}") from None
    givens_raw = obj.get("puzzle", obj.get("givens"))
    if givens_raw is None:
        raise fail('missing "puzzle" field')

    def grid_of(raw: Any, what: str, shp: Shape | None) -> Grid:
        if isinstance(raw, list):
            if raw and all(isinstance(r, list) for r in raw):
                try:
                    return Grid.from_rows(raw, shp)
                except (ValueError, ShapeError) as exc:
                    raise fail(f'"{what}": {exc}') from None
            raw = "\n".join(str(r) for r in raw)
        if not isinstance(raw, str):
            raise fail(f'"{what}" must be a string, a list of row strings or of lists')
        try:
            return parse_grid(raw, shape=shp, alphabet=alphabet, source=source)
        except ParseError as exc:
            raise ParseError(
                f'"{what}": {exc.message} (column {exc.column} of the field)',
                source=source,
                line=line,
                column=1,
                text=exc.text,
            ) from None

    givens = grid_of(givens_raw, "puzzle", shp)
    regions = obj.get("regions")
    labels: tuple[int, ...] | None = None
    if regions is not None:
        if isinstance(regions, list) and regions and all(isinstance(r, str) for r in regions):
            regions = "".join(regions)
        if isinstance(regions, list) and regions and all(isinstance(r, list) for r in regions):
            regions = [x for r in regions for x in r]
        if isinstance(regions, str):
            regions = [ch for ch in regions if not ch.isspace()]
        if not isinstance(regions, list):
            raise fail('"regions" must be a string or a list of labels')
        labels_map: dict[Any, int] = {}
        labels = tuple(labels_map.setdefault(x, len(labels_map)) for x in regions)
    names = list(variants) + list(obj.get("variants", []))
    try:
        rules = _rules(givens.shape, tuple(names), labels)
    except (ValueError, ShapeError) as exc:
        raise fail(str(exc)) from None
    solution = None
    if obj.get("solution"):
        solution = grid_of(obj["solution"], "solution", givens.shape)
    return Puzzle(givens, rules), solution


def puzzle_to_json(
    puzzle: Puzzle, *, solution: Grid | None = None, alphabet: Alphabet = DEFAULT_ALPHABET
) -> dict[str, Any]:
    """The JSON object of a puzzle (the variant file format), omitting defaults."""
    d: dict[str, Any] = {}
    shape = puzzle.shape
    if shape_for_size(shape.size) != shape:
        d["box"] = [shape.box_rows, shape.box_cols]
    variants = [v for v in puzzle.rules.variants if v not in ("classic", "jigsaw")]
    if variants:
        d["variants"] = variants
    regions = puzzle.rules.regions
    if regions is not None:
        d["regions"] = list(regions)
    d["puzzle"] = puzzle.givens.to_line(alphabet=alphabet)
    if solution is not None:
        d["solution"] = solution.to_line(alphabet=alphabet)
    return d


# -- writing -------------------------------------------------------------------------------
def format_line(grid: Grid, *, blank: str = ".", alphabet: Alphabet = DEFAULT_ALPHABET) -> str:
    return grid.to_line(blank=blank, alphabet=alphabet)


def format_block(
    grid: Grid, *, blank: str = ".", separators: bool = True, alphabet: Alphabet = DEFAULT_ALPHABET
) -> str:
    """n lines of n cells; with ``separators``, ``|`` between boxes and a ``-+-`` line
    between bands."""
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    syms = alphabet.symbols
    out = []
    for r in range(n):
        row = grid.values[r * n : (r + 1) * n]
        chars = [blank if v == 0 else syms[v - 1] for v in row]
        if separators:
            groups = [" ".join(chars[c : c + bc]) for c in range(0, n, bc)]
            out.append(" | ".join(groups))
            if (r + 1) % br == 0 and r + 1 < n:
                out.append("-+-".join("-" * (2 * bc - 1) for _ in range(n // bc)))
        else:
            out.append("".join(chars))
    return "\n".join(out)


def write_records(
    records: Iterable[tuple[Puzzle, Grid | None]],
    fmt: str,
    out: IO[str],
    *,
    blank: str = ".",
    alphabet: Alphabet = DEFAULT_ALPHABET,
) -> int:
    """Write (puzzle, solution-or-None) pairs in a format; returns how many were written.

    Raises:
        ValueError: for a format that cannot be written.
    """
    if fmt not in WRITABLE_FORMATS:
        raise ValueError(f"cannot write format {fmt!r}; writable: {', '.join(WRITABLE_FORMATS)}")
    count = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["puzzle", "solution"])
        for puzzle, solution in records:
            writer.writerow(
                [
                    puzzle.givens.to_line(blank=blank, alphabet=alphabet),
                    solution.to_line(alphabet=alphabet) if solution else "",
                ]
            )
            count += 1
        return count
    if fmt == "json":
        items = [puzzle_to_json(p, solution=s, alphabet=alphabet) for p, s in records]
        json.dump(items, out, indent=1)
        out.write("\n")
        return len(items)
    first = True
    for puzzle, solution in records:
        if fmt == "line":
            text = puzzle.givens.to_line(blank=blank, alphabet=alphabet)
            if solution is not None:
                text += " " + solution.to_line(alphabet=alphabet)
            out.write(text + "\n")
        elif fmt == "block":
            if not first:
                out.write("\n")
            out.write(format_block(puzzle.givens, blank=blank, alphabet=alphabet) + "\n")
            if solution is not None:
                out.write("\n" + format_block(solution, alphabet=alphabet) + "\n")
        else:  # jsonl
            out.write(
                json.dumps(
                    puzzle_to_json(puzzle, solution=solution, alphabet=alphabet),
                    separators=(",", ":"),
                )
                + "\n"
            )
        first = False
        count += 1
    return count


# -- convenience ---------------------------------------------------------------------------
def read_puzzles(
    src: str | os.PathLike[str] | IO[str] | Iterable[str], **options: Any
) -> list[Puzzle]:
    """Every puzzle of a source, as a list.

    Raises:
        ParseError: at the first malformed puzzle (use :func:`iter_records` to go on).
    """
    out = []
    for rec in iter_records(src, **options):
        if rec.error is not None:
            raise rec.error
        assert rec.puzzle is not None
        out.append(rec.puzzle)
    return out


def read_puzzle(text: str, **options: Any) -> Puzzle:
    """One puzzle from a string (a line, a block or a JSON object).

    Raises:
        ParseError: when the text holds no puzzle or a malformed one.
    """
    stream = io.StringIO(text)
    options.setdefault("source", "<string>")
    records = iter_records(stream, **options)
    rec = next(records)
    if rec.error is not None:
        raise rec.error
    assert rec.puzzle is not None
    return rec.puzzle
