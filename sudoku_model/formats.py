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
* **csv**: a header naming the puzzle column (``puzzle``, ``quiz``, ``quizzes``,
  ``question``, ``sudoku``, ``givens``, any case) and optionally the solution column
  (``solution``, ``solutions``, ``answer``), or no header (puzzle, then solution); other
  columns are kept in ``Record.extra``.
* **json**: a list of puzzles, ``{"puzzles": [...]}``, or one puzzle object;
  **jsonl**: one puzzle per line. A puzzle is a string of cells or an object (below).
* **variant JSON** (one object per puzzle)::

      {"box": [3, 3],                      # or "size": 9 (optional when inferable)
       "variants": ["diagonal"],           # diagonal, windoku, anti-knight, anti-king
       "regions": "111222333...",          # jigsaw: one label per cell (string or list)
       "puzzle": "4.....8.5.3...",         # givens: a line, or a list of row strings
       "constraints": [...],               # killer cages, arrows, dots...: see
                                           # sudoku_model.variant_formats
       "solution": "..."}                  # optional

* **killer CSV** (a header with ``puzz_color`` and ``puzz_hint``) and **f-puzzles** (a
  JSON object with ``size`` and ``grid``, a compressed ``N4Ig...`` string or a link, one a
  line): see :mod:`sudoku_model.variant_formats`.

Reading streams: :func:`iter_records` yields one :class:`Record` per puzzle in constant
memory, with either a :class:`~sudoku_model.Puzzle` or the :class:`ParseError` that says
where the text went wrong. Gzip data is read transparently (recognised by its magic bytes).
``auto`` decides the format from the extension, a CSV header or a majority of the first
content lines, never from one odd line; the alphabet is inferred when the file shows it.

>>> line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> rec = next(iter_records([line + "  # top95 #1"]))
>>> rec.puzzle.clues, rec.comment
(17, 'top95 #1')
"""

from __future__ import annotations

import csv
import errno
import gzip
import io
import itertools
import json
import math
import os
import re
import sys
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import IO, Any, NamedTuple, TextIO

from . import variant_formats  # killer CSV, f-puzzles, variant JSON constraints
from .errors import ParseError, ShapeError
from .geometry import Shape, shape_for_size
from .grid import Grid
from .gridtext import (
    ALPHABETS,  # noqa: F401
    BLOCK_DECORATION,  # noqa: F401
    CELL_COUNTS,
    COMMENT_SEPARATORS,  # noqa: F401
    DEFAULT_ALPHABET,
    LETTER_ALPHABET,
    ZERO_BASED_ALPHABET,
    Alphabet,
    decode_block,
    decode_grid,
    decode_line,
)
from .gridtext import block_row as _block_row
from .gridtext import cell_run as _cell_run
from .gridtext import is_decoration_line as _is_decoration_line
from .gridtext import shape_for_count as _shape_for_count
from .puzzle import Puzzle
from .rules import RuleSet
from .textlines import MAX_JSON_CHARS, MAX_LINE, LongLine, line_blocks, pieces, whole

__all__ = [
    "CELL_COUNTS",
    "FORMATS",
    "WRITABLE_FORMATS",
    "LineReader",
    "RawBlock",
    "RawLine",
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
    "resolve_source",
    "write_records",
]

FORMATS = ("auto", "line", "block", "csv", "json", "jsonl", "fpuzzles")
WRITABLE_FORMATS = ("line", "block", "csv", "json", "jsonl")

_PUZZLE_COLUMNS = (
    "puzzle",
    "puzzles",
    "quizzes",
    "quiz",
    "question",
    "questions",
    "sudoku",
    "sudokus",
    "givens",
    "grid",
)
_SOLUTION_COLUMNS = ("solution", "solutions", "answer", "answers")


class Record(NamedTuple):
    """One puzzle read from a source, or the error that stopped it.

    ``line`` is the 1-based line where the puzzle starts; ``text`` the raw text read;
    ``comment`` what followed the cells on a line; ``solution`` a solution carried by the
    input (CSV/JSON solution field), if any; ``position`` the 0-based position of the record
    in its source (unique and stable even where several records share a line, as in a JSON
    array); ``extra`` the other columns of a CSV row (``rating``, ``source``, ``id``...) by
    header name (``columnN`` without a header), None when there are none; ``alphabet`` the
    alphabet the record was read in (set by :func:`iter_records`; write results in it).
    (A named tuple: cheap to make by the million.)
    """

    source: str
    line: int
    text: str
    puzzle: Puzzle | None
    error: ParseError | None = None
    comment: str = ""
    solution: Grid | None = None
    position: int = -1
    extra: Mapping[str, str] | None = None
    alphabet: Alphabet = DEFAULT_ALPHABET

    @property
    def ok(self) -> bool:
        return self.error is None


# -- rules cache ---------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _rules(shape: Shape, variants: tuple[str, ...], regions: tuple[int, ...] | None) -> RuleSet:
    return RuleSet.build(shape, variants, regions)


# -- one grid: the cell codec is gridtext's; these wrap its values in a Grid ------------------
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


# -- streams -------------------------------------------------------------------------------
#: Content lines read before the format and the alphabet of a file are decided.
_SAMPLE_LINES = 24
#: Characters of a long line kept in a malformed record and its error (a bounded excerpt).
_EXCERPT = 200
_GZIP_MAGIC = b"\x1f\x8b"


class _GzipRaw(io.RawIOBase):
    """Gzip members decompressed from a binary file. A stream cut short (or corrupt) ends
    like a clean one, so every byte before the cut is delivered; ``problem`` then says what
    went wrong, for the reader to report after the last record."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self._d = zlib.decompressobj(wbits=31)
        self._in = b""
        self._out = b""
        self._pos = 0
        self._started = False
        self._done = False
        self.problem: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while self._pos >= len(self._out):
            if self._done:
                return 0
            self._fill()
        n = min(len(b), len(self._out) - self._pos)
        b[:n] = self._out[self._pos : self._pos + n]
        self._pos += n
        return n

    def _fill(self) -> None:
        if not self._in:
            self._in = self._f.read(1 << 16)
            if not self._in:
                if self._started:
                    self.problem = "the gzip data ends before its end marker (a truncated file)"
                self._done = True
                return
        d = self._d
        try:
            # bounded output per call: a small file that expands enormously is read piecewise
            self._out = d.decompress(self._in, 1 << 20)
        except zlib.error as exc:
            self.problem = f"corrupt gzip data ({exc})"
            self._done = True
            return
        self._pos = 0
        self._started = True
        if d.eof:
            rest = d.unused_data
            self._d = zlib.decompressobj(wbits=31)
            self._started = False
            if rest.startswith(_GZIP_MAGIC):
                self._in = rest  # the next member
            else:
                self._in = b""
                if rest:
                    self._done = True  # trailing bytes after the last member: ignored
        else:
            self._in = d.unconsumed_tail

    def close(self) -> None:
        self._f.close()
        super().close()


