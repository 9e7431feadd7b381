"""Large grids on the default backend: ``auto``'s routing table sends the 25x25 uniqueness
checks that a short C try does not settle to its search route's engine (CaDiCaL on the
givens-simplified CNF), and the answers say which engine answered; smaller grids, and
``native`` alone, stay in C."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.backends.auto import ROUTES
from sudoku_model.backends.native import create
from sudoku_model.backends.sat import PySATBackend
from tests.rule_instances import random_grid

DATA = Path(__file__).resolve().parent.parent / "data" / "minimal-25x25.txt"
ROUTED = next(route.engine for route in ROUTES if route.question == "search")


def minimal_25() -> list[Puzzle]:
    rules = RuleSet.classic(Shape(5, 5))
    return [
        Puzzle(Grid.parse(line.split()[0], shape=rules.shape), rules)
        for line in DATA.read_text().splitlines()
        if line and not line.startswith("#")
    ]


@pytest.mark.slow
def test_a_minimal_25x25_puzzle_is_proved_unique_by_the_default_backend() -> None:
    puzzle = minimal_25()[0]
    backend = get_backend()
    verdict = backend.check_unique(puzzle, budget=Budget(seconds=300))
    assert verdict.kind is VerdictKind.UNIQUE
    assert verdict.backend == ROUTED
    assert verdict.solution is not None and puzzle.check(verdict.solution).ok
    # minimal: without any one clue there is another solution (three clues, at random)
    values = list(puzzle.givens.values)
    for cell in random.Random(1).sample([c for c, v in enumerate(values) if v], 3):
        cut = list(values)
        cut[cell] = 0
        other = backend.check_unique(Puzzle(Grid(puzzle.shape, cut), puzzle.rules))
        assert other.kind is VerdictKind.MULTIPLE and other.backend in ("native", ROUTED)
        assert all(not puzzle.rules.has_clash(w.values) for w in other.witnesses)
    batch = backend.check_unique_batch(puzzle.rules, [bytes(values), bytes(cut)])
    assert batch.kinds == [VerdictKind.UNIQUE, VerdictKind.MULTIPLE]
    assert batch.backend == ROUTED


def test_counts_and_solve_on_25x25() -> None:
    backend = get_backend()
    shape = Shape(5, 5)
    grid = random_grid(shape, random.Random(2))
    values = list(grid.values)
    for cell in random.Random(3).sample(range(625), 200):
        values[cell] = 0
    puzzle = Puzzle(Grid(shape, values), RuleSet.classic(shape))
    solved = backend.solve(puzzle)
    assert solved.solution is not None and puzzle.check(solved.solution).ok
    assert backend.count(puzzle, limit=3).count >= 1


def test_native_alone_and_smaller_grids_stay_native() -> None:
    shape = Shape(5, 5)
    grid = random_grid(shape, random.Random(4))
    values = list(grid.values)
    values[0] = 0
    puzzle = Puzzle(Grid(shape, values), RuleSet.classic(shape))
    assert create().check_unique(puzzle).backend == "native"
    assert get_backend("native").check_unique_batch(puzzle.rules, [bytes(values)]).backend == (
        "native"
    )
    # C settles an easy grid within its first try
    assert get_backend().check_unique(puzzle).backend == "native"
    assert get_backend().check_unique_batch(puzzle.rules, [bytes(values)]).backend == ROUTED
    small = Puzzle.parse("1.3..4.2.1.3..2.")
    assert get_backend().check_unique(small).backend == "native"
    with pytest.raises(ValueError, match="unknown option"):
        create(route_large=True)


def test_pysat_reduces_dense_25x25_grids_by_default() -> None:
    backend = PySATBackend()
    assert backend.reduce_from == 25
    assert backend._reduces(minimal_25()[0])
    assert not backend._reduces(Puzzle.empty(Shape(5, 5)))
    assert not backend._reduces(Puzzle.empty(Shape(4, 4)))
    backend.close()
