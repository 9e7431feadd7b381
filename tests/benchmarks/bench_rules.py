"""Benchmark of the rule kinds beyond all-different: killer-200 uniqueness, and each kind on
generated instances, per backend; median CPU time per puzzle.

    python tests/benchmarks/bench_rules.py                       # killer-200 + every kind
    python tests/benchmarks/bench_rules.py --backends pysat      # one backend
    python tests/benchmarks/bench_rules.py --cage-encoding layered   # cages as layered sums
    python tests/benchmarks/bench_rules.py --kinds killer,sandwich --instances 50

Targets: killer-200 uniqueness median per puzzle ``pysat`` <= 5 ms, ``cpsat``
<= 20 ms. Every killer puzzle is a rule set of its own, so each time includes encoding its
cages (pysat adds them to a solver already holding the classic rules, under a guard;
cpsat copies the classic model and adds them). A warm-up call on an empty classic grid
loads the base rules first. Times are CPU time of this process (``time.process_time``,
helper threads included) around ``check_unique``; on a shared machine, run old and new
in alternation.

Per kind: ``--instances`` random 9x9 puzzles built like the differential tests
(``tests/backends/test_rule_encodings.py``: a random full grid, rules of the kind true of
it, about 45% of its cells as givens), so the verdicts mix unique and multiple.

Measured (killer-200, pysat, this script run alternately with the previous commit on a
2-core machine at load ~11): median 6.75-6.92 ms before two-cell cages lost their
selectors and cages became templates (``backends/cnf.py``), 3.85-4.86 ms after. The parts
and the alternatives (solvers, CaDiCaL options, 45-rule clauses, PB encodings, rebuilding
the solver) are raced in ``tests/benchmarks/bench_killer_encodings.py``.

``--cage-encoding layered`` sets ``backends.cnf.MAX_COMBINATIONS`` to 0: killer cages then
use the layered sum encoding plus pairwise distinctness instead of digit combinations.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_model import Grid, Puzzle, RuleSet, Shape, formats, get_backend

KILLER_200 = Path("/work/shared/data/killer-200.csv")
HERE = Path(__file__).resolve().parent


def _encoding_tests() -> Any:
    """The generators of the differential tests (a module loaded by path: ``backends``
    is also the name of the package of backends)."""
    path = HERE.parent / "backends" / "test_rule_encodings.py"
    spec = importlib.util.spec_from_file_location("rule_encoding_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_ms(backend: Any, puzzles: Sequence[Puzzle]) -> dict[str, Any]:
    backend.check_unique(Puzzle.empty(Shape(3, 3)))  # load the classic base rules
    times = []
    kinds: dict[str, int] = {}
    for puzzle in puzzles:
        start = time.process_time()
        verdict = backend.check_unique(puzzle)
        times.append(time.process_time() - start)
        kinds[verdict.kind.value] = kinds.get(verdict.kind.value, 0) + 1
    ms = sorted(t * 1e3 for t in times)
    return {
        "median_ms": statistics.median(ms),
        "mean_ms": statistics.mean(ms),
        "p90_ms": ms[int(0.9 * (len(ms) - 1))],
        "verdicts": kinds,
    }


def killer_puzzles() -> list[Puzzle]:
    return [r.puzzle for r in formats.iter_records(KILLER_200) if r.puzzle is not None]


def kind_puzzles(kind: str, count: int, seed: int) -> list[Puzzle]:
    tests = _encoding_tests()
    rng = random.Random(f"bench {kind} {seed}")
    shape = Shape(3, 3)
    out = []
    while len(out) < count:
        solution = tests.random_full_grid(shape, rng)
        extra = tests.MAKERS[kind](shape, solution.values, rng)
        if not extra:
            continue
        givens = [v if rng.random() < 0.45 else 0 for v in solution.values]
        out.append(Puzzle(Grid(shape, givens), RuleSet.classic(shape).with_rules(extra)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="pysat,cpsat")
    parser.add_argument("--kinds", default="all", help="comma list of kinds, or all, or none")
    parser.add_argument("--instances", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cage-encoding", choices=("combinations", "layered"), default=None)
    args = parser.parse_args(argv)
    if args.cage_encoding == "layered":
        from sudoku_model.backends import cnf

        cnf.MAX_COMBINATIONS = 0
    names = [b for b in args.backends.split(",") if b]
    tests = _encoding_tests()
    kinds = (
        []
        if args.kinds == "none"
        else sorted(tests.MAKERS)
        if args.kinds == "all"
        else args.kinds.split(",")
    )
    print(f"{'set':<18} {'backend':<8} {'median ms':>10} {'mean ms':>8} {'p90 ms':>8}  verdicts")
    sets: list[tuple[str, list[Puzzle]]] = []
    if KILLER_200.exists():
        sets.append(("killer-200", killer_puzzles()))
    else:
        print(f"({KILLER_200} not found: killer-200 skipped)", file=sys.stderr)
    sets += [(kind, kind_puzzles(kind, args.instances, args.seed)) for kind in kinds]
    for label, puzzles in sets:
        for name in names:
            row = median_ms(get_backend(name), puzzles)
            print(
                f"{label:<18} {name:<8} {row['median_ms']:>10.2f} {row['mean_ms']:>8.2f} "
                f"{row['p90_ms']:>8.2f}  "
                f"{row['verdicts']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