def _text_of(f: IO[bytes]) -> tuple[TextIO, _GzipRaw | None]:
    """A text stream over a binary one: gzip recognised by its magic bytes, undecodable
    bytes replaced by U+FFFD (reported later as bad symbols, never a crash)."""
    buffered = f if isinstance(f, io.BufferedReader) else io.BufferedReader(f)  # type: ignore[arg-type,type-var]
    raw: _GzipRaw | None = None
    if buffered.peek(2)[:2] == _GZIP_MAGIC:
        raw = _GzipRaw(buffered)
        buffered = io.BufferedReader(raw, 1 << 16)
    text = io.TextIOWrapper(buffered, encoding="utf-8", errors="replace", newline=None)
    return text, raw


def resolve_source(src: str | os.PathLike[str]) -> str:
    """The file an input name stands for: ``bundled:NAME`` is a bundled collection
    (:mod:`sudoku_model.data`), any other name is the path as given. The one resolver of
    input names, for :func:`iter_records` and the command line alike.

    >>> os.path.basename(resolve_source("bundled:top95")), resolve_source("my/puzzles.txt")
    ('top95.txt', 'my/puzzles.txt')

    Raises:
        FileNotFoundError: for ``bundled:NAME`` with an unknown name (listing the known ones).
    """
    text = os.fspath(src)
    if not text.startswith("bundled:"):
        return text
    from .data import resolve_input

    try:
        return os.fspath(resolve_input(text)[0])
    except KeyError as exc:
        raise FileNotFoundError(errno.ENOENT, str(exc.args[0]), text) from None


def open_text(path: str | os.PathLike[str]) -> TextIO:
    """Open a puzzle file for reading as text: gzip-compressed data is recognised by its
    magic bytes (whatever the name), undecodable bytes become U+FFFD (reported later as a
    bad symbol, never a crash).

    Raises:
        ParseError: for a directory.
        OSError: when the file cannot be opened.
    """
    return _open(path)[0]


def _open(path: str | os.PathLike[str]) -> tuple[TextIO, _GzipRaw | None]:
    p = resolve_source(path)
    if os.path.isdir(p):
        raise ParseError("is a directory, not a puzzle file", source=p, line=1, column=1)
    return _text_of(open(p, "rb"))


def _csv_columns(fields: Sequence[str]) -> tuple[int, int] | None:
    """(puzzle column, solution column or -1) when the fields are a header naming a puzzle
    column; None otherwise."""
    puzzle_col = solution_col = -1
    for i, f in enumerate(fields):
        h = f.strip().strip("\ufeff\"' ").lower()
        if h in _PUZZLE_COLUMNS and puzzle_col < 0:
            puzzle_col = i
        elif h in _SOLUTION_COLUMNS and solution_col < 0:
            solution_col = i
    return None if puzzle_col < 0 else (puzzle_col, solution_col)


def _csv_header_line(text: str) -> tuple[int, int] | None:
    try:
        fields = next(csv.reader([text], delimiter=_csv_delimiter(text)), [])
    except csv.Error:
        return None
    return _csv_columns(fields)


def _classify(s: str, alphabet: Alphabet, shape: Shape | None) -> str:
    """What one stripped content line looks like: ``line``, ``block``, ``jsonl`` or
    ``other`` (a vote in the format decision)."""
    if s.startswith("{") and s.endswith("}"):
        return "jsonl"
    if '"' in s:
        return "other"  # no puzzle line or block row has quotes: JSON or CSV text
    if _is_decoration_line(s):
        return "block"
    run = s[: _cell_run(s, alphabet)]
    cells, _ = _block_row(s)
    if shape is not None:
        if len(run) == shape.cell_count:
            return "line"
        return "block" if len(cells) == shape.size else "other"
    if any(ch in s for ch in "|+") or (" " in s and len(cells) <= 25 and len(run) < 16):
        return "block"
    if len(run) in CELL_COUNTS:
        if len(run) == 16:
            # 16 cells: a 4x4 puzzle on a line, or a row of a 16x16 block (values above 4).
            values = [alphabet.raw_value(ch) or 0 for ch in run]
            return "block" if max(values) > 4 else "line"
        return "line"
    if 4 <= len(run) <= 25 and len(run) == len(cells):
        return "block"
    return "other"


