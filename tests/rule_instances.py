"""Random small instances of every constraint rule kind, and the killer-200 collection, for
the native, logic and generator tests.

:func:`random_instance` builds, from a random full grid of the classic rules, one rule of a
chosen kind through the public constructors of :mod:`sudoku_model.rules` (kropki, XV,
thermometers, greater-than, non-consecutive, even/odd, killer, little killer, arrows,
sandwich), usually consistent with that grid and sometimes not, plus random givens from
the grid. :func:`brute_force_count` is the oracle: every solution of the classic puzzle
(enumerated by the classic rules alone) filtered by the rules' own checker
(:meth:`RuleSet.violations`), so it shares no code with a backend's encoding of the kinds.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model import rules as R

KINDS = (
    "kropki",
    "kropki-negative",
    "xv",
    "xv-negative",
    "thermometer",
    "greater-than",
    "non-consecutive",
    "even-odd",
    "killer",
    "little-killer",
    "arrow",
    "sandwich",
)

KILLER_CSV = Path(__file__).resolve().parent / "data" / "killer-generated.csv"


def random_grid(shape: Shape, rng: random.Random, *, nonconsecutive: bool = False) -> Grid:
    """A random full classic grid from a seeded randomised backtracker written here (no
    backend involved: fewest candidates first, digits in random order); with
    ``nonconsecutive``, one where no orthogonal neighbours hold consecutive digits (there
    is none at 4x4: the grid is then all zeros). Restarts after 4 * n * n steps."""
    n, nc = shape.size, shape.cell_count
    peers = RuleSet.classic(shape).peers
    near = [_neighbours(shape, c) if nonconsecutive else [] for c in range(nc)]
    values = [0] * nc

    def candidates(cell: int) -> list[int]:
        used = {values[p] for p in peers[cell]}
        for b in near[cell]:
            if values[b]:
                used.update((values[b] - 1, values[b] + 1))
        return [d for d in range(1, n + 1) if d not in used]

    steps = [0]

    def fill() -> bool:
        steps[0] += 1
        if steps[0] > 4 * nc:  # a random search has heavy tails: start again instead
            return False
        best: tuple[int, list[int]] | None = None
        for cell in range(nc):
            if not values[cell]:
                options = candidates(cell)
                if best is None or len(options) < len(best[1]):
                    best = (cell, options)
                    if len(options) <= 1:
                        break
        if best is None:
            return True
        cell, options = best
        rng.shuffle(options)
        for d in options:
            values[cell] = d
            if fill():
                return True
        values[cell] = 0
        return False

    for _ in range(200):
        values[:] = [0] * nc
        steps[0] = 0
        if fill():
            return Grid(shape, values)
    return Grid(shape, [0] * nc)


def _neighbours(shape: Shape, cell: int) -> list[int]:
    n = shape.size
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def _random_pairs(shape: Shape, rng: random.Random, k: int) -> list[tuple[int, int]]:
    out: dict[tuple[int, int], None] = {}
    for _ in range(k):
        a = rng.randrange(shape.cell_count)
        b = rng.choice(_neighbours(shape, a))
        out[(min(a, b), max(a, b))] = None
    return list(out)


def _random_path(shape: Shape, rng: random.Random, length: int, taken: set[int]) -> list[int]:
    free = [c for c in range(shape.cell_count) if c not in taken]
    if not free:
        return []
    path = [rng.choice(free)]
    while len(path) < length:
        options = [c for c in _neighbours(shape, path[-1]) if c not in path and c not in taken]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def random_rules(kind: str, shape: Shape, solution: Grid, rng: random.Random) -> list[R.Rule]:
    """Rules of one kind, consistent with ``solution`` except (rarely) on purpose."""
    n = shape.size
    v = solution.values
    honest = rng.random() < 0.8
    negative = kind.endswith("-negative")
    if negative and honest:  # every pair that the negative rule would forbid gets its dot
        pairs = [(c, c + 1) for c in range(n * n) if c % n < n - 1]
        pairs += [(c, c + n) for c in range(n * n - n)]
    else:
        pairs = _random_pairs(shape, rng, rng.randrange(2, 3 * n))
    if kind in ("kropki", "kropki-negative"):
        white = [p for p in pairs if abs(v[p[0]] - v[p[1]]) == 1 or not honest]
        black = [
            p
            for p in pairs
            if p not in white and (v[p[0]] == 2 * v[p[1]] or v[p[1]] == 2 * v[p[0]])
        ]
        return list(R.kropki_rules(shape, white, black, negative=negative))
    if kind in ("xv", "xv-negative"):
        xs = [p for p in pairs if v[p[0]] + v[p[1]] == 10]
        vs = [p for p in pairs if v[p[0]] + v[p[1]] == 5 or (not honest and p not in xs)]
        if not xs and not vs:
            vs = pairs[:1]
        return list(R.xv_rules(shape, xs, vs, negative=negative))
    if kind == "thermometer":
        thermos = []
        taken: set[int] = set()
        for _ in range(rng.randrange(1, 4)):
            length = rng.randrange(2, min(n, 5) + 1)
            if honest:  # climb: each step to a touching cell with a larger digit
                free = [c for c in range(shape.cell_count) if c not in taken]
                path = [rng.choice(free)] if free else []
                while path and len(path) < length:
                    r, c = divmod(path[-1], n)
                    up = [
                        (r + dr) * n + c + dc
                        for dr in (-1, 0, 1)
                        for dc in (-1, 0, 1)
                        if 0 <= r + dr < n
                        and 0 <= c + dc < n
                        and (r + dr) * n + c + dc not in taken
                        and v[(r + dr) * n + c + dc] > v[path[-1]]
                    ]
                    if not up:
                        break
                    path.append(rng.choice(up))
            else:
                path = _random_path(shape, rng, length, taken)
            if path:
                taken.update(path)
                thermos.append(path)
        return [R.thermometer_rule(shape, thermos)]
    if kind == "greater-than":
        pairs = _random_pairs(shape, rng, rng.randrange(2, 2 * n))
        signs = [(a, b) if v[a] > v[b] or not honest else (b, a) for a, b in pairs]
        return [R.greater_than_rule(shape, signs)]
    if kind == "non-consecutive":
        return [R.nonconsecutive_rule(shape)]
    if kind == "even-odd":
        cells = rng.sample(range(shape.cell_count), rng.randrange(2, n + 2))
        even = [c for c in cells if (v[c] % 2 == 0) == honest]
        odd = [c for c in cells if c not in even]
        return [R.parity_rule(shape, even, odd)]
    if kind == "killer":
        cages = []
        taken = set()
        for _ in range(rng.randrange(1, n)):
            path = _random_path(shape, rng, rng.randrange(1, 5), taken)
            if not path or len({v[c] for c in path}) != len(path):
                continue
            taken.update(path)
            total = sum(v[c] for c in path) + (0 if honest else rng.choice((-1, 1)))
            k = len(path)
            total = max(k * (k + 1) // 2, min(total, k * (2 * n - k + 1) // 2))
            cages.append((path, total))
        return [R.killer_rule(shape, cages)] if cages else []
    if kind == "little-killer":
        lines = []
        for _ in range(rng.randrange(1, 3)):
            path = _random_path(shape, rng, rng.randrange(2, 5), set())
            lines.append((path, sum(v[c] for c in path) + (0 if honest else 1)))
        return [R.sum_lines_rule(shape, lines)]
    if kind == "arrow":
        arrows = []
        for _ in range(30 * rng.randrange(1, 3)):
            path = _random_path(shape, rng, rng.randrange(2, 5), set())
            if len(path) < 2:
                continue
            circle, shaft = path[:1], path[1:]
            if not honest and len(path) >= 3:  # a two-cell circle: a 2-digit number
                try:
                    R.arrow_rule(shape, [(path[:2], path[2:])])
                except R.RuleError:  # no digits reach it (a short shaft on a small grid)
                    continue
                arrows.append((path[:2], path[2:]))
                continue
            if honest:  # the shortest prefix of the shaft that reaches the circle's digit
                total = 0
                for k, c in enumerate(shaft):
                    total += v[c]
                    if total >= v[circle[0]]:
                        shaft = shaft[: k + 1]
                        break
                if total != v[circle[0]]:
                    continue
            arrows.append((circle, shaft))
            if len(arrows) == 2:
                break
        return [R.arrow_rule(shape, arrows)] if arrows else []
    if kind == "sandwich":
        clues: dict[str, dict[int, int]] = {"rows": {}, "columns": {}}
        for _ in range(rng.randrange(1, 3)):
            which = rng.choice(("rows", "columns"))
            index = rng.randrange(n)
            line = shape.rows[index] if which == "rows" else shape.columns[index]
            digits = [v[c] for c in line]
            i, j = sorted((digits.index(1), digits.index(n)))
            total = sum(digits[i + 1 : j])
            if not honest:
                total = rng.choice(sorted(R.sandwich_sums(n)))
            clues[which][index] = total
        return [R.sandwich_rule(shape, clues["rows"], clues["columns"])]
    raise ValueError(kind)


def random_instance(
    kind: str, shape: Shape, rng: random.Random, givens: int
) -> tuple[Puzzle, Grid]:
    """A puzzle with classic rules plus random rules of ``kind``, and the grid they came
    from (a solution unless the rules were made dishonest on purpose)."""
    if kind == "non-consecutive" and shape.size >= 9:
        solution = _nonconsecutive_grid(shape, rng)
    else:
        solution = random_grid(shape, rng, nonconsecutive=kind == "non-consecutive")
    extra = random_rules(kind, shape, solution, rng)
    rules = RuleSet.classic(shape).with_rules(extra)
    values = [0] * shape.cell_count
    for c in rng.sample(range(shape.cell_count), givens):
        values[c] = solution.values[c]
    return Puzzle(Grid(shape, values), rules), solution


def _nonconsecutive_grid(shape: Shape, rng: random.Random) -> Grid:
    # Such grids are rare enough at 9x9 that the plain random search above takes seconds:
    # the native search finds one, and the rules' own checker vouches for it (the counts
    # are still checked against the brute force, which uses no backend).
    from sudoku_model import get_backend

    rules = RuleSet.classic(shape).with_rules([R.nonconsecutive_rule(shape)])
    grid = get_backend("native").random_solution(rules, rng)
    if grid is None or not Puzzle(grid, rules).check(grid).ok:
        raise AssertionError(f"no checked non-consecutive grid: {grid!r}")
    return grid


def classic_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution of the puzzle's givens under the classic rules alone, by a plain
    backtracker written here."""
    shape = puzzle.shape
    n, nc = shape.size, shape.cell_count
    peers = RuleSet.classic(shape).peers
    values = list(puzzle.givens.values)
    out: list[tuple[int, ...]] = []
    if any(values[c] and any(values[p] == values[c] for p in peers[c]) for c in range(nc)):
        return out
    open_cells = [c for c in range(nc) if not values[c]]

    def fill(k: int) -> None:
        if k == len(open_cells):
            out.append(tuple(values))
            return
        cell = open_cells[k]
        used = {values[p] for p in peers[cell]}
        for d in range(1, n + 1):
            if d not in used:
                values[cell] = d
                fill(k + 1)
        values[cell] = 0

    fill(0)
    return out


