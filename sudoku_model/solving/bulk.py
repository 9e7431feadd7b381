"""The bulk-verify primitive (:meth:`~sudoku_model.solving.Backend.verify_plain_lines`):
its answer type and the meaning of its codes. A backend that implements it sets
:attr:`~sudoku_model.solving.Capabilities.bulk_verify`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .results import VerdictKind

# -- bulk verification of plain lines: a primitive of its own, declared by bulk_verify ------
#: What each status of :attr:`BulkColumns.statuses` means: the verdict, or None for a line
#: the bulk path did not answer (not a plain line: the caller reads it the general way).
#: Statuses 1 and 2 are both ``multiple`` (2: the second search ran out of budget before
#: it found two solutions again, so there are no witnesses).
PLAIN_KINDS: tuple[VerdictKind | None, ...] = (
    VerdictKind.UNIQUE,
    VerdictKind.MULTIPLE,
    VerdictKind.MULTIPLE,
    VerdictKind.UNSOLVABLE,
    VerdictKind.UNKNOWN,
    VerdictKind.CONTRADICTORY,
    None,
)


@dataclass(frozen=True)
class BulkColumns:
    """The answers of :meth:`Backend.verify_plain_lines` for one chunk of text lines, as
    columns of values (no text: the workflow writes the records).

    ``statuses`` holds one byte per line (see :data:`PLAIN_KINDS`); ``givens`` and
    ``solutions`` 81 values per line (0 = empty; the solution of a ``unique`` line),
    ``clues`` one byte per line (the givens of a plain line, 0 for the others),
    ``witnesses`` 162 per line (the two solutions of a ``multiple`` line of status 1);
    values of other lines are unspecified. ``size`` counts the plain lines, which were
    answered as one batch of :meth:`Backend.check_unique_batch` would answer them (the
    same verdicts, counters and witnesses); ``seconds`` is that batch's wall time and
    ``stats`` its counters; ``evidence_ok`` says that every solution and witness solves its
    puzzle (a full grid without a clash that keeps the givens) and that the two witnesses
    differ; a caller that finds it False answers the chunk another way.
    """

    statuses: bytes
    givens: bytes
    clues: bytes
    solutions: bytes
    witnesses: bytes
    size: int
    seconds: float
    stats: dict[str, Any]
    evidence_ok: bool
