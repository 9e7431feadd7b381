"""The CSV reader: a header naming the puzzle column (and the solution column), or none;
the field delimiter decided by the first row; other columns kept in ``Record.extra``."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence

from ..errors import ParseError, ShapeError
from ..geometry import Shape
from ..gridtext import CELL_COUNTS, Alphabet
from ..puzzle import Puzzle
from .grids import parse_line
from .lines import _content_lines
from .pencilmark import INFERRED_LENGTHS, _line_sets
from .record import Record, _rules

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
        if puzzle_col < 0:
            from .. import variant_formats  # the killer CSV; imported when a header is read

            if variant_formats.is_killer_csv_header(fields):
                yield from variant_formats.killer_csv_records(
                    content, fields, name, shape, variants, delimiter=delimiter
                )
                return
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
            puzzle = _pencilmark_field(fields[puzzle_col], shape, alphabet, variants, name, lineno)
            if puzzle is None:
                grid, _ = parse_line(
                    fields[puzzle_col], shape=shape, alphabet=alphabet, source=name, line=lineno
                )
                puzzle = Puzzle(grid, _rules(grid.shape, variants, None))
            grid = puzzle.givens
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
                puzzle,
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


def _pencilmark_field(
    field: str,
    shape: Shape | None,
    alphabet: Alphabet,
    variants: tuple[str, ...],
    name: str,
    lineno: int,
) -> Puzzle | None:
    """The pencilmark puzzle of a puzzle field that is a pencilmark line (n**3
    characters; 64 only with a 4x4 shape given), else None.

    Raises:
        ParseError: for a pencilmark line that cannot be read (column within the field).
    """
    count = len(field.strip())
    if shape is None and count not in INFERRED_LENGTHS:
        return None
    if shape is not None and (count != shape.size**3 or count == shape.cell_count):
        return None
    shp, sets, _, _ = _line_sets(field, shape, alphabet, name, lineno)
    return Puzzle.from_candidates(sets, shape=shp, rules=_rules(shp, variants, None))
