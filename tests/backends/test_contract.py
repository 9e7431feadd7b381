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
    # the slower engines (one solve per solution and more) count the puzzles of up to 601
    # solutions, and HiGHS, which needs 1-5 s for each hard unique or unsolvable puzzle,
    # every third of those; native and pysat count every puzzle (up to 847)
    most = 10**6 if backend.name.startswith(FAST_PREFIXES) else 601
    step = 3 if backend.name.startswith("mip") else 1
    for puzzle, comment in bundled("counts-43")[::step]:
        expected, _, solution_text = comment.partition(":")
        if int(expected) > most:
            continue
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


# -- declared capabilities: what a backend declares is what it does ----------------------------
def test_certification_is_declared(backend: Backend) -> None:
    from sudoku_model.errors import NotSupported

    caps = backend.capabilities
    assert caps.certifies == (backend.certificate_refusal() is None)
    puzzle = Puzzle.parse(".2..3....1....4.")  # unique
    assert backend.check_unique(puzzle).kind is VerdictKind.UNIQUE
    if not caps.certifies:
        with pytest.raises(NotSupported, match="cannot certify"):
            backend.certificate(puzzle.rules, puzzle.givens)
        return
    cert = backend.certificate(puzzle.rules, puzzle.givens)
    assert cert.verdict is VerdictKind.UNIQUE and cert.proof is not None
    assert cert.solution == backend.check_unique(puzzle).solution


def test_close_frees_and_the_backend_answers_again(backend_name: str) -> None:
    from sudoku_model.solving import get_backend

    puzzle = bundled("top95")[0][0]
    with get_backend(backend_name) as fresh:
        first = fresh.check_unique(puzzle)
        fresh.close()
        again = fresh.check_unique(puzzle)
        assert (again.kind, again.solution) == (first.kind, first.solution)
        fresh.close()
        fresh.close()  # closing twice is harmless


def test_sub_solvers_are_names_the_factory_takes(backend: Backend, backend_name: str) -> None:
    from sudoku_model.solving import get_backend

    base = backend_name.partition(":")[0]
    subs = backend.capabilities.sub_solvers
    assert len(set(subs)) == len(subs) and all(s and ":" not in s for s in subs)
    for sub in subs[:4]:
        try:
            other = get_backend(f"{base}:{sub}")
        except ValueError as exc:  # declared but not compiled into this installation
            assert "not available" in str(exc)
            continue
        assert other.name.startswith(base)
        assert other.capabilities.sub_solvers == subs
        other.close()
    if not subs:
        with pytest.raises(ValueError):
            get_backend(f"{base}:no-such-solver")


def test_bulk_verify_is_declared_and_agrees_with_the_batch(backend: Backend) -> None:
    from sudoku_model.errors import NotSupported
    from sudoku_model.solving import PLAIN_KINDS

    lines = [p.givens.to_line() for p, _ in spread(bundled("top95"), 6, seed=5)]
    lines += ["not a puzzle", lines[0][:-1] + "."]
    if not backend.capabilities.bulk_verify:
        with pytest.raises(NotSupported):
            backend.verify_plain_lines("\n".join(lines), len(lines))
        return
    answer = backend.verify_plain_lines("\n".join(lines), len(lines))
    assert answer is not None
    rules = RuleSet.classic(Shape(3, 3))
    plain = [line for line in lines if len(line) == 81]
    batch = backend.check_unique_batch(rules, [bytes(Grid.parse(x).values) for x in plain])
    kinds = [PLAIN_KINDS[status] for status in answer.statuses]
    assert kinds[-2] is None  # not a plain line: the general path reads it
    assert [k for k in kinds if k is not None] == batch.kinds
    assert answer.size == len(plain) and answer.evidence_ok
    # the columns are values: the givens and solutions of each plain line, no text
    plain_rows = [j for j, k in enumerate(kinds) if k is not None]
    for row, line in zip(plain_rows, plain):
        givens = answer.givens[row * 81 : (row + 1) * 81]
        assert givens == bytes(Grid.parse(line).values)
        assert answer.clues[row] == 81 - givens.count(0)
        if kinds[row] is VerdictKind.UNIQUE:
            assert answer.solutions[row * 81 : (row + 1) * 81] == bytes(
                batch.solution(plain.index(line)).values
            )


def test_a_composite_names_its_engine_and_routes_by_declared_data(backend: Backend) -> None:
    caps = backend.capabilities
    verdict = backend.check_unique(bundled("top95")[0][0])
    assert verdict.backend == backend.engine_name()
    if not caps.routing:
        assert backend.engine_name() == backend.name
    else:
        assert all(isinstance(line, str) and line for line in caps.routing)
