"""Pieces shared by the command modules: exit codes, input resolution, common options."""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any, TextIO

from ..errors import SudokuError
from ..geometry import Shape, parse_box
from ..grid import ALPHABETS, DEFAULT_ALPHABET, Alphabet
from ..solving import DEFAULT_BACKEND

__all__ = [
    "EXIT_NO",
    "EXIT_OK",
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "EXIT_USAGE",
    "CliError",
    "Outcome",
    "Terminated",
    "exit_code",
    "add_backend_option",
    "add_budget_options",
    "add_input_options",
    "budget_from",
    "input_options",
    "is_terminal",
    "iter_inputs",
    "json_dumps",
    "open_output",
    "output_alphabet",
    "check_output_path",
    "refuse_output_over_inputs",
    "describe_os_error",
    "prefetch",
    "require_matplotlib",
    "writing",
]

# The exit-code rule, the same for every command (README "Exit codes"):
#   0  fine;
#   1  the answer is "no": a puzzle that is not unique or has no solution, a wrong
#      solution, backends that disagree, a request that could not be met;
#   2  usage or input error, any malformed input record included: input errors win over
#      "no", so a run that met bad input never exits 0 or 1; an unwritable output and an
#      unexpected exception are 2 too (never 1, which would read as an answer);
#   130 / 143  interrupted by SIGINT / SIGTERM.
EXIT_OK = 0
EXIT_NO = 1
EXIT_USAGE = 2
EXIT_SIGINT = 130
EXIT_SIGTERM = 143


def exit_code(*, input_errors: int = 0, noes: int = 0) -> int:
    """The exit code of a run that met ``input_errors`` bad inputs (malformed records,
    unsupported puzzles) and ``noes`` "no" answers: input errors win over "no".

    >>> exit_code(), exit_code(noes=3), exit_code(input_errors=1, noes=3)
    (0, 1, 2)
    """
    if input_errors:
        return EXIT_USAGE
    return EXIT_NO if noes else EXIT_OK


class Outcome:
    """What a command met while it ran, turned into its exit code by :func:`exit_code`.

    ``malformed(message)`` prints the ``file:line:col: message`` on standard error and
    counts an input error; ``no()`` counts a "no" answer; ``code`` is the exit code.
    """

    def __init__(self) -> None:
        self.input_errors = 0
        self.noes = 0

    def malformed(self, message: object) -> None:
        """Report one bad input (a malformed record, an unsupported puzzle) on stderr."""
        print(str(message), file=sys.stderr)
        self.input_errors += 1

    def no(self) -> None:
        """Count one "no" answer (not unique, no solution, wrong, disagreement)."""
        self.noes += 1

    @property
    def code(self) -> int:
        return exit_code(input_errors=self.input_errors, noes=self.noes)


class CliError(SudokuError):
    """A usage or input problem: printed as one line, exit code 2."""


class Terminated(BaseException):
    """Raised in the main thread by the SIGTERM handler the ``sudoku`` script installs, so
    that ``finally`` blocks close outputs and the run exits 143 (like SIGINT and 130)."""


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """--box/--size, --variant, --alphabet, --format: how to read puzzle inputs."""
    g = parser.add_argument_group("input")
    g.add_argument(
        "--box",
        metavar="RxC",
        help="box shape, e.g. 3x3 or 2x3 (default: inferred from the cell count)",
    )
    g.add_argument(
        "--size",
        type=int,
        metavar="N",
        help="grid size n; the box is the squarest RxC with R*C = n",
    )
    g.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="extra rule: diagonal, windoku, anti-knight, anti-king "
        "(repeatable); jigsaw puzzles come in the JSON puzzle format",
    )
    g.add_argument(
        "--alphabet",
        default=None,
        choices=["1-9A-Z", "0-F", "A-P", "A-Y"],
        help="symbols for values: 1-9A-Z, 0-F (value 1 written 0), A-P (16x16) or A-Y "
        "(25x25) (value 1 written A); default: what the file shows (a 16x16 file with 0 and "
        "letters up to F is 0-F, one of letters only A-P), else 1-9A-Z",
    )
    g.add_argument(
        "--format",
        dest="input_format",
        default="auto",
        choices=INPUT_FORMATS,
        help="input format (default: from the file name and content)",
    )


