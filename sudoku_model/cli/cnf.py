"""``sudoku cnf PUZZLE``: write a puzzle as DIMACS CNF, to feed any SAT solver.

Variables are ``cell * n + digit`` (cells 0-based row-major, digits 1..n); with
``--simplify`` they are numbered compactly and the map is written as ``c var`` comments.
"""

from __future__ import annotations

import argparse

from sudoku_model.backends.encodings import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS

from .common import (
    EXIT_OK,
    CliError,
    add_input_options,
    check_output_path,
    iter_inputs,
    output_alphabet,
    refuse_output_over_inputs,
    writing,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cnf",
        help="write a puzzle as DIMACS CNF",
        description="Encode one puzzle (rules plus givens) as DIMACS CNF for any SAT solver. "
        "Variable cell*n+digit means 'cell holds digit' (cells 0-based row-major). "
        "Encodings of Lynce & Ouaknine (2006); --simplify drops what the givens decide "
        "(Kwon & Jain 2006) and lists the compact variable map as 'c var' comments.",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument(
        "--encoding",
        default=DEFAULT_ENCODING,
        choices=ENCODINGS,
        help=f"clause set (default: {DEFAULT_ENCODING}, the fastest to solve)",
    )
    p.add_argument(
        "--amo",
        default=DEFAULT_AMO,
        choices=AMO_ENCODINGS,
        help=f"at-most-one encoding (default: {DEFAULT_AMO}; others add auxiliary "
        "variables after the cell variables)",
    )
    p.add_argument(
        "--simplify",
        action="store_true",
        help="leave out everything the givens decide (smaller, for one-off large grids)",
    )
    p.add_argument(
        "--index",
        type=int,
        default=1,
        metavar="N",
        help="which puzzle of a file to encode (1-based, default 1)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sudoku_model.backends.cnf import encode_puzzle

    if args.index < 1:
        raise CliError(f"--index counts from 1, got {args.index}")
    if args.output:
        check_output_path(args.output)  # before the (possibly long) encoding
        refuse_output_over_inputs(args.output, [args.input])
    record = None
    for k, rec in enumerate(iter_inputs(args.input, args), start=1):
        if k == args.index:
            record = rec
            break
    if record is None:
        raise CliError(f"{args.input}: has no puzzle number {args.index}")
    if record.error is not None:
        raise record.error
    puzzle = record.puzzle
    cnf = encode_puzzle(puzzle, encoding=args.encoding, amo=args.amo, simplify=args.simplify)
    line = puzzle.to_line(alphabet=output_alphabet(args, record))
    cnf.comments.insert(0, f"puzzle {line} ({record.source}:{record.line})")
    if args.simplify and cnf.variables.table:
        shape = puzzle.shape
        cnf.comments.extend(
            f"var {v} {shape.cell_name(c)} {d}" for (c, d), v in cnf.variables.table.items()
        )
    text = cnf.to_dimacs()
    with writing(args.output) as out:
        out.write(text)
    return EXIT_OK
