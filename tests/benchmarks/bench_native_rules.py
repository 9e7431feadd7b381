"""Benchmark of the native and logic backends on the rule kinds beyond all-different
killer-200 uniqueness, each kind on generated instances, and killer generation;
median and p90 CPU time per puzzle.

    python tests/benchmarks/bench_native_rules.py                     # native, everything
    python tests/benchmarks/bench_native_rules.py --backends native,logic --instances 20
    python tests/benchmarks/bench_native_rules.py --skip-kinds --generate 0   # killer-200 only

Target: killer-200 uniqueness median per puzzle, native <= 2 ms. Each killer
puzzle is a rule set of its own, so each time includes compiling its cages into a C model
(and the implied 45-rule sums, see ``backends.native._implied_sums``). Times are CPU time of
this process (``time.process_time``, helper threads included) around ``check_unique``; on a
shared machine run old and new in alternation.

Per kind: ``--instances`` random 9x9 puzzles from ``tests/rule_instances.py`` (a random full
grid, rules of the kind mostly true of it, ``--givens`` of its cells as givens), so the
verdicts mix unique, multiple and unsolvable. ``--generate N``: N killer puzzles made with
``generate --variant killer`` (native), median seconds per puzzle, cages and givens.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model.generate import GenerationSpec, KillerOptions, generate

HERE = Path(__file__).resolve().parent


def _instances_module() -> ModuleType:
    # Loaded by path: putting tests/ on sys.path would let its native_backtrack test
    # folder shadow the real package.
    spec = importlib.util.spec_from_file_location(
        "rule_instances", HERE.parent / "rule_instances.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _times(backend: Any, puzzles: list[Any]) -> tuple[float, float, dict[str, int]]:
    times = []
    verdicts: dict[str, int] = {}
    for puzzle in puzzles:
        start = time.process_time()
        verdict = backend.check_unique(puzzle)
        times.append(time.process_time() - start)
        verdicts[verdict.kind.value] = verdicts.get(verdict.kind.value, 0) + 1
    times.sort()
    return 1000 * statistics.median(times), 1000 * times[int(0.9 * (len(times) - 1))], verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backends", default="native", help="comma list (default native)")
    ap.add_argument("--instances", type=int, default=30, help="instances per kind (default 30)")
    ap.add_argument("--givens", type=int, default=28, help="givens per instance (default 28)")
    ap.add_argument("--skip-kinds", action="store_true", help="killer-200 only")
    ap.add_argument("--generate", type=int, default=10, help="killer puzzles to make (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    inst = _instances_module()
    names = [b for b in args.backends.split(",") if b]
    print(f"{'set':<20} {'backend':<8} {'median ms':>10} {'p90 ms':>8}  verdicts")
    killers = [p for p, _ in inst.killer_puzzles()]
    sets: list[tuple[str, list[Any]]] = []
    if killers:
        sets.append(("killer-200", killers))
    if not args.skip_kinds:
        rng = random.Random(args.seed)
        for kind in inst.KINDS:
            puzzles = [
                inst.random_instance(kind, Shape(3, 3), rng, args.givens)[0]
                for _ in range(args.instances)
            ]
            sets.append((kind, puzzles))
    for name in names:
        backend = get_backend(name)
        backend.check_unique(inst.random_instance("killer", Shape(3, 3), random.Random(0), 30)[0])
        for label, puzzles in sets:
            median, p90, verdicts = _times(backend, puzzles)
            words = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
            print(f"{label:<20} {name:<8} {median:10.3f} {p90:8.3f}  {words}")
    if args.generate:
        spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), killer=KillerOptions())
        start = time.process_time()
        made = list(generate(spec, count=args.generate, seed=args.seed))
        seconds = (time.process_time() - start) / len(made)
        cages = statistics.mean(m.cages or 0 for m in made)
        givens = statistics.mean(m.clues for m in made)
        print(
            f"generate --variant killer (native, 9x9): {seconds:.3f} s CPU per puzzle, "
            f"mean {cages:.1f} cages, {givens:.2f} givens"
        )


if __name__ == "__main__":
    main()
