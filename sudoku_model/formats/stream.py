"""Streaming the records of a source: :func:`iter_records` samples the first lines, decides
the format and the alphabet, and hands the lines to the reader of that format, in
constant memory (lines too long to read become malformed records, in line order)."""

from __future__ import annotations

import io
import itertools
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from ..errors import ParseError
from ..geometry import Shape
from ..gridtext import DEFAULT_ALPHABET, Alphabet
from ..gridtext import is_decoration_line as _is_decoration_line
from ..textlines import MAX_LINE, LongLine, line_blocks, pieces, whole
from .csvformat import _csv_records
from .jsonformat import _json_records, _jsonl_records
from .lines import _block_records, _line_records
from .pencilmark import _pencilmark_records, _pmgrid_records
from .raw import BLOCK_LINES, LineReader, RawBlock, RawLine, _plain_block
from .record import _EXCERPT, _POSITION, FORMATS, Record, _bounded, _new_record
from .sniff import (
    _SAMPLE_LINES,
    _binary_check,
    _choose_alphabet,
    _choose_format,
    _first_line_decides,
    _format_of_name,
)
from .sources import _GzipRaw, _open, _safe, _text_of
from .sudokupad import sudokupad_records


def iter_records(
    src: str | os.PathLike[str] | IO[str] | Iterable[str],
    *,
    source: str | None = None,
    shape: Shape | None = None,
    alphabet: Alphabet | None = None,
    variants: Sequence[str] = (),
    fmt: str = "auto",
    raw: bool = False,
    blocks: bool = False,
) -> Iterator[Record]:
    """Stream the puzzles of a file, a text stream or an iterable of lines.

    Each malformed puzzle is one record with ``error`` set; reading goes on. Memory stays
    bounded for line, block, CSV and JSONL input: a line longer than any puzzle can be
    (:data:`~sudoku_model.textlines.MAX_LINE` characters) is read past in pieces and is one
    malformed record; JSON documents are read whole, up to
    :data:`~sudoku_model.textlines.MAX_JSON_CHARS` characters. Every
    record carries its 0-based ``position`` in the source and the ``alphabet`` it was read
    in. A cut gzip file yields every record before the cut, then one malformed record
    saying so.

    Args:
        src: a path (gzip recognised by its magic bytes), ``bundled:NAME`` (a bundled
            collection, :func:`resolve_source`), an open text stream, or lines.
        source: the name used in records and errors (default: the path or name given).
        shape: the box shape; inferred from the cell count when None.
        alphabet: symbols for values; None (the default) reads the default alphabet unless
            the file shows another one (0-F: a ``0`` with ``.`` blanks and no top letter;
            A-P/A-Y: letters only). Given the default alphabet explicitly, such a file is
            refused with a message naming ``--alphabet``.
        variants: extra rules attached to every puzzle read (JSON puzzles may name their own).
        fmt: one of :data:`FORMATS`; ``auto`` decides from the name, the header, or a
            majority of the first content lines.
        raw: for line-format input, yield each puzzle line unparsed, as a :class:`RawLine`
            (its :class:`LineReader` parses it later, elsewhere, into the very Record this
            function would give); other formats yield Records as usual.
        blocks: with ``raw``, when the reader is plain (classic 9x9 or inferred shape, the
            default alphabet, no variants), runs of lines that are exactly 81 characters
            of ``1-9 . 0`` come as :class:`RawBlock` items (up to :data:`BLOCK_LINES`
            lines each) instead of one RawLine a line: the same lines, numbers and
            positions, without a Python object per line (``sudoku verify``'s bulk path
            hands them to C as they are). Every other line still comes as a RawLine.

    Raises:
        ParseError: when the input holds no puzzle at all (empty file), is binary data, a
            directory, or shows an alphabet other than the one given; for an unknown
            format name. Never any other exception for bad content.
        OSError: when the file cannot be opened (FileNotFoundError for an unknown
            ``bundled:`` name).
    """
    if fmt not in FORMATS:
        raise ParseError(
            f"unknown format {fmt!r}; known: {', '.join(FORMATS)}", source=source or "<options>"
        )
    close = None
    gz: _GzipRaw | None = None
    name = source
    stream: Iterable[str]
    chunked = False
    if isinstance(src, (str, os.PathLike)):
        name = name or os.fspath(src)
        stream, gz = _open(src)
        close = stream
    else:
        name = name or getattr(src, "name", "<stream>")
        buffer = getattr(src, "buffer", None)
        if src in (sys.stdin, sys.__stdin__) and isinstance(buffer, io.BufferedReader):
            # read standard input's bytes, so gzip and undecodable bytes are handled as for
            # a path
            stream, gz = _text_of(buffer)
        else:
            # a caller's text stream is read in bounded pieces too (textlines.pieces)
            lines_in, chunked = pieces(src)
            stream = _safe(lines_in, name or "<stream>")
    assert name is not None
    state = _State()
    long = state.long  # records of lines too long to read, yielded in line order
    position = 0
    try:
        for record in _iter_stream(
            stream,
            name,
            shape,
            alphabet,
            tuple(variants),
            fmt,
            state,
            unparsed=raw,
            blocks=blocks,
            chunked=chunked,
        ):
            if record.__class__ is RawLine:
                # numbered by its reader already (raw=True only)
                yield record  # type: ignore[misc]
                position = record.position + 1
                continue
            if record.__class__ is RawBlock:
                yield record  # type: ignore[misc]
                position = record.position + record.nlines  # type: ignore[attr-defined]
                continue
            while long and long[0].line < record.line:
                yield _new_record(
                    Record, (*long.pop(0)[:_POSITION], position, None, state.alphabet)
                )
                position += 1
            if record.error is not None and len(record.text) > _EXCERPT:
                record = _bounded(record)
            # tuple.__new__, not _replace (5x slower): this runs once per record read
            yield _new_record(Record, (*record[:_POSITION], position, record.extra, state.alphabet))
            position += 1
        for record in long:
            yield _new_record(Record, (*record[:_POSITION], position, None, state.alphabet))
            position += 1
        last = position - 1
        if last < 0 and (gz is None or gz.problem is None):
            # content, but not one puzzle (a header alone, separator lines): say so
            raise ParseError("no puzzle found", source=name, line=max(state.last_line, 1), column=1)
        if gz is not None and gz.problem is not None:
            line = state.last_line + 1
            err = ParseError(gz.problem, source=name, line=line, column=1)
            yield Record(name, line, "", None, err, position=last + 1, alphabet=state.alphabet)
    finally:
        if close is not None:
            close.close()  # type: ignore[attr-defined]


