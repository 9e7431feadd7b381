"""The pysat backend's per-call cost against a plain PySAT loop (issue 18, item 5).

    python tests/benchmarks/bench_pysat_overhead.py [--data /work/shared/data]
        [--count 2000] [--seed 18] [--rounds 5] [--chunk 50] [--solver-options tuned|default]

Per list (17-clue, top95, hardest, forum-hardest-1106 and a multi-solution list made by
deleting one or two clues from 17-clue puzzles: no 9x9 puzzle of 16 clues or fewer is
unique), the same puzzles, each under a random symmetry transformation (seeded), go through

* ``ours``: ``PySATBackend.check_unique(puzzle)``, the public call with its verdict,
  witnesses and stats;
* ``plain``: a loop written against PySAT alone: the extended encoding built here, in this
  file, loaded once into ``Solver("cadical195")``; per puzzle, solve under the givens as
  assumptions, read the model, add the blocking clause of the non-given cells guarded by a
  fresh literal, solve again with the guard, retire it (the solver is rebuilt after 1,000
  retired guards, as the backend does). It reads the second model only to say nothing:
  a plain loop needs the verdict alone.

Both sides get the same CaDiCaL options (``--solver-options tuned``, the default: the
backend's :data:`backends.sat.CADICAL_TUNING`), so the ratio is the wrapper's cost, not the
tuning's gain; ``default`` gives the plain loop CaDiCaL's own defaults. The puzzles are cut
into chunks; chunks alternate ours/plain and which side goes first alternates too, and
each side's total thread CPU time is summed over ``--rounds`` passes (fresh solvers each
pass, one warm-up call each). Printed: us per puzzle for each side and ours/plain. Both
sides must agree on every verdict (unique / multiple / none).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from pysat.solvers import Solver

from backends.sat import CADICAL_TUNING, PySATBackend
from sudoku_model import Puzzle, RuleSet
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid

SHAPE = Shape(3, 3)
RULES = RuleSet.classic(SHAPE)


def plain_cnf() -> list[list[int]]:
    """The extended encoding of classic 9x9 (Lynce & Ouaknine), pairwise at-most-one,
    var(cell, digit) = 9 * cell + digit: written here from the definition, not taken from
    the backend."""
    units: list[list[int]] = []
    for i in range(9):
        units.append([9 * i + j for j in range(9)])
        units.append([9 * j + i for j in range(9)])
        r, c = 3 * (i // 3), 3 * (i % 3)
        units.append([9 * (r + a) + c + b for a in range(3) for b in range(3)])
    clauses: list[list[int]] = []
    for cell in range(81):
        lits = [9 * cell + d for d in range(1, 10)]
        clauses.append(lits)
        clauses += [[-a, -b] for a, b in combinations(lits, 2)]
    for unit in units:
        for d in range(1, 10):
            lits = [9 * cell + d for cell in unit]
            clauses.append(lits)
            clauses += [[-a, -b] for a, b in combinations(lits, 2)]
    return clauses


class PlainLoop:
    """Uniqueness with PySAT alone: the loop a user would write."""

    def __init__(self, options: dict[str, int]) -> None:
        self.options = options
        self.clauses = plain_cnf()
        self.solver: Solver | None = None
        self._fresh()

    def _fresh(self) -> None:
        if self.solver is not None:
            self.solver.delete()
        self.solver = Solver(name="cadical195")
        if self.options:
            self.solver.solver.configure(self.options)
        self.solver.append_formula(self.clauses)
        self.guard = 729
        self.retired = 0

    def count2(self, values: Sequence[int]) -> int:
        """0, 1 or 2 (two or more) solutions."""
        s = self.solver
        assert s is not None
        assumptions = [9 * c + v for c, v in enumerate(values) if v]
        if not s.solve(assumptions=assumptions):
            return 0
        model = s.get_model()
        self.guard += 1
        g = self.guard
        # the non-given cells' literals of the model: "some free cell differs"
        clause = [-lit for lit in model[:729] if lit > 0 and not values[(lit - 1) // 9]]
        clause.append(-g)
        s.add_clause(clause)
        assumptions.append(g)
        found = s.solve(assumptions=assumptions)
        s.add_clause([-g])
        self.retired += 1
        if self.retired >= 1000:
            self._fresh()
        return 2 if found else 1

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


def random_transform(grid_values: Sequence[int], rng: random.Random) -> tuple[int, ...]:
    """The puzzle under a random element of the 9x9 symmetry group (bands, rows in a
    band, stacks, columns in a stack, transposition, digit relabelling)."""

    def line_perm() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * b + r for b in bands for r in rng.sample(range(3), 3)]

    rows, cols = line_perm(), line_perm()
    digits = [0] + rng.sample(range(1, 10), 9)
    transpose = rng.random() < 0.5
    out = []
    for i in range(9):
        for j in range(9):
            r, c = (cols[j], rows[i]) if transpose else (rows[i], cols[j])
            out.append(digits[grid_values[9 * r + c]])
    return tuple(out)


def read_lines(path: Path, limit: int | None, rng: random.Random) -> list[tuple[int, ...]]:
    """Puzzles of an 81-character-per-line file (a random sample of ``limit``)."""
    out = []
    for line in path.read_text().splitlines():
        text = line.strip()
        if len(text) < 81 or text.startswith("#"):
            continue
        out.append(tuple(int(ch) if ch.isdigit() else 0 for ch in text[:81]))
    if limit is not None and len(out) > limit:
        out = rng.sample(out, limit)
    return out


def multi_solution(puzzles: list[tuple[int, ...]], rng: random.Random) -> list[tuple[int, ...]]:
    """17-clue puzzles with one or two clues deleted (alternately): never unique."""
    out = []
    for index, values in enumerate(puzzles):
        filled = [c for c, v in enumerate(values) if v]
        cut = set(rng.sample(filled, 1 + index % 2))
        out.append(tuple(0 if c in cut else v for c, v in enumerate(values)))
    return out


def race(
    puzzles: list[tuple[int, ...]], options: dict[str, int], rounds: int, chunk: int
) -> tuple[float, float, int]:
    """(ours us/puzzle, plain us/puzzle, conflicts-free check): thread CPU time summed over
    ``rounds`` passes, chunks interleaved."""
    grids = [Puzzle(Grid._trusted(SHAPE, p), RULES) for p in puzzles]
    totals = {"ours": 0.0, "plain": 0.0}
    disagreements = 0
    for round_index in range(rounds):
        ours = PySATBackend("cadical195")
        plain = PlainLoop(options)
        ours.check_unique(Puzzle.empty(SHAPE, RULES))  # load the solver
        plain.count2((0,) * 81)
        for start in range(0, len(puzzles), chunk):
            part = range(start, min(len(puzzles), start + chunk))
            answers: dict[str, list[int]] = {}
            order = (
                ("ours", "plain") if (start // chunk + round_index) % 2 == 0 else ("plain", "ours")
            )
            for side in order:
                if side == "ours":
                    check = ours.check_unique
                    t0 = time.thread_time()
                    kinds = [check(grids[i]).kind for i in part]
                    totals["ours"] += time.thread_time() - t0
                    answers["ours"] = [{"unique": 1, "multiple": 2}.get(k.value, 0) for k in kinds]
                else:
                    count2 = plain.count2
                    t0 = time.thread_time()
                    counts = [count2(puzzles[i]) for i in part]
                    totals["plain"] += time.thread_time() - t0
                    answers["plain"] = counts
            disagreements += sum(a != b for a, b in zip(answers["ours"], answers["plain"]))
        ours.close()
        plain.close()
    n = len(puzzles) * rounds
    return totals["ours"] / n * 1e6, totals["plain"] / n * 1e6, disagreements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--count", type=int, default=2000, help="puzzles per list (sampled)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--solver-options", choices=("tuned", "default"), default="tuned")
    parser.add_argument("--lists", default="17-clue,top95,hardest,forum-hardest-1106,multi")
    args = parser.parse_args(argv)
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1]] + sys.argv)}")
    options = dict(CADICAL_TUNING) if args.solver_options == "tuned" else {}
    rng = random.Random(args.seed)
    ratios = []
    for name in args.lists.split(","):
        if name == "multi":
            base = read_lines(args.data / "17-clue.txt", args.count, rng)
            puzzles = multi_solution(base, rng)
        else:
            path = args.data / f"{name}.txt"
            if not path.exists():
                print(f"{name}: {path} not found, skipped")
                continue
            puzzles = read_lines(path, args.count, rng)
        puzzles = [random_transform(p, rng) for p in puzzles]
        ours, plain, bad = race(puzzles, options, args.rounds, args.chunk)
        ratios.append(ours / plain)
        print(
            f"{name:<20} n={len(puzzles):<5} x{args.rounds}  ours {ours:8.1f} us  plain "
            f"{plain:8.1f} us  ours/plain {ours / plain:.3f}"
            + (f"  DISAGREE on {bad}" if bad else ""),
            flush=True,
        )
        if bad:
            return 1
    print(f"geometric mean ours/plain {statistics.geometric_mean(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
