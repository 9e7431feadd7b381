"""Locked candidates in the generic path change the search, never the answers: counts and
solution sets with and without them agree on random puzzles with several solutions, and
with the classic 9x9 fast path."""

from __future__ import annotations

import random

import pytest

from sudoku_model import native_backtrack as nb
from sudoku_model.geometry import Shape
from sudoku_model.rules import RuleSet

LIMIT = 300


def models(rules: RuleSet) -> tuple[nb.Model, nb.Model]:
    n = rules.shape.size
    return (
        nb.Model(n, rules.units, rules.pairs),
        nb.Model(n, rules.units, rules.pairs, locked=False),
    )


def multi_solution_puzzles(
    m: nb.Model, n: int, seed: int, count: int, keep_fraction: float
) -> list[bytes]:
    """Random puzzles cut from random full grids, each with at least two solutions."""
    rng = random.Random(seed)
    cells = n * n
    found: list[bytes] = []
    for _ in range(count * 20):
        full = m.search(bytes(cells), seed=rng.getrandbits(62)).run(1)[1][0]
        keep = set(rng.sample(range(cells), int(cells * keep_fraction)))
        givens = bytes(full[c] if c in keep else 0 for c in range(cells))
        if m.solve(givens, limit=2, keep=0, fast=False)[0] >= 2:
            found.append(givens)
            if len(found) == count:
                break
    return found


@pytest.mark.parametrize(
    "shape,variants,keep_fraction",
    [
        (Shape(2, 3), [], 0.3),
        (Shape(2, 4), [], 0.35),
        (Shape(3, 3), [], 0.36),
        (Shape(3, 3), ["diagonal"], 0.28),
        (Shape(3, 3), ["windoku"], 0.28),
        (Shape(4, 4), [], 0.5),
    ],
)
def test_locked_candidates_keep_counts_and_solutions(
    shape: Shape, variants: list[str], keep_fraction: float
) -> None:
    rules = RuleSet.build(shape, variants)
    n = shape.size
    with_locked, singles_only = models(rules)
    assert with_locked.locked_pairs > 0 and singles_only.locked_pairs == 0
    puzzles = multi_solution_puzzles(
        with_locked, n, seed=n * 31 + len(variants), count=12, keep_fraction=keep_fraction
    )
    assert len(puzzles) == 12
    several = 0
    for givens in puzzles:
        a = with_locked.solve(givens, limit=LIMIT, fast=False)
        b = singles_only.solve(givens, limit=LIMIT, fast=False)
        assert a[0] == b[0] and a[1] == b[1]
        if a[1] == nb.EXHAUSTED:
            assert sorted(a[2]) == sorted(b[2])
        several += a[0] >= 2
        if rules.is_classic and n == 9:
            fast = with_locked.solve(givens, limit=LIMIT, keep=0)
            assert (fast[0], fast[1]) == (a[0], a[1])
    assert several == len(puzzles)


def test_locked_candidates_prune_the_search() -> None:
    """Same answers with fewer nodes on 16x16 puzzles (the point of the extra logic)."""
    rules = RuleSet.classic(Shape(4, 4))
    with_locked, singles_only = models(rules)
    puzzles = multi_solution_puzzles(with_locked, 16, seed=5, count=6, keep_fraction=0.45)
    nodes_locked = nodes_singles = 0
    for givens in puzzles:
        a = with_locked.solve(givens, limit=50, keep=0)
        b = singles_only.solve(givens, limit=50, keep=0)
        assert (a[0], a[1]) == (b[0], b[1])
        nodes_locked += a[3]
        nodes_singles += b[3]
    assert nodes_locked < nodes_singles


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3), Shape(4, 4)])
def test_preferred_digits_order_the_solutions_not_the_count(shape: Shape) -> None:
    """``prefer=S`` for a solution S finds S first (its digits stay possible along its
    own path) and leaves the count and the solution set unchanged."""
    rules = RuleSet.classic(shape)
    n = shape.size
    m, _ = models(rules)
    for givens in multi_solution_puzzles(m, n, seed=n, count=8, keep_fraction=0.45):
        plain = m.solve(givens, limit=LIMIT, fast=False)
        target = plain[2][-1]
        ordered = m.solve(givens, limit=LIMIT, fast=False, prefer=target)
        assert (ordered[0], ordered[1]) == (plain[0], plain[1])
        assert ordered[2][0] == target
        if plain[1] == nb.EXHAUSTED:
            assert sorted(ordered[2]) == sorted(plain[2])
        # the forbidden-pair question: another solution differing at a cell of S
        cell = next(
            c for c in range(n * n) if not givens[c] and any(s[c] != target[c] for s in plain[2])
        )
        other = m.solve(
            givens, limit=1, fast=False, prefer=target, forbidden=((cell, target[cell]),)
        )
        assert other[0] == 1 and other[2][0][cell] != target[cell]
