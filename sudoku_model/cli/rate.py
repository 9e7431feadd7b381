"""``sudoku rate FILE --scale se``: Sudoku Explainer-compatible ratings (ER/EP/ED), and
``sudoku explain/hint --scale se``: SE's steps in SE's order.

The option itself is declared by ``sudoku rate``, ``explain`` and ``hint``
(``cli/logic.py``), which hand the run to :func:`run_rate_se`, :func:`run_explain_se` or
:func:`run_hint_se` when ``--scale se`` is given. Both scales of ``sudoku rate`` run
through :func:`run_rating` (over :func:`sudoku_model.rating.rate_stream`). The SE scale
is defined for classic 9x9 puzzles only, plain or pencilmark (rated from their candidates as
SukakuExplainer rates a 729-character line): a variant or another shape is refused (exit 2).
Records carry ER, EP and ED, SE's step list (technique, rating, eliminations,
placement), and the rater's name and version; the five-level ``level`` is derived from
ER by :func:`level_from_er`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import IO, Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    CliError,
    Outcome,
    exit_code,
    iter_inputs,
    json_dumps,
    open_output,
    output_alphabet,
    prefetch,
    refuse_output_over_inputs,
)

__all__ = [
    "SE_LEVEL_BANDS",
    "level_from_er",
    "run_rate_se",
    "run_rating",
    "run_explain_se",
    "run_hint_se",
    "DEFAULT_SE_SECONDS",
]

#: Default CPU seconds per puzzle before the record says "ER above X".
DEFAULT_SE_SECONDS = 60.0

#: (highest ER, level): the five-level scale derived from ER. Singles only; direct
#: techniques and naked singles; intersections, subsets, basic fish and XY/XYZ-wings;
#: uniqueness, quads, BUG, wings and aligned pair exclusion; chains (6.5 and up).
SE_LEVEL_BANDS: tuple[tuple[float, str], ...] = (
    (1.5, "easy"),
    (2.5, "medium"),
    (4.4, "hard"),
    (6.4, "expert"),
    (99.0, "extreme"),
)


def level_from_er(er: float | None, er_above: float | None = None) -> str | None:
    """The five-level name of an ER (or of a lower bound when only ``er_above`` is known,
    and only when that bound already decides the band: 6.5 and up is ``extreme``)."""
    if er is None:
        if er_above is not None and er_above >= 6.5:
            return "extreme"
        return None
    for top, name in SE_LEVEL_BANDS:
        if er <= top + 1e-9:
            return name
    return "extreme"


def _se_verdict(puzzle: Any, seconds: float) -> str:
    """The verdict of a puzzle before SE rates it: SE assumes one solution (its
    uniqueness techniques rely on it), so a puzzle that has none or several gets no
    rating and no SE step."""
    from ..solving import Budget, get_backend

    if puzzle.is_contradictory:
        return "contradictory"
    budget = Budget(seconds=max(seconds, 1.0))
    return str(get_backend("native").check_unique(puzzle, budget=budget).kind.value)


def _se_supported(puzzle: Any) -> bool:
    """A classic 9x9 puzzle, or a 9x9 pencilmark puzzle on the classic rules."""
    from ..puzzle import rules_without_candidates

    if puzzle.size != 9:
        return False
    return bool(puzzle.is_classic or rules_without_candidates(puzzle.rules).is_classic)


def _masks(puzzle: Any) -> list[int]:
    return [sum(1 << (d - 1) for d in digits) for digits in puzzle.candidates]


def _se_rate(puzzle: Any, seconds: float) -> Any:
    """SE's rating of a supported puzzle: from its givens, or, for a pencilmark puzzle,
    from its candidates as SukakuExplainer reads a 729-character line."""
    from ..se import rate_se, rate_se_pencilmark

    if puzzle.is_pencilmark:
        return rate_se_pencilmark(_masks(puzzle), seconds=seconds)
    return rate_se(list(puzzle.givens.values), seconds=seconds)


def _rate_one(job: tuple[Any, float, bool]) -> dict[str, Any]:
    puzzle, seconds, with_steps = job
    supported = _se_supported(puzzle)
    verdict = _se_verdict(puzzle, seconds)
    out: dict[str, Any] = {"verdict": verdict, "scale": "se"}
    if verdict != "unique" or not supported:
        from ..se import RATER_NAME, RATER_VERSION

        if not supported:
            out["se_status"] = "unsupported"
        out.update(
            {
                "level": None,
                "score": 0.0,
                "hardest": None,
                "techniques": {},
                "guesses": 0,
                "er": None,
                "ep": None,
                "ed": None,
                "rater": RATER_NAME,
                "rater_version": RATER_VERSION,
                "seconds": 0.0,
            }
        )
        return out
    r = _se_rate(puzzle, seconds)
    hardest = max(r.steps, key=lambda s: s.rating).technique if r.steps else None
    out.update(
        {
            "level": level_from_er(r.er, r.er_above),
            "score": r.er if r.er is not None else (r.er_above or 0.0),
            "hardest": hardest,
            "techniques": dict(Counter(s.technique for s in r.steps)),
            "guesses": 0,
        }
    )
    out.update(r.to_json(with_steps=with_steps))
    out["seconds"] = round(r.seconds, 6)
    return out


def run_rating(
    args: argparse.Namespace,
    rate_one: Callable[[Any], dict[str, Any]],
    job_of: Callable[[Any], Any],
    *,
    chunk: int,
    level_of: Callable[[dict[str, Any]], str],
    summary: Callable[[int, float, Counter[str]], str],
    refused: Callable[[Any, dict[str, Any]], str | None] | None = None,
) -> int:
    """``sudoku rate`` on either scale: rate every record of ``args.file`` with
    :func:`sudoku_model.rating.rate_stream` into ``--output`` (JSONL, one record each,
    malformed ones included and quoted on stderr), with ``--jobs`` worker processes,
    stopping cleanly on a signal; then ``summary(records, seconds, count per level)`` on
    stderr, followed by ``; INTERRUPTED`` after a signal. ``refused(record, rating)``
    names a record the scale cannot rate (its message goes to stderr and counts as an
    input error, like a malformed record).

    Returns:
        The exit code: the signal's, 2 after a malformed or refused record, else 0.

    Raises:
        CliError: for ``--jobs`` below 1 or an input that cannot be opened.
    """
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    # A missing input or a bad input option fails here, before the output is truncated.
    records = prefetch(iter_inputs(args.file, args))
    refuse_output_over_inputs(args.output, [args.file])
    out = open_output(args.output) if args.output else sys.stdout
    start = time.perf_counter()
    count, malformed, levels, code = rate_records(
        args, records, out, rate_one, job_of, chunk=chunk, level_of=level_of, refused=refused
    )
    seconds = time.perf_counter() - start
    tail = "; INTERRUPTED" if code is not None else ""
    print(summary(count, seconds, levels) + tail, file=sys.stderr)
    if code is not None:
        return code
    return exit_code(input_errors=malformed)


def rate_records(
    args: argparse.Namespace,
    records: Iterable[Any],
    out: IO[str],
    rate_one: Callable[[Any], dict[str, Any]],
    job_of: Callable[[Any], Any],
    *,
    chunk: int,
    level_of: Callable[[dict[str, Any]], str],
    refused: Callable[[Any, dict[str, Any]], str | None] | None = None,
) -> tuple[int, int, Counter[str], int | None]:
    """Rate a stream of records into ``out`` (see :func:`run_rating`); closes ``out``
    unless it is stdout.

    Returns:
        (records, input errors (malformed or refused records), count per level, exit code
        of a signal or None).
    """
    from ..executor import Interrupted, stop_on_signals
    from ..rating import rate_stream
    from ..records import JsonlWriter, head, malformed_record, puzzle_fields

    writer = JsonlWriter(out)
    levels: Counter[str] = Counter()
    malformed = 0
    count = 0
    code: int | None = None
    try:
        with stop_on_signals(linger=True):  # a signal stops the run cleanly (sudoku_model.executor)
            for rated in rate_stream(records, rate_one, job_of, jobs=args.jobs, chunk=chunk):
                for rec, rating in rated:
                    count += 1
                    if rating is None:
                        malformed += 1
                        # on stderr too, as every command reports bad input
                        print(str(rec.error), file=sys.stderr)
                        row = malformed_record("rate", rec)
                        levels["malformed"] += 1
                    else:
                        problem = refused(rec, rating) if refused is not None else None
                        if problem is not None:
                            malformed += 1
                            print(problem, file=sys.stderr)
                        row = head("rate", rec.source, rec.line)
                        row.update(puzzle_fields(rec.puzzle, alphabet=output_alphabet(args, rec)))
                        row.update(rating)
                        levels[level_of(rating)] += 1
                    writer.write(row)
                writer.flush()
    except Interrupted as exc:
        code = exc.exit_code
    finally:
        if out is not sys.stdout:
            out.close()
    return count, malformed, levels, code


#: What the SE scale is defined for (Sudoku Explainer's techniques and ratings).
SE_ONLY = (
    "--scale se rates classic 9x9 puzzles only, plain or pencilmark (Sudoku Explainer's scale)"
)


def _se_input_check(args: argparse.Namespace) -> None:
    """Refuse input options that make every puzzle one SE cannot rate (a variant, another
    shape), before anything is read."""
    from ..geometry import Shape
    from .common import input_options

    opts = input_options(args)
    variants = [v for v in opts["variants"] if v != "classic"]
    if variants:
        raise CliError(f"{SE_ONLY}: not --variant {','.join(variants)}")
    if opts["shape"] is not None and opts["shape"] != Shape(3, 3):
        raise CliError(f"{SE_ONLY}: not a {opts['shape'].name} grid")


def _se_refused(rec: Any, rating: dict[str, Any]) -> str | None:
    if rating.get("se_status") == "unsupported":
        return f"{rec.source}:{rec.line}: {SE_ONLY}"
    return None


def run_rate_se(args: argparse.Namespace) -> int:
    """The ``--scale se`` branch of ``sudoku rate``. A puzzle that is not classic 9x9
    gets a record with ``se_status`` ``unsupported`` and counts as an input error."""
    seconds = args.budget_seconds if args.budget_seconds is not None else DEFAULT_SE_SECONDS
    if seconds < 0:
        raise CliError(f"--budget-seconds must be non-negative, got {seconds}")
    if getattr(args, "techniques", None):
        raise CliError("--techniques does not apply to --scale se (SE's technique set is fixed)")
    _se_input_check(args)
    with_steps = not args.no_steps

    def summary(count: int, wall: float, levels: Counter[str]) -> str:
        histogram = ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))
        return f"rated {count} puzzles (SE scale) in {wall:.2f} s" + (
            f": {histogram}" if histogram else ""
        )

    return run_rating(
        args,
        _rate_one,
        lambda rec: (rec.puzzle, seconds, with_steps),
        chunk=4,
        level_of=lambda rating: rating["level"] or rating.get("se_status") or rating["verdict"],
        summary=summary,
        refused=_se_refused,
    )


def _se_seconds(args: argparse.Namespace) -> float:
    seconds = getattr(args, "budget_seconds", None)
    seconds = DEFAULT_SE_SECONDS if seconds is None else seconds
    if seconds < 0:
        raise CliError(f"--budget-seconds must be non-negative, got {seconds}")
    if getattr(args, "techniques", None):
        raise CliError("--techniques does not apply to --scale se (SE's technique set is fixed)")
    _se_input_check(args)
    return float(seconds)


_NOT_RATED = {
    "multiple": "multiple: the puzzle has more than one solution (SE rates unique puzzles)",
    "unsolvable": "unsolvable: the puzzle has no solution",
    "contradictory": "contradictory: two givens break a rule",
    "unknown": "unknown: uniqueness not decided within the budget",
}


def _rating(value: float | None) -> str:
    """An SE rating for the summary line, ``-`` when SE defines none."""
    return "-" if value is None else f"{value:.1f}"


def _se_summary(r: Any) -> str:
    """The last line of ``explain --scale se``."""
    from ..se import RATER_NAME, RATER_VERSION

    engine = f"({RATER_NAME} {RATER_VERSION})"
    if r.status == "rated" and not r.steps:
        return f"complete: every cell is filled, no step to rate (ER {r.er:.1f}) {engine}"
    if r.status == "rated":
        hardest = max(r.steps, key=lambda s: s.rating).technique if r.steps else "-"
        return (
            f"unique: ER {_rating(r.er)}, EP {_rating(r.ep)}, ED {_rating(r.ed)} in "
            f"{len(r.steps)} steps; "
            f"hardest {hardest} {engine}"
        )
    if r.status == "budget":
        return (
            f"unknown: budget spent after {len(r.steps)} steps; ER above {r.er_above:.1f} {engine}"
        )
    if r.status == "stuck":
        return (
            f"stuck: no built technique applies after {len(r.steps)} steps; ER above "
            f"{r.er_above:.1f} {engine}"
        )
    return f"invalid: a step left a cell without candidates {engine}"


def run_explain_se(args: argparse.Namespace) -> int:
    """``sudoku explain --scale se``: every step SE takes, with its rating, then ER/EP/ED.
    Exit 0 when every puzzle is rated, 1 when one is not (several solutions, budget
    spent, beyond the built techniques), 2 on bad input."""
    seconds = _se_seconds(args)
    records = list(iter_inputs(args.puzzle, args))
    outcome = Outcome()
    for index, rec in enumerate(records):
        if rec.error is not None:
            outcome.malformed(rec.error)
            continue
        puzzle = rec.puzzle
        if not _se_supported(puzzle):
            outcome.malformed(f"{rec.source}:{rec.line}: {SE_ONLY}")
            continue
        line = puzzle.to_line(alphabet=output_alphabet(args, rec))
        verdict = _se_verdict(puzzle, seconds)
        r = _se_rate(puzzle, seconds) if verdict == "unique" else None
        if args.json:
            for number, step in enumerate(r.steps if r else (), start=1):
                print(json_dumps({"step": number, **step.to_json()}))
            summary = {"source": rec.source, "line": rec.line, "puzzle": line, "verdict": verdict}
            if r is not None:
                summary.update(r.to_json())
            print(json_dumps(summary))
        else:
            if len(records) > 1:
                if index:
                    print()
                print(f"{rec.source}:{rec.line}: {line}")
            if r is None:
                print(_NOT_RATED.get(verdict, verdict))
            else:
                width = len(str(len(r.steps)))
                for number, step in enumerate(r.steps, start=1):
                    print(f"{number:>{width}}. {step.describe()}")
                print(_se_summary(r))
        if r is None or r.status != "rated":
            outcome.no()
    return outcome.code


def run_hint_se(args: argparse.Namespace) -> int:
    """``sudoku hint --scale se``: the step SE takes next on the puzzle as given. Exit 0
    with a step (or when complete), 1 when there is none (not unique, beyond the built
    techniques, budget spent), 2 on bad input."""
    from ..se import SEBudgetExceeded, next_step, next_step_pencilmark

    seconds = _se_seconds(args)
    records = list(iter_inputs(args.puzzle, args))
    if len(records) != 1:
        raise CliError(f"PUZZLE {args.puzzle!r}: expected one puzzle, found {len(records)}")
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    puzzle = rec.puzzle
    if not _se_supported(puzzle):
        raise CliError(f"{rec.source}:{rec.line}: {SE_ONLY}")
    values = list(puzzle.givens.values)
    if all(values) and not puzzle.is_contradictory:
        print("complete: every cell is filled")
        return EXIT_OK
    verdict = _se_verdict(puzzle, seconds)
    if verdict != "unique":
        print(_NOT_RATED.get(verdict, verdict))
        return EXIT_NO
    try:
        if puzzle.is_pencilmark:
            step = next_step_pencilmark(_masks(puzzle), seconds=seconds)
        else:
            step = next_step(values, seconds=seconds)
    except SEBudgetExceeded as exc:
        print(f"unknown: no step found within {seconds:g} CPU seconds; ER above {exc.er_above:.1f}")
        return EXIT_NO
    if step is None:
        from ..se import PRODUCERS

        print(f"no built SE technique applies (ER above {PRODUCERS[-1].floor:.1f})")
        return EXIT_NO
    print(json_dumps(step.to_json()) if args.json else step.describe())
    return EXIT_OK
