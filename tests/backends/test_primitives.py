"""The contract's optional primitives (``check_unique_batch``, ``removal_oracle``,
``random_solution``), run against every selected backend (``--backend``; see conftest): each
answers like the four public methods, and a backend's fast path answers like the generic
default of the base class on the same puzzles (verdicts equal, witnesses valid, removal
answers equal). Facts used: every 17-clue puzzle is unique and minimal (McGuire et al.
2012), so removing any one clue makes it non-unique; counts-43 carries solution counts."""

from __future__ import annotations

import random
from functools import cache

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, formats
from sudoku_model.data import bundled_path
from sudoku_model.solving import PRIMITIVES, Backend, evidence_problem, is_full_grid

K = VerdictKind
FAST_PREFIXES = ("pysat", "native")


def small(backend: Backend) -> bool:
    return not backend.name.startswith(FAST_PREFIXES)


@cache
def puzzles(name: str) -> tuple[Puzzle, ...]:
    return tuple(r.puzzle for r in formats.iter_records(bundled_path(name)) if r.puzzle)


def batch_sample(backend: Backend) -> list[Puzzle]:
    """9x9 classic puzzles of every verdict: unique, multiple (a 17-clue puzzle minus a
    clue), contradictory (clashing givens) and unsolvable (from counts-43)."""
    rng = random.Random(4)
    k = 4 if small(backend) else 30
    unique = rng.sample(puzzles("17-clue"), k)
    multiple = [p.with_givens(p.givens.without([p.givens.filled_cells()[0]])) for p in unique]
    clash = Puzzle.parse("11" + "." * 79)
    counts = [p for p in puzzles("counts-43") if p.size == 9 and p.rules.is_classic]
    return [*unique, *multiple, clash, *counts[:k]]


def test_fast_paths_are_declared_overrides(backend: Backend) -> None:
    # what the capabilities say is what the class does: an advertised fast path overrides
    # the base class's method, and every override is advertised
    for name in PRIMITIVES:
        overridden = getattr(type(backend), name) is not getattr(Backend, name)
        assert overridden == (name in backend.capabilities.fast_paths), name


def test_check_unique_batch_agrees_with_check_unique_and_the_default(backend: Backend) -> None:
    sample = batch_sample(backend)
    rules = sample[0].rules
    assert all(p.rules == rules for p in sample)
    data = b"".join(bytes(p.givens.values) for p in sample)
    fast = backend.check_unique_batch(rules, data)
    default = Backend.check_unique_batch(backend, rules, [bytes(p.givens.values) for p in sample])
    assert len(fast) == len(default) == len(sample)
    singles = [backend.check_unique(p).kind for p in sample]
    assert fast.kinds == default.kinds == singles
    assert {K.UNIQUE, K.MULTIPLE, K.CONTRADICTORY} <= set(fast.kinds)
    for i, p in enumerate(sample):
        for batch in (fast, default):
            verdict = batch.verdict(i, p)
            assert evidence_problem(p, verdict) is None, (i, batch.backend)
            if verdict.kind is K.UNIQUE:
                assert verdict.solution == backend.check_unique(p).solution
            if verdict.kind is K.MULTIPLE:
                assert len(verdict.witnesses) == 2
            if verdict.kind is K.CONTRADICTORY:
                assert verdict.conflicts
    # the batch names the engine that answered (a composite: the engine it routes to)
    assert fast.seconds >= 0 and fast.backend == backend.engine_name()


def test_check_unique_batch_refuses_bad_data(backend: Backend) -> None:
    rules = RuleSet.classic(Shape(2, 2))
    with pytest.raises(ValueError):
        backend.check_unique_batch(rules, bytes(15))
    with pytest.raises(ValueError):
        backend.check_unique_batch(rules, bytes([5] + [0] * 15))
    assert backend.check_unique_batch(rules, b"").kinds == []


def test_check_unique_batch_budget_spent_is_unknown(backend: Backend) -> None:
    hard = list(puzzles("forum-hardest-1106")[:3])
    rules = hard[0].rules
    budget = Budget(seconds=0.0, nodes=0, conflicts=0)
    batch = backend.check_unique_batch(rules, [bytes(p.givens.values) for p in hard], budget=budget)
    for i, (p, kind) in enumerate(zip(hard, batch.kinds)):
        assert kind in (K.UNKNOWN, K.UNIQUE)  # never an exception; an answer must hold
        assert evidence_problem(p, batch.verdict(i, p)) is None


