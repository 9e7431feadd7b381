"""``sudoku convert FILE --to line|block|csv|json|jsonl|iss|pencilmark|pmgrid|LAYOUT``
(LAYOUT: one of the ML layouts of :mod:`sudoku_model.mlformats`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from typing import Any

from .common import (
    CliError,
    Outcome,
    add_budget_options,
    add_input_options,
    budget_from,
    iter_inputs,
    output_alphabet,
    prefetch,
    refuse_output_over_inputs,
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
    from ..mlformats import LAYOUTS

    p.add_argument(
        "--to",
        required=True,
        choices=["line", "block", "csv", "json", "jsonl", "iss", "pencilmark", "pmgrid", *LAYOUTS],
        help="output format, or an ML layout (the answer is solved when the input has "
        "none; rating and difficulty are kept from the input's columns, else computed)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    p.add_argument("--blank", default=".", help="symbol for empty cells (default '.')")
    p.add_argument(
        "--to-alphabet",
        default=None,
        choices=["1-9A-Z", "0-F"],
        help="symbols to write (default: the input alphabet)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the backtrack count written as rating (ML layouts; default 0)",
    )
    add_input_options(p)
    add_budget_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..formats import write_records

    if len(args.blank) != 1:
        raise CliError(f"--blank must be one character, got {args.blank!r}")
    alphabet = output_alphabet(args)  # one alphabet for the whole output file
    if args.blank in alphabet.symbols[:9]:
        raise CliError(f"--blank {args.blank!r} is a digit symbol of the {alphabet.name} alphabet")
    refuse_output_over_inputs(args.output, [args.input])
    # A missing input or a bad input option fails here, before the output is truncated.
    records = prefetch(iter_inputs(args.input, args))
    outcome = Outcome()
    if args.to in _layouts():
        return _convert_to_layout(args, records, outcome)

    def good() -> Iterator[tuple[Any, Any]]:
        for rec in records:
            if rec.error is not None:
                outcome.malformed(rec.error)
                continue
            yield rec.puzzle, rec.solution

    with writing(args.output) as out:
        write_records(good(), args.to, out, blank=args.blank, alphabet=alphabet)
    return outcome.code


def _layouts() -> dict[str, Any]:
    from ..mlformats import LAYOUTS

    return LAYOUTS


def _convert_to_layout(args: argparse.Namespace, records: Iterator[Any], outcome: Outcome) -> int:
    """Write an ML layout: the answer is the input's solution when it has one (checked to
    be the unique solution), else solved; ``rating`` and ``difficulty`` come from the
    input's columns of those names, else they are computed (the backtrack count of
    :func:`sudoku_model.dataset.backtrack_count` with ``--seed``; the grader's level). A
    puzzle without a unique solution, or whose solution is wrong, is reported and skipped
    (exit 1)."""
    from ..dataset import GUESS_BACKEND, backtrack_count
    from ..mlformats import LayoutRow, write_layout
    from .common import get_backend_or_exit

    layout = _layouts()[args.to]
    budget = budget_from(args)
    backend = get_backend_or_exit(GUESS_BACKEND)

    def rows() -> Iterator[LayoutRow]:
        from ..logic import grade

        for rec in records:
            if rec.error is not None:
                outcome.malformed(rec.error)
                continue
            verdict = backend.check_unique(rec.puzzle, budget=budget)
            if not verdict.is_unique or verdict.solution is None:
                print(
                    f"{rec.source}:{rec.line}: {verdict.kind.value}: no answer to write; skipped",
                    file=sys.stderr,
                )
                outcome.no()
                continue
            if rec.solution is not None and rec.solution != verdict.solution:
                print(
                    f"{rec.source}:{rec.line}: the published solution is wrong; skipped",
                    file=sys.stderr,
                )
                outcome.no()
                continue
            extra = rec.extra or {}
            rating: int | None = None
            if "rating" in layout.roles:
                given = extra.get("rating", "").strip()
                if given.lstrip("-").isdigit():
                    rating = int(given)
                else:
                    rating = backtrack_count(
                        rec.puzzle, seed=args.seed, backend=backend, budget=budget
                    )
            difficulty = extra.get("difficulty") or None
            if "difficulty" in layout.roles and difficulty is None:
                difficulty = grade(rec.puzzle, budget=budget, keep_steps=False).level
            yield LayoutRow(
                rec.puzzle.givens,
                verdict.solution,
                source=extra.get("source") or os.path.basename(rec.source),
                rating=rating,
                id=extra.get("id") or str(rec.position),
                difficulty=difficulty,
            )

    with writing(args.output) as out:
        write_layout(rows(), layout, out)
    return outcome.code
