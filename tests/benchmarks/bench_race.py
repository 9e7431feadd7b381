"""``auto`` against ``auto:race``: wall time and CPU per puzzle, set by set.

    python tests/benchmarks/bench_race.py [--sets NAME,...] [--first N] [--budget S]

``auto`` tries a route's engine after a native first try; ``auto:race`` runs native and
the engine at once on two cores and keeps the first definite answer. On every puzzle of
each set (the sets of ``bench_portfolio.py``) both answer "is it unique?", alternating
which goes first, after one untimed call each on the set's first puzzle; answers must
agree. Prints per set the mean wall and CPU seconds (process CPU, every thread) per
puzzle of each and the ratio race / auto of both. Racing pays only where the route's
first try is long or native sometimes wins after it; it costs up to twice the CPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sudoku_model import Budget, get_backend

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.bench_portfolio import SETS, load  # noqa: E402

NAMES = ("auto", "auto:race")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", default="1m+,25x25", help="comma-separated set names")
    ap.add_argument("--first", type=int, default=6, help="puzzles per set (default 6)")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per call (default 60)")
    args = ap.parse_args(argv)
    budget = Budget(seconds=args.budget)
    print(
        f"{'set':<14} {'n':>3} {'auto wall':>11} {'race wall':>11} {'ratio':>6} "
        f"{'auto cpu':>11} {'race cpu':>11} {'ratio':>6}  (milliseconds per puzzle)"
    )
    for name in args.sets.split(","):
        if name not in SETS:
            ap.error(f"unknown set {name!r}; known: {', '.join(SETS)}")
        puzzles = load(name, args.first)
        if not puzzles:
            print(f"{name:<14} (not on this machine)")
            continue
        backends = {n: get_backend(n) for n in NAMES}
        for backend in backends.values():
            backend.check_unique(puzzles[0], budget=budget)  # one-off set-up
        wall = dict.fromkeys(NAMES, 0.0)
        cpu = dict.fromkeys(NAMES, 0.0)
        for i, puzzle in enumerate(puzzles):
            kinds = set()
            for n in NAMES if i % 2 == 0 else NAMES[::-1]:
                start, start_cpu = time.perf_counter(), time.process_time()
                verdict = backends[n].check_unique(puzzle, budget=budget)
                wall[n] += time.perf_counter() - start
                cpu[n] += time.process_time() - start_cpu
                kinds.add(verdict.kind)
            if len(kinds) != 1:
                print(f"{name}: puzzle {i + 1}: the answers differ: {kinds}", file=sys.stderr)
                return 1
        for backend in backends.values():
            backend.close()
        k = len(puzzles)
        a, r = wall["auto"] / k * 1e3, wall["auto:race"] / k * 1e3
        ac, rc = cpu["auto"] / k * 1e3, cpu["auto:race"] / k * 1e3
        print(
            f"{name:<14} {k:>3} {a:>11.3f} {r:>11.3f} {r / a:>6.2f} "
            f"{ac:>11.3f} {rc:>11.3f} {rc / ac:>6.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
