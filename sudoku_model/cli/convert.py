"""``sudoku convert FILE --to line|block|csv|json|jsonl``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from .common import (
    CliError,
    Outcome,
    add_input_options,
    iter_inputs,
    output_alphabet,
    prefetch,
    writing,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="convert puzzles between formats",
        description="Read puzzles in any format and write them in another. "
        "Malformed puzzles are reported on stderr and skipped "
        "(exit 2 at the end).",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument("--to", required=True, choices=["line", "block", "csv", "json", "jsonl"])
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    p.add_argument("--blank", default=".", help="symbol for empty cells (default '.')")
    p.add_argument(
        "--to-alphabet",
        default=None,
        choices=["1-9A-Z", "0-F"],
        help="symbols to write (default: the input alphabet)",
    )
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..formats import write_records

    if len(args.blank) != 1:
        raise CliError(f"--blank must be one character, got {args.blank!r}")
    alphabet = output_alphabet(args)  # one alphabet for the whole output file
    if args.blank in alphabet.symbols[:9]:
        raise CliError(f"--blank {args.blank!r} is a digit symbol of the {alphabet.name} alphabet")
    # A missing input or a bad input option fails here, before the output is truncated.
    records = prefetch(iter_inputs(args.input, args))
    outcome = Outcome()

    def good() -> Iterator[tuple[Any, Any]]:
        for rec in records:
            if rec.error is not None:
                outcome.malformed(rec.error)
                continue
            yield rec.puzzle, rec.solution

    with writing(args.output) as out:
        write_records(good(), args.to, out, blank=args.blank, alphabet=alphabet)
    return outcome.code
