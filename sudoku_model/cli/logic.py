"""``sudoku explain``, ``sudoku hint`` and ``sudoku rate``: the logical solver on the
command line (human techniques, step-by-step explanations, difficulty grades)."""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    CliError,
    Outcome,
    add_budget_options,
    add_input_options,
    budget_from,
    iter_inputs,
    json_dumps,
    output_alphabet,
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
    _add_scale_option(
        p,
        "se: Sudoku Explainer's techniques in SE's order, each step with its SE rating, "
        "then ER/EP/ED (--budget-seconds is CPU seconds per puzzle, default 60)",
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
    _add_scale_option(
        p,
        "se: the step Sudoku Explainer takes next, with its SE rating (at most 60 CPU seconds)",
    )
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
    g = p.add_argument_group("Sudoku Explainer scale (classic 9x9 puzzles, plain or pencilmark)")
    g.add_argument(
        "--scale",
        choices=("levels", "se"),
        default="levels",
        help="levels: the logic solver's five levels (default); se: Sudoku Explainer's "
        "ER/EP/ED with SE's step list, level derived from ER (--budget-seconds is CPU "
        "seconds per puzzle, default 60; past it the record gives er_above)",
    )
    g.add_argument(
        "--no-steps", action="store_true", help="with --scale se: leave out the step list"
    )
    p.set_defaults(func=run_rate)


def _add_scale_option(p: argparse.ArgumentParser, se_help: str) -> None:
    g = p.add_argument_group("Sudoku Explainer scale (classic 9x9 puzzles, plain or pencilmark)")
    g.add_argument(
        "--scale",
        choices=("levels", "se"),
        default="levels",
        help="levels: the logic solver's techniques (default); " + se_help,
    )


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


def _value_writer(tables: Any, alphabet: Any, size: int) -> Callable[[str], str]:
    """A function that rewrites the values in a step's explanation in ``alphabet``.

    The logic solver writes values as numbers (``r1c1 = 21``); a 25x25 or ``0-F`` grid is
    read and written in symbols (``P``, ``0``), so the explanation must say the same. A
    number is a value unless it is part of a cell name (``r10c8``) or a unit name
    (``row 3``, ``box 12``). With an alphabet that writes every value as its own number
    (9x9 in ``1-9A-Z``) the text is returned unchanged.
    """
    if all(alphabet.symbol(v) == str(v) for v in range(1, size + 1)):
        return lambda text: text
    words = sorted({name.rsplit(" ", 1)[0] for name in tables.unit_names}, key=len, reverse=True)
    units = "|".join(re.escape(w) for w in words) or "(?!)"
    token = re.compile(rf"(r\d+c\d+)|(\b(?:{units}) \d+)|(\b\d+\b)")

    def value(match: re.Match[str]) -> str:
        if match.group(3) is None:
            return match.group(0)
        v = int(match.group(3))
        return alphabet.symbol(v) if 1 <= v <= size else match.group(0)

    return lambda text: token.sub(value, text)


def _title(key: str | None) -> str:
    from ..logic import TECHNIQUES_BY_KEY

    if key is None:
        return "none"
    t = TECHNIQUES_BY_KEY.get(key)
    return t.title if t else key


# -- explain -------------------------------------------------------------------------------
def run_explain(args: argparse.Namespace) -> int:
    if getattr(args, "scale", "levels") == "se":
        from .rate import run_explain_se

        return run_explain_se(args)
    from ..logic import grade, tables_for

    techniques = _techniques(args)
    budget = budget_from(args)
    records = list(iter_inputs(args.puzzle, args))
    outcome = Outcome()
    for index, rec in enumerate(records):
        if rec.error is not None:
            outcome.malformed(rec.error)
            continue
        puzzle = rec.puzzle
        result = grade(puzzle, techniques=techniques, budget=budget)
        tables = tables_for(puzzle.rules)
        alphabet = output_alphabet(args, rec)
        values = _value_writer(tables, alphabet, puzzle.shape.size)
        if args.json:
            for number, step in enumerate(result.steps, start=1):
                data = step.to_json(tables)
                data["explanation"] = values(data["explanation"])
                print(json_dumps({"step": number, **data}))
            summary = {
                "source": rec.source,
                "line": rec.line,
                "puzzle": puzzle.to_line(alphabet=alphabet),
                **result.to_json(),
            }
            if result.solution is not None:
                summary["solution"] = result.solution.to_line(alphabet=alphabet)
            if result.reason:
                summary["reason"] = result.reason
            print(json_dumps(summary))
        else:
            if len(records) > 1:
                if index:
                    print()
                print(f"{rec.source}:{rec.line}: {puzzle.to_line(alphabet=alphabet)}")
            width = len(str(len(result.steps)))
            for number, step in enumerate(result.steps, start=1):
                print(f"{number:>{width}}. {_title(step.technique)}: {values(step.explanation)}")
            print(_summary_line(result, values))
        if result.verdict.value != "unique":
            outcome.no()
    return outcome.code


def _summary_line(result: Any, values: Callable[[str], str] = str) -> str:
    """The last line of ``explain``; ``values`` rewrites the values in a reason."""
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
        reason = values(result.reason) if result.reason else "search exhausted"
        return f"unsolvable: the puzzle has no solution ({reason})"
    if v == "contradictory":
        return f"contradictory: {values(result.reason or '')}"
    return f"unknown: {result.reason or 'budget spent'}"


# -- hint ----------------------------------------------------------------------------------
def run_hint(args: argparse.Namespace) -> int:
    if getattr(args, "scale", "levels") == "se":
        from .rate import run_hint_se

        return run_hint_se(args)
    from ..logic import CandidateGrid, iter_steps, tables_for

    techniques = _techniques(args)
    records = list(iter_inputs(args.puzzle, args))
    if len(records) != 1:
        raise CliError(f"PUZZLE {args.puzzle!r}: expected one puzzle, found {len(records)}")
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    puzzle = rec.puzzle
    tables = tables_for(puzzle.rules)
    values = _value_writer(tables, output_alphabet(args, rec), puzzle.shape.size)
    conflicts = puzzle.conflicts()
    if conflicts:
        text = "; ".join(c.describe(puzzle.shape) for c in conflicts)
        print("contradictory: " + values(text))
        return EXIT_NO
    grid = CandidateGrid.from_puzzle(puzzle)
    if grid.broken is None and grid.empty == 0:
        print("complete: every cell is filled")
        return EXIT_OK
    step = next(iter_steps(grid, techniques), None) if grid.broken is None else None
    if grid.broken is not None and step is None:
        print(f"unsolvable: {values(str(grid.broken))}")
        return EXIT_NO
    if step is None:
        print(
            "no technique applies: the next move needs a guess (or the puzzle has "
            "several solutions)"
        )
        return EXIT_NO
    if args.json:
        data = step.to_json(tables)
        data["explanation"] = values(data["explanation"])
        print(json_dumps(data))
    else:
        print(f"{_title(step.technique)}: {values(step.explanation)}")
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
    if getattr(args, "scale", "levels") == "se":
        from .rate import run_rate_se

        return run_rate_se(args)
    if getattr(args, "no_steps", False):
        raise CliError("--no-steps applies to --scale se only")
    from .rate import run_rating

    keys = tuple(t.key for t in _techniques(args))
    budget = budget_from(args)

    def summary(count: int, seconds: float, levels: Counter[str]) -> str:
        rate = count / seconds if seconds > 0 else 0.0
        histogram = ", ".join(f"{k} {levels[k]}" for k in _RATE_ORDER if levels[k])
        return f"rated {count} puzzles in {seconds:.2f} s ({rate:.1f}/s)" + (
            f": {histogram}" if histogram else ""
        )

    # Technique keys, not Technique objects, cross to worker processes (picklable).
    return run_rating(
        args,
        _rate_one,
        lambda rec: (rec.puzzle, keys, budget),
        chunk=16,
        level_of=lambda rating: rating["level"] or rating["verdict"],
        summary=summary,
    )


#: The order of the summary's histogram of ``sudoku rate``.
_RATE_ORDER = (
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
)
