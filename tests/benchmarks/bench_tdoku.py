"""Race of the native classic 9x9 batch against tdoku.

    python tests/benchmarks/bench_tdoku.py [--tdoku /path/to/libtdoku_shared.so]
        [--seed 1] [--rounds 7] [--min-cpu 0.3] [--multi 10000] [--sets 17-clue,...]

Same puzzles on both sides: every puzzle of each set goes through a random symmetry
transformation (bands, rows, stacks, columns, transposition, digit relabelling; seeded by
--seed), so that neither solver profits from a list's orientation. Sets: 17-clue (bundled),
magictour-top1465 and forum-hardest-1106, and "multi-solution": --multi puzzles from the
transformed 17-clue list with one or two clues deleted (15-16 clues, so never unique).

Each side counts to 2 (limit 2) in one call per batch: ours is Model.batch (keep=1, the
path of check_unique_many / verify); tdoku's is a C loop of our own
(tests/benchmarks/tdoku_race.c) compiled here with `cc` into a temporary folder and linked
against the library given by --tdoku, so that neither side pays a Python call per puzzle.
The sides alternate within every round (who goes first alternates too) and each is timed in
thread CPU time; a round repeats each batch until it has taken about --min-cpu seconds.
Both sides' counts are compared before timing. Without --tdoku only our figures are shown.

Prints per set: puzzles, puzzles/s ours and tdoku's (total puzzles / total CPU time over the
rounds), ratio ours/tdoku (> 1: we are faster), guesses per puzzle of each.
"""

from __future__ import annotations

import argparse
import ctypes
import gzip
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import sudoku_model.native_backtrack._testing as testing
from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model import native_backtrack as nb
from sudoku_model.backends.native import NativeBackend
from sudoku_model.data import bundled_path
from sudoku_model.dataset import random_transform

HERE = Path(__file__).resolve().parent
SETS = ("17-clue", "magictour-top1465", "forum-hardest-1106", "multi-solution")


def read_set(name: str) -> list[bytes]:
    """The puzzles of a bundled list as 81 values 0..9 each."""
    path = bundled_path(name)
    opener = gzip.open if path.suffix == ".gz" else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(bytes(0 if ch in ".0" else int(ch) for ch in line[:81]))
    return out


def transformed(puzzles: list[bytes], rng: random.Random) -> list[bytes]:
    """Each puzzle under its own random element of the 9x9 symmetry group."""
    shape = Shape(3, 3)
    out = []
    for p in puzzles:
        t = random_transform(shape, rng)
        d = t.digits
        if t.transpose:
            src = [t.cols[j] * 9 + t.rows[i] for i in range(9) for j in range(9)]
        else:
            src = [t.rows[i] * 9 + t.cols[j] for i in range(9) for j in range(9)]
        out.append(bytes(d[p[s]] for s in src))
    return out


def multi_solution(puzzles: list[bytes], count: int, rng: random.Random) -> list[bytes]:
    """`count` of the (17-clue) puzzles, each with one or two of its clues deleted."""
    out = []
    for p in rng.sample(puzzles, min(count, len(puzzles))):
        clues = [i for i, v in enumerate(p) if v]
        cells = bytearray(p)
        for i in rng.sample(clues, rng.choice((1, 2))):
            cells[i] = 0
        out.append(bytes(cells))
    return out


def tdoku_runner(library: str, workdir: str) -> Callable[[bytes, int, int], tuple[list[int], int]]:
    """Compile the race harness against `library`; returns run(data82, n, limit)."""
    lib = Path(library).resolve()
    if not lib.is_file():
        sys.exit(f"bench_tdoku: --tdoku {library}: no such file")
    cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
    so = Path(workdir) / "tdoku_race.so"
    cmd = [
        cc, "-O2", "-shared", "-fPIC", "-o", str(so), str(HERE / "tdoku_race.c"),
        str(lib), f"-Wl,-rpath,{lib.parent}",
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"bench_tdoku: compiling the harness failed:\n{' '.join(cmd)}\n{done.stderr}")
    race = ctypes.CDLL(str(so)).race_tdoku
    race.restype = ctypes.c_uint64
    race.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]

    def run(data: bytes, n: int, limit: int) -> tuple[list[int], int]:
        counts = (ctypes.c_uint32 * n)()
        guesses = race(data, n, limit, ctypes.addressof(counts))
        return list(counts), int(guesses)

    return run


