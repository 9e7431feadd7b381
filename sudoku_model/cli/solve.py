"""``sudoku solve PUZZLE|FILE`` and ``sudoku count PUZZLE|FILE --limit N``.

``solve`` prints one solution per puzzle: a block for a single puzzle given on the command
line when standard output is a terminal, else one line per puzzle (the solution, or the
status word ``contradictory`` / ``unsolvable`` / ``unknown`` in its place, and
``malformed: file:line:col: message`` for a record that could not be read, so output line k
always answers input puzzle k). Exit 0 when every puzzle was solved, 1 when some had no
solution (or the budget ran out), 2 when some input was malformed.

``count`` counts solutions up to ``--limit`` and prints ``COUNT VERDICT`` per puzzle
(``COUNT+`` when the count is a lower bound). Exit 0, or 2 when some input was malformed.

With ``--json`` both write one record per input record, malformed ones included, in the
schema of :mod:`sudoku_model.records` (``solve``: ``status`` and ``solution``; ``count``:
``verdict``, ``count``, ``complete``, ``limit``, ``solutions``).

Malformed records are reported as ``file:line:col: message`` on standard error, and in
their place in the output (``malformed: ...`` lines; ``"verdict": "malformed"`` objects with
``--json``); the other puzzles are still answered.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from typing import Any

from .common import (
    Outcome,
    add_backend_option,
    add_budget_options,
    add_input_options,
    budget_from,
    get_backend_or_exit,
    is_terminal,
    iter_inputs,
    output_alphabet,
)

#: Default ``--limit`` of ``sudoku count``.
DEFAULT_COUNT_LIMIT = 1000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve",
        help="solve puzzles",
        description="Print a solution of each puzzle of PUZZLE|FILE|bundled:NAME|-. "
        "Exit 0 when all were solved, 1 when some were not (no solution, clashing "
        "givens, budget spent), 2 on malformed input.",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument(
        "--output",
        choices=["auto", "line", "block"],
        default="auto",
        help="line per puzzle, or a block (default: block for one puzzle given "
        "on the command line and shown on a terminal)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON record per puzzle (source, line, puzzle, status, solution, ...)",
    )
    add_backend_option(p)
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run_solve)

    c = sub.add_parser(
        "count",
        help="count solutions up to a limit",
        description="Count the solutions of each puzzle of PUZZLE|FILE|bundled:NAME|- up to "
        "--limit. Prints 'COUNT VERDICT' per puzzle ('COUNT+' when the search stopped "
        "before the end), or one JSON object per puzzle with --json.",
    )
    c.add_argument("input", metavar="PUZZLE|FILE")
    c.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_COUNT_LIMIT,
        metavar="N",
        help=f"stop counting at N solutions (default {DEFAULT_COUNT_LIMIT})",
    )
    c.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle (source, line, puzzle, verdict, count, "
        "complete, solutions, seconds, stats)",
    )
    add_backend_option(c)
    add_budget_options(c)
    add_input_options(c)
    c.set_defaults(func=run_count)


def _first_line(error: object) -> str:
    """The ``file:line:col: message`` line of an error (without the excerpt lines)."""
    text = str(error)
    return text.splitlines()[0] if text else text


def _report_malformed(rec: Any, outcome: Outcome, writer: Any, command: str) -> None:
    """A malformed record: ``file:line:col: message`` on stderr, and in its place in the
    output a ``malformed: ...`` line, or a malformed record with ``--json``."""
    outcome.malformed(rec.error)
    if writer is not None:
        from ..records import malformed_record

        writer.write(malformed_record(command, rec))
    else:
        print(f"malformed: {_first_line(rec.error)}")


def _json_writer(args: argparse.Namespace) -> Any:
    """The record writer of ``--json`` (JSONL on standard output), or None."""
    if not getattr(args, "json", False):
        return None
    from ..records import JsonlWriter

    return JsonlWriter(sys.stdout)


def _solve_record(rec: Any, result: Any, alphabet: Any) -> dict[str, Any]:
    from ..records import head, puzzle_fields

    d = head("solve", rec.source, rec.line)
    d.update(puzzle_fields(rec.puzzle, alphabet=alphabet))
    d["status"] = str(result.status)
    if result.solution is not None:
        d["solution"] = result.solution.to_line(alphabet=alphabet)
    d["backend"] = result.backend
    d["seconds"] = round(result.seconds, 6)
    d["stats"] = dict(result.stats)
    return d


def _refused_record(
    command: str, rec: Any, backend: Any, reason: str, alphabet: Any, limit: int = 0
) -> dict[str, Any]:
    """The record of a puzzle the backend refuses (an unsupported rule or size): no answer,
    the reason under ``stats.refused`` as in ``verify``."""
    from ..records import head, puzzle_fields

    d = head(command, rec.source, rec.line)
    d.update(puzzle_fields(rec.puzzle, alphabet=alphabet))
    if command == "solve":
        d["status"] = "unknown"
    else:
        d.update(verdict="unknown", count=0, complete=False, limit=limit, solutions=[])
    d.update(backend=backend.engine_name(), seconds=0.0, stats={"refused": reason})
    return d


def _count_record(
    rec: Any, result: Any, seconds: float, limit: int, alphabet: Any
) -> dict[str, Any]:
    from ..records import head, puzzle_fields

    d = head("count", rec.source, rec.line)
    d.update(puzzle_fields(rec.puzzle, alphabet=alphabet))
    d["verdict"] = str(result.verdict)
    d["count"] = result.count
    d["complete"] = result.complete
    d["limit"] = limit
    d["solutions"] = [s.to_line(alphabet=alphabet) for s in result.solutions]
    d["backend"] = result.backend
    d["seconds"] = round(seconds, 6)
    d["stats"] = dict(result.stats)
    return d


def run_solve(args: argparse.Namespace) -> int:
    backend = get_backend_or_exit(args.backend)
    budget = budget_from(args)
    from ..errors import UnsupportedPuzzleError
    from ..solving import SolveStatus

    records = iter_inputs(args.input, args)
    writer = _json_writer(args)
    outcome = Outcome()
    block = args.output == "block"
    if args.output == "auto" and is_terminal(sys.stdout):
        # one literal puzzle on a terminal: a block is easier to read
        head = list(itertools.islice(records, 2))
        block = len(head) == 1 and head[0].source == "<argument>"
        records = itertools.chain(head, records)
    # One output line per input record, whatever happens to it, so that output line k
    # answers input puzzle k (`paste puzzles.txt solutions.txt` lines up).
    for rec in records:
        if rec.error is not None:
            _report_malformed(rec, outcome, writer, "solve")
            continue
        try:
            result = backend.solve(rec.puzzle, budget=budget)
        except UnsupportedPuzzleError as exc:
            message = f"{rec.source}:{rec.line}: {exc}"
            outcome.malformed(message)
            if writer is not None:
                alphabet = output_alphabet(args, rec)
                writer.write(_refused_record("solve", rec, backend, str(exc), alphabet))
            else:
                print(f"unsupported: {_first_line(message)}")
            continue
        if writer is not None:
            writer.write(_solve_record(rec, result, output_alphabet(args, rec)))
            if result.status is not SolveStatus.SOLVED:
                print(f"{rec.source}:{rec.line}: {result.status}", file=sys.stderr)
                outcome.no()
        elif result.status is SolveStatus.SOLVED:
            grid = result.solution
            alphabet = output_alphabet(args, rec)
            print(grid.to_block(alphabet=alphabet) if block else grid.to_line(alphabet=alphabet))
        else:
            print(str(result.status))
            print(f"{rec.source}:{rec.line}: {result.status}", file=sys.stderr)
            outcome.no()
    return outcome.code


def run_count(args: argparse.Namespace) -> int:
    from .common import CliError

    if args.limit < 1:
        raise CliError(f"--limit must be a positive integer, got {args.limit}")
    backend = get_backend_or_exit(args.backend)
    budget = budget_from(args)
    from ..errors import UnsupportedPuzzleError

    writer = _json_writer(args)
    outcome = Outcome()
    for rec in iter_inputs(args.input, args):
        # As in solve: one output line per input record, a malformed one included.
        if rec.error is not None:
            _report_malformed(rec, outcome, writer, "count")
            continue
        start = time.perf_counter()
        try:
            result = backend.count(rec.puzzle, limit=args.limit, budget=budget)
        except UnsupportedPuzzleError as exc:
            message = f"{rec.source}:{rec.line}: {exc}"
            outcome.malformed(message)
            if writer is not None:
                alphabet = output_alphabet(args, rec)
                writer.write(_refused_record("count", rec, backend, str(exc), alphabet, args.limit))
            else:
                print(f"unsupported: {_first_line(message)}")
            continue
        seconds = time.perf_counter() - start
        if writer is not None:
            alphabet = output_alphabet(args, rec)
            writer.write(_count_record(rec, result, seconds, args.limit, alphabet))
        else:
            bound = "" if result.complete else "+"
            print(f"{result.count}{bound} {result.verdict}")
    return outcome.code
