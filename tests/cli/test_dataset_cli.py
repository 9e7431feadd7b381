"""``sudoku dataset build|check`` and ``sudoku convert --to LAYOUT`` (issue 20 items 2-3):
exit codes, messages and what lands on disk."""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_model import Puzzle
from sudoku_model.cli import main
from sudoku_model.dataset import random_transform
from sudoku_model.geometry import Shape
from sudoku_model.mlformats import LAYOUTS

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dataset_faults import plant  # noqa: E402


def sudoku(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_build_then_check_through_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    built = sudoku("dataset", "build", str(out), "-n", "30", "--seed", "3", "--stratify", "clues")
    assert built.returncode == 0, built.stderr
    assert "wrote" in built.stderr and "30 puzzles" in built.stderr
    assert {p.name for p in out.iterdir()} == {
        "manifest.json",
        *(f"{s}{x}" for s in ("train", "validation", "test") for x in (".csv", ".labels.csv")),
    }
    checked = sudoku("dataset", "check", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("ok:")


def test_check_fails_with_the_three_planted_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layout = "id-puzzle-solution-clues-difficulty"
    assert main(["dataset", "build", str(tmp_path), "-n", "40", "--seed", "8", "-q",
                 "--layout", layout, "--no-levels"]) == 0  # fmt: skip
    plant(tmp_path, layout)
    capsys.readouterr()
    assert main(["dataset", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    summary = out.splitlines()[-1]
    assert summary.startswith("FAILED:")
    for reason in ("wrong-answer 1", "not-unique 1", "cross-split 1"):
        assert reason in summary
    assert "train.csv:2: wrong-answer:" in out and "test.csv:2: cross-split:" in out


def test_check_of_a_malformed_file_exits_2_with_file_line_col(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "build", str(tmp_path), "-n", "12", "--seed", "1", "-q"]) == 0
    lines = (tmp_path / "train.csv").read_text().splitlines()
    lines[1] = "12x" + lines[1][3:]
    (tmp_path / "train.csv").write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["dataset", "check", str(tmp_path)]) == 2
    assert f"{tmp_path / 'train.csv'}:2:3:" in capsys.readouterr().err
    (tmp_path / "manifest.json").write_text("{")
    assert main(["dataset", "check", str(tmp_path)]) == 2
    assert "manifest.json:1:2: invalid JSON" in capsys.readouterr().err
    assert main(["dataset", "check", str(tmp_path / "nothing")]) == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-n", "3", "--split", "0.5,0.5"], "--split"),
        (["-n", "3", "--split", "0.5,0.6,-0.1"], "--split"),
        ([], "-n N (generate) or --from FILE"),
        (["--unbiased", "--from", "x.txt"], "--unbiased"),
        (["-n", "-1"], "--count"),
        (["-n", "3", "--backend", "nosuch"], "nosuch"),
    ],
)
def test_build_refuses_bad_options_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["dataset", "build", str(tmp_path / "ds"), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "ds").exists()


def test_build_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["dataset", "build", str(tmp_path), "-n", "2", "--seed", "1", "-q"]) == 2
    assert main(["dataset"]) == 2
    assert main(["dataset", "build", str(tmp_path), "-n", "2", "-q", "--overwrite"]) == 0


def test_build_from_files_drops_bad_puzzles_and_keeps_isomorphs_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(4)
    puzzle = Puzzle.parse(HARD)
    copies = [random_transform(Shape(3, 3), rng).apply(puzzle.givens).to_line() for _ in range(6)]
    src = tmp_path / "in.txt"
    lines = [
        HARD,
        *copies,
        "." * 81,
        "12x" + "." * 78,
        HARD + " " + SOLUTION[1] + SOLUTION[0] + SOLUTION[2:],
    ]
    lines += ["52...6.........7.13...........4..8..6......5...........418.........3..2...87....."]
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "ds"
    code = main(["dataset", "build", str(out), "--from", str(src), "--seed", "2",
                 "--split", "0.4,0.3,0.3"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2  # the malformed line is an input error; the data set is still written
    assert f"{src}:9:3:" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["count"] == 8
    assert manifest["dropped"] == {"multiple": 1, "wrong-solution": 1}
    homes = [name for name, s in manifest["splits"].items() if s["classes"] and s["count"] >= 7]
    assert len(homes) == 1  # the seven equivalent puzzles share one split
    assert main(["dataset", "check", str(out)]) == 0


def test_unbiased_build_writes_weights(tmp_path: Path) -> None:
    argv = ["dataset", "build", str(tmp_path), "-n", "10", "--unbiased", "--seed", "1", "-q"]
    assert main([*argv, "--layout", "quizzes-solutions", "--no-levels"]) == 0
    with open(tmp_path / "train.labels.csv") as f:
        header = next(csv.reader(f))
    assert header[-1] == "log_weight"
    assert json.loads((tmp_path / "manifest.json").read_text())["source"]["kind"] == "unbiased"
    assert main(["dataset", "check", str(tmp_path)]) == 0


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_convert_writes_every_layout_and_verify_reads_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str
) -> None:
    out = tmp_path / "top95"  # no extension: the layout is read from the content
    assert main(["convert", "bundled:top95", "--to", layout, "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out), "-o", str(tmp_path / "v.jsonl")]) == 0
    records = [json.loads(line) for line in (tmp_path / "v.jsonl").read_text().splitlines()]
    assert len(records) == 95
    assert {r["published_solution"] for r in records} == {"matches"}


def test_convert_keeps_label_columns_and_skips_puzzles_without_an_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.csv"
    src.write_text(f"source,question,answer,rating\nmine,{HARD},{SOLUTION},41\nmine,{'.' * 81},,\n")
    out = tmp_path / "out.csv"
    assert main(["convert", str(src), "--to", "source-question-answer-rating", "-o", str(out)]) == 1
    assert "in.csv:3: multiple: no answer to write" in capsys.readouterr().err
    assert out.read_text().splitlines()[1:] == [f"mine,{HARD},{SOLUTION},41"]


def test_check_names_the_edited_row_not_its_label_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the user edits a puzzle of train.csv: the mismatch is reported at train.csv:2, the
    # line changed, with its label row named in the detail; an edited label row the other
    # way round
    assert main(["dataset", "build", str(tmp_path), "-n", "12", "--seed", "1", "-q"]) == 0
    lines = (tmp_path / "train.csv").read_text().splitlines()
    quiz, answer = lines[1].split(",")
    k = next(i for i, ch in enumerate(quiz) if ch not in ".0")
    lines[1] = f"{quiz[:k]}.{quiz[k + 1 :]},{answer}"  # one clue removed
    (tmp_path / "train.csv").write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["dataset", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    mismatch = [ln for ln in out.splitlines() if "label-mismatch" in ln]
    assert mismatch and mismatch[0].startswith(f"{tmp_path / 'train.csv'}:2: label-mismatch:")
    # quiz-answer files have no header, the labels file has one: its row 3
    assert f"{tmp_path / 'train.labels.csv'}:3 " in mismatch[0]
    assert "changed after the build" in mismatch[0]
