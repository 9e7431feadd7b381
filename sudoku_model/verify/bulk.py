"""The bulk path: plain classic 9x9 lines read and answered by the backend in one call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, NamedTuple

from .. import records as record_schema
from ..executor import Executor
from ..geometry import Shape
from ..solving import (
    PLAIN_KINDS,
    Backend,
)
from .answering import (
    _build_chunk,
    _clash_result,
    _malformed,
    _options_of,
    _prepare_chunk,
    _solve_prepared,
)
from .batching import _parsed
from .chunks import NOTED_MALFORMED, TextChunk, text_chunk
from .engines import _backend
from .results import _K, VerifyConfig
from .summary import VerifySummary


# -- the bulk path: plain classic 9x9 lines read and answered in one call ------------------
# A chunk of unparsed lines of one plain reader (default alphabet, no variant, 9x9 or
# inferred shape) goes to the backend's verify_plain_lines: one call reads the plain lines
# and answers them as the batch path would, as columns of values; the one serializer
# (sudoku_model.records.verify_bulk_lines) writes their records. Lines that
# are not plain are parsed here as the general path parses them: if they are all malformed
# (their records are those of the general path; the batch holds the plain lines only, as it
# would), the chunk is done; if one of them is a puzzle (a comment, other blanks), or the
# evidence does not check out, the whole chunk takes the general path. Chunks have the
# general path's sizes, so batch sizes and counters are the same: the records are the same
# bytes (tests/sudoku_model/test_verify_bulk.py compares them).
def _bulk_backend(
    config: VerifyConfig, fmt: str, on_results: Callable[..., Any] | None = None
) -> Backend | None:
    """The main backend when the run can take the bulk path (JSONL, nothing computed but
    the verdict, a backend that has one), else None."""
    if (
        fmt != "jsonl"
        or on_results is not None
        or config.cross_check
        or config.minimal
        or config.canonical
    ):
        return None
    main, _ = _backend(config.backend)
    return main if main.capabilities.bulk_verify else None


def reads_raw_lines(kind: str, config: VerifyConfig, fmt: str, *, on_results: bool = False) -> bool:
    """Whether :func:`verify_text` should be given unparsed lines
    (``iter_records(..., raw=True)``): worker processes and Dask parse them, and the bulk
    path reads plain lines in C. ``on_results``: the caller will pass ``on_results``.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    if kind in ("processes", "dask"):
        return True
    return _bulk_backend(config, fmt, (lambda _: None) if on_results else None) is not None


