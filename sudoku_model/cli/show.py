"""``sudoku show PUZZLE|FILE``: print puzzles as pretty blocks."""

from __future__ import annotations

import argparse

from .common import Outcome, add_input_options, iter_inputs, output_alphabet


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="print puzzles as pretty blocks",
        description="Print each puzzle of PUZZLE|FILE|bundled:NAME|- as a "
        "block with box separators (a pencilmark puzzle: its candidates, as a PM grid), "
        "then one line per kind of rule beyond rows, columns, boxes and the named variants "
        "(cages, lines, dots, clues outside the grid...) with its cells; report clashing "
        "givens.",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument("--plain", action="store_true", help="no box separators")
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..formats.pencilmark import format_pmgrid
    from ..rule_text import describe_rules

    outcome = Outcome()
    first = True
    for rec in iter_inputs(args.input, args):
        if rec.error is not None:
            outcome.malformed(rec.error)
            continue
        puzzle = rec.puzzle
        if not first:
            print()
        first = False
        variants = "+".join(puzzle.rules.variants)
        print(
            f"# {rec.source}:{rec.line}  {puzzle.shape.name}  {variants}  "
            f"{puzzle.clues} clues" + (f"  ({rec.comment})" if rec.comment else "")
        )
        alphabet = output_alphabet(args, rec)
        if puzzle.is_pencilmark:  # its candidates, as a PM grid
            print(format_pmgrid(puzzle, separators=not args.plain, alphabet=alphabet))
        else:
            print(puzzle.givens.to_block(separators=not args.plain, alphabet=alphabet))
        for text in describe_rules(puzzle.rules):
            print(f"# {text}")
        for conflict in puzzle.conflicts():
            print(f"# clash: {conflict.describe(puzzle.shape)}")
    return outcome.code
