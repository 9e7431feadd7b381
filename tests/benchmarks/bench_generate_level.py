"""Benchmark of generation by difficulty: how often each level comes out of plain minimal
generation (the rates behind DEFAULT_LEVEL_TRIES), and the wall time per kept puzzle with
``level=`` for each level.

    python tests/benchmarks/bench_generate_level.py                  # 9x9, 300 puzzles
    python tests/benchmarks/bench_generate_level.py --rates 3000 --seed 3
    python tests/benchmarks/bench_generate_level.py --size 6 --symmetry rot180
    python tests/benchmarks/bench_generate_level.py --per-level 0    # rates only

Part 1 makes --rates puzzles without a level, grades each, and prints the share of each
level with the median generation and grading times. Part 2 makes --per-level puzzles at
each level (--repeats passes with different seeds) and prints the median over passes of
the mean wall time per kept puzzle and of the tries per kept puzzle. The expected tries
per kept puzzle are 1 / rate, so part 2 follows from part 1 up to noise.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict

from sudoku_model import RuleSet, get_backend, shape_for_size
from sudoku_model.generate import (
    DEFAULT_LEVEL_TRIES,
    LEVEL_NAMES,
    GenerationSpec,
    engine_for,
    generate,
    generate_one,
    puzzle_seed,
)
from sudoku_model.logic import grade


def rates(spec: GenerationSpec, backend: str, count: int, seed: int) -> None:
    engine = engine_for(get_backend(backend))
    generate_one(spec, engine, seed=puzzle_seed(seed, -1))  # warm-up: load the model
    levels: Counter[str] = Counter()
    make_times: dict[str, list[float]] = defaultdict(list)
    grade_times: dict[str, list[float]] = defaultdict(list)
    for index in range(count):
        start = time.perf_counter()
        made = generate_one(spec, engine, seed=puzzle_seed(seed, index), index=index)
        made_at = time.perf_counter()
        graded = grade(made.puzzle, keep_steps=False)
        done = time.perf_counter()
        level = graded.level or "unknown"
        levels[level] += 1
        make_times[level].append(made_at - start)
        grade_times[level].append(done - made_at)
    print(
        f"rates: {count} minimal {spec.rules.shape.name} puzzles, {backend}, seed {seed}, "
        f"symmetry {spec.symmetry}"
    )
    print("level     puzzles  share  make ms  grade ms  (medians)")
    for level in (*LEVEL_NAMES, "unknown"):
        k = levels[level]
        if k:
            print(
                f"{level:8s} {k:8d} {100 * k / count:5.1f}%  "
                f"{1000 * statistics.median(make_times[level]):7.2f}  "
                f"{1000 * statistics.median(grade_times[level]):8.2f}"
            )
        elif level != "unknown":
            print(f"{level:8s} {0:8d}   0.0%")


def per_level(spec: GenerationSpec, backend: str, count: int, seed: int, repeats: int) -> None:
    print(f"\nper level: {count} puzzles x {repeats} passes, {backend}")
    print("level     s/puzzle  tries/puzzle  default tries")
    get_backend(backend)
    for level in LEVEL_NAMES:
        seconds, tries = [], []
        try:
            for r in range(repeats):
                start = time.perf_counter()
                made = list(
                    generate(spec, count=count, seed=seed + r, backend=backend, level=level)
                )
                seconds.append((time.perf_counter() - start) / count)
                tries.append(sum(m.level_tries for m in made) / count)
        except Exception as exc:  # a level this shape does not reach: say so, go on
            print(f"{level:8s}  failed: {exc}")
            continue
        print(
            f"{level:8s} {statistics.median(seconds):9.4f}  "
            f"{statistics.median(tries):12.1f}  {DEFAULT_LEVEL_TRIES[level]:13d}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--backend", default="native")
    parser.add_argument("--symmetry", default="none")
    parser.add_argument(
        "--rates",
        type=int,
        default=300,
        metavar="N",
        help="puzzles made and graded for the rates (default 300)",
    )
    parser.add_argument(
        "--per-level",
        type=int,
        default=5,
        metavar="N",
        help="puzzles per level per pass (default 5; 0 skips part 2)",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec = GenerationSpec(RuleSet.classic(shape_for_size(args.size)), symmetry=args.symmetry)
    if args.rates:
        rates(spec, args.backend, args.rates, args.seed)
    if args.per_level:
        per_level(spec, args.backend, args.per_level, args.seed, args.repeats)


if __name__ == "__main__":
    main()