def brute_force_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The puzzle's solutions: classic solutions that break none of its extra rules and
    keep no repeat in its units and pairs (the rules' own checkers)."""
    rules = puzzle.rules
    return [
        s for s in classic_solutions(puzzle) if not rules.violations(s) and not rules.has_clash(s)
    ]


def killer_puzzles() -> list[tuple[Puzzle, Grid]]:
    """The 40 killer puzzles of ``tests/data/killer-generated.csv`` (krazydad's CSV layout:
    cage letters in ``puzz_color`` after a leading K, totals in ``puzz_hint`` in order of
    first appearance, the solution in ``solved``; tests/data/README.md says how they were
    made) with their solutions, read here without the toolkit's readers."""
    shape = Shape(3, 3)
    out = []
    with KILLER_CSV.open(newline="") as f:
        for row in csv.DictReader(f):
            letters = row["puzz_color"][1:]
            totals = [int(t) for t in row["puzz_hint"].split(",")]
            order = list(dict.fromkeys(letters))
            cells: dict[str, list[int]] = {letter: [] for letter in order}
            for c, letter in enumerate(letters):
                cells[letter].append(c)
            cages = [(cells[letter], total) for letter, total in zip(order, totals, strict=True)]
            rules = RuleSet.classic(shape).with_rules([R.killer_rule(shape, cages)])
            out.append((Puzzle.empty(shape, rules), Grid.parse(row["solved"])))
    return out
