"""The ``sudoku`` command line.

Each command lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its sub-parser and sets ``func`` (a callable
taking the parsed namespace and returning the exit code). Modules import solver packages
only inside their ``func`` so that ``sudoku --help`` stays fast.

Exit codes, one rule for every command (:func:`sudoku_model.cli.common.exit_code`): 0 fine,
1 the answer is "no" (a wrong solution, a puzzle that is not unique), 2 usage or input
error, any malformed record included (printed as ``file:line:col: message``, never a
traceback; input errors win over "no"), 130 after SIGINT, 143 after SIGTERM.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import ParseError, SudokuError
from .common import EXIT_SIGINT, EXIT_SIGTERM, EXIT_USAGE, CliError, Terminated

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
    "edit",
    "dataset",
    "certify",
)


#: The module of each command (a test keeps it equal to what the modules register).
COMMANDS = {
    "show": "show",
    "check": "check",
    "convert": "convert",
    "backends": "backends_cmd",
    "solve": "solve",
    "count": "solve",
    "cnf": "cnf",
    "generate": "generate",
    "verify": "verify",
    "explain": "logic",
    "hint": "logic",
    "rate": "logic",
    "compare": "compare",
    "render": "render",
    "canon": "canon",
    "dedup": "canon",
    "same": "canon",
    "edit": "edit",
    "dataset": "dataset",
    "check-certificate": "certify",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With ``only`` (a command name of :data:`COMMANDS`), only
    that command's module is imported and registered: each imports much of the toolkit,
    and the start of a short run (``sudoku verify`` on one file) should not pay for all."""
    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Sudoku modelling toolkit: solve, count, verify, generate and compare "
        "backends.",
    )
    parser.add_argument("--version", action="version", version=f"sudoku-model {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = (COMMANDS[only],) if only in COMMANDS else COMMAND_MODULES
    for name in modules:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # command not built in this checkout
            raise
        module.register(sub)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parse_args``, except that an unknown option of a subcommand (``sudoku verify
    --bakend x``) is reported with that subcommand's usage and a "did you mean", not with
    the top-level usage (argparse hands the leftovers to the top-level parser)."""
    args, extras = parser.parse_known_args(argv)
    if not extras:
        return args
    sub = _subparser(parser, getattr(args, "command", None))
    if sub is None:
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    # Compared without the dashes, which every option shares and would make "--zz" look
    # like "--size".
    known = {s[2:]: s for action in sub._actions for s in action.option_strings if s[:2] == "--"}
    hints = []
    for extra in extras:
        if extra.startswith("-"):
            word = extra.split("=", 1)[0].lstrip("-")
            import difflib  # only for a mistyped command

            close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
            if close:
                hints.append(f"{extra}: did you mean {known[close[0]]}?")
    message = f"unrecognized arguments: {' '.join(extras)}"
    if hints:
        message += " (" + "; ".join(hints) + ")"
    sub.error(message)


def _subparser(
    parser: argparse.ArgumentParser, command: str | None
) -> argparse.ArgumentParser | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            sub: argparse.ArgumentParser = action.choices[command]
            return sub
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see :mod:`sudoku_model.cli.common`).

    Every failure becomes one line on standard error, never a traceback: usage and input
    errors, an ``OSError`` (an output that cannot be written, even one that fails only at
    close) and any unexpected exception all exit 2, never 1 (1 means the answer is "no").
    Set ``SUDOKU_DEBUG=1`` to get the traceback of an unexpected exception instead.
    """
    from . import common

    common._opened_outputs.clear()
    words = list(sys.argv[1:] if argv is None else argv)
    # The first word is the command unless it is an option (--help, --version): then every
    # command is registered, so the help lists them all.
    parser = build_parser(words[0] if words and not words[0].startswith("-") else None)
    args = _parse(parser, argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        code = int(args.func(args) or 0)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            print(f"sudoku: standard output: cannot write: {exc.strerror or exc}", file=sys.stderr)
            code = EXIT_USAGE
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
        code = EXIT_SIGINT
    except Terminated:
        print("sudoku: terminated", file=sys.stderr)
        code = EXIT_SIGTERM
    except OSError as exc:
        print(f"sudoku: {common.describe_os_error(exc)}", file=sys.stderr)
        code = EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit 2
        if os.environ.get("SUDOKU_DEBUG"):
            raise
        detail = str(exc).splitlines()[0] if str(exc) else ""
        print(
            f"sudoku: internal error: {type(exc).__name__}"
            + (f": {detail}" if detail else "")
            + " (a bug: please report it with the command line; SUDOKU_DEBUG=1 shows where)",
            file=sys.stderr,
        )
        code = EXIT_USAGE
    return code


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def run() -> None:
    """Console-script entry point: ``sys.exit(main())``, with SIGTERM turned into
    :class:`~sudoku_model.cli.common.Terminated` (outputs closed, exit 143). Only here, not
    in :func:`main`, which tests and notebooks call in-process."""
    signal.signal(signal.SIGTERM, _terminate)
    code = main()
    # The process ends now: the collections of the interpreter's teardown would walk every
    # object of every imported module (14 ms of a 100 ms `sudoku verify` of one puzzle;
    # after a Dask run, all of distributed's: 0.4-0.5 s of a 2-core run's wall time,
    # tests/benchmarks/bench_scaling.py). Frozen objects are skipped; outputs are closed
    # and stdout flushed by main already.
    gc.freeze()
    raise SystemExit(code)
