"""``sudoku generate``: output checked by a different backend than the one that generated
it, seeds reproducible across --jobs, refusals with the reason, every output format."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, get_backend
from sudoku_model.cli import main
from sudoku_model.formats import iter_records
from sudoku_model.generate import is_symmetric


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["generate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def pysat():
    return get_backend("pysat")


@pytest.fixture(scope="module")
def native():
    return get_backend("native")


def records(text: str, **options):
    recs = list(iter_records(text.splitlines(), source="<out>", **options))
    assert all(r.error is None for r in recs), [str(r.error) for r in recs if r.error]
    return recs


def assert_unique_and_minimal(puzzle: Puzzle, checker) -> None:
    assert checker.count(puzzle, limit=2).count == 1
    for cell in puzzle.givens.filled_cells():
        smaller = puzzle.with_givens(puzzle.givens.without([cell]))
        assert checker.count(smaller, limit=2).count == 2


def test_lines_are_annotated_unique_and_minimal(capsys, pysat):
    code, out, err = run(capsys, "--seed", "1", "-n", "3", "-q")
    assert code == 0 and err == ""
    recs = records(out, fmt="line")
    assert len(recs) == 3
    for rec in recs:
        assert rec.comment.endswith(f"{rec.puzzle.clues} clues, minimal")
        assert_unique_and_minimal(rec.puzzle, pysat)


def test_pysat_output_checked_by_native(capsys, native):
    code, out, _ = run(capsys, "--seed", "2", "-n", "2", "--backend", "pysat", "--size", "6",
                       "--plain", "-q")
    assert code == 0
    recs = records(out, fmt="line")
    assert [r.comment for r in recs] == ["", ""]
    for rec in recs:
        assert rec.puzzle.shape == Shape(2, 3)
        assert_unique_and_minimal(rec.puzzle, native)


def test_sixteen_clues_refused_with_the_reason(capsys):
    code, out, err = run(capsys, "--clues", "16")
    assert code == 2 and out == ""
    assert "no 16-clue 9x9 puzzle is unique (McGuire et al. 2012)" in err


def test_seed_gives_the_same_output_whatever_jobs(capsys):
    args = ["--seed", "7", "-n", "8", "--symmetry", "rot180", "--solutions", "-q"]
    _, one, _ = run(capsys, *args, "--jobs", "1")
    _, two, _ = run(capsys, *args, "--jobs", "2")
    assert one == two and len(one.splitlines()) == 8


def test_without_seed_the_seed_is_printed_and_reproduces(capsys):
    code, out, err = run(capsys, "--size", "4")
    assert code == 0 and err.startswith("seed: ")
    seed = err.split()[1]
    _, again, _ = run(capsys, "--size", "4", "--seed", seed)
    assert again == out


def test_batch_summary_has_a_histogram_and_the_bias_note(capsys):
    code, out, err = run(capsys, "--seed", "3", "-n", "20", "--size", "4")
    assert code == 0
    assert "generated 20 puzzles with native (seed 3)" in err
    assert "clues  puzzles" in err and "24.4" in err and "26.6" in err
    hist = {int(line.split()[0]): int(line.split()[1]) for line in err.splitlines()
            if line.strip() and line.split()[0].isdigit()}
    assert sum(hist.values()) == 20
    assert hist == {k: sum(1 for r in records(out, fmt="line") if r.puzzle.clues == k)
                    for k in hist}


@pytest.mark.parametrize("fmt", ["line", "block", "csv", "json", "jsonl"])
def test_every_format_reads_back_with_solutions(capsys, fmt, pysat):
    code, out, _ = run(capsys, "--seed", "5", "-n", "2", "--size", "6", "--to", fmt,
                       "--solutions", "-q")
    assert code == 0
    recs = records(out, fmt=fmt)
    if fmt == "block":  # the solution follows its puzzle as a block of its own
        assert len(recs) == 4
        pairs = [(p.puzzle, s.puzzle.givens) for p, s in zip(recs[::2], recs[1::2])]
    elif fmt == "line":  # the solution is the first word after the cells
        pairs = [(r.puzzle, Grid.parse(r.comment.split()[0])) for r in recs]
    else:
        pairs = [(r.puzzle, r.solution) for r in recs]
    assert len(pairs) == 2
    for puzzle, solution in pairs:
        assert puzzle.is_solution(solution)
        assert pysat.check_unique(puzzle).solution == solution
    if fmt in ("json", "jsonl"):
        items = json.loads(out) if fmt == "json" else [json.loads(x) for x in out.splitlines()]
        assert all(item["minimal"] is True and item["clues"] >= 8 for item in items)
    if fmt == "csv":
        assert out.splitlines()[0] == "puzzle,solution,clues,minimal,seed"


def test_output_file_and_symmetry(capsys, tmp_path, pysat):
    target = tmp_path / "out.txt"
    code, out, _ = run(capsys, "--seed", "4", "-n", "3", "--symmetry", "mirror",
                       "-o", str(target), "-q")
    assert code == 0 and out == ""
    recs = records(target.read_text(), fmt="line")
    for rec in recs:
        assert is_symmetric(rec.puzzle.givens, "mirror")
        assert pysat.count(rec.puzzle, limit=2).count == 1


def test_pattern_file(capsys, tmp_path, pysat):
    rows = [".x.x.x.x.", "x.......x", "..x.x.x..", "x..x.x..x", "..x...x..",
            "x..x.x..x", "..x.x.x..", "x.......x", ".x.x.x.x."]
    mask = tmp_path / "mask.txt"
    mask.write_text("\n".join(rows) + "\n")
    code, out, _ = run(capsys, "--seed", "1", "-n", "2", "--pattern", str(mask), "-q")
    assert code == 0
    wanted = {r * 9 + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x"}
    for rec in records(out, fmt="line"):
        assert set(rec.puzzle.givens.filled_cells()) == wanted
        assert pysat.count(rec.puzzle, limit=2).count == 1


def test_hopeless_pattern_exits_1_with_a_message(capsys, tmp_path):
    mask = tmp_path / "rows.txt"
    mask.write_text("x" * 18 + "." * 63)
    code, out, err = run(capsys, "--pattern", str(mask), "--max-tries", "3", "-q")
    assert code == 1 and out == ""
    assert "no grid out of 3 made the pattern" in err


def test_from_completes_the_users_grid(capsys, pysat):
    start = "12......." + "." * 27 + "....5...." + "." * 36
    code, out, _ = run(capsys, "--seed", "6", "--from", start, "--to", "jsonl")
    assert code == 0
    item = json.loads(out)
    puzzle = Puzzle.parse(item["puzzle"])
    assert item["puzzle"][0:2] == "12" and item["puzzle"][40] == "5"
    assert pysat.count(puzzle, limit=2).count == 1


def test_from_with_clashing_givens_is_refused(capsys):
    code, _, err = run(capsys, "--from", "11" + "." * 79)
    assert code == 2 and "clash" in err


def test_variant_and_jigsaw_regions(capsys, tmp_path, pysat):
    code, out, _ = run(capsys, "--seed", "2", "--variant", "diagonal", "--to", "jsonl")
    assert code == 0
    rec = records(out, fmt="jsonl")[0]
    assert rec.puzzle.rules == RuleSet.build(Shape(3, 3), ["diagonal"])
    assert_unique_and_minimal(rec.puzzle, pysat)
    # 6x6 jigsaw whose regions are 3 rows x 2 columns
    regions = tmp_path / "regions.txt"
    regions.write_text("\n".join("".join("abcdef"[(r // 3) * 3 + c // 2] for c in range(6))
                                 for r in range(6)) + "\n")
    code, out, _ = run(capsys, "--seed", "2", "--regions", str(regions), "--to", "jsonl")
    assert code == 0
    rec = records(out, fmt="jsonl")[0]
    assert rec.puzzle.rules.regions is not None
    assert_unique_and_minimal(rec.puzzle, pysat)


def test_sizes_generate(capsys, native):
    for size in ("4", "6", "8", "9"):
        code, out, _ = run(capsys, "--seed", "1", "--size", size, "--backend", "pysat", "-q")
        assert code == 0
        rec = records(out, fmt="line")[0]
        assert rec.puzzle.size == int(size)
        assert native.count(rec.puzzle, limit=2).count == 1


def test_unknown_backend_is_a_usage_error(capsys):
    code, _, err = run(capsys, "--backend", "nosuch")
    assert code == 2 and "nosuch" in err


def test_progress_bar_only_on_a_terminal():
    # Through a pipe: no bar, no carriage returns on stderr.
    out = subprocess.run([sys.executable, "-m", "sudoku_model.cli", "generate", "-n", "30",
                          "--size", "4", "--seed", "1"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "\r" not in out.stderr
    assert len(out.stdout.splitlines()) == 30


def test_symmetry_names_in_the_help_match_the_generator(capsys):
    from sudoku_model.cli.generate import SYMMETRY_NAMES
    from sudoku_model.generate import SYMMETRIES

    assert SYMMETRY_NAMES == SYMMETRIES
    code, _, err = run(capsys, "--symmetry", "spiral")
    assert code == 2 and "unknown symmetry 'spiral'" in err
