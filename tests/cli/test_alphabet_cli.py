"""Output is written in the input's alphabet (issue 13 item 27): ``show`` kept turning 0-F
input into 1-9A-G while ``solve`` kept 0-F, and ``hint`` on 25x25 wrote ``= 21`` instead of
the grid's symbol."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, Shape
from sudoku_model.cli import main
from sudoku_model.cli.logic import _value_writer
from sudoku_model.grid import ALPHABETS
from sudoku_model.logic import tables_for
from sudoku_model.rules import RuleSet

PLACEMENT = re.compile(r"\br(\d+)c(\d+) = (\S+?):")


def _solved(size: int, capsys: pytest.CaptureFixture[str], alphabet: str = "1-9A-Z") -> str:
    """A full grid of the given size (solving the empty grid), written in ``alphabet``."""
    assert main(["solve", "." * size**2, "--output", "line", "--alphabet", alphabet]) == 0
    line = capsys.readouterr().out.strip()
    assert len(line) == size**2
    return line


def _puzzle_from(solution: str, size: int) -> str:
    """The solution with one cell blanked per row, in different columns: unique, and every
    blank a naked single."""
    blanks = {r * size + (r * 7) % size for r in range(size)}
    return "".join("." if i in blanks else ch for i, ch in enumerate(solution))


def _placements_match(text: str, solution: str, size: int) -> int:
    found = 0
    for row, col, symbol in PLACEMENT.findall(text):
        assert solution[(int(row) - 1) * size + int(col) - 1] == symbol, (row, col, symbol)
        found += 1
    return found


def test_16x16_in_0_to_F_stays_0_to_F(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    solution = _solved(16, capsys, "0-F")
    assert "0" in solution and "G" not in solution
    path = tmp_path / "hex.txt"
    path.write_text(_puzzle_from(solution, 16) + "\n")
    opts = ["--alphabet", "0-F"]

    assert main(["show", str(path), *opts]) == 0
    shown = capsys.readouterr().out
    cells = [ch for ln in shown.splitlines()[1:] for ch in ln if ch not in " |-+"]
    assert "G" not in cells and "0" in cells
    assert "".join(cells).replace(".", "") == _puzzle_from(solution, 16).replace(".", "")

    assert main(["solve", str(path), *opts]) == 0
    assert capsys.readouterr().out.strip() == solution

    assert main(["hint", str(path), *opts]) == 0
    assert _placements_match(capsys.readouterr().out, solution, 16) == 1

    assert main(["explain", str(path), *opts]) == 0
    out = capsys.readouterr().out
    assert _placements_match(out, solution, 16) == 16


def test_25x25_hint_and_explain_write_symbols(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solution = _solved(25, capsys)
    path = tmp_path / "p25.txt"
    path.write_text(_puzzle_from(solution, 25) + "\n")
    assert main(["hint", str(path)]) == 0
    assert _placements_match(capsys.readouterr().out, solution, 25) == 1
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert _placements_match(out, solution, 25) == 25
    # values above 9 are letters, never numbers such as "= 21"
    assert not re.search(r" = \d\d", out)


def test_value_writer_keeps_cell_and_unit_numbers() -> None:
    rules = RuleSet.build(Shape(4, 4))
    write = _value_writer(tables_for(rules), ALPHABETS["0-F"], 16)
    assert (
        write("hidden pair 11/12: in row 12 they fit only in r10c8, r12c3: remove 1 from r1c1")
        == "hidden pair A/B: in row 12 they fit only in r10c8, r12c3: remove 0 from r1c1"
    )
    assert write("in box 16, 16 can only go in r1c1") == "in box 16, F can only go in r1c1"
    plain = _value_writer(tables_for(RuleSet.build(Shape(3, 3))), ALPHABETS["1-9A-Z"], 9)
    text = "r1c1 = 5: the only place for 5 in column 3"
    assert plain(text) == text


def test_grid_parse_reads_what_solve_wrote(capsys: pytest.CaptureFixture[str]) -> None:
    solution = _solved(16, capsys, "0-F")
    grid = Grid.parse(solution, alphabet=ALPHABETS["0-F"])
    assert Puzzle(grid, RuleSet.build(Shape(4, 4))).is_solution(grid)
