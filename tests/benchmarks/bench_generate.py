"""Benchmark of the generator: median wall time per minimal puzzle, end to end (full grid,
removal pass, minimality report), per size and backend.

    python tests/benchmarks/bench_generate.py                      # 9x9 and 16x16
    python tests/benchmarks/bench_generate.py --sizes 25 --count 3 --backends pysat
    python tests/benchmarks/bench_generate.py --sizes 9 --count 500 --jobs 2

Targets: 9x9 <= 1 ms with native, <= 4 ms with pysat; 16x16 <= 2 s; 25x25
<= 60 s. Each puzzle is timed on its own (the first of each configuration, which loads the
solver, is excluded); the median, the quartiles and the clue counts are printed. With
--jobs N the batch throughput through worker processes is printed too. From 16x16 up the
native engine hands the calls its short first try cannot answer to pysat:cadical195; how
many per puzzle is printed. On a shared machine prefer --cpu (process CPU time, the SAT
fallback included: it runs in this process).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from sudoku_model import Budget, RuleSet, get_backend, shape_for_size
from sudoku_model.generate import GenerationSpec, engine_for, generate, generate_one, puzzle_seed

DEFAULT_COUNTS = {4: 2000, 6: 1000, 9: 300, 12: 20, 16: 9, 25: 3}


def bench(
    size: int,
    backend_name: str,
    count: int,
    seed: int,
    symmetry: str,
    cpu: bool,
    budget: Budget | None,
) -> None:
    rules = RuleSet.classic(shape_for_size(size))
    spec = GenerationSpec(rules, symmetry=symmetry)
    engine = engine_for(get_backend(backend_name), budget=budget)
    clock = time.process_time if cpu else time.perf_counter
    generate_one(spec, engine, seed=puzzle_seed(seed, -1))  # warm-up: load the model
    times, clues, minimal, unknown = [], [], 0, 0
    fallback_before = getattr(engine, "fallback_calls", 0)
    for index in range(count):
        start = clock()
        made = generate_one(spec, engine, seed=puzzle_seed(seed, index), index=index)
        times.append(clock() - start)
        clues.append(made.clues)
        minimal += bool(made.minimal)
        unknown += made.minimal is None
        if size >= 16:
            print(
                f"  {size}x{size} {backend_name} #{index}: {times[-1]:.2f} s, "
                f"{made.clues} clues, minimal {made.minimal}",
                file=sys.stderr,
                flush=True,
            )
    fallback = getattr(engine, "fallback_calls", 0) - fallback_before
    q = statistics.quantiles(times, n=4) if len(times) >= 2 else [times[0]] * 3
    unit, scale = ("ms", 1e3) if q[1] < 1 else ("s", 1.0)
    print(
        f"{size:>2}x{size:<2} {backend_name:<18} n={count:<5} median {q[1] * scale:8.3f} "
        f"{unit}  (q1 {q[0] * scale:.3f}, q3 {q[2] * scale:.3f})  clues mean "
        f"{statistics.mean(clues):.2f}  minimal {minimal}/{count}"
        + (f" (unknown: budget) {unknown}" if unknown else "")
        + (f"  fallback calls {fallback / count:.1f}/puzzle" if fallback else ""),
        flush=True,
    )


def bench_jobs(size: int, backend_name: str, count: int, seed: int, jobs: int) -> None:
    spec = GenerationSpec(RuleSet.classic(shape_for_size(size)))
    start = time.perf_counter()
    made = list(generate(spec, count=count, seed=seed, backend=backend_name, jobs=jobs))
    elapsed = time.perf_counter() - start
    print(
        f"{size:>2}x{size:<2} {backend_name:<18} jobs={jobs}: {count} puzzles in "
        f"{elapsed:.2f} s = {elapsed / count * 1e3:.3f} ms per puzzle (process start "
        f"included); clues mean {statistics.mean(m.clues for m in made):.2f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="9,16", help="comma list of sizes (default 9,16)")
    parser.add_argument("--backends", default="native,pysat")
    parser.add_argument(
        "--count",
        type=int,
        help="puzzles per configuration (default: 300 for 9x9, 9 for 16x16, 3 for 25x25)",
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--symmetry", default="none")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="measure process CPU time instead of wall time (steadier on a shared machine)",
    )
    parser.add_argument(
        "--budget-seconds",
        type=float,
        help="limit each solver call (default 60 s); a call that runs out "
        "keeps its clue and leaves the minimality unknown",
    )
    parser.add_argument(
        "--jobs", type=int, default=0, help="also time a batch through N worker processes"
    )
    args = parser.parse_args(argv)
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1]] + sys.argv)}")
    for size in (int(s) for s in args.sizes.split(",")):
        for name in args.backends.split(","):
            count = args.count or DEFAULT_COUNTS.get(size, 5)
            budget = Budget(seconds=args.budget_seconds) if args.budget_seconds else None
            bench(size, name, count, args.seed, args.symmetry, args.cpu, budget)
            if args.jobs:
                bench_jobs(size, name, count, args.seed, args.jobs)


if __name__ == "__main__":
    main()
