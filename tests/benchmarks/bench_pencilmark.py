"""Race of the native backend against tdoku (and optionally pysat) on pencilmark puzzles.

    python tests/benchmarks/bench_pencilmark.py FILE [FILE ...]
        [--tdoku /path/to/libtdoku_shared.so] [--first N] [--pysat] [--multi K] [--seed 1]

FILE holds 729-character lines (character 9*cell+d is the digit d+1 while it is a
candidate, '.' or '0' once eliminated; cells row-major), e.g. the sets of
t-dillon/pencilmark_sudoku kept in ../shared/data/pencilmark/. Each puzzle becomes a
pencilmark Puzzle (:meth:`Puzzle.from_candidates`).

Every side counts to 2 (the uniqueness question) one puzzle at a time, interleaved: per
puzzle, native, then tdoku, then pysat, with the order rotated from puzzle to puzzle, each
timed in process CPU time (the native backend searches on a thread of its own). The native
time is the backend's whole `count` call (the C model of the puzzle's rule set built, then
the search); tdoku's is one call of its C entry point
TdokuSolverDpllTriadSimd through ctypes on the 729-character line (a library you build
yourself from t-dillon/tdoku; nothing of it is in this repository). Answers are checked:
the same count on every side and, where unique, the same solution; a second solution must
satisfy the candidates and the rules.

--multi K also makes K multi-solution cases per file: a unique puzzle with one eliminated
candidate restored, chosen (seeded) among those that make the count exactly 2, and checks
that every side answers 2 (each side's kept solution checked).

Prints per file: puzzles, CPU per puzzle on each side (mean), total CPU ratio tdoku/native
(> 1: native faster) and the answers' agreement.
"""

from __future__ import annotations

import argparse
import ctypes
import random
import sys
import time
from pathlib import Path

from sudoku_model import Puzzle, Shape, get_backend

SHAPE = Shape(3, 3)


def candidates_of(line: str) -> list[frozenset[int]]:
    """The candidate set of each of the 81 cells of a 729-character line."""
    return [frozenset(d + 1 for d in range(9) if line[9 * c + d] not in ".0") for c in range(81)]


def puzzle_of(cands: list[frozenset[int]]) -> Puzzle:
    """The puzzle of 81 candidate sets (:meth:`Puzzle.from_candidates`)."""
    return Puzzle.from_candidates(cands, shape=SHAPE)


def line_of(cands: list[frozenset[int]]) -> str:
    return "".join(str(d + 1) if d + 1 in s else "." for s in cands for d in range(9))


