"""The SE rater's chain searches in C against their Python reference, alternated.

    python tests/benchmarks/bench_se_chains.py [--band 9] [--every 1] [--budget 60]

Rates each puzzle of a sample of ../shared/data/se-rated-2000.txt three times, one
right after the other (so that the load of a shared machine falls on all alike), with the
rater's C producers (``PRODUCERS``) except that

- ``old``: cycles and forcing chains and the rules of dynamic chains "+" are the Python
  ones (``chaining.cycles_and_forcing_chains``, ``tests.se_reference.PLUS_RULES``), and the
  multiple chains from level 1 are Python (``tests.se_reference.dynamic_chains``);
- ``plus``: only the rules of "+" are the C ones (``tests.se_reference.NATIVE_PLUS_RULES``);
- ``new``: the rater as shipped (every chain in C).

Checks that the three give the same ratings and step lists and prints puzzles per CPU
second of each, by SE band.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from pathlib import Path as _Path

from sudoku_model.se import State, chaining, native

sys.path.insert(0, str(_Path(__file__).resolve().parents[2]))  # the repository root
from sudoku_model.se.rater import PRODUCERS, Producer, rate_se
from sudoku_model.se.steps import SEStep
from tests.se_reference import NATIVE_PLUS_RULES, PLUS_RULES, dynamic_chains  # noqa: E402

DATA = Path("/work/shared/data/se-rated-2000.txt")
for _parent in Path(__file__).resolve().parents:
    if (_parent / "shared" / "data" / "se-rated-2000.txt").exists():
        DATA = _parent / "shared" / "data" / "se-rated-2000.txt"
        break


def _variant(c_static: bool, c_plus: bool) -> list[Producer]:
    rules = NATIVE_PLUS_RULES if c_plus else PLUS_RULES
    static = native if c_static else chaining
    out = []
    for p in PRODUCERS:
        if p.name == "Forcing Chains & Cycles":
            p = Producer(p.name, p.floor, static.cycles_and_forcing_chains)
        elif p.floor >= 9.0:
            level = 1 if p.name.endswith("(+)") else int(round((p.floor - 8.5) / 0.5))

            def generate(
                state: State, deadline: float | None, level: int = level
            ) -> Iterator[SEStep]:
                return dynamic_chains.multiple_chains(
                    state,
                    multiple=True,
                    dynamic=True,
                    level=level,
                    deadline=deadline,
                    plus_rules=rules,
                )

            p = Producer(p.name, p.floor, generate)
        out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--band", default="", help="SE band prefix, e.g. 9 (default: all)")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds per puzzle")
    args = ap.parse_args(argv)
    rows = [ln.split() for ln in DATA.read_text().splitlines() if ln and not ln.startswith("#")]
    sample = [r for r in rows if r[2].startswith(args.band)][args.offset :: args.every]
    sides = {
        "old": _variant(False, False),
        "plus": _variant(False, True),
        "new": list(PRODUCERS),
    }
    spent: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    count: collections.Counter[str] = collections.Counter()
    differ = 0
    for _, puzzle, expected in sample:
        values = [int(ch) for ch in puzzle]
        band = expected[0] + ".x"
        count[band] += 1
        got = set()
        for side, producers in sides.items():
            start = time.process_time()
            r = rate_se(values, seconds=args.budget, producers=producers)
            spent[side][band] += time.process_time() - start
            got.add((r.status, r.er, r.ep, r.ed, tuple(r.steps)))
        differ += len(got) > 1
    print(f"{len(sample)} puzzles of {DATA.name}; differing ratings or steps: {differ}")
    print(f"{'band':>5} {'n':>5} " + " ".join(f"{s + ' /s':>9}" for s in sides) + "  new/old")
    for band in sorted(count):
        n = count[band]
        rates = [n / spent[s][band] for s in sides]
        print(
            f"{band:>5} {n:>5} "
            + " ".join(f"{r:9.2f}" for r in rates)
            + f"  {rates[-1] / rates[0]:6.2f}x"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
