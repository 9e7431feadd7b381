"""The native backend against the backend contract, on facts and cross-checks."""

from __future__ import annotations

import random

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.backends.native import NativeBackend, create
from sudoku_model.data import bundled_path
from sudoku_model.errors import UnsupportedPuzzleError
from sudoku_model.rules import RULE_KINDS
from sudoku_model.solving import SolveStatus


@pytest.fixture(scope="module")
def backend() -> NativeBackend:
    b = get_backend("native")
    assert isinstance(b, NativeBackend)
    return b


def first_puzzle(name: str) -> Puzzle:
    lines = bundled_path(name).read_text().splitlines()
    return Puzzle.parse(next(ln for ln in lines if ln.strip() and not ln.startswith("#")))


def counts43() -> list[tuple[Puzzle, int, Grid | None]]:
    out = []
    for line in bundled_path("counts-43").read_text().split("\n"):
        if line.strip():
            parts = line.strip().split(":")
            sol = Grid.parse(parts[2]) if len(parts) > 2 else None
            out.append((Puzzle.parse(parts[0]), int(parts[1]), sol))
    return out


def test_registered_and_described(backend: NativeBackend) -> None:
    assert backend.name == "native"
    assert backend.capabilities.rule_kinds == frozenset(RULE_KINDS)
    assert set(backend.capabilities.budgets) == {"seconds", "nodes"}
    assert backend.version() == "0.1.0"
    with pytest.raises(ValueError):
        create("turbo")
    with pytest.raises(ValueError):
        create(None, colour="red")


@pytest.mark.parametrize("fast", [True, False])
def test_counts_43_through_the_backend(fast: bool) -> None:
    backend = create(fast=fast)
    for puzzle, expected, solution in counts43():
        result = backend.count(puzzle, limit=1000)
        assert (result.count, result.complete) == (expected, True)
        assert all(puzzle.is_solution(s) for s in result.solutions)
        verdict = backend.check_unique(puzzle)
        want = {0: VerdictKind.UNSOLVABLE, 1: VerdictKind.UNIQUE}.get(
            expected, VerdictKind.MULTIPLE
        )
        assert verdict.kind is want
        if solution is not None:
            assert result.solutions == (solution,)
            assert verdict.solution == solution
            assert backend.check_unique(puzzle, solution=solution).kind is VerdictKind.UNIQUE
        if want is VerdictKind.MULTIPLE:
            a, b = verdict.witnesses
            assert a != b and puzzle.is_solution(a) and puzzle.is_solution(b)
            other = backend.check_unique(puzzle, solution=a)
            assert other.kind is VerdictKind.MULTIPLE and other.witnesses[1] != a


def test_solve_statuses(backend: NativeBackend) -> None:
    assert backend.solve(Puzzle.parse("1.3..4.2.1.4..2.")).status is SolveStatus.UNSOLVABLE
    assert backend.solve(Puzzle.parse("11" + "." * 14)).status is SolveStatus.CONTRADICTORY
    result = backend.solve(Puzzle.parse("." * 81))
    assert result.solved and result.stats["nodes"] >= 1
    verdict = backend.check_unique(Puzzle.parse("11" + "." * 14))
    assert verdict.kind is VerdictKind.CONTRADICTORY and verdict.conflicts


def test_budget_gives_unknown(backend: NativeBackend) -> None:
    empty = Puzzle.parse("." * 81)
    result = backend.count(empty, limit=10**9, budget=Budget(nodes=2000))
    assert not result.complete and result.budget_exhausted
    top = Puzzle.parse("123456789456789123" + "." * 63)
    result = backend.count(top, limit=10**9, budget=Budget(seconds=0.1))
    assert result.verdict is VerdictKind.MULTIPLE and not result.complete
    hard = first_puzzle("forum-hardest-1106")
    assert backend.check_unique(hard, budget=Budget(nodes=1)).kind is VerdictKind.UNKNOWN
    assert backend.solve(hard, budget=Budget(seconds=0)).status is SolveStatus.UNKNOWN