def valid(grid: tuple[int, ...], cands: list[frozenset[int]]) -> bool:
    """Whether a full grid is a classic solution inside the candidates."""
    if any(grid[c] not in cands[c] for c in range(81)):
        return False
    units = [[9 * r + c for c in range(9)] for r in range(9)]
    units += [[9 * r + c for r in range(9)] for c in range(9)]
    units += [
        [27 * (b // 3) + 3 * (b % 3) + 9 * r + c for r in range(3) for c in range(3)]
        for b in range(9)
    ]
    return all(len({grid[c] for c in u}) == 9 for u in units)


class Tdoku:
    """tdoku's solver entry point from a built libtdoku_shared.so."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        self.fn = lib.TdokuSolverDpllTriadSimd
        self.fn.restype = ctypes.c_size_t
        self.fn.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t),
        ]

    def count(self, line: str) -> tuple[int, tuple[int, ...] | None, float]:
        buf = ctypes.create_string_buffer(line.encode(), 736)
        sol = ctypes.create_string_buffer(82)
        guesses = ctypes.c_size_t(0)
        t = time.process_time()
        n = self.fn(buf, 2, 0, sol, ctypes.byref(guesses))
        dt = time.process_time() - t
        grid = None
        if n:  # tdoku keeps a solution only when it stops at the limit: ask again, untimed
            self.fn(buf, 1, 1, sol, ctypes.byref(guesses))
            grid = tuple(int(ch) for ch in sol.raw[:81].decode())
        return int(n), grid, dt


def backend_count(backend: object, puzzle: Puzzle) -> tuple[int, tuple[int, ...] | None, float]:
    t = time.process_time()
    res = backend.count(puzzle, limit=2)  # type: ignore[attr-defined]
    dt = time.process_time() - t
    return res.count, (tuple(res.solutions[0].values) if res.solutions else None), dt


def multi_cases(lines: list[str], k: int, rng: random.Random, native: object) -> list[str]:
    """k lines with one eliminated candidate restored that make the count exactly 2."""
    out: list[str] = []
    for line in lines:
        if len(out) >= k:
            break
        cands = candidates_of(line)
        elims = [(c, d) for c in range(81) for d in range(1, 10) if d not in cands[c]]
        rng.shuffle(elims)
        for c, d in elims[:40]:
            trial = list(cands)
            trial[c] = cands[c] | {d}
            res = native.count(puzzle_of(trial), limit=3)  # type: ignore[attr-defined]
            if res.count == 2 and res.complete:
                out.append(line_of(trial))
                break
    return out


def race(name: str, lines: list[str], sides: dict[str, object], tdoku: Tdoku | None) -> bool:
    names = [*sides, *(["tdoku"] if tdoku else [])]
    cpu = dict.fromkeys(names, 0.0)
    agree = True
    for i, line in enumerate(lines):
        cands = candidates_of(line)
        puzzle = puzzle_of(cands)
        answers: dict[str, tuple[int, tuple[int, ...] | None]] = {}
        order = names[i % len(names) :] + names[: i % len(names)]
        for side in order:
            if side == "tdoku":
                assert tdoku is not None
                n, grid, dt = tdoku.count(line)
            else:
                n, grid, dt = backend_count(sides[side], puzzle)
            cpu[side] += dt
            answers[side] = (n, grid)
        counts = {a[0] for a in answers.values()}
        grids_ok = all(g is None or valid(g, cands) for _, g in answers.values())
        same = len(counts) == 1 and grids_ok
        if same and counts == {1}:
            same = len({g for _, g in answers.values()}) == 1
        elif same and counts == {2}:  # tdoku's first solution may be another one
            same = all(g is not None for _, g in answers.values())
        if not same:
            agree = False
            print(f"  {name} #{i}: answers differ: { ({k: v[0] for k, v in answers.items()}) }")
    n = len(lines)
    cols = "  ".join(f"{s} {1e3 * cpu[s] / n:9.2f} ms" for s in names)
    ratio = f"  tdoku/native {cpu['tdoku'] / cpu['native']:.2f}x" if tdoku else ""
    print(f"{name:40s} {n:4d} puzzles  {cols}{ratio}  answers {'agree' if agree else 'DIFFER'}")
    return agree


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--tdoku", help="path of tdoku's libtdoku_shared.so (built by hand)")
    ap.add_argument("--first", type=int, default=0, help="only the first N puzzles of each file")
    ap.add_argument("--pysat", action="store_true", help="race the pysat backend too")
    ap.add_argument("--multi", type=int, default=0, help="K multi-solution cases per file")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    native = get_backend("native")
    sides: dict[str, object] = {"native": native}
    if args.pysat:
        sides["pysat"] = get_backend("pysat")
    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    rng = random.Random(args.seed)
    ok = True
    for path in args.files:
        lines = [ln.strip() for ln in path.read_text().splitlines() if len(ln.strip()) >= 729]
        lines = [ln[:729] for ln in lines]
        if args.first:
            lines = lines[: args.first]
        ok &= race(path.name, lines, sides, tdoku)
        if args.multi:
            multi = multi_cases(lines, args.multi, rng, native)
            ok &= race(path.name + " (multi)", multi, sides, tdoku)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
