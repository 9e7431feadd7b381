"""Generated pencilmark puzzles: unique, minimal (restoring any eliminated candidate makes
them non-unique), reproducible from a seed, the same whichever backend answers, and
written as candidate lines by `sudoku generate --pencilmark`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model.generate.pencilmark import (
    PencilmarkGenerationError,
    generate_pencilmark,
)
from sudoku_model.solving.candidates import candidate_puzzle

RULES9 = RuleSet.classic(Shape(3, 3))
RULES4 = RuleSet.classic(Shape(2, 2))
NATIVE = get_backend("native")


def test_a_generated_puzzle_is_unique_and_minimal() -> None:
    made = generate_pencilmark(RULES9, seed=7, backend=NATIVE)
    assert made.minimal is True
    assert NATIVE.count(made.puzzle, limit=2).count == 1
    assert NATIVE.count(made.puzzle, limit=2).solutions[0] == made.solution
    masks = list(made.masks)
    assert made.eliminations == sum(9 - bin(m).count("1") for m in masks)
    for c in range(81):
        for d in range(9):
            if not masks[c] >> d & 1:
                trial = list(masks)
                trial[c] |= 1 << d
                assert NATIVE.count(candidate_puzzle(RULES9, trial), limit=2).count == 2


def test_the_same_seed_makes_the_same_puzzle() -> None:
    a = generate_pencilmark(RULES9, seed=11, index=2, backend=NATIVE)
    b = generate_pencilmark(RULES9, seed=11, index=2, backend="native")
    c = generate_pencilmark(RULES9, seed=11, index=3, backend=NATIVE)
    assert a.masks == b.masks and a.solution == b.solution
    assert a.masks != c.masks


def test_the_default_pass_and_the_c_pass_make_the_same_puzzle() -> None:
    # the contract's default (one primitive search per pair) against native's C pass: every
    # answer is a fact about the puzzle, so the puzzles are equal
    from sudoku_model.solving.contract import Backend

    made = generate_pencilmark(RULES4, seed=5, backend=NATIVE)
    order = [(c, d) for c in range(16) for d in range(1, 5) if d != made.solution[c]]
    start = [1 << (v - 1) for v in made.solution.values]
    ours = NATIVE.restore_candidates(RULES4, made.solution, start, order)
    default = Backend.restore_candidates(NATIVE, RULES4, made.solution, start, order)
    assert ours == default


def test_a_target_stops_early_and_an_impossible_one_fails() -> None:
    made = generate_pencilmark(RULES9, seed=3, eliminations=400, backend=NATIVE)
    assert made.eliminations <= 400 and made.minimal is None
    assert NATIVE.count(made.puzzle, limit=2).count == 1
    with pytest.raises(PencilmarkGenerationError):
        generate_pencilmark(RULES4, seed=3, eliminations=0, backend=NATIVE, max_tries=2)


def test_the_candidate_line() -> None:
    made = generate_pencilmark(RULES9, seed=1, backend=NATIVE)
    line = made.line()
    assert len(line) == 729
    assert line.count(".") == made.eliminations
    assert all(line[9 * c + v - 1] == str(v) for c, v in enumerate(made.solution.values))


def test_restore_refuses_a_pair_naming_the_solution_digit() -> None:
    made = generate_pencilmark(RULES4, seed=2, backend=NATIVE)
    masks = [1 << (v - 1) for v in made.solution.values]
    with pytest.raises(ValueError):
        NATIVE.restore_candidates(RULES4, made.solution, masks, [(0, made.solution[0])])
    masks[0] = 0
    with pytest.raises(ValueError):
        NATIVE.restore_candidates(RULES4, made.solution, masks, [])


def test_cli_writes_candidate_lines_and_refuses_symmetry() -> None:
    cmd = [sys.executable, "-m", "sudoku_model.cli", "generate", "--pencilmark"]
    out = subprocess.run(
        [*cmd, "--count", "2", "--seed", "4", "--plain"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    assert len(lines) == 2 and all(len(ln) == 729 for ln in lines)
    again = subprocess.run(
        [*cmd, "--count", "2", "--seed", "4", "--plain"], capture_output=True, text=True
    )
    assert again.stdout == out.stdout
    bad = subprocess.run([*cmd, "--symmetry", "rot180"], capture_output=True, text=True)
    assert bad.returncode != 0 and "--symmetry" in bad.stderr


def test_restore_refuses_a_known_grid_that_clashes() -> None:
    made = generate_pencilmark(RULES4, seed=2, backend=NATIVE)
    values = list(made.solution.values)
    values[1] = values[0]  # two equal digits in the first row
    from sudoku_model import Grid

    bad = Grid(made.solution.shape, values)
    with pytest.raises(ValueError):
        NATIVE.restore_candidates(RULES4, bad, [0xF] * 16, [])
