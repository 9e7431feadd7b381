"""Benchmark: time to prove uniqueness on the Interactive Sudoku Solver examples the
toolkit reads (``tests/data/iss-examples.json``), per backend; median and worst wall time
per puzzle, and how many answered ``unique`` with ISS's published solution.

    python tests/benchmarks/bench_iss.py                          # native, pysat, cpsat
    python tests/benchmarks/bench_iss.py --backends pysat --repeat 3 --seconds 20

Each puzzle is its own rule set, so a time includes encoding its rules. A puzzle a backend
does not settle within ``--seconds`` counts as that budget (and as not unique) in the
median. Times are wall time of this process around ``check_unique`` (the native backend
runs in C, the SAT and CP-SAT solvers in threads of their own); on a shared machine, run
old and new in alternation. ``--list`` prints each puzzle's time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from sudoku_model import Grid, get_backend
from sudoku_model.formats.iss import IssError, puzzle_from_iss
from sudoku_model.solving import Budget

DATA = Path(__file__).resolve().parents[1] / "data" / "iss-examples.json"


def _solution(text: str, shape: object) -> Grid:
    values = [ord(ch) - 64 if ch.isalpha() else int(ch) for ch in text]
    return Grid(shape, values)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backends", default="native,pysat,cpsat")
    ap.add_argument("--repeat", type=int, default=1, help="runs per puzzle (the best counts)")
    ap.add_argument("--seconds", type=float, default=10.0, help="budget per puzzle")
    ap.add_argument("--list", action="store_true", help="print every puzzle's time")
    args = ap.parse_args(argv)
    examples = json.loads(DATA.read_text(encoding="utf-8"))
    puzzles = []
    for ex in examples:
        try:
            puzzles.append((ex["name"], puzzle_from_iss(ex["input"]), ex["solution"]))
        except IssError:
            continue
    print(f"{len(puzzles)} of {len(examples)} ISS examples read")
    for name in args.backends.split(","):
        backend = get_backend(name)
        backend.check_unique(puzzles[0][1])  # warm-up: imports, solver start
        times = []
        unique = 0
        for title, puzzle, published in puzzles:
            best = float("inf")
            ok = False
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                verdict = backend.check_unique(puzzle, budget=Budget(seconds=args.seconds))
                elapsed = time.perf_counter() - t0
                ok = verdict.is_unique and verdict.solution == _solution(published, puzzle.shape)
                best = min(best, elapsed if ok else args.seconds)
            unique += ok
            times.append(best)
            if args.list:
                print(f"  {name:7} {best * 1000:9.1f} ms  {'unique' if ok else 'NOT'}  {title}")
        print(
            f"{name:7} median {statistics.median(times) * 1000:8.1f} ms   "
            f"worst {max(times) * 1000:9.1f} ms   unique with the published solution "
            f"{unique}/{len(puzzles)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