def test_solutions_stream_without_limit(backend: NativeBackend) -> None:
    it = backend.solutions(Puzzle.parse("." * 16))
    grids = list(it)
    assert len(set(grids)) == 288 and it.complete is True
    it = backend.solutions(Puzzle.parse("." * 16), limit=10)
    assert len(list(it)) == 10 and it.complete is False
    # an astronomically large enumeration is consumed lazily
    it = backend.solutions(Puzzle.parse("." * 81))
    first = [next(it) for _ in range(3000)]
    assert len(set(first)) == 3000
    it = backend.solutions(Puzzle.parse("." * 81), budget=Budget(nodes=500))
    assert len(list(it)) > 0 and it.complete is False


@pytest.mark.parametrize(
    "variants",
    [["diagonal"], ["windoku"], ["anti-knight"], ["anti-king"], ["diagonal", "anti-knight"]],
)
def test_variants_fast_and_generic_agree_with_pysat_free_facts(variants: list[str]) -> None:
    rules = RuleSet.build(Shape(3, 3), variants)
    backend = create()
    for seed in range(5):
        grid = backend.random_solution(rules, random.Random(seed))
        assert grid is not None
        puzzle = Puzzle(grid, rules)
        assert puzzle.is_solution(grid)
        rng = random.Random(seed)
        cells = rng.sample(range(81), 30)
        reduced = puzzle.with_givens(grid.restricted_to(cells))
        result = backend.count(reduced, limit=50)
        assert grid in result.solutions or not result.complete or result.count == 50
        assert all(reduced.is_solution(s) for s in result.solutions)


def test_random_solution_and_clue_removal(backend: NativeBackend) -> None:
    rules = RuleSet.classic(Shape(3, 3))
    a = backend.random_solution(rules, random.Random(1))
    b = backend.random_solution(rules, random.Random(2))
    assert a is not None and b is not None and a != b
    assert backend.random_solution(rules, random.Random(1)) == a
    puzzle = first_puzzle("top95")
    solution = backend.solve(puzzle).solution
    completion = backend.random_solution(rules, random.Random(9), start=puzzle.givens)
    assert completion == solution
    with backend.removal_oracle(rules, solution) as oracle:
        for cell in puzzle.givens.filled_cells()[:10]:
            reduced = puzzle.with_givens(puzzle.givens.without([cell]))
            keeps = oracle.still_unique(reduced.givens.values, (cell,))
            assert keeps is (backend.check_unique(reduced).kind is VerdictKind.UNIQUE)


def test_count_batch(backend: NativeBackend) -> None:
    puzzles = [p for p, _, _ in counts43()]
    result = backend.count_batch(puzzles[0].rules, puzzles, limit=2, keep=2)
    for i, p in enumerate(puzzles):
        assert result.verdict(i) is backend.check_unique(p).kind
        for s in result.solutions_of(i):
            assert p.is_solution(s)


def test_model_cached_per_ruleset(backend: NativeBackend) -> None:
    rules = RuleSet.classic(Shape(3, 3))
    assert backend.model(rules) is backend.model(RuleSet.classic(Shape(3, 3)))
    assert backend.model(rules).classic9


def test_unsupported_rule_refused(backend: NativeBackend) -> None:
    class Fake(NativeBackend):
        capabilities = NativeBackend.capabilities.__class__(frozenset({"all_different"}))

    with pytest.raises(UnsupportedPuzzleError):
        Fake().solve(Puzzle.parse("." * 81, variants=["anti-king"]))


def test_count_beyond_kept_solutions_is_exact(backend: NativeBackend) -> None:
    # 6x6 with its first row given: 28,200,960 / 6! = 39,168 completions
    puzzle = Puzzle.parse("123456" + "." * 30)
    result = backend.count(puzzle, limit=10**6)
    assert (result.count, result.complete) == (28_200_960 // 720, True)
    assert len(result.solutions) == 10_000 and len(set(result.solutions)) == 10_000
