"""The ``sudoku`` command line.

Each command lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its sub-parser and sets ``func`` (a callable
taking the parsed namespace and returning the exit code). Modules import solver packages
only inside their ``func`` so that ``sudoku --help`` stays fast.

Exit codes: 0 fine, 1 the answer is "no" (a wrong solution, a puzzle that is not unique),
2 usage or input error (printed as ``file:line:col: message``, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import ParseError, SudokuError
from .common import EXIT_USAGE, CliError

__all__ = ["build_parser", "main", "run"]

#: Command modules, in the order ``sudoku --help`` lists them.
COMMAND_MODULES = (
    "show",
    "check",
    "convert",
    "backends_cmd",
    "solve",
    "cnf",
    "generate",
    "verify",
    "logic",
    "compare",
    "render",
    "canon",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Sudoku modelling toolkit: solve, count, verify, generate and compare "
        "backends.",
    )
    parser.add_argument("--version", action="version", version=f"sudoku-model {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # command not built in this checkout
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns (and exits with) the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        code = int(args.func(args) or 0)
    except (ParseError, CliError) as exc:
        print(f"sudoku: {exc}" if isinstance(exc, CliError) else str(exc), file=sys.stderr)
        code = EXIT_USAGE
    except SudokuError as exc:
        print(f"sudoku: {exc}", file=sys.stderr)
        code = EXIT_USAGE
    except BrokenPipeError:
        # `sudoku ... | head`: the reader left; not an error of ours.
        sys.stderr.close()
        code = 0
    except KeyboardInterrupt:
        print("sudoku: interrupted", file=sys.stderr)
        code = 130
    return code


def run() -> None:
    """Console-script entry point: ``sys.exit(main())``."""
    raise SystemExit(main())
