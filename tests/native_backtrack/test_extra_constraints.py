"""The C core's extra constraints at its own interface: relations, domains, sums
and sandwiches as plain tuples, malformed arguments refused with ValueError naming the
argument, and the corner cases of each propagator checked against brute force."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model import native_backtrack as nb

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rule_instances import classic_solutions, random_grid  # noqa: E402

RULES4 = RuleSet.classic(Shape(2, 2))
ALL4 = classic_solutions(Puzzle.empty(Shape(2, 2)))


def model4(**extra: object) -> nb.Model:
    return nb.Model(4, RULES4.units, RULES4.pairs, **extra)  # type: ignore[arg-type]


def count4(**extra: object) -> int:
    count, status, *_ = model4(**extra).solve(bytes(16), limit=1000, keep=0)
    assert status == nb.EXHAUSTED
    return count


def test_the_empty_4x4_has_288_grids() -> None:
    assert len(ALL4) == 288
    assert count4(relations=[], domains=[], sums=[], sandwiches=[]) == 288


@pytest.mark.parametrize("total", range(0, 12))
def test_a_distinct_sum_on_two_cells_of_a_row(total: int) -> None:
    expected = sum(1 for s in ALL4 if s[0] + s[1] == total)
    assert count4(sums=[((0, 1), (1, 1), total, True)]) == expected


@pytest.mark.parametrize("cells", [(0, 5), (0, 15), (3, 12, 9)])
@pytest.mark.parametrize("distinct", [False, True])
def test_sums_across_units(cells: tuple[int, ...], distinct: bool) -> None:
    for total in range(len(cells), 4 * len(cells) + 1):
        expected = sum(
            1
            for s in ALL4
            if sum(s[c] for c in cells) == total
            and (not distinct or len({s[c] for c in cells}) == len(cells))
        )
        assert count4(sums=[(cells, (1,) * len(cells), total, distinct)]) == expected


@pytest.mark.parametrize("weights", [(-1, 1, 1), (-10, -1, 1), (3, -2, 1), (2, 2, -1)])
def test_weighted_sums(weights: tuple[int, int, int]) -> None:
    cells = (0, 6, 15)
    for total in range(-40, 41, 3):
        expected = sum(1 for s in ALL4 if sum(w * s[c] for w, c in zip(weights, cells)) == total)
        assert count4(sums=[(cells, weights, total, False)]) == expected


def test_a_distinct_group_beyond_n_cells_has_no_solution() -> None:
    cells = (0, 1, 4, 5, 10)  # five different digits out of four
    assert count4(sums=[(cells, (1,) * 5, 12, True)]) == 0
    expected = sum(1 for s in ALL4 if sum(s[c] for c in cells) == 12)
    assert count4(sums=[(cells, (1,) * 5, 12, False)]) == expected > 0


def test_relations_with_self_pairs_restrict_the_cell() -> None:
    same_only = [(1, 1), (3, 3), (1, 2)]
    expected = sum(1 for s in ALL4 if s[5] in (1, 3))
    assert count4(relations=[(((5, 5),), same_only)]) == expected


@pytest.mark.parametrize("seed", range(6))
def test_random_relation_tables(seed: int) -> None:
    rng = random.Random(seed)
    digits = range(1, 5)
    allowed = {(a, b) for a in digits for b in digits if rng.random() < 0.5}
    pairs = [tuple(rng.sample(range(16), 2)) for _ in range(3)]
    expected = sum(1 for s in ALL4 if all((s[a], s[b]) in allowed for a, b in pairs))
    assert count4(relations=[(pairs, allowed)]) == expected


def test_domains_intersect() -> None:
    expected = sum(1 for s in ALL4 if s[0] == 2 and s[7] in (1, 4))
    assert count4(domains=[(0, (2, 3)), (0, [2, 4]), (7, frozenset({1, 4}))]) == expected
    # a given outside its domain: no solution, never a crash
    g = bytearray(16)
    g[0] = 1
    count, status, *_ = model4(domains=[(0, (2,))]).solve(bytes(g), limit=10)
    assert (count, status) == (0, nb.EXHAUSTED)


def _sandwich_holds(s: tuple[int, ...], line: tuple[int, ...], total: int) -> bool:
    digits = [s[c] for c in line]
    if 1 not in digits or 4 not in digits:
        return False  # the C core's rule for a line that is not a unit
    i, j = sorted((digits.index(1), digits.index(4)))
    return sum(digits[i + 1 : j]) == total


def test_sandwich_lines_of_the_4x4() -> None:
    for line in (RULES4.units[0], RULES4.units[5], (0, 5, 10, 15)):
        for total in range(0, 6):
            expected = sum(_sandwich_holds(s, line, total) for s in ALL4)
            assert count4(sandwiches=[(line, total)]) == expected, (line, total)


def test_many_digit_sets_fall_back_to_bounds_on_16x16() -> None:
    # Eight cells of a 16x16 row summing to 68 have far more than 512 digit sets: the
    # group is propagated by bounds only, and the count must not change.
    shape = Shape(4, 4)
    rules = RuleSet.classic(shape)
    rng = random.Random(3)
    grid = random_grid(shape, rng)
    cells = tuple(range(8))
    total = sum(grid.values[c] for c in cells)
    values = list(grid.values)
    for c in (*cells, 20, 37):
        values[c] = 0
    puzzle = Puzzle(Grid(shape, values), rules)
    expected = [
        s
        for s in classic_solutions(puzzle)
        if sum(s[c] for c in cells) == total and len({s[c] for c in cells}) == 8
    ]
    m = nb.Model(16, rules.units, rules.pairs, sums=[(cells, (1,) * 8, total, True)])
    count, status, sols, *_ = m.solve(bytes(values), limit=10**6)
    assert status == nb.EXHAUSTED and count == len(expected) >= 1
    assert sorted(tuple(s) for s in sols) == sorted(expected)


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"relations": [((0, 1),)]}, r"relations\[0\] must be a pair"),
        ({"relations": [([(0, 99)], [(1, 2)])]}, "outside the grid"),
        ({"relations": [([(0, 1)], [(1, 5)])]}, r"digit 5 is outside 1..4"),
        ({"relations": [([(0, 1)], [(1,)])]}, r"allowed\[0\] must be a digit pair"),
        ({"domains": [(16, (1,))]}, r"domains\[0\]: cell 16 is outside"),
        ({"domains": [(0, (0,))]}, "digit 0 is outside"),
        ({"domains": [(0, 1)]}, "digits must be a collection"),
        ({"sums": [((0, 1), (1,), 3, True)]}, r"sums\[0\]: 2 cells but 1 weights"),
        ({"sums": [((0, 1), (1, 1), 3)]}, r"sums\[0\] must be a tuple"),
        ({"sums": [((0, 1), (1, 2**31), 3, False)]}, "weight 2147483648 is outside"),
        ({"sums": [((0, 0), (1, 1), 3, True)]}, "repeats cell 0"),
        ({"sums": [((0, 1), (1, "a"), 3, False)]}, "expected an integer"),
        ({"sandwiches": [((0, 1, 2, 3), -1)]}, "negative"),
        ({"sandwiches": [((0, 1, 1, 3), 2)]}, "repeats cell 1"),
        ({"sandwiches": [((0, 1, 2, 300), 2)]}, "outside the grid"),
    ],
)
def test_malformed_extras_are_refused(extra: dict[str, object], message: str) -> None:
    # ValueError for a bad value, TypeError where a collection is not one
    with pytest.raises((ValueError, TypeError), match=message):
        model4(**extra)


def test_a_failed_build_leaves_no_half_model() -> None:
    m = nb.Model.__new__(nb.Model)
    with pytest.raises(ValueError):
        m.__init__(4, RULES4.units, [], sums=[((0, 1), (1,), 3, True)])  # type: ignore[misc]
    m.__init__(4, RULES4.units, [], sums=[((0, 1), (1, 1), 3, True)])  # type: ignore[misc]
    assert m.solve(bytes(16), limit=1000, keep=0)[0] == 48


def test_extras_never_take_the_classic_path() -> None:
    r9 = RuleSet.classic(Shape(3, 3))
    plain = nb.Model(9, r9.units, r9.pairs)
    assert plain.classic9
    # candidate masks alone are the one extra the classic path takes (pencilmark puzzles)
    assert nb.Model(9, r9.units, r9.pairs, domains=[(0, (1, 2))]).classic9
    for extra in (
        {"sums": [((0, 1), (1, 1), 17, True)]},
        {"relations": [([(0, 1)], [(a, b) for a, b in itertools.product(range(1, 10), repeat=2)])]},
        {"sandwiches": [(r9.units[0], 0)]},
    ):
        assert not nb.Model(9, r9.units, r9.pairs, **extra).classic9  # type: ignore[arg-type]
