"""Every step checked against the true solution: a technique that places a wrong digit or
removes a true one is a bug. Plus the facts about the bundled collections."""

from __future__ import annotations

import random

import pytest

from sudoku_model import Puzzle
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.logic import (
    SINGLES,
    CandidateGrid,
    iter_steps,
    search,
    solve_logically,
    tables_for,
)
from sudoku_model.rules import RuleSet


def _lines(name: str) -> list[str]:
    with open(bundled_path(name)) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def _check_steps(puzzle: Puzzle, solution: tuple[int, ...]) -> set[str]:
    """Run every technique to the end; fail on any step false for ``solution``.

    When the techniques stall, the true digit of the cell with fewest candidates is
    revealed and logic goes on, so hard puzzles test many positions, not just the first.
    """
    grid = CandidateGrid.from_puzzle(puzzle)
    used = set()
    while True:
        for step in iter_steps(grid):
            used.add(step.technique)
            for c, d in step.placements:
                assert solution[c] == d, f"{puzzle}: wrong placement: {step.explanation}"
            for c, d in step.eliminations:
                assert solution[c] != d, f"{puzzle}: removed a true digit: {step.explanation}"
        assert grid.broken is None, f"{puzzle}: logic broke a solvable puzzle: {grid.broken}"
        if grid.empty == 0:
            return used
        open_cells = [c for c in range(len(solution)) if grid.cands[c]]
        reveal = min(open_cells, key=lambda c: grid.cands[c].bit_count())
        grid.place(reveal, solution[reveal])


def _unique_solution(puzzle: Puzzle) -> tuple[int, ...]:
    found = search(CandidateGrid.from_puzzle(puzzle), limit=2)
    assert found.complete and len(found.solutions) == 1
    assert puzzle.is_solution(Grid(puzzle.shape, found.solutions[0]))
    return found.solutions[0]


SAMPLES = {"top95": (None, 1), "magictour-top1465": (None, 12), "forum-hardest-1106": (None, 4)}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_step_is_true_of_the_solution(name):
    used: set[str] = set()
    lines = _lines(name)[:: SAMPLES[name][1]]
    for line in lines:
        puzzle = Puzzle.parse(line)
        used |= _check_steps(puzzle, _unique_solution(puzzle))
    # The sample must exercise more than the basics, or this test proves little.
    assert {
        "naked_single",
        "hidden_single",
        "locked_pointing",
        "naked_pair",
        "hidden_pair",
        "naked_triple",
        "hidden_triple",
        "x_wing",
        "swordfish",
        "xy_wing",
        "xyz_wing",
        "simple_colouring",
        "x_chain",
        "xy_chain",
    } <= used


def _variant_cases() -> list[tuple[str, RuleSet]]:
    s9, s6, s8 = Shape(3, 3), Shape(2, 3), Shape(2, 4)
    # Jigsaw: 6x6 regions of 3 rows x 2 columns (a tiling other than the boxes).
    regions = [Shape(3, 2).box_of(c) for c in range(36)]
    return [
        ("jigsaw", RuleSet.build(s6, ["jigsaw"], regions=regions)),
        ("diagonal", RuleSet.build(s9, ["diagonal"])),
        ("windoku", RuleSet.build(s9, ["windoku"])),
        ("anti-knight", RuleSet.build(s9, ["anti-knight"])),
        ("anti-king", RuleSet.build(s9, ["anti-king"])),
        ("6x6", RuleSet.classic(s6)),
        ("8x8 diagonal", RuleSet.build(s8, ["diagonal"])),
        ("12x12", RuleSet.classic(Shape(3, 4))),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("label,rules", _variant_cases(), ids=[c[0] for c in _variant_cases()])
def test_steps_are_sound_on_variants_and_shapes(label, rules):
    """Random solution grids of the variant, half the cells removed: every step must agree
    with the solution (sound steps keep every solution, unique or not)."""
    rng = random.Random(label)
    shape = rules.shape
    n = shape.size
    base = search(CandidateGrid(tables_for(rules)), limit=1).solutions[0]
    for _ in range(6):
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        solution = tuple(relabel[v - 1] for v in base)
        cells = list(range(shape.cell_count))
        rng.shuffle(cells)
        keep = int(shape.cell_count * rng.uniform(0.3, 0.5))
        givens = [solution[c] if c in set(cells[:keep]) else 0 for c in range(shape.cell_count)]
        puzzle = Puzzle(Grid(shape, givens), rules)
        assert puzzle.is_solution(Grid(shape, solution))
        _check_steps(puzzle, solution)


def test_top95_and_forum_hardest_need_more_than_singles():
    for name in ("top95", "forum-hardest-1106"):
        for line in _lines(name):
            result = solve_logically(Puzzle.parse(line), techniques=SINGLES)
            assert result.status == "stalled", f"{name}: {line} falls to singles"


def test_easy50_needs_no_search_and_mostly_singles():
    # Not all of easy50 falls to singles: 10 of the 50 need locked candidates, pairs or an
    # X-Wing (checked independently against a rescan-everything singles solver in
    # test_logic_engine). None needs search.
    singles_only = 0
    for line in _lines("easy50"):
        puzzle = Puzzle.parse(line)
        if solve_logically(puzzle, techniques=SINGLES).status == "solved":
            singles_only += 1
        assert solve_logically(puzzle).status == "solved", line
    assert singles_only == 40