def _format_of_name(name: str) -> str | None:
    """The format a file name says (``.csv``, ``.jsonl``, ``.json``, gzipped or not)."""
    lower = name.lower().removesuffix(".gz")
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    return None


def _choose_format(
    content: list[tuple[int, str]], name: str, alphabet: Alphabet, shape: Shape | None
) -> str:
    """The format of a file from its name, else from a majority of its first content
    lines: one odd line (a title, a truncated puzzle, a separator) never decides it."""
    by_name = _format_of_name(name)
    if by_name is not None:
        return by_name
    first = content[0][1].strip()
    if variant_formats.looks_like_fpuzzles(first):
        return "fpuzzles"
    if first.startswith("["):
        return "json"
    if _csv_header_line(first) is not None:
        return "csv"
    votes = {"line": 0, "block": 0, "jsonl": 0, "other": 0}
    for _, raw in content:
        votes[_classify(raw.strip(), alphabet, shape)] += 1
    if first.startswith("{"):
        if votes["jsonl"] * 2 > len(content):
            return "jsonl"
        if votes["line"] + votes["block"] <= votes["other"]:
            return "json"  # one object over several lines
    return "block" if votes["block"] > votes["line"] else "line"


_TOKEN_SPLIT = re.compile(r"[\s,;:\"'\[\]{}]+")


def _sample_cells(
    fmt: str, content: list[tuple[int, str]], shape: Shape | None, alphabet: Alphabet
) -> tuple[int, list[tuple[int, str]]]:
    """The grid size the sample shows (0 when unknown) and its runs of cells with their
    line numbers."""
    runs: list[tuple[int, str]] = []
    sizes: dict[int, int] = {}
    counts = {shape.cell_count} if shape is not None else set(CELL_COUNTS)
    for lineno, raw in content:
        s = raw.strip()
        if fmt == "block":
            if _is_decoration_line(s):
                continue
            cells, _ = _block_row(s)
            if 4 <= len(cells) <= 25:
                runs.append((lineno, cells))
                sizes[len(cells)] = sizes.get(len(cells), 0) + 1
            continue
        tokens = [s[: _cell_run(s, alphabet)]] if fmt == "line" else _TOKEN_SPLIT.split(s)
        for tok in tokens:
            if len(tok) in counts:
                runs.append((lineno, tok))
                n = math.isqrt(len(tok))
                sizes[n] = sizes.get(n, 0) + 1
    if shape is not None:
        return shape.size, runs
    return (max(sizes, key=lambda k: sizes[k]) if sizes else 0), runs


def _evident_alphabet(n: int, runs: list[tuple[int, str]]) -> tuple[Alphabet, int, str] | None:
    """The alphabet other than the default that the cells show, with the line and the
    reason; None when they fit the default (or show nothing else)."""
    if n == 0 or not runs:
        return None
    chars = set("".join(r for _, r in runs).upper())
    first_line = runs[0][0]
    if n > 9:
        top = DEFAULT_ALPHABET.symbols[n - 1]  # G for 16x16
        if "0" in chars and chars & set("._-*") and top not in chars:
            why = f"'0' is a symbol (blanks are '.') and no '{top}' is given"
            return ZERO_BASED_ALPHABET, first_line, why
    beyond = sorted(
        ch for ch in chars if ch.isalpha() and (DEFAULT_ALPHABET.raw_value(ch) or 99) > n
    )
    if n in (16, 25) and beyond and not chars & set("123456789"):
        letters = set(LETTER_ALPHABET.symbols[:n])
        if chars <= letters | set(LETTER_ALPHABET.blanks):
            why = f"only letters, up to {max(chars & letters)!r}"
            return LETTER_ALPHABET, first_line, why
    return None


def _choose_alphabet(
    fmt: str,
    content: list[tuple[int, str]],
    shape: Shape | None,
    alphabet: Alphabet | None,
    name: str,
) -> Alphabet:
    """The alphabet to read with: the one given, or the one the file shows (``None``).

    Raises:
        ParseError: when the default alphabet is given but the file shows another one.
    """
    if alphabet is not None and alphabet is not DEFAULT_ALPHABET:
        return alphabet
    if fmt == "json":
        return DEFAULT_ALPHABET
    n, runs = _sample_cells(fmt, content, shape, DEFAULT_ALPHABET)
    found = _evident_alphabet(n, runs)
    if found is None:
        return DEFAULT_ALPHABET
    other, lineno, why = found
    if alphabet is None:
        return other
    label = {ZERO_BASED_ALPHABET: "0-F", LETTER_ALPHABET: "A-P" if n <= 16 else "A-Y"}[other]
    raise ParseError(
        f"a {n}x{n} file in another alphabet: {why}; read it with --alphabet {label} "
        f"(alphabet=ALPHABETS[{label!r}]), or give the alphabet it is in",
        source=name,
        line=lineno,
        column=1,
        text=_excerpt(dict(content)[lineno].rstrip("\r\n"), 1),
    )


