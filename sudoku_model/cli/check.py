"""``sudoku check PUZZLE SOLUTION``: is this filled grid a correct solution, and if not,
where not."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_NO, EXIT_OK, CliError, add_input_options, iter_inputs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="check a filled grid against a puzzle",
        description="Say whether SOLUTION is a correct solution of PUZZLE "
        "(keeps every given, fills every cell, breaks no rule). "
        "Exit 0 when it is, 1 when it is not.",
    )
    p.add_argument("puzzle", metavar="PUZZLE")
    p.add_argument("solution", metavar="SOLUTION")
    add_input_options(p)
    p.set_defaults(func=run)


def _one(arg: str, args: argparse.Namespace, what: str):
    records = list(iter_inputs(arg, args))
    if len(records) != 1:
        raise CliError(f"{what} {arg!r}: expected one puzzle, found {len(records)}")
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    return rec.puzzle


def run(args: argparse.Namespace) -> int:
    puzzle = _one(args.puzzle, args, "PUZZLE")
    solution = _one(args.solution, args, "SOLUTION").givens
    if solution.shape != puzzle.shape:
        raise CliError(f"SOLUTION is a {solution.shape.name} grid; PUZZLE is {puzzle.shape.name}")
    report = puzzle.check(solution)
    if report.ok:
        print("correct: the grid solves the puzzle")
        return EXIT_OK
    print("wrong:", file=sys.stdout)
    for problem in report.problems:
        print(f"  {problem.kind}: {problem.message}")
    return EXIT_NO
