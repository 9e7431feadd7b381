"""The SE rater with its C searches against the same rater all in Python, alternated.

    python tests/benchmarks/bench_se_native.py [--band 7] [--every 20] [--profile]

Rates each puzzle of a sample of ../shared/data/se-rated-2000.txt with
``PYTHON_PRODUCERS`` (the reference) and with ``PRODUCERS`` (the C searches of
the C files of sudoku_model/se/ where they exist), one after the other, so that the load of a
shared machine falls on both alike; checks that ER/EP/ED and the step lists are identical
and prints each side's puzzles per CPU second. ``--profile`` also prints the CPU time of
each producer under the C producers (what is left to speed up).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from pathlib import Path as _Path

from sudoku_model.se import State
from sudoku_model.se.rater import PRODUCERS, Producer, rate_se
from sudoku_model.se.steps import SEStep

sys.path.insert(0, str(_Path(__file__).resolve().parents[2]))  # the repository root
from tests.se_reference import PYTHON_PRODUCERS  # noqa: E402

DATA = Path("/work/shared/data/se-rated-2000.txt")
for _parent in Path(__file__).resolve().parents:
    if (_parent / "shared" / "data" / "se-rated-2000.txt").exists():
        DATA = _parent / "shared" / "data" / "se-rated-2000.txt"
        break


def _timed(producers: tuple[Producer, ...], spent: collections.Counter[str]) -> list[Producer]:
    def wrap(p: Producer) -> Producer:
        def generate(state: State, deadline: float | None) -> Iterator[SEStep]:
            start = time.process_time()
            try:
                step = next(iter(p.generate(state, deadline)), None)
            finally:
                spent[p.name] += time.process_time() - start
            if step is not None:
                yield step

        return Producer(p.name, p.floor, generate)

    return [wrap(p) for p in producers]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--band", default="", help="SE band prefix, e.g. 7 (default: all)")
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    rows = [ln.split() for ln in DATA.read_text().splitlines() if ln and not ln.startswith("#")]
    sample = [r for r in rows if r[2].startswith(args.band)][:: args.every]
    spent: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    count: collections.Counter[str] = collections.Counter()
    differ = 0
    fast = _timed(PRODUCERS, spent["profile"]) if args.profile else PRODUCERS
    for _, puzzle, expected in sample:
        values = [int(ch) for ch in puzzle]
        band = expected[0] + ".x"
        count[band] += 1
        got = {}
        for side, producers in (("python", PYTHON_PRODUCERS), ("c", fast)):
            start = time.process_time()
            r = rate_se(values, producers=producers)
            spent[side][band] += time.process_time() - start
            got[side] = (r.status, r.er, r.ep, r.ed, r.steps)
        differ += got["python"] != got["c"]
    print(f"{len(sample)} puzzles of {DATA.name}; differing ratings or steps: {differ}")
    print(f"{'band':>5} {'n':>5} {'python /s':>10} {'c /s':>10} {'speed-up':>9}")
    for band in sorted(count):
        py, c = spent["python"][band], spent["c"][band]
        n = count[band]
        print(f"{band:>5} {n:>5} {n / py:10.2f} {n / c:10.2f} {py / c:8.2f}x")
    if args.profile:
        total = sum(spent["profile"].values())
        print("CPU time by producer (C producers):")
        for name, s in spent["profile"].most_common():
            print(f"  {name:32s} {s:8.2f} s {100 * s / total:5.1f}%")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
