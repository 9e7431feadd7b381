"""Rate a collection with the logical solver: puzzles per second and the level histogram.

    python tests/benchmarks/bench_logic.py [--collection magictour-top1465] [--repeat 3]

Prints, per run, the overall rate, the rate over puzzles rated easy to hard (the target is
>= 200 puzzles/s), the level histogram and the hardest-technique histogram; with
``--repeat`` the median of the runs.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import time
from collections import Counter

from sudoku_model import Puzzle
from sudoku_model.data import bundled_path
from sudoku_model.logic import grade, select_techniques

EASY_TO_HARD = ("easy", "medium", "hard")


def _lines(name: str) -> list[str]:
    path = bundled_path(name)
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def run_once(puzzles: list[Puzzle], techniques) -> dict:
    levels: Counter[str] = Counter()
    hardest: Counter[str] = Counter()
    seconds_by_level: Counter[str] = Counter()
    start = time.perf_counter()
    for puzzle in puzzles:
        t0 = time.perf_counter()
        g = grade(puzzle, techniques=techniques, keep_steps=False)
        took = time.perf_counter() - t0
        key = g.level or g.verdict.value
        levels[key] += 1
        hardest[g.hardest or "none"] += 1
        seconds_by_level[key] += took
    total = time.perf_counter() - start
    easy_count = sum(levels[k] for k in EASY_TO_HARD)
    easy_seconds = sum(seconds_by_level[k] for k in EASY_TO_HARD)
    return {
        "total": total,
        "rate": len(puzzles) / total,
        "easy_rate": easy_count / easy_seconds if easy_seconds else float("nan"),
        "easy_count": easy_count,
        "levels": levels,
        "hardest": hardest,
        "seconds_by_level": seconds_by_level,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collection", default="magictour-top1465")
    parser.add_argument("--limit", type=int, default=None, help="first N puzzles only")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--techniques", default=None, help="comma-separated keys")
    args = parser.parse_args()
    techniques = select_techniques(args.techniques.split(",") if args.techniques else None)
    puzzles = [Puzzle.parse(ln.split(":")[0]) for ln in _lines(args.collection)[: args.limit]]
    runs = []
    for i in range(args.repeat):
        r = run_once(puzzles, techniques)
        runs.append(r)
        print(
            f"run {i + 1}: {len(puzzles)} puzzles in {r['total']:.2f} s = "
            f"{r['rate']:.1f}/s overall; easy-hard {r['easy_count']} at "
            f"{r['easy_rate']:.1f}/s"
        )
    last = runs[-1]
    order = [
        "easy",
        "medium",
        "hard",
        "expert",
        "extreme",
        "multiple",
        "unsolvable",
        "contradictory",
        "unknown",
    ]
    print(
        "levels: "
        + ", ".join(
            f"{k} {last['levels'][k]} ({last['levels'][k] / last['seconds_by_level'][k]:.0f}/s)"
            for k in order
            if last["levels"][k]
        )
    )
    print("hardest technique: " + ", ".join(f"{k} {v}" for k, v in last["hardest"].most_common()))
    if args.repeat > 1:
        print(
            f"median of {args.repeat}: overall "
            f"{statistics.median(r['rate'] for r in runs):.1f}/s, easy-hard "
            f"{statistics.median(r['easy_rate'] for r in runs):.1f}/s"
        )


if __name__ == "__main__":
    main()
