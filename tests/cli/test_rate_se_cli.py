"""`sudoku rate --scale se` (issue 17) through a real subprocess: records of the one
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
