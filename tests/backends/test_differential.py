"""Differential tests: every loadable backend answers the same random puzzles the same way.

Puzzles come from random full grids (a seeded randomised search written here, independent of
every backend) with random cells deleted, plus random clashing givens, on several shapes and
variants. All backends must agree on the verdict and on the count up to the limit; every
solution any backend returns must pass the model's checker; when the count is exact, the
solution sets must be equal.
"""

from __future__ import annotations

import random
import zlib

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, VerdictKind
from sudoku_model.solving import Backend

LIMIT = 4

# Jigsaw layouts (one region label per cell), checked solvable by the random search below.
JIGSAW_6X6 = (
    0,
    0,
    0,
    1,
    1,
    1,
    0,
    0,
    2,
    1,
    1,
    1,
    0,
    2,
    2,
    2,
    3,
    3,
    4,
    4,
    2,
    2,
    3,
    3,
    4,
    4,
    5,
    5,
    3,
    3,
    4,
    4,
    5,
    5,
    5,
    5,
)
JIGSAW_9X9 = (
    0,
    0,
    0,
    0,
    1,
    1,
    1,
    1,
    1,
    0,
    0,
    0,
    0,
    2,
    1,
    1,
    1,
    1,
    0,
    3,
    2,
    2,
    2,
    2,
    2,
    2,
    4,
    3,
    3,
    3,
    2,
    2,
    5,
    4,
    4,
    4,
    3,
    3,
    3,
    5,
    5,
    5,
    4,
    4,
    4,
    3,
    3,
    6,
    6,
    5,
    5,
    4,
    4,
    7,
    6,
    6,
    6,
    6,
    5,
    5,
    7,
    7,
    7,
    8,
    8,
    6,
    6,
    6,
    5,
    7,
    7,
    7,
    8,
    8,
    8,
    8,
    8,
    8,
    8,
    7,
    7,
)

CASES = [
    (Shape(2, 2), ()),
    (Shape(2, 2), ("diagonal",)),
    (Shape(2, 3), ()),
    (Shape(3, 2), ()),
    (Shape(2, 3), ("diagonal",)),
    (Shape(2, 3), ("anti-king",)),
    (Shape(2, 3), ("jigsaw",)),
    (Shape(3, 3), ()),
    (Shape(3, 3), ("diagonal",)),
    (Shape(3, 3), ("windoku",)),
    (Shape(3, 3), ("anti-knight",)),
    (Shape(3, 3), ("anti-king",)),
    (Shape(3, 3), ("jigsaw",)),
    (Shape(2, 4), ()),
    (Shape(2, 4), ("windoku",)),
]


def rules_for(shape: Shape, variants: tuple[str, ...]) -> RuleSet:
    regions = None
    if "jigsaw" in variants:
        regions = {6: JIGSAW_6X6, 9: JIGSAW_9X9}[shape.size]
    return RuleSet.build(shape, variants, regions)


class _OutOfNodes(Exception):
    pass


def _random_attempt(rules: RuleSet, rng: random.Random, max_nodes: int) -> list[int] | None:
    """One depth-first search, fewest candidates first; None when it ran out of nodes."""
    n = rules.shape.size
    peers = rules.peers
    all_digits = set(range(1, n + 1))
    values = [0] * rules.shape.cell_count
    nodes = 0

    def candidates(cell: int) -> set[int]:
        return all_digits - {values[p] for p in peers[cell]}

    def fill() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        empty = [c for c, v in enumerate(values) if not v]
        if not empty:
            return True
        cell = min(empty, key=lambda c: (len(candidates(c)), rng.random()))
        digits = list(candidates(cell))
        rng.shuffle(digits)
        for digit in digits:
            values[cell] = digit
            if fill():
                return True
        values[cell] = 0
        return False

    try:
        if not fill():
            raise AssertionError(f"no solution for {rules}")
    except _OutOfNodes:
        return None
    return values


def random_full_grid(
    rules: RuleSet, rng: random.Random, *, attempts: int = 200, nodes_per_attempt: int = 3000
) -> Grid:
    """A random solution of the rules, with random restarts (a bad early choice on a
    jigsaw can trap a plain search)."""
    for _ in range(attempts):
        values = _random_attempt(rules, rng, nodes_per_attempt)
        if values is not None:
            return Grid(rules.shape, values)
    raise AssertionError(f"no random solution of {rules} found within the node limits")


def random_puzzles(rules: RuleSet, seed: int) -> list[Puzzle]:
    """Deletions from a random full grid (few, some, many), then random givens that may
    clash or have no solution."""
    rng = random.Random(seed)
    cell_count = rules.shape.cell_count
    out = []
    for _ in range(2):
        grid = random_full_grid(rules, rng)
        for fraction in (0.4, 0.6, 0.75):
            k = int(cell_count * fraction)
            out.append(Puzzle(grid.without(rng.sample(range(cell_count), k)), rules))
    n = rules.shape.size
    for _ in range(3):
        values = [0] * cell_count
        for cell in rng.sample(range(cell_count), max(3, cell_count // 6)):
            values[cell] = rng.randint(1, n)
        out.append(Puzzle(Grid(rules.shape, values), rules))
    return out


def answers(backend: Backend, puzzle: Puzzle) -> tuple[VerdictKind, int, bool, frozenset]:
    result = backend.count(puzzle, limit=LIMIT)
    for grid in result.solutions:
        report = puzzle.check(grid)
        assert report.ok, (backend.name, puzzle, [p.message for p in report.problems])
    assert len(set(result.solutions)) == result.count
    verdict = backend.check_unique(puzzle)
    for grid in (verdict.solution,) + verdict.witnesses:
        if grid is not None:
            assert puzzle.check(grid).ok, (backend.name, puzzle)
    if verdict.kind is VerdictKind.MULTIPLE:
        assert verdict.witnesses[0] != verdict.witnesses[1]
    if result.count >= LIMIT:
        # At the limit the count is a lower bound whether or not the backend also noticed
        # the search was over; which solutions came first is the backend's business.
        return verdict.kind, result.count, False, frozenset()
    solutions = frozenset(result.solutions) if result.complete else frozenset()
    return verdict.kind, result.count, result.complete, solutions


@pytest.mark.parametrize(
    ("shape", "variants"),
    CASES,
    ids=[f"{s.box_rows}x{s.box_cols}-{'+'.join(v) or 'classic'}" for s, v in CASES],
)
def test_backends_agree_on_random_puzzles(
    shape: Shape, variants: tuple[str, ...], loadable_backends: list[Backend]
) -> None:
    if len(loadable_backends) < 2:
        pytest.skip("a differential test needs two backends that load")
    rules = rules_for(shape, variants)
    seed = zlib.crc32(f"{shape!r}{variants}".encode())  # stable across runs
    kinds = set()
    for puzzle in random_puzzles(rules, seed):
        by_backend = {b.name: answers(b, puzzle) for b in loadable_backends}
        distinct = set(by_backend.values())
        assert len(distinct) == 1, (puzzle, by_backend)
        kinds.add(next(iter(distinct))[0])
    # The generator must reach more than one verdict, or the test compares little.
    assert len(kinds) >= 2, kinds
