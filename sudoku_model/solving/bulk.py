"""The bulk-verify primitive (:meth:`~sudoku_model.solving.Backend.verify_plain_lines`):
its answer type and the meaning of its codes. A backend that implements it sets
:attr:`~sudoku_model.solving.Capabilities.bulk_verify`."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

from .results import VerdictKind

# -- bulk verification of plain lines (issue 18): a primitive of its own --------------------
#: What each code of :attr:`PlainLines.codes` means: the verdict, or None for a line the
#: bulk path did not answer (not a plain line: the caller reads it the general way).
#: Codes 1 and 2 are both ``multiple`` (2: the second search ran out of budget before it
#: found two solutions again, so the record has no witnesses).
PLAIN_KINDS: tuple[VerdictKind | None, ...] = (
    VerdictKind.UNIQUE,
    VerdictKind.MULTIPLE,
    VerdictKind.MULTIPLE,
    VerdictKind.UNSOLVABLE,
    VerdictKind.UNKNOWN,
    VerdictKind.CONTRADICTORY,
    None,
)


class PlainLines(abc.ABC):
    """The answers of :meth:`Backend.verify_plain_lines` for one chunk of text lines.

    ``codes`` holds one byte per line (see :data:`PLAIN_KINDS`); ``size`` counts the plain
    lines, which were answered as one batch of :meth:`Backend.check_unique_batch` would
    answer them (the same verdicts, counters and witnesses); ``seconds`` is that batch's
    wall time and ``stats`` its counters; ``evidence_ok`` says that every solution and
    witness solves its puzzle (a full grid without a clash that keeps the givens) and that
    the two witnesses differ; a caller that finds it False answers the chunk another way.
    """

    codes: bytes
    size: int
    seconds: float
    stats: dict[str, Any]
    evidence_ok: bool

    @abc.abstractmethod
    def records(
        self,
        lines: Sequence[int],
        first_position: int,
        head: str,
        middle: str,
        tail: str,
        inserts: list[str | None],
    ) -> str:
        """The ``sudoku verify`` JSONL records of the chunk, in line order: for line ``i``,
        ``inserts[i]`` when it is a string (needed for every line whose code is
        ``contradictory`` or not plain), else ``head`` + its line number (``lines[i]``) +
        ``middle`` + its position (``first_position + i``) + the fields ``puzzle``,
        ``clues``, ``verdict`` and its evidence (``solution``, or ``witnesses`` and
        ``differing_cells``) as :meth:`sudoku_model.verify.VerifyResult.to_json_line`
        writes them + ``tail``.

        Raises:
            ValueError: for columns of other lengths than the chunk's, or a missing insert.
        """
