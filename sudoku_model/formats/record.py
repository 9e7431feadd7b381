"""The record a reader yields (a puzzle, or the error that stopped it), the format names,
and what every reader shares: the rules cache and the bounded excerpt of a long line."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from ..errors import ParseError
from ..geometry import Shape
from ..grid import Grid
from ..gridtext import DEFAULT_ALPHABET, Alphabet
from ..puzzle import Puzzle
from ..rules import RuleSet

FORMATS = (
    "auto",
    "line",
    "block",
    "csv",
    "json",
    "jsonl",
    "fpuzzles",
    "sudokupad",
    "iss",
    "pencilmark",
    "pmgrid",
)
WRITABLE_FORMATS = ("line", "block", "csv", "json", "jsonl", "iss", "pencilmark", "pmgrid")


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


#: Characters of a long line kept in a malformed record and its error (a bounded excerpt).
_EXCERPT = 200


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


def one_puzzle_a_line(
    content: Iterable[tuple[int, str]],
    name: str,
    variants: Sequence[str],
    parse: Callable[[str], tuple[Puzzle, Grid | None]],
    label: str,
    errors: tuple[type[BaseException], ...],
) -> Iterator[Record]:
    """One record per content line of a format that names its own rules (f-puzzles,
    SudokuPad): ``parse(text)`` gives the puzzle and its solution; an error of ``errors``
    is a record whose ParseError says ``label: message`` at the line's first column.
    Blank and ``#`` lines are skipped; ``variants`` are refused (a record each)."""
    for lineno, raw in content:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            if variants:
                raise ValueError(f"{label} puzzles name their own rules; drop --variant")
            puzzle, solution = parse(text)
        except errors as exc:
            err = ParseError(f"{label}: {exc}", source=name, line=lineno, column=1, text=text[:120])
            yield Record(name, lineno, text, None, err)
            continue
        yield Record(name, lineno, text, puzzle, None, "", solution)
