"""The SE rater against skfr on the same puzzles: CPU per puzzle, and ER agreement of both
with the published ratings.

    python tests/benchmarks/bench_se_anchor.py [--skfr PATH] [--file hardest] [--first N]
        [--every M] [--budget S] [--out rows.tsv]

``--file hardest`` (default) reads hardest-1106-ratings.csv, the forum's hardest list, and
keeps the 269 puzzles with a published ER; ``--file se`` reads se-rated-2000.txt; any other
path is a file of ``puzzle ER`` lines. ``--skfr PATH`` is a binary of dobrichev/skfr built
by hand outside the repository (the project ships none and no build script), e.g.
``g++ -O3 -march=native -fopenmp -o skfr src/*.cpp`` without ``src/skfrdll.cpp``; it runs
with ``OMP_NUM_THREADS=1``, once per puzzle in a scratch folder (``skfr -iNAME`` reads
``NAME.txt`` and writes ``NAME_rat.txt``: ``puzzle ED=ER/EP/ED``), and its CPU time is the
child's user + system time. Ours is :func:`sudoku_model.se.rate_se` with ``--budget``
CPU seconds (the ``sudoku rate --scale se`` default, 60 s, unless given), timed in
process CPU seconds; the two run interleaved, puzzle by puzzle.

Prints, for ours and skfr: ER exact and within 0.1 of the published ER, out of budget
(ours: "ER above X"; skfr: no rating), EP and ED agreement where the file publishes them,
median, mean and maximum CPU per puzzle, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_model.cli.rate import DEFAULT_SE_SECONDS
from sudoku_model.se import rate_se

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.datafiles import data_file, external_data  # noqa: E402

Row = tuple[str, float, float | None, float | None]  # puzzle, ER, EP, ED (published)


def load(which: str) -> list[Row]:
    """The puzzles of a reference file with their published ER (and EP, ED when given)."""
    out: list[Row] = []

    def num(text: str) -> float | None:
        return float(text) if text.strip() else None

    if which == "hardest":
        path = external_data("hardest-1106-ratings.csv")
        if path is None:
            raise SystemExit(
                "hardest-1106-ratings.csv (GPL-3.0) is not on this machine: put it in "
                "$SUDOKU_EXTERNAL_DATA or ../shared/data"
            )
        for line in path.read_text().splitlines()[2:]:
            f = line.split(",")
            if len(f) > 7 and f[5].strip():
                out.append((f[0], float(f[5]), num(f[6]), num(f[7])))
    elif which == "se":
        for line in data_file("se-rated-2000.txt").read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and not line.startswith("#"):
                out.append((parts[1], float(parts[2]), None, None))
    else:
        for line in Path(which).read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and len(parts[0]) == 81 and not line.startswith("#"):
                out.append((parts[0], float(parts[1]), None, None))
    return out


def ours(puzzle: str, budget: float) -> tuple[float | None, float | None, float | None, float]:
    """ER (None when out of budget), EP, ED and CPU seconds of our rater."""
    values = [0 if ch in ".0" else int(ch) for ch in puzzle]
    start = time.process_time()
    r = rate_se(values, seconds=budget)
    spent = time.process_time() - start
    return (r.er if r.status == "rated" else None), r.ep, r.ed, spent


def skfr(
    binary: str, puzzle: str, folder: Path
) -> tuple[float | None, float | None, float | None, float]:
    """ER, EP, ED (None when skfr rates nothing) and the child's CPU seconds."""
    (folder / "p.txt").write_text(puzzle + "\n")
    for old in folder.glob("p_*rat.txt"):
        old.unlink()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [binary, "-ip"],
        cwd=folder,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rated = folder / "p_rat.txt"
    text = rated.read_text() if rated.exists() else ""
    for line in text.splitlines():
        if "ED=" in line:
            er, ep, ed = (float(x) for x in line.split("ED=", 1)[1].split()[0].split("/"))
            return (er if er > 0 else None), ep, ed, cpu
    return None, None, None, cpu


def summary(name: str, rows: list[tuple[Row, tuple]]) -> str:
    n = len(rows)
    exact = within = above = 0
    ep_ok = ep_n = ed_ok = ed_n = 0
    cpu = []
    for (_, er, ep, ed), (got, gep, ged, seconds) in rows:
        cpu.append(seconds)
        if got is None:
            above += 1
            continue
        exact += abs(got - er) < 0.05
        within += abs(got - er) < 0.15
        if ep is not None and gep is not None:
            ep_n += 1
            ep_ok += abs(gep - ep) < 0.05
        if ed is not None and ged is not None:
            ed_n += 1
            ed_ok += abs(ged - ed) < 0.05
    med = statistics.median(cpu) if cpu else math.nan
    return (
        f"{name:6s} ER exact {exact}/{n} ({100 * exact / max(n, 1):.0f}%), within 0.1 "
        f"{within}/{n} ({100 * within / max(n, 1):.0f}%), no rating {above}; EP {ep_ok}/{ep_n}, "
        f"ED {ed_ok}/{ed_n}; CPU per puzzle median {med:.3f} s, mean "
        f"{statistics.fmean(cpu) if cpu else math.nan:.3f} s, max {max(cpu, default=0):.3f} s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--skfr", default=None, help="path of a skfr binary built by hand")
    ap.add_argument("--file", default="hardest", help="hardest, se or a file of 'puzzle ER'")
    ap.add_argument("--first", type=int, default=None)
    ap.add_argument("--every", type=int, default=1, help="every M-th puzzle (a spread sample)")
    ap.add_argument("--budget", type=float, default=DEFAULT_SE_SECONDS, help="our CPU seconds")
    ap.add_argument("--out", default=None, help="one TSV line per puzzle")
    args = ap.parse_args(argv)
    data = load(args.file)[:: args.every]
    if args.first is not None:
        data = data[: args.first]
    mine: list[tuple[Row, tuple]] = []
    theirs: list[tuple[Row, tuple]] = []
    lines = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for k, row in enumerate(data):
            a = ours(row[0], args.budget)
            mine.append((row, a))
            b: tuple = (None, None, None, math.nan)
            if args.skfr:
                b = skfr(args.skfr, row[0], folder)
                theirs.append((row, b))
            lines.append(
                "\t".join([row[0], str(row[1]), str(a[0]), f"{a[3]:.3f}", str(b[0]), f"{b[3]:.3f}"])
            )
            print(
                f"{k + 1}/{len(data)} published {row[1]:.1f}  ours {a[0]} ({a[3]:.2f} s)"
                + (f"  skfr {b[0]} ({b[3]:.2f} s)" if args.skfr else ""),
                file=sys.stderr,
                flush=True,
            )
    if args.out:
        head = "puzzle\tER\tours\tours_s\tskfr\tskfr_s\n"
        Path(args.out).write_text(head + "\n".join(lines) + "\n")
    print(f"{len(data)} puzzles of {args.file}, our budget {args.budget:g} CPU s")
    print(summary("ours", mine))
    if theirs:
        print(summary("skfr", theirs))
        m1 = statistics.median(x[1][3] for x in mine)
        m2 = statistics.median(x[1][3] for x in theirs)
        print(f"median CPU ours / skfr: {m1 / m2:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
