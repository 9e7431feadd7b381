"""``sudoku canon``, ``dedup`` and ``same``: through a real subprocess for the exit codes and
messages, in-process (``main``) for the 17-clue list, which must give 49,158 classes as read
and again after a random transformation of every puzzle and a shuffle of the lines."""

from __future__ import annotations

import gzip
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_model.canon import Transform, canonical
from sudoku_model.cli import main
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TOP95_1_MINLEX = "........1.....1.23..4.5..........5.....6..74.38............2.....7...6...1...8..."
TOP95_2 = "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."


def sudoku(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def random_transform(rng: random.Random) -> Transform:
    def perm() -> tuple[int, ...]:
        groups = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
        rng.shuffle(groups)
        for g in groups:
            rng.shuffle(g)
        return tuple(x for g in groups for x in g)

    digits = list(range(1, 10))
    rng.shuffle(digits)
    return Transform(rng.random() < 0.5, perm(), perm(), (0, *digits))


def test_canon_prints_form_and_automorphisms(tmp_path: Path) -> None:
    out = sudoku("canon", TOP95_1)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"{TOP95_1_MINLEX} 1\n"
    empty = sudoku("canon", "." * 81)
    assert empty.stdout == f"{'.' * 81} 3359232\n"


def test_canon_grid_uses_the_backend_and_says_no_for_multiple(tmp_path: Path) -> None:
    out = sudoku("canon", "--grid", TOP95_1)
    assert out.returncode == 0, out.stderr
    line, count = out.stdout.split()
    assert line.startswith("123456789") and count == "1"
    many = sudoku("canon", "--grid", "." * 80 + "1")
    assert many.returncode == 1
    assert many.stdout.strip() == "multiple"


def test_canon_bad_input_is_located_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(TOP95_1 + "\n" + TOP95_1[:40] + "x" + TOP95_1[41:] + "\n")
    out = sudoku("canon", str(bad))
    assert out.returncode == 2
    assert out.stdout == f"{TOP95_1_MINLEX} 1\n"
    assert f"{bad}:2:" in out.stderr and "Traceback" not in out.stderr
    refused = sudoku("canon", "--variant", "diagonal", TOP95_1)
    assert refused.returncode == 2 and "diagonal" in refused.stderr


def test_same_answers_with_a_transformation() -> None:
    rng = random.Random(3)
    moved = random_transform(rng).apply(Grid.parse(TOP95_1)).to_line()
    out = sudoku("same", TOP95_1, moved)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("same: transpose=")
    no = sudoku("same", TOP95_1, TOP95_2)
    assert no.returncode == 1 and no.stdout.strip() == "different"
    bad = sudoku("same", TOP95_1, TOP95_2[:80])
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_dedup_groups_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(5)
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    moved = [random_transform(rng).apply(Grid.parse(TOP95_1)).to_line() for _ in range(3)]
    a.write_text(f"{TOP95_1}\n{TOP95_2}\n")
    b.write_text("\n".join([*moved, TOP95_2]) + "\n")
    rep = tmp_path / "rep.tsv"
    out = tmp_path / "out.txt"
    assert main(["dedup", str(a), str(b), "-o", str(out), "--report", str(rep)]) == 0
    assert out.read_text().split() == [TOP95_1, TOP95_2]
    assert rep.read_text().splitlines() == [
        f"1\t{a}:1\tfirst",
        f"2\t{a}:2\tfirst",
        f"1\t{b}:1\tduplicate",
        f"1\t{b}:2\tduplicate",
        f"1\t{b}:3\tduplicate",
        f"2\t{b}:4\tduplicate",
    ]
    assert "6 puzzles, 2 classes, 4 duplicates, 0 malformed" in capsys.readouterr().err


def test_dedup_unwritable_report_is_refused_before_reading(tmp_path: Path) -> None:
    out = sudoku("dedup", "bundled:top95", "--report", str(tmp_path / "no" / "rep"))
    assert out.returncode == 2 and "does not exist" in out.stderr
    assert out.stdout == ""


def seventeen() -> list[str]:
    with gzip.open(bundled_path("17-clue"), "rt") as f:
        return [x.strip() for x in f if x.strip() and not x.startswith("#")]


@pytest.mark.slow
def test_17_clue_list_is_49158_classes_also_transformed_and_shuffled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.txt"
    assert main(["dedup", "bundled:17-clue", "-o", str(out)]) == 0
    assert "49158 puzzles, 49158 classes, 0 duplicates" in capsys.readouterr().err
    rng = random.Random(17)
    shape = Shape(3, 3)
    lines = [random_transform(rng).apply(Grid.parse(x, shape=shape)).to_line() for x in seventeen()]
    rng.shuffle(lines)
    moved = tmp_path / "moved.txt"
    moved.write_text("\n".join(lines) + "\n")
    both = tmp_path / "both.txt"
    assert main(["dedup", str(moved), str(out), "-o", str(both)]) == 0
    assert "98316 puzzles, 49158 classes, 49158 duplicates" in capsys.readouterr().err
    # one representative per class: the transformed puzzles, read first, pairwise inequivalent
    reps = both.read_text().split()
    assert len(reps) == 49158
    assert reps[:100] == lines[:100]
    assert len({canonical(Grid.parse(x)).grid for x in reps[:200]}) == 200


def test_a_budget_ends_each_command_on_a_sparse_16x16(tmp_path: Path, capsys) -> None:
    sparse = "1" + "." * 255
    assert main(["canon", sparse, "--budget-nodes", "1000"]) == 1
    out = capsys.readouterr()
    assert out.out == "unknown\n" and "<argument>:1: no canonical form" in out.err
    assert main(["same", sparse, sparse, "--budget-nodes", "1000"]) == 1
    assert capsys.readouterr().out.startswith("unknown: ")
    source = tmp_path / "two.txt"
    source.write_text(sparse + "\n" + TOP95_1 + "\n")
    rep, reps = tmp_path / "rep.txt", tmp_path / "reps.txt"
    code = main(
        ["dedup", str(source), "-o", str(reps), "--report", str(rep), "--budget-nodes", "1000"]
    )
    assert code == 1
    assert reps.read_text().splitlines()[0] == sparse  # kept, never dropped unproven
    assert len(reps.read_text().splitlines()) == 2
    assert rep.read_text().splitlines() == [f"?\t{source}:1\tunknown", f"1\t{source}:2\tfirst"]
    assert "1 undecided" in capsys.readouterr().err


# -- verify --canonical ----------------------------------------------------------------------
def verify_records(*args: str, code: int = 0) -> list[dict[str, object]]:
    import json

    out = sudoku("verify", "-q", *args)
    assert out.returncode == code, out.stderr
    return [json.loads(x) for x in out.stdout.splitlines()]


def test_verify_canonical_field_is_canon_s_answer(tmp_path: Path) -> None:
    from sudoku_model.records import check_record

    lines = seventeen()[:6] + [TOP95_1, TOP95_2]
    source = tmp_path / "p.txt"
    # a malformed line in the middle: its record has no canonical field
    source.write_text("\n".join(lines[:3] + ["12x"] + lines[3:]) + "\n")
    canon_out = sudoku("canon", str(source))
    assert canon_out.returncode == 2 and "p.txt:4:" in canon_out.stderr
    want = [x.split()[0] for x in canon_out.stdout.splitlines()]
    assert len(want) == len(lines) and TOP95_1_MINLEX in want
    # the batch path (in-process) and the worker-process path (--minimal --jobs 2)
    for extra in ([], ["--minimal", "--jobs", "2", "--chunk-size", "3"]):
        records = verify_records(str(source), "--canonical", *extra, code=2)
        assert [r["canonical"] for r in records if "canonical" in r] == want
        malformed = [r for r in records if r["verdict"] == "malformed"]
        assert len(malformed) == 1 and "canonical" not in malformed[0]
        assert all(check_record(r) == [] for r in records)
    plain = verify_records(str(source), code=2)
    assert all("canonical" not in r for r in plain)


def test_verify_canonical_is_null_for_variants_and_a_spent_budget(tmp_path: Path) -> None:
    (record,) = verify_records(TOP95_1, "--canonical", "--variant", "diagonal", code=1)
    assert record["rules"] == {"box": [3, 3], "variants": ["diagonal"]}
    assert "canonical" in record and record["canonical"] is None
    # a one-clue 16x16: the exact Python search cannot finish within 1,000 nodes
    (sparse,) = verify_records("1" + "." * 255, "--canonical", "--budget-nodes", "1000", code=1)
    assert sparse["canonical"] is None
    (small,) = verify_records("1..............2", "--canonical", code=1)
    assert small["canonical"] == ".......1.....2.."


def test_verify_canonical_in_csv(tmp_path: Path) -> None:
    import csv

    out = tmp_path / "out.csv"
    run = sudoku("verify", "-q", TOP95_1, "--canonical", "-o", str(out))
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(out.open()))
    assert rows[0]["canonical"] == TOP95_1_MINLEX
