"""The four CSV layouts that machine-learning work on Sudoku uses, as writers.

Papers and benchmarks read fixed CSV layouts; each is named here by its columns:

========================================  =======  ====================================
layout                                    blanks   columns
========================================  =======  ====================================
``quiz-answer``                           ``0``    no header: the puzzle, the solution
``source-question-answer-rating``         ``.``    ``source,question,answer,rating``
``quizzes-solutions``                     ``0``    ``quizzes,solutions``
``id-puzzle-solution-clues-difficulty``   ``.``    ``id,puzzle,solution,clues,difficulty``
========================================  =======  ====================================

``rating`` is a backtrack count (this toolkit writes the one of
:func:`sudoku_model.dataset.backtrack_count`); ``difficulty`` is a level word of the logic
grader (``easy`` .. ``extreme``). Reading needs nothing from here:
:func:`sudoku_model.formats.iter_records` reads every layout (the header names the puzzle
and solution columns; the other columns land in ``Record.extra``; a headerless file is
puzzle then solution).

>>> from sudoku_model import Grid
>>> import io
>>> out = io.StringIO()
>>> row = LayoutRow(Grid.parse("1.3..4.2.1.3..2."), Grid.parse("1234341221434321"), clues=8)
>>> write_layout([row], "quiz-answer", out)
1
>>> out.getvalue()
'1030040201030020,1234341221434321\\n'
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from .grid import Grid

__all__ = ["LAYOUTS", "Layout", "LayoutRow", "layout_fields", "write_layout"]


@dataclass(frozen=True)
class Layout:
    """A CSV layout: its ``header`` (None: headerless), the role of each column
    (``puzzle``, ``solution``, ``source``, ``rating``, ``id``, ``clues``, ``difficulty``)
    and the symbol written for an empty cell."""

    name: str
    header: tuple[str, ...] | None
    roles: tuple[str, ...]
    blank: str


LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        Layout("quiz-answer", None, ("puzzle", "solution"), "0"),
        Layout(
            "source-question-answer-rating",
            ("source", "question", "answer", "rating"),
            ("source", "puzzle", "solution", "rating"),
            ".",
        ),
        Layout("quizzes-solutions", ("quizzes", "solutions"), ("puzzle", "solution"), "0"),
        Layout(
            "id-puzzle-solution-clues-difficulty",
            ("id", "puzzle", "solution", "clues", "difficulty"),
            ("id", "puzzle", "solution", "clues", "difficulty"),
            ".",
        ),
    )
}


@dataclass(frozen=True)
class LayoutRow:
    """What one row of any layout may hold; a layout writes the fields it has columns for
    (``rating`` None and ``difficulty`` None are written as empty fields)."""

    puzzle: Grid
    solution: Grid
    source: str = ""
    rating: int | None = None
    id: str = ""
    clues: int | None = None
    difficulty: str | None = None


def _layout(layout: str | Layout) -> Layout:
    if isinstance(layout, Layout):
        return layout
    try:
        return LAYOUTS[layout]
    except KeyError:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}") from None


def layout_fields(layout: str | Layout, row: LayoutRow) -> list[str]:
    """The CSV fields of ``row`` in ``layout``, in column order.

    Raises:
        ValueError: for an unknown layout name.
    """
    spec = _layout(layout)
    values = {
        "puzzle": row.puzzle.to_line(blank=spec.blank),
        "solution": row.solution.to_line(),
        "source": row.source,
        "rating": "" if row.rating is None else str(row.rating),
        "id": row.id,
        "clues": str(row.puzzle.clues if row.clues is None else row.clues),
        "difficulty": row.difficulty or "",
    }
    return [values[role] for role in spec.roles]


def write_layout(rows: Iterable[LayoutRow], layout: str | Layout, out: IO[str]) -> int:
    """Write ``rows`` in ``layout`` (its header first, when it has one); returns the
    number of rows written.

    Raises:
        ValueError: for an unknown layout name.
    """
    spec = _layout(layout)
    writer = csv.writer(out, lineterminator="\n")
    if spec.header is not None:
        writer.writerow(spec.header)
    count = 0
    for row in rows:
        writer.writerow(layout_fields(spec, row))
        count += 1
    return count
