"""Benchmark of the native backtracker.

    python tests/benchmarks/bench_native.py [--repeat 5] [--min-cpu 0.2] [--skip-6x6] [--generic]

Prints, single-threaded, limit 2, through the batch API: puzzles per second on the 17-clue,
forum-hardest-1106 and top95 sets (median of --repeat runs, CPU time of this process so that
other load on a shared machine counts less; wall time shown too), with tdoku's figures
measured on this class of machine for reference; the per-call overhead of one Python call
(backend.check_unique on an easy puzzle); and the time to count all 28,200,960 6x6 grids.
"""

from __future__ import annotations

import argparse
import gzip
import math
import statistics
import time

from sudoku_model import Puzzle, RuleSet, Shape, get_backend
from sudoku_model.data import bundled_path

TDOKU = {"17-clue": 285_000, "forum-hardest-1106": 11_900, "top95": 93_000}


def load(name: str) -> bytes:
    path = bundled_path(name)
    opener = gzip.open if path.suffix == ".gz" else open
    out = bytearray()
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out += bytes(0 if ch in ".0" else int(ch) for ch in line[:81])
    return bytes(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--min-cpu",
        type=float,
        default=0.2,
        help="repeat each batch within a run until it took this many CPU seconds",
    )
    ap.add_argument("--skip-6x6", action="store_true", help="skip the 28,200,960 count")
    ap.add_argument(
        "--generic", action="store_true", help="force the generic path (no classic 9x9 fast path)"
    )
    args = ap.parse_args()
    backend = get_backend("native", fast=not args.generic)
    model = backend.model(RuleSet.classic(Shape(3, 3)))
    print(
        f"native backtracker, classic 9x9 {'generic' if args.generic else 'fast'} path, "
        f"batch API, limit 2, 1 thread, median of {args.repeat}"
    )
    for name, tdoku in TDOKU.items():
        data = load(name)
        k = len(data) // 81
        # A run repeats the batch until it has taken --min-cpu seconds, so that the small
        # sets are not timed at the clock's resolution.
        c0 = time.process_time()
        counts, statuses, _sols, nodes, guesses = model.batch(
            data, limit=2, keep=1, fast=not args.generic
        )
        rounds = max(1, math.ceil(args.min_cpu / max(time.process_time() - c0, 1e-6)))
        cpu, wall = [], []
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            for _ in range(rounds):
                model.batch(data, limit=2, keep=1, fast=not args.generic)
            cpu.append((time.process_time() - c0) / rounds)
            wall.append((time.perf_counter() - w0) / rounds)
        assert set(counts) == {1}, f"{name}: not every puzzle unique?"
        rate = k / statistics.median(cpu)
        print(
            f"  {name:20s} {k:6d} puzzles  {rate:10,.0f}/s cpu ({statistics.median(cpu):.3f} s)  "
            f"{k / statistics.median(wall):10,.0f}/s wall  "
            f"{guesses / k:7.1f} guesses {nodes / k:7.1f} nodes/puzzle  tdoku {tdoku:,}/s -> "
            f"{rate / tdoku:.0%} (target 50%)"
        )

    easy = Puzzle.parse(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    )
    for _ in range(100):
        backend.check_unique(easy)
    per_call = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        for _ in range(2000):
            backend.check_unique(easy)
        per_call.append((time.perf_counter() - t) / 2000)
    core = []
    g = bytes(easy.givens.values)
    for _ in range(args.repeat):
        t = time.perf_counter()
        for _ in range(2000):
            model.solve(g, limit=2)
        core.append((time.perf_counter() - t) / 2000)
    per_call_us = statistics.median(per_call) * 1e6
    print(
        f"  one Python call: backend.check_unique(easy) {per_call_us:.1f} us, "
        f"Model.solve(easy, limit=2) {statistics.median(core) * 1e6:.1f} us"
    )

    if not args.skip_6x6:
        m6 = backend.model(RuleSet.classic(Shape(2, 3)))
        t = time.perf_counter()
        count, status, _, nodes, _ = m6.solve(bytes(36), limit=10**9, keep=0)
        seconds = time.perf_counter() - t
        assert count == 28_200_960, count
        print(f"  count all 6x6 (2x3) grids: {count:,} in {seconds:.2f} s ({nodes:,} nodes)")


if __name__ == "__main__":
    main()
