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

from ..gridtext import (
    ALPHABETS,  # noqa: F401
    BLOCK_DECORATION,  # noqa: F401
    CELL_COUNTS,
    COMMENT_SEPARATORS,  # noqa: F401
)
from .convenience import read_puzzle, read_puzzles
from .grids import parse_block, parse_grid, parse_line, read_char_grid
from .jsonformat import puzzle_from_json, puzzle_to_json
from .raw import BLOCK_LINES, LineReader, RawBlock, RawLine  # noqa: F401
from .record import FORMATS, WRITABLE_FORMATS, Record
from .sources import open_text, resolve_source
from .stream import iter_records
from .writing import format_block, format_line, write_records

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
