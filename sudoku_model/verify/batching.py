"""Batches of records: the executor kind of a run, the stream of results in input order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from ..executor import Executor, choose_kind, chunks, executor_for
from ..solving import (
    DEFAULT_BACKEND,
    DEFAULT_BUDGET,
    Backend,
    Budget,
)
from .answering import _build_chunk, _prepare_chunk, _solve_prepared, verify_chunk
from .engines import _backend
from .results import DEFAULT_CHUNK_SIZE, VerifyConfig, VerifyResult


# -- batches -------------------------------------------------------------------------------
def _solve_task(config: VerifyConfig, task: tuple[list[Any], Any]) -> Any:
    """The unit of work of a thread worker: only the C part of a prepared chunk."""
    _chunk, prepared = task
    return _solve_prepared(prepared, config) if prepared is not None else None


def _policy(backend: str, cross_check: Sequence[str], minimal: bool) -> dict[str, Any]:
    """The declared properties of a run that the executor policy reads (keyword arguments
    of :func:`~sudoku_model.executor.choose_kind`): every backend's capabilities, the
    primitive the work goes through, and whether Python work of its own (a cross-check,
    the minimality test) runs beside the searches."""
    return {
        "capabilities": [_backend(name)[0].capabilities for name in (backend, *cross_check)],
        "fast_path": "check_unique_batch",
        "python_work": minimal or bool(cross_check),
    }


def executor_kind(
    backend: str,
    *,
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    jobs: int = 1,
    dask: str | None = None,
    threads: bool | None = None,
) -> str:
    """How :func:`verify_records` runs a configuration: the toolkit's one policy
    (:func:`sudoku_model.executor.choose_kind`) over the run's declared properties.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    return choose_kind(
        jobs=jobs, dask=dask, threads=threads, **_policy(backend, cross_check, minimal)
    )


def make_executor(
    backend: str,
    *,
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    jobs: int = 1,
    dask: str | None = None,
    threads: bool | None = None,
    in_process: bool = False,
) -> Executor:
    """The executor of a verify run (:func:`sudoku_model.executor.executor_for` over the
    run's declared properties; ``in_process`` keeps the work in this process, serial or
    threads, for a caller that needs each result object here).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
        ValueError: for ``in_process`` with ``dask``, or a malformed ``dask`` address.
        ImportError: for ``dask`` without the ``dask`` extra installed.
        ConnectionError: for a Dask scheduler that cannot be reached.
    """
    return executor_for(
        jobs=jobs,
        dask=dask,
        threads=threads,
        in_process=in_process,
        **_policy(backend, cross_check, minimal),
    )


