"""Benchmark of minimal 9x9 generation: puzzles per second through the
library (``generate_one``, the removal pass in C) and through ``sudoku generate``, raced
against tdoku's generator (``TdokuConstrain`` + ``TdokuMinimize``) in the same run.

    python tests/benchmarks/bench_generate_c.py                       # our figures only
    python tests/benchmarks/bench_generate_c.py --tdoku /path/to/libtdoku_shared.so
    python tests/benchmarks/bench_generate_c.py --tdoku LIB --rounds 20 --per-round 200

tdoku is not part of this project: pass the path of a tdoku shared library you built
yourself. The loop around it is ours: a small C harness (below) that this script compiles
with ``cc`` into a temporary folder and links against that library; for each puzzle it
starts from the empty grid, lets ``TdokuConstrain`` add random clues until the solution is
unique and ``TdokuMinimize`` drop clues in random order while it stays unique (a minimal
puzzle, the same kind ours are), and it reads the thread CPU clock around its own loop, so
tdoku is charged no Python call per puzzle. Ours is timed on the thread CPU clock around
``generate_one`` (one Python call per puzzle, everything included: full grid, seeded
removal order, the C pass, the result object). Rounds alternate ours / theirs so that load
on a shared machine hits both alike; per-puzzle medians over the rounds are printed, with
the ratio (ours / tdoku: at most 1.0 is the target). There are no input puzzles to
transform here: both sides draw their own grids. ``--cli`` also times ``sudoku generate -n
N`` end to end (process CPU time of the child: start-up, writing the records included).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model.generate import GenerationSpec, engine_for, generate_one, puzzle_seed

HARNESS = r"""
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

bool TdokuConstrain(bool pencilmark, char *puzzle);
bool TdokuMinimize(bool pencilmark, bool monotonic, char *puzzle);

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Make `count` minimal puzzles; returns the thread CPU seconds, the clue total in *clues
 * and the failures (Constrain found no unique completion) in *failed; the last puzzle
 * goes to last (82 bytes). */
