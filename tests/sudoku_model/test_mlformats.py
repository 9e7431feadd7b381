"""The four ML layouts (issue 20 item 3): written by :mod:`sudoku_model.mlformats`, read back
by :func:`sudoku_model.formats.iter_records` with the puzzle, the solution and the label
columns, whatever the file is called."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudoku_model import Puzzle, get_backend
from sudoku_model.formats import iter_records
from sudoku_model.mlformats import LAYOUTS, LayoutRow, layout_fields, write_layout

PUZZLES = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
]


def rows() -> list[LayoutRow]:
    out = []
    for k, text in enumerate(PUZZLES):
        puzzle = Puzzle.parse(text)
        solution = get_backend("native").solve(puzzle).solution
        assert solution is not None
        out.append(
            LayoutRow(
                puzzle.givens, solution, source="top95", rating=7 + k, id=f"p{k}", difficulty="hard"
            )
        )
    return out


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", ["data.csv", "data.txt", "data"])
def test_every_layout_reads_back_under_any_name(tmp_path: Path, layout: str, name: str) -> None:
    path = tmp_path / name
    with open(path, "w") as out:
        assert write_layout(rows(), layout, out) == 2
    records = list(iter_records(path))
    assert [r.error for r in records] == [None, None]
    for rec, row in zip(records, rows()):
        assert rec.puzzle is not None and rec.puzzle.givens == row.puzzle
        assert rec.solution == row.solution
        extra = dict(rec.extra or {})
        roles = LAYOUTS[layout].roles
        if "rating" in roles:
            assert extra["rating"] == str(row.rating) and extra["source"] == "top95"
        if "difficulty" in roles:
            assert extra["id"] == row.id and extra["clues"] == str(row.puzzle.clues)
            assert extra["difficulty"] == "hard"


def test_blanks_and_headers_are_the_published_ones() -> None:
    row = rows()[0]
    assert layout_fields("quiz-answer", row)[0].startswith("400000805")
    assert layout_fields("quizzes-solutions", row)[0].startswith("400000805")
    assert layout_fields("source-question-answer-rating", row)[1].startswith("4.....8.5")
    out = io.StringIO()
    write_layout([row], "id-puzzle-solution-clues-difficulty", out)
    assert out.getvalue().splitlines()[0] == "id,puzzle,solution,clues,difficulty"
    with pytest.raises(ValueError, match="unknown layout"):
        layout_fields("kaggle", row)


def test_a_line_file_with_a_trailing_grid_carries_its_solution() -> None:
    row = rows()[0]
    line = f"{row.puzzle.to_line()} {row.solution.to_line()}"
    (rec,) = iter_records([line])
    assert rec.solution == row.solution
    # a trailing grid with blanks, or of another size, stays a comment
    (rec,) = iter_records([f"{row.puzzle.to_line()} {row.puzzle.to_line()}"])
    assert rec.solution is None and rec.comment == row.puzzle.to_line()
    (rec,) = iter_records([f"{row.puzzle.to_line()} 1234341221434321"])
    assert rec.solution is None
