"""`sudoku rate --scale se` through a real subprocess: records of the one
schema with ER/EP/ED, SE's steps, the rater's name and version, the level from ER."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sudoku_model.cli.rate import level_from_er
from sudoku_model.records import check_record
from sudoku_model.se import RATER_NAME, RATER_VERSION

# SukakuExplainer rates this one 5.5, a WXYZ-wing (se-rated-2000, public domain).
SE_55 = "005010004070004080000600000050020701204109508107040020000005000040700030600080900"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def sudoku(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_rate_se_writes_er_ep_ed_steps_and_rater(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text(f"{SE_55}\n{EASY}\n")
    out = sudoku("rate", str(src), "--scale", "se")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [check_record(r) for r in rows] == [[], []]
    hard, easy = rows
    assert hard["er"] == 5.5 and hard["se_status"] == "rated" and hard["level"] == "expert"
    assert hard["ed"] <= hard["ep"] <= hard["er"]
    assert hard["rater"] == RATER_NAME and hard["rater_version"] == RATER_VERSION
    assert max(s["rating"] for s in hard["se_steps"]) == 5.5
    assert hard["hardest"] == "WXYZ-Wing"
    assert all("technique" in s for s in hard["se_steps"])
    assert easy["er"] <= 2.0 and easy["level"] in ("easy", "medium")
    assert "SE scale" in out.stderr


def test_rate_se_budget_no_steps_and_bad_input(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text(f"{SE_55}\n12x\n{'0' * 81}\n")
    out = sudoku("rate", str(src), "--scale", "se", "--no-steps", "--budget-seconds", "0")
    assert out.returncode == 2  # a malformed record is an input error
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [check_record(r) for r in rows] == [[], [], []]
    budget, bad, empty = rows
    assert budget["se_status"] == "budget" and budget["er"] is None and "er_above" in budget
    assert "se_steps" not in budget
    assert bad["verdict"] == "malformed"
    assert empty["verdict"] == "multiple" and empty["er"] is None


def test_rate_se_refuses_options_of_the_other_scale() -> None:
    out = sudoku("rate", "-", "--scale", "se", "--techniques", "naked_single", stdin=EASY)
    assert out.returncode == 2 and "--techniques" in out.stderr
    out = sudoku("rate", "-", "--no-steps", stdin=EASY)
    assert out.returncode == 2 and "--scale se" in out.stderr


def test_levels_from_er_bands() -> None:
    assert level_from_er(1.2) == "easy"
    assert level_from_er(1.5) == "easy"
    assert level_from_er(2.3) == "medium"
    assert level_from_er(4.4) == "hard"
    assert level_from_er(5.6) == "expert"
    assert level_from_er(6.5) == "extreme"
    assert level_from_er(None, 9.0) == "extreme"
    assert level_from_er(None, 5.0) is None


def test_explain_se_prints_se_steps_in_se_order_then_er_ep_ed() -> None:
    from sudoku_model.se import rate_se

    r = rate_se([int(ch) for ch in SE_55])
    out = sudoku("explain", SE_55, "--scale", "se")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # The steps are the rater's, in its order, each with SE's rating.
    assert [ln.split(". ", 1)[1] for ln in lines[:-1]] == [s.describe() for s in r.steps]
    assert lines[0].startswith(" 1. ") and "(1.2)" in lines[0]
    assert lines[-1].startswith("unique: ER 5.5, EP 1.2, ED 1.2")
    assert f"{RATER_NAME} {RATER_VERSION}" in lines[-1]
    out = sudoku("explain", SE_55, "--scale", "se", "--json")
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [row["step"] for row in rows[:-1]] == list(range(1, len(r.steps) + 1))
    assert max(row["rating"] for row in rows[:-1]) == 5.5
    assert rows[-1]["er"] == 5.5 and rows[-1]["verdict"] == "unique"
    assert rows[-1]["rater_version"] == RATER_VERSION


def test_hint_se_is_the_first_step_se_takes() -> None:
    from sudoku_model.se import next_step, rate_se

    values = [int(ch) for ch in SE_55]
    first = rate_se(values).steps[0]
    assert next_step(values) == first
    out = sudoku("hint", SE_55, "--scale", "se")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == first.describe()
    out = sudoku("hint", SE_55, "--scale", "se", "--json")
    assert json.loads(out.stdout) == first.to_json()


def test_explain_and_hint_se_refuse_what_se_cannot_rate() -> None:
    several = "0" * 81
    for command in ("explain", "hint"):
        out = sudoku(command, several, "--scale", "se")
        assert out.returncode == 1 and out.stdout.startswith("multiple"), out
        out = sudoku(command, SE_55, "--scale", "se", "--techniques", "naked_single")
        assert out.returncode == 2 and "--techniques" in out.stderr
        assert "Traceback" not in out.stderr
    out = sudoku("explain", SE_55, "--scale", "se", "--budget-seconds", "0")
    assert out.returncode == 1 and out.stdout.startswith("unknown: budget spent")
    out = sudoku("explain", "12x", "--scale", "se")
    assert out.returncode == 2 and "Traceback" not in out.stderr


FILLED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_explain_se_of_a_filled_grid_says_it_is_complete() -> None:
    out = sudoku("explain", FILLED, "--scale", "se")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("complete: every cell is filled, no step to rate (ER 0.0)")
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    # A filled grid among others: every summary line is written, none crashes.
    out = sudoku("explain", "-", "--scale", "se", stdin=f"{FILLED}\n{SE_55}\n")
    assert out.returncode == 0, out.stderr
    assert "complete: every cell is filled" in out.stdout
    assert "unique: ER 5.5, EP 1.2, ED 1.2" in out.stdout


def test_rate_se_refuses_variants_and_other_shapes_with_exit_2(tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text(f"{SE_55}\n")
    for options in (["--variant", "diagonal"], ["--size", "6"], ["--box", "2x2"]):
        out = sudoku("rate", str(src), "--scale", "se", *options)
        assert out.returncode == 2, (options, out)
        assert "classic 9x9 puzzles only" in out.stderr and out.stdout == ""
        out = sudoku("explain", SE_55, "--scale", "se", *options)
        assert out.returncode == 2 and "classic 9x9 puzzles only" in out.stderr
    # A puzzle of another kind inside the file: its record says so, and the run is an
    # input error (exit 2) naming the line, while the other puzzles are rated.
    src.write_text(f"{SE_55}\n{'.' * 16}\n")
    out = sudoku("rate", str(src), "--scale", "se", "--no-steps")
    assert out.returncode == 2, out
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [r.get("se_status") for r in rows] == ["rated", "unsupported"]
    assert f"{src}:2: --scale se rates classic 9x9 puzzles only" in out.stderr


def test_pencilmark_puzzles_get_sukakuexplainers_ratings(tmp_path: Path) -> None:
    """A file of 729-character lines rates as SukakuExplainer rates them
    (tests/data/se-pencilmark-120.txt), and one such line is read as a literal too."""
    from tests.datafiles import data_file

    rows = [
        ln.split()
        for ln in data_file("se-pencilmark-120.txt").read_text().splitlines()
        if ln and not ln.startswith("#")
    ][:4]
    src = tmp_path / "pm.txt"
    src.write_text("".join(f"{line}\n" for line, _ in rows))
    out = sudoku("rate", str(src), "--scale", "se", "--no-steps")
    assert out.returncode == 0, out.stderr
    got = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [f"{r['er']}/{r['ep']}/{r['ed']}" for r in got] == [rating for _, rating in rows]
    line, rating = rows[1]
    out = sudoku("explain", line, "--scale", "se")
    assert out.returncode == 0, out.stderr
    er, ep, ed = rating.split("/")
    assert f"ER {er}, EP {ep}, ED {ed}" in out.stdout
    out = sudoku("hint", line, "--scale", "se")
    assert out.returncode == 0 and out.stdout.strip(), out.stderr
