"""Files as users have them: Project Euler's p096 file (a ``Grid NN`` title before each
block), CSV with ``;`` between fields, and one way to name inputs (``bundled:NAME``)
across the Python API and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_model import compare, formats
from sudoku_model.cli import main

P096 = """Grid 01
003020600
900305001
001806400
008102900
700000008
006708200
002609500
800203009
005010300
Grid 02
200080300
060070084
030500209
000105408
000000000
402706000
301007040
720040060
004010003
Grid 03
000000907
000420180
000705026
100904000
050000040
000507009
920108000
034059000
507000000
"""
TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_project_euler_titles_are_titles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p096_sudoku.txt"
    path.write_text(P096, encoding="utf-8")
    code, out, err = _run(["count", str(path), "--limit", "2"], capsys)
    assert code == 0 and err == "", err
    assert out.splitlines() == ["1 unique"] * 3
    records = list(formats.iter_records(path))
    assert [(r.line, r.ok) for r in records] == [(2, True), (12, True), (22, True)]
    # a line that is no title (no word) before a block is still reported
    path.write_text("12 34\n" + P096.split("\n", 1)[1], encoding="utf-8")
    assert [r.ok for r in formats.iter_records(path)][:2] == [False, True]


def test_semicolon_csv_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    solution = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    path = tmp_path / "puzzles.csv"
    path.write_text(f"id;puzzle;solution\n1;{TOP};{solution}\n2;{TOP};\n", encoding="utf-8")
    code, out, err = _run(["count", str(path)], capsys)
    assert code == 0 and out.splitlines() == ["1 unique"] * 2, err
    records = list(formats.iter_records(path))
    assert records[0].extra == {"id": "1"} and records[0].solution is not None
    # tabs too; a row that is neither header nor puzzle names the delimiter it was split at
    path.write_text(f"puzzle\tsolution\n{TOP}\t{solution}\n", encoding="utf-8")
    assert [r.ok for r in formats.iter_records(path)] == [True]
    path.write_text("what;ever\n" + TOP + "\n", encoding="utf-8")
    first = next(formats.iter_records(path))
    assert "separated by ';'" in str(first.error)


def test_bundled_names_work_in_the_api_and_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    api = list(formats.iter_records("bundled:top95"))
    assert len(api) == 95 and api[0].source == "bundled:top95"
    assert len(compare.load_puzzles("bundled:top95", first=3)) == 3
    code, out, _ = _run(["convert", "bundled:top95", "--to", "line"], capsys)
    assert code == 0 and out.splitlines()[0] == api[0].puzzle.givens.to_line()
    with pytest.raises(FileNotFoundError, match="no bundled collection 'nope'"):
        list(formats.iter_records("bundled:nope"))
    code, _, err = _run(["count", "bundled:nope"], capsys)
    assert code == 2 and "no bundled collection 'nope'" in err


def test_the_format_option_offers_every_reader():
    """--format names every input format of the readers, and no other."""
    from sudoku_model.cli.common import INPUT_FORMATS
    from sudoku_model.formats import FORMATS

    assert tuple(INPUT_FORMATS) == tuple(FORMATS)


def test_a_literal_puzzle_is_read_in_its_own_format(capsys: pytest.CaptureFixture[str]) -> None:
    """A puzzle given on the command line as a SudokuPad link, an ISS string or a
    729-character pencilmark line is read as such, not as a line of cells."""
    import json

    data = Path(__file__).resolve().parents[1] / "data"
    pad = json.loads((data / "sudokupad-vectors.json").read_text())
    iss = json.loads((data / "iss-examples.json").read_text())
    classic = next(e for e in iss if e["name"] == "Classic sudoku")
    pencil = (data / "se-pencilmark-120.txt").read_text().splitlines()[1].split()[0]
    cases = [
        ("https://sudokupad.app/" + pad["killer_scl"], pad["killer_solution"]),
        (classic["input"], classic["solution"]),
    ]
    for text, solution in cases:
        assert main(["solve", text]) == 0
        assert solution in capsys.readouterr().out
    assert main(["count", pencil, "--limit", "2"]) == 0
    assert capsys.readouterr().out.split() == ["1", "unique"]
