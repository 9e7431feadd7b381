"""Benchmark: building a labelled data set (``sudoku dataset build``), measured on a sample
and extrapolated to 100,000 puzzles on 2 cores.

    python tests/benchmarks/bench_dataset.py --count 5000            # plain generator
    python tests/benchmarks/bench_dataset.py --count 5000 --unbiased # the unbiased sampler

The making-and-labelling phase runs in one worker thread of this process (``jobs=1``), so
its CPU time is this process's CPU time (``time.process_time``; on a shared machine wall
time measures the neighbours too). Its chunks are independent, so on 2 cores with
``--jobs 2`` it takes half as long, give or take the start of the worker processes; the
split-and-write phase runs in the main process and is measured apart. The extrapolation is

    100,000 * (make+label CPU per puzzle / 2 + split+write CPU per puzzle)

Each label is also timed on its own over the first puzzles (``--breakdown N``) to show where
the time goes. ``--check`` also times ``sudoku dataset check`` on the result.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from sudoku_model import Puzzle, get_backend
from sudoku_model.canon import canonical_key
from sudoku_model.dataset import (
    backtrack_count,
    build_dataset,
    check_dataset,
    derived_seed,
    labelled_puzzles,
)
from sudoku_model.logic import grade

TARGET = 100_000
CORES = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000, help="puzzles in the sample")
    parser.add_argument("--unbiased", action="store_true", help="the unbiased sampler")
    parser.add_argument("--no-levels", action="store_true", help="skip the grader")
    parser.add_argument("--layout", default="quiz-answer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--breakdown", type=int, default=500, help="puzzles timed per label")
    parser.add_argument("--check", action="store_true", help="time dataset check too")
    args = parser.parse_args()

    seeds = {k: derived_seed(args.seed, k) for k in ("generate", "split", "guesses")}
    kind = "unbiased" if args.unbiased else "generate"
    start = time.process_time()
    wall = time.perf_counter()
    labelled = list(
        labelled_puzzles(
            kind,
            count=args.count,
            make_seed=seeds["generate"],
            guess_seed=seeds["guesses"],
            levels=not args.no_levels,
        )
    )
    make_cpu = time.process_time() - start
    make_wall = time.perf_counter() - wall
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        manifest = build_dataset(
            tmp,
            labelled,
            layout=args.layout,
            ratios=(0.8, 0.1, 0.1),
            seed=args.seed,
            seeds=seeds,
            stratify="clues",
        )
        write_cpu = time.process_time() - start
        check_cpu = None
        if args.check:
            start = time.process_time()
            report = check_dataset(tmp)
            check_cpu = time.process_time() - start
            assert report.ok, report.problems[:5]
    n = len(labelled)
    per_make = make_cpu / n
    per_write = write_cpu / n
    print(f"{kind}: {n} puzzles ({manifest['count']} kept), levels {not args.no_levels}")
    print(
        f"  make+label: {make_cpu:.1f} s CPU ({make_wall:.1f} s wall), "
        f"{1e3 * per_make:.3f} ms/puzzle"
    )
    print(f"  split+write: {write_cpu:.2f} s CPU, {1e3 * per_write:.4f} ms/puzzle")
    if check_cpu is not None:
        print(f"  check: {check_cpu:.2f} s CPU, {1e3 * check_cpu / n:.3f} ms/puzzle")
    estimate = TARGET * (per_make / CORES + per_write)
    print(
        f"  extrapolated: {TARGET:,} puzzles on {CORES} cores (--jobs {CORES}): "
        f"{estimate / 60:.1f} min"
    )

    sample = [lab.candidate.puzzle for lab in labelled[: args.breakdown]]
    backend = get_backend("native")

    def per_puzzle(fn: object) -> float:
        runs = []
        for _ in range(3):
            start = time.process_time()
            for p in sample:
                fn(p)  # type: ignore[operator]
            runs.append((time.process_time() - start) / len(sample))
        return statistics.median(runs)

    def level(p: Puzzle) -> object:
        return grade(p, keep_steps=False).level

    def guesses(p: Puzzle) -> object:
        return backtrack_count(p, seed=1, backend=backend)

    print(f"  per label, median of 3 over {len(sample)} puzzles (CPU):")
    for name, fn in (("level", level), ("guesses", guesses), ("canonical", canonical_key)):
        print(f"    {name:10s} {1e3 * per_puzzle(fn):.3f} ms")


if __name__ == "__main__":
    main()
