"""The unbiased sampler (sudoku_model.unbiased): its weights are exact (checked against an
exhaustive count of the minimal puzzles of a 4x4 grid), its 9x9 estimate agrees with the
published distribution while the top-down generator's raw counts do not, and the CLI."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.generate import GenerationSpec, generate
from sudoku_model.solving import get_backend
from sudoku_model.unbiased import (
    PUBLISHED,
    TRIES_PER_GRID,
    chi_square,
    chi_square_sf,
    estimate,
    exact_bound_holds,
    exact_puzzles,
    exact_tries,
    weighted_puzzles,
    weighted_tries,
)

BINS = [(0, 24), (25, 25), (26, 26), (27, 27), (28, 99)]
GRID4 = "1234341221434321"


def _minimal_counts_4x4(solution: Grid, rules: RuleSet) -> dict[int, int]:
    """Clue count -> number of minimal puzzles of the grid, by checking all 2^16 subsets."""
    backend = get_backend("native")
    values = solution.values
    masks = range(1 << 16)
    cells = [bytes((0, v)) for v in values]  # byte c of row m: v when bit c is set
    data = b"".join(bytes(cells[c][m >> c & 1] for c in range(16)) for m in masks)
    kinds = backend.check_unique_batch(rules, data).kinds
    unique = [k.value == "unique" for k in kinds]
    counts: dict[int, int] = {}
    for m in masks:
        if unique[m] and not any(unique[m & ~(1 << c)] for c in range(16) if m >> c & 1):
            n = bin(m).count("1")
            counts[n] = counts.get(n, 0) + 1
    return counts


TRIES_4X4 = 2500


@pytest.fixture(scope="module")
def four() -> tuple[dict[int, int], list]:
    rules = RuleSet.classic(Shape(2, 2))
    solution = Grid.parse(GRID4)
    drawn = weighted_tries(
        rules, solution, random.Random(3), backend=get_backend("native"), tries=TRIES_4X4, head=3
    )
    return _minimal_counts_4x4(solution, rules), drawn


def test_weights_are_exact_on_a_4x4_grid(four) -> None:
    # E[W * 1{n clues}] per try is the number of minimal n-clue puzzles of the grid: the
    # weighted mean over many tries must match the exhaustive count within 4 standard
    # errors, for every clue count (a wrong factor in W moves every count at once).
    exact, drawn = four
    tries = TRIES_4X4
    assert all(d.puzzle.givens.clues in exact for d in drawn)
    for n, count in exact.items():
        values = [math.exp(d.log_weight) for d in drawn if d.clues == n]
        mean = sum(values) / tries
        var = sum(v * v for v in values) / tries - mean**2
        se = math.sqrt(var / tries)
        assert abs(mean - count) <= 4 * se + 1e-9, (n, mean, count, se)


def test_weights_reject_the_top_down_bias_on_a_4x4_grid(four) -> None:
    # The same tries counted without weights do not estimate the counts: the test above
    # can fail.
    exact, drawn = four
    total = sum(exact.values())
    raw = {n: sum(1 for d in drawn if d.clues == n) / len(drawn) for n in exact}
    assert max(abs(raw[n] - exact[n] / total) for n in exact) > 0.05


def _unweighted_chi_square(observed: dict, expected: dict[object, float], total: int) -> float:
    """Pearson's chi-square p-value of ``observed`` counts against shares ``expected``,
    bins pooled in order until each expects at least 5."""
    pooled: list[tuple[float, int]] = []
    e_acc = o_acc = 0.0
    for key in sorted(expected):
        e_acc += expected[key] * total
        o_acc += observed.get(key, 0)
        if e_acc >= 5:
            pooled.append((e_acc, int(o_acc)))
            e_acc = o_acc = 0.0
    if e_acc:
        e_last, o_last = pooled.pop()
        pooled.append((e_last + e_acc, o_last + int(o_acc)))
    assert sum(o for _, o in pooled) == total
    statistic = sum((o - e) ** 2 / e for e, o in pooled)
    return chi_square_sf(statistic, len(pooled) - 1)


def _exact_sample(four, count: int, seed: int) -> list[Puzzle]:
    rules = RuleSet.classic(Shape(2, 2))
    rng = random.Random(seed)
    out: list[Puzzle] = []
    backend = get_backend("native")
    while len(out) < count:
        out.extend(exact_tries(rules, Grid.parse(GRID4), rng, backend=backend, tries=2000, head=8))
    return out[:count]


def test_exact_rejection_is_uniform_over_clue_counts(four) -> None:
    # Unweighted: the kept puzzles of the exact rejection follow the exhaustive clue-count
    # distribution of the grid's minimal puzzles (12, 256 and 16 puzzles of 4, 5 and 6
    # clues), while the weighted sampler's puzzles counted once do not (test above).
    exact, _ = four
    total = sum(exact.values())
    kept = _exact_sample(four, 600, seed=5)
    counts: dict[int, int] = {}
    for p in kept:
        counts[p.givens.clues] = counts.get(p.givens.clues, 0) + 1
    assert set(counts) <= set(exact)
    assert _unweighted_chi_square(counts, {n: c / total for n, c in exact.items()}, 600) > 0.01


@pytest.mark.slow
def test_exact_rejection_is_uniform_over_puzzles(four) -> None:
    # 2,000 kept puzzles over the 284 minimal puzzles of the grid: every one is minimal
    # and each comes out equally often (chi-square at 1%, about 7 expected each).
    exact, _ = four
    rules = RuleSet.classic(Shape(2, 2))
    backend = get_backend("native")
    kept = _exact_sample(four, 2000, seed=6)
    counts: dict[object, int] = {}
    for p in kept:
        counts[p.givens.values] = counts.get(p.givens.values, 0) + 1
    total = sum(exact.values())
    assert len(counts) <= total
    for values in counts:
        assert backend.check_unique(Puzzle(Grid(rules.shape, values), rules)).is_unique
    shares = {v: 1 / total for v in counts}
    missing = total - len(counts)
    shares.update({("missing", k): 1 / total for k in range(missing)})
    assert _unweighted_chi_square(counts, shares, 2000) > 0.01
    # the clue counts of the same sample, against the exhaustive distribution
    clues: dict[int, int] = {}
    for p in kept:
        clues[p.givens.clues] = clues.get(p.givens.clues, 0) + 1
    assert _unweighted_chi_square(clues, {n: c / total for n, c in exact.items()}, 2000) > 0.01


def test_exact_rejection_refuses_an_unproven_bound() -> None:
    rules = RuleSet.classic(Shape(2, 2))
    assert exact_bound_holds(16, 8) and not exact_bound_holds(16, 7)
    assert exact_bound_holds(81, 40) and not exact_bound_holds(81, 39)
    with pytest.raises(ValueError, match="head must be in 8..16"):
        list(
            exact_tries(
                rules,
                Grid.parse(GRID4),
                random.Random(1),
                backend=get_backend("native"),
                tries=1,
                head=7,
            )
        )
    with pytest.raises(ValueError, match="does not bound"):
        next(exact_puzzles(rules, seed=1, head=3, grids=1))


def test_exact_puzzles_over_grids_are_minimal() -> None:
    rules = RuleSet.classic(Shape(2, 2))
    backend = get_backend("native")
    kept = list(exact_puzzles(rules, seed=2, head=8, grids=20, tries=200))
    assert kept and {g for _, _, g in kept} <= set(range(20))
    for puzzle, solution, _ in kept:
        assert puzzle.is_solution(solution) and backend.check_unique(puzzle).is_unique
        values = list(puzzle.givens.values)
        for c in puzzle.givens.filled_cells():
            values[c], keep = 0, values[c]
            assert not backend.check_unique(
                Puzzle(Grid(rules.shape, tuple(values)), rules)
            ).is_unique
            values[c] = keep


@pytest.mark.slow
def test_nine_by_nine_estimate_matches_the_published_distribution() -> None:
    rules = RuleSet.classic(Shape(3, 3))
    grids = 2500
    drawn = list(weighted_puzzles(rules, seed=1, grids=grids))
    for d in drawn[:50]:
        assert d.puzzle.givens.clues == d.clues and d.puzzle.is_solution(d.solution)
    statistic, df, p = chi_square(drawn, PUBLISHED, bins=BINS)
    assert df == 4 and p > 0.01, (statistic, p)
    est = estimate(drawn, tries=grids * TRIES_PER_GRID)
    lo, hi = est.mean_interval
    assert lo <= 26.58 <= hi
    # E[W] per try estimates the minimal puzzles of a grid: 3.10e37 / 6.67e21 = 4.65e15
    assert est.log_per_grid is not None and abs(est.log_per_grid - math.log(4.65e15)) < 0.7
    # the same puzzles unweighted (the top-down bias) are rejected outright
    assert chi_square(drawn, PUBLISHED, bins=BINS, weighted=False)[2] < 1e-6


def test_plain_generator_mean_stays_near_24_4() -> None:
    made = list(generate(GenerationSpec(RuleSet.classic(Shape(3, 3))), count=300, seed=11))
    mean = sum(p.clues for p in made) / len(made)
    assert abs(mean - 24.4) < 0.3  # SE about 0.065


def test_generated_puzzles_are_minimal() -> None:
    rules = RuleSet.classic(Shape(3, 3))
    backend = get_backend("native")
    drawn = list(weighted_puzzles(rules, seed=4, grids=3))
    assert drawn
    for d in drawn:
        values = list(d.puzzle.givens.values)
        assert backend.check_unique(d.puzzle).is_unique
        for c in d.puzzle.givens.filled_cells():
            values[c], keep = 0, values[c]
            smaller = Puzzle(Grid(rules.shape, tuple(values)), rules)
            assert not backend.check_unique(smaller).is_unique
            values[c] = keep


def test_chi_square_sf() -> None:
    assert chi_square_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_sf(13.277, 4) == pytest.approx(0.01, abs=1e-4)
    assert chi_square_sf(40.0, 4) == pytest.approx(4.33e-8, rel=0.01)
    assert chi_square_sf(0.0, 3) == 1.0


def test_cli_unbiased(tmp_path) -> None:
    out = tmp_path / "u.txt"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_model.cli",
            "generate",
            "--unbiased",
            "-n",
            "2",
            "--seed",
            "5",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and all("clues, minimal, log weight" in line for line in lines)
    assert "95% interval" in run.stderr and "published" in run.stderr
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_model.cli",
            "generate",
            "--unbiased",
            "--symmetry",
            "rot180",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "--symmetry" in bad.stderr
