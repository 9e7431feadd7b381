"""The portfolio (``auto``) against each single engine, set by set: CPU per puzzle.

    python tests/benchmarks/bench_portfolio.py [--sets NAME,...] [--first N]
        [--backends native,mip:highs,pysat:cadical195,auto] [--budget S]
        [--tdoku /path/to/libtdoku_shared.so]

Sets (``--sets``, default all that are on this machine): ``17-clue``, ``top1465`` and
``forum-hardest`` (bundled collections), ``16x16`` (tests/data/16x16-generated.csv),
``25x25`` (tests/data/minimal-25x25.txt), and the pencilmark sets ``gurobi_hard``,
``020-029k`` and ``1m+`` (t-dillon/pencilmark_sudoku, kept in ../shared/data/pencilmark/).
Each set takes its first ``--first`` puzzles (default 10).

Every backend answers "is it unique?" (``check_unique``, budget ``--budget`` seconds) on
every puzzle, after one untimed call on the set's first puzzle (its one-off setup),
interleaved: per puzzle, the backends in every order in turn (each follows each other as
often), each call timed in process CPU seconds (every thread of the process: HiGHS's
too). Answers must agree (unique / multiple and the solution). ``--tdoku`` adds tdoku (a
library you build yourself from t-dillon/tdoku; nothing of it is in this repository) on
the 9x9 sets, counting to 2.

Prints per set and backend the mean CPU milliseconds per puzzle and the unknown answers,
then the ratio of auto's mean to the best single engine's (the portfolio's target is 1.3
at most) and, with tdoku, tdoku's mean over auto's.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

from sudoku_model import Budget, Puzzle, get_backend
from sudoku_model.formats import iter_records
from sudoku_model.formats.pencilmark import format_pencilmark_line

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.bench_pencilmark import Tdoku  # noqa: E402
from tests.datafiles import shared_data  # noqa: E402

SETS = {
    "17-clue": "bundled:17-clue",
    "top1465": "bundled:magictour-top1465",
    "forum-hardest": "bundled:forum-hardest-1106",
    "16x16": str(ROOT / "tests" / "data" / "16x16-generated.csv"),
    "25x25": str(ROOT / "tests" / "data" / "minimal-25x25.txt"),
    "gurobi_hard": "pencilmark/gurobi_hard-50.txt",
    "020-029k": "pencilmark/minisat_bt_020-029k-200.txt",
    "1m+": "pencilmark/minisat_bt_1m+-20.txt",
}


def load(name: str, first: int) -> list[Puzzle] | None:
    source = SETS[name]
    if source.startswith("pencilmark/"):
        path = shared_data(source)
        if path is None:
            return None
        source = str(path)
    out = []
    for rec in iter_records(source):
        if rec.puzzle is not None:
            out.append(rec.puzzle)
        if len(out) >= first:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--first", type=int, default=10)
    ap.add_argument("--backends", default="native,mip:highs,pysat:cadical195,auto")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--tdoku", default=None)
    args = ap.parse_args(argv)
    names = args.backends.split(",")
    backends = {}
    for name in names:
        try:
            backends[name] = get_backend(name)
        except Exception as exc:  # noqa: BLE001 - a missing engine is reported, not fatal
            print(f"{name}: not available ({exc})")
    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    budget = Budget(seconds=args.budget)
    for set_name in args.sets.split(","):
        puzzles = load(set_name, args.first)
        if not puzzles:
            print(f"{set_name}: not on this machine")
            continue
        for backend in backends.values():  # one-off setup (models, solvers) untimed
            if backend.supports(puzzles[0]) is None:
                backend.check_unique(puzzles[0], budget=budget)
        times: dict[str, list[float]] = {n: [] for n in backends}
        unknown = dict.fromkeys(backends, 0)
        engines: dict[str, dict[str, int]] = {n: {} for n in backends}
        tdoku_times: list[float] = []
        disagree = 0
        # every order of the backends in turn: each follows each other as often (a call
        # right after a memory-hungry one runs on cold caches)
        orders = list(itertools.permutations(backends))
        for k, puzzle in enumerate(puzzles):
            order = orders[k % len(orders)]
            answers = {}
            for name in order:
                backend = backends[name]
                if backend.supports(puzzle) is not None:
                    continue
                start = time.process_time()
                verdict = backend.check_unique(puzzle, budget=budget)
                times[name].append(time.process_time() - start)
                engines[name][verdict.backend] = engines[name].get(verdict.backend, 0) + 1
                if verdict.kind.value == "unknown":
                    unknown[name] += 1
                    continue
                sol = verdict.solution.values if verdict.solution is not None else None
                answers[name] = (verdict.kind.value, sol)
            if len(set(answers.values())) > 1:
                disagree += 1
            if tdoku is not None and puzzle.size == 9:
                _, _, dt = tdoku.count(format_pencilmark_line(puzzle))
                tdoku_times.append(dt)
        print(f"\n{set_name}: {len(puzzles)} puzzles, CPU milliseconds per puzzle (mean)")
        means = {}
        for name in backends:
            if times[name]:
                means[name] = statistics.fmean(times[name])
                by = ", ".join(f"{e} {c}" for e, c in sorted(engines[name].items()))
                print(
                    f"  {name:20s} {means[name] * 1e3:11.3f}  unknown {unknown[name]}  "
                    f"answered by: {by}"
                )
        if tdoku_times:
            print(f"  {'tdoku':20s} {statistics.fmean(tdoku_times) * 1e3:11.3f}")
        singles = {n: m for n, m in means.items() if n != "auto" and unknown[n] == 0}
        if "auto" in means and singles:
            best = min(singles, key=singles.__getitem__)
            print(f"  auto / best single ({best}): {means['auto'] / singles[best]:.2f}")
            if tdoku_times:
                print(f"  tdoku / auto: {statistics.fmean(tdoku_times) / means['auto']:.2f}")
        print(f"  disagreements: {disagree}")
    for backend in backends.values():
        backend.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
