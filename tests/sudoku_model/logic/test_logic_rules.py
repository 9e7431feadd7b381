"""The logical solver on relation, domain, sum and sandwich rules: every step of
every technique checked against the true solution (killer-200 and random instances of each
rule kind), the logic backend's counts equal to the native backend's, and the explanations
of the killer techniques."""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model import rules as R
from sudoku_model.logic import CandidateGrid, grade, iter_steps, solve_logically
from sudoku_model.logic.techniques.killer import (
    cage_combination,
    cage_unit_overlap,
    innies_outies,
    relation_pruning,
    sandwich_bounds,
    sum_bounds,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from rule_instances import KINDS, killer_puzzles, random_instance  # noqa: E402

LOGIC = get_backend("logic")
NATIVE = get_backend("native")
SHAPE4 = Shape(2, 2)
SHAPE9 = Shape(3, 3)


def _check_steps(puzzle: Puzzle, solution: tuple[int, ...]) -> set[str]:
    """Every technique to the end, revealing the true digit of the cell with fewest
    candidates whenever they stall; fails on any step false for ``solution``."""
    grid = CandidateGrid.from_puzzle(puzzle)
    used = set()
    while True:
        for step in iter_steps(grid):
            used.add(step.technique)
            for c, d in step.placements:
                assert solution[c] == d, f"wrong placement: {step.explanation}"
            for c, d in step.eliminations:
                assert solution[c] != d, f"removed a true digit: {step.explanation}"
        assert grid.broken is None, f"logic broke a solvable puzzle: {grid.broken}"
        if grid.empty == 0:
            assert grid.check_full()
            return used
        open_cells = [c for c in range(len(solution)) if grid.cands[c]]
        reveal = min(open_cells, key=lambda c: grid.cands[c].bit_count())
        grid.place(reveal, solution[reveal])


def test_killer_puzzles_every_step_is_true() -> None:
    used: set[str] = set()
    for puzzle, solution in killer_puzzles():
        used |= _check_steps(puzzle, solution.values)
    assert {"cage_combination", "innies_outies", "cage_unit_overlap"} <= used


def test_killer_puzzles_through_the_logic_backend() -> None:
    solved_by_logic = 0
    puzzles = killer_puzzles()
    for puzzle, solution in puzzles:
        verdict = LOGIC.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == solution
        solved_by_logic += solve_logically(puzzle).status == "solved"
    assert solved_by_logic >= 0.8 * len(puzzles)  # the techniques alone finish most of them


def _seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "shape, givens, instances",
    [(Shape(2, 2), 0, 6), (Shape(2, 3), 12, 4), (Shape(3, 3), 30, 3)],
    ids=["4x4", "6x6", "9x9"],
)
def test_counts_match_native_and_steps_are_true(
    kind: str, shape: Shape, givens: int, instances: int
) -> None:
    rng = random.Random(_seed("logic", kind, shape.name))
    for _ in range(instances):
        puzzle, _ = random_instance(kind, shape, rng, givens)
        expected = NATIVE.count(puzzle, limit=30)
        got = LOGIC.count(puzzle, limit=30)
        assert got.count == expected.count, kind
        if expected.count < 30:  # at the limit, either may know that no more exist
            assert got.complete and expected.complete
        for grid in got.solutions:
            assert puzzle.check(grid).ok
        if expected.count == 1 and not puzzle.is_contradictory:
            _check_steps(puzzle, expected.solutions[0].values)


def _position(rules: RuleSet, givens: str = "") -> CandidateGrid:
    shape = rules.shape
    text = givens or "." * shape.cell_count
    return CandidateGrid.from_puzzle(Puzzle(Grid.parse(text, shape=shape), rules))


def test_cage_combination_explains_the_digit_sets() -> None:
    rules = RuleSet.classic(SHAPE4).with_rules([R.killer_rule(SHAPE4, [((0, 1), 3)])])
    step = cage_combination(_position(rules))
    assert step is not None
    assert set(step.eliminations) == {(0, 3), (0, 4), (1, 3), (1, 4)}
    assert "digit sets {1,2}" in step.explanation and "r1c1, r1c2; 3" in step.explanation


def test_relation_pruning_on_a_thermometer() -> None:
    rules = RuleSet.classic(SHAPE4).with_rules([R.thermometer_rule(SHAPE4, [(0, 1, 2, 3)])])
    grid = _position(rules)
    step = relation_pruning(grid)
    assert step is not None and step.technique == "relation_pruning"
    assert "thermometers" in step.explanation
    # to the end: a 4-cell thermometer in a 4-cell row is 1, 2, 3, 4
    list(iter_steps(grid))
    assert grid.values[:4] == [1, 2, 3, 4]


