"""Benchmark of ``sudoku dedup`` on large files: time and peak memory.

    python tests/benchmarks/bench_dedup.py [--lines 1000000] [--lines 250000] [--keep DIR]

For each --lines N (repeatable; default 250,000 and 1,000,000) it writes a file of N puzzle
lines: every puzzle of the 17-clue list once, each under a random transformation (transpose,
bands, rows, stacks, columns, digits), and N - 49,158 planted duplicates (random
transformations of random puzzles of the list), shuffled (seed 15). The file therefore
holds exactly 49,158 classes and N - 49,158 duplicates, which the run checks against the
summary ``sudoku dedup`` prints. Then it runs

    sudoku dedup FILE -o REPS --report REPORT

in a subprocess and prints wall time, CPU time (user + system of the child) and its peak
resident memory (``ru_maxrss`` of RUSAGE_CHILDREN, the same figure ``/usr/bin/time -v``
calls "Maximum resident set size"). dedup streams: it holds one integer key per class and
writes each record as it goes, so the peak memory depends on the number of classes, not on
the number of lines; two sizes with the same classes show it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_canon import seventeen, transformed_lines  # noqa: E402


def write_file(path: str, lines: list[str], count: int, rng: random.Random) -> None:
    """Every puzzle of ``lines`` once, plus ``count - len(lines)`` planted duplicates, each
    randomly transformed, shuffled."""
    out = transformed_lines(lines, len(lines), rng, each_once=True)
    out += transformed_lines(lines, count - len(lines), rng)
    rng.shuffle(out)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def run_dedup(path: str) -> tuple[float, float, float, str, int]:
    """(wall s, CPU s, peak RSS MiB, summary line, exit code) of ``sudoku dedup path``.

    Each run is its own ``python bench_dedup.py --one`` child, so that RUSAGE_CHILDREN's
    peak is that run's alone (it is a maximum over every child ever waited for)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--one", path]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    fields = proc.stdout.split("\t")
    if proc.returncode or len(fields) != 5:
        raise SystemExit(f"the measuring child failed: {proc.stderr or proc.stdout}")
    wall, cpu, rss, code = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    return wall, cpu, rss, fields[4].strip(), code


def measure_one(path: str) -> None:
    """Run dedup once and print wall, CPU, peak RSS (MiB), exit code and its summary."""
    w = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_model.cli",
            "dedup",
            path,
            "-o",
            f"{path}.reps",
            "--report",
            f"{path}.report",
        ],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - w
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = use.ru_utime + use.ru_stime
    rss = use.ru_maxrss / 1024  # Linux: KiB
    summary = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    print(f"{wall:.3f}\t{cpu:.3f}\t{rss:.1f}\t{proc.returncode}\t{summary}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        measure_one(sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, action="append", help="file size (repeatable)")
    ap.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    args = ap.parse_args()
    sizes = args.lines or [250_000, 1_000_000]
    lines = seventeen()
    classes = len(lines)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or tmp
        os.makedirs(where, exist_ok=True)
        for n in sizes:
            if n < classes:
                raise SystemExit(f"--lines must be at least {classes:,} (every class once)")
            path = os.path.join(where, f"dedup-{n}.txt")
            write_file(path, lines, n, random.Random(15))
            wall, cpu, rss, summary, code = run_dedup(path)
            want = f"{n} puzzles, {classes} classes, {n - classes} duplicates, 0 malformed"
            ok = code == 0 and want in summary
            print(
                f"dedup of {n:>9,} lines ({classes:,} classes): {wall:7.1f} s wall, "
                f"{cpu:7.1f} s CPU ({n / cpu:,.0f} lines/s CPU), peak RSS {rss:.0f} MiB, "
                f"{'classes as planted' if ok else 'WRONG: ' + summary + f' (exit {code})'}"
            )
            if not ok:
                sys.exit(1)
            if re.search(r"\d+ undecided", summary):
                sys.exit(1)


if __name__ == "__main__":
    main()
