"""Large grids: uniqueness and generation of 16x16 and 25x25 puzzles,
per engine.

    python tests/benchmarks/bench_large.py unique [--sizes 16,25] [--engines default,...]
        [--symmetries 3]
    python tests/benchmarks/bench_large.py split [--symmetries 3]
    python tests/benchmarks/bench_large.py generate [--sizes 16,25] [--count 15]
    python tests/benchmarks/bench_large.py generate --sizes 16 --trees OLD,NEW --rounds 3
    python tests/benchmarks/bench_large.py make-data --count 8 --seed 2518   # tests/data
    python tests/benchmarks/bench_large.py variants --symmetries 3 \
        --variants base,level:locked,level:pairs,triads,complement,fresh-proof

``unique``: ``check_unique`` on each puzzle of ``/work/shared/data/16x16-100.csv`` (16x16)
and of ``tests/data/minimal-25x25.txt`` (25x25), each under ``--symmetries`` random
symmetries of its shape (seeded; default 1, the figures quoted in the earliest
round; 3 gives 15 instances of the five stored 25x25 puzzles), per engine; process CPU
time per puzzle (a SAT solver runs in this process), median and maximum, and the
verdicts (every engine must agree). Engines: ``default`` (what ``get_backend()`` gives,
the routing policy ``auto``, see ``backends.auto``), ``native-c``
(the C search alone), ``pysat`` (its default: the reduced CNF from 25x25 up),
``pysat-full`` (the long-lived solver with the full encoding: the first call loads it and
is timed apart), ``reduced[:SOLVER]`` (a fresh PySAT solver per puzzle
with only what the givens leave, ``backends.sat.ReducedCNF``), ``cpsat``. A per-call
budget (``--budget``, default 60 s) turns a search that runs out into ``unknown``.

``split``: where a 25x25 uniqueness check's CPU goes, on the same instances as ``unique``:
building the :class:`~backends.sat.ReducedCNF`, loading it into CaDiCaL (with
``REDUCED_TUNING``), finding a first solution, and proving that no other exists (its
blocking clause added), with the conflicts of each search. On a minimal 25x25 the two
searches are of the same order: neither alone is the bottleneck.

``generate``: minimal puzzles with the default backend, as ``sudoku generate`` makes them
(seeded); CPU time per puzzle, median and maximum.

With ``--trees OLD,NEW`` (two source trees, each holding ``sudoku_model``, ``backends``
and ``native_backtrack`` with its ``_core`` extension built in place, e.g. ``git archive
REV | tar -x -C DIR`` and the extension compiled there), each round runs the same seeds in
a child process per tree, in alternating order, and prints both medians and maxima
(process CPU time per puzzle) and whether both made the same puzzles (a digest).

``variants``: alternatives to the routed 25x25 check's formula and searches, run one after
another on each instance (alternated per instance): CPU and CaDiCaL conflicts of the first
solution and of the proof, median, maximum and sum per variant. Conflicts do not depend
on the machine's load, so they compare variants exactly where CPU times are noisy.
``base`` is what the routed check does (:class:`~backends.sat.ReducedCNF`,
``REDUCED_TUNING``, the proof in the same solver with the first solution blocked);
``level:L`` narrows the candidates first (``backends.preprocess`` level L); ``triads``
adds a variable per (box-line intersection, digit) with "exactly one intersection" per
line and per box (tdoku's triads, as clauses); ``complement`` sets the proof's phases to
the complement of the first solution; ``fresh-proof`` proves in a fresh solver (no learnt
clauses kept); ``solver:NAME`` another PySAT solver (positive phases set); ``opt:K=V``
one more CaDiCaL option over ``REDUCED_TUNING``.

``make-data``: the stored 25x25 puzzles: for each index, a random full grid from the
native search seeded with ``random.Random(seed * 1000 + index)``, its cells visited in a
random order of the same generator, each emptied unless a solution differing from the grid
there exists (PySAT on the reduced CNF); one pass leaves a minimal puzzle.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, get_backend, shape_for_size
from sudoku_model.backends.sat import PySATBackend, ReducedCNF
from sudoku_model.canon import Transform
from sudoku_model.solving import Backend, VerdictKind

HERE = Path(__file__).resolve().parent
DATA_25 = HERE.parent / "data" / "minimal-25x25.txt"
SHARED = Path("/work/shared/data")


def random_transform(shape: Shape, rng: random.Random) -> Transform:
    """A random element of the symmetry group of a square-box shape."""
    b = shape.box_rows
    n = shape.size

    def lines() -> tuple[int, ...]:
        return tuple(
            b * band + r for band in rng.sample(range(b), b) for r in rng.sample(range(b), b)
        )

    digits = (0, *rng.sample(range(1, n + 1), n))
    return Transform(rng.random() < 0.5, lines(), lines(), digits)


def load(size: int, data: Path) -> list[Puzzle]:
    """The benchmark puzzles of one size."""
    shape = shape_for_size(size)
    rules = RuleSet.classic(shape)
    out = []
    if size == 16:
        for line in (data / "16x16-100.csv").read_text().splitlines()[1:]:
            text = line.split(",")[0].strip()
            values = [0 if ch == "0" else int(ch, 17) for ch in text]
            out.append(Puzzle(Grid(shape, values), rules))
    elif size == 25:
        for line in DATA_25.read_text().splitlines():
            if line and not line.startswith("#"):
                out.append(Puzzle(Grid.parse(line.split()[0], shape=shape), rules))
    return out


def engine(name: str) -> Backend:
    if name == "default":
        return get_backend()
    if name == "native-c":
        return get_backend("native")
    if name.startswith("reduced"):
        solver = name.partition(":")[2] or "cadical195"
        return PySATBackend(solver, reduce_from=4)
    if name == "pysat-full":
        return PySATBackend(reduce_from=None)
    return get_backend(name)


def instances(size: int, data: Path, seed: int, symmetries: int) -> list[Puzzle]:
    """The benchmark puzzles of one size, each under ``symmetries`` random symmetries drawn
    from ``random.Random(seed)`` (with 1, the instances of the first round's figures)."""
    rng = random.Random(seed)
    shape = shape_for_size(size)
    return [
        Puzzle(random_transform(shape, rng).apply(p.givens), p.rules)
        for p in load(size, data)
        for _ in range(symmetries)
    ]


def bench_unique(
    sizes: list[int], engines: list[str], data: Path, seed: int, budget: float, symmetries: int
) -> None:
    for size in sizes:
        puzzles = instances(size, data, seed, symmetries)
        verdicts: dict[str, list[VerdictKind]] = {}
        for name in engines:
            backend = engine(name)
            times = []
            kinds = []
            first = None
            for index, puzzle in enumerate(puzzles):
                t0 = time.process_time()
                verdict = backend.check_unique(puzzle, budget=Budget(seconds=budget))
                spent = time.process_time() - t0
                if name == "pysat-full" and index == 0:
                    first = spent  # loading the full encoding
                else:
                    times.append(spent)
                kinds.append(verdict.kind)
                print(
                    f"  {size}x{size} {name} #{index}: {spent:.3f} s {verdict.kind.value} "
                    f"by {verdict.backend}",
                    file=sys.stderr,
                    flush=True,
                )
            verdicts[name] = kinds
            counts = {k.value: kinds.count(k) for k in set(kinds)}
            print(
                f"{size}x{size} {name:<18} n={len(puzzles)} median "
                f"{statistics.median(times) * 1e3:.1f} ms"
                f"  max {max(times) * 1e3:.1f} ms  verdicts {counts}"
                + (f"  (first call, loading: {first:.2f} s)" if first is not None else ""),
                flush=True,
            )
            close = getattr(backend, "close", None)
            if close is not None:
                close()
        decided = [k for k in verdicts.values() if VerdictKind.UNKNOWN not in k]
        if any(k != decided[0] for k in decided):
            print(f"DISAGREEMENT at {size}x{size}", flush=True)


def bench_split(data: Path, seed: int, symmetries: int) -> None:
    from pysat.solvers import Solver

    from sudoku_model.backends.sat import REDUCED_TUNING, ReducedCNF

    rows = []
    for index, puzzle in enumerate(instances(25, data, seed, symmetries)):
        t0 = time.process_time()
        cnf = ReducedCNF(puzzle.rules, puzzle.givens.values)
        t1 = time.process_time()
        solver = Solver(name="cadical195")
        try:
            solver.solver.configure(REDUCED_TUNING)
            solver.append_formula(cnf.clauses)
            t2 = time.process_time()
            if not solver.solve():
                raise SystemExit(f"#{index}: no solution")
            first = cnf.decode(solver.get_model())
            t3 = time.process_time()
            conflicts = solver.accum_stats()["conflicts"]
            solver.add_clause(cnf.blocking_clause(first))
            other = solver.solve()
            t4 = time.process_time()
            proof = solver.accum_stats()["conflicts"] - conflicts
        finally:
            solver.delete()
        rows.append((t1 - t0, t2 - t1, t3 - t2, t4 - t3))
        print(
            f"  #{index}: {cnf.num_vars} vars {len(cnf.clauses)} clauses; build "
            f"{t1 - t0:.3f} s, load {t2 - t1:.3f} s, first solution {t3 - t2:.3f} s "
            f"({conflicts} conflicts), proof {t4 - t3:.3f} s ({proof} conflicts)"
            + ("" if other is False else " NOT UNIQUE"),
            flush=True,
        )
    for name, k in (("build", 0), ("load", 1), ("first solution", 2), ("proof", 3)):
        col = [r[k] for r in rows]
        print(
            f"25x25 split n={len(rows)} {name:<15} median {statistics.median(col):.3f} s "
            f"max {max(col):.3f} s  sum {sum(col):.1f} s",
            flush=True,
        )


def _triad_clauses(rules: RuleSet, cnf: ReducedCNF, top: int) -> tuple[list[list[int]], int]:
    """Exactly one of the intersections of a line with the boxes, and of a box with the
    lines, holds each digit, through a variable per (intersection, digit)."""
    shape = rules.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    values, var_of = cnf.givens, cnf.var_of
    out: list[list[int]] = []

    def exactly_one(group: list[int | bool]) -> None:
        if True in group:
            return
        lits = [x for x in group if x is not False and x is not True]
        out.append(lits)
        out.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])

    for d in range(1, n + 1):
        seg: dict[tuple[str, int, int], int | bool] = {}
        for kind, per, width in (("r", n // bc, bc), ("c", n // br, br)):
            for line in range(n):
                for k in range(per):
                    cells = (
                        [line * n + k * bc + j for j in range(width)]
                        if kind == "r"
                        else [(k * br + j) * n + line for j in range(width)]
                    )
                    if any(values[c] == d for c in cells):
                        seg[kind, line, k] = True
                        continue
                    lits = [var_of[c][d] for c in cells if d in var_of[c]]
                    if len(lits) <= 1:
                        seg[kind, line, k] = lits[0] if lits else False
                        continue
                    top += 1
                    out.append([-top, *lits])
                    out.extend([-x, top] for x in lits)
                    seg[kind, line, k] = top
        for line in range(n):
            exactly_one([seg["r", line, k] for k in range(n // bc)])
            exactly_one([seg["c", line, k] for k in range(n // br)])
        for r in range(n // br):
            for c in range(n // bc):
                exactly_one([seg["r", r * br + j, c] for j in range(br)])
                exactly_one([seg["c", c * bc + j, r] for j in range(bc)])
    return out, top


def _variant_run(puzzle: Puzzle, variant: str) -> tuple[float, float, int, int]:
    """(first solution CPU, proof CPU, their conflicts) of one variant on one puzzle; the
    first CPU figure includes building and loading the formula."""
    from pysat.solvers import Solver

    from sudoku_model.backends.sat import REDUCED_TUNING

    kind, _, arg = variant.partition(":")
    name = arg if kind == "solver" else "cadical195"
    options: dict[str, int] = dict(REDUCED_TUNING)
    if kind == "opt":
        key, _, value = arg.partition("=")
        options[key] = int(value)

    def conflicts(solver: Solver) -> int:
        return int(solver.accum_stats().get("conflicts", 0)) if name != "kissat404" else 0

    t0 = time.process_time()
    cnf = ReducedCNF(puzzle.rules, puzzle.givens.values, level=arg if kind == "level" else "givens")
    clauses = cnf.clauses
    if kind == "triads":
        extra, _ = _triad_clauses(puzzle.rules, cnf, cnf.num_vars)
        clauses = clauses + extra

    def load() -> Solver:
        solver = Solver(name=name)
        if name.startswith("cadical") and name != "cadical103":
            solver.solver.configure(options)
        solver.append_formula(clauses)
        if not name.startswith("cadical"):
            solver.set_phases(range(1, cnf.num_vars + 1))
        return solver

    solver = load()
    try:
        if not solver.solve():
            raise SystemExit(f"{variant}: no solution")
        first = cnf.decode(solver.get_model())
        c1 = conflicts(solver)
        t1 = time.process_time()
        block = cnf.blocking_clause(first)
        if kind == "fresh-proof":
            solver.delete()
            solver = load()
            c1_base = 0
        else:
            c1_base = c1
        if kind == "complement":
            solver.set_phases(block)
        solver.add_clause(block)
        if solver.solve():
            raise SystemExit(f"{variant}: not unique")
        c2 = conflicts(solver) - c1_base
        t2 = time.process_time()
    finally:
        solver.delete()
    return t1 - t0, t2 - t1, c1, c2


def bench_variants(data: Path, seed: int, symmetries: int, variants: list[str]) -> None:
    known = ("base", "level", "triads", "complement", "fresh-proof", "solver", "opt")
    for variant in variants:
        if variant.partition(":")[0] not in known:
            raise SystemExit(f"unknown variant {variant!r}; kinds: {', '.join(known)}")
    rows: dict[str, list[tuple[float, float, int, int]]] = {v: [] for v in variants}
    for index, puzzle in enumerate(instances(25, data, seed, symmetries)):
        for variant in variants:
            row = _variant_run(puzzle, variant)
            rows[variant].append(row)
            print(
                f"  #{index} {variant:<16} first {row[0]:.3f} s ({row[2]} conflicts), "
                f"proof {row[1]:.3f} s ({row[3]} conflicts)",
                file=sys.stderr,
                flush=True,
            )
    for variant, got in rows.items():
        cpu = [a + b for a, b, _, _ in got]
        conf = [c + d for _, _, c, d in got]
        print(
            f"25x25 {variant:<16} n={len(got)} CPU median {statistics.median(cpu):.3f} s "
            f"max {max(cpu):.3f} s sum {sum(cpu):.1f} s; conflicts median "
            f"{statistics.median(conf):.0f} max {max(conf)} sum {sum(conf)}",
            flush=True,
        )


def bench_generate(sizes: list[int], count: int, seed: int) -> None:
    from sudoku_model.generate import GenerationSpec, engine_for, generate_one, puzzle_seed

    for size in sizes:
        spec = GenerationSpec(RuleSet.classic(shape_for_size(size)))
        gen = engine_for(get_backend())
        generate_one(spec, gen, seed=puzzle_seed(seed, -1))  # warm-up: load the model
        times, clues = [], []
        for index in range(count):
            t0 = time.process_time()
            made = generate_one(spec, gen, seed=puzzle_seed(seed, index), index=index)
            times.append(time.process_time() - t0)
            clues.append(made.clues)
            print(
                f"  {size}x{size} #{index}: {times[-1]:.3f} s, {made.clues} clues, "
                f"minimal {made.minimal}",
                file=sys.stderr,
                flush=True,
            )
        print(
            f"{size}x{size} generate (default backend) n={count} median "
            f"{statistics.median(times):.3f} s  max {max(times):.3f} s  clues mean "
            f"{statistics.mean(clues):.1f}  fallback calls {gen.fallback_calls}",
            flush=True,
        )


CHILD = r"""
import hashlib, json, sys, time
from sudoku_model import RuleSet, get_backend, shape_for_size
from sudoku_model.generate import GenerationSpec, engine_for, generate_one, puzzle_seed
from sudoku_model import native_backtrack
size, seed, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
spec = GenerationSpec(RuleSet.classic(shape_for_size(size)))
gen = engine_for(get_backend())
generate_one(spec, gen, seed=puzzle_seed(seed, -1))
times, lines = [], []
for index in range(count):
    t0 = time.process_time()
    made = generate_one(spec, gen, seed=puzzle_seed(seed, index), index=index)
    times.append(time.process_time() - t0)
    lines.append(made.puzzle.givens.to_line())
print(json.dumps({"times": times, "where": native_backtrack.__file__,
                  "digest": hashlib.sha256("".join(lines).encode()).hexdigest()[:16]}))
"""


def bench_generate_trees(
    sizes: list[int], count: int, seed: int, trees: list[Path], rounds: int
) -> None:
    import json
    import os
    import subprocess

    for size in sizes:
        for r in range(rounds):
            order = trees if r % 2 == 0 else trees[::-1]
            got = {}
            for tree in order:
                tree = tree.resolve()
                done = subprocess.run(
                    [sys.executable, "-c", CHILD, str(size), str(seed), str(count)],
                    capture_output=True,
                    text=True,
                    env=dict(os.environ, PYTHONPATH=str(tree)),
                    cwd=tree,
                    check=False,
                )
                if done.returncode:
                    raise SystemExit(f"child on {tree} failed:\n{done.stderr}")
                got[tree] = json.loads(done.stdout)
                if not got[tree]["where"].startswith(str(tree)):
                    raise SystemExit(f"the child on {tree} imported {got[tree]['where']}")
            same = len({g["digest"] for g in got.values()}) == 1
            parts = []
            for tree in trees:
                times = got[tree.resolve()]["times"]
                parts.append(
                    f"{tree.resolve().name}: median {statistics.median(times) * 1e3:.1f} ms"
                    f" max {max(times) * 1e3:.1f} ms"
                )
            print(
                f"{size}x{size} round {r}: "
                + "  ".join(parts)
                + f"  (n={count}, {'same puzzles' if same else 'DIFFERENT PUZZLES'})",
                flush=True,
            )


def make_data(count: int, seed: int, out: Path) -> None:
    rules = RuleSet.classic(Shape(5, 5))
    sat = PySATBackend("cadical195", reduce_from=4)
    unlimited = Budget()
    lines = [
        "# Minimal 25x25 puzzles (classic rules, symbols A-Y), one per line: puzzle, clues,",
        "# the seed of its random.Random. Made by",
        f"#   python tests/benchmarks/bench_large.py make-data --count {count} --seed {seed}",
        "# a random full grid of the native search, its cells visited in a random order of",
        "# the same generator, each emptied unless another solution then differs from the",
        "# grid there (PySAT on the reduced CNF), so one pass leaves a minimal puzzle.",
    ]
    for index in range(count):
        t0 = time.process_time()
        rng = random.Random(seed * 1000 + index)
        grid = get_backend("native").random_solution(rules, rng)
        assert grid is not None
        values = list(grid.values)
        cells = list(range(rules.shape.cell_count))
        rng.shuffle(cells)
        for c in cells:
            values[c] = 0
            puzzle = Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
            other = sat._search_reduced(
                puzzle, limit=1, budget=unlimited, known=grid, differ_in=[c]
            )
            if other.solutions:
                values[c] = grid.values[c]  # necessary
        puzzle = Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
        lines.append(f"{puzzle.givens.to_line()} {puzzle.clues} {seed * 1000 + index}")
        print(f"#{index}: {puzzle.clues} clues, {time.process_time() - t0:.1f} s CPU", flush=True)
        out.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("unique", "split", "generate", "make-data", "variants"))
    parser.add_argument("--variants", default="base,level:locked,triads,complement,fresh-proof")
    parser.add_argument("--sizes", default="16,25")
    parser.add_argument("--engines", default="default,native-c,pysat-full,reduced,cpsat")
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--seed", type=int, default=2518)
    parser.add_argument("--count", type=int, default=15)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--symmetries", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA_25)
    parser.add_argument("--trees", default=None, help="OLD,NEW: generate in both, alternated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1]] + sys.argv)}", flush=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.what == "unique":
        bench_unique(
            sizes, args.engines.split(","), args.data, args.seed, args.budget, args.symmetries
        )
    elif args.what == "split":
        bench_split(args.data, args.seed, args.symmetries)
    elif args.what == "generate" and args.trees:
        trees = [Path(t) for t in args.trees.split(",")]
        bench_generate_trees(sizes, args.count, args.seed, trees, args.rounds)
    elif args.what == "variants":
        bench_variants(args.data, args.seed, args.symmetries, args.variants.split(","))
    elif args.what == "generate":
        bench_generate(sizes, args.count, args.seed)
    else:
        make_data(args.count, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