def removal_cases(backend: Backend) -> list[tuple[Puzzle, Grid]]:
    k = 2 if small(backend) else 6
    out = []
    for p in random.Random(9).sample(puzzles("17-clue"), k):
        solution = backend.check_unique(p).solution
        assert solution is not None
        out.append((p, solution))
    return out


def test_removal_oracle_agrees_with_the_default_and_the_facts(backend: Backend) -> None:
    for puzzle, solution in removal_cases(backend):
        rules = puzzle.rules
        values = bytearray(puzzle.givens.values)
        with (
            backend.removal_oracle(rules, solution) as fast,
            Backend.removal_oracle(backend, rules, solution) as default,
        ):
            # 17-clue puzzles are minimal: every single clue is necessary
            for cell in puzzle.givens.filled_cells():
                values[cell] = 0
                assert fast.still_unique(values, (cell,)) is False
                assert default.still_unique(values, (cell,)) is False
                values[cell] = solution.values[cell]
            # adding back solution digits keeps it unique: removing them again is fine
            extra = [c for c in range(81) if not values[c]][:9]
            fuller = bytearray(values)
            for c in extra:
                fuller[c] = solution.values[c]
            for group in (extra[:1], extra[:3], extra):  # one cell, a group, > GROUP_LIMIT
                assert fast.still_unique(values, group) is True
                assert default.still_unique(values, group) is True
            # a group that holds a necessary clue
            clue = puzzle.givens.filled_cells()[0]
            values[clue] = 0
            group = [clue, *extra[:7]]
            assert fast.still_unique(values, group) is default.still_unique(values, group) is False
            values[clue] = solution.values[clue]


def test_removal_oracle_refuses_what_is_not_a_full_grid(backend: Backend) -> None:
    rules = RuleSet.classic(Shape(2, 2))
    good = Grid.parse("1234341221434321")
    for bad in ("1234341221434312", "123434122143432."):  # a repeat; an empty cell
        with pytest.raises(ValueError, match="full grid"):
            backend.removal_oracle(rules, Grid.parse(bad))
    with pytest.raises(ValueError, match="full grid"):  # another shape
        backend.removal_oracle(RuleSet.classic(Shape(3, 3)), good)
    with backend.removal_oracle(rules, good) as oracle, pytest.raises(ValueError, match="values"):
        oracle.still_unique([0] * 15, (0,))


@pytest.mark.parametrize(
    ("box", "variants"),
    [((2, 2), ()), ((2, 3), ()), ((3, 3), ()), ((3, 3), ("diagonal",)), ((3, 3), ("anti-knight",))],
)
def test_random_solution_is_a_valid_grid_and_reproducible(
    backend: Backend, box: tuple[int, int], variants: tuple[str, ...]
) -> None:
    rules = RuleSet.build(Shape(*box), variants)
    grids = [backend.random_solution(rules, random.Random(s)) for s in range(6)]
    got = [g for g in grids if g is not None]
    assert len(got) >= 4  # None only means "draw again"
    assert all(is_full_grid(rules, g) for g in got)
    assert len(set(got)) >= 3
    assert backend.random_solution(rules, random.Random(0)) == grids[0]
    default = Backend.random_solution(backend, rules, random.Random(1))
    assert default is not None and is_full_grid(rules, default)


def test_random_solution_extends_a_start(backend: Backend) -> None:
    puzzle = puzzles("easy50")[0]
    solution = backend.check_unique(puzzle).solution
    for rng in (random.Random(2), random.Random(3)):
        assert backend.random_solution(puzzle.rules, rng, start=puzzle.givens) == solution
    no_candidate = Grid(Shape(2, 2), [1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 3, 0])
    rules = RuleSet.classic(Shape(2, 2))
    assert backend.random_solution(rules, random.Random(1), start=no_candidate) is None
    with pytest.raises(ValueError):
        backend.random_solution(RuleSet.classic(Shape(3, 3)), random.Random(1), start=no_candidate)
