"""Verify as text: tasks of unparsed lines for worker processes and Dask, and
:func:`verify_text`, what ``sudoku verify`` writes."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from ..executor import Executor
from . import bulk as _bulk
from .answering import verify_chunk
from .batching import _parsed, _result_chunks
from .chunks import (
    FIRST_TASK_RECORDS,
    MAX_TASK_RECORDS,
    PROBE_RECORDS,
    TASK_SECONDS,
    TextChunk,
    text_chunk,
)
from .engines import _backend
from .results import DEFAULT_CHUNK_SIZE, VerifyConfig, VerifyResult


class _TextTask(NamedTuple):
    """What a worker gets: either consecutive unparsed lines of one line-format input
    (``reader``, ``input``, ``first`` position, ``lines`` numbers, ``texts``) or parsed
    ``records`` with the ``inputs`` they belong to; ``nbytes`` stays with the parent.
    ``sizes``: the lines of each text when some are blocks (a
    :class:`~sudoku_model.formats.RawBlock`'s lines joined by newlines), None when every
    text is one line."""

    config: VerifyConfig
    fmt: str
    reader: Any
    input: int
    first: int
    lines: list[int]
    texts: list[str]
    records: list[Any]
    inputs: list[int]
    nbytes: int
    sizes: list[int] | None = None

    def line_texts(self) -> list[str]:
        """The texts, one per line."""
        if self.sizes is None:
            return self.texts
        out: list[str] = []
        for text, k in zip(self.texts, self.sizes):
            if k == 1:
                out.append(text)
            else:
                out += text.split("\n")
        return out


def _text_task(task: _TextTask) -> TextChunk:
    """The unit of work of a worker process or a Dask worker: parse, verify, format."""
    # thread time: a task may run in a thread of the parent (while a LocalCluster starts),
    # whose other threads' CPU is not this task's
    start, cpu = time.perf_counter(), time.thread_time()
    if (
        task.reader is not None
        and _bulk._plain_reader(task.reader)
        and _bulk._bulk_backend(task.config, task.fmt) is not None
    ):
        # the bulk path, as in one process (threads): the same bytes, none of the Python
        # per puzzle that parsing and formatting cost (40 us a record on native, which
        # held --dask local to 1.3x one process)
        lines = _bulk._BulkLines(
            task.reader, task.input, task.first, task.lines, task.texts, len(task.lines)
        )
        bulk = _bulk._bulk_chunk(task.config, lines)
        if bulk is not None:
            bulk.seconds = time.perf_counter() - start
            bulk.cpu = time.thread_time() - cpu
            return bulk
    if task.reader is not None:
        records = task.reader.records(zip(task.lines, task.line_texts()), task.first)
        inputs: Iterable[int] = itertools.repeat(task.input)
    else:
        records, inputs = task.records, task.inputs
    results = verify_chunk(records, task.config)
    for r, rec, index in zip(results, records, inputs):
        r.position, r.input = rec.position, index
    chunk = text_chunk(results, task.fmt)
    chunk.seconds = time.perf_counter() - start
    chunk.cpu = time.thread_time() - cpu
    return chunk


class _TaskSizer:
    """Records per task: ``fixed`` when given, else enough for :data:`TASK_SECONDS` of
    worker CPU at the rate measured on the tasks come back so far (a moving average; CPU,
    not wall time: on a busy machine a worker's wall time stretches, the cost of a task in
    this process does not shrink)."""

    def __init__(self, kind: str, fixed: int | None) -> None:
        self.fixed = fixed
        self.target = TASK_SECONDS.get(kind, TASK_SECONDS["processes"])
        self.per_record: float | None = None
        self._probe = FIRST_TASK_RECORDS

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.per_record is None:
            size, self._probe = self._probe, min(PROBE_RECORDS, 2 * self._probe)
            return size
        return max(FIRST_TASK_RECORDS, min(MAX_TASK_RECORDS, int(self.target / self.per_record)))

    def observe(self, chunk: TextChunk) -> None:
        if chunk.count and chunk.cpu > 0:
            rate = chunk.cpu / chunk.count
            last = self.per_record
            self.per_record = rate if last is None else 0.7 * last + 0.3 * rate


class _TaskCut:
    """The task being filled: unparsed lines of one input, in a row, or parsed records."""

    def __init__(self, config: VerifyConfig, fmt: str) -> None:
        self.config, self.fmt = config, fmt
        self._reset()

    def _reset(self) -> None:
        self.reader: Any = None
        self.index = self.first = self.nbytes = 0
        self.lines: list[int] = []
        self.texts: list[str] = []
        self.sizes: list[int] | None = None
        self.records: list[Any] = []
        self.inputs: list[int] = []

    def follows(self, index: int, line: Any) -> bool:
        """Whether an unparsed line or block continues the lines of this task."""
        return (
            line.reader is self.reader
            and index == self.index
            and line.position == self.first + len(self.lines)
        )

    def add_line(self, index: int, line: Any) -> int:
        if not self.texts:
            self.reader, self.index, self.first = line.reader, index, line.position
        self.texts.append(line.text)
        self.lines.append(line.line)
        if self.sizes is not None:
            self.sizes.append(1)
        self.nbytes += len(line.text) + 1
        return len(self.lines)

    def add_block(self, index: int, block: Any) -> int:
        """Add a :class:`~sudoku_model.formats.RawBlock` whole: no Python object per line
        on this side (the parent of a Dask run reads, cuts and writes; per line, that was
        a fifth of its CPU)."""
        if not self.texts:
            self.reader, self.index, self.first = block.reader, index, block.position
        if self.sizes is None:
            self.sizes = [1] * len(self.texts)
        self.texts.append(block.text)
        self.sizes.append(block.nlines)
        self.lines += range(block.line, block.line + block.nlines)
        self.nbytes += len(block.text) + 1
        return len(self.lines)

    def add_record(self, index: int, record: Any) -> int:
        self.records.append(record)
        self.inputs.append(index)
        self.nbytes += len(record.text) + 1
        return len(self.records)

    def take(self) -> _TextTask:
        task = _TextTask(
            self.config,
            self.fmt,
            self.reader if self.texts else None,
            self.index,
            self.first,
            self.lines,
            self.texts,
            self.records,
            self.inputs,
            self.nbytes,
            self.sizes,
        )
        self._reset()
        return task


def _text_tasks(
    items: Iterable[tuple[int, Any]], config: VerifyConfig, fmt: str, sizer: _TaskSizer
) -> Iterator[_TextTask]:
    """Group ``(input index, record or unparsed line)`` items into tasks of the sizes
    ``sizer`` says: unparsed lines of one input, in a row, travel as text; parsed records
    as they are."""
    from ..formats import RawBlock, RawLine

    cut = _TaskCut(config, fmt)
    want = sizer.size()
    for index, item in items:
        cls = item.__class__
        if cls is RawBlock or cls is RawLine:
            if cut.records or (cut.texts and not cut.follows(index, item)):
                yield cut.take()
                want = sizer.size()
            if cls is RawLine:
                full = cut.add_line(index, item) >= want
            else:
                # cut where lines one by one would be cut: the same tasks, the same bytes
                # (the task is never full here: a full one was taken)
                while item.nlines > want - len(cut.lines):
                    head, item = item.split(want - len(cut.lines))
                    cut.add_block(index, head)
                    yield cut.take()
                    want = sizer.size()
                full = cut.add_block(index, item) >= want
        else:
            if cut.texts:
                yield cut.take()
                want = sizer.size()
            full = cut.add_record(index, item) >= want
        if full:
            yield cut.take()
            want = sizer.size()
    if cut.texts or cut.records:
        yield cut.take()


def verify_text(
    items: Iterable[tuple[int, Any]],
    *,
    config: VerifyConfig,
    executor: Executor,
    fmt: str = "jsonl",
    chunk_size: int | None = None,
    on_wait: Callable[[], None] | None = None,
    on_results: Callable[[list[VerifyResult]], None] | None = None,
) -> Iterator[TextChunk]:
    """Verify ``(input index, item)`` pairs and yield the records as text, chunk by chunk,
    in input order: what ``sudoku verify`` writes.

    An item is a :class:`~sudoku_model.formats.Record` or, better for worker processes
    and Dask, an unparsed :class:`~sudoku_model.formats.RawLine` (``iter_records(...,
    raw=True)``): then this process only reads lines and writes text, while the workers
    parse, verify and format (the same code, so the same bytes, as in this process).
    Threads and the serial kind run the batch path of :func:`verify_records` here;
    ``on_results`` (those kinds only: elsewhere the results stay in the workers) is called
    with each chunk's :class:`VerifyResult` objects before its text is yielded (``sudoku
    verify --certify`` certifies them).

    ``chunk_size``: records per chunk; None chooses it: 512 for threads and serial, and for
    processes and Dask from the rate measured on the chunks done so far (see
    :data:`TASK_SECONDS`). The executor is closed when the iteration ends. Signals: as
    :func:`verify_records` (the finished chunks are yielded, then
    :class:`~sudoku_model.executor.Interrupted` is raised).

    Raises:
        ValueError: for a format other than ``jsonl`` or ``csv``, or ``chunk_size`` below 1.
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
        Interrupted: after a signal.
    """
    if fmt not in ("jsonl", "csv"):
        executor.close(kill=True)
        raise ValueError(f"unknown output format {fmt!r}: jsonl or csv")
    if chunk_size is not None and chunk_size < 1:
        executor.close(kill=True)
        raise ValueError("chunk_size must be at least 1")
    in_process = [_backend(config.backend)[0]] + [_backend(n)[0] for n in config.cross_check]
    if executor.kind in ("serial", "threads") and _bulk._bulk_backend(config, fmt, on_results):
        yield from _bulk._bulk_text_chunks(
            items, config, executor, chunk_size or DEFAULT_CHUNK_SIZE, on_wait, in_process
        )
        return
    if executor.kind in ("serial", "threads"):
        for done, results in _result_chunks(
            _parsed(items), config, executor, chunk_size or DEFAULT_CHUNK_SIZE, on_wait, in_process
        ):
            chunk = text_chunk(results, fmt)
            chunk.nbytes = sum(len(rec.text) + 1 for _, rec in done)
            if on_results is not None:
                on_results(results)
            yield chunk
        return
    if on_results is not None:
        executor.close(kill=True)
        raise ValueError("on_results needs the serial or threads executor")
    sizer = _TaskSizer(executor.kind, chunk_size)
    for task, chunk in executor.map(
        _text_task, _text_tasks(items, config, fmt, sizer), on_wait=on_wait
    ):
        sizer.observe(chunk)
        chunk.nbytes = task.nbytes
        yield chunk
