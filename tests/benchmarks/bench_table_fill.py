"""The generic random fill (``Backend.random_solution``'s default: pysat, cpsat and logic)
on the ISS examples whose rules hold tables, CPU seconds per example.

    python tests/benchmarks/bench_table_fill.py [--backend pysat] [--names A,B,...]

The fill checks every rule after each placement (``RuleSet.violations``); a table scope
that is partly filled is checked against the table's index by position and digit. Run it
from two trees (``PYTHONPATH=OLD_TREE python ...``, then this tree) for old against new;
the answers (a grid, or None when the fill's node limit ran out) must be the same.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from sudoku_model.formats.iss import IssError, puzzle_from_iss
from sudoku_model.rules.kinds import Table
from sudoku_model.solving import get_backend

DATA = Path(__file__).resolve().parents[1] / "data" / "iss-examples.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="pysat")
    ap.add_argument("--names", default="", help="comma list of example names (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    wanted = {n for n in args.names.split(",") if n}
    backend = get_backend(args.backend)
    total = 0.0
    for example in json.loads(DATA.read_text(encoding="utf-8")):
        if wanted and example["name"] not in wanted:
            continue
        try:
            puzzle = puzzle_from_iss(example["input"])
        except IssError:
            continue
        if not any(isinstance(r, Table) for r in puzzle.rules.rules):
            continue
        start = time.process_time()
        grid = backend.random_solution(puzzle.rules, random.Random(args.seed))
        spent = time.process_time() - start
        total += spent
        answer = "None" if grid is None else grid.to_line()
        print(f"{spent:8.2f} s  {example['name']}: {answer}", flush=True)
    print(f"{total:8.2f} s  in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
