"""The relation, domain, sum and sandwich encodings of the pysat and cpsat backends.

Three oracles that share no code with the encodings: brute force over all 288 4x4 grids
filtered by the rules' checkers; brute force over the free cells of an almost full grid
without units (weighted sums, sandwich lines in isolation); and the minimal test backend,
which prunes with the checkers. On random instances of every kind (4x4, 6x6, 9x9, built
around a random full grid so that most have solutions, some with a total nudged so that
many have none) pysat, cpsat and, on small grids, the minimal backend give the same counts
up to a limit and the same solution sets when the count is exact; every solution passes
the checker.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.errors import UnsupportedPuzzleError
from sudoku_model.rules import (
    Rule,
    Sandwich,
    Sum,
    SumGroup,
    arrow_rule,
    greater_than_rule,
    killer_rule,
    kropki_rules,
    nonconsecutive_rule,
    parity_rule,
    rows_rule,
    sandwich_rule,
    sandwich_sums,
    sum_lines_rule,
    thermometer_rule,
    xv_rules,
)
from sudoku_model.solving import Backend, get_backend

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from minimal_backend import MinimalBackend  # noqa: E402

S4, S6, S9 = Shape(2, 2), Shape(2, 3), Shape(3, 3)
LIMIT = 12


@cache
def backend(name: str) -> Backend:
    return MinimalBackend() if name == "minimal" else get_backend(name)


@cache
def all_4x4_grids() -> tuple[Grid, ...]:
    rules = RuleSet.classic(S4)
    perms = list(itertools.permutations(range(1, 5)))
    partial: list[tuple[int, ...]] = [()]
    for _ in range(4):  # row by row, keeping the prefixes without a clash
        partial = [
            p + row
            for p in partial
            for row in perms
            if not rules.has_clash(p + row + (0,) * (12 - len(p)))
        ]
    assert len(partial) == 288
    return tuple(Grid(S4, values) for values in partial)


def random_full_grid(shape: Shape, rng: random.Random) -> Grid:
    """A random solution of the classic rules by randomised backtracking."""
    n = shape.size
    peers = shape.peers
    values = [0] * shape.cell_count

    def fill(cell: int) -> bool:
        if cell == len(values):
            return True
        used = {values[p] for p in peers[cell]}
        digits = [d for d in range(1, n + 1) if d not in used]
        rng.shuffle(digits)
        for d in digits:
            values[cell] = d
            if fill(cell + 1):
                return True
        values[cell] = 0
        return False

    assert fill(0)
    return Grid(shape, values)


# -- random rules of each kind, mostly true of a given full grid -----------------------------
def _neighbours(shape: Shape) -> list[tuple[int, int]]:
    n = shape.size
    return [(a, a + 1) for a in range(n * n) if a % n < n - 1] + [
        (a, a + n) for a in range(n * n - n)
    ]


def _nudge(total: int, rng: random.Random) -> int:
    return total + (rng.choice((-1, 1)) if rng.random() < 0.25 else 0)


def make_kropki(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    pairs = _neighbours(shape)
    white = [p for p in pairs if abs(v[p[0]] - v[p[1]]) == 1]
    black = [
        p for p in pairs if p not in white and max(v[p[0]], v[p[1]]) == 2 * min(v[p[0]], v[p[1]])
    ]
    if rng.random() < 0.5:  # every dot: the negative constraint holds
        return list(kropki_rules(shape, white, black, negative=True))
    return list(kropki_rules(shape, rng.sample(white, len(white) // 2), black[:2]))


def make_xv(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    pairs = _neighbours(shape)
    xs = [p for p in pairs if v[p[0]] + v[p[1]] == 10]
    vs = [p for p in pairs if v[p[0]] + v[p[1]] == 5]
    if rng.random() < 0.5:
        return list(xv_rules(shape, xs, vs, negative=True))
    return list(xv_rules(shape, xs[:3], vs[:2]))


def make_thermo(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    n = shape.size
    paths = []
    for _ in range(3):
        path = [rng.randrange(n * n)]
        while True:
            r, c = divmod(path[-1], n)
            steps = [
                (r + dr) * n + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < n and 0 <= c + dc < n
            ]
            up = [s for s in steps if v[s] > v[path[-1]] and s not in path]
            if not up or rng.random() < 0.2:
                break
            path.append(rng.choice(up))
        if len(path) > 1:
            paths.append(path)
    return [thermometer_rule(shape, paths)] if paths else []


def make_greater(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    pairs = rng.sample(_neighbours(shape), 2 * shape.size)
    return [greater_than_rule(shape, [(a, b) if v[a] > v[b] else (b, a) for a, b in pairs])]


def make_nonconsecutive(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    return [nonconsecutive_rule(shape)]


def make_parity(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    cells = rng.sample(range(len(v)), len(v) // 3)
    return [parity_rule(shape, [c for c in cells if v[c] % 2 == 0], [c for c in cells if v[c] % 2])]


def make_killer(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    n = shape.size
    free = set(range(n * n))
    cages = []
    while free:
        cage = [min(free)]
        free.discard(cage[0])
        size = rng.randint(1, min(5, n))
        while len(cage) < size:
            r, c = divmod(rng.choice(cage), n)
            options = [
                x
                for x in ((r + 1) * n + c, (r - 1) * n + c, r * n + c + 1, r * n + c - 1)
                if x in free and abs(x % n - c) <= 1 and v[x] not in {v[y] for y in cage}
            ]
            if not options:
                break
            cage.append(rng.choice(options))
            free.discard(cage[-1])
        cages.append((cage, sum(v[c] for c in cage)))
    k = rng.randrange(len(cages))
    cells, total = cages[k]
    nudged = _nudge(total, rng)
    if SumGroup(tuple(cells), (1,) * len(cells), nudged, True).reachable(n):
        cages[k] = (cells, nudged)
    return [killer_rule(shape, cages)]


def make_little_killer(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    n = shape.size
    lines = []
    for start in rng.sample(range(1, n), 2):
        cells = [i * n + start + i for i in range(n - start)]
        lines.append((cells, _nudge(sum(v[c] for c in cells), rng)))
    return [sum_lines_rule(shape, lines)]


def make_arrow(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    n = shape.size
    arrows = []
    cells = list(range(n * n))
    for _ in range(40):
        head, *shaft = rng.sample(cells, 3)
        if v[head] == v[shaft[0]] + v[shaft[1]]:
            arrows.append(((head,), tuple(shaft)))
        if len(arrows) == 2:
            break
    pill = rng.sample(cells, 2)
    shaft_cells = rng.sample([c for c in cells if c not in pill], 4)
    number = 10 * v[pill[0]] + v[pill[1]]
    if sum(v[c] for c in shaft_cells) == number:
        arrows.append((tuple(pill), tuple(shaft_cells)))
    return [arrow_rule(shape, arrows)] if arrows else []


def make_sandwich(shape: Shape, v: tuple[int, ...], rng: random.Random) -> list[Rule]:
    n = shape.size

    def clue(line: tuple[int, ...]) -> int:
        digits = [v[c] for c in line]
        i, j = sorted((digits.index(1), digits.index(n)))
        return sum(digits[i + 1 : j])

    rows = {r: clue(shape.rows[r]) for r in rng.sample(range(n), 2)}
    cols = {c: clue(shape.columns[c]) for c in rng.sample(range(n), 2)}
    return [sandwich_rule(shape, rows, cols)]


MAKERS: dict[str, Callable[[Shape, tuple[int, ...], random.Random], list[Rule]]] = {
    "kropki": make_kropki,
    "xv": make_xv,
    "thermometer": make_thermo,
    "greater-than": make_greater,
    "non-consecutive": make_nonconsecutive,
    "even/odd": make_parity,
    "killer": make_killer,
    "little killer": make_little_killer,
    "arrow": make_arrow,
    "sandwich": make_sandwich,
}


def counts_agree(puzzle: Puzzle, names: list[str], limit: int = LIMIT) -> int:
    """Every backend's count up to ``limit``, checked equal; every solution checked."""
    answers = {}
    for name in names:
        grids = list(backend(name).solutions(puzzle, limit=limit))
        for g in grids:
            assert puzzle.is_solution(g), (name, puzzle.rules.rules)
        answers[name] = grids
    counts = {name: len(grids) for name, grids in answers.items()}
    assert len(set(counts.values())) == 1, (counts, puzzle.rules.rules, puzzle)
    if counts[names[0]] < limit:  # exact: the same solutions
        sets = [frozenset(answers[name]) for name in names]
        assert all(s == sets[0] for s in sets)
    return counts[names[0]]


