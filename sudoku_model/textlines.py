"""Lines of puzzle text in bounded memory, whatever the input.

A reader never holds more than :data:`MAX_LINE` characters of one line: a longer line (a
100 MB run of garbage, what a gzip bomb expands to) is read past in pieces and stands as a
:class:`LongLine`, an empty string that remembers its length and first characters, for the
reader to report as one malformed record before it goes on with the next line.
:mod:`sudoku_model.formats` reads every stream through :func:`bounded_lines` (and the bulk
path through :func:`line_blocks`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from typing import IO, Any

__all__ = [
    "MAX_JSON_CHARS",
    "MAX_LINE",
    "LongLine",
    "bounded_lines",
    "line_blocks",
    "pieces",
    "whole",
]

#: The longest line any reader accepts, in characters. The longest puzzle line of any
#: format is far shorter: a 25x25 grid is 625 cells (a CSV row with its solution and
#: columns about 1,500 characters); an f-puzzles link of a 25x25 puzzle with a constraint
#: on every cell, uncompressed, stays under 100,000. The rest is room for comments.
MAX_LINE = 1 << 20
#: The largest JSON document (a list of puzzles, read whole) in characters; larger
#: collections belong in JSONL (one puzzle a line), which is read line by line.
MAX_JSON_CHARS = 1 << 25
#: Characters of a long line kept for its error message.
EXCERPT = 200


class LongLine(str):
    """A line longer than :data:`MAX_LINE`, read past: an empty string (blank to anyone who
    does not look) with ``length`` (its characters, line end excluded) and ``excerpt``
    (its first characters)."""

    length: int
    excerpt: str

    def __new__(cls, length: int, excerpt: str) -> LongLine:
        self = super().__new__(cls, "")
        self.length = length
        self.excerpt = excerpt
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (LongLine, (self.length, self.excerpt))

    @property
    def message(self) -> str:
        """What a reader says of it."""
        return (
            f"a line of {self.length:,} characters: longer than any puzzle can be "
            f"(at most {MAX_LINE:,}); skipped"
        )


def _strip_end(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def pieces(stream: Iterable[str]) -> tuple[Iterator[str], bool]:
    """An iterator over the lines of ``stream`` and whether they come in pieces: from a
    text stream with ``readline``, at most ``MAX_LINE + 1`` characters at a time (a
    longer line as several pieces, only the last with the line end; C speed, nothing read
    ahead); from any other iterable, its lines as they are."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        return iter(stream), False
    return iter(functools.partial(readline, MAX_LINE + 1), ""), True


def whole(raw: str, rest: Iterator[str], in_pieces: bool) -> str:
    """What a reader reads for ``raw``, an item of :func:`pieces` longer than
    :data:`MAX_LINE` characters: ``raw`` when it is a whole line of at most MAX_LINE
    characters and its line end, else a :class:`LongLine` (with ``in_pieces``, the rest of
    the line is read past from ``rest`` first, a piece at a time)."""
    if raw.endswith("\n") and len(raw) - 1 <= MAX_LINE:
        return raw
    if not in_pieces:
        return LongLine(len(_strip_end(raw)), raw[:EXCERPT])
    excerpt = raw[:EXCERPT]
    length = len(raw)
    piece = raw
    while not piece.endswith("\n"):
        piece = next(rest, "")
        if not piece:
            break
        length += len(piece)
    return LongLine(length - (1 if piece.endswith("\n") else 0), excerpt)


def bounded_lines(stream: Iterable[str]) -> Iterator[str]:
    """The lines of ``stream`` (line ends kept), each at most :data:`MAX_LINE` characters
    and its line end; a longer line comes as a :class:`LongLine`. A text stream with
    ``readline`` is read in bounded pieces (:func:`pieces`); the lines of any other
    iterable are only checked. Reads nothing ahead of the line it yields."""
    it, in_pieces = pieces(stream)
    for raw in it:
        yield raw if len(raw) <= MAX_LINE else whole(raw, it, in_pieces)


def line_blocks(
    it: Iterator[str] | IO[str], lines: int, width: int, *, in_pieces: bool = False
) -> Iterator[tuple[str, list[str] | None]]:
    """The rest of a line stream in blocks of about ``lines`` lines: ``(text, lines)``.
    From a text file (a :class:`io.TextIOBase`, newlines translated) the text is read
    ``lines * width`` characters at a time (at most :data:`MAX_LINE`), and ``lines`` is
    None (split ``text`` at ``\\n`` when they are needed); from other streams the lines
    come as the stream gives them (``in_pieces``: as :func:`pieces` gives them), ``text``
    their concatenation. A line longer than :data:`MAX_LINE` comes alone, as
    ``("", [LongLine])``, read past in pieces."""
    import io

    if not isinstance(it, io.TextIOBase):
        rest = iter(it)
        checked = (raw if len(raw) <= MAX_LINE else whole(raw, rest, in_pieces) for raw in rest)
        while block := list(itertools.islice(checked, lines)):
            yield "".join(block), block
        return
    size = min(lines * width, MAX_LINE)
    # the text after the last line end read so far, in pieces: a line without end (up to
    # MAX_LINE characters) is joined once, not copied again at every read
    pending: list[str] = []
    held = 0  # characters in pending
    skipped = -1  # characters of a long line read past so far (-1: none)
    excerpt = ""
    while data := it.read(size):
        if skipped >= 0:
            end = data.find("\n")
            if end < 0:
                skipped += len(data)
                continue
            yield "", [LongLine(skipped + end, excerpt)]
            skipped = -1
            data = data[end + 1 :]
        first = data.find("\n")
        if first >= 0 and held + first > MAX_LINE:
            # the line in pending ends in this piece, too long
            excerpt = ("".join(pending) + data[:EXCERPT])[:EXCERPT]
            yield "", [LongLine(held + first, excerpt)]
            pending, held = [], 0
            data = data[first + 1 :]
        end = data.rfind("\n") + 1
        if not end:
            pending.append(data)
            held += len(data)
            if held > MAX_LINE:  # read past the rest of this line
                excerpt = "".join(pending)[:EXCERPT]
                skipped, pending, held = held, [], 0
            continue
        if pending:
            pending.append(data[:end])
            yield "".join(pending), None
        else:
            yield data[:end], None
        pending = [data[end:]] if end < len(data) else []
        held = len(data) - end
    if skipped >= 0:
        yield "", [LongLine(skipped, excerpt)]
    elif pending:
        yield "".join(pending), None  # a last line without a line end
