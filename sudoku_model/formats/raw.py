"""Unparsed lines: read here, parsed elsewhere (a worker process). ``iter_records(...,
raw=True)`` yields :class:`RawLine` items (and, with ``blocks``, :class:`RawBlock` runs of
plain lines); their :class:`LineReader` turns them into the Records ``iter_records`` would
have given."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..errors import ParseError, ShapeError
from ..geometry import Shape
from ..gridtext import DEFAULT_ALPHABET, Alphabet, decode_line
from .lines import _line_records
from .record import _EXCERPT, _POSITION, Record, _bounded, _new_record

# -- unparsed lines: read here, parsed elsewhere (a worker process) ---------------------------
#: Lines read at a time for :class:`RawBlock` items (``iter_records(..., blocks=True)``).
BLOCK_LINES = 512
_PLAIN_CHARS = b"123456789.0\n"
_NEWLINES = b"\n" * BLOCK_LINES


def _plain_block(joined: str, block: list[str] | None) -> bool:
    """Whether ``joined`` is lines of exactly 81 plain characters, each ended by a newline
    (and, when the stream gave ``block``, each of its lines one of them: a caller's lines
    may hold a line end anywhere): a check at C speed over the whole text (its length, a
    newline every 82 characters and nowhere else, no other character than the plain
    ones)."""
    count, rest = divmod(len(joined), 82)
    if rest or not count or not joined.isascii():
        return False
    if block is not None and (len(block) != count or set(map(len, block)) != {82}):
        return False
    data = joined.encode("ascii")
    ends = _NEWLINES if count == BLOCK_LINES else b"\n" * count
    return (
        data[81::82] == ends
        and data.count(b"\n") == count
        and not data.translate(None, _PLAIN_CHARS)
    )


class LineReader(NamedTuple):
    """How the lines of one line-format source are read: what a worker needs to turn the
    :class:`RawLine` items of ``iter_records(..., raw=True)`` into the Records that
    ``iter_records`` would have given (picklable, small)."""

    source: str
    shape: Shape | None
    alphabet: Alphabet
    variants: tuple[str, ...]

    def records(self, lines: Iterable[tuple[int, str]], first_position: int) -> list[Record]:
        """The Records of consecutive puzzle lines ``(line number, text)`` of this source,
        the first at ``first_position``: every line given is one record (the lines that
        hold none were left out by :func:`iter_records`)."""
        alphabet = self.alphabet
        out = []
        for position, record in enumerate(
            _line_records(lines, self.source, self.shape, alphabet, self.variants),
            first_position,
        ):
            if record.error is not None and len(record.text) > _EXCERPT:
                record = _bounded(record)
            out.append(_new_record(Record, (*record[:_POSITION], position, None, alphabet)))
        return out

    def record(self, line: RawLine) -> Record:
        """The Record of one :class:`RawLine` of this source."""
        return self.records([(line.line, line.text)], line.position)[0]

    @property
    def plain(self) -> bool:
        """Whether this reader reads a line of 81 characters ``1-9 . 0`` as a classic
        9x9 puzzle, nothing more (no variants, the default alphabet)."""
        return (
            self.shape in (None, Shape(3, 3))
            and not self.variants
            and self.alphabet == DEFAULT_ALPHABET
        )

    def _holds_puzzle(self, text: str, lineno: int) -> bool:
        # a separator line (+---+) is no record unless it reads as cells
        try:
            decode_line(text, shape=self.shape, alphabet=self.alphabet, line=lineno)
        except ParseError:
            return False
        except (ValueError, ShapeError):
            return True  # a malformed record, as _line_records makes it
        return True


class RawLine(NamedTuple):
    """One puzzle line of a line-format source, not parsed yet (``iter_records(...,
    raw=True)``): its reader, 1-based line number, text (without its line end) and
    0-based position in the source."""

    reader: LineReader
    line: int
    text: str
    position: int


class RawBlock(NamedTuple):
    """``nlines`` consecutive puzzle lines of a plain line-format source, not parsed yet
    (``iter_records(..., raw=True, blocks=True)``): line numbers ``line`` to ``line +
    nlines - 1``, positions ``position`` to ``position + nlines - 1``; every line is exactly
    81 characters of ``1-9 . 0``, and ``text`` holds them joined by newlines (none
    after the last)."""

    reader: LineReader
    line: int
    text: str
    nlines: int
    position: int

    def split(self, k: int) -> tuple[RawBlock, RawBlock]:
        """The first ``k`` lines and the rest (``0 < k < nlines``)."""
        cut = 82 * k
        return (
            RawBlock(self.reader, self.line, self.text[: cut - 1], k, self.position),
            RawBlock(
                self.reader, self.line + k, self.text[cut:], self.nlines - k, self.position + k
            ),
        )

    def raw_lines(self) -> list[RawLine]:
        """The lines as :class:`RawLine` items, as ``iter_records(..., raw=True)`` gives
        them."""
        reader, line, position = self.reader, self.line, self.position
        return [
            RawLine(reader, line + i, text, position + i)
            for i, text in enumerate(self.text.split("\n"))
        ]
