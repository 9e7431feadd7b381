"""``sudoku check-certificate DIR|FILE``: re-check the certificates ``verify --certify``
wrote, trusting neither our solvers nor our main encoder (:mod:`sudoku_model.certificates`).

One line per puzzle on standard output (valid, or the exact reason it is not), a summary on
standard error. Exit 0 when every puzzle's certificate is valid, 1 when some is not (or a
puzzle was not certified), 2 for a manifest that cannot be read or a bad option, 130/143
when interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..executor import Interrupted, stop_on_signals
from .common import EXIT_NO, EXIT_OK, CliError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check-certificate",
        help="re-check certificates written by verify --certify (DRAT proofs, CNF, solutions)",
        description="Rebuild each puzzle's CNF with a small encoder of its own and compare "
        "it with the shipped one, check solutions and witnesses against the rules, check "
        "each DRAT proof with an independent checker and every file's sha256. One line per "
        "puzzle: valid, or why not. Exit 0 when all are valid, 1 when some are not.",
        epilog="examples: sudoku verify bundled:top95 --certify certs && "
        "sudoku check-certificate certs | "
        "sudoku check-certificate certs/manifest.json --checker drat-trim --jobs 2",
    )
    p.add_argument("path", metavar="DIR|FILE", help="certificate directory or its manifest.json")
    p.add_argument(
        "--checker",
        choices=["native", "dratify", "dratify-python", "drat-trim"],
        default="native",
        help="DRAT checker: native (default; the toolkit's own forward DRUP/DRAT checker in "
        "C), dratify (its Rust engine when the 'certify' extra is installed), "
        "dratify-python (the pure-Python engine), drat-trim (from PATH)",
    )
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="worker processes")
    p.add_argument(
        "--invalid-only", action="store_true", help="print only the puzzles that are not valid"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..certificates import CertificateFormatError, check_certificates

    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    start = time.perf_counter()
    valid = invalid = 0
    cpu = 0.0
    code: int | None = None
    with stop_on_signals(linger=True):
        try:
            for check in check_certificates(args.path, checker=args.checker, jobs=args.jobs):
                cpu += check.seconds
                if check.valid:
                    valid += 1
                else:
                    invalid += 1
                if not (check.valid and args.invalid_only):
                    print(check.describe())
        except CertificateFormatError as exc:
            raise CliError(str(exc)) from None
        except ValueError as exc:
            raise CliError(str(exc)) from None
        except Interrupted as exc:
            code = exc.exit_code
    if not args.quiet:
        total = valid + invalid
        print(
            f"sudoku check-certificate: {valid:,} of {total:,} valid, {invalid:,} not "
            f"({args.checker}; {time.perf_counter() - start:.2f} s, "
            f"{1000 * cpu / max(total, 1):.2f} ms CPU per puzzle)",
            file=sys.stderr,
        )
    if code is not None:
        return code
    return EXIT_NO if invalid else EXIT_OK
