"""Where the pencilmark generator's time goes, and one alternative measured against it.

    python tests/benchmarks/bench_pencilmark_pass.py [--puzzles N] [--seed S]

The generator (``sudoku generate --pencilmark``) starts from a full grid with every other
candidate eliminated and visits the 648 eliminations in a random order, restoring each
one the puzzle stays unique without (``restore_candidates``, one C search per
elimination). This script times that pass by quarter of the order (one call per
elimination, less the cost of an empty call) and splits each quarter into the searches
that found a witness (the elimination stays) and those that refuted it (it is restored).

``--group`` also runs group testing on the same orders: restore a group of eliminations
at once and count to 2; when the puzzle stays unique all of them are restored, else a
binary search finds the first that must stay (the group doubles after a success, halves
after a failure). Its answers are checked equal to the pass's; it prints the number of
searches and their time.
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from sudoku_model import Puzzle, RuleSet, Shape, get_backend


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--puzzles", type=int, default=10, help="full grids (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--group", action="store_true", help="also measure group testing")
    args = ap.parse_args(argv)
    backend = get_backend("native")
    rules = RuleSet.classic(Shape(3, 3))
    rng = random.Random(args.seed)
    spent: collections.Counter[tuple[int, int]] = collections.Counter()
    calls: collections.Counter[tuple[int, int]] = collections.Counter()
    whole = empty = 0.0
    group_time = 0.0
    group_searches = 0
    for _ in range(args.puzzles):
        solution = backend.random_solution(rules, rng)
        assert solution is not None
        start_masks = [1 << (v - 1) for v in solution.values]
        order = [(c, d) for c in range(81) for d in range(1, 10) if d != solution.values[c]]
        rng.shuffle(order)
        t = time.process_time()
        final, answers = backend.restore_candidates(rules, solution, start_masks, order)
        whole += time.process_time() - t
        masks = list(start_masks)
        for k, step in enumerate(order):
            t = time.process_time()
            masks, (answer,) = backend.restore_candidates(rules, solution, masks, [step])
            key = (4 * k // len(order), answer)
            spent[key] += time.process_time() - t
            calls[key] += 1
        t = time.process_time()
        for _ in range(100):
            backend.restore_candidates(rules, solution, masks, [])
        empty += (time.process_time() - t) / 100
        if args.group:
            gmasks, ganswers, seconds, searches = group_pass(backend, start_masks, order)
            assert gmasks == list(final) and bytes(ganswers) == bytes(answers)
            group_time += seconds
            group_searches += searches
    n = args.puzzles
    print(f"{n} puzzles: the pass {whole / n * 1e3:.1f} ms CPU a puzzle (one C call)")
    overhead = empty / n
    for quarter in range(4):
        parts = []
        for answer, what in ((0, "witness found"), (1, "refuted")):
            k = calls[(quarter, answer)]
            if k:
                mean = spent[(quarter, answer)] / k - overhead
                parts.append(f"{k / n:5.0f} x {mean * 1e6:6.1f} us {what}")
        print(f"  quarter {quarter + 1}: " + "; ".join(parts))
    if args.group:
        print(
            f"group testing: {group_searches / n:.0f} counts to 2 a puzzle, "
            f"{group_time / n * 1e3:.1f} ms CPU a puzzle in them (answers equal)"
        )
    return 0


def group_pass(
    backend: object, start: list[int], order: list[tuple[int, int]], most: int = 64
) -> tuple[list[int], list[int], float, int]:
    """The pass by group testing: (final masks, answers, CPU seconds in the counts, counts)."""
    native = get_backend("native")
    seconds = 0.0
    searches = 0

    def unique(masks: list[int]) -> bool:
        nonlocal seconds, searches
        sets = [[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks]
        puzzle = Puzzle.from_candidates(sets)
        t = time.process_time()
        result = native.count(puzzle, limit=2)
        seconds += time.process_time() - t
        searches += 1
        return result.count == 1

    def with_(masks: list[int], steps: list[tuple[int, int]]) -> list[int]:
        out = list(masks)
        for c, d in steps:
            out[c] |= 1 << (d - 1)
        return out

    masks = list(start)
    answers: list[int] = []
    i, k = 0, 1
    while i < len(order):
        group = order[i : i + k]
        if unique(with_(masks, group)):
            masks = with_(masks, group)
            answers += [1] * len(group)
            i += len(group)
            k = min(2 * k, most)
            continue
        lo, hi = 0, len(group) - 1  # the first elimination that must stay is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if unique(with_(masks, group[: mid + 1])):
                lo = mid + 1
            else:
                hi = mid
        masks = with_(masks, group[:lo])
        answers += [1] * lo + [0]
        i += lo + 1
        k = max(1, k // 2)
    return masks, answers, seconds, searches


if __name__ == "__main__":
    raise SystemExit(main())
