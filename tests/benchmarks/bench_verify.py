"""Benchmark `sudoku verify` end to end through the CLI (a subprocess, as a user runs it).

    python tests/benchmarks/bench_verify.py [--repeat 3] [--skip-cross] [--skip-memory]

Figures (median of --repeat runs, wall time including interpreter start-up):
1. the whole 17-clue list (49,158 puzzles), native backend, JSONL output, --jobs 2 and 1;
2. the same with --cross-check native,pysat (--jobs 2: processes);
3. a 1,000,000-line input (17-clue lines repeated, generated into /tmp) with native:
   wall time and max RSS of the process tree (resource.getrusage of the children).
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from sudoku_model.data import bundled_path

CLI = [sys.executable, "-m", "sudoku_model.cli"]


def run(args: list[str]) -> tuple[float, int, float]:
    """(wall seconds, exit code, max RSS in MB of the children so far)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [*CLI, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"failed ({proc.returncode}): {' '.join(args)}\n{proc.stderr}")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return wall, proc.returncode, rss


def timed(label: str, args: list[str], repeat: int) -> float:
    walls = [run(args)[0] for _ in range(repeat)]
    med = statistics.median(walls)
    print(
        f"{label:<52} median {med:6.2f} s  (runs: {', '.join(f'{w:.2f}' for w in walls)})",
        flush=True,
    )
    return med


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-cross", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--lines", type=int, default=1_000_000)
    opts = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench_verify_")
    out = os.path.join(tmp, "out.jsonl")
    print(f"machine: {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}")
    base = ["verify", "bundled:17-clue", "-o", out, "-q"]
    timed("17-clue 49,158, native, JSONL, --jobs 2", [*base, "--jobs", "2"], opts.repeat)
    timed("17-clue 49,158, native, JSONL, --jobs 1", base, opts.repeat)
    timed(
        "17-clue 49,158, native, CSV, --jobs 2",
        ["verify", "bundled:17-clue", "-o", os.path.join(tmp, "out.csv"), "-q", "--jobs", "2"],
        opts.repeat,
    )
    if not opts.skip_cross:
        timed(
            "17-clue 49,158, --cross-check native,pysat --jobs 2",
            [*base, "--cross-check", "native,pysat", "--jobs", "2"],
            1,
        )
    if not opts.skip_memory:
        big = os.path.join(tmp, "big.txt")
        with gzip.open(bundled_path("17-clue"), "rt") as f:
            lines = [ln for ln in f.read().splitlines() if ln and not ln.startswith("#")]
        with open(big, "w") as f:
            for i in range(opts.lines):
                f.write(lines[i % len(lines)] + "\n")
        del lines
        # a fresh interpreter per measurement, so ru_maxrss is this run's alone
        code = (
            "import resource, subprocess, sys, time;"
            "t = time.perf_counter();"
            f"p = subprocess.run({CLI!r} + ['verify', {big!r}, '-o', {out!r}, '-q',"
            " '--jobs', '2']);"
            "w = time.perf_counter() - t;"
            "r = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024;"
            "print(f'{w:.2f} {r:.1f} {p.returncode}')"
        )
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        wall, rss, rc = res.stdout.split()
        with open(out) as f:
            n = sum(1 for _ in f)
        print(
            f"{opts.lines:,}-line input, native, --jobs 2: {float(wall):.2f} s, "
            f"max RSS {float(rss):.1f} MB, {n:,} records, exit {rc}"
        )
        os.remove(big)


if __name__ == "__main__":
    main()
