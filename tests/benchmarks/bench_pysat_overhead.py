"""The pysat backend's per-call cost against a plain PySAT loop.

    python tests/benchmarks/bench_pysat_overhead.py [--data /work/shared/data]
        [--count 2000] [--seed 18] [--rounds 5] [--min-samples 300] [--chunk 50]
        [--solver-options tuned|default]
        [--plain both|witnesses|verdict] [--floor] [--baseline REV]

Per list (17-clue, top95, hardest, forum-hardest-1106 and a multi-solution list made by
deleting one or two clues from 17-clue puzzles: no 9x9 puzzle of 16 clues or fewer is
unique), the same puzzles, each under a random symmetry transformation (seeded), go through

* ``ours``: ``PySATBackend.check_unique(puzzle)``, the public call with its verdict,
  witnesses and stats;
* ``plain``: a loop written against PySAT alone: the extended encoding built here, in this
  file (checked clause for clause against the backend's before the race), loaded once into
  ``Solver("cadical195")``; per puzzle, solve under the givens as assumptions, read the
  model, add the blocking clause of the non-given cells guarded by a fresh literal, solve
  again with the guard, retire it (the solver is rebuilt after
  :data:`backends.sat.RECYCLE_AFTER` retired guards, as the backend does). It answers
  what ``check_unique`` answers: the verdict *and its witnesses* (the solution of a unique
  puzzle, two solutions of a multiple one) as digit tuples. So it reads the second model
  of a multi-solution puzzle, as the backend must to return its second witness;
* ``plain-verdict``: the same loop answering the verdict alone. It reads the first model
  (the blocking clause needs it) but decodes no grid and never reads the second model: it
  answers less than ``check_unique`` does, so it is a floor rather than the target. It is
  shown because earlier versions of this benchmark raced against it only.

Both plain loops get the same CaDiCaL options as the backend (``--solver-options tuned``,
the default: :data:`backends.sat.CADICAL_TUNING`), so the ratio is the wrapper's cost, not
the tuning's gain; ``default`` gives the plain loops CaDiCaL's own defaults. The backend's
phase steering (positive cell phases, the second search started away from the first
solution) is part of the wrapper and stays on its side. The puzzles are cut into chunks;
the sides take turns per chunk and which side goes first rotates too, and each side's
total thread CPU time is summed over ``--rounds`` passes (fresh solvers each pass, one
warm-up call each). A short list is taken again under other random symmetries up to
``--min-samples`` puzzles (hardest has 11: one draw of their orientations decides its
ratio, between 0.85 and 1.10). Printed: us per puzzle for each side and ours/plain. Every side must
agree on every verdict (unique / multiple / none), and every witness of every side is
checked (off the clock) to be a solution of its puzzle, two different ones when multiple.
``--floor`` races one more side, ``floor``: the C calls ``check_unique`` makes (the
backend's own solver, CaDiCaL entry points and grid reader), in a bare loop (see
:class:`FloorLoop`); ours minus floor is the Python of the backend's call path per check.
``--baseline REV`` races one more side, ``baseline``: ``check_unique`` of the backend as
it was at that git revision (its ``backends/sat.py`` loaded beside today's), for old
against new in one run (the ratio printed is ours / baseline).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import operator
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import cast

from pysat.solvers import Solver

from sudoku_model import Puzzle, RuleSet
from sudoku_model.backends.sat import CADICAL_TUNING, FIRST_SLICE, RECYCLE_AFTER, PySATBackend
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


def check_same_formula() -> None:
    """Raise AssertionError unless :func:`plain_cnf` is the backend's classic 9x9 formula,
    clause for clause (as sets of literals, in any order) and with the same variables."""
    from sudoku_model.backends.cnf import encode_rules

    ours = encode_rules(RULES)
    mine = plain_cnf()
    if ours.num_vars != 729 or sorted(map(sorted, ours.clauses)) != sorted(map(sorted, mine)):
        raise AssertionError("the plain loop's formula is not the backend's")
    for cell in range(81):
        for digit in range(1, 10):
            if ours.variables.var(cell, digit) != 9 * cell + digit:
                raise AssertionError("the plain loop's variables are not the backend's")


#: cell * 9, the base of a cell's variables (var = base + digit)
BASES = range(0, 729, 9)


class PlainLoop:
    """Uniqueness with PySAT alone: the loop a user would write. ``check`` answers with the
    witnesses, ``count2`` with the verdict alone."""

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

    def _retire(self, guard: int) -> None:
        assert self.solver is not None
        self.solver.add_clause([-guard])
        self.retired += 1
        if self.retired >= RECYCLE_AFTER:
            self._fresh()

    def check(self, values: Sequence[int]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """(0, 1 or 2 solutions, the witnesses: the solution when 1, two when 2)."""
        s = self.solver
        assert s is not None
        assumptions = [9 * c + v for c, v in enumerate(values) if v]
        if not s.solve(assumptions=assumptions):
            return 0, ()
        # the true cell literals, one per cell in cell order (exactly one digit per cell)
        positive = [lit for lit in s.get_model()[:729] if lit > 0]
        first = tuple(map(operator.sub, positive, BASES))
        self.guard += 1
        g = self.guard
        # "some free cell differs", guarded
        clause = [-lit for lit, v in zip(positive, values) if not v]
        clause.append(-g)
        s.add_clause(clause)
        assumptions.append(g)
        found = s.solve(assumptions=assumptions)
        if found:
            positive = [lit for lit in s.get_model()[:729] if lit > 0]
            second = tuple(map(operator.sub, positive, BASES))
        self._retire(g)
        return (2, (first, second)) if found else (1, (first,))

    def count2(self, values: Sequence[int]) -> int:
        """0, 1 or 2 (two or more) solutions, without witnesses."""
        s = self.solver
        assert s is not None
        assumptions = [9 * c + v for c, v in enumerate(values) if v]
        if not s.solve(assumptions=assumptions):
            return 0
        positive = [lit for lit in s.get_model()[:729] if lit > 0]
        self.guard += 1
        g = self.guard
        clause = [-lit for lit, v in zip(positive, values) if not v]
        clause.append(-g)
        s.add_clause(clause)
        assumptions.append(g)
        found = s.solve(assumptions=assumptions)
        self._retire(g)
        return 2 if found else 1

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


class FloorLoop:
    """The C calls that ``check_unique`` makes, in a bare loop: the backend's own solver and
    entry points (:class:`backends.sat.internals.Direct`, the grid reader of
    ``backends.sat._satread``), in the same order (positive phases, stats, first slice,
    solve, grid with its free literals, phases away from it, guarded blocking clause, solve,
    second grid, stats, phases back, retire), with as little Python as a loop can have.
    ``ours`` minus this is the Python of the backend's call path per check (``--floor``)."""

    def __init__(self) -> None:
        self.backend = PySATBackend("cadical195")
        self.backend.check_unique(Puzzle.empty(SHAPE, RULES))
        self.engine = self.backend._engines[RULES]
        if self.engine.direct is None or self.engine.reader is None:
            raise SystemExit("--floor: no direct CaDiCaL entry points or grid reader here")

    def _solve(self, assumptions: list[int]) -> int:
        direct = self.engine.direct
        assert direct is not None
        while True:  # a search beyond the first slice goes on (the backend's _call)
            direct.budget(direct.handle, FIRST_SLICE)
            raw: int = direct.solve(direct.handle, assumptions, 0)
            if raw:
                return raw

    def check(self, values: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """(0, 1 or 2 solutions, the witnesses), as :meth:`PlainLoop.check`."""
        engine = self.engine
        direct, reader = engine.direct, engine.reader
        assert direct is not None and reader is not None
        handle = direct.handle
        engine.force_positive_phases()
        assumptions = engine.assumptions(values)
        before = direct.stats(handle)
        if self._solve(assumptions) < 0:
            direct.stats(handle)
            return 0, ()
        read = reader.with_free(handle, 9, 81, values)
        assert read is not None
        first, free, clause = read
        guard = engine.fresh_guard()
        assumptions.append(guard)
        direct.set_phases(handle, clause)
        clause.append(-guard)
        direct.add_clause(handle, clause)
        found = self._solve(assumptions) > 0
        second = reader.digits(handle, 9, 81) if found else None
        after = direct.stats(handle)
        direct.set_phases(handle, free)
        engine.retire(guard, RECYCLE_AFTER)
        self.stats = {k: after[k] - before[k] for k in ("conflicts", "decisions")}
        return (2, (first, second)) if second is not None else (1, (first,))

    def close(self) -> None:
        self.backend.close()


UNITS = [
    *([9 * r + c for c in range(9)] for r in range(9)),
    *([9 * r + c for r in range(9)] for c in range(9)),
    *([9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)),
]


def solves(puzzle: Sequence[int], grid: Sequence[int]) -> bool:
    """True when ``grid`` is a full classic 9x9 grid that keeps the givens of ``puzzle``."""
    digits = set(range(1, 10))
    return (
        len(grid) == 81
        and all(not p or p == g for p, g in zip(puzzle, grid))
        and all({grid[c] for c in unit} == digits for unit in UNITS)
    )


def witnesses_bad(puzzle: Sequence[int], count: int, grids: Sequence[Sequence[int]]) -> bool:
    """True unless ``grids`` are ``count`` (at most 2) different solutions of ``puzzle``."""
    return (
        len(grids) != min(count, 2)
        or not all(solves(puzzle, g) for g in grids)
        or (len(grids) == 2 and tuple(grids[0]) == tuple(grids[1]))
    )


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


#: The racing sides (see the module docstring).
SIDES = ("ours", "plain", "plain-verdict")


def baseline_backend(revision: str) -> type[PySATBackend]:
    """``PySATBackend`` of ``backends/sat.py`` at a git ``revision`` of this repository,
    loaded as a module of its own (its other imports are today's), to race old against
    new in one process. Only revisions where the backend was that one file (before the
    package ``backends/sat/``).

    Raises:
        subprocess.CalledProcessError: for a revision git does not know.
    """
    root = Path(__file__).resolve().parents[2]
    text = subprocess.run(
        ["git", "show", f"{revision}:backends/sat.py"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    text = text.replace("\nfrom .cnf import", "\nfrom backends.cnf import")
    text = text.replace("\nfrom .threads import", "\nfrom backends.threads import")
    text = text.replace("from . import _satread", "from sudoku_model.backends.sat import _satread")
    folder = Path(tempfile.mkdtemp(prefix="bench-baseline-"))
    path = folder / "sat_baseline.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("sat_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sat_baseline"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return cast(type[PySATBackend], module.PySATBackend)


def race(
    puzzles: list[tuple[int, ...]],
    options: dict[str, int],
    rounds: int,
    chunk: int,
    sides: Sequence[str] = SIDES,
    baseline: type[PySATBackend] | None = None,
) -> tuple[dict[str, float], int]:
    """({side: us per puzzle}, disagreements or bad witnesses): thread CPU time summed over
    ``rounds`` passes, the sides taking turns per chunk. The side ``baseline`` is
    ``check_unique`` of the ``baseline`` class."""
    grids = [Puzzle(Grid._trusted(SHAPE, p), RULES) for p in puzzles]
    totals = dict.fromkeys(sides, 0.0)
    bad = 0
    kind_count = {"unique": 1, "multiple": 2}
    for round_index in range(rounds):
        backends = {"ours": PySATBackend("cadical195")}
        if baseline is not None:
            backends["baseline"] = baseline("cadical195")
        loops: dict[str, PlainLoop | FloorLoop] = {
            side: FloorLoop() if side == "floor" else PlainLoop(options)
            for side in sides
            if side not in backends
        }
        for backend in backends.values():
            backend.check_unique(Puzzle.empty(SHAPE, RULES))  # load the solver
        for loop in loops.values():
            loop.check((0,) * 81)
        # What exists now (puzzles, clause lists of every side) is set aside from the
        # garbage collector: a full collection walks it, several milliseconds charged to
        # whichever side happens to be running (on hardest, 11 puzzles, the ratio swung
        # between 0.86 and 1.11 from run to run); each side's own garbage is still
        # collected on its own clock.
        gc.collect()
        gc.freeze()
        for start in range(0, len(puzzles), chunk):
            part = range(start, min(len(puzzles), start + chunk))
            turn = (start // chunk + round_index) % len(sides)
            counts: dict[str, list[int]] = {}
            for side in (*sides[turn:], *sides[:turn]):
                if side in backends:
                    check = backends[side].check_unique
                    t0 = time.thread_time()
                    verdicts = [check(grids[i]) for i in part]
                    totals[side] += time.thread_time() - t0
                    counts[side] = [kind_count.get(v.kind.value, 0) for v in verdicts]
                    for i, v, n in zip(part, verdicts, counts[side]):
                        given = v.witnesses if n == 2 else (v.solution,) if n == 1 else ()
                        found = [g.values for g in given if g is not None]
                        bad += witnesses_bad(puzzles[i], n, found)
                elif side in ("plain", "floor"):
                    plain_check = loops[side].check
                    t0 = time.thread_time()
                    answers = [plain_check(puzzles[i]) for i in part]
                    totals[side] += time.thread_time() - t0
                    counts[side] = [n for n, _ in answers]
                    for i, (n, grids_of) in zip(part, answers):
                        bad += witnesses_bad(puzzles[i], n, grids_of)
                else:
                    count2 = cast(PlainLoop, loops[side]).count2
                    t0 = time.thread_time()
                    counts[side] = [count2(puzzles[i]) for i in part]
                    totals[side] += time.thread_time() - t0
            first = counts[sides[0]]
            bad += sum(
                any(counts[side][k] != first[k] for side in sides) for k in range(len(first))
            )
        gc.unfreeze()
        for backend in backends.values():
            backend.close()
        for loop in loops.values():
            loop.close()
    n = len(puzzles) * rounds
    return {side: total / n * 1e6 for side, total in totals.items()}, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--count", type=int, default=2000, help="puzzles per list (sampled)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--min-samples",
        type=int,
        default=300,
        help="a short list (hardest: 11) is taken again under other random symmetries up "
        "to this many puzzles",
    )
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--solver-options", choices=("tuned", "default"), default="tuned")
    parser.add_argument("--lists", default="17-clue,top95,hardest,forum-hardest-1106,multi")
    parser.add_argument(
        "--plain",
        choices=("both", "witnesses", "verdict"),
        default="both",
        help="which plain loops race (witnesses: 'plain', verdict: 'plain-verdict')",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also race 'floor': the C calls of check_unique in a bare loop (ours - floor "
        "is the Python of the backend's call path)",
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also race check_unique of backends/sat.py at this git revision ('baseline')",
    )
    args = parser.parse_args(argv)
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1]] + sys.argv)}")
    check_same_formula()
    options = dict(CADICAL_TUNING) if args.solver_options == "tuned" else {}
    sides = {
        "both": SIDES,
        "witnesses": ("ours", "plain"),
        "verdict": ("ours", "plain-verdict"),
    }[args.plain]
    if args.floor:
        sides = (*sides, "floor")
    baseline = None
    if args.baseline:
        baseline = baseline_backend(args.baseline)
        sides = (*sides, "baseline")
    rng = random.Random(args.seed)
    ratios: dict[str, list[float]] = {side: [] for side in sides[1:]}
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
        # a short list is drawn again under other symmetries up to --min-samples: on
        # hardest's 11 puzzles one draw of orientations decides the ratio (0.85 or 1.10)
        copies = max(1, -(-args.min_samples // len(puzzles)))
        puzzles = [random_transform(p, rng) for _ in range(copies) for p in puzzles]
        rounds = args.rounds
        times, bad = race(puzzles, options, rounds, args.chunk, sides, baseline)
        ours = times["ours"]
        cells = [f"ours {ours:8.1f} us"]
        for side in sides[1:]:
            ratios[side].append(ours / times[side])
            cells.append(f"{side} {times[side]:8.1f} us ({ours / times[side]:.3f})")
        print(
            f"{name:<19} n={len(puzzles):<5} x{rounds:<3} "
            + "  ".join(cells)
            + (f"  DISAGREE or bad witnesses: {bad}" if bad else ""),
            flush=True,
        )
        if bad:
            return 1
    for side, values in ratios.items():
        if values:
            print(f"geometric mean ours/{side} {statistics.geometric_mean(values):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
