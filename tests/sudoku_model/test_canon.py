"""Canonical forms: the reference search against brute force over the whole group, the
shared test vectors, invariance under random transformations, and the C code against the
reference."""

from __future__ import annotations

import gzip
import random
from itertools import permutations, product

import pytest

from sudoku_model import canon
from sudoku_model.canon import CanonVariantError, Transform, canonical, equivalence, group_order
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import RuleSet
from sudoku_model.solving import Budget, get_backend
from tests.datafiles import data_file

VECTORS = data_file("minlex-vectors.txt")

# The reference search is asked without a time limit (the per-test timeout guards against a
# hang), so that a loaded machine cannot turn a comparison into a budget error.
NO_LIMIT = Budget()

needs_native = pytest.mark.skipif(not canon.native_available(), reason="no compiled minlex9")


def block_perms(n: int, block: int) -> list[tuple[int, ...]]:
    """Every permutation of 0..n-1 that moves whole blocks and permutes inside them."""
    groups = [list(range(s, s + block)) for s in range(0, n, block)]
    out = []
    for order in permutations(range(len(groups))):
        for inner in product(*(list(permutations(groups[g])) for g in order)):
            out.append(tuple(x for part in inner for x in part))
    return out


def relabel(values: list[int]) -> tuple[int, ...]:
    seen: dict[int, int] = {}
    return tuple(seen.setdefault(v, len(seen) + 1) if v else 0 for v in values)


def brute_force(grid: Grid) -> tuple[tuple[int, ...], int]:
    """Minimum over every element of the group, and how many elements reach it."""
    shape = grid.shape
    n = shape.size
    v = grid.values
    rows = block_perms(n, shape.box_rows)
    cols = block_perms(n, shape.box_cols)
    best: tuple[int, ...] | None = None
    count = 0
    for t in (False, True) if shape.box_rows == shape.box_cols else (False,):
        for rp in rows:
            for cp in cols:
                if t:
                    s = relabel([v[c * n + r] for r in rp for c in cp])
                else:
                    s = relabel([v[r * n + c] for r in rp for c in cp])
                if best is None or s < best:
                    best, count = s, 1
                elif s == best:
                    count += 1
    assert best is not None
    return best, count


def solution_grid(shape: Shape, rng: random.Random) -> Grid:
    """A valid full grid: the pattern solution under a random group element and relabel."""
    n = shape.size
    br, bc = shape.box_rows, shape.box_cols
    base = [(bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n)]
    return random_transform(shape, rng).apply(Grid(shape, base))


def random_transform(shape: Shape, rng: random.Random) -> Transform:
    n = shape.size

    def perm(block: int) -> tuple[int, ...]:
        groups = [list(range(s, s + block)) for s in range(0, n, block)]
        rng.shuffle(groups)
        for g in groups:
            rng.shuffle(g)
        return tuple(x for g in groups for x in g)

    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    transpose = shape.box_rows == shape.box_cols and rng.random() < 0.5
    return Transform(transpose, perm(shape.box_rows), perm(shape.box_cols), (0, *digits))


def random_puzzle(shape: Shape, rng: random.Random, density: float) -> Grid:
    full = solution_grid(shape, rng)
    return Grid(shape, [x if rng.random() < density else 0 for x in full.values])


def read_vectors() -> list[tuple[str, str]]:
    pairs = []
    for line in VECTORS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            puzzle, minlex = line.split()
            pairs.append((puzzle, minlex))
    return pairs


def seventeen(count: int | None = None) -> list[str]:
    with gzip.open(bundled_path("17-clue"), "rt") as f:
        lines = [x.strip() for x in f if x.strip() and not x.startswith("#")]
    return lines if count is None else lines[:count]