#: The names of :data:`sudoku_model.formats.FORMATS`, spelled here so that building the
#: parser imports no reader (tests/cli checks that the two lists agree).
INPUT_FORMATS = (
    "auto",
    "line",
    "block",
    "csv",
    "json",
    "jsonl",
    "fpuzzles",
    "sudokupad",
    "iss",
    "pencilmark",
    "pmgrid",
)


def input_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments for :func:`sudoku_model.formats.iter_records` from the options."""
    shape: Shape | None = None
    try:
        if getattr(args, "box", None):
            shape = parse_box(args.box)
        elif getattr(args, "size", None):
            shape = parse_box(str(args.size))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    # None: the reader infers the alphabet from the file, or refuses naming --alphabet
    told = getattr(args, "alphabet", None)
    alphabet: Alphabet | None = ALPHABETS[told] if told else None
    variants: list[str] = []
    for v in getattr(args, "variant", []) or []:
        variants.extend(x for x in v.split(",") if x)
    from ..rules import canonical_variant

    try:
        variants = [canonical_variant(v) for v in variants]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return {
        "shape": shape,
        "alphabet": alphabet,
        "variants": tuple(variants),
        "fmt": getattr(args, "input_format", "auto"),
    }


def output_alphabet(args: argparse.Namespace, record: Any = None) -> Alphabet:
    """The alphabet output is written in: ``--to-alphabet`` when the command has it and it
    was given, else the alphabet the input was read in (so ``show`` never turns ``0-F``
    input into ``1-9A-G``).

    Every command that prints puzzles, solutions or values takes its alphabet from here, so
    the record's own alphabet plugs in at one place.
    """
    told = getattr(args, "to_alphabet", None)
    if told:
        return ALPHABETS[told]
    if record is not None and getattr(record, "alphabet", None) is not None:
        return record.alphabet  # type: ignore[no-any-return]
    alphabet: Alphabet | None = input_options(args)["alphabet"]
    return alphabet if alphabet is not None else DEFAULT_ALPHABET


def _looks_like_path(arg: str) -> bool:
    if "://" in arg:  # a link (f-puzzles, SudokuPad): a puzzle, never a file name
        return False
    return os.sep in arg or arg.endswith((".txt", ".gz", ".csv", ".json", ".jsonl", ".sdk", ".sdm"))


def iter_inputs(
    arg: str, args: argparse.Namespace, *, raw: bool = False, blocks: bool = False
) -> Iterator[Any]:
    """Records (see :class:`sudoku_model.formats.Record`) from a literal puzzle, a file,
    ``bundled:NAME`` or ``-`` (standard input); with ``raw``, the lines of line-format
    input unparsed (:class:`sudoku_model.formats.RawLine`), for worker processes to parse;
    with ``blocks`` too, runs of plain lines as :class:`sudoku_model.formats.RawBlock`.

    Raises:
        CliError: for a missing or unreadable file.
    """
    from .. import formats

    opts = input_options(args)
    opts["raw"] = raw
    opts["blocks"] = blocks
    if arg == "-":
        yield from formats.iter_records(sys.stdin, source="<stdin>", **opts)
        return
    if arg.startswith("bundled:"):
        # the library's own resolver (formats.resolve_source), as for iter_records callers
        try:
            records = formats.iter_records(arg, **opts)
            first = list(itertools.islice(records, 1))
        except FileNotFoundError as exc:
            raise CliError(str(exc.strerror)) from None
        yield from first
        yield from records
        return
    if os.path.isdir(arg):
        raise CliError(f"{arg}: is a directory, not a puzzle file")
    if os.path.exists(arg):
        try:
            yield from formats.iter_records(arg, **opts)
        except OSError as exc:
            raise CliError(f"{arg}: cannot read: {exc.strerror or exc}") from None
        return
    if _looks_like_path(arg):
        raise CliError(f"{arg}: no such file")
    if opts["fmt"] == "auto" and "\n" not in arg.strip():
        from ..formats.sniff import literal_format

        alphabet = opts["alphabet"] or DEFAULT_ALPHABET
        opts["fmt"] = literal_format(arg, alphabet, opts["shape"])
    yield from formats.iter_records(arg.splitlines(), source="<argument>", **opts)


def add_backend_option(parser: argparse.ArgumentParser, default: str = DEFAULT_BACKEND) -> None:
    parser.add_argument(
        "--backend",
        default=default,
        metavar="NAME",
        help=f"solver backend (default: {default}; see `sudoku backends`)",
    )


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("budget (a search that runs out answers 'unknown')")
    g.add_argument(
        "--budget-seconds", type=float, metavar="S", help="wall-time limit per puzzle (default 60)"
    )
    g.add_argument(
        "--budget-nodes",
        type=int,
        metavar="N",
        help="search-node limit per puzzle (backends that count nodes)",
    )
    g.add_argument(
        "--budget-conflicts", type=int, metavar="N", help="conflict limit per puzzle (SAT backends)"
    )


def budget_from(args: argparse.Namespace) -> Any:
    from ..solving import DEFAULT_BUDGET, Budget

    seconds = getattr(args, "budget_seconds", None)
    nodes = getattr(args, "budget_nodes", None)
    conflicts = getattr(args, "budget_conflicts", None)
    if seconds is None and nodes is None and conflicts is None:
        return DEFAULT_BUDGET
    try:
        return Budget(seconds=seconds, nodes=nodes, conflicts=conflicts)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def get_backend_or_exit(name: str) -> Any:
    """The named backend, or a :class:`CliError` naming the problem (missing extra ...)."""
    from ..solving import get_backend

    try:
        return get_backend(name)
    except (LookupError, ImportError, ValueError) as exc:
        raise CliError(str(exc)) from None


def json_dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def check_output_path(path: str) -> None:
    """Refuse an output path that cannot be written, before anything is opened or truncated.

    Raises:
        CliError: the directory is missing, the path is a directory, or it is not writable.
    """
    if path == "-":
        return
    if os.path.isdir(path):
        raise CliError(f"{path}: is a directory, not an output file")
    parent = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(parent):
        raise CliError(f"{path}: cannot write: directory {parent} does not exist")
    if os.path.exists(path):
        # /dev/null, /dev/stdout and named pipes are fine outputs; only a file that cannot be
        # written is refused here (what fails only at write time is caught at the top level).
        if not os.access(path, os.W_OK):
            raise CliError(f"{path}: cannot write: permission denied")
    elif not os.access(parent, os.W_OK):
        raise CliError(f"{path}: cannot write: directory {parent} is not writable")


def _file_id(arg: str) -> tuple[int, int] | None:
    """(device, inode) of the regular file an input argument names: a path, ``bundled:NAME``,
    ``-`` (what standard input is redirected from); None for anything else (a literal
    puzzle, a missing file, a pipe, a terminal, ``/dev/null``)."""
    try:
        if arg == "-":
            st = os.fstat(sys.stdin.fileno())
        else:
            from ..formats import resolve_source

            st = os.stat(resolve_source(arg))
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def refuse_output_over_inputs(
    output: str | None, inputs: Iterable[str | None], *, directory: bool = False
) -> None:
    """Refuse an output that is one of the inputs, before anything is opened for writing:
    the same file by device and inode, whatever the spelling (``./X``, an absolute path, a
    symbolic or a hard link, ``bundled:NAME``, ``-`` redirected from it). Every command
    that writes a file calls this with all the files it reads. With ``directory``, the
    output is a directory the command writes files into: an input inside it is refused.
    ``None`` and ``-`` (standard output), an output that does not exist yet, and inputs that
    are no regular file (a literal puzzle, a pipe) are fine.

    Raises:
        CliError: the output is (or, with ``directory``, holds) an input.
    """
    if not output or output == "-":
        return
    try:
        st = os.stat(output)
    except (OSError, ValueError):
        return  # not there yet: no input can be it
    if not directory and not stat.S_ISREG(st.st_mode):
        return  # /dev/null, /dev/stdout, a named pipe: nothing of the user's to lose
    out_id = (st.st_dev, st.st_ino)
    for arg in inputs:
        if not arg:
            continue
        if directory:
            try:
                from ..formats import resolve_source

                parent = os.stat(os.path.dirname(os.path.abspath(resolve_source(arg))) or ".")
            except (OSError, ValueError):
                continue
            if (parent.st_dev, parent.st_ino) == out_id and _file_id(arg) is not None:
                raise CliError(
                    f"{output}: holds the input {arg}, which writing into it could overwrite; "
                    "choose another directory"
                )
            continue
        if _file_id(arg) == out_id:
            same = "" if arg == output else f" (the same file as the input {arg})"
            raise CliError(
                f"{output}: is an input of this command{same}: writing it would destroy "
                "it; write to another file"
            )


#: Output files opened by :func:`open_output` in this process, latest last: a write or
#: close error has no file name (``OSError.filename`` is None), so the top-level handler
#: names the file from here.
_opened_outputs: list[str] = []


def open_output(path: str, *, append: bool = False, binary: bool = False) -> IO[Any]:
    """Open an output file (``-`` is standard output) after :func:`check_output_path`.

    Call it only once every other option has been validated: opening for writing truncates.
    A later write or close error (a full disk, ``/proc/version``) propagates as ``OSError``;
    :func:`sudoku_model.cli.main` turns it into one line naming this path, exit 2.

    Raises:
        CliError: the path cannot be written (with the reason, never a traceback).
    """
    check_output_path(path)
    if path == "-":
        return sys.stdout.buffer if binary else sys.stdout
    mode = ("a" if append else "w") + ("b" if binary else "")
    try:
        if binary:
            f = open(path, mode)  # noqa: SIM115 - the caller closes it
        else:
            f = open(path, mode, encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
    _opened_outputs.append(path)
    return f


@contextlib.contextmanager
def writing(path: str | None, *, append: bool = False) -> Iterator[IO[str]]:
    """:func:`open_output` as a context manager: ``None`` and ``-`` are standard output
    (left open), a file is closed at the end (a close error propagates as ``OSError``).

    Raises:
        CliError: the path cannot be written.
    """
    out = open_output(path or "-", append=append)
    try:
        yield out
    finally:
        if out is not sys.stdout:
            out.close()


def describe_os_error(exc: OSError) -> str:
    """One line for an ``OSError`` that reached the top: the file it concerns (its own
    name, else the latest output opened by :func:`open_output`, else standard output) and
    the reason."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    where = _opened_outputs[-1] if _opened_outputs else "standard output"
    return f"{where}: cannot write: {reason}"


def require_matplotlib(what: str) -> None:
    """Refuse an option that draws with matplotlib when it is not installed, before any work.

    Raises:
        CliError: matplotlib is missing (naming the extra that brings it).
    """
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise CliError(f"{what} needs matplotlib: pip install 'sudoku-model[notebooks]'")


def prefetch(records: Iterator[Any]) -> Iterator[Any]:
    """``records`` with its first item already read, so that a missing input file, an
    unknown ``bundled:`` name or a bad input option fails *before* the caller opens (and
    truncates) its output file.

    Raises:
        CliError: what reading the first record raised.
    """
    first = list(itertools.islice(records, 1))
    return itertools.chain(first, records)
