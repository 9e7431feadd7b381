"""``sudoku compare FILE --backends A,B,...``: time backends on the same puzzles and check
that they agree."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (
    CliError,
    Outcome,
    add_input_options,
    budget_from,
    check_output_path,
    get_backend_or_exit,
    is_terminal,
    iter_inputs,
    refuse_output_over_inputs,
    require_matplotlib,
    writing,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="compare backends: time per puzzle and agreement",
        description="Answer every puzzle of FILE with every backend (interleaved, REPEAT "
        "times each) and print per backend the median, 90th percentile and "
        "maximum time per puzzle, solved and unknown counts, and every puzzle "
        "on which the backends disagree. Times are the wall seconds the "
        "backends' common base class measures; each backend first answers the "
        "first puzzle once untimed (its one-off setup is shown as '1st call'). "
        "Exit 0 when all backends agree, 1 on any disagreement or a backend "
        "error on a puzzle, 2 on usage errors or when no backend loads.",
    )
    p.add_argument("input", metavar="FILE", help="puzzle file, bundled:NAME, a puzzle or -")
    p.add_argument(
        "--backends",
        metavar="A,B,...",
        help="backends to compare, e.g. native,pysat:cadical195,pysat:glucose4,"
        "cpsat (default: every registered backend)",
    )
    p.add_argument(
        "--task",
        choices=["solve", "unique", "count"],
        default="solve",
        help="what each backend answers (default: solve)",
    )
    p.add_argument(
        "--limit",
        type=int,
        default=1000,
        metavar="N",
        help="count solutions up to N for --task count (default 1000)",
    )
    p.add_argument("--first", type=int, metavar="N", help="only the first N puzzles")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="R",
        help="timed calls per puzzle and backend; the median is kept (default 1)",
    )
    p.add_argument(
        "--budget-seconds",
        type=float,
        metavar="S",
        help="wall-time limit per call (default 60); a call that runs out answers 'unknown'",
    )
    p.add_argument(
        "--no-warmup", action="store_true", help="time the very first call too (setup included)"
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE.csv|.json",
        help="write one row per puzzle and backend (CSV) or everything (JSON)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png|.svg|.pdf",
        help="draw the distribution of time per puzzle per backend (needs matplotlib)",
    )
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..compare import PuzzleEntry, compare

    if args.repeat < 1 or args.limit < 1 or (args.first is not None and args.first < 1):
        raise CliError("--repeat, --limit and --first must be at least 1")
    for option, allowed in (("output", (".csv", ".json")), ("plot", (".png", ".svg", ".pdf"))):
        value = getattr(args, option)
        if value and not value.lower().endswith(allowed):
            raise CliError(
                f"--{option} {value}: the format comes from the extension: {', '.join(allowed)}"
            )
    # Everything that can be refused is refused before the (possibly long) run.
    for path in (args.output, args.plot):
        if path:
            check_output_path(path)
            refuse_output_over_inputs(path, [args.input])
    if args.plot:
        require_matplotlib(f"--plot {args.plot}")
    names = [n.strip() for n in args.backends.split(",") if n.strip()] if args.backends else None
    if args.backends is not None and not names:
        raise CliError("--backends: no backend named")
    # Backends named on the command line must load (a typo is a usage error); without
    # --backends every registered one is tried and those that do not load are reported.
    chosen: list[Any] | None = [get_backend_or_exit(n) for n in names] if names else None
    budget = budget_from(args)
    entries: list[PuzzleEntry] = []
    outcome = Outcome()
    for rec in iter_inputs(args.input, args):
        if args.first is not None and len(entries) >= args.first:
            break
        if rec.error is not None:
            outcome.malformed(f"skipped: {rec.error}")
            continue
        entries.append(PuzzleEntry(len(entries), rec.puzzle, rec.source, rec.line))
    if not entries:
        raise CliError(f"{args.input}: no puzzle to compare")
    progress = None
    if is_terminal(sys.stderr):

        def progress(done: int, total: int) -> None:
            print(
                f"\r{done}/{total} puzzles",
                end="" if done < total else "\n",
                file=sys.stderr,
                flush=True,
            )

    result = compare(
        entries,
        backends=chosen,
        task=args.task,
        limit=args.limit,
        repeat=args.repeat,
        budget=budget,
        warmup=not args.no_warmup,
        progress=progress,
    )
    for name, reason in result.failures.items():
        print(f"sudoku: backend {name} failed to load: {reason}", file=sys.stderr)
    if not result.backends:
        raise CliError("no backend could be loaded")

    print(
        f"{args.task} on {len(entries)} puzzles from {args.input}"
        + (f" ({outcome.input_errors} malformed lines skipped)" if outcome.input_errors else "")
        + f", {args.repeat} timed run(s) each, time = median per puzzle"
    )
    print(result.table())
    for summary in result.summary():
        print(
            f"  {summary.backend} ({summary.version}): "
            + ", ".join(f"{k} {v}" for k, v in summary.answers.items())
        )
    failed_runs = [r for r in result.runs if r.answer == "error"]
    for backend in result.backends:
        mine = [r for r in failed_runs if r.backend == backend]
        if mine:
            print(
                f"ERRORS: {backend} failed on {len({r.puzzle_index for r in mine})} "
                f"puzzle(s); first: {mine[0].detail}"
            )
    disagreements = result.disagreements
    if disagreements:
        print(f"DISAGREEMENT on {len(disagreements)} puzzle(s):")
        for d in disagreements:
            print(f"  {d.describe()}")
    elif len(result.backends) > 1:
        print(f"all {len(result.backends)} backends agree on every puzzle")
    else:
        print("one backend only: nothing to cross-check")

    if args.output:
        _write(result, args.output)
        print(f"wrote {args.output}")
    if args.plot:
        try:
            result.plot(args.plot)
        except ImportError as exc:
            raise CliError(str(exc)) from None
        except OSError as exc:
            raise CliError(f"{args.plot}: cannot write: {exc.strerror or exc}") from None
        print(f"wrote {args.plot}")
    if disagreements or failed_runs:
        outcome.no()
    return outcome.code


#: Columns of ``--output FILE.csv``: the fields of a compare record.
CSV_COLUMNS = (
    "schema",
    "command",
    "source",
    "line",
    "puzzle_index",
    "puzzle",
    "clues",
    "size",
    "backend",
    "task",
    "seconds",
    "answer",
    "agreed",
    "rules",
)


def _write(result: Any, path: str) -> None:
    """The per-puzzle records as CSV, or everything as JSON, by the extension of ``path``.
    A write error propagates as ``OSError`` (one line, exit 2, from the top level)."""
    from ..records import CsvWriter, dumps

    with writing(path) as f:
        if path.lower().endswith(".json"):
            f.write(dumps(result.to_json(), indent=1) + "\n")
        else:
            writer = CsvWriter(f, CSV_COLUMNS)
            writer.write_many(result.rows())
