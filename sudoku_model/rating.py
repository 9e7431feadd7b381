"""Rating a stream of puzzle records: the one loop behind both scales of ``sudoku rate``.

A *rater* is a picklable function from a job (what one puzzle needs: the puzzle and the
scale's settings) to the rating fields of its record; :func:`rate_stream` runs it over
records read lazily, in worker processes when asked (the raters are Python, so threads
would queue on the GIL), and gives the ratings back in input order, chunk by chunk, so
that the caller can write and flush its records as they come. Malformed records are
passed through with no rating. Writing the records (their schema is
:mod:`sudoku_model.records`) and reporting are the caller's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

__all__ = ["rate_batch", "rate_stream"]

Rating = dict[str, Any]


def rate_batch(
    rate_one: Callable[[Any], Rating], batch: list[tuple[Any, Any]]
) -> list[Rating | None]:
    """The unit of work of the executor: a chunk of (record, job) pairs, a job None for a
    malformed record (rated None)."""
    return [None if job is None else rate_one(job) for _, job in batch]


def rate_stream(
    records: Iterable[Any],
    rate_one: Callable[[Any], Rating],
    job_of: Callable[[Any], Any],
    *,
    jobs: int = 1,
    chunk: int = 16,
) -> Iterator[list[tuple[Any, Rating | None]]]:
    """The (record, rating) pairs of ``records``, in input order, one list per chunk of at
    most ``chunk`` records (the first chunk holds one, so the first record comes back at
    once). ``job_of(record)`` makes the job of a well-formed record; a record whose
    ``error`` is set is rated None. With ``jobs`` > 1, ``rate_one`` runs in that many
    worker processes (``rate_one`` and the jobs must then be picklable). Records are read
    as the workers need them, never all at once.

    Raises:
        ValueError: for ``jobs`` or ``chunk`` below 1.
        Interrupted: from the executor, when a signal asked the run to stop (within
            :func:`sudoku_model.executor.stop_on_signals`).
    """
    from .executor import chunks, executor_for

    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    executor = executor_for(jobs=jobs, python_work=True)
    batches = chunks(
        ((rec, None if rec.error is not None else job_of(rec)) for rec in records),
        chunk,
        first=1,
    )
    for batch, ratings in executor.map(partial(rate_batch, rate_one), batches):
        yield [(rec, rating) for (rec, _), rating in zip(batch, ratings)]
