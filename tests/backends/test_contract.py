"""The backend contract, run against every selected backend (``--backend``; see conftest).

Facts checked, never hard-coded answers: the empty 4x4 grid has 288 solutions; counts-43
gives counts and solutions; every 17-clue puzzle is unique and deleting any clue makes it
non-unique (McGuire et al. 2012); clashing givens are contradictory; budgets end in unknown.
"""

from __future__ import annotations

import itertools
import random
import time
from functools import cache

import pytest

from sudoku_model import (
    AllDifferent,
    Budget,
    Grid,
    Puzzle,
    RuleSet,
    Shape,
    SolveStatus,
    UnsupportedPuzzleError,
    VerdictKind,
    formats,
)
from sudoku_model.data import bundled_path
from sudoku_model.solving import Backend

# Backends fast enough for large samples; every other one gets the small sample.
FAST_PREFIXES = ("pysat", "native")


def sample_size(backend: Backend, fast: int, slow: int) -> int:
    return fast if backend.name.startswith(FAST_PREFIXES) else slow


@cache
def bundled(name: str) -> tuple[tuple[Puzzle, str], ...]:
    """(puzzle, comment) of every record of a bundled collection."""
    out = []
    for record in formats.iter_records(bundled_path(name)):
        assert record.error is None, record.error
        out.append((record.puzzle, record.comment))
    return tuple(out)


def spread(items: tuple, k: int, seed: int) -> list:
    """k items drawn without replacement, reproducibly."""
    return random.Random(seed).sample(list(items), min(k, len(items)))


def assert_solves(puzzle: Puzzle, grid: Grid) -> None:
    report = puzzle.check(grid)
    assert report.ok, [p.message for p in report.problems]


EMPTY_4X4 = Puzzle.empty(Shape(2, 2))


# -- counting and enumeration ---------------------------------------------------------------
def test_empty_4x4_has_288_solutions(backend: Backend) -> None:
    result = backend.count(EMPTY_4X4, limit=1000)
    assert (result.count, result.complete) == (288, True)
    assert result.verdict is VerdictKind.MULTIPLE
    assert len(set(result.solutions)) == 288


def test_empty_4x4_solutions_are_distinct_and_valid(backend: Backend) -> None:
    iterator = backend.solutions(EMPTY_4X4)
    grids = list(iterator)
    assert iterator.complete is True
    assert len(grids) == len(set(grids)) == 288
    for grid in grids:
        assert_solves(EMPTY_4X4, grid)


def test_solutions_stop_at_the_limit(backend: Backend) -> None:
    iterator = backend.solutions(Puzzle.empty(Shape(3, 3)), limit=5)
    grids = list(iterator)
    assert len(set(grids)) == 5
    assert iterator.complete is False
    for grid in grids:
        assert grid.is_complete


def test_counts_43(backend: Backend) -> None:
    for puzzle, comment in bundled("counts-43"):
        expected, _, solution_text = comment.partition(":")
        result = backend.count(puzzle, limit=1000)
        assert (result.count, result.complete) == (int(expected), True), puzzle
        assert len(set(result.solutions)) == result.count
        for grid in result.solutions:
            assert_solves(puzzle, grid)
        if solution_text:
            solution = Grid.parse(solution_text)
            assert result.solutions == (solution,)
            verdict = backend.check_unique(puzzle)
            assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == solution
        if int(expected) == 0:
            assert backend.check_unique(puzzle).kind is VerdictKind.UNSOLVABLE
            assert backend.solve(puzzle).status is SolveStatus.UNSOLVABLE


# -- uniqueness ------------------------------------------------------------------------------
def test_17_clue_puzzles_are_unique_and_one_clue_fewer_is_not(backend: Backend) -> None:
    k = sample_size(backend, 120, 12)
    rng = random.Random(17)
    for puzzle, _ in spread(bundled("17-clue"), k, seed=1):
        verdict = backend.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE, puzzle
        assert_solves(puzzle, verdict.solution)
        cell = rng.choice(puzzle.givens.filled_cells())
        fewer = puzzle.with_givens(puzzle.givens.without([cell]))
        for answer in (
            backend.check_unique(fewer),
            backend.check_unique(fewer, solution=verdict.solution),
        ):
            assert answer.kind is VerdictKind.MULTIPLE, fewer
            first, second = answer.witnesses
            assert first != second
            assert_solves(fewer, first)
            assert_solves(fewer, second)