class _State:
    """What a stream reader learns while reading: the alphabet, the last line number."""

    __slots__ = ("alphabet", "last_line", "long")

    def __init__(self) -> None:
        self.alphabet: Alphabet = DEFAULT_ALPHABET
        self.last_line = 0
        #: malformed records of lines too long to read, not yet yielded (line order)
        self.long: list[Record] = []


def _long_record(name: str, lineno: int, line: LongLine) -> Record:
    """The malformed record of a line longer than any puzzle can be."""
    err = ParseError(
        line.message, source=name, line=lineno, column=MAX_LINE + 1, text=f"{line.excerpt}..."
    )
    # short enough to be kept as it is (iter_records bounds longer texts)
    text = f"{line.excerpt[: _EXCERPT // 2]}... [{line.length:,} characters]"
    return Record(name, lineno, text, None, err)


def _iter_stream(
    stream: Iterable[str],
    name: str,
    shape: Shape | None,
    alphabet: Alphabet | None,
    variants: tuple[str, ...],
    fmt: str,
    state: _State,
    unparsed: bool = False,
    blocks: bool = False,
    chunked: bool = False,
) -> Iterator[Any]:
    # lines of at most MAX_LINE characters: a longer one comes in pieces, and whole() makes
    # it a LongLine, read past (checked by length where a line is read: C speed per line)
    it, in_pieces = pieces(stream)
    in_pieces = in_pieces or chunked
    sample: list[tuple[int, str]] = []
    content: list[tuple[int, str]] = []
    lineno = 0
    for raw in it:
        lineno += 1
        if not isinstance(raw, str):
            raise ParseError(
                f"lines must be text, got {type(raw).__name__}", source=name, line=lineno, column=1
            )
        if len(raw) > MAX_LINE:
            raw = whole(raw, it, in_pieces)
        if lineno == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]  # a UTF-8 byte order mark
        sample.append((lineno, raw))
        s = raw.strip()
        if s and not s.startswith("#"):
            content.append((lineno, raw))
            if len(content) >= _SAMPLE_LINES or (
                len(content) == 1 and _first_line_decides(s, fmt, alphabet)
            ):
                break
    state.last_line = lineno
    if not content and not any(raw.__class__ is LongLine for _, raw in sample):
        raise ParseError("empty input: no puzzle found", source=name, line=max(lineno, 1), column=1)
    _binary_check(sample, name)
    if fmt == "auto":
        fmt = (
            _choose_format(content, name, alphabet or DEFAULT_ALPHABET, shape)
            if content
            else _format_of_name(name) or "line"  # nothing but lines too long to read
        )
    chosen = DEFAULT_ALPHABET
    if fmt not in ("fpuzzles", "iss"):
        chosen = _choose_alphabet(fmt, content, shape, alphabet, name)
    state.alphabet = chosen

    def lines() -> Iterator[tuple[int, str]]:
        # a line too long to read is blank to the format's reader; its malformed record
        # goes to state.long, which iter_records yields in line order
        long = state.long
        for n, raw in sample:
            if isinstance(raw, LongLine):
                long.append(_long_record(name, n, raw))
            yield n, raw
        n = lineno
        for raw in it:
            n += 1
            if len(raw) > MAX_LINE:
                raw = whole(raw, it, in_pieces)
                if isinstance(raw, LongLine):
                    long.append(_long_record(name, n, raw))
            yield n, raw
        state.last_line = n

    if fmt == "line" and unparsed:
        reader = LineReader(name, shape, chosen, variants)
        position = 0

        def raw_lines(numbered: Iterable[tuple[int, str]]) -> Iterator[RawLine | Record]:
            # _raw_lines over lines() and _content_lines, fused: the verify fast path reads
            # every line through here, and each generator level costs per line
            nonlocal position
            n = 0
            for n, raw in numbered:
                if len(raw) > MAX_LINE:
                    raw = whole(raw, it, in_pieces)
                stripped = raw.strip()
                if not stripped or stripped[0] == "#":
                    if isinstance(raw, LongLine):  # read past (here, or by line_blocks)
                        yield _long_record(name, n, raw)
                        position += 1
                    continue
                text = raw.rstrip("\r\n")
                if _is_decoration_line(text) and not reader._holds_puzzle(text, n):
                    continue
                yield _new_record(RawLine, (reader, n, text, position))
                position += 1
            state.last_line = max(state.last_line, n)

        if not (blocks and reader.plain):
            yield from raw_lines(itertools.chain(sample, enumerate(it, lineno + 1)))
        else:
            yield from raw_lines(sample)
            n = lineno
            text_stream = stream if isinstance(stream, io.TextIOBase) else it
            for joined, block in line_blocks(text_stream, BLOCK_LINES, 82, in_pieces=in_pieces):
                k = 0 if block is None else len(block)
                if _plain_block(joined, block):
                    # a plain line is never blank, a comment or a separator: every line of
                    # the block is a record, numbered as raw_lines numbers it
                    k = len(joined) // 82
                    yield _new_record(RawBlock, (reader, n + 1, joined[:-1], k, position))
                    position += k
                else:
                    if block is None:
                        block = joined.split("\n")
                        if not block[-1]:
                            block.pop()  # the line end of the last line
                        k = len(block)
                    yield from raw_lines(enumerate(block, n + 1))
                n += k
            state.last_line = n
    elif fmt == "line":
        yield from _line_records(lines(), name, shape, chosen, variants)
    elif fmt == "block":
        yield from _block_records(lines(), name, shape, chosen, variants)
    elif fmt == "csv":
        yield from _csv_records(lines(), name, shape, chosen, variants)
    elif fmt == "jsonl":
        yield from _jsonl_records(lines(), name, shape, chosen, variants)
    elif fmt == "pencilmark":
        yield from _pencilmark_records(lines(), name, shape, chosen, variants)
    elif fmt == "pmgrid":
        yield from _pmgrid_records(lines(), name, shape, chosen, variants)
    elif fmt == "fpuzzles":
        from .. import variant_formats

        yield from variant_formats.fpuzzles_records(lines(), name, variants)
    elif fmt == "sudokupad":
        yield from sudokupad_records(lines(), name, variants)
    elif fmt == "iss":
        from .iss import iss_records  # the ISS reader: imported when an ISS file is read

        yield from iss_records(lines(), name, variants)
    else:
        yield from _json_records(lines(), name, shape, chosen, variants)
