"""Where text comes from: input names (``bundled:NAME``), files opened as text with gzip
recognised by its magic bytes, and a caller's streams read safely."""

from __future__ import annotations

import errno
import gzip
import io
import os
import zlib
from collections.abc import Iterable, Iterator
from typing import IO, Any, TextIO

from ..errors import ParseError

_GZIP_MAGIC = b"\x1f\x8b"


class _GzipRaw(io.RawIOBase):
    """Gzip members decompressed from a binary file. A stream cut short (or corrupt) ends
    like a clean one, so every byte before the cut is delivered; ``problem`` then says what
    went wrong, for the reader to report after the last record."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self._d = zlib.decompressobj(wbits=31)
        self._in = b""
        self._out = b""
        self._pos = 0
        self._started = False
        self._done = False
        self.problem: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while self._pos >= len(self._out):
            if self._done:
                return 0
            self._fill()
        n = min(len(b), len(self._out) - self._pos)
        b[:n] = self._out[self._pos : self._pos + n]
        self._pos += n
        return n

    def _fill(self) -> None:
        if not self._in:
            self._in = self._f.read(1 << 16)
            if not self._in:
                if self._started:
                    self.problem = "the gzip data ends before its end marker (a truncated file)"
                self._done = True
                return
        d = self._d
        try:
            # bounded output per call: a small file that expands enormously is read piecewise
            self._out = d.decompress(self._in, 1 << 20)
        except zlib.error as exc:
            self.problem = f"corrupt gzip data ({exc})"
            self._done = True
            return
        self._pos = 0
        self._started = True
        if d.eof:
            rest = d.unused_data
            self._d = zlib.decompressobj(wbits=31)
            self._started = False
            if rest.startswith(_GZIP_MAGIC):
                self._in = rest  # the next member
            else:
                self._in = b""
                if rest:
                    self._done = True  # trailing bytes after the last member: ignored
        else:
            self._in = d.unconsumed_tail

    def close(self) -> None:
        self._f.close()
        super().close()


def _text_of(f: IO[bytes]) -> tuple[TextIO, _GzipRaw | None]:
    """A text stream over a binary one: gzip recognised by its magic bytes, undecodable
    bytes replaced by U+FFFD (reported later as bad symbols, never a crash)."""
    buffered = f if isinstance(f, io.BufferedReader) else io.BufferedReader(f)  # type: ignore[arg-type,type-var]
    raw: _GzipRaw | None = None
    if buffered.peek(2)[:2] == _GZIP_MAGIC:
        raw = _GzipRaw(buffered)
        buffered = io.BufferedReader(raw, 1 << 16)
    text = io.TextIOWrapper(buffered, encoding="utf-8", errors="replace", newline=None)
    return text, raw


def resolve_source(src: str | os.PathLike[str]) -> str:
    """The file an input name stands for: ``bundled:NAME`` is a bundled collection
    (:mod:`sudoku_model.data`), any other name is the path as given. The one resolver of
    input names, for :func:`iter_records` and the command line alike.

    >>> os.path.basename(resolve_source("bundled:top95")), resolve_source("my/puzzles.txt")
    ('top95.txt', 'my/puzzles.txt')

    Raises:
        FileNotFoundError: for ``bundled:NAME`` with an unknown name (listing the known ones).
    """
    text = os.fspath(src)
    if not text.startswith("bundled:"):
        return text
    from ..data import resolve_input

    try:
        return os.fspath(resolve_input(text)[0])
    except KeyError as exc:
        raise FileNotFoundError(errno.ENOENT, str(exc.args[0]), text) from None


def open_text(path: str | os.PathLike[str]) -> TextIO:
    """Open a puzzle file for reading as text: gzip-compressed data is recognised by its
    magic bytes (whatever the name), undecodable bytes become U+FFFD (reported later as a
    bad symbol, never a crash).

    Raises:
        ParseError: for a directory.
        OSError: when the file cannot be opened.
    """
    return _open(path)[0]


def _open(path: str | os.PathLike[str]) -> tuple[TextIO, _GzipRaw | None]:
    p = resolve_source(path)
    if os.path.isdir(p):
        raise ParseError("is a directory, not a puzzle file", source=p, line=1, column=1)
    return _text_of(open(p, "rb"))


def _safe(stream: Iterable[str], name: str) -> Iterator[str]:
    """The lines of a caller's stream; decoding and decompression errors become
    ParseError."""
    n = 0
    try:
        for raw in stream:
            n += 1
            yield raw
    except (UnicodeDecodeError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ParseError(
            f"cannot read the input: {exc}", source=name, line=n + 1, column=1
        ) from None