def _excerpt(text: str, column: int) -> str:
    """At most about :data:`_EXCERPT` characters of a line, around a 1-based column."""
    if len(text) <= _EXCERPT:
        return text
    start = max(0, min(column - 1 - _EXCERPT // 4, len(text) - _EXCERPT))
    head = "..." if start else ""
    tail = "..." if start + _EXCERPT < len(text) else ""
    return f"{head}{text[start : start + _EXCERPT]}{tail}"


#: Builds a Record from a full tuple of its fields, without the keyword handling.
_new_record = tuple.__new__
#: The fields set by iter_records come last: ``position``, ``extra``, ``alphabet``.
_POSITION = Record._fields.index("position")


def _bounded(record: Record) -> Record:
    """A malformed record of a very long line, quoting a bounded excerpt only."""
    err = record.error
    assert err is not None
    column = err.column if err.column > 0 else 1
    short = ParseError(
        err.message,
        source=err.source,
        line=err.line,
        column=err.column,
        text=_excerpt(err.text, column),
    )
    text = _excerpt(record.text, column) + f" [{len(record.text):,} characters]"
    return record._replace(text=text, error=short)


def _binary_check(sample: list[tuple[int, str]], name: str) -> None:
    """Refuse input whose first characters are mostly control characters or bytes that are
    not UTF-8: binary data, not puzzle text."""
    seen = 0
    bad = 0
    where: tuple[int, int] | None = None
    for lineno, raw in sample:
        for col, ch in enumerate(raw[:8192], start=1):
            seen += 1
            if ch == "\ufffd" or (ch < " " and ch not in "\t\n\r\f\v") or ch == "\x7f":
                bad += 1
                if where is None:
                    where = (lineno, col)
        if seen >= 8192:
            break
    if where is not None and bad * 10 > seen:
        lineno, col = where
        raise ParseError(
            f"binary data, not puzzle text ({bad} of the first {seen} characters are control "
            "characters or bytes that are not UTF-8)",
            source=name,
            line=lineno,
            column=col,
        )


def iter_records(
    src: str | os.PathLike[str] | IO[str] | Iterable[str],
    *,
    source: str | None = None,
    shape: Shape | None = None,
    alphabet: Alphabet | None = None,
    variants: Sequence[str] = (),
    fmt: str = "auto",
    raw: bool = False,
    blocks: bool = False,
) -> Iterator[Record]:
    """Stream the puzzles of a file, a text stream or an iterable of lines.

    Each malformed puzzle is one record with ``error`` set; reading goes on. Memory stays
    bounded for line, block, CSV and JSONL input: a line longer than any puzzle can be
    (:data:`~sudoku_model.textlines.MAX_LINE` characters) is read past in pieces and is one
    malformed record; JSON documents are read whole, up to
    :data:`~sudoku_model.textlines.MAX_JSON_CHARS` characters. Every
    record carries its 0-based ``position`` in the source and the ``alphabet`` it was read
    in. A cut gzip file yields every record before the cut, then one malformed record
    saying so.

    Args:
        src: a path (gzip recognised by its magic bytes), ``bundled:NAME`` (a bundled
            collection, :func:`resolve_source`), an open text stream, or lines.
        source: the name used in records and errors (default: the path or name given).
        shape: the box shape; inferred from the cell count when None.
        alphabet: symbols for values; None (the default) reads the default alphabet unless
            the file shows another one (0-F: a ``0`` with ``.`` blanks and no top letter;
            A-P/A-Y: letters only). Given the default alphabet explicitly, such a file is
            refused with a message naming ``--alphabet``.
        variants: extra rules attached to every puzzle read (JSON puzzles may name their own).
        fmt: one of :data:`FORMATS`; ``auto`` decides from the name, the header, or a
            majority of the first content lines.
        raw: for line-format input, yield each puzzle line unparsed, as a :class:`RawLine`
            (its :class:`LineReader` parses it later, elsewhere, into the very Record this
            function would give); other formats yield Records as usual.
        blocks: with ``raw``, when the reader is plain (classic 9x9 or inferred shape, the
            default alphabet, no variants), runs of lines that are exactly 81 characters
            of ``1-9 . 0`` come as :class:`RawBlock` items (up to :data:`BLOCK_LINES`
            lines each) instead of one RawLine a line: the same lines, numbers and
            positions, without a Python object per line (``sudoku verify``'s bulk path
            hands them to C as they are). Every other line still comes as a RawLine.

    Raises:
        ParseError: when the input holds no puzzle at all (empty file), is binary data, a
            directory, or shows an alphabet other than the one given; for an unknown
            format name. Never any other exception for bad content.
        OSError: when the file cannot be opened (FileNotFoundError for an unknown
            ``bundled:`` name).
    """
    if fmt not in FORMATS:
        raise ParseError(
            f"unknown format {fmt!r}; known: {', '.join(FORMATS)}", source=source or "<options>"
        )
    close = None
    gz: _GzipRaw | None = None
    name = source
    stream: Iterable[str]
    chunked = False
    if isinstance(src, (str, os.PathLike)):
        name = name or os.fspath(src)
        stream, gz = _open(src)
        close = stream
    else:
        name = name or getattr(src, "name", "<stream>")
        buffer = getattr(src, "buffer", None)
        if src in (sys.stdin, sys.__stdin__) and isinstance(buffer, io.BufferedReader):
            # read standard input's bytes, so gzip and undecodable bytes are handled as for
            # a path
            stream, gz = _text_of(buffer)
        else:
            # a caller's text stream is read in bounded pieces too (textlines.pieces)
            lines_in, chunked = pieces(src)
            stream = _safe(lines_in, name or "<stream>")
    assert name is not None
    state = _State()
    long = state.long  # records of lines too long to read, yielded in line order
    position = 0
    try:
        for record in _iter_stream(
            stream,
            name,
            shape,
            alphabet,
            tuple(variants),
            fmt,
            state,
            unparsed=raw,
            blocks=blocks,
            chunked=chunked,
        ):
            if record.__class__ is RawLine:
                # numbered by its reader already (raw=True only)
                yield record  # type: ignore[misc]
                position = record.position + 1
                continue
            if record.__class__ is RawBlock:
                yield record  # type: ignore[misc]
                position = record.position + record.nlines  # type: ignore[attr-defined]
                continue
            while long and long[0].line < record.line:
                yield _new_record(
                    Record, (*long.pop(0)[:_POSITION], position, None, state.alphabet)
                )
                position += 1
            if record.error is not None and len(record.text) > _EXCERPT:
                record = _bounded(record)
            # tuple.__new__, not _replace (5x slower): this runs once per record read
            yield _new_record(Record, (*record[:_POSITION], position, record.extra, state.alphabet))
            position += 1
        for record in long:
            yield _new_record(Record, (*record[:_POSITION], position, None, state.alphabet))
            position += 1
        last = position - 1
        if last < 0 and (gz is None or gz.problem is None):
            # content, but not one puzzle (a header alone, separator lines): say so
            raise ParseError("no puzzle found", source=name, line=max(state.last_line, 1), column=1)
        if gz is not None and gz.problem is not None:
            line = state.last_line + 1
            err = ParseError(gz.problem, source=name, line=line, column=1)
            yield Record(name, line, "", None, err, position=last + 1, alphabet=state.alphabet)
    finally:
        if close is not None:
            close.close()  # type: ignore[attr-defined]


class _State:
    """What a stream reader learns while reading: the alphabet, the last line number."""

    __slots__ = ("alphabet", "last_line", "long")

    def __init__(self) -> None:
        self.alphabet: Alphabet = DEFAULT_ALPHABET
        self.last_line = 0
        #: malformed records of lines too long to read, not yet yielded (line order)
        self.long: list[Record] = []


def _long_record(name: str, lineno: int, line: LongLine) -> Record:
    """The malformed record of a line longer than any puzzle can be."""
    err = ParseError(
        line.message, source=name, line=lineno, column=MAX_LINE + 1, text=f"{line.excerpt}..."
    )
    # short enough to be kept as it is (iter_records bounds longer texts)
    text = f"{line.excerpt[: _EXCERPT // 2]}... [{line.length:,} characters]"
    return Record(name, lineno, text, None, err)


def _safe(stream: Iterable[str], name: str) -> Iterator[str]:
    """The lines of a caller's stream; decoding and decompression errors become
    ParseError."""
    n = 0
    try:
        for raw in stream:
            n += 1
            yield raw
    except (UnicodeDecodeError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ParseError(
            f"cannot read the input: {exc}", source=name, line=n + 1, column=1
        ) from None


def _first_line_decides(first: str, fmt: str, alphabet: Alphabet | None) -> bool:
    """True when nothing after the first content line can change how the input is read:
    the format is given, and so is the alphabet or the line is no longer than a 9x9 grid
    (no alphabet to infer). Reading stops there before the first record, so a pipe is
    answered line by line (``sudoku solve - --format line``) instead of after a sample."""
    if fmt == "auto":
        return False
    return alphabet is not None or len(first.split(maxsplit=1)[0]) <= 81


def _iter_stream(
    stream: Iterable[str],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet | None,
    variants: tuple[str, ...],
    fmt: str,
    state: _State,
    unparsed: bool = False,
    blocks: bool = False,
    chunked: bool = False,
) -> Iterator[Any]:
    # lines of at most MAX_LINE characters: a longer one comes in pieces, and whole() makes
    # it a LongLine, read past (checked by length where a line is read: C speed per line)
    it, in_pieces = pieces(stream)
    in_pieces = in_pieces or chunked
    sample: list[tuple[int, str]] = []
    content: list[tuple[int, str]] = []
    lineno = 0
    for raw in it:
        lineno += 1
        if not isinstance(raw, str):
            raise ParseError(
                f"lines must be text, got {type(raw).__name__}", source=name, line=lineno, column=1
            )
        if len(raw) > MAX_LINE:
            raw = whole(raw, it, in_pieces)
        if lineno == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]  # a UTF-8 byte order mark
        sample.append((lineno, raw))
        s = raw.strip()
        if s and not s.startswith("#"):
            content.append((lineno, raw))
            if len(content) >= _SAMPLE_LINES or (
                len(content) == 1 and _first_line_decides(s, fmt, alphabet)
            ):
                break
    state.last_line = lineno
    if not content and not any(raw.__class__ is LongLine for _, raw in sample):
        raise ParseError("empty input: no puzzle found", source=name, line=max(lineno, 1), column=1)
    _binary_check(sample, name)
    if fmt == "auto":
        fmt = (
            _choose_format(content, name, alphabet or DEFAULT_ALPHABET, shape)
            if content
            else _format_of_name(name) or "line"  # nothing but lines too long to read
        )
    chosen = DEFAULT_ALPHABET
    if fmt != "fpuzzles":
        chosen = _choose_alphabet(fmt, content, shape, alphabet, name)
    state.alphabet = chosen

    def lines() -> Iterator[tuple[int, str]]:
        # a line too long to read is blank to the format's reader; its malformed record
        # goes to state.long, which iter_records yields in line order
        long = state.long
        for n, raw in sample:
            if isinstance(raw, LongLine):
                long.append(_long_record(name, n, raw))
            yield n, raw
        n = lineno
        for raw in it:
            n += 1
            if len(raw) > MAX_LINE:
                raw = whole(raw, it, in_pieces)
                if isinstance(raw, LongLine):
                    long.append(_long_record(name, n, raw))
            yield n, raw
        state.last_line = n

    if fmt == "line" and unparsed:
        reader = LineReader(name, shape, chosen, variants)
        position = 0

        def raw_lines(numbered: Iterable[tuple[int, str]]) -> Iterator[RawLine | Record]:
            # _raw_lines over lines() and _content_lines, fused: the verify fast path reads
            # every line through here, and each generator level costs per line
            nonlocal position
            n = 0
            for n, raw in numbered:
                if len(raw) > MAX_LINE:
                    raw = whole(raw, it, in_pieces)
                stripped = raw.strip()
                if not stripped or stripped[0] == "#":
                    if isinstance(raw, LongLine):  # read past (here, or by line_blocks)
                        yield _long_record(name, n, raw)
                        position += 1
                    continue
                text = raw.rstrip("\r\n")
                if _is_decoration_line(text) and not reader._holds_puzzle(text, n):
                    continue
                yield _new_record(RawLine, (reader, n, text, position))
                position += 1
            state.last_line = max(state.last_line, n)

        if not (blocks and reader.plain):
            yield from raw_lines(itertools.chain(sample, enumerate(it, lineno + 1)))
        else:
            yield from raw_lines(sample)
            n = lineno
            text_stream = stream if isinstance(stream, io.TextIOBase) else it
            for joined, block in line_blocks(text_stream, BLOCK_LINES, 82, in_pieces=in_pieces):
                k = 0 if block is None else len(block)
                if _plain_block(joined, block):
                    # a plain line is never blank, a comment or a separator: every line of
                    # the block is a record, numbered as raw_lines numbers it
                    k = len(joined) // 82
                    yield _new_record(RawBlock, (reader, n + 1, joined[:-1], k, position))
                    position += k
                else:
                    if block is None:
                        block = joined.split("\n")
                        if not block[-1]:
                            block.pop()  # the line end of the last line
                        k = len(block)
                    yield from raw_lines(enumerate(block, n + 1))
                n += k
            state.last_line = n
    elif fmt == "line":
        yield from _line_records(lines(), name, shape, chosen, variants)
    elif fmt == "block":
        yield from _block_records(lines(), name, shape, chosen, variants)
    elif fmt == "csv":
        yield from _csv_records(lines(), name, shape, chosen, variants)
    elif fmt == "jsonl":
        yield from _jsonl_records(lines(), name, shape, chosen, variants)
    elif fmt == "fpuzzles":
        yield from variant_formats.fpuzzles_records(lines(), name, variants)
    else:
        yield from _json_records(lines(), name, shape, chosen, variants)


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


def _csv_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    """CSV rows: a header naming the puzzle column (any of :data:`_PUZZLE_COLUMNS`, any
    case) or none (the first column holds puzzles, the second solutions when it looks like
    a grid). Columns other than the puzzle and the solution are kept in ``Record.extra``."""
    names: list[str] = []
    puzzle_col = solution_col = -1
    counts = {shape.cell_count} if shape is not None else set(CELL_COUNTS)

    def bad(lineno: int, text: str, msg: str, column: int = 1) -> Record:
        return Record(
            name,
            lineno,
            text,
            None,
            ParseError(msg, source=name, line=lineno, column=column, text=text),
        )

    content = _content_lines(lines)
    delimiter = ""  # decided by the first row
    for lineno, text, _ in content:
        if not delimiter:
            delimiter = _csv_delimiter(text)
        try:
            fields = next(csv.reader([text], delimiter=delimiter), [])
        except csv.Error as exc:
            yield bad(lineno, text, f"bad CSV row: {exc}")
            continue
        if puzzle_col < 0 and variant_formats.is_killer_csv_header(fields):
            yield from variant_formats.killer_csv_records(
                content, fields, name, shape, variants, delimiter=delimiter
            )
            return
        if puzzle_col < 0:
            cols = _csv_columns(fields)
            if cols is not None:
                puzzle_col, solution_col = cols
                names = [f.strip().strip("\ufeff\"' ") for f in fields]
                continue
            if fields and len(fields[0].strip()) in counts:
                puzzle_col = 0
                solution_col = 1 if len(fields) > 1 and len(fields[1].strip()) in counts else -1
            else:
                yield bad(
                    lineno,
                    text,
                    "neither a CSV header naming the puzzle column "
                    f"({', '.join(_PUZZLE_COLUMNS)}) nor a row starting with a puzzle "
                    f"(fields separated by {_DELIMITER_NAMES[delimiter]})",
                )
                continue
        if puzzle_col >= len(fields):
            yield bad(
                lineno,
                text,
                f"row has {len(fields)} fields; the puzzle is field {puzzle_col + 1}",
                len(text) + 1,
            )
            continue
        extra: dict[str, str] | None = None
        if len(fields) > 2 or (len(fields) == 2 and solution_col < 0):
            extra = {
                (names[i] if i < len(names) and names[i] else f"column{i + 1}"): f
                for i, f in enumerate(fields)
                if i != puzzle_col and i != solution_col
            }
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
                extra=extra,
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
                extra=extra,
            )
        except (ValueError, ShapeError) as exc:
            yield bad(lineno, text, str(exc))


#: Field delimiters a CSV file may use, by preference; the first row decides.
_DELIMITER_NAMES = {",": "','", ";": "';'", "\t": "tabs", "|": "'|'"}


def _csv_delimiter(first_row: str) -> str:
    """The field delimiter of a CSV file from its first row: ``,`` when the row has one,
    else ``;``, a tab or ``|`` (the first of these it holds), else ``,``."""
    for delimiter in _DELIMITER_NAMES:
        if delimiter in first_row:
            return delimiter
    return ","


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
        except (ValueError, RecursionError) as exc:  # digits beyond int limits, deep nesting
            msg = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            err = ParseError(f"invalid JSON: {msg}", source=name, line=lineno, column=1, text=text)
            yield Record(name, lineno, text, None, err)
            continue
        yield _json_record(obj, name, lineno, text, shape, alphabet, variants)


def _json_records(
    lines: Iterable[tuple[int, str]],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
) -> Iterator[Record]:
    collected: list[tuple[int, str]] = []
    size = 0
    for lineno, raw in lines:
        if isinstance(raw, LongLine):
            raise ParseError(
                f"a line of {raw.length:,} characters in a JSON document: longer than any "
                f"puzzle line can be (at most {MAX_LINE:,}); write the document indented, "
                "or as JSONL (one puzzle a line)",
                source=name,
                line=lineno,
                column=MAX_LINE + 1,
            )
        size += len(raw)
        if size > MAX_JSON_CHARS:
            raise ParseError(
                f"a JSON document of more than {MAX_JSON_CHARS:,} characters: too large to "
                "read whole; write the puzzles as JSONL (one puzzle a line, read in "
                "constant memory)",
                source=name,
                line=lineno,
                column=1,
            )
        collected.append((lineno, raw))
    first_line = collected[0][0] if collected else 1
    doc = "".join(raw for _, raw in collected)
    del collected
    try:
        obj = json.loads(doc)
    except json.JSONDecodeError as exc:
        bad = doc.split("\n")[exc.lineno - 1] if doc else ""
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            source=name,
            line=exc.lineno + first_line - 1,
            column=exc.colno,
            text=_excerpt(bad, exc.colno),
        ) from None
    except (ValueError, RecursionError) as exc:
        msg = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ParseError(f"invalid JSON: {msg}", source=name, line=first_line, column=1) from None
    items = obj.get("puzzles", [obj]) if isinstance(obj, dict) else obj
    if not isinstance(items, list):
        raise ParseError(
            'JSON must hold a puzzle, a list of puzzles or {"puzzles": [...]}',
            source=name,
            line=first_line,
            column=1,
        )
    starts = _array_item_lines(doc, len(items)) if isinstance(obj, list) else []
    for k, item in enumerate(items):
        line = first_line + starts[k] if k < len(starts) else first_line
        yield _json_record(item, name, line, f"[{k}]", shape, alphabet, variants)


