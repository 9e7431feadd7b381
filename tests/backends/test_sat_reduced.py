"""The PySAT backend's givens-simplified path (``reduce_from``, :class:`ReducedCNF`) and its
per-call fast path: the same answers as the long-lived solver and as known counts."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, VerdictKind, formats
from sudoku_model.backends.sat import PySATBackend, ReducedCNF
from sudoku_model.data import bundled_path
from sudoku_model.solving import get_backend
from tests.rule_instances import brute_force_solutions, killer_puzzles, random_grid


def counts_43() -> list[tuple[Puzzle, int]]:
    out = []
    for record in formats.iter_records(bundled_path("counts-43")):
        assert record.puzzle is not None
        out.append((record.puzzle, int(record.comment.split(":")[0])))
    return out


@pytest.fixture(scope="module")
def reduced() -> Iterator[PySATBackend]:
    backend = PySATBackend("cadical195", reduce_from=4)
    backend.reduce_min_given = 0.0  # sparse puzzles too
    yield backend
    backend.close()


def test_reduced_counts_match_counts_43(reduced: PySATBackend) -> None:
    for puzzle, expected in counts_43():
        if expected > 50:
            continue
        result = reduced.count(puzzle, limit=100)
        assert (result.count, result.complete) == (expected, True), puzzle.givens.to_line()
        assert all(puzzle.check(g).ok for g in result.solutions)
    assert reduced.count(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
def test_reduced_verdicts_equal_the_long_lived_solvers() -> None:
    plain = PySATBackend("cadical195")
    reduced = PySATBackend("cadical195", reduce_from=9)
    reduced.reduce_min_given = 0.0
    rng = random.Random(5)
    puzzles = [p for p, _ in counts_43()]
    for record in formats.iter_records(bundled_path("top95")):
        assert record.puzzle is not None
        values = list(record.puzzle.givens.values)
        puzzles.append(record.puzzle)
        # one clue fewer: usually several solutions; one changed clue: often none
        filled = [c for c, v in enumerate(values) if v]
        cut = list(values)
        cut[rng.choice(filled)] = 0
        puzzles.append(Puzzle(Grid(record.puzzle.shape, cut), record.puzzle.rules))
        wrong = list(values)
        wrong[rng.choice(filled)] = 0
        wrong[rng.choice([c for c, v in enumerate(wrong) if not v])] = rng.randint(1, 9)
        puzzles.append(Puzzle(Grid(record.puzzle.shape, wrong), record.puzzle.rules))
    kinds = set()
    try:
        for puzzle in puzzles:
            a = plain.check_unique(puzzle)
            b = reduced.check_unique(puzzle)
            assert a.kind is b.kind, puzzle.givens.to_line()
            assert a.solution == b.solution
            kinds.add(b.kind)
            for w in b.witnesses:
                assert puzzle.check(w).ok
            if b.kind is VerdictKind.MULTIPLE:
                assert b.witnesses[0] != b.witnesses[1]
                other = reduced.check_unique(puzzle, solution=b.witnesses[0])
                assert other.kind is VerdictKind.MULTIPLE
        assert kinds >= {
            VerdictKind.UNIQUE,
            VerdictKind.MULTIPLE,
            VerdictKind.UNSOLVABLE,
            VerdictKind.CONTRADICTORY,
        }
    finally:
        plain.close()
        reduced.close()


@pytest.mark.parametrize("variants", [["diagonal"], ["anti-knight"], ["anti-king", "windoku"]])
def test_reduced_variants_match_brute_force(variants: list[str], reduced: PySATBackend) -> None:
    rng = random.Random(len(variants))
    rules = RuleSet.build(Shape(2, 2), variants)
    for _ in range(30):
        values = [0] * 16
        for c in rng.sample(range(16), rng.randint(0, 5)):
            values[c] = rng.randint(1, 4)
        puzzle = Puzzle(Grid(rules.shape, values), rules)
        if puzzle.is_contradictory:
            assert reduced.check_unique(puzzle).kind is VerdictKind.CONTRADICTORY
            continue
        expected = sorted(brute_force_solutions(puzzle))
        result = reduced.count(puzzle, limit=1000)
        assert result.complete
        assert sorted(g.values for g in result.solutions) == expected


def test_a_full_grid_and_its_known_solution(reduced: PySATBackend) -> None:
    shape = Shape(3, 3)
    grid = random_grid(shape, random.Random(3))
    puzzle = Puzzle(grid, RuleSet.classic(shape))
    assert ReducedCNF(puzzle.rules, grid.values).num_vars == 0
    verdict = reduced.check_unique(puzzle)
    assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == grid
    assert reduced.check_unique(puzzle, solution=grid).kind is VerdictKind.UNIQUE


def test_reduced_cnf_drops_what_the_givens_decide() -> None:
    rules = RuleSet.classic(Shape(3, 3))
    givens = [0] * 81
    givens[0] = 5
    cnf = ReducedCNF(rules, givens)
    assert not cnf.impossible
    # the 80 empty cells keep 9 candidates except the 20 peers of cell 0, which lose the 5
    assert cnf.num_vars == 60 * 9 + 20 * 8
    assert 5 not in cnf.var_of[1] and 5 in cnf.var_of[80]
    # a cell whose peers hold every digit has no place: no solution without a search
    blocked = [0] * 81
    blocked[1:9] = range(1, 9)
    blocked[9 * 4] = 9
    assert ReducedCNF(rules, blocked).impossible


def test_reduce_from_is_checked() -> None:
    with pytest.raises(ValueError, match="reduce_from"):
        PySATBackend("cadical195", reduce_from=0)


def test_reduced_removal_oracle_answers_as_the_shared_solver() -> None:
    shape = Shape(3, 3)
    rules = RuleSet.classic(shape)
    plain = PySATBackend("cadical195")
    reduced = PySATBackend("cadical195", reduce_from=9)
    reduced.reduce_min_given = 0.0
    rng = random.Random(11)
    answers = set()
    try:
        for _ in range(3):
            grid = random_grid(shape, rng)
            a = plain.removal_oracle(rules, grid)
            b = reduced.removal_oracle(rules, grid)
            values = list(grid.values)
            order = list(range(81))
            rng.shuffle(order)
            for cell in order:
                values[cell] = 0
                expected = a.still_unique(values, [cell])
                assert b.still_unique(values, [cell]) is expected
                answers.add(expected)
                if not expected:
                    values[cell] = grid.values[cell]
            a.close()
            b.close()
    finally:
        plain.close()
        reduced.close()
    assert answers == {True, False}


def test_sparse_grids_stay_in_the_long_lived_solver() -> None:
    backend = PySATBackend("cadical195", reduce_from=9)
    assert not backend._reduces(Puzzle.empty(Shape(3, 3)))
    values = [0] * 81
    values[:27] = [v for v in random_grid(Shape(3, 3), random.Random(1)).values[:27]]
    assert backend._reduces(Puzzle(Grid(Shape(3, 3), values), RuleSet.classic(Shape(3, 3))))
    backend.close()


def test_a_solver_full_of_retired_killer_overlays_is_rebuilt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each killer puzzle adds its cages (an overlay with its own variables) to the long-
    # lived solver; retired ones would slow every later call, so past RETIRED_OVERLAY_VARS
    # the solver is rebuilt. The answers stay right across rebuilds.
    from sudoku_model.backends.sat import engine

    monkeypatch.setattr(engine, "RETIRED_OVERLAY_VARS", 50)
    backend = get_backend("pysat")
    puzzles = killer_puzzles()[:12]
    generations = []
    for puzzle, published in puzzles:
        verdict = backend.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == published
        (engine,) = backend._engines.values()
        generations.append(engine.generation)
    assert generations[-1] > generations[0], generations