# -- brute force ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_4x4_counts_equal_brute_force(kind: str) -> None:
    rng = random.Random(f"brute {kind}")
    grids = all_4x4_grids()
    for _ in range(4):
        solution = rng.choice(grids)
        extra = MAKERS[kind](S4, solution.values, rng)
        if not extra:
            continue
        rules = RuleSet.classic(S4).with_rules(extra)
        puzzle = Puzzle.empty(S4, rules)
        expected = sum(1 for g in grids if puzzle.is_solution(g))
        for name in ("pysat", "cpsat", "minimal"):
            count = backend(name).count(puzzle, limit=300)
            assert count.complete and count.count == expected, (name, kind, extra)


@pytest.mark.parametrize("seed", range(12))
def test_sums_without_units_equal_brute_force(seed: int) -> None:
    """A weighted, non-distinct group (negative weights too) on free cells of a grid
    without units: the layered sum alone against every assignment of the free cells."""
    rng = random.Random(seed)
    free = rng.sample(range(16), 4)
    weights = tuple(rng.choice((1, 1, 2, -1, -3)) for _ in free)
    target_values = [rng.randint(1, 4) for _ in free]
    total = sum(w * d for w, d in zip(weights, target_values)) + rng.choice((0, 0, 1))
    distinct = rng.random() < 0.3
    group = SumGroup(tuple(free), weights, total, distinct)
    if not group.reachable(4):
        return
    rules = RuleSet(S4, [Sum("weighted", (group,))])
    givens = [0 if c in free else rng.randint(1, 4) for c in range(16)]
    puzzle = Puzzle(Grid(S4, givens), rules)
    expected = 0
    for digits in itertools.product(range(1, 5), repeat=4):
        if distinct and len(set(digits)) < 4:
            continue
        expected += sum(w * d for w, d in zip(weights, digits)) == total
    for name in ("pysat", "cpsat", "minimal"):
        count = backend(name).count(puzzle, limit=300)
        assert count.complete and count.count == expected, (name, group)