# -- small shapes: the reference against brute force ---------------------------------------
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2)], ids=str)
def test_reference_matches_brute_force_on_random_puzzles(shape: Shape) -> None:
    rng = random.Random(1500 + shape.size * shape.box_rows)
    cases = [Grid.empty(shape), solution_grid(shape, rng)]
    for density in (0.1, 0.25, 0.4, 0.6, 0.9):
        cases += [random_puzzle(shape, rng, density) for _ in range(6)]
    # Not every grid is a sudoku: rows with repeated digits must canonicalise too.
    cases += [
        Grid(shape, [rng.choice([0, 0, 1, 2, 3]) for _ in range(shape.cell_count)])
        for _ in range(6)
    ]
    for grid in cases:
        got = canonical(grid, method="python", budget=NO_LIMIT)
        want, count = brute_force(grid)
        assert got.grid.values == want, grid.to_line()
        assert got.automorphisms == count, grid.to_line()
        assert got.transform.apply(grid) == got.grid
        assert got.transform.inverse().apply(got.grid) == grid


def test_group_orders_and_empty_grid_automorphisms() -> None:
    assert group_order(Shape(3, 3)) == 2 * 6**8
    for shape in (Shape(2, 2), Shape(2, 3)):
        assert canonical(Grid.empty(shape)).automorphisms == group_order(shape)


# -- 9x9 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["python", pytest.param("native", marks=needs_native)])
def test_vectors(method: str) -> None:
    for puzzle, minlex in read_vectors():
        grid = Grid.parse(puzzle)
        got = canonical(grid, method=method)
        assert got.grid.to_line() == minlex, puzzle
        assert got.transform.apply(grid) == got.grid


def test_transform_inverse_and_composition() -> None:
    rng = random.Random(7)
    shape = Shape(3, 3)
    grid = random_puzzle(shape, rng, 0.3)
    a, b = random_transform(shape, rng), random_transform(shape, rng)
    assert a.inverse().apply(a.apply(grid)) == grid
    assert a.then(b).apply(grid) == b.apply(a.apply(grid))
    assert a.then(a.inverse()) == Transform.identity(shape)
    with pytest.raises(ValueError, match="not a transformation"):
        Transform(True, a.rows, a.cols, a.digits).apply(Grid.empty(Shape(2, 3)))


@pytest.mark.parametrize("method", ["python", pytest.param("native", marks=needs_native)])
def test_9x9_invariant_under_random_transformations(method: str) -> None:
    rng = random.Random(15)
    shape = Shape(3, 3)
    puzzles = [Grid.parse(x) for x in seventeen(6)]
    puzzles += [random_puzzle(shape, rng, d) for d in (0.2, 0.35, 0.5)]
    puzzles += [solution_grid(shape, rng)]
    for grid in puzzles:
        ref = canonical(grid, method=method)
        assert ref.grid.values <= relabel(list(grid.values))  # never greater than the input
        again = canonical(ref.grid, method=method)
        assert again.grid == ref.grid  # canonical of canonical is itself
        assert again.automorphisms == ref.automorphisms
        for _ in range(4):
            moved = random_transform(shape, rng).apply(grid)
            got = canonical(moved, method=method)
            assert got.grid == ref.grid
            assert got.automorphisms == ref.automorphisms
            assert got.transform.apply(moved) == got.grid
            link = equivalence(grid, moved)
            assert link is not None and link.apply(grid) == moved


@pytest.mark.slow
@needs_native
def test_native_agrees_with_reference() -> None:
    rng = random.Random(99)
    shape = Shape(3, 3)
    grids = [Grid.parse(x) for x in seventeen(40)]
    grids += [random_puzzle(shape, rng, d) for d in (0.05, 0.1, 0.3, 0.6, 0.9) for _ in range(4)]
    grids += [solution_grid(shape, rng) for _ in range(3)]
    # Symmetric inputs: many automorphisms, many ties in the search.
    grids += [Grid.empty(shape).with_value(0, 1), Grid.parse("1" + "." * 79 + "2")]
    for grid in grids:
        py = canonical(grid, method="python", budget=NO_LIMIT)
        c = canonical(grid, method="native")
        assert c.grid == py.grid, grid.to_line()
        assert c.automorphisms == py.automorphisms, grid.to_line()
        assert c.transform.apply(grid) == c.grid


