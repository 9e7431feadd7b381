"""How `sudoku verify` scales with --jobs (and --dask local): throughput and speed-up.

    python tests/benchmarks/bench_scaling.py [--jobs-list 1,2] [--backend native]
        [--input FILE] [--seconds 10] [--copies N] [--dask local] [--repeat 1]

Each setting runs the CLI in a subprocess, as a user does (interpreter start-up and worker
start-up included), on the same input, writing JSONL to a temporary file. The default input
is ``forum-hardest-1106`` repeated to a size that takes about ``--seconds`` at one job
(measured first: one copy and four copies, the difference gives the cost of a copy without
start-up); ``--copies`` fixes the number instead. The first setting of ``--jobs-list`` is
the base of the speed-up column; ``--dask local`` adds a LocalCluster run (one worker
process per core unless ``--dask-workers``). Every run must give the same verdict counts.

Targets (issue 12): on 2 cores, ``--jobs 2`` >= 1.8x ``--jobs 1`` for native and pysat,
``--dask local`` >= 1.7x; on 16 cores (``--jobs-list 1,4,16``) >= 12x.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

from sudoku_model.data import bundled_path

CLI = [sys.executable, "-m", "sudoku_model.cli"]


def run(
    source: str, backend: str, extra: list[str], out: str
) -> tuple[float, float, dict[str, int]]:
    """(wall seconds, max RSS of the main process in MB, verdict counts)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*CLI, "verify", source, "--backend", backend, "-o", out, "-q", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"failed ({proc.returncode}): {' '.join(extra)}\n{err}")
    with open(out, encoding="utf-8") as f:
        counts = Counter(json.loads(line)["verdict"] for line in f)
    return wall, usage.ru_maxrss / 1024, dict(sorted(counts.items()))


def make_input(path: str, copies: int) -> int:
    lines = [
        s
        for s in bundled_path("forum-hardest-1106").read_text().splitlines()
        if s.strip() and not s.startswith("#")
    ]
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write("\n".join(lines) + "\n")
    return len(lines) * copies


def calibrate(tmp: str, backend: str, seconds: float) -> int:
    """Copies of the hard list that take about ``seconds`` with one job."""
    small, big = os.path.join(tmp, "one.txt"), os.path.join(tmp, "four.txt")
    make_input(small, 1)
    make_input(big, 4)
    out = os.path.join(tmp, "calibrate.jsonl")
    t1 = run(small, backend, ["--jobs", "1"], out)[0]
    t4 = run(big, backend, ["--jobs", "1"], out)[0]
    per_copy = max((t4 - t1) / 3, 1e-3)
    return max(1, round(seconds / per_copy))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs-list", default="1,2", help="comma-separated --jobs values")
    ap.add_argument("--backend", default="native")
    ap.add_argument("--input", help="puzzle file (default: the hard list repeated)")
    ap.add_argument("--seconds", type=float, default=10.0, help="target one-job run time")
    ap.add_argument("--copies", type=int, help="copies of the hard list (skips calibration)")
    ap.add_argument("--dask", help="also run with --dask ADDRESS (e.g. local)")
    ap.add_argument("--dask-workers", type=int, help="--jobs for the Dask run (workers)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per setting (median)")
    args = ap.parse_args()
    jobs_list = [int(j) for j in args.jobs_list.split(",") if j.strip()]

    with tempfile.TemporaryDirectory(prefix="bench_scaling_") as tmp:
        if args.input:
            source = args.input
            with open(source, encoding="utf-8", errors="replace") as f:
                puzzles = sum(1 for line in f if line.strip() and not line.startswith("#"))
        else:
            copies = args.copies or calibrate(tmp, args.backend, args.seconds)
            source = os.path.join(tmp, "hard.txt")
            puzzles = make_input(source, copies)
        print(
            f"backend {args.backend}, {puzzles:,} puzzles ({source}), "
            f"{os.cpu_count()} cores, median of {args.repeat}"
        )
        settings = [(f"--jobs {j}", ["--jobs", str(j)]) for j in jobs_list]
        if args.dask:
            extra = ["--dask", args.dask]
            if args.dask_workers:
                extra += ["--jobs", str(args.dask_workers)]
            settings.append((" ".join(extra), extra))
        out = os.path.join(tmp, "out.jsonl")
        base = None
        reference = None
        print(f"{'setting':<22} {'seconds':>8} {'puzzles/s':>10} {'speed-up':>9} {'RSS MB':>7}")
        for name, extra in settings:
            walls, rss = [], 0.0
            for _ in range(args.repeat):
                wall, mb, counts = run(source, args.backend, extra, out)
                walls.append(wall)
                rss = max(rss, mb)
                if reference is None:
                    reference = counts
                elif counts != reference:
                    sys.exit(f"{name}: verdicts {counts} differ from {reference}")
            wall = statistics.median(walls)
            rate = puzzles / wall
            base = base or rate
            print(f"{name:<22} {wall:8.2f} {rate:10,.0f} {rate / base:8.2f}x {rss:7.0f}")
        print(f"verdicts: {reference}")


if __name__ == "__main__":
    main()
