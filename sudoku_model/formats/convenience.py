"""Whole sources at once: every puzzle of a source as a list, or one puzzle from a string."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import IO, Any

from ..errors import ParseError
from ..puzzle import Puzzle
from .stream import iter_records


def read_puzzles(
    src: str | os.PathLike[str] | IO[str] | Iterable[str], **options: Any
) -> list[Puzzle]:
    """Every puzzle of a source, as a list.

    Raises:
        ParseError: at the first malformed puzzle (use :func:`iter_records` to go on).
    """
    out = []
    for rec in iter_records(src, **options):
        if rec.error is not None:
            raise rec.error
        assert rec.puzzle is not None
        out.append(rec.puzzle)
    return out


def read_puzzle(text: str, **options: Any) -> Puzzle:
    """One puzzle from a string (a line, a block or a JSON object).

    Raises:
        ParseError: when the text holds no puzzle or a malformed one.
    """
    stream = io.StringIO(text)
    options.setdefault("source", "<string>")
    records = iter_records(stream, **options)
    rec = next(records, None)
    if rec is None:
        raise ParseError("no puzzle found", source=options["source"], line=1, column=1)
    if rec.error is not None:
        raise rec.error
    assert rec.puzzle is not None
    return rec.puzzle
