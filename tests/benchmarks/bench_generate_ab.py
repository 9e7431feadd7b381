"""Old-vs-new race of minimal 9x9 generation: two source trees, each
with its extension built in place, timed in alternating child processes on the same
seeds, thread CPU time around ``generate_one`` (everything of a puzzle included).

    python tests/benchmarks/bench_generate_ab.py OLD_TREE NEW_TREE --rounds 10 --per-round 1000

A tree is a folder holding ``sudoku_model``, ``backends`` and ``native_backtrack`` with
its ``_core`` extension built (for instance ``git archive REV sudoku_model backends
native_backtrack | tar -x -C DIR`` and the extension compiled into it); it goes first on
the child's ``PYTHONPATH``. Each round runs A then B (or B then A, alternately) on the same
puzzle indices; the per-round ratio B / A is printed with its median, and the children
check that both trees made the same puzzles (a digest of every puzzle line).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import hashlib, json, sys, time
from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model.generate import GenerationSpec, engine_for, generate_one, puzzle_seed
import sudoku_model
from sudoku_model import native_backtrack
seed, first, count, symmetry = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
spec = GenerationSpec(RuleSet.classic(Shape(3, 3)), symmetry=symmetry)
engine = engine_for(get_backend("native"))
generate_one(spec, engine, seed=1)
made = []
start = time.thread_time()
for i in range(first, first + count):
    made.append(generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i))
spent = time.thread_time() - start
digest = hashlib.sha256("".join(m.puzzle.givens.to_line() for m in made).encode()).hexdigest()
print(json.dumps({"seconds": spent / count, "digest": digest,
                  "where": [native_backtrack.__file__, sudoku_model.__file__]}))
"""


def child(tree: Path, seed: int, first: int, count: int, symmetry: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(seed), str(first), str(count), symmetry],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,  # `python -c` puts the working folder first on sys.path
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"child on {tree} failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout)
    where = result["where"]
    assert isinstance(where, list)
    if not all(str(w).startswith(str(tree)) for w in where):
        raise SystemExit(f"the child on {tree} imported {where}: build the tree in place")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--symmetry", default="none")
    args = parser.parse_args(argv)
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    old_s: list[float] = []
    new_s: list[float] = []
    for r in range(args.rounds):
        first = r * args.per_round
        order = [("old", args.old), ("new", args.new)]
        if r % 2:
            order.reverse()
        got = {
            name: child(tree.resolve(), args.seed, first, args.per_round, args.symmetry)
            for name, tree in order
        }
        if got["old"]["digest"] != got["new"]["digest"]:
            raise SystemExit(f"round {r}: the trees made different puzzles")
        old_s.append(float(got["old"]["seconds"]))  # type: ignore[arg-type]
        new_s.append(float(got["new"]["seconds"]))  # type: ignore[arg-type]
        print(
            f"round {r}: old {old_s[-1] * 1e6:6.1f} us  new {new_s[-1] * 1e6:6.1f} us  "
            f"new/old {new_s[-1] / old_s[-1]:.3f}",
            flush=True,
        )
    ratios = [b / a for a, b in zip(old_s, new_s)]
    print(
        f"median old {statistics.median(old_s) * 1e6:.1f} us, new "
        f"{statistics.median(new_s) * 1e6:.1f} us per puzzle; new/old median "
        f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}); "
        f"same puzzles in every round ({args.rounds} x {args.per_round}, thread CPU time, "
        "alternated)"
    )


if __name__ == "__main__":
    main()