def test_known_solution_skips_to_the_second_search(backend: Backend) -> None:
    for puzzle, _ in spread(bundled("top95"), sample_size(backend, 30, 5), seed=2):
        solution = backend.solve(puzzle).solution
        assert solution is not None
        verdict = backend.check_unique(puzzle, solution=solution)
        assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == solution
    first = backend.solve(EMPTY_4X4).solution
    verdict = backend.check_unique(EMPTY_4X4, solution=first)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert verdict.witnesses[0] == first and verdict.witnesses[1] != first
    assert_solves(EMPTY_4X4, verdict.witnesses[1])


def test_hard_puzzles_solve_to_valid_grids(backend: Backend) -> None:
    for puzzle, _ in spread(bundled("forum-hardest-1106"), sample_size(backend, 40, 4), seed=3):
        result = backend.solve(puzzle)
        assert result.status is SolveStatus.SOLVED
        assert_solves(puzzle, result.solution)


# -- puzzles without a solution --------------------------------------------------------------
def test_clashing_givens_are_contradictory(backend: Backend) -> None:
    puzzle = Puzzle(Grid(Shape(3, 3), [5, 0, 0, 0, 5] + [0] * 76))
    verdict = backend.check_unique(puzzle)
    assert verdict.kind is VerdictKind.CONTRADICTORY
    assert verdict.conflicts and "5" in verdict.conflicts[0]
    assert backend.solve(puzzle).status is SolveStatus.CONTRADICTORY
    assert backend.count(puzzle, limit=5).verdict is VerdictKind.CONTRADICTORY
    assert list(backend.solutions(puzzle)) == []


def test_unsolvable_without_a_clash(backend: Backend) -> None:
    # r1c3 sees 1 and 2 in its row, 3 in its column and 4 in its box: no candidate left.
    values = [0] * 16
    values[0], values[1], values[7], values[14] = 1, 2, 4, 3
    puzzle = Puzzle(Grid(Shape(2, 2), values))
    assert puzzle.conflicts() == []
    verdict = backend.check_unique(puzzle)
    assert verdict.kind is VerdictKind.UNSOLVABLE
    result = backend.count(puzzle, limit=3)
    assert (result.count, result.complete) == (0, True)


# -- budgets and refusals ----------------------------------------------------------------------
def test_a_spent_time_budget_answers_unknown(backend: Backend) -> None:
    if "seconds" not in backend.capabilities.budgets:
        pytest.skip(f"{backend.name} declares no time budget")
    start = time.perf_counter()
    result = backend.count(Puzzle.empty(Shape(3, 3)), limit=10**6, budget=Budget(seconds=0.2))
    elapsed = time.perf_counter() - start
    assert not result.complete and result.count < 10**6
    assert result.verdict in (VerdictKind.UNKNOWN, VerdictKind.MULTIPLE)
    assert elapsed < 5.0
    iterator = backend.solutions(Puzzle.empty(Shape(3, 3)), budget=Budget(seconds=0.2))
    produced = sum(1 for _ in itertools.islice(iterator, 10**7))
    assert produced < 10**7 and iterator.complete is False


class Cage(AllDifferent):
    """A rule kind no backend declares (a stand-in for killer cages)."""

    kind = "sum_cage"


def test_unsupported_rule_kind_is_refused(backend: Backend) -> None:
    shape = Shape(2, 2)
    base = RuleSet.classic(shape)
    rules = RuleSet(shape, base.rules + (Cage("cage", ((0, 1),)),), variants=("cage",))
    puzzle = Puzzle(Grid.empty(shape), rules)
    assert backend.supports(puzzle) is not None
    for call in (
        lambda: backend.solve(puzzle),
        lambda: backend.count(puzzle, limit=2),
        lambda: backend.check_unique(puzzle),
        lambda: backend.solutions(puzzle),
    ):
        with pytest.raises(UnsupportedPuzzleError):
            call()


def test_stats_use_the_stable_keys(backend: Backend) -> None:
    from sudoku_model.solving import STAT_KEYS

    verdict = backend.check_unique(bundled("top95")[0][0])
    assert verdict.seconds > 0
    assert set(verdict.stats) & set(STAT_KEYS), verdict.stats