double make_puzzles(int count, long *clues, int *failed, char *last)
{
    char puzzle[82];
    *clues = 0;
    *failed = 0;
    double start = thread_seconds();
    for (int i = 0; i < count; i++) {
        memset(puzzle, '.', 81);
        puzzle[81] = 0;
        if (!TdokuConstrain(false, puzzle)) {
            (*failed)++;
            continue;
        }
        TdokuMinimize(false, false, puzzle);
        for (int c = 0; c < 81; c++) *clues += puzzle[c] != '.';
    }
    double spent = thread_seconds() - start;
    memcpy(last, puzzle, 82);
    return spent;
}
"""


def build_harness(library: Path, folder: Path) -> ctypes.CDLL:
    """Compile the harness against ``library`` and load it.

    Raises:
        SystemExit: when no C compiler is found or the compile fails (the message says why).
    """
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        raise SystemExit("no C compiler (cc) on PATH: needed to build the tdoku harness")
    source = folder / "tdoku_harness.c"
    source.write_text(HARNESS)
    target = folder / "libtdoku_harness.so"
    command = [
        cc,
        "-O2",
        "-shared",
        "-fPIC",
        str(source),
        "-o",
        str(target),
        f"-L{library.parent}",
        f"-l:{library.name}",
        f"-Wl,-rpath,{library.parent}",
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"building the tdoku harness failed:\n{' '.join(command)}\n{done.stderr}")
    lib = ctypes.CDLL(str(target))
    lib.make_puzzles.restype = ctypes.c_double
    lib.make_puzzles.argtypes = [
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_long),
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_char_p,
    ]
    return lib


def tdoku_round(lib: ctypes.CDLL, count: int) -> tuple[float, float, str]:
    clues, failed = ctypes.c_long(), ctypes.c_int()
    last = ctypes.create_string_buffer(82)
    seconds = lib.make_puzzles(count, ctypes.byref(clues), ctypes.byref(failed), last)
    made = count - failed.value
    return seconds / max(1, made), clues.value / max(1, made), last.value.decode()


def ours_round(spec: GenerationSpec, engine: object, seed: int, first: int, count: int):
    clues = 0
    minimal = 0
    start = time.thread_time()
    for i in range(first, first + count):
        made = generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i)  # type: ignore[arg-type]
        clues += made.clues
        minimal += made.minimal is True
    spent = time.thread_time() - start
    return spent / count, clues / count, minimal


def cli_run(count: int, seed: int) -> float:
    """CPU seconds per puzzle of ``sudoku generate -n count`` (child process time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        command = [
            sys.executable,
            "-m",
            "sudoku_model.cli",
            "generate",
            "-n",
            str(count),
            "--box",
            "3x3",
            "--seed",
            str(seed),
            "-o",
            str(out),
        ]
        subprocess.run(command, check=True, capture_output=True)
        lines = out.read_text().count("\n")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if lines < count:
        raise SystemExit(f"sudoku generate wrote {lines} lines for {count} puzzles")
    return spent / count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tdoku", type=Path, help="path of a tdoku shared library to race")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=200, help="puzzles per side per round")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--loop",
        action="store_true",
        help="also time the Python removal loop (the C pass forced off), interleaved",
    )
    parser.add_argument(
        "--cli", type=int, default=0, metavar="N", help="also time `sudoku generate -n N`"
    )
    args = parser.parse_args(argv)
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    spec = GenerationSpec(RuleSet.classic(Shape(3, 3)))
    backend = get_backend("native")
    engine = engine_for(backend)
    loop_engine = engine_for(backend, bulk_removal=False)
    generate_one(spec, engine, seed=1)  # load the model
    lib = None
    folder = tempfile.TemporaryDirectory()
    if args.tdoku is not None:
        if not args.tdoku.is_file():
            raise SystemExit(f"--tdoku {args.tdoku}: no such file")
        lib = build_harness(args.tdoku.resolve(), Path(folder.name))
        tdoku_round(lib, 10)  # warm up
    ours: list[float] = []
    loop: list[float] = []
    theirs: list[float] = []
    our_clues: list[float] = []
    their_clues: list[float] = []
    minimal = 0
    sample = ""
    for r in range(args.rounds):
        first = r * args.per_round
        seconds, clues, m = ours_round(spec, engine, args.seed, first, args.per_round)
        ours.append(seconds)
        our_clues.append(clues)
        minimal += m
        if args.loop:
            loop.append(ours_round(spec, loop_engine, args.seed, first, args.per_round)[0])
        if lib is not None:
            seconds, clues, sample = tdoku_round(lib, args.per_round)
            theirs.append(seconds)
            their_clues.append(clues)
    total = args.rounds * args.per_round
    print(
        f"ours  (generate_one, C pass): median {statistics.median(ours) * 1e6:7.1f} us/puzzle "
        f"= {1 / statistics.median(ours):8.0f}/s  clues mean {statistics.mean(our_clues):.2f}  "
        f"minimal {minimal}/{total}"
    )
    if loop:
        print(
            f"ours  (Python loop, C off):   median {statistics.median(loop) * 1e6:7.1f} "
            f"us/puzzle = {1 / statistics.median(loop):8.0f}/s"
        )
    if theirs:
        print(
            f"tdoku (constrain+minimize):   median {statistics.median(theirs) * 1e6:7.1f} "
            f"us/puzzle = {1 / statistics.median(theirs):8.0f}/s  clues mean "
            f"{statistics.mean(their_clues):.2f}  (last: {sample})"
        )
        ratios = [a / b for a, b in zip(ours, theirs)]
        print(
            f"ours / tdoku per round: median {statistics.median(ratios):.3f} "
            f"(min {min(ratios):.3f}, max {max(ratios):.3f}); thread CPU time, "
            f"{args.rounds} interleaved rounds of {args.per_round}"
        )
    if args.cli:
        per = cli_run(args.cli, args.seed)
        print(
            f"sudoku generate -n {args.cli}: {per * 1e6:.1f} us/puzzle CPU = {1 / per:.0f}/s "
            "(process start-up and writing included)"
        )
    folder.cleanup()


if __name__ == "__main__":
    main()
