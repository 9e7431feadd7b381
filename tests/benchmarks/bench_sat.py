"""Benchmark of the SAT and CP-SAT backends: uniqueness checks (limit 2), median per puzzle.

    python tests/benchmarks/bench_sat.py                      # targets: cadical195, cpsat
    python tests/benchmarks/bench_sat.py --solvers all        # every PySAT solver
    python tests/benchmarks/bench_sat.py --encodings all      # each encoding / AMO
    python tests/benchmarks/bench_sat.py --17-clue            # the whole 17-clue list
    python tests/benchmarks/bench_sat.py --solver-options '{}'   # CaDiCaL's own defaults

Targets: ``pysat:cadical195`` <= 0.4 ms on top95 and <= 1.5 ms on
forum-hardest-1106; ``cpsat`` <= 5 ms; the whole 17-clue list with pysat in one process
<= 20 s. :func:`rows` returns the table as dicts (the comparison notebook reuses it).

Times are CPU time of this process (``--clock wall`` for wall time) around each
``backend.check_unique(puzzle)`` call, after one warm-up call (an empty grid) that loads the
solver for the rule set: on a machine shared with other jobs CPU time varies less. ``--repeat
N`` makes N whole passes, each on a fresh backend, and keeps the pass with the median median.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from sudoku_model import Puzzle, VerdictKind, formats, get_backend
from sudoku_model.data import bundled_path

DEFAULT_COLLECTIONS = ("top95", "forum-hardest-1106")


def load(name: str, limit: int | None = None) -> list[Puzzle]:
    """The puzzles of a bundled collection (the first ``limit`` of them)."""
    out = []
    for record in formats.iter_records(bundled_path(name)):
        if record.puzzle is not None:
            out.append(record.puzzle)
            if limit is not None and len(out) >= limit:
                break
    return out


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def measure(backend: Any, puzzles: Sequence[Puzzle], *, clock: str = "cpu") -> dict[str, Any]:
    """Time ``check_unique`` on each puzzle once, in order, on one backend."""
    now = CLOCKS[clock]
    backend.check_unique(Puzzle.empty(puzzles[0].shape, puzzles[0].rules))
    times = []
    conflicts = []
    wrong = 0
    for puzzle in puzzles:
        start = now()
        verdict = backend.check_unique(puzzle)
        times.append(now() - start)
        conflicts.append(verdict.stats.get("conflicts", 0))
        wrong += verdict.kind is not VerdictKind.UNIQUE
    ms = sorted(t * 1e3 for t in times)
    return {
        "puzzles": len(puzzles),
        "median_ms": statistics.median(ms),
        "mean_ms": statistics.fmean(ms),
        "p90_ms": ms[int(0.9 * (len(ms) - 1))],
        "max_ms": ms[-1],
        "median_conflicts": statistics.median(conflicts),
        "not_unique": wrong,
    }


def rows(
    backends: Iterable[str] = ("pysat:cadical195", "cpsat"),
    collections: Iterable[str] = DEFAULT_COLLECTIONS,
    *,
    encodings: Iterable[tuple[str, str]] = (("default", "pairwise"),),
    limit: int | None = None,
    repeat: int = 1,
    clock: str = "cpu",
    solver_options: dict[str, int] | None = None,
) -> list[dict[str, Any]]:
    """One row per (backend, encoding, collection): the table of the comparison notebook.

    ``encodings`` pairs (encoding, at-most-one) apply to PySAT backends only; encoding
    ``default`` is the backend's default. ``solver_options`` (CaDiCaL options) go to the
    CaDiCaL backends that take them; None leaves the backend's defaults.
    """
    table = []
    suites = {name: load(name, limit) for name in collections}
    for name in backends:
        variants = encodings if name.startswith("pysat") else (("-", "-"),)
        for encoding, amo in variants:
            options: dict[str, Any] = {}
            if encoding != "-":
                options["amo"] = amo
                if encoding != "default":
                    options["encoding"] = encoding
            if (
                solver_options is not None
                and name.startswith("pysat:cadical")
                and name != "pysat:cadical103"
            ):
                options["solver_options"] = solver_options
            for collection, puzzles in suites.items():
                # Each repeat is a whole pass on a fresh backend (a second pass on the same
                # solver would be answered from learnt clauses); the median pass is kept.
                passes = []
                for _ in range(repeat):
                    backend = get_backend(name, **options)
                    passes.append(measure(backend, puzzles, clock=clock))
                    close = getattr(backend, "close", None)
                    if close:
                        close()
                passes.sort(key=lambda figures: figures["median_ms"])
                if encoding == "default":
                    encoding = getattr(backend, "encoding", encoding)
                row = {
                    "backend": name,
                    "encoding": encoding,
                    "amo": amo,
                    "collection": collection,
                    "clock": clock,
                }
                row.update(passes[len(passes) // 2])
                table.append(row)
    return table


def whole_17_clue(backend_name: str = "pysat:cadical195", **options: Any) -> dict[str, Any]:
    """Check every 17-clue puzzle in one process: reading, and checking, timed apart (wall
    time: the target is for the whole run)."""
    start = time.perf_counter()
    puzzles = load("17-clue")
    read = time.perf_counter() - start
    backend = get_backend(backend_name, **options)
    start = time.perf_counter()
    unique = sum(backend.check_unique(p).kind is VerdictKind.UNIQUE for p in puzzles)
    check = time.perf_counter() - start
    return {
        "backend": backend_name,
        "puzzles": len(puzzles),
        "unique": unique,
        "read_s": read,
        "check_s": check,
        "total_s": read + check,
        "per_puzzle_ms": check / len(puzzles) * 1e3,
    }


def print_table(table: list[dict[str, Any]]) -> None:
    head = (
        "backend",
        "encoding",
        "amo",
        "collection",
        "clock",
        "puzzles",
        "median_ms",
        "mean_ms",
        "p90_ms",
        "max_ms",
        "median_conflicts",
        "not_unique",
    )
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for row in table:
        print(
            " | ".join(f"{row[k]:.3f}" if isinstance(row[k], float) else str(row[k]) for k in head)
        )


def main(argv: Sequence[str] | None = None) -> int:
    from sudoku_model.backends.cnf import AMO_ENCODINGS, ENCODINGS
    from sudoku_model.backends.sat import SOLVERS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--solvers",
        default="cadical195",
        help="PySAT solvers: comma list, all, or empty for none (default cadical195)",
    )
    parser.add_argument(
        "--encodings",
        default="default",
        help="encodings for PySAT: comma list or 'all' (default: the backend's default)",
    )
    parser.add_argument(
        "--amo",
        default="pairwise",
        help="at-most-one encodings: comma list or 'all' (default pairwise)",
    )
    parser.add_argument("--no-cpsat", action="store_true", help="leave CP-SAT out")
    parser.add_argument("--collections", default=",".join(DEFAULT_COLLECTIONS))
    parser.add_argument("--limit", type=int, help="first N puzzles of each collection")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="N passes on fresh backends; the median pass is reported",
    )
    parser.add_argument(
        "--17-clue",
        dest="seventeen",
        action="store_true",
        help="also check the whole 17-clue list in this process (cadical195, first encoding given)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time per puzzle as process CPU time (default) or wall time",
    )
    parser.add_argument(
        "--solver-options",
        type=json.loads,
        metavar="JSON",
        help="CaDiCaL options for the CaDiCaL solvers, e.g. '{}' for "
        "CaDiCaL's own defaults (default: the backend's tuning)",
    )
    args = parser.parse_args(argv)
    solvers = list(SOLVERS) if args.solvers == "all" else [s for s in args.solvers.split(",") if s]
    encodings = list(ENCODINGS) if args.encodings == "all" else args.encodings.split(",")
    amos = list(AMO_ENCODINGS) if args.amo == "all" else args.amo.split(",")
    names = [f"pysat:{s}" for s in solvers] + ([] if args.no_cpsat else ["cpsat"])
    table = rows(
        names,
        args.collections.split(","),
        encodings=[(e, a) for e in encodings for a in amos],
        limit=args.limit,
        repeat=args.repeat,
        clock=args.clock,
        solver_options=args.solver_options,
    )
    print_table(table)
    if args.seventeen:
        options: dict[str, Any] = {}
        if encodings[0] != "default":
            options["encoding"] = encodings[0]
        if args.solver_options is not None:
            options["solver_options"] = args.solver_options
        result = whole_17_clue(**options)
        print(
            f"\n17-clue list: {result['puzzles']} puzzles, {result['unique']} unique; "
            f"read {result['read_s']:.1f} s + check {result['check_s']:.1f} s = "
            f"{result['total_s']:.1f} s ({result['per_puzzle_ms']:.3f} ms per puzzle)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
