"""The ``logic`` backend: the solving contract, checked against facts and against PySAT."""

from __future__ import annotations

import gzip
import random

import pytest

from sudoku_model import Puzzle
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.rules import RULE_KINDS, RuleSet
from sudoku_model.solving import Budget, SolveStatus, VerdictKind, get_backend


def _lines(name: str) -> list[str]:
    path = bundled_path(name)
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


@pytest.fixture(scope="module", params=["logic", "logic:singles"])
def backend(request):
    return get_backend(request.param)


def test_capabilities():
    b = get_backend("logic")
    assert b.capabilities.rule_kinds == frozenset(RULE_KINDS)
    assert set(b.capabilities.budgets) == {"seconds", "nodes"}
    assert b.capabilities.max_size == 25 and "slow" in b.capabilities.notes
    with pytest.raises(ValueError):
        get_backend("logic:nonsense")


def test_empty_4x4_has_288_solutions(backend):
    result = backend.count(Puzzle.empty(Shape(2, 2)), limit=1000)
    assert result.complete and result.count == 288 and len(set(result.solutions)) == 288


@pytest.mark.parametrize("record", _lines("counts-43"))
def test_counts_file(record):
    text, count, *solution = record.split(":")
    puzzle = Puzzle.parse(text)
    result = get_backend("logic").count(puzzle, limit=1000)
    assert result.complete and result.count == int(count)
    if solution:
        assert result.solutions[0] == Grid.parse(solution[0])


def test_solve_and_check_unique_on_hard_puzzles(backend):
    for line in _lines("hardest"):
        puzzle = Puzzle.parse(line)
        solved = backend.solve(puzzle)
        assert solved.status is SolveStatus.SOLVED and puzzle.is_solution(solved.solution)
        verdict = backend.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == solved.solution
        assert "nodes" in verdict.stats and "guesses" in verdict.stats
        assert backend.check_unique(puzzle, solution=solved.solution).is_unique


def test_seventeen_clue_puzzles_are_unique_and_minimal(backend):
    rng = random.Random(17)
    for line in rng.sample(_lines("17-clue"), 5):
        puzzle = Puzzle.parse(line)
        assert backend.check_unique(puzzle).is_unique
        cell = rng.choice(puzzle.givens.filled_cells())
        looser = puzzle.with_givens(puzzle.givens.without([cell]))
        verdict = backend.check_unique(looser)
        assert verdict.kind is VerdictKind.MULTIPLE
        a, b = verdict.witnesses
        assert a != b and looser.is_solution(a) and looser.is_solution(b)


def test_contradictory_and_unsolvable(backend):
    assert backend.check_unique(Puzzle.parse("11..............")).kind is VerdictKind.CONTRADICTORY
    assert backend.solve(Puzzle.parse("1.3..4.2.1.4..2.")).status is SolveStatus.UNSOLVABLE


def test_budgets_give_unknown(backend):
    puzzle = Puzzle.parse(_lines("top95")[0])
    verdict = get_backend("logic:singles").check_unique(puzzle, budget=Budget(nodes=1))
    assert verdict.kind is VerdictKind.UNKNOWN
    verdict = backend.check_unique(Puzzle.empty(Shape(4, 4)), budget=Budget(seconds=0.0))
    assert verdict.kind in (VerdictKind.UNKNOWN, VerdictKind.MULTIPLE)


def test_variants_and_large_shapes(backend):
    rules = RuleSet.build(Shape(3, 3), ["anti-knight"])
    result = backend.solve(Puzzle.empty(Shape(3, 3), rules))
    assert result.solved and Puzzle.empty(Shape(3, 3), rules).is_solution(result.solution)
    for box in ((4, 4), (5, 5)):
        shape = Shape(*box)
        br, bc, n = shape.box_rows, shape.box_cols, shape.size
        full = Grid(
            shape, [(bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n)]
        )
        cells = list(range(shape.cell_count))
        random.Random(n).shuffle(cells)
        puzzle = Puzzle(full.without(cells[: shape.cell_count * 2 // 5]))
        solved = backend.solve(puzzle)
        assert solved.solved and puzzle.is_solution(solved.solution)


def _pysat_or_skip():
    try:
        return get_backend("pysat")
    except Exception as exc:  # noqa: BLE001 - any load failure means "not available here"
        pytest.skip(f"pysat backend not available: {exc}")


@pytest.mark.slow
def test_verdicts_agree_with_pysat():
    pysat = _pysat_or_skip()
    logic = get_backend("logic")
    rng = random.Random(7)
    puzzles = [Puzzle.parse(r.split(":")[0]) for r in _lines("counts-43")]
    for line in rng.sample(_lines("17-clue"), 10) + _lines("top95")[:20]:
        p = Puzzle.parse(line)
        puzzles.append(p)
        puzzles.append(p.with_givens(p.givens.without([rng.choice(p.givens.filled_cells())])))
    for puzzle in puzzles:
        a = logic.check_unique(puzzle)
        b = pysat.check_unique(puzzle)
        assert a.kind is b.kind, str(puzzle)
        if a.kind is VerdictKind.UNIQUE:
            assert a.solution == b.solution