@pytest.mark.parametrize("size", [4, 6])
def test_sandwich_line_alone_equals_brute_force(size: int) -> None:
    """One row under a rows rule only: every permutation of the digits, filtered by the
    sandwich definition written here, against each backend's count."""
    shape = Shape(2, size // 2)
    n = shape.size
    for total in sorted({0, 2, 3, 5, n - 1, n + 2} & sandwich_sums(n)):
        rule = Sandwich("s", ((shape.rows[0], total),))
        rules = RuleSet(shape, [rows_rule(shape), rule])
        givens = [0] * n + [
            (c + r) % n + 1 for r in range(1, n) for c in range(n)
        ]  # later rows given
        puzzle = Puzzle(Grid(shape, givens), rules)
        expected = 0
        for perm in itertools.permutations(range(1, n + 1)):
            i, j = sorted((perm.index(1), perm.index(n)))
            expected += sum(perm[i + 1 : j]) == total
        for name in ("pysat", "cpsat", "minimal"):
            count = backend(name).count(puzzle, limit=1000)
            assert count.complete and count.count == expected, (name, total)


# -- differential --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize("shape", [S4, S6, S9], ids=["4x4", "6x6", "9x9"])
def test_backends_agree_per_kind(kind: str, shape: Shape) -> None:
    rng = random.Random(f"{kind} {shape}")
    names = ["pysat", "cpsat"] + (["minimal"] if shape.size <= 6 else [])
    keep = {4: 0.1, 6: 0.35, 9: 0.45}[shape.size]
    for _ in range(3):
        solution = random_full_grid(shape, rng)
        extra = MAKERS[kind](shape, solution.values, rng)
        if not extra:
            continue
        rules = RuleSet.classic(shape).with_rules(extra)
        givens = [v if rng.random() < keep else 0 for v in solution.values]
        counts_agree(Puzzle(Grid(shape, givens), rules), names)


def test_kinds_compose() -> None:
    rng = random.Random(7)
    solution = random_full_grid(S6, rng)
    v = solution.values
    extra = make_killer(S6, v, rng) + make_kropki(S6, v, rng) + make_thermo(S6, v, rng)
    rules = RuleSet.build(S6, ["anti-king"]).with_rules(extra + make_sandwich(S6, v, rng))
    givens = [x if rng.random() < 0.2 else 0 for x in v]
    counts_agree(Puzzle(Grid(S6, givens), rules), ["pysat", "cpsat", "minimal"])


def test_unsupported_kind_is_refused_before_solving() -> None:
    from sudoku_model.solving import Capabilities

    class AllDifferentOnly(MinimalBackend):
        capabilities = Capabilities(frozenset({"all_different", "different"}))

    rules = RuleSet.classic(S4).with_rules([killer_rule(S4, [((0, 1), 3)])])
    with pytest.raises(UnsupportedPuzzleError, match="sum"):
        AllDifferentOnly().count(Puzzle.empty(S4, rules), limit=2)


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_exported_cnf_full_and_simplified_count_the_same(kind: str) -> None:
    """``sudoku cnf``'s formulas (with and without the givens simplification) have as
    many solutions, projected on the cells, as the backends find."""
    from pysat.solvers import Solver

    from sudoku_model.backends.cnf import encode_puzzle

    rng = random.Random(f"cnf {kind}")
    solution = random_full_grid(S6, rng)
    extra = MAKERS[kind](S6, solution.values, rng)
    if not extra:
        return
    rules = RuleSet.classic(S6).with_rules(extra)
    givens = [v if rng.random() < 0.4 else 0 for v in solution.values]
    puzzle = Puzzle(Grid(S6, givens), rules)
    expected = backend("cpsat").count(puzzle, limit=LIMIT).count
    for simplify in (False, True):
        cnf = encode_puzzle(puzzle, simplify=simplify)
        found = set()
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
            while len(found) < LIMIT and solver.solve():
                model = solver.get_model()
                grid = cnf.variables.decode(model)
                assert puzzle.is_solution(grid)
                found.add(grid)
                cells = {cnf.variables.var(c, v) for c, v in enumerate(grid.values)}
                solver.add_clause([-x for x in cells if x is not None])
        assert len(found) == expected, (kind, simplify)


@pytest.mark.parametrize("shape", [S4, S9], ids=["4x4", "9x9"])
def test_killer_cages_alone_equal_brute_force(shape: Shape) -> None:
    """Cages of 1 to 4 cells with every reachable total, on a grid without units (so no
    cage cell is a peer of another and distinctness comes from the cage alone), the
    other cells given: each backend's count is the number of distinct digit tuples that
    reach the total, in the full and the givens-simplified CNF alike."""
    from pysat.solvers import Solver

    from sudoku_model.backends.cnf import encode_puzzle

    n = shape.size
    rng = random.Random(f"cages alone {n}")
    for size in range(1, 5):
        cells = tuple(rng.sample(range(n * n), size))
        for total in range(size * (size + 1) // 2, size * (2 * n - size + 1) // 2 + 1):
            if n == 9 and total % 3 and size > 2:
                continue  # every third total of the larger 9x9 cages keeps the test quick
            rules = RuleSet(shape, [killer_rule(shape, [(cells, total)])])
            givens = [0 if c in cells else 1 for c in range(n * n)]
            puzzle = Puzzle(Grid(shape, givens), rules)
            expected = sum(
                1
                for digits in itertools.permutations(range(1, n + 1), size)
                if sum(digits) == total
            )
            for name in ("pysat", "cpsat"):
                count = backend(name).count(puzzle, limit=500)
                assert count.complete and count.count == expected, (name, cells, total)
            for simplify in (False, True):
                cnf = encode_puzzle(puzzle, simplify=simplify)
                with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
                    found = 0
                    while solver.solve():
                        found += 1
                        model = solver.get_model()
                        grid = cnf.variables.decode(model)
                        assert puzzle.is_solution(grid)
                        lits = [cnf.variables.var(c, grid.values[c]) for c in cells]
                        solver.add_clause([-x for x in lits if x is not None])
                assert found == expected, (simplify, cells, total)


# -- sandwich lines: one definition everywhere ---------------------------------------------------
SANDWICH_BACKENDS = ("pysat", "cpsat", "native", "logic", "minimal")


def _sandwich_lines(shape: Shape) -> list[tuple[int, ...]]:
    """A row, a column read bottom-up and a box in reading order: every kind of unit a
    sandwich line may be."""
    return [shape.rows[0], tuple(reversed(shape.columns[1])), shape.boxes[-1]]


def _sandwich_total(values: tuple[int, ...], line: tuple[int, ...], n: int) -> int:
    """The definition, written out: the digits strictly between the line's 1 and n."""
    digits = [values[c] for c in line]
    i, j = sorted((digits.index(1), digits.index(n)))
    return sum(digits[i + 1 : j])


def test_sandwich_on_rows_columns_and_boxes_of_4x4_equals_brute_force() -> None:
    """Every total on each kind of line, alone on the classic 4x4: each backend's count
    equals the number of the 288 grids whose line sums to it between its 1 and 4."""
    grids = all_4x4_grids()
    for line in _sandwich_lines(S4):
        for total in sorted(sandwich_sums(4)):
            rules = RuleSet.classic(S4).with_rules([Sandwich("s", ((line, total),))])
            puzzle = Puzzle.empty(S4, rules)
            expected = sum(_sandwich_total(g.values, line, 4) == total for g in grids)
            assert expected == sum(puzzle.is_solution(g) for g in grids)  # the checker
            for name in SANDWICH_BACKENDS:
                count = backend(name).count(puzzle, limit=300)
                assert count.complete and count.count == expected, (name, line, total)


@pytest.mark.parametrize(
    "shape", [Shape(2, 3), Shape(3, 2), Shape(2, 4), S9], ids=["2x3", "3x2", "2x4", "3x3"]
)
def test_sandwich_backends_agree_on_every_shape(shape: Shape) -> None:
    """Clues read from a random grid on a row, a reversed column and a box, with some
    givens: every backend finds the same solutions (up to the limit), each passing the
    checker."""
    rng = random.Random(f"sandwich {shape}")
    n = shape.size
    keep = 0.3 if n <= 8 else 0.4
    for _ in range(2):
        solution = random_full_grid(shape, rng)
        lines = tuple(
            (line, _sandwich_total(solution.values, line, n)) for line in _sandwich_lines(shape)
        )
        rules = RuleSet.classic(shape).with_rules([Sandwich("s", lines)])
        givens = [v if rng.random() < keep else 0 for v in solution.values]
        names = list(SANDWICH_BACKENDS if n <= 6 else SANDWICH_BACKENDS[:-1])
        assert counts_agree(Puzzle(Grid(shape, givens), rules), names) >= 1


@pytest.mark.parametrize(
    "make",
    [
        lambda: RuleSet(S4, [Sandwich("s", ((S4.rows[0], 0),))]),  # no unit at all
        lambda: RuleSet(S4, [rows_rule(S4), Sandwich("s", ((S4.columns[0], 0),))]),
        lambda: RuleSet.classic(S4).with_rules([Sandwich("s", (((0, 1, 4, 6), 0),))]),
    ],
    ids=["no units", "column without a columns rule", "not a unit"],
)
def test_sandwich_line_that_is_not_a_unit_is_refused(make: Callable[[], RuleSet]) -> None:
    """A line that could miss its 1 or n, or hold two, has no sandwich to speak of: the
    rule set is refused with an error naming the rule, before any backend sees it."""
    from sudoku_model.rules import RuleError

    with pytest.raises(RuleError, match="rule 's': line r1c1..r.c. is not a row, column"):
        make()


def test_sandwich_checker_reports_a_full_line_without_its_ends() -> None:
    """The checker on a grid that breaks the row unit: a full line with no 4 is reported
    by the sandwich rule too, while a line whose ends are not all placed is not judged."""
    rules = RuleSet.classic(S4).with_rules([Sandwich("s", ((S4.rows[0], 0),))])
    (rule,) = rules.constraint_rules
    assert any("holds no 4" in m for _, m in rule.violations((1, 2, 3, 3) + (0,) * 12, S4))
    assert rule.violations((1, 2, 3, 0) + (0,) * 12, S4) == []
    assert rule.violations((1, 4, 3, 2) + (0,) * 12, S4) == []
