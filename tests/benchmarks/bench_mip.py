"""Benchmark of the MIP backend (``mip:highs``) against the others: CPU time per puzzle.

    python tests/benchmarks/bench_mip.py classic --collection top95 --sample 5
    python tests/benchmarks/bench_mip.py counts              # counts-43, count up to 1000
    python tests/benchmarks/bench_mip.py pencilmark \\
        ../shared/data/pencilmark/minisat_bt_1m+-20.txt --sample 3

``classic``: ``check_unique`` on a sample of a bundled collection, per backend.
``counts``: ``count(limit=1000)`` on every puzzle of counts-43, per backend (the counts are
checked against the collection's comments). ``pencilmark``: count up to 2 on pencilmark
puzzles, 729 characters a line (character 9*cell+d is the digit d+1 when it is a
candidate of the cell, '.' when not): classic rules plus a ``Domain("candidates", ...)``
rule for the cells with 2..8 candidates, givens for the cells with one. The conversion is
this script's own (not a reader of the toolkit).

Every question gets ``--budget-seconds`` of wall time (default 900: the toolkit's default
of 60 s ends the native search on the hardest pencilmark sets before it answers on a busy
machine). Times are CPU time of this process (``time.process_time``, helper threads included) around
each call, median and total per backend; on a shared machine compare in alternation
(the backends take turns puzzle by puzzle).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, formats, get_backend
from sudoku_model.data import bundled_path
from sudoku_model.rules import Domain


def pencilmark_puzzle(line: str) -> Puzzle:
    """The puzzle of one 729-character pencilmark line (see the module docs).

    Raises:
        ValueError: for a line of another length or a cell without candidates.
    """
    line = line.strip()
    if len(line) != 729:
        raise ValueError(f"a pencilmark line has 729 characters, not {len(line)}")
    shape = Shape(3, 3)
    givens = [0] * 81
    cells: list[tuple[int, frozenset[int]]] = []
    for cell in range(81):
        digits = frozenset(d + 1 for d in range(9) if line[9 * cell + d] != ".")
        if not digits:
            raise ValueError(f"cell {cell} has no candidate")
        if len(digits) == 1:
            givens[cell] = next(iter(digits))
        elif len(digits) < 9:
            cells.append((cell, digits))
    rules = RuleSet.classic(shape)
    if cells:
        rules = rules.with_rules([Domain("candidates", tuple(cells))])
    return Puzzle(Grid(shape, givens), rules)


def _bundled(name: str) -> list[tuple[Puzzle, str]]:
    out = []
    for record in formats.iter_records(bundled_path(name)):
        assert record.error is None, record.error
        out.append((record.puzzle, record.comment))
    return out


def _race(
    backends: dict[str, Any], puzzles: list[Puzzle], ask: str, limit: int, budget: Budget
) -> None:
    times: dict[str, list[float]] = {name: [] for name in backends}
    answers: dict[str, list[Any]] = {name: [] for name in backends}
    for puzzle in puzzles:
        for name, backend in backends.items():
            start = time.process_time()
            if ask == "unique":
                answer: Any = backend.check_unique(puzzle, budget=budget).kind.value
            else:
                result = backend.count(puzzle, limit=limit, budget=budget)
                answer = (result.count, result.complete)
            times[name].append(time.process_time() - start)
            answers[name].append(answer)
    for name in backends:
        t = times[name]
        print(
            f"{name:>12}: median {statistics.median(t) * 1e3:9.1f} ms  max {max(t):8.3f} s  "
            f"total {sum(t):8.2f} s  ({len(t)} puzzles)"
        )
    first = next(iter(answers.values()))
    agree = all(a == first for a in answers.values())
    print(f"answers agree: {agree}")
    if not agree:
        for name, answer in answers.items():
            print(f"{name:>12}: {answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("classic", "counts", "pencilmark"))
    parser.add_argument("path", nargs="?", help="pencilmark: the file of 729-character lines")
    parser.add_argument("--collection", default="top95", help="classic: a bundled collection")
    parser.add_argument("--sample", type=int, default=5, help="puzzles (classic, pencilmark)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", default="mip:highs,native,pysat")
    parser.add_argument(
        "--budget-seconds", type=float, default=900.0, help="per question (default 900)"
    )
    args = parser.parse_args()
    budget = Budget(seconds=args.budget_seconds)
    backends = {name: get_backend(name) for name in args.backends.split(",") if name}
    for backend in backends.values():  # a first call loads each solver
        backend.solve(Puzzle.empty(Shape(3, 3)))
    if args.mode == "classic":
        items = _bundled(args.collection)
        sample = random.Random(args.seed).sample(items, min(args.sample, len(items)))
        _race(backends, [p for p, _ in sample], "unique", 2, budget)
    elif args.mode == "counts":
        items = _bundled("counts-43")
        _race(backends, [p for p, _ in items], "count", 1000, budget)
        for name, backend in backends.items():
            wrong = [
                c
                for p, c in items
                if backend.count(p, limit=1000).count != int(c.partition(":")[0])
            ]
            print(f"{name}: {len(items) - len(wrong)} of {len(items)} counts as published")
    else:
        if not args.path:
            parser.error("pencilmark needs the path of a file of 729-character lines")
        lines = [ln for ln in Path(args.path).read_text().splitlines() if ln.strip()]
        puzzles = [pencilmark_puzzle(ln) for ln in lines[: args.sample]]
        _race(backends, puzzles, "count", 2, budget)


if __name__ == "__main__":
    main()
