"""Benchmark of canonical forms.

    python tests/benchmarks/bench_canon.py [--repeat 3] [--grids 5000] [--lines 1000000]
        [--parts c,api,grids,dedup]

Prints, on one core (process CPU time, so other load on a shared machine counts less; wall
time shown too; the median of --repeat runs):
  - c: puzzles per second on the 17-clue list through the C batch call (minlex9_batch),
    as distributed (its lines are already in minlex form, which helps the search find the
    minimum first) and after a random transformation of every puzzle (seed 15);
  - api: the same through the Python API (``canonical``, one call per puzzle, Grid parsed);
  - grids: full grids per second (the solutions of the first --grids 17-clue puzzles);
  - dedup: ``sudoku dedup`` of a generated file of --lines lines (random transformations of
    the 17-clue puzzles, so 49,158 classes at most) in a subprocess: wall time, CPU time and
    peak memory (``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``); bench_dedup.py is the
    fuller version (every class planted, the class count checked, two sizes).

To compare two builds, run this script with PYTHONPATH set to each tree in turn (each with
its compiled ``sudoku_model/_minlex``), alternating, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from sudoku_model import _minlex
from sudoku_model.canon import canonical
from sudoku_model.data import bundled_path
from sudoku_model.grid import Grid
from sudoku_model.solving import get_backend


def seventeen() -> list[str]:
    with gzip.open(bundled_path("17-clue"), "rt") as f:
        return [x.strip() for x in f if x.strip() and not x.startswith("#")]


def cells(line: str) -> bytes:
    return bytes(0 if ch == "." else int(ch) for ch in line)


def timed(fn, repeat: int) -> tuple[float, float]:
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall)


def transformed_lines(
    lines: list[str], count: int, rng: random.Random, *, each_once: bool = False
) -> list[str]:
    """``count`` random transformations of random puzzles of ``lines`` (string indexing);
    with ``each_once``, of ``lines[i % len(lines)]`` for the i-th instead."""
    out = []
    digits = "123456789"
    for i in range(count):
        line = lines[i % len(lines)] if each_once else rng.choice(lines)
        groups = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
        rows, cols = [], []
        for target in (rows, cols):
            rng.shuffle(groups)
            for g in groups:
                rng.shuffle(g)
            target.extend(x for g in groups for x in g)
        if rng.random() < 0.5:
            idx = [9 * c + r for r in rows for c in cols]
        else:
            idx = [9 * r + c for r in rows for c in cols]
        perm = "".join(rng.sample(digits, 9))
        out.append("".join(line[i] for i in idx).translate(str.maketrans(digits, perm)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--grids", type=int, default=5000)
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--parts", default="c,api,grids,dedup", help="comma list of parts to run")
    args = ap.parse_args()
    parts = set(args.parts.split(","))

    lines = seventeen()
    moved = transformed_lines(lines, len(lines), random.Random(15), each_once=True)
    if "c" in parts:
        for label, batch in (("17-clue", lines), ("17-clue moved", moved)):
            data = b"".join(cells(x) for x in batch)
            cpu, wall = timed(lambda data=data: _minlex.minlex9_batch(data), args.repeat)
            rate = f"{len(batch) / cpu:>9,.0f} puzzles/s CPU ({len(batch) / wall:,.0f} wall)"
            print(f"{label + ', C batch:':<27}{rate}")

    grids = [Grid.parse(x) for x in lines]
    if "api" in parts:
        cpu, wall = timed(lambda: [canonical(g) for g in grids], 1)
        rate = f"{len(lines) / cpu:>9,.0f} puzzles/s CPU ({len(lines) / wall:,.0f} wall)"
        print(f"{'17-clue, Python API:':<27}{rate}")

    if "grids" in parts:
        backend = get_backend("native")
        from sudoku_model.puzzle import Puzzle

        sols = [backend.solve(Puzzle(g)).solution for g in grids[: args.grids]]
        gdata = b"".join(bytes(s.values) for s in sols if s is not None)
        n = len(gdata) // 81
        cpu, wall = timed(lambda: _minlex.minlex9_batch(gdata), args.repeat)
        rate = f"{n / cpu:>9,.0f} grids/s CPU ({n / wall:,.0f} wall), {n} grids"
        print(f"{'full grids, C batch:':<27}{rate}")

    if "dedup" not in parts:
        return
    rng = random.Random(15)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "million.txt")
        with open(path, "w") as f:
            for start in range(0, args.lines, 100_000):
                chunk = transformed_lines(lines, min(100_000, args.lines - start), rng)
                f.write("\n".join(chunk) + "\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "sudoku_model.cli", "dedup", path, "-o", f"{path}.out"],
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - w
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(
        f"dedup of {args.lines:,} lines: {wall:.1f} s wall, {cpu:.1f} s CPU, "
        f"peak RSS {after.ru_maxrss / 1024:.0f} MiB, exit {proc.returncode}: {proc.stderr.strip()}"
    )


if __name__ == "__main__":
    main()
