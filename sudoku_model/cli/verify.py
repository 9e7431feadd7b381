"""``sudoku verify FILE...``: does every puzzle have exactly one solution? With evidence.

Records (one JSON object per line, or CSV rows) go to ``--output FILE`` or to stdout; the
summary table, the progress line (on a terminal only) and any disagreement between
cross-checking backends go to stderr, so data and messages never mix.

Exit codes: 0 every puzzle is unique (and backends agree), 1 some puzzle is not unique or
backends disagree, 2 usage error or unreadable input, 130/143 interrupted (SIGINT/SIGTERM;
everything computed so far is in the output: continue with ``--resume``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from typing import Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    CliError,
    add_budget_options,
    add_input_options,
    budget_from,
    is_terminal,
    iter_inputs,
)

#: Output buffer size: records are flushed once per chunk, not once per line.
_BUFFER = 1 << 20


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="verify that puzzles have exactly one solution (with evidence)",
        description="For each puzzle, one record: verdict (malformed, contradictory, "
        "unsolvable, unique, multiple, unknown), the solution when unique, two "
        "differing solutions when not, the parse error when malformed. Records "
        "go to --output (JSONL or CSV) or stdout; the summary goes to stderr. "
        "Exit 0 when every puzzle is unique, 1 when some are not or backends "
        "disagree, 2 on usage errors or unreadable input.",
        epilog="examples: sudoku verify bundled:top95 -o top95.jsonl | "
        "sudoku verify big.txt -o out.csv --jobs 2 --resume | "
        "sudoku verify bundled:hardest --cross-check native,pysat --minimal",
    )
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="PUZZLE|FILE",
        help="puzzle files (.gz read transparently), bundled:NAME, - for stdin, "
        "or a literal puzzle",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write records here (default: stdout); flushed after every chunk",
    )
    p.add_argument(
        "--output-format",
        choices=["jsonl", "csv"],
        help="record format (default: csv for a .csv file, else jsonl)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run: keep the records already in --output "
        "(a torn last line is dropped) and verify only what follows",
    )
    p.add_argument(
        "--minimal",
        action="store_true",
        help="for unique puzzles, list the redundant clues (removable keeping the puzzle unique)",
    )
    p.add_argument(
        "--cross-check",
        metavar="B1,B2[,...]",
        help="answer every puzzle with each of these backends (the first, or "
        "--backend, gives the verdict); any disagreement is reported on "
        "stderr, recorded and makes the exit code 1",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="local worker processes (default 1); the native batch alone "
        "runs in-process (its C calls outpace reading and writing)",
    )
    p.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="send chunks to a Dask scheduler (tcp://host:8786), or 'local' for a "
        "LocalCluster on loopback (needs the 'dask' extra)",
    )
    p.add_argument(
        "--chunk-size",
        type=int,
        default=512,
        metavar="N",
        help="puzzles per chunk: the unit of work and of flushing (default 512)",
    )
    p.add_argument(
        "--no-validate",
        dest="validate",
        action="store_false",
        help="do not re-check solutions and witnesses against the rules",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress line on stderr (default: when stderr is a terminal)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary table")
    p.add_argument(
        "--backend",
        metavar="NAME",
        help="solver backend (default: native, or the first --cross-check name)",
    )
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


class _Interrupted(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: stop, keep what is written."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Interrupted()


def _check_inputs(inputs: list[str]) -> None:
    """Fail before any work on an input that cannot be read (exit 2)."""
    from ..data import resolve_input
    from .common import _looks_like_path

    for arg in inputs:
        if arg == "-":
            continue
        if arg.startswith("bundled:"):
            try:
                resolve_input(arg)
            except KeyError as exc:
                raise CliError(str(exc.args[0])) from None
        elif os.path.isdir(arg):
            raise CliError(f"{arg}: is a directory, not a puzzle file")
        elif os.path.exists(arg):
            if not os.access(arg, os.R_OK):
                raise CliError(f"{arg}: cannot read: permission denied")
        elif _looks_like_path(arg):
            raise CliError(f"{arg}: no such file")


def _records(args: argparse.Namespace, skip: Any) -> Any:
    """Records of every input in order, with literal puzzles numbered so that each
    record has its own (source, line) key, minus those already done (resume)."""
    literal = 0
    for arg in args.inputs:
        numbered = None
        for rec in iter_inputs(arg, args):
            if rec.source == "<argument>":
                if numbered is None:
                    literal += 1
                    numbered = f"<argument {literal}>"
                rec = rec._replace(source=numbered)
            if skip is not None and skip(rec.source, rec.line):
                continue
            yield rec


def _backends(args: argparse.Namespace) -> tuple[str, list[str]]:
    if not args.cross_check:
        return args.backend or "native", []
    names = [n.strip() for n in args.cross_check.split(",") if n.strip()]
    main = args.backend or (names[0] if names else "native")
    others = [n for n in dict.fromkeys(names) if n != main]
    if not others:
        raise CliError(
            "--cross-check needs at least one backend besides the main one, "
            "e.g. --cross-check native,pysat"
        )
    return main, others


class _Progress:
    """One stderr line rewritten with \\r, at most five times a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def update(self, summary: Any, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.2:
            return
        self.last = now
        rate = done / (now - self.start) if now > self.start else 0.0
        from ..solving import VerdictKind

        unique = summary.counts[VerdictKind.UNIQUE]
        sys.stderr.write(
            f"\r  verified {done:,}  ({rate:,.0f}/s)  unique {unique:,}  "
            f"not unique {summary.total - unique:,}\033[K"
        )
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _report_disagreement(r: Any) -> None:
    d = r.to_json()
    lines = [
        f"sudoku verify: DISAGREEMENT at {r.source}:{r.line}: {r.disagreement}",
        f"  puzzle      {d.get('puzzle')}",
        f"  {r.backend:<11} {r.verdict.value} "
        f"{d.get('solution') or ' '.join(d.get('witnesses', []))}",
    ]
    for a in r.cross_check:
        sol = a.solution.to_line() if a.solution is not None else ""
        lines.append(f"  {a.backend:<11} {a.verdict.value} {sol}{a.error or ''}")
    print("\n".join(lines), file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from .. import verify as v

    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    if args.chunk_size < 1:
        raise CliError("--chunk-size must be at least 1")
    if args.resume and not args.output:
        raise CliError("--resume needs --output FILE (the file to continue)")
    fmt = args.output_format or (
        "csv" if args.output and args.output.lower().endswith(".csv") else "jsonl"
    )
    main_backend, others = _backends(args)
    budget = budget_from(args)
    _check_inputs(args.inputs)

    state = None
    if args.resume and os.path.exists(args.output):
        try:
            state = v.resume_state(args.output, fmt)
        except (OSError, ValueError) as exc:
            raise CliError(f"--resume: {exc}") from None

    summary = state.summary if state is not None else v.VerifySummary()
    if state is not None:
        summary.resumed = state.records
    progress = _Progress(
        args.progress if args.progress is not None else (not args.quiet and is_terminal(sys.stderr))
    )
    computed = 0

    out: Any
    if args.output:
        append = state is not None and state.records > 0
        out = open(  # noqa: SIM115 - closed in the finally below, after the last flush
            args.output, "a" if append else "w", encoding="utf-8", newline="", buffering=_BUFFER
        )
        header = not (append and (fmt != "csv" or (state is not None and state.has_header)))
    else:
        out = sys.stdout
        header = True
    writer = v.open_writer(out, fmt, header=header)

    def on_chunk(results: list[Any]) -> None:
        nonlocal computed
        writer.write_many(results)
        writer.flush()
        for r in results:
            summary.add_result(r)
            if r.disagreement is not None:
                progress.clear()
                _report_disagreement(r)
        computed += len(results)
        progress.update(summary, computed)

    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    start = time.perf_counter()
    code: int | None = None
    try:
        records = _records(args, state.done if state is not None else None)
        for _ in v.verify_records(
            records,
            backend=main_backend,
            cross_check=others,
            minimal=args.minimal,
            budget=budget,
            jobs=args.jobs,
            dask=args.dask,
            chunk_size=args.chunk_size,
            validate=args.validate,
            on_chunk=on_chunk,
        ):
            pass
    except KeyboardInterrupt as exc:
        summary.interrupted = True
        code = 143 if isinstance(exc, _Interrupted) else 130
    except ImportError as exc:  # --dask without the extra, a backend's missing package
        raise CliError(str(exc)) from None
    except (LookupError, ValueError) as exc:
        from ..errors import ParseError

        if isinstance(exc, ParseError):
            raise
        raise CliError(str(exc)) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        summary.seconds = time.perf_counter() - start
        progress.clear()
        with contextlib.suppress(BrokenPipeError, ValueError):
            writer.flush()
        if out is not sys.stdout:
            out.close()
        if not args.quiet:
            where = f" -> {args.output}" if args.output else ""
            print(
                f"sudoku verify: {main_backend}"
                f"{' + ' + ', '.join(others) if others else ''}{where}",
                file=sys.stderr,
            )
            print(summary.table(computed=computed), file=sys.stderr, flush=True)
    if code is not None:
        return code
    return EXIT_OK if summary.all_unique else EXIT_NO
