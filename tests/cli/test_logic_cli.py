"""`sudoku explain`, `sudoku hint`, `sudoku rate` through a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

from sudoku_model import Puzzle
from sudoku_model.grid import Grid

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def sudoku(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_explain_prints_numbered_steps_and_a_verdict():
    out = sudoku("explain", TOP95_1)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].lstrip().startswith("1. ")
    assert any("locked candidates" in ln for ln in lines)
    assert lines[-1].startswith("unique: solved by logic") and "level medium" in lines[-1]
    assert any("r" in ln and "c" in ln for ln in lines[:-1])


def test_explain_json_steps_replay_to_the_solution():
    out = sudoku("explain", "--json", TOP95_1)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    steps, summary = rows[:-1], rows[-1]
    assert summary["verdict"] == "unique" and summary["level"] == "medium"
    values = list(Puzzle.parse(TOP95_1).givens.values)
    for step in steps:
        for name, digit in step["placements"]:
            r, c = name[1:].split("c")
            values[(int(r) - 1) * 9 + int(c) - 1] = digit
    assert Grid.parse(summary["solution"]).values == tuple(values)
    assert sum(summary["techniques"].values()) == len(steps)


def test_explain_reports_multiple_and_unsolvable_with_exit_1():
    out = sudoku("explain", "." * 16)
    assert out.returncode == 1 and out.stdout.splitlines()[-1].startswith("multiple")
    out = sudoku("explain", "1.3..4.2.1.4..2.")
    assert out.returncode == 1 and "unsolvable" in out.stdout


def test_explain_reports_search_with_singles_only():
    out = sudoku("explain", "--techniques", "naked_single,hidden_single", TOP95_1)
    assert out.returncode == 0
    assert "guesses" in out.stdout.splitlines()[-1] and "level extreme" in out.stdout


def test_hint_gives_the_easiest_next_step():
    out = sudoku("hint", EASY)
    assert out.returncode == 0 and out.stdout.startswith(("naked single", "hidden single"))
    assert len(out.stdout.strip().splitlines()) == 1
    out = sudoku("hint", "--json", EASY)
    step = json.loads(out.stdout)
    assert step["technique"] in ("naked_single", "hidden_single") and len(step["placements"]) == 1


def test_hint_on_stalled_complete_and_bad_puzzles():
    assert sudoku("hint", "--techniques", "naked_single", TOP95_1).returncode == 1
    assert sudoku("hint", "1234341221434321").stdout.startswith("complete")
    out = sudoku("hint", "11..............")
    assert out.returncode == 1 and out.stdout.startswith("contradictory")
    out = sudoku("hint", "12x4")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    out = sudoku("hint", "--techniques", "telepathy", EASY)
    assert out.returncode == 2 and "unknown technique" in out.stderr


def test_rate_writes_one_json_row_per_puzzle(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(f"{EASY}\n{TOP95_1}\n{'.' * 81}\nnot a puzzle\n")
    dest = tmp_path / "out.jsonl"
    out = sudoku("rate", str(src), "--output", str(dest))
    assert out.returncode == 2  # one malformed line, still reported in the output
    rows = [json.loads(ln) for ln in dest.read_text().splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["level"] == "easy" and rows[0]["verdict"] == "unique"
    assert rows[1]["level"] == "medium" and rows[1]["hardest"] == "locked_pointing"
    assert rows[2]["verdict"] == "multiple" and rows[2]["level"] is None
    assert rows[3]["verdict"] == "malformed"
    for key in ("source", "puzzle", "score", "techniques", "guesses", "seconds"):
        assert key in rows[0]
    assert "rated 4 puzzles" in out.stderr


def test_rate_in_parallel_matches_serial():
    serial = sudoku("rate", "bundled:hardest")
    parallel = sudoku("rate", "bundled:hardest", "--jobs", "2")
    assert serial.returncode == parallel.returncode == 0

    def strip(text: str) -> list[dict]:
        rows = [json.loads(ln) for ln in text.splitlines()]
        for r in rows:
            r.pop("seconds")
        return rows

    assert strip(serial.stdout) == strip(parallel.stdout)
    assert len(strip(serial.stdout)) == 11