def releases_gil(backend: str, cross_check: Sequence[str] = ()) -> bool:
    """Whether every backend of a run releases the GIL while it searches (its searches can
    run in this process beside other threads; see ``Executor.work_while_starting``).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    return all(_backend(name)[0].capabilities.releases_gil for name in (backend, *cross_check))


def verify_records(
    records: Iterable[Any],
    *,
    backend: str = DEFAULT_BACKEND,
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    budget: Budget | None = None,
    jobs: int = 1,
    dask: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    threads: bool | None = None,
    validate: bool = True,
    canonical: bool = False,
    on_chunk: Callable[[list[VerifyResult]], None] | None = None,
    on_wait: Callable[[], None] | None = None,
    executor: Executor | None = None,
) -> Iterator[VerifyResult]:
    """Verify a stream of records (:func:`sudoku_model.formats.iter_records`), in order.

    Reads ``records`` lazily: at most a few chunks are in flight, so memory stays
    constant. The work runs on one :class:`~sudoku_model.executor.Executor`, of the kind
    :func:`executor_kind` chooses (``jobs`` threads for native, ``jobs`` processes for the
    other backends, ``dask`` a scheduler address or ``"local"``), or on ``executor`` when
    given (made beforehand, e.g. to fail on an unreachable scheduler before opening an
    output). Each result carries its record's ``position``. ``on_chunk`` is called with
    each chunk's results as they come; ``on_wait`` every 0.1 s while waiting for one.

    With ``canonical``, each result also carries its puzzle's canonical form
    (:attr:`VerifyResult.canonical`; None for variant rules or a spent budget).

    Inside :func:`sudoku_model.executor.stop_on_signals`, SIGINT or SIGTERM stops the run:
    the backends are interrupted, the chunks already finished are yielded (and passed to
    ``on_chunk``), nothing of the chunks in flight, and
    :class:`~sudoku_model.executor.Interrupted` is raised.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
        ImportError: for ``dask`` without the ``dask`` extra installed.
        ConnectionError: for a Dask scheduler that cannot be reached.
        ValueError: for ``jobs`` or ``chunk_size`` below 1, or a malformed ``dask`` address.
        Interrupted: after a signal, see above.
    """
    if jobs < 1 or chunk_size < 1:
        raise ValueError("jobs and chunk_size must be at least 1")
    config = VerifyConfig(
        backend, tuple(cross_check), minimal, DEFAULT_BUDGET if budget is None else budget, validate
    )
    if canonical:
        from dataclasses import replace

        config = replace(config, canonical=True)
    # make the backends here first: an unknown name fails before any work is sent
    in_process = [_backend(config.backend)[0]] + [_backend(n)[0] for n in config.cross_check]
    if executor is None:
        executor = make_executor(
            backend, cross_check=cross_check, minimal=minimal, jobs=jobs, dask=dask, threads=threads
        )
    for _, results in _result_chunks(
        _numbered(records), config, executor, chunk_size, on_wait, in_process
    ):
        if on_chunk is not None:
            on_chunk(results)
        yield from results


def _numbered(records: Iterable[Any]) -> Iterator[tuple[int, Any]]:
    """(input index, record): for library callers (the command line numbers its inputs
    itself), a new input starts where the source changes or the positions start again."""
    source, position, index = None, -1, -1
    for rec in records:
        if rec.source != source or rec.position <= position:
            index += 1
        source, position = rec.source, rec.position
        yield index, rec


def _parsed(items: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The items with every unparsed line (:class:`~sudoku_model.formats.RawLine`, and
    the lines of a :class:`~sudoku_model.formats.RawBlock`) parsed."""
    from ..formats import RawLine

    for index, item in _line_items(items):
        yield index, (item.reader.record(item) if item.__class__ is RawLine else item)


def _line_items(items: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The items with every :class:`~sudoku_model.formats.RawBlock` given as its lines
    (:class:`~sudoku_model.formats.RawLine`)."""
    from ..formats import RawBlock

    for index, item in items:
        if item.__class__ is RawBlock:
            for line in item.raw_lines():
                yield index, line
        else:
            yield index, item


def _result_chunks(
    items: Iterable[tuple[int, Any]],
    config: VerifyConfig,
    executor: Executor,
    chunk_size: int,
    on_wait: Callable[[], None] | None,
    in_process: list[Backend],
) -> Iterator[tuple[list[tuple[int, Any]], list[VerifyResult]]]:
    """The results of ``(input index, record)`` items, chunk by chunk, in order, each with
    its input index (and its record's position) set, with the chunk of items."""
    batch = executor.kind in ("serial", "threads") and _prepare_chunk([], config) is not None
    tasks: Iterable[Any]
    fn: Callable[[Any], Any]
    if batch:
        # This thread prepares and builds the results while the workers run only the C
        # part, so the workers hardly ever wait for the GIL.
        tasks = (
            (chunk, _prepare_chunk([rec for _, rec in chunk], config))
            for chunk in chunks(items, chunk_size)
        )
        fn = partial(_solve_task, config)
    else:
        tasks = ((chunk, config) for chunk in chunks(items, chunk_size))
        fn = _verify_numbered_task
    try:
        for (chunk, extra), answer in executor.map(
            fn, tasks, on_wait=on_wait, on_stop=[b.interrupt for b in in_process]
        ):
            done = (
                _build_chunk([rec for _, rec in chunk], config, extra, answer) if batch else answer
            )
            for r, (index, rec) in zip(done, chunk):
                r.position, r.input = rec.position, index
            yield chunk, done
    finally:
        executor.close(kill=True)  # a no-op after a complete run
        for b in in_process:
            b.clear_interrupt()


def _verify_numbered_task(task: tuple[list[tuple[int, Any]], VerifyConfig]) -> list[VerifyResult]:
    """The unit of work sent to a worker process or a Dask worker: one chunk of
    ``(input index, record)``."""
    chunk, config = task
    return verify_chunk([rec for _, rec in chunk], config)
