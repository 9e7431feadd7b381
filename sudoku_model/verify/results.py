"""What verify computes and how a result reads: the configuration, the result of one
record, the answer of a cross-checking backend."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import records as record_schema
from ..errors import ParseError
from ..grid import Grid
from ..puzzle import Puzzle
from ..solving import (
    DEFAULT_BACKEND,
    DEFAULT_BUDGET,
    Budget,
    VerdictKind,
)

#: Records per chunk: the unit of work sent to a worker and of flushing output.
DEFAULT_CHUNK_SIZE = 512
#: Fields that differ between two runs of the same input (compare records without them).
TIMING_FIELDS = ("seconds", "stats")
#: :attr:`VerifyResult.canonical` when the canonical form was not asked for.
NOT_ASKED = ""

_K = VerdictKind


# -- configuration and results -------------------------------------------------------------
@dataclass(frozen=True)
class VerifyConfig:
    """What to compute for each puzzle (picklable: sent to worker processes).

    Args:
        backend: the backend that gives the verdict (a registered name).
        cross_check: other backends that must give the same answer.
        minimal: for unique puzzles, also find the redundant clues.
        budget: per puzzle and per backend; a search that runs out answers ``unknown``.
        validate: check every solution and witness against the rules (cheap insurance
            against a backend bug; a failure is a disagreement).
        canonical: also give each puzzle's canonical form (:mod:`sudoku_model.canon`).
    """

    backend: str = DEFAULT_BACKEND
    cross_check: tuple[str, ...] = ()
    minimal: bool = False
    budget: Budget = DEFAULT_BUDGET
    validate: bool = True
    canonical: bool = False

    def options_json(self) -> dict[str, Any]:
        """The options as written in every record."""
        budget = {
            k: v
            for k, v in (
                ("seconds", self.budget.seconds),
                ("nodes", self.budget.nodes),
                ("conflicts", self.budget.conflicts),
            )
            if v is not None
        }
        return {"budget": budget, "minimal": self.minimal, "cross_check": list(self.cross_check)}


@dataclass(frozen=True, slots=True)
class CrossCheckAnswer:
    """What one cross-checking backend answered."""

    backend: str
    version: str
    verdict: VerdictKind
    solution: Grid | None
    seconds: float
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The dict of this answer in a record's ``cross_check`` list."""
        return record_schema.cross_check_record(self)


@dataclass(slots=True)
class VerifyResult:
    """The verdict on one input record, with its evidence (treat as read-only; not frozen
    because a frozen dataclass costs microseconds per field, multiplied by millions).

    ``solution`` when unique; ``witnesses`` (two different solutions) when multiple;
    ``error`` when malformed; ``conflicts`` when contradictory; ``redundant`` (cells whose
    clue can be removed keeping the puzzle unique) when minimality was asked and the puzzle
    is unique, ``None`` otherwise; ``disagreement`` says how cross-checking backends
    differ (``None`` when they agree); ``undecided`` names the backends that answered
    ``unknown`` (or refused the puzzle) while cross-checking, which is no disagreement.
    ``published`` compares the solution the input carried (:attr:`Record.solution
    <sudoku_model.formats.Record.solution>`) with the answer: ``matches``, ``mismatch``,
    ``one_of_several`` or ``valid`` (see :data:`sudoku_model.records.PUBLISHED_WORDS`),
    ``None`` when the input had none; ``published_cells`` the cells where a mismatching
    published grid is wrong. The JSON fields are those of :mod:`sudoku_model.records`.
    """

    source: str
    line: int
    puzzle: Puzzle | None
    verdict: VerdictKind
    backend: str
    backend_version: str
    seconds: float
    solution: Grid | None = None
    witnesses: tuple[Grid, ...] = ()
    error: ParseError | None = None
    text: str = ""
    conflicts: tuple[str, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    redundant: tuple[int, ...] | None = None
    redundant_unknown: tuple[int, ...] = ()
    cross_check: tuple[CrossCheckAnswer, ...] = ()
    disagreement: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    undecided: tuple[str, ...] = ()
    published: str | None = None
    published_cells: tuple[int, ...] = ()
    #: With ``canonical`` asked: the canonical form, or None (variant rules, budget spent);
    #: :data:`NOT_ASKED` otherwise (no field in the record).
    canonical: str | None = NOT_ASKED
    #: The record's 0-based position in its source, and the index of that source among
    #: the run's inputs: together they identify the record (``--resume``).
    position: int = -1
    input: int = 0

    @property
    def key(self) -> tuple[str, int]:
        """(source, line): identifies the record in an output file."""
        return (self.source, self.line)

    @property
    def differing_cells(self) -> list[int]:
        """Cells where the two witnesses differ (empty unless ``multiple``)."""
        if len(self.witnesses) < 2:
            return []
        return self.witnesses[0].differences(self.witnesses[1])

    @property
    def is_minimal(self) -> bool | None:
        """True when no clue is redundant (None when not computed or not decided)."""
        if self.redundant is None or self.redundant_unknown:
            return None
        return not self.redundant

    def to_json(self) -> dict[str, Any]:
        """The record of this result (fields: :mod:`sudoku_model.records`, which writes it)."""
        return record_schema.verify_record(self)

    def to_json_line(self) -> str:
        """:meth:`to_json` as one compact JSON line (with its newline): the same bytes,
        written fast (:func:`sudoku_model.records.verify_line`)."""
        return record_schema.verify_line(self)
