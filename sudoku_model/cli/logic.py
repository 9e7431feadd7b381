"""``sudoku explain``, ``sudoku hint`` and ``sudoku rate``: the logical solver on the
command line (human techniques, step-by-step explanations, difficulty grades)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_budget_options,
    add_input_options,
    budget_from,
    iter_inputs,
    json_dumps,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="solve with human techniques, step by step",
        description="Solve each puzzle with human techniques, easiest first, "
        "printing every step; when the techniques stall, search "
        "finishes and the guesses are reported. Exit 0 when every "
        "puzzle is unique, 1 when one is not, 2 on bad input.",
    )
    p.add_argument("puzzle", metavar="PUZZLE", help="a puzzle, a file, bundled:NAME or -")
    _add_logic_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per step, then one per puzzle with the grade",
    )
    p.set_defaults(func=run_explain)

    p = sub.add_parser(
        "hint",
        help="the next logical step of a puzzle",
        description="Print the easiest step available in the puzzle as given. "
        "Exit 0 with a step (or when already complete), 1 when the "
        "puzzle breaks a rule or no technique applies.",
    )
    p.add_argument("puzzle", metavar="PUZZLE")
    _add_logic_options(p, budget=False)
    p.add_argument("--json", action="store_true", help="print the step as JSON")
    p.set_defaults(func=run_hint)

    p = sub.add_parser(
        "rate",
        help="grade a collection of puzzles (JSONL)",
        description="Grade every puzzle of FILE: verdict, level (easy, medium, "
        "hard, expert, extreme = needs search), score, hardest "
        "technique, technique histogram, guesses, seconds; one "
        "JSON object per line. A summary goes to standard error.",
    )
    p.add_argument("file", metavar="FILE", help="a puzzle file, bundled:NAME or -")
    p.add_argument(
        "--output",
        "-o",
        metavar="FILE.jsonl",
        help="write the JSONL here (default: standard output)",
    )
    p.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    _add_logic_options(p)
    p.set_defaults(func=run_rate)


def _add_logic_options(p: argparse.ArgumentParser, *, budget: bool = True) -> None:
    p.add_argument(
        "--techniques",
        metavar="KEYS",
        help="comma-separated technique keys to allow (default: all), e.g. "
        "naked_single,hidden_single,locked_pointing",
    )
    add_input_options(p)
    if budget:
        add_budget_options(p)


def _techniques(args: argparse.Namespace) -> Any:
    from ..logic import select_techniques

    keys = getattr(args, "techniques", None)
    try:
        return select_techniques(None if not keys else [k for k in keys.split(",") if k])
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _title(key: str | None) -> str:
    from ..logic import TECHNIQUES_BY_KEY

    if key is None:
        return "none"
    t = TECHNIQUES_BY_KEY.get(key)
    return t.title if t else key


# -- explain -------------------------------------------------------------------------------
def run_explain(args: argparse.Namespace) -> int:
    from ..logic import grade, tables_for

    techniques = _techniques(args)
    budget = budget_from(args)
    records = list(iter_inputs(args.puzzle, args))
    code = EXIT_OK
    for index, rec in enumerate(records):
        if rec.error is not None:
            print(str(rec.error), file=sys.stderr)
            code = EXIT_USAGE
            continue
        puzzle = rec.puzzle
        result = grade(puzzle, techniques=techniques, budget=budget)
        tables = tables_for(puzzle.rules)
        if args.json:
            for number, step in enumerate(result.steps, start=1):
                print(json_dumps({"step": number, **step.to_json(tables)}))
            summary = {
                "source": rec.source,
                "line": rec.line,
                "puzzle": puzzle.to_line(),
                **result.to_json(),
            }
            if result.solution is not None:
                summary["solution"] = result.solution.to_line()
            if result.reason:
                summary["reason"] = result.reason
            print(json_dumps(summary))
        else:
            if len(records) > 1:
                if index:
                    print()
                print(f"{rec.source}:{rec.line}: {puzzle.to_line()}")
            width = len(str(len(result.steps)))
            for number, step in enumerate(result.steps, start=1):
                print(f"{number:>{width}}. {_title(step.technique)}: {step.explanation}")
            print(_summary_line(result))
        if result.verdict.value != "unique" and code == EXIT_OK:
            code = EXIT_NO
    return code


def _summary_line(result: Any) -> str:
    v = result.verdict.value
    if v == "unique":
        if result.guesses:
            how = (
                f"techniques stalled after {result.logic_steps} steps; search finished "
                f"with {result.guesses} guesses"
            )
        else:
            how = f"solved by logic in {result.logic_steps} steps"
        return (
            f"unique: {how}; level {result.level}, score {result.score:.1f}, "
            f"hardest {_title(result.hardest)}"
        )
    if v == "multiple":
        return (
            f"multiple: the puzzle has more than one solution (techniques stalled after "
            f"{result.logic_steps} steps)"
        )
    if v == "unsolvable":
        return f"unsolvable: the puzzle has no solution ({result.reason or 'search exhausted'})"
    if v == "contradictory":
        return f"contradictory: {result.reason}"
    return f"unknown: {result.reason or 'budget spent'}"


# -- hint ----------------------------------------------------------------------------------
def run_hint(args: argparse.Namespace) -> int:
    from ..logic import CandidateGrid, iter_steps, tables_for

    techniques = _techniques(args)
    records = list(iter_inputs(args.puzzle, args))
    if len(records) != 1:
        raise CliError(f"PUZZLE {args.puzzle!r}: expected one puzzle, found {len(records)}")
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    puzzle = rec.puzzle
    conflicts = puzzle.conflicts()
    if conflicts:
        print("contradictory: " + "; ".join(c.describe(puzzle.shape) for c in conflicts))
        return EXIT_NO
    grid = CandidateGrid.from_puzzle(puzzle)
    if grid.broken is None and grid.empty == 0:
        print("complete: every cell is filled")
        return EXIT_OK
    step = next(iter_steps(grid, techniques), None) if grid.broken is None else None
    if grid.broken is not None and step is None:
        print(f"unsolvable: {grid.broken}")
        return EXIT_NO
    if step is None:
        print(
            "no technique applies: the next move needs a guess (or the puzzle has "
            "several solutions)"
        )
        return EXIT_NO
    if args.json:
        print(json_dumps(step.to_json(tables_for(puzzle.rules))))
    else:
        print(f"{_title(step.technique)}: {step.explanation}")
    return EXIT_OK


# -- rate ----------------------------------------------------------------------------------
def _rate_one(job: tuple[Any, tuple[str, ...], Any]) -> dict[str, Any]:
    from ..logic import grade, select_techniques

    # Technique keys, not Technique objects, cross to worker processes (picklable).
    puzzle, keys, budget = job
    return grade(
        puzzle, techniques=select_techniques(keys), budget=budget, keep_steps=False
    ).to_json()


def run_rate(args: argparse.Namespace) -> int:
    from ..executor import Executor, Interrupted, chunks, stop_on_signals

    keys = tuple(t.key for t in _techniques(args))
    budget = budget_from(args)
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    out = sys.stdout
    if args.output:
        try:
            out = open(args.output, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise CliError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    levels: Counter[str] = Counter()
    malformed = 0
    count = 0
    code: int | None = None
    start = time.perf_counter()
    try:
        with stop_on_signals(linger=True):  # a signal stops the run cleanly (sudoku_model.executor)
            # Streaming: records are read as the workers need them, never all at once.
            # The logical solver is Python: processes, not threads.
            executor = Executor(kind="processes" if args.jobs > 1 else "serial", jobs=args.jobs)
            batches = chunks(
                (
                    (rec, None if rec.error is not None else (rec.puzzle, keys, budget))
                    for rec in iter_inputs(args.file, args)
                ),
                16,
                first=1,
            )
            for batch, ratings in executor.map(_rate_many, batches):
                lines = []
                for (rec, _), rating in zip(batch, ratings):
                    count += 1
                    if rating is None:
                        malformed += 1
                        row = {
                            "source": rec.source,
                            "line": rec.line,
                            "puzzle": None,
                            "verdict": "malformed",
                            "error": str(rec.error).splitlines()[0],
                        }
                        levels["malformed"] += 1
                    else:
                        row = {
                            "source": rec.source,
                            "line": rec.line,
                            "puzzle": rec.puzzle.to_line(),
                            **rating,
                        }
                        levels[rating["level"] or rating["verdict"]] += 1
                    lines.append(json_dumps(row) + "\n")
                out.write("".join(lines))
                out.flush()
    except Interrupted as exc:
        code = exc.exit_code
    finally:
        if out is not sys.stdout:
            out.close()
    seconds = time.perf_counter() - start
    rate = count / seconds if seconds > 0 else 0.0
    order = [
        "easy",
        "medium",
        "hard",
        "expert",
        "extreme",
        "multiple",
        "unsolvable",
        "contradictory",
        "unknown",
        "malformed",
    ]
    histogram = ", ".join(f"{k} {levels[k]}" for k in order if levels[k])
    tail = "; INTERRUPTED" if code is not None else ""
    print(
        f"rated {count} puzzles in {seconds:.2f} s ({rate:.1f}/s): {histogram}{tail}",
        file=sys.stderr,
    )
    if code is not None:
        return code
    return EXIT_USAGE if malformed else EXIT_OK


def _maybe_rate(job: Any) -> dict[str, Any] | None:
    return None if job is None else _rate_one(job)


def _rate_many(batch: list[tuple[Any, Any]]) -> list[dict[str, Any] | None]:
    """The unit of work of the executor: a chunk of (record, job) pairs."""
    return [_maybe_rate(job) for _, job in batch]
