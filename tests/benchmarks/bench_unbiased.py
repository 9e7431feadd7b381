"""Benchmark of the unbiased sampler (sudoku_model.unbiased): CPU time per weighted
minimal 9x9 puzzle, the weighted clue-count estimate with 95% intervals against the
published figures, the chi-square tests, and (--caps) what rejection to unweighted
puzzles would cost: the share of tries kept and of the weight clipped at several caps.

    python tests/benchmarks/bench_unbiased.py --grids 2500            # rates + estimate
    python tests/benchmarks/bench_unbiased.py --grids 20000 --seed 2 --caps

One process, one core; times are CPU seconds (time.process_time).
"""

from __future__ import annotations

import argparse
import math
import time

from sudoku_model import RuleSet, Shape
from sudoku_model.unbiased import PUBLISHED, TRIES_PER_GRID, chi_square, estimate, weighted_puzzles

BINS = [(0, 24), (25, 25), (26, 26), (27, 27), (28, 99)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--caps", action="store_true", help="rejection costs")
    args = parser.parse_args()
    rules = RuleSet.classic(Shape(3, 3))
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
