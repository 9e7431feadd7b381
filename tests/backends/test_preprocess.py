"""Candidate elimination before a large grid's SAT search (``backends.preprocess``) and
:class:`ReducedCNF` built on it: every level keeps every solution's digits (against
known counts, brute force on variant rules, and the stored minimal 25x25 puzzles), each
level eliminates at least what the one below does, and the reduced formula has the same
solutions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pysat.solvers import Solver

from sudoku_model import Grid, Puzzle, RuleSet, Shape, formats, get_backend
from sudoku_model.backends.cnf.reduced import ReducedCNF
from sudoku_model.backends.preprocess import LEVELS, reduce_candidates
from sudoku_model.data import bundled_path
from tests.rule_instances import brute_force_solutions

DATA_25 = Path(__file__).resolve().parent.parent / "data" / "minimal-25x25.txt"


def keeps(puzzle: Puzzle, solutions: list[tuple[int, ...]], level: str) -> int:
    """Asserts that ``level`` keeps every solution; returns the candidates left."""
    reduced = reduce_candidates(puzzle.rules, puzzle.givens.values, level)
    if not solutions:
        return -1
    assert not reduced.contradiction
    for s in solutions:
        for c, d in enumerate(s):
            assert reduced.candidates[c] >> d & 1, (level, c, d)
            assert reduced.values[c] in (0, d)
    return sum(bin(m).count("1") for m in reduced.candidates)


def counts_43() -> list[Puzzle]:
    return [r.puzzle for r in formats.iter_records(bundled_path("counts-43")) if r.puzzle]


def test_every_level_keeps_every_solution_of_counts_43() -> None:
    native = get_backend("native")
    left = {level: 0 for level in LEVELS}
    for puzzle in counts_43():
        result = native.count(puzzle, limit=200)
        solutions = [g.values for g in result.solutions]
        before = None
        for level in LEVELS:
            n = keeps(puzzle, solutions, level)
            assert before is None or n <= before  # each level does at least the one below
            before = n
            left[level] += n
    # singles, locked candidates and pairs each take something out somewhere
    assert left["givens"] > left["singles"] > left["locked"] > left["pairs"]


@pytest.mark.slow
def test_hard_9x9_puzzles_keep_their_solution_and_fish_fire() -> None:
    native = get_backend("native")
    fired = 0
    for name in ("top95", "magictour-top1465"):
        for record in list(formats.iter_records(bundled_path(name)))[:150]:
            puzzle = record.puzzle
            assert puzzle is not None
            solution = native.solve(puzzle).solution
            assert solution is not None
            left = [keeps(puzzle, [solution.values], level) for level in LEVELS]
            fired += left[-2] > left[-1]
    assert fired  # X-wings are rare past pairs on these lists, but they do occur


@pytest.mark.parametrize(
    "variants", [["diagonal"], ["anti-knight"], ["anti-king", "windoku"], ["jigsaw"]]
)
def test_variant_rules_against_brute_force(variants: list[str]) -> None:
    rng = random.Random(len(variants))
    shape = Shape(2, 2)
    regions = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3] if "jigsaw" in variants else None
    rules = RuleSet.build(shape, [v for v in variants if v != "jigsaw"], regions=regions)
    for _ in range(60):
        values = [0] * 16
        for c in rng.sample(range(16), rng.randint(0, 6)):
            values[c] = rng.randint(1, 4)
        puzzle = Puzzle(Grid(shape, values), rules)
        solutions = brute_force_solutions(puzzle)
        for level in LEVELS:
            reduced = reduce_candidates(rules, values, level)
            if solutions:
                keeps(puzzle, solutions, level)
            elif puzzle.is_contradictory:
                assert reduced.contradiction


def test_contradictions_and_levels_are_reported() -> None:
    rules = RuleSet.classic(Shape(3, 3))
    clash = [0] * 81
    clash[0] = clash[1] = 5
    assert reduce_candidates(rules, clash, "givens").contradiction
    blocked = [0] * 81
    blocked[1:9] = range(1, 9)
    blocked[9 * 4] = 9
    assert reduce_candidates(rules, blocked, "singles").contradiction
    with pytest.raises(ValueError, match="unknown level"):
        reduce_candidates(rules, clash, "x-wing")


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
def test_minimal_25x25_puzzles_keep_their_solution() -> None:
    rules = RuleSet.classic(Shape(5, 5))
    lines = [ln for ln in DATA_25.read_text().splitlines() if ln and not ln.startswith("#")]
    puzzle = Puzzle(Grid.parse(lines[0].split()[0], shape=rules.shape), rules)
    solution = get_backend().solve(puzzle).solution
    assert solution is not None
    counts = [keeps(puzzle, [solution.values], level) for level in LEVELS]
    assert counts[0] > counts[2]  # locked candidates take out a part of them


def solutions_of(cnf: ReducedCNF, limit: int) -> set[tuple[int, ...]]:
    found: set[tuple[int, ...]] = set()
    if cnf.impossible:
        return found
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while len(found) < limit and solver.solve():
            grid = cnf.decode(solver.get_model())
            found.add(grid)
            block = cnf.blocking_clause(grid)
            if not block:
                break
            solver.add_clause(block)
    return found


def test_reduced_cnf_at_every_level_has_the_same_solutions() -> None:
    native = get_backend("native")
    for puzzle in counts_43()[:20]:
        expected = {g.values for g in native.count(puzzle, limit=60).solutions}
        for level in LEVELS:
            cnf = ReducedCNF(puzzle.rules, puzzle.givens.values, level=level)
            assert solutions_of(cnf, 60) == expected, level
    with pytest.raises(ValueError, match="unknown level"):
        ReducedCNF(RuleSet.classic(Shape(2, 2)), [0] * 16, level="nope")
