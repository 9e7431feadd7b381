"""Exceptions raised by the toolkit.

Syntax problems in puzzle text raise :class:`ParseError`, which names the source, the
line and the column and quotes the offending text. Semantic problems (two equal givens in
one unit) are not exceptions: they are reported by :meth:`sudoku_model.Puzzle.conflicts`.
"""

from __future__ import annotations

__all__ = [
    "BackendNotFoundError",
    "BackendUnavailableError",
    "NotSupported",
    "ParseError",
    "SearchInterrupted",
    "ShapeError",
    "SudokuError",
    "UnsupportedPuzzleError",
]


class SudokuError(Exception):
    """Base class of every error this toolkit raises on purpose."""


class ParseError(SudokuError, ValueError):
    """Puzzle text that cannot be read.

    Attributes:
        message: what is wrong, in words.
        source: the file name, ``<stdin>`` or ``<argument>``.
        line: 1-based line number (0 when unknown).
        column: 1-based column number (0 when unknown).
        text: the offending line (or an excerpt of it).

    ``str(error)`` is ``source:line:col: message`` followed by the quoted text, the form the
    command line prints.

    >>> e = ParseError("bad symbol 'x'", source="a.txt", line=3, column=7, text="12345x")
    >>> str(e).splitlines()[0]
    "a.txt:3:7: bad symbol 'x'"
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<string>",
        line: int = 0,
        column: int = 0,
        text: str = "",
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"{self.source}:{self.line}:{self.column}: {self.message}"
        if not self.text:
            return head
        shown = self.text if len(self.text) <= 120 else self.text[:117] + "..."
        return f"{head}\n    {shown!r}"

    def located(
        self, *, source: str | None = None, line: int | None = None, column_offset: int = 0
    ) -> ParseError:
        """Return a copy placed in a file: new source/line, column shifted by an offset."""
        return ParseError(
            self.message,
            source=self.source if source is None else source,
            line=self.line if line is None else line,
            column=self.column + column_offset,
            text=self.text,
        )

    def __reduce__(self) -> tuple[object, ...]:  # keep pickling (worker processes) lossless
        return (
            _rebuild_parse_error,
            (self.message, self.source, self.line, self.column, self.text),
        )


def _rebuild_parse_error(
    message: str, source: str, line: int, column: int, text: str
) -> ParseError:
    return ParseError(message, source=source, line=line, column=column, text=text)


class ShapeError(SudokuError, ValueError):
    """A shape, region layout or rule that does not describe a valid puzzle geometry."""


class UnsupportedPuzzleError(SudokuError, ValueError):
    """A backend was asked to solve a puzzle with a rule kind or size it does not support."""


class NotSupported(SudokuError):
    """A backend was asked for a path of the contract it does not declare in its
    :class:`~sudoku_model.solving.Capabilities` (certificates without ``certifies``, say).
    Workflows read the capabilities first; this is what a caller that did not gets."""


class BackendNotFoundError(SudokuError, LookupError):
    """No backend is registered under the requested name."""


class BackendUnavailableError(SudokuError, ImportError):
    """A backend is registered but its solver package is missing; the message names the extra."""


class SearchInterrupted(SudokuError):
    """A search was stopped by :meth:`sudoku_model.solving.Backend.interrupt` (a signal,
    a cancelled request) before it answered.

    This is not a verdict: a workflow that catches it records nothing for the puzzle in
    flight (unlike ``unknown``, which means the puzzle's own budget was spent).
    """