def _array_item_lines(doc: str, count: int) -> list[int]:
    """0-based line offset of where each item of a top-level JSON array starts (the
    document is known to be valid)."""
    decoder = json.JSONDecoder()
    out: list[int] = []
    i = doc.index("[") + 1
    line = doc.count("\n", 0, i)
    size = len(doc)
    try:
        while len(out) < count:
            while i < size and doc[i] in " \t\r\n,":
                if doc[i] == "\n":
                    line += 1
                i += 1
            out.append(line)
            _, end = decoder.raw_decode(doc, i)
            line += doc.count("\n", i, end)
            i = end
    except (ValueError, RecursionError):
        return []
    return out


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
        ParseError: for a missing or malformed field, naming it (never another exception,
            whatever the value).
    """
    try:
        return _puzzle_from_json(obj, shape, alphabet, variants, source, line)
    except ParseError:
        raise
    except (ValueError, TypeError, AttributeError, OverflowError, KeyError, IndexError) as exc:
        # a type the checks below did not foresee: still a located error, never a crash
        raise _json_error(f"bad puzzle object: {exc}", obj, source, line) from None
    except RecursionError:
        raise _json_error("puzzle object nested too deeply", obj, source, line) from None


def _json_error(msg: str, obj: Any, source: str, line: int) -> ParseError:
    if isinstance(obj, str):
        text = obj
    else:
        try:
            text = json.dumps(obj)
        except (ValueError, TypeError, RecursionError):
            text = ""
    return ParseError(msg, source=source, line=line, column=1, text=_excerpt(text, 1)[:120])


def _short(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: Any, what: str, fail: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f'"{what}" must be a whole number, got {_short(value)}')
    return value


def _puzzle_from_json(
    obj: Any,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: Sequence[str],
    source: str,
    line: int,
) -> tuple[Puzzle, Grid | None]:
    def fail(msg: str) -> ParseError:
        return _json_error(msg, obj, source, line)

    if isinstance(obj, str):
        obj = {"puzzle": obj}
    if not isinstance(obj, dict):
        raise fail("a puzzle must be a string of cells or an object")
    if "grid" in obj and "puzzle" not in obj:  # an f-puzzles object
        try:
            return variant_formats.puzzle_from_fpuzzles(obj)
        except (ValueError, ShapeError) as exc:
            raise fail(f"f-puzzles: {exc}") from None
    shp = shape
    try:
        if "box" in obj:
            box = obj["box"]
            if not (isinstance(box, list) and len(box) == 2):
                raise fail(f'"box" must be [rows, columns], got {_short(box)}')
            shp = Shape(_whole(box[0], "box", fail), _whole(box[1], "box", fail))
        elif "size" in obj:
            shp = shape_for_size(_whole(obj["size"], "size", fail))
    except ShapeError as exc:
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
            if not all(isinstance(r, str) for r in raw):
                raise fail(f'"{what}" must be a string, a list of row strings or of lists')
            raw = "\n".join(raw)
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
                text=_excerpt(exc.text, exc.column),
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
        if not isinstance(regions, list) or not all(
            isinstance(x, (str, int)) and not isinstance(x, bool) for x in regions
        ):
            raise fail(
                '"regions" must be a string, or a list of labels (strings or whole numbers), '
                f"got {_short(obj.get('regions'))}"
            )
        labels_map: dict[Any, int] = {}
        labels = tuple(labels_map.setdefault(x, len(labels_map)) for x in regions)
    extra_variants = obj.get("variants", [])
    if not isinstance(extra_variants, list) or not all(isinstance(v, str) for v in extra_variants):
        raise fail(f'"variants" must be a list of names, got {_short(extra_variants)}')
    names = list(variants) + extra_variants
    try:
        rules = _rules(givens.shape, tuple(names), labels)
        if "constraints" in obj:
            extra = variant_formats.constraints_from_json(obj["constraints"], givens.shape)
            rules = rules.with_rules(extra)
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
    constraints = variant_formats.constraints_to_json(puzzle.rules)
    if constraints:  # rules beyond the variants: cages, dots... and extra units
        d["constraints"] = constraints
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
    return grid.to_block(blank=blank, separators=separators, alphabet=alphabet)


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
    rec = next(records, None)
    if rec is None:
        raise ParseError("no puzzle found", source=options["source"], line=1, column=1)
    if rec.error is not None:
        raise rec.error
    assert rec.puzzle is not None
    return rec.puzzle


# -- unparsed lines: read here, parsed elsewhere (a worker process) ---------------------------
#: Lines read at a time for :class:`RawBlock` items (``iter_records(..., blocks=True)``).
BLOCK_LINES = 512
_PLAIN_CHARS = b"123456789.0\n"
_NEWLINES = b"\n" * BLOCK_LINES


def _plain_block(joined: str, block: list[str] | None) -> bool:
    """Whether ``joined`` is lines of exactly 81 plain characters, each ended by a newline
    (and, when the stream gave ``block``, each of its lines one of them: a caller's lines
    may hold a line end anywhere): a check at C speed over the whole text (its length, a
    newline every 82 characters and nowhere else, no other character than the plain
    ones)."""
    count, rest = divmod(len(joined), 82)
    if rest or not count or not joined.isascii():
        return False
    if block is not None and (len(block) != count or set(map(len, block)) != {82}):
        return False
    data = joined.encode("ascii")
    ends = _NEWLINES if count == BLOCK_LINES else b"\n" * count
    return (
        data[81::82] == ends
        and data.count(b"\n") == count
        and not data.translate(None, _PLAIN_CHARS)
    )


class LineReader(NamedTuple):
    """How the lines of one line-format source are read: what a worker needs to turn the
    :class:`RawLine` items of ``iter_records(..., raw=True)`` into the Records that
    ``iter_records`` would have given (picklable, small)."""

    source: str
    shape: Shape | None
    alphabet: Alphabet
    variants: tuple[str, ...]

    def records(self, lines: Iterable[tuple[int, str]], first_position: int) -> list[Record]:
        """The Records of consecutive puzzle lines ``(line number, text)`` of this source,
        the first at ``first_position``: every line given is one record (the lines that
        hold none were left out by :func:`iter_records`)."""
        alphabet = self.alphabet
        out = []
        for position, record in enumerate(
            _line_records(lines, self.source, self.shape, alphabet, self.variants),
            first_position,
        ):
            if record.error is not None and len(record.text) > _EXCERPT:
                record = _bounded(record)
            out.append(_new_record(Record, (*record[:_POSITION], position, None, alphabet)))
        return out

    def record(self, line: RawLine) -> Record:
        """The Record of one :class:`RawLine` of this source."""
        return self.records([(line.line, line.text)], line.position)[0]

    @property
    def plain(self) -> bool:
        """Whether this reader reads a line of 81 characters ``1-9 . 0`` as a classic
        9x9 puzzle, nothing more (no variants, the default alphabet)."""
        return (
            self.shape in (None, Shape(3, 3))
            and not self.variants
            and self.alphabet == DEFAULT_ALPHABET
        )

    def _holds_puzzle(self, text: str, lineno: int) -> bool:
        # a separator line (+---+) is no record unless it reads as cells
        try:
            decode_line(text, shape=self.shape, alphabet=self.alphabet, line=lineno)
        except ParseError:
            return False
        except (ValueError, ShapeError):
            return True  # a malformed record, as _line_records makes it
        return True


class RawLine(NamedTuple):
    """One puzzle line of a line-format source, not parsed yet (``iter_records(...,
    raw=True)``): its reader, 1-based line number, text (without its line end) and
    0-based position in the source."""

    reader: LineReader
    line: int
    text: str
    position: int


class RawBlock(NamedTuple):
    """``nlines`` consecutive puzzle lines of a plain line-format source, not parsed yet
    (``iter_records(..., raw=True, blocks=True)``): line numbers ``line`` to ``line +
    nlines - 1``, positions ``position`` to ``position + nlines - 1``; every line is exactly
    81 characters of ``1-9 . 0``, and ``text`` holds them joined by newlines (none
    after the last)."""

    reader: LineReader
    line: int
    text: str
    nlines: int
    position: int

    def split(self, k: int) -> tuple[RawBlock, RawBlock]:
        """The first ``k`` lines and the rest (``0 < k < nlines``)."""
        cut = 82 * k
        return (
            RawBlock(self.reader, self.line, self.text[: cut - 1], k, self.position),
            RawBlock(
                self.reader, self.line + k, self.text[cut:], self.nlines - k, self.position + k
            ),
        )

    def raw_lines(self) -> list[RawLine]:
        """The lines as :class:`RawLine` items, as ``iter_records(..., raw=True)`` gives
        them."""
        reader, line, position = self.reader, self.line, self.position
        return [
            RawLine(reader, line + i, text, position + i)
            for i, text in enumerate(self.text.split("\n"))
        ]
