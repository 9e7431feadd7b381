"""Benchmark of the unbiased sampler (sudoku_model.unbiased): CPU time per weighted
minimal 9x9 puzzle, the weighted clue-count estimate with 95% intervals against the
published figures, the chi-square tests, and (--caps) what rejection to unweighted
puzzles would cost: the share of tries kept and of the weight clipped at several caps.

    python tests/benchmarks/bench_unbiased.py --grids 2500            # rates + estimate
    python tests/benchmarks/bench_unbiased.py --grids 20000 --seed 2 --caps
    python tests/benchmarks/bench_unbiased.py --exact --grids 200 --head 50   # exact rejection

One process, one core; times are CPU seconds (time.process_time).
"""

from __future__ import annotations

import argparse
import math
import time

from sudoku_model import RuleSet, Shape
from sudoku_model.unbiased import (
    PUBLISHED,
    TRIES_PER_GRID,
    chi_square,
    estimate,
    exact_puzzles,
    weighted_puzzles,
)

BINS = [(0, 24), (25, 25), (26, 26), (27, 27), (28, 99)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--caps", action="store_true", help="rejection costs")
    parser.add_argument("--exact", action="store_true", help="the exact rejection sampler")
    parser.add_argument("--head", type=int, default=50, help="head of --exact (default 50)")
    parser.add_argument("--box", default="3x3", help="box shape, e.g. 2x2 (default 3x3)")
    parser.add_argument("--tries", type=int, default=TRIES_PER_GRID, help="tries a grid")
    args = parser.parse_args()
    rows, cols = (int(x) for x in args.box.split("x"))
    rules = RuleSet.classic(Shape(rows, cols))
    if args.exact:
        start = time.process_time()
        kept = list(
            exact_puzzles(rules, seed=args.seed, head=args.head, grids=args.grids, tries=args.tries)
        )
        cpu = time.process_time() - start
        tries = args.grids * args.tries
        clues: dict[int, int] = {}
        for p, _, _ in kept:
            clues[p.givens.clues] = clues.get(p.givens.clues, 0) + 1
        print(
            f"exact rejection, head {args.head}: {tries} tries on {args.grids} grids in "
            f"{cpu:.1f} s CPU ({1e6 * cpu / tries:.0f} us a try) -> {len(kept)} puzzles "
            f"({len(kept) / cpu:.3g} puzzles/s); clue counts {dict(sorted(clues.items()))}"
        )
        return
    start = time.process_time()
    drawn = list(weighted_puzzles(rules, seed=args.seed, grids=args.grids))
    cpu = time.process_time() - start
    tries = args.grids * TRIES_PER_GRID
    print(
        f"{tries} tries on {args.grids} grids -> {len(drawn)} weighted minimal puzzles in "
        f"{cpu:.1f} s CPU: {1000 * cpu / len(drawn):.2f} ms a puzzle, "
        f"{len(drawn) / cpu:.0f} weighted puzzles/s"
    )
    est = estimate(drawn, tries=tries)
    print(est.table())
    stat, df, p = chi_square(drawn, PUBLISHED, bins=BINS)
    print(f"weighted Wald chi-square vs published: {stat:.2f} on {df} df, p = {p:.3g}")
    stat, df, p = chi_square(drawn, PUBLISHED, bins=BINS, weighted=False)
    print(f"unweighted (top-down) chi-square vs published: {stat:.1f} on {df} df, p = {p:.3g}")
    if args.caps:
        logs = sorted(d.log_weight for d in drawn)
        top = logs[-1]
        total = sum(math.exp(x - top) for x in logs)
        for q in (0.99, 0.995, 0.999):
            cap = logs[int(q * (len(logs) - 1))]
            clipped = sum(max(0.0, math.exp(x - top) - math.exp(cap - top)) for x in logs)
            kept = sum(min(1.0, math.exp(x - cap)) for x in logs) / len(logs)
            print(
                f"cap at quantile {q}: log {cap:.2f}, clipped share "
                f"{100 * clipped / total:.2f}%, kept {100 * kept:.2f}% of tries"
            )


if __name__ == "__main__":
    main()