def test_the_45_rule_places_a_lone_innie() -> None:
    # Row 1 of a 9x9: cages cover r1c1..r1c8 (two of four cells), r1c9 is left alone.
    rules = RuleSet.classic(SHAPE9).with_rules(
        [R.killer_rule(SHAPE9, [((0, 1, 2, 3), 10), ((4, 5, 6, 7), 30)])]
    )
    grid = _position(rules)
    step = innies_outies(grid)
    assert step is not None and "45 rule on row 1" in step.explanation
    assert {d for c, d in step.eliminations if c == 8} == set(range(1, 10)) - {5}


def test_cage_unit_overlap_clears_the_rest_of_the_row() -> None:
    # A cage of r1c1, r1c2 with total 17 is {8, 9}: the rest of row 1 and box 1 lose both,
    # first through the cage's required digits seen by every cell of row 1.
    rules = RuleSet.classic(SHAPE9).with_rules([R.killer_rule(SHAPE9, [((0, 1), 17)])])
    grid = _position(rules)
    step = cage_unit_overlap(grid)
    assert step is not None and step.digits in ((8,), (9,))
    assert all(
        c not in (0, 1) and (c < 9 or c in (9, 10, 11, 18, 19, 20)) for c, _ in step.eliminations
    )


def test_sum_bounds_on_an_arrow_and_sandwich_bounds() -> None:
    rules = RuleSet.classic(SHAPE4).with_rules([R.arrow_rule(SHAPE4, [((0,), (1, 2))])])
    step = sum_bounds(_position(rules))
    assert step is not None
    # bounds alone (no distinctness): the circle is at least 1 + 1, a shaft cell at most 4 - 1
    assert set(step.eliminations) == {(0, 1), (1, 4), (2, 4)}
    sandwich = RuleSet.classic(SHAPE4).with_rules([R.sandwich_rule(SHAPE4, rows={0: 5})])
    grid = _position(sandwich, "1..4" + "." * 12)
    step = sandwich_bounds(grid)
    assert step is None or all(c in (1, 2) for c, _ in step.eliminations)
    assert LOGIC.count(Puzzle(Grid.parse("1..4" + "." * 12), sandwich), limit=100).count == (
        NATIVE.count(Puzzle(Grid.parse("1..4" + "." * 12), sandwich), limit=100).count
    )


def test_domains_are_the_first_pencil_marks() -> None:
    rules = RuleSet.classic(SHAPE4).with_rules([R.parity_rule(SHAPE4, even=[0], odd=[1])])
    grid = _position(rules)
    assert grid.candidates(0) == [2, 4] and grid.candidates(1) == [1, 3]
    broken = _position(rules, "1" + "." * 15)
    assert broken.broken is not None and "domain" in broken.broken


def test_a_grid_filled_by_singles_is_checked_against_the_rules() -> None:
    # Only r1c1 and r1c2 open, cage total impossible for what is left: singles fill the
    # grid, and the check says contradiction, never "solved".
    solution = "1234341221434321"
    rules = RuleSet.classic(SHAPE4).with_rules([R.killer_rule(SHAPE4, [((0, 1), 4)])])
    puzzle = Puzzle(Grid.parse(".." + solution[2:]), rules)
    result = solve_logically(puzzle)
    assert result.status == "contradiction"
    assert LOGIC.count(puzzle, limit=2).count == 0


def test_grading_a_killer_puzzle_counts_the_killer_techniques() -> None:
    found = killer_puzzles()
    g = grade(found[0][0])
    assert g.verdict is VerdictKind.UNIQUE and g.solution == found[0][1]
    assert g.histogram.get("cage_combination", 0) > 0


def test_search_propagation_places_a_required_digit_with_one_home() -> None:
    """The search's sweep: a cage r1c1, r2c1, r3c1 of 6 is {1, 2, 3}; with 3 gone from
    r1c1 and r2c1 (a 3 given in their rows), r3c1 is the cage's only home for 3 and
    gets it, although the cage is no full unit for the singles."""
    from sudoku_model.logic.constraints import sweep

    rules = RuleSet.classic(SHAPE9).with_rules([R.killer_rule(SHAPE9, [((0, 9, 18), 6)])])
    givens = ["." * 9] * 9
    givens[0] = "....3...."
    givens[1] = ".......3."
    grid = _position(rules, "".join(givens))
    assert grid.cands[18] >> 2 & 1 and grid.cands[18] & 0b11  # r3c1 still has 1, 2, 3
    while sweep(grid) and grid.propagate_singles():
        pass
    assert grid.values[18] == 3 or grid.cands[18] == 0b100
