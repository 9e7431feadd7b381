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
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..executor import stop_on_signals
from ..solving import DEFAULT_BACKEND, VerdictKind
from .common import (
    CliError,
    add_budget_options,
    add_input_options,
    budget_from,
    check_output_path,
    exit_code,
    get_backend_or_exit,
    input_options,
    is_terminal,
    iter_inputs,
    open_output,
    refuse_output_over_inputs,
)


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
        "--resume-any-settings",
        action="store_true",
        help="with --resume: continue even when the records already in --output were "
        "written with other record-changing options (backend, budget, --minimal, "
        "--cross-check, --canonical); without it such a resume is refused",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an --output file that already holds records (without --resume or "
        "--force such a file is refused, never overwritten)",
    )
    p.add_argument(
        "--minimal",
        action="store_true",
        help="for unique puzzles, list the redundant clues (removable keeping the puzzle unique)",
    )
    p.add_argument(
        "--canonical",
        action="store_true",
        help="add each puzzle's canonical form (minlex, as `sudoku canon`) to its record; "
        "null for variant rules or when the budget runs out",
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
        default=None,
        metavar="N",
        help="puzzles per chunk: the unit of work and of flushing (default: 512 in "
        "this process and its threads; for worker processes and Dask, as many as take "
        "about 0.2 s and 0.25 s of CPU, measured as the run goes)",
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
    # -- certificates: a block of its own
    p.add_argument(
        "--certify",
        metavar="DIR",
        help="also write a certificate of every verdict into DIR (new or empty): DRAT "
        "proofs for unique and unsolvable, witnesses, clashes, and a manifest; check them "
        "with sudoku check-certificate DIR",
    )
    p.add_argument(
        "--certify-with",
        metavar="NAME",
        default="pysat:cadical195",
        help="backend that writes the proofs (default pysat:cadical195; a fresh "
        "proof-logging solver per puzzle)",
    )
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


def _check_inputs(inputs: list[str]) -> None:
    """Fail before any work on an input that cannot be read (exit 2)."""
    from .common import _looks_like_path

    for arg in inputs:
        if arg == "-":
            continue
        if arg.startswith("bundled:"):
            from ..data import resolve_input  # here: pathlib is 5 ms of a start-up

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


def _input_size(arg: str) -> int | None:
    """Bytes of text an input holds, when known without reading it (a file's size; for
    a .gz file the size recorded in its trailer), else None (stdin, a literal puzzle)."""
    path: Any = None
    if arg.startswith("bundled:"):
        from ..data import bundled_path

        with contextlib.suppress(KeyError):
            path = bundled_path(arg.split(":", 1)[1])
    elif arg != "-" and os.path.isfile(arg):
        path = arg
    if path is None:
        return None
    try:
        size = os.path.getsize(path)
        if str(path).endswith(".gz") and size >= 18:
            with open(path, "rb") as f:  # ISIZE: the uncompressed size modulo 2**32
                f.seek(-4, os.SEEK_END)
                return int.from_bytes(f.read(4), "little") or None
        return size
    except OSError:
        return None


class _Feed:
    """``(input index, record)`` for every record of every input in order, minus those
    already in the output (resume, checked by content:
    :class:`~sudoku_model.verify.ResumeCheck`). With ``raw``, the lines of line-format
    inputs come unparsed (:class:`~sudoku_model.formats.RawLine`): worker processes parse
    them (a skipped one is parsed here, for its content check). With ``blocks`` too, runs
    of plain lines come as :class:`~sudoku_model.formats.RawBlock` items (the bulk path)."""

    def __init__(
        self, args: argparse.Namespace, state: Any, *, raw: bool = False, blocks: bool = False
    ) -> None:
        self.args = args
        self.state = state
        self.raw = raw
        self.blocks = raw and blocks
        self.check = state.checker() if state is not None else None
        self.skipped_bytes = 0

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        from ..formats import RawBlock, RawLine

        literal = 0
        state, check = self.state, self.check
        for index, arg in enumerate(self.args.inputs):
            numbered = None
            reader: Any = None
            renamed: Any = None
            for item in iter_inputs(arg, self.args, raw=self.raw, blocks=self.blocks):
                group: Any = (item,)
                if item.__class__ is RawBlock:
                    if item.reader.source != "<argument>" and (check is None or check.finished):
                        yield index, item
                        continue
                    # rare (a literal puzzle, the part a resumed run skips): line by line
                    group = item.raw_lines()
                for rec in group:
                    if rec.__class__ is RawLine:
                        if rec.reader.source == "<argument>":
                            if rec.reader is not reader:
                                if numbered is None:
                                    literal += 1
                                    numbered = f"<argument {literal}>"
                                reader, renamed = rec.reader, rec.reader._replace(source=numbered)
                            rec = rec._replace(reader=renamed)
                    elif rec.source == "<argument>":
                        # literal puzzles: each argument its own source name
                        if numbered is None:
                            literal += 1
                            numbered = f"<argument {literal}>"
                        rec = rec._replace(source=numbered)
                    if check is not None and not check.finished:
                        if state.done(index, rec.position):
                            if rec.__class__ is RawLine:
                                rec = rec.reader.record(rec)
                            check.skip(index, rec)
                            self.skipped_bytes += len(rec.text) + 1
                            continue
                        check.finish()
                    yield index, rec
        if check is not None:
            check.finish()


def _backends(args: argparse.Namespace) -> tuple[str, list[str]]:
    if not args.cross_check:
        return args.backend or DEFAULT_BACKEND, []
    names = [n.strip() for n in args.cross_check.split(",") if n.strip()]
    main = args.backend or (names[0] if names else DEFAULT_BACKEND)
    others = [n for n in dict.fromkeys(names) if n != main]
    if not others:
        raise CliError(
            "--cross-check needs at least one backend besides the main one, "
            "e.g. --cross-check native,pysat"
        )
    return main, others


class _Progress:
    """One stderr line rewritten with \\r, at most five times a second: puzzles verified
    by this run (the resumed ones apart), rate, elapsed time and, when the size of the
    input is known, the share done (by bytes of input) and the time left."""

    def __init__(self, enabled: bool, total_bytes: int | None) -> None:
        self.enabled = enabled
        self.total = total_bytes
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False
        self.done_bytes = 0
        self.skipped_bytes = 0

    def update(self, summary: Any, done: int, resumed: int, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.2 and not force:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        from ..solving import VerdictKind

        unique = summary.counts[VerdictKind.UNIQUE]
        parts = [f"\r  verified {done:,}"]
        if resumed:
            parts.append(f" (+{resumed:,} resumed)")
        if self.total:
            share = min(1.0, (self.done_bytes + self.skipped_bytes) / self.total)
            parts.append(f"  {100 * share:.0f}%")
            left = self.total - self.done_bytes - self.skipped_bytes
            if self.done_bytes and left > 0:
                eta = left * elapsed / self.done_bytes
                parts.append(f"  ETA {_clock(eta)}")
        parts.append(
            f"  {rate:,.0f}/s  {_clock(elapsed)}  unique {unique:,}  "
            f"not unique {summary.total - unique:,}\033[K"
        )
        sys.stderr.write("".join(parts))
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


def run(args: argparse.Namespace) -> int:
    # Signals only set a flag from here on: the executor stops at a safe point, and the
    # summary is printed in any case (sudoku_model.executor).
    with stop_on_signals(linger=True):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from .. import verify as v
    from ..executor import Interrupted, check_dask_address

    # -- every check first: nothing is opened or truncated before all options are good
    if args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise CliError("--chunk-size must be at least 1")
    if args.resume and not args.output:
        raise CliError("--resume needs --output FILE (the file to continue)")
    if args.resume and args.force:
        raise CliError("--resume keeps the records of --output and --force replaces them: pick one")
    fmt = args.output_format or (
        "csv" if args.output and args.output.lower().endswith(".csv") else "jsonl"
    )
    main_backend, others = _backends(args)
    for name in (main_backend, *others):
        get_backend_or_exit(name)
    budget = budget_from(args)
    config = v.VerifyConfig(
        main_backend, tuple(others), args.minimal, budget, args.validate, canonical=args.canonical
    )
    input_options(args)  # --box, --size, --variant
    _check_inputs(args.inputs)
    if args.output:
        check_output_path(args.output)
    refuse_output_over_inputs(args.output, args.inputs)
    if args.output and not args.resume and not args.force and _holds_records(args.output):
        raise CliError(
            f"{args.output} already holds records: pass --force to replace them, or "
            "--resume to continue that run"
        )
    if args.dask:
        try:
            check_dask_address(args.dask)
        except (ValueError, ConnectionError) as exc:
            raise CliError(str(exc)) from None
    certifier = None
    if args.certify:
        certifier = _certifier_or_exit(args, budget)
    state = None
    if args.resume and os.path.exists(args.output):
        try:
            state = v.resume_state(args.output, fmt)
        except (OSError, ValueError) as exc:
            raise CliError(f"--resume: {exc}") from None
        problem = state.settings_problem(
            config, {main_backend, *get_backend_or_exit(main_backend).answer_names()}
        )
        if problem is not None and not args.resume_any_settings:
            raise CliError(
                f"--resume: {args.output}: {problem}: resume with the options of that run, "
                "or pass --resume-any-settings to mix both in one file"
            )
    progress = _Progress(
        args.progress
        if args.progress is not None
        else (not args.quiet and is_terminal(sys.stderr)),
        _total_bytes(args.inputs),
    )
    progress.update(v.VerifySummary(), 0, state.records if state else 0, force=True)
    try:
        if certifier is not None and args.dask:
            raise ValueError("--certify cannot be combined with --dask")
        # the certifier needs each puzzle's result object, which would stay in a worker
        # process: with it verify runs here and the certificates use the --jobs processes
        executor = v.make_executor(
            main_backend,
            cross_check=others,
            minimal=args.minimal,
            jobs=args.jobs,
            dask=args.dask,
            in_process=certifier is not None,
        )
        kind = executor.kind
    except (ImportError, ValueError, ConnectionError, LookupError) as exc:
        progress.clear()
        raise CliError(str(exc)) from None

    # -- then the output
    summary = state.summary if state is not None else v.VerifySummary()
    if state is not None:
        summary.resumed = state.records
    this_run = v.VerifySummary()  # the progress line counts this run only
    computed = 0
    quoted = 0  # malformed records quoted on stderr
    append = state is not None and state.records > 0
    try:
        out = open_output(args.output, append=append) if args.output else sys.stdout
    except CliError:
        executor.close(kill=True)
        raise
    header = not (append and (fmt != "csv" or (state is not None and state.has_header)))
    writer = v.open_writer(out, fmt, header=header)
    on_results = certifier is not None
    feed = _Feed(
        args,
        state,
        raw=v.reads_raw_lines(kind, config, fmt, on_results=on_results),
        blocks=v.reads_raw_blocks(kind, config, fmt, on_results=on_results),
    )

    def on_wait() -> None:
        progress.skipped_bytes = feed.skipped_bytes
        progress.update(this_run, computed, summary.resumed)

    start = time.perf_counter()
    code: int | None = None
    failure: CliError | None = None
    try:

        def verified() -> Any:
            # the records are written as verify yields them; the certifier (if any) then
            # sees each chunk's results, after they are in the output
            nonlocal computed, quoted
            for chunk in v.verify_text(
                feed,
                config=config,
                executor=executor,
                fmt=fmt,
                chunk_size=args.chunk_size,
                on_wait=on_wait,
                on_results=buffer.extend if certifier is not None else None,
            ):
                # the records first: what the summary counts is in the output
                out.write(chunk.text)
                out.flush()
                summary.merge(chunk.summary)
                this_run.merge(chunk.summary)
                for what, text in chunk.notes:
                    if what == "malformed":
                        quoted += 1
                        _report_malformed(text, quoted)
                    else:
                        progress.clear()
                        print(text, file=sys.stderr, flush=True)
                computed += chunk.count
                progress.done_bytes += chunk.nbytes
                progress.skipped_bytes = feed.skipped_bytes
                progress.update(this_run, computed, summary.resumed)
                yield from buffer
                buffer.clear()

        buffer: list[Any] = []
        stream = verified()
        if certifier is not None:
            stream = certifier.stream(stream)
        for _ in stream:
            pass
    except Interrupted as exc:
        summary.interrupted = True
        code = exc.exit_code
    except v.ResumeMismatch as exc:
        failure = CliError(f"--resume: {args.output}: {exc}")
    except BrokenPipeError:
        raise
    except OSError as exc:  # writing the output failed (disk full, /proc/version ...)
        failure = CliError(f"{args.output or '<stdout>'}: cannot write: {exc.strerror or exc}")
    finally:
        summary.seconds = time.perf_counter() - start
        progress.clear()
        executor.close(kill=True)  # a no-op after a complete run
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):
            writer.flush()
        if out is not sys.stdout:
            with contextlib.suppress(OSError):
                out.close()
    if failure is not None:
        raise failure
    if not args.quiet:
        where = f" -> {args.output}" if args.output else ""
        print(
            f"sudoku verify: {main_backend}{' + ' + ', '.join(others) if others else ''}{where}",
            file=sys.stderr,
        )
        print(summary.table(computed=computed), file=sys.stderr, flush=True)
    if certifier is not None and _report_certificates(certifier, args) and code is None:
        code = exit_code(input_errors=summary.counts[VerdictKind.MALFORMED], noes=1)
    if code is not None:
        return code
    # One rule for every command: input errors (malformed records) win over "no".
    return exit_code(
        input_errors=summary.counts[VerdictKind.MALFORMED], noes=0 if summary.all_unique else 1
    )


# -- certificates ------------------------------------------------------------------
def _certifier_or_exit(args: argparse.Namespace, budget: Any) -> Any:
    """The certifier of ``--certify DIR``, checked before any output is opened (the
    directory is created here, after every other option was checked)."""
    from ..certificates import Certifier, certification_refusal

    if args.resume:
        raise CliError("--certify cannot be combined with --resume (certify in one run)")
    get_backend_or_exit(args.certify_with)
    refusal = certification_refusal(args.certify_with)
    if refusal is not None:
        raise CliError(f"--certify-with: {refusal}")
    try:
        return Certifier(args.certify, backend=args.certify_with, budget=budget, jobs=args.jobs)
    except (ValueError, OSError) as exc:
        raise CliError(f"--certify: {exc}") from None


def _report_certificates(certifier: Any, args: argparse.Namespace) -> bool:
    """Print what was certified (stderr); True when the certifier and verify disagreed."""
    for entry in certifier.disagreements[:20]:
        print(
            f"sudoku verify: CERTIFICATE DISAGREEMENT at {entry['source']}:{entry['line']}: "
            f"{entry['disagreement']}",
            file=sys.stderr,
        )
    if not args.quiet:
        counts = ", ".join(f"{k} {v:,}" for k, v in sorted(certifier.counts.items()))
        print(
            f"sudoku verify: certificates in {certifier.path} ({counts or 'none'}); "
            f"check them with: sudoku check-certificate {certifier.path}",
            file=sys.stderr,
        )
    return bool(certifier.disagreements)


#: Malformed records reported one by one on standard error; after that, a count only (each
#: is in the output with its file:line:col either way).
_MALFORMED_SHOWN = 20


def _report_malformed(message: str, shown: int) -> None:
    """Quote the ``shown``-th malformed record's error (chunks quote theirs in order)."""
    if shown <= _MALFORMED_SHOWN:
        print(message, file=sys.stderr)
    if shown == _MALFORMED_SHOWN:
        print("sudoku verify: more malformed records: see the output", file=sys.stderr)


def _holds_records(path: str) -> bool:
    """Whether ``path`` is a regular file with something in it (what ``-o`` would
    overwrite); a missing or empty file, or a device such as /dev/null, holds nothing."""
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size > 0


def _total_bytes(inputs: list[str]) -> int | None:
    sizes = [_input_size(arg) for arg in inputs]
    return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)
