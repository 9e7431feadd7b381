"""The CP-SAT backend beyond the shared contract: options, budgets, larger grids."""

from __future__ import annotations

import pytest

from sudoku_model import Budget, Puzzle, RuleSet, Shape, VerdictKind, formats, get_backend
from sudoku_model.backends.cpsat import CPSATBackend, create
from sudoku_model.data import bundled_path


def first(name: str) -> Puzzle:
    return next(iter(formats.iter_records(bundled_path(name)))).puzzle


def test_factory_options() -> None:
    assert isinstance(get_backend("cp-sat"), CPSATBackend)
    assert create(workers=2).workers == 2
    with pytest.raises(ValueError, match="sub-solvers"):
        create("fast")
    with pytest.raises(ValueError, match="workers"):
        create(workers=0)
    with pytest.raises(ValueError, match="parameter"):
        create(parameters={"no_such_parameter": 1})


def test_two_workers_give_the_same_answers() -> None:
    backend = create(workers=2)
    assert backend.count(Puzzle.empty(Shape(2, 2)), limit=1000).count == 288
    assert backend.check_unique(first("hardest")).kind is VerdictKind.UNIQUE


def test_conflict_and_zero_budgets_end_in_unknown() -> None:
    backend = create()
    assert (
        backend.check_unique(first("hardest"), budget=Budget(seconds=0)).kind is VerdictKind.UNKNOWN
    )
    result = backend.count(Puzzle.empty(Shape(3, 3)), limit=10**6, budget=Budget(conflicts=5))
    assert not result.complete and result.budget_exhausted


@pytest.mark.parametrize(
    ("shape", "variants"), [(Shape(4, 4), ()), (Shape(3, 3), ("anti-knight", "diagonal"))]
)
def test_larger_and_variant_grids(shape: Shape, variants: tuple[str, ...]) -> None:
    backend = create()
    puzzle = Puzzle.empty(shape, RuleSet.build(shape, variants))
    result = backend.count(puzzle, limit=3)
    assert result.count == 3 and all(puzzle.check(g).ok for g in result.solutions)


def test_stats_and_version() -> None:
    backend = create()
    verdict = backend.check_unique(first("forum-hardest-1106"))
    assert {"conflicts", "decisions", "propagations"} <= set(verdict.stats)
    assert backend.version().startswith("ortools ")