def reads_raw_blocks(
    kind: str, config: VerifyConfig, fmt: str, *, on_results: bool = False
) -> bool:
    """Whether :func:`verify_text` should be given plain lines in blocks
    (``iter_records(..., raw=True, blocks=True)``): the bulk path in this process (the
    serial and threads kinds) hands a block's text to C as it is, and worker processes
    and Dask get blocks in their tasks, with no Python object per line in this process
    either way.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    return reads_raw_lines(kind, config, fmt, on_results=on_results)


_PLAIN_READERS: dict[int, tuple[Any, bool]] = {}


def _plain_reader(reader: Any) -> bool:
    """Whether a line reader reads plain lines as the bulk path does: classic 9x9 rules,
    the default alphabet."""
    hit = _PLAIN_READERS.get(id(reader))
    if hit is None or hit[0] is not reader:
        from ..geometry import Shape
        from ..gridtext import DEFAULT_ALPHABET

        if len(_PLAIN_READERS) > 64:
            _PLAIN_READERS.clear()
        hit = _PLAIN_READERS[id(reader)] = (
            reader,
            reader.shape in (None, Shape(3, 3))
            and not reader.variants
            and reader.alphabet == DEFAULT_ALPHABET,
        )
    return hit[1]


class _BulkLines(NamedTuple):
    """A chunk the bulk path may answer: ``nlines`` consecutive unparsed lines of one
    plain reader, numbered ``lines``, the first at position ``first``; ``texts`` are pieces
    of one or more lines each (a RawLine's text, a RawBlock's), to be joined by newlines
    (in the worker thread, not here)."""

    reader: Any
    input: int
    first: int
    lines: list[int]
    texts: list[str]
    nlines: int


def _bulk_lines(chunk: list[tuple[int, Any]]) -> _BulkLines | None:
    """The chunk (RawLine and RawBlock items) as :class:`_BulkLines`, or None when it is
    anything else (parsed records, two inputs, another reader, a gap in the positions)."""
    from ..formats import RawBlock, RawLine

    index, first = chunk[0]
    if first.__class__ is not RawLine and first.__class__ is not RawBlock:
        return None
    reader = first.reader
    if chunk[-1][0] != index or not _plain_reader(reader):
        return None
    lines: list[int] = []
    texts: list[str] = []
    for i, item in chunk:
        cls = item.__class__
        if (cls is not RawLine and cls is not RawBlock) or item.reader is not reader:
            return None
        if item.position != first.position + len(lines) or i != index:
            return None
        if cls is RawBlock:
            lines += range(item.line, item.line + item.nlines)
        else:
            lines.append(item.line)
        texts.append(item.text)
    return _BulkLines(reader, index, first.position, lines, texts, len(lines))


def _block_chunks(items: Iterable[tuple[int, Any]], size: int) -> Iterator[list[tuple[int, Any]]]:
    """:func:`~sudoku_model.executor.chunks` (the same sizes, counted in records) over
    items among which a :class:`~sudoku_model.formats.RawBlock` counts as its lines: a
    block that crosses the end of a chunk is split there."""
    from ..formats import RawBlock

    want = max(1, min(size, size // 16))
    chunk: list[tuple[int, Any]] = []
    have = 0
    for index, item in items:
        while item.__class__ is RawBlock and item.nlines > want - have:
            head, item = item.split(want - have)
            chunk.append((index, head))
            yield chunk
            chunk, have, want = [], 0, min(size, 2 * want)
        chunk.append((index, item))
        have += item.nlines if item.__class__ is RawBlock else 1
        if have >= want:
            yield chunk
            chunk, have, want = [], 0, min(size, 2 * want)
    if chunk:
        yield chunk


#: Verdict counts of a chunk from the bulk codes (sudoku_model.solving.PLAIN_KINDS; the
#: lines that are not plain are the malformed ones when the chunk is done in bulk).
_CODE_KINDS = tuple(k if k is not None else _K.MALFORMED for k in PLAIN_KINDS)


def _bulk_chunk(config: VerifyConfig, lines: _BulkLines) -> TextChunk | None:
    """The records of a chunk of plain-reader lines as text, or None when the chunk must
    take the general path (see the comment above). Runs in a worker thread: apart from
    the lines that are not plain, no Python per puzzle."""
    main, version = _backend(config.backend)
    count = lines.nlines
    joined = "\n".join(lines.texts)
    answer = main.verify_plain_lines(joined, count, budget=config.budget)
    if answer is None or not answer.evidence_ok:
        return None
    codes = answer.statuses
    options = _options_of(config)  # one dict per configuration: its text is cached
    size = answer.size
    seconds = answer.seconds / size if size else 0.0
    stats = {"batch_size": size, **{f"batch_{k}": v for k, v in answer.stats.items()}}
    inserts: list[str | None] = [None] * count
    notes: list[tuple[str, str]] = []
    odd = codes.count(_ODD_CODE) + codes.count(_CLASH_CODE)
    if odd:
        reader, first, nums = lines.reader, lines.first, lines.lines
        texts = joined.split("\n")
        for j, code in enumerate(codes):
            if code != _ODD_CODE and code != _CLASH_CODE:
                continue
            rec = reader.records([(nums[j], texts[j])], first + j)[0]
            if code == _ODD_CODE:
                if rec.error is None:  # a puzzle after all: the general path reads it
                    return None
                r = _malformed(rec, config, options, version)
                if len(notes) < NOTED_MALFORMED:
                    notes.append(("malformed", str(r.error).splitlines()[0]))
            else:
                r = _clash_result(rec, main.engine_name(), version, seconds, stats, options)
            r.position, r.input = rec.position, lines.input
            inserts[j] = r.to_json_line()
    text = record_schema.verify_bulk_lines(
        source=lines.reader.source,
        input_index=lines.input,
        lines=lines.lines,
        first_position=lines.first,
        statuses=codes,
        layout=_LAYOUT,
        givens=answer.givens,
        clues=answer.clues,
        solutions=answer.solutions,
        witnesses=answer.witnesses,
        shape=_SHAPE,
        inserts=inserts,
        backend=main.engine_name(),
        version=version,
        options=options,
        seconds=seconds,
        stats=stats,
    )
    summary = VerifySummary()
    for code, kind in enumerate(_CODE_KINDS):
        summary.counts[kind] += codes.count(code)
    chunk = TextChunk(text, count, summary, notes)
    chunk.nbytes = len(joined) + 1
    return chunk


_ODD_CODE = PLAIN_KINDS.index(None)
#: What the record of each bulk status holds (sudoku_model.records.verify_bulk_lines): a
#: line that is not plain, and a contradictory one (its record names the clash), get the
#: record the general path writes.
_LAYOUT = tuple(
    (
        ("", record_schema.BULK_INSERT)
        if kind is None or kind is _K.CONTRADICTORY
        else (kind.value, record_schema.BULK_SOLUTION)
        if kind is _K.UNIQUE
        else (kind.value, record_schema.BULK_WITNESSES)
        if kind is _K.MULTIPLE and code == PLAIN_KINDS.index(_K.MULTIPLE)
        else (kind.value, record_schema.BULK_BARE)
    )
    for code, kind in enumerate(PLAIN_KINDS)
)
_SHAPE = Shape(3, 3)
_CLASH_CODE = PLAIN_KINDS.index(_K.CONTRADICTORY)


def _bulk_task(config: VerifyConfig, task: tuple[str, Any, Any]) -> Any:
    """The unit of work of a thread worker on the bulk path: a bulk chunk whole, or the C
    part of a prepared general chunk (as :func:`_solve_task`)."""
    kind, _chunk, extra = task
    if kind == "bulk":
        return _bulk_chunk(config, extra)
    return _solve_prepared(extra, config) if extra is not None else None


def _bulk_text_chunks(
    items: Iterable[tuple[int, Any]],
    config: VerifyConfig,
    executor: Executor,
    chunk_size: int,
    on_wait: Callable[[], None] | None,
    in_process: list[Backend],
) -> Iterator[TextChunk]:
    """:func:`verify_text` on the bulk path: each chunk (the general path's sizes) in bulk
    when it can be, else parsed and answered as :func:`_result_chunks` does."""

    def general(chunk: list[tuple[int, Any]]) -> tuple[str, Any, Any]:
        parsed = list(_parsed(chunk))  # blocks, too, as their lines
        return ("batch", parsed, _prepare_chunk([rec for _, rec in parsed], config))

    def task(chunk: list[tuple[int, Any]]) -> tuple[str, Any, Any]:
        lines = _bulk_lines(chunk)
        return ("bulk", chunk, lines) if lines is not None else general(chunk)

    try:
        for (kind, chunk, extra), answer in executor.map(
            partial(_bulk_task, config),
            (task(chunk) for chunk in _block_chunks(items, chunk_size)),
            on_wait=on_wait,
            on_stop=[b.interrupt for b in in_process],
        ):
            if kind == "bulk":
                if answer is not None:
                    yield answer
                    continue
                kind, chunk, extra = general(chunk)  # answered here, the general way
                answer = _solve_prepared(extra, config)
            records = [rec for _, rec in chunk]
            done = _build_chunk(records, config, extra, answer)
            for r, (index, rec) in zip(done, chunk):
                r.position, r.input = rec.position, index
            text = text_chunk(done, "jsonl")
            text.nbytes = sum(len(rec.text) + 1 for rec in records)
            yield text
    finally:
        executor.close(kill=True)  # a no-op after a complete run
        for b in in_process:
            b.clear_interrupt()
