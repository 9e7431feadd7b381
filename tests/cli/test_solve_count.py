"""`sudoku solve` and `sudoku count`: outputs, JSON records, malformed input, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle
from sudoku_model.cli import main
from sudoku_model.data import bundled_path

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_solve_one_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", HARD]) == 0
    out = capsys.readouterr().out.split()
    assert len(out) == 1 and Puzzle.parse(HARD).is_solution(Grid.parse(out[0]))


def test_solve_block_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", HARD, "--output", "block"]) == 0
    out = capsys.readouterr().out
    assert Puzzle.parse(HARD).is_solution(Grid.parse(out))
    assert len(out.strip().splitlines()) > 9  # rows plus separators


def test_solve_file_line_per_puzzle_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "p.txt"
    f.write_text("1.3..4.2.1.4..2.\n12x4\n11..............\n1...............\n")
    assert main(["solve", str(f)]) == 2
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    # one output line per input line, the malformed one included (issue 13 item 22)
    assert len(out) == 4
    assert out[0] == "unsolvable" and out[2] == "contradictory"
    assert out[1].startswith(f"malformed: {f}:2:") and "\n" not in out[1]
    assert Puzzle.parse("1" + "." * 15).is_solution(Grid.parse(out[3]))
    assert f"{f}:2:" in captured.err


def test_solve_exit_1_when_unsolved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "1.3..4.2.1.4..2."]) == 1


def test_count_counts_43_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "bundled:counts-43", "--limit", "1000", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [line.split(":") for line in bundled_path("counts-43").read_text().split()]
    assert len(records) == len(expected) == 43
    for rec, exp in zip(records, expected):
        assert rec["puzzle"] == exp[0]
        assert rec["count"] == int(exp[1]) and rec["complete"] is True
        assert len(rec["solutions"]) == int(exp[1])
        if len(exp) > 2:
            assert rec["solutions"] == [exp[2]] and rec["verdict"] == "unique"
        assert {"source", "line", "seconds", "stats"} <= set(rec)
        assert rec["verdict"] in {"unique", "multiple", "unsolvable"}


def test_count_text_and_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "." * 16, "--limit", "1000"]) == 0
    assert capsys.readouterr().out.strip() == "288 multiple"
    assert main(["count", "." * 16, "--limit", "5"]) == 0
    assert capsys.readouterr().out.strip() == "5+ multiple"


def test_count_budget_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    lines = bundled_path("forum-hardest-1106").read_text().splitlines()
    hard = next(ln for ln in lines if ln and not ln.startswith("#"))
    assert main(["count", hard, "--limit", "2", "--budget-nodes", "1", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["verdict"] == "unknown" and rec["complete"] is False
    assert main(["count", "." * 81, "--limit", "1000000000", "--budget-seconds", "0.1"]) == 0
    out = capsys.readouterr().out.split()
    assert out[0].endswith("+") and out[1] == "multiple"


def test_count_malformed_keeps_going(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text("................\nabc\n1...............\n")
    assert main(["count", str(f), "--limit", "1000"]) == 2
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[0] == "288 multiple" and out[2] == "72 multiple"
    assert out[1].startswith(f"malformed: {f}:2:") and len(out) == 3
    assert f"{f}:2:" in captured.err
    assert main(["count", str(f), "--limit", "1000", "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in records] == ["multiple", "malformed", "multiple"]
    assert records[1]["line"] == 2 and records[1]["error"]["line"] == 2
    assert main(["count", str(f), "--limit", "0"]) == 2
