"""``sudoku rate FILE --scale se``: Sudoku Explainer-compatible ratings (ER/EP/ED).

The option itself is declared by ``sudoku rate`` (``cli/logic.py``), which hands the run
to :func:`run_rate_se` when ``--scale se`` is given. Records carry ER, EP and ED, SE's
step list (technique, rating, eliminations, placement), and the rater's name and
version; the five-level ``level`` is derived from ER by :func:`level_from_er`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import IO, Any

from .common import CliError, exit_code, iter_inputs, open_output, output_alphabet, prefetch

__all__ = ["SE_LEVEL_BANDS", "level_from_er", "run_rate_se", "DEFAULT_SE_SECONDS"]

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


def _rate_one(job: tuple[Any, float, bool]) -> dict[str, Any]:
    from ..se import rate_se
    from ..solving import Budget, get_backend

    puzzle, seconds, with_steps = job
    values = list(puzzle.givens.values)
    supported = puzzle.is_classic and puzzle.size == 9
    if puzzle.is_contradictory:
        verdict = "contradictory"
    else:
        # SE assumes one solution; a puzzle that has none or several gets no rating.
        budget = Budget(seconds=max(seconds, 1.0))
        verdict = get_backend("native").check_unique(puzzle, budget=budget).kind.value
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
    r = rate_se(values, seconds=seconds)
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


def rate_batch(
    rate_one: Callable[[Any], dict[str, Any]], batch: list[tuple[Any, Any]]
) -> list[dict[str, Any] | None]:
    """The unit of work of the executor: a chunk of (record, job) pairs, a job None for a
    malformed record."""
    return [None if job is None else rate_one(job) for _, job in batch]


def rate_records(
    args: argparse.Namespace,
    records: Iterable[Any],
    out: IO[str],
    rate_one: Callable[[Any], dict[str, Any]],
    job_of: Callable[[Any], Any],
    *,
    chunk: int,
    level_of: Callable[[dict[str, Any]], str],
) -> tuple[int, int, Counter[str], int | None]:
    """Rate a stream of records into ``out`` (JSONL, one record each, malformed ones
    included and quoted on stderr), with ``--jobs`` worker processes (the raters are
    Python), stopping cleanly on a signal; closes ``out`` unless it is stdout. Shared by
    both scales of ``sudoku rate``.

    Returns:
        (records, malformed records, count per level, exit code of a signal or None).
    """
    from functools import partial

    from ..executor import Executor, Interrupted, chunks, stop_on_signals
    from ..records import JsonlWriter, head, malformed_record, puzzle_fields

    writer = JsonlWriter(out)
    levels: Counter[str] = Counter()
    malformed = 0
    count = 0
    code: int | None = None
    try:
        with stop_on_signals(linger=True):  # a signal stops the run cleanly (sudoku_model.executor)
            # Streaming: records are read as the workers need them, never all at once.
            executor = Executor(kind="processes" if args.jobs > 1 else "serial", jobs=args.jobs)
            batches = chunks(
                ((rec, None if rec.error is not None else job_of(rec)) for rec in records),
                chunk,
                first=1,
            )
            for batch, ratings in executor.map(partial(rate_batch, rate_one), batches):
                for (rec, _), rating in zip(batch, ratings):
                    count += 1
                    if rating is None:
                        malformed += 1
                        # on stderr too, as every command reports bad input
                        print(str(rec.error), file=sys.stderr)
                        row = malformed_record("rate", rec)
                        levels["malformed"] += 1
                    else:
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


def run_rate_se(args: argparse.Namespace) -> int:
    """The ``--scale se`` branch of ``sudoku rate``."""
    seconds = args.budget_seconds if args.budget_seconds is not None else DEFAULT_SE_SECONDS
    if seconds < 0:
        raise CliError(f"--budget-seconds must be non-negative, got {seconds}")
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    if getattr(args, "techniques", None):
        raise CliError("--techniques does not apply to --scale se (SE's technique set is fixed)")
    with_steps = not args.no_steps
    records = prefetch(iter_inputs(args.file, args))
    out = open_output(args.output) if args.output else sys.stdout
    start = time.perf_counter()
    count, malformed, levels, code = rate_records(
        args,
        records,
        out,
        _rate_one,
        lambda rec: (rec.puzzle, seconds, with_steps),
        chunk=4,
        level_of=lambda rating: rating["level"] or rating.get("se_status") or rating["verdict"],
    )
    wall = time.perf_counter() - start
    histogram = ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))
    tail = "; INTERRUPTED" if code is not None else ""
    print(f"rated {count} puzzles (SE scale) in {wall:.2f} s: {histogram}{tail}", file=sys.stderr)
    if code is not None:
        return code
    return exit_code(input_errors=malformed)
