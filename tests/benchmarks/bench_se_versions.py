"""Old against new SE rater on the same puzzles: identical steps, and CPU time by band.

    python tests/benchmarks/bench_se_versions.py --old /path/to/other/checkout
        [--band 7] [--every 50] [--rounds 2]

Each round rates the sample with the other checkout's ``sudoku_model`` (a subprocess with
that checkout first on PYTHONPATH), then with this one, alternating, so that the load of a
shared machine falls on both alike. Prints, per round, whether every puzzle got the same
ER/EP/ED and step list, and each side's mean CPU seconds per puzzle by SE band.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
DATA = Path("/work/shared/data/se-rated-2000.txt")
for _parent in HERE.parents:
    if (_parent / "shared" / "data" / "se-rated-2000.txt").exists():
        DATA = _parent / "shared" / "data" / "se-rated-2000.txt"
        break


def _worker(band: str, every: int, out: str) -> None:
    import time

    from sudoku_model.se import rate_se

    rows = [ln.split() for ln in DATA.read_text().splitlines() if ln and not ln.startswith("#")]
    sample = [r for r in rows if r[2].startswith(band)][::every]
    result = []
    for _, puzzle, expected in sample:
        start = time.process_time()
        r = rate_se([int(ch) for ch in puzzle])
        spent = time.process_time() - start
        steps = [s.describe() for s in r.steps]
        result.append([puzzle, expected, r.er, r.ep, r.ed, steps, spent])
    Path(out).write_text(json.dumps(result))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--old", required=True, help="root of the other checkout")
    ap.add_argument("--band", default="", help="SE band prefix, e.g. 7 (default: all)")
    ap.add_argument("--every", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.worker[0], int(args.worker[1]), args.worker[2])
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            got = {}
            for side, root in (("old", args.old), ("new", str(ROOT))):
                out = os.path.join(tmp, f"{side}{n}.json")
                env = dict(os.environ, PYTHONPATH=root)
                cmd = [sys.executable, str(HERE), "--old", args.old, "--worker"]
                subprocess.run([*cmd, args.band, str(args.every), out], env=env, check=True)
                got[side] = json.loads(Path(out).read_text())
            same = sum(a[:6] == b[:6] for a, b in zip(got["old"], got["new"]))
            print(f"round {n + 1}: {same}/{len(got['new'])} puzzles with identical steps")
            for band in sorted({row[1][0] for row in got["new"]}):
                old = [row[6] for row in got["old"] if row[1][0] == band]
                new = [row[6] for row in got["new"] if row[1][0] == band]
                o, w = sum(old) / len(old), sum(new) / len(new)
                print(f"  {band}.x n={len(new)}: old {o:.3f} s, new {w:.3f} s, x{o / w:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
