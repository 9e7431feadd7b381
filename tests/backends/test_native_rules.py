"""The native backend on every constraint rule kind: counts against a brute-force
oracle that shares no code with the C encoding, every solution checked by the rules'
checkers, the killer-200 collection solved unique and equal to its published solutions,
and agreement with every other loadable backend that declares the kinds."""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model import rules as R
from sudoku_model.errors import UnsupportedPuzzleError
from sudoku_model.solving import Backend

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rule_instances import (  # noqa: E402
    KINDS,
    brute_force_solutions,
    killer_puzzles,
    random_instance,
)

NATIVE = get_backend("native")
GENERIC = get_backend("native", fast=False)
LIMIT = 60
#: (shape, givens, instances per kind): small enough for the brute-force oracle.
SIZES = ((Shape(2, 2), 0, 12), (Shape(2, 3), 14, 6), (Shape(3, 3), 38, 4))


def _seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape, givens, instances", SIZES, ids=["4x4", "6x6", "9x9"])
def test_counts_match_brute_force(kind: str, shape: Shape, givens: int, instances: int) -> None:
    rng = random.Random(_seed(kind, shape.name))
    for _ in range(instances):
        puzzle, _ = random_instance(kind, shape, rng, givens)
        expected = brute_force_solutions(puzzle)
        result = NATIVE.count(puzzle, limit=LIMIT)
        assert result.count == min(len(expected), LIMIT), (kind, puzzle.rules.rules[3:])
        assert result.complete == (len(expected) < LIMIT)
        for grid in result.solutions:
            assert puzzle.check(grid).ok
            assert grid.values in set(expected)


def test_the_kinds_are_declared() -> None:
    assert set(R.RULE_KINDS) <= NATIVE.capabilities.rule_kinds


@pytest.mark.parametrize("kind", KINDS)
def test_uniqueness_and_witnesses_on_9x9(kind: str) -> None:
    # Fewer givens than the brute force can take: the verdict is checked through its
    # witnesses (each passes the checker; two witnesses differ) and against the generic
    # path of the same backend with the fixed-size path disabled.
    rng = random.Random(_seed("unique", kind))
    for _ in range(6):
        puzzle, _ = random_instance(kind, Shape(3, 3), rng, 24)
        verdict = NATIVE.check_unique(puzzle)
        assert verdict.kind == GENERIC.check_unique(puzzle).kind
        if verdict.kind is VerdictKind.UNIQUE:
            assert verdict.solution is not None and puzzle.check(verdict.solution).ok
        elif verdict.kind is VerdictKind.MULTIPLE:
            a, b = verdict.witnesses
            assert a != b and puzzle.check(a).ok and puzzle.check(b).ok
        else:  # givens that break a rule are contradictory before any search
            assert verdict.kind in (VerdictKind.UNSOLVABLE, VerdictKind.CONTRADICTORY)


def test_killer_puzzles_unique_and_published() -> None:
    for puzzle, published in killer_puzzles():
        verdict = NATIVE.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE
        assert verdict.solution == published


def test_random_solution_honours_the_rules() -> None:
    shape = Shape(3, 3)
    rules = RuleSet.classic(shape).with_rules(
        [
            R.nonconsecutive_rule(shape),
            R.parity_rule(shape, even=[0, 10, 20], odd=[1, 11]),
            R.killer_rule(shape, [((30, 31), 4)]),  # {1, 3}: not consecutive
        ]
    )
    rng = random.Random(5)
    for _ in range(5):
        grid = NATIVE.random_solution(rules, rng)
        assert grid is not None and Puzzle(grid, rules).check(grid).ok


def test_classic_fast_path_is_left_for_extra_rules() -> None:
    shape = Shape(3, 3)
    # a cage inside one box adds no peer: the classic 9x9 path must still not take it
    rules = RuleSet.classic(shape).with_rules([R.killer_rule(shape, [((0, 1), 17)])])
    assert not NATIVE.model(rules).classic9
    assert NATIVE.model(RuleSet.classic(shape)).classic9
    # a domain alone (candidate masks) is the one extra the classic path takes
    domain_only = RuleSet.classic(shape).with_rules([R.parity_rule(shape, even=[0])])
    assert NATIVE.model(domain_only).classic9
    count = NATIVE.count(Puzzle.empty(shape, rules), limit=1)
    assert {count.solutions[0].values[0], count.solutions[0].values[1]} == {8, 9}


def test_a_weight_beyond_the_c_range_is_refused() -> None:
    shape = Shape(2, 2)
    group = R.SumGroup((0, 1), (2**31, 1), 2**31 + 1, False)
    rules = RuleSet.classic(shape).with_rules([R.Sum("huge", (group,))])
    with pytest.raises(UnsupportedPuzzleError, match="weight"):
        NATIVE.count(Puzzle.empty(shape, rules), limit=1)


def _supporting(backends: list[Backend], rules: RuleSet) -> list[Backend]:
    return [b for b in backends if rules.kinds <= b.capabilities.rule_kinds]


@pytest.mark.parametrize("kind", KINDS)
def test_agrees_with_every_backend_that_declares_the_kind(
    kind: str, loadable_backends: list[Backend]
) -> None:
    rng = random.Random(_seed("agree", kind))
    compared = 0
    for _ in range(3):
        puzzle, _ = random_instance(kind, Shape(3, 3), rng, 22)
        others = [b for b in _supporting(loadable_backends, puzzle.rules) if b.name != "native"]
        if not others:
            continue
        expected = NATIVE.count(puzzle, limit=8)
        assert expected.complete or expected.count == 8
        for other in others:
            if other.name == "logic":
                continue  # its own tests check it (its search is slow on sparse 9x9)
            got = other.count(puzzle, limit=8)
            assert (got.count, got.complete) == (expected.count, expected.complete), other.name
            compared += 1
    if not compared:
        pytest.skip(f"no other loadable backend declares the {kind} rules yet")


def test_overlapping_cages_of_two_rules_get_no_45_rule() -> None:
    # Two killer rules whose cages share cells: no partition of a unit into cages, so no
    # implied sum may be derived (one would count the shared cells twice).
    shape = Shape(2, 2)
    first = R.killer_rule(shape, [((0, 1), 3), ((2, 3), 7), ((4, 5, 6, 7), 10)])
    second = R.killer_rule(shape, [((1, 2), 5), ((0, 4), 4)], name="second")
    puzzle = Puzzle.empty(shape, RuleSet.classic(shape).with_rules([first, second]))
    expected = brute_force_solutions(puzzle)
    assert NATIVE.count(puzzle, limit=300).count == len(expected)
    assert get_backend("logic").count(puzzle, limit=300).count == len(expected)