def blank_rows(grid: Grid, rng: random.Random) -> Grid:
    """``grid`` with one or two rows of each band blanked (the C search's path for puzzles
    whose minimum starts with blank rows, and the factor 2 for two blank rows)."""
    values = list(grid.values)
    for band in range(3):
        for r in rng.sample(range(3 * band, 3 * band + 3), rng.choice([1, 2])):
            values[9 * r : 9 * r + 9] = [0] * 9
    return Grid(grid.shape, values)


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
@needs_native
def test_native_agrees_with_reference_on_full_grids_and_blank_rows() -> None:
    rng = random.Random(2024)
    shape = Shape(3, 3)
    solver = get_backend("native")
    solutions = []
    for line in seventeen(8):
        solution = solver.solve(Puzzle(Grid.parse(line))).solution
        assert solution is not None
        solutions.append(solution)
    grids = list(solutions)  # full grids with a trivial automorphism group
    grids += [solution_grid(shape, rng) for _ in range(3)]  # a pattern grid: a large one
    # a full grid with a repeated digit in a column: no longer a solution, the general path
    clash = list(solutions[0].values)
    clash[0], clash[1] = clash[1], clash[0]
    grids.append(Grid(shape, clash))
    for source in solutions[:4] + [solution_grid(shape, rng)]:
        for density in (0.3, 0.6, 1.0):
            sparse = Grid(shape, [v if rng.random() < density else 0 for v in source.values])
            grids.append(blank_rows(sparse, rng))
    for grid in grids:
        py = canonical(grid, method="python", budget=NO_LIMIT)
        for moved in (grid, random_transform(shape, rng).apply(grid)):
            c = canonical(moved, method="native")
            assert c.grid == py.grid, grid.to_line()
            assert c.automorphisms == py.automorphisms, grid.to_line()
            assert c.transform.apply(moved) == c.grid


def test_16x16_random_transformations_agree() -> None:
    rng = random.Random(16)
    shape = Shape(4, 4)
    grid = random_puzzle(shape, rng, 0.55)
    ref = canonical(grid)
    moved = random_transform(shape, rng).apply(grid)
    got = canonical(moved)
    assert got.grid == ref.grid
    assert got.transform.apply(moved) == got.grid


def test_inequivalent_puzzles_differ() -> None:
    a, b = (Grid.parse(x) for x in seventeen(2))
    assert canonical(a).grid != canonical(b).grid
    assert equivalence(a, b) is None


def test_variants_are_refused_by_name() -> None:
    givens = Grid.parse(seventeen(1)[0])
    diagonal = Puzzle(givens, RuleSet.build(givens.shape, ["diagonal"]))
    with pytest.raises(CanonVariantError, match="diagonal"):
        canonical(diagonal)
    assert canon.canonical_field(diagonal) is None
    assert canon.canonical_field(Puzzle(givens)) == canonical(givens).grid.to_line()


@pytest.mark.timing
def test_the_python_search_answers_within_its_budget() -> None:
    # a 16x16 with one clue: a group of ~10^17 to walk; the search must stop, not hang
    import time

    from sudoku_model.canon import CanonBudgetError
    from sudoku_model.solving import Budget

    sparse = Puzzle.parse("1" + "." * 255)
    start = time.perf_counter()
    with pytest.raises(CanonBudgetError, match="within the budget"):
        canonical(sparse, budget=Budget(seconds=0.3))
    assert time.perf_counter() - start < 0.3 + 0.2
    with pytest.raises(CanonBudgetError):
        canonical(sparse, budget=Budget(nodes=1000))
    assert canon.canonical_field(sparse, budget=Budget(nodes=1000)) is None