def as_tdoku(puzzles: list[bytes]) -> bytes:
    """81 chars ('.' for blanks) and a NUL per puzzle."""
    table = bytes([ord(".")]) + b"123456789"
    return b"".join(bytes(table[v] for v in p) + b"\0" for p in puzzles)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tdoku", metavar="PATH", help="tdoku shared library (libtdoku_shared.so)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--min-cpu", type=float, default=0.3)
    ap.add_argument("--multi", type=int, default=10_000, help="size of the multi-solution list")
    ap.add_argument("--limit", type=int, default=2)
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma list of {', '.join(SETS)}")
    ap.add_argument(
        "--isa",
        help="instruction set of our classic 9x9 search (c, sse2, popcnt, avx2, avx512; default: "
        "the best this CPU runs); sse2 is the code as built before runtime dispatch",
    )
    args = ap.parse_args()
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    for s in wanted:
        if s not in SETS:
            ap.error(f"unknown set {s!r}")

    if args.isa and os.environ.get("SUDOKU_NATIVE_ISA") != args.isa:
        try:
            testing.c9_isa(args.isa)  # refuses a name unknown or beyond this CPU
        except ValueError as exc:
            ap.error(str(exc))
        # the toolkit's module chooses its instruction set once, as it loads: run again
        env = dict(os.environ, SUDOKU_NATIVE_ISA=args.isa)
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    backend = get_backend("native")
    assert isinstance(backend, NativeBackend)
    model = backend.model(RuleSet.classic(Shape(3, 3)))
    rng = random.Random(args.seed)
    seventeen = transformed(read_set("17-clue"), rng)
    lists = {
        "17-clue": seventeen,
        "magictour-top1465": transformed(read_set("magictour-top1465"), rng),
        "forum-hardest-1106": transformed(read_set("forum-hardest-1106"), rng),
        "multi-solution": multi_solution(seventeen, args.multi, rng),
    }
    workdir = tempfile.mkdtemp(prefix="bench_tdoku_")
    try:
        theirs = tdoku_runner(args.tdoku, workdir) if args.tdoku else None
        print(
            f"native classic 9x9 batch vs tdoku: limit {args.limit}, seed {args.seed}, "
            f"{args.rounds} interleaved rounds, thread CPU time, our ISA {testing.c9_isa()}"
            + ("" if theirs else " (no --tdoku: our figures only)")
        )
        print(
            f"  {'set':20s} {'puzzles':>8s} {'ours/s':>10s} {'tdoku/s':>10s} {'ratio':>6s} "
            f"{'guesses ours':>12s} {'tdoku':>6s}"
        )
        for name in wanted:
            race(name, lists[name], model, theirs, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def race(
    name: str,
    puzzles: list[bytes],
    model: nb.Model,
    theirs: Callable[[bytes, int, int], tuple[list[int], int]] | None,
    args: argparse.Namespace,
) -> None:
    """Time one set, both sides interleaved, and print its line."""
    n = len(puzzles)
    ours_data = b"".join(puzzles)
    their_data = as_tdoku(puzzles)
    batch = model.batch

    def ours() -> int:
        _counts, _st, _sols, _nodes, guesses = batch(ours_data, limit=args.limit, keep=1)
        return int(guesses)

    def tdoku() -> int:
        assert theirs is not None
        return theirs(their_data, n, args.limit)[1]

    counts, _st, _sols, _nodes, our_guesses = batch(ours_data, limit=args.limit, keep=1)
    sides: list[tuple[str, Callable[[], int]]] = [("ours", ours)]
    their_guesses = 0
    if theirs is not None:
        tcounts, their_guesses = theirs(their_data, n, args.limit)
        bad = [i for i in range(n) if counts[i] != tcounts[i]]
        if bad:
            sys.exit(f"{name}: counts differ on {len(bad)} puzzles, first #{bad[0]}")
        sides.append(("tdoku", tdoku))
    reps = {}
    for label, fn in sides:
        t = time.thread_time()
        fn()
        reps[label] = max(1, round(args.min_cpu / max(time.thread_time() - t, 1e-6)))
    cpu = {label: 0.0 for label, _ in sides}
    solved = {label: 0 for label, _ in sides}
    for r in range(args.rounds):
        for label, fn in sides if r % 2 == 0 else sides[::-1]:
            t = time.thread_time()
            for _ in range(reps[label]):
                fn()
            cpu[label] += time.thread_time() - t
            solved[label] += n * reps[label]
    rate = {label: solved[label] / cpu[label] for label in cpu}
    if theirs is not None:
        print(
            f"  {name:20s} {n:8d} {rate['ours']:10,.0f} {rate['tdoku']:10,.0f} "
            f"{rate['ours'] / rate['tdoku']:5.2f}x {our_guesses / n:12.2f} {their_guesses / n:6.2f}"
        )
    else:
        line = f"  {name:20s} {n:8d} {rate['ours']:10,.0f} {'-':>10s} {'-':>6s}"
        print(f"{line} {our_guesses / n:12.2f}")


if __name__ == "__main__":
    main()
