"""Benchmark of the SE rater: ER match against Sudoku Explainer's own ratings,
and speed.

    python tests/benchmarks/bench_se.py [--file se] [--limit N] [--offset K] [--budget 30]
        [--every M] [--jobs J] [--out results.tsv] [--by-producer]

``--file se`` reads ../shared/data/se-rated-2000.txt (``hash puzzle rating``, SE ratings
5.0-9.3); ``--file hardest`` reads hardest-1106-ratings.csv (the 269 puzzles with a
forum ER); ``--file PATH`` any list of 81-character puzzles, without SE ratings: the speed
by the band of our own ER (the match columns then mean nothing). ``--every M`` takes every
M-th puzzle (a spread sample). ``--jobs J`` rates in
J processes (each puzzle is still timed alone, on one core, in CPU seconds).

Prints: exact ER match and match within 0.1, by SE's ER band; the rater's CPU time per
puzzle and puzzles per second by band; the techniques behind the mismatches (ours and the
gap); the puzzles whose budget ran out ("ER above X"). ``--by-producer`` rates the sample
once more, one process, with every producer timed: the CPU seconds and calls of each, the
chains' levels above all (the scans then run one Python call each, not as the C loop, so
their own figures read high).
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sudoku_model.se import PRODUCERS, SEStep, State, rate_se
from sudoku_model.se.rater import Producer

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
if not DATA.exists():  # a worktree under /work/wt/<name>
    DATA = Path("/work/shared/data")


def load(which: str) -> list[tuple[str, float]]:
    """(puzzle, SE's ER) pairs of a reference file."""
    out: list[tuple[str, float]] = []
    if which == "se":
        for line in (DATA / "se-rated-2000.txt").read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and not line.startswith("#"):
                out.append((parts[1], float(parts[2])))
    elif which == "hardest":
        for line in (DATA / "hardest-1106-ratings.csv").read_text().splitlines()[2:]:
            fields = line.split(",")
            # puzzle, label, poster, q1, q2, ER, EP, ED, ...
            if len(fields) > 5 and fields[5]:
                out.append((fields[0], float(fields[5])))
    elif Path(which).is_file():
        # any puzzle list, without SE ratings: speed by the band of our own ER
        for line in Path(which).read_text().splitlines():
            text = line.strip()[:81]
            if len(text) == 81 and not line.startswith("#"):
                out.append((text, math.nan))
    else:
        raise SystemExit(f"unknown --file {which!r}: se, hardest or a puzzle file")
    return out


def rate_one(
    job: tuple[str, float, float],
) -> tuple[str, float, str, float | None, float | None, float, str]:
    puzzle, expected, budget = job
    values = [0 if ch in ".0" else int(ch) for ch in puzzle]
    r = rate_se(values, seconds=budget)
    top = max(r.steps, key=lambda s: s.rating).technique if r.steps else "-"
    return puzzle, expected, r.status, r.er, r.er_above, r.seconds, top


def by_producer(puzzles: list[str], budget: float) -> None:
    """Rate the puzzles with every producer timed; print CPU seconds and calls of each."""
    import time

    spent: dict[str, float] = collections.defaultdict(float)
    calls: collections.Counter[str] = collections.Counter()

    def timed(producer: Producer) -> Producer:
        def generate(state: State, deadline: float | None) -> Iterator[SEStep]:
            start = time.process_time()
            try:  # the first hint alone, as the rater takes it
                step = next(iter(producer.generate(state, deadline)), None)
            finally:
                spent[producer.name] += time.process_time() - start
                calls[producer.name] += 1
            return iter([] if step is None else [step])

        return Producer(producer.name, producer.floor, generate)

    producers = [timed(p) for p in PRODUCERS]
    for puzzle in puzzles:
        values = [0 if ch in ".0" else int(ch) for ch in puzzle]
        rate_se(values, seconds=budget, producers=producers)
    print(f"{'CPU s':>9} {'calls':>7}  producer")
    for name, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"{seconds:9.2f} {calls[name]:7}  {name}")


def band(x: float) -> str:
    return f"{int(x)}.x"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--file", default="se")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--budget", type=float, default=30.0, help="CPU seconds per puzzle")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="write one line per puzzle (TSV)")
    ap.add_argument("--by-producer", action="store_true", help="CPU seconds by producer")
    args = ap.parse_args(argv)
    data = load(args.file)[args.offset :: args.every]
    if args.limit is not None:
        data = data[: args.limit]
    jobs = [(p, e, args.budget) for p, e in data]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(rate_one, jobs, chunksize=4))
    else:
        results = [rate_one(j) for j in jobs]
    lines = []
    by_band: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    times: dict[str, list[float]] = collections.defaultdict(list)
    mismatch: collections.Counter[str] = collections.Counter()
    above = []
    for puzzle, expected, status, er, er_above, seconds, top in results:
        unrated = math.isnan(expected)
        b = band(expected) if not unrated else band(er) if er is not None else "above"
        row = by_band[b]
        row[0] += 1
        times[b].append(seconds)
        if unrated:
            row[3] += status != "rated"
        elif status == "rated" and er is not None:
            if abs(er - expected) < 0.05:
                row[1] += 1
            if abs(er - expected) < 0.15:
                row[2] += 1
            if abs(er - expected) >= 0.05:
                mismatch[f"SE {expected:.1f} ours {er:.1f} ({top})"] += 1
        else:
            row[3] += 1
            above.append((expected, status, er_above))
        lines.append(f"{puzzle}\t{expected}\t{status}\t{er}\t{er_above}\t{seconds:.3f}\t{top}\n")
    if args.out:
        Path(args.out).write_text("".join(lines))
    total = [sum(r[i] for r in by_band.values()) for i in range(4)]
    print(f"{args.file}: {total[0]} puzzles, budget {args.budget:g} CPU s each")
    print(
        f"{'band':>5} {'n':>5} {'exact':>7} {'<=0.1':>7} {'budget':>7} "
        f"{'mean s':>8} {'max s':>7} {'puz/s':>7}"
    )
    for b in sorted(by_band):
        n, ex, near, bud = by_band[b]
        ts = times[b]
        mean = sum(ts) / len(ts)
        print(
            f"{b:>5} {n:>5} {100 * ex / n:6.1f}% {100 * near / n:6.1f}% {bud:>7} "
            f"{mean:8.3f} {max(ts):7.2f} {1 / mean if mean else 0:7.1f}"
        )
    n = total[0]
    every = [t for ts in times.values() for t in ts]
    mean = sum(every) / len(every)
    print(
        f"{'all':>5} {n:>5} {100 * total[1] / n:6.1f}% {100 * total[2] / n:6.1f}% {total[3]:>7} "
        f"{mean:8.3f} {max(every):7.2f} {1 / mean if mean else 0:7.1f}"
    )
    print("mismatches (SE's ER, ours, our hardest technique):")
    for text, count in mismatch.most_common(25):
        print(f"  {count:4}  {text}")
    if above:
        print(f"not rated within the budget or stuck: {len(above)}")
        for expected, status, er_above in above[:20]:
            print(f"  SE {expected:.1f}: {status}, ER above {er_above}")
    if args.by_producer:
        by_producer([p for p, _ in data], args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
