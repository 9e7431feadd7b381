"""Verify collections: does each puzzle have exactly one solution, with the evidence.

One :class:`VerifyResult` per input record, in input order: the verdict (``malformed``,
``contradictory``, ``unsolvable``, ``unique``, ``multiple``, ``unknown``), the solution when
unique, two differing solutions when not, the parse error when the text is unreadable,
optionally the redundant clues (``minimal=True``) and the answers of other backends
(``cross_check=[...]``), with any disagreement between them.

>>> from sudoku_model import Puzzle
>>> r = verify_puzzle(Puzzle.parse("1.3..4.2.1.4..2."), backend="native")  # doctest: +SKIP
>>> r.verdict, r.solution.to_line()                                        # doctest: +SKIP
(<VerdictKind.UNIQUE: 'unique'>, '1234341221434321')

Batches stream: :func:`verify_records` reads its input lazily, works in chunks (serially, in
local worker processes with ``jobs=N``, or on a Dask cluster with ``dask=ADDRESS``) and yields
results in input order, so memory stays constant however long the input. The command line
``sudoku verify`` (:mod:`sudoku_model.cli.verify`) writes them as JSONL or CSV, flushed per
chunk, and can resume an interrupted run (:func:`resume_state`).

A backend whose capabilities list the ``check_unique_batch`` fast path (native) answers a
whole chunk per rule set in one call (native: into C, releasing the GIL), so threads
overlap solving with reading and formatting; its evidence is validated by the same batch
call on the grids it gave (a full grid that does not clash is a solution). Every other
backend is asked :meth:`~sudoku_model.solving.Backend.check_unique` per puzzle. This module
holds no solver-specific code.

The package has one concern per module: :mod:`.results` (configuration and results),
:mod:`.engines` (the backends of one process), :mod:`.answering` (one chunk of records),
:mod:`.batching` (streams of records on an executor), :mod:`.chunks` and :mod:`.text`
(records as text, tasks for worker processes and Dask), :mod:`.bulk` (plain lines
answered in one call), :mod:`.summary`, :mod:`.output` (writers) and :mod:`.resume`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .answering import redundant_clues, redundant_eliminations, verify_chunk, verify_puzzle
from .batching import executor_kind, make_executor, releases_gil, verify_records
from .bulk import reads_raw_blocks, reads_raw_lines
from .chunks import (
    FIRST_TASK_RECORDS,
    MAX_TASK_RECORDS,
    NOTED_MALFORMED,
    PROBE_RECORDS,
    TASK_SECONDS,
    TextChunk,
    disagreement_report,
    text_chunk,
)
from .output import CSV_COLUMNS, CsvWriter, JsonlWriter, open_writer
from .results import (
    DEFAULT_CHUNK_SIZE,
    NOT_ASKED,
    TIMING_FIELDS,
    CrossCheckAnswer,
    VerifyConfig,
    VerifyResult,
)
from .summary import VERDICT_ORDER, VerifySummary
from .text import verify_text

if TYPE_CHECKING:  # imported on first use: a run without --resume never needs them
    from .resume import ResumeCheck, ResumeMismatch, ResumeState, record_identity, resume_state

_RESUME_NAMES = frozenset(
    {"ResumeCheck", "ResumeMismatch", "ResumeState", "record_identity", "resume_state"}
)


def __getattr__(name: str) -> Any:
    """The names of :mod:`.resume`, imported when first asked for (start-up time)."""
    if name in _RESUME_NAMES:
        from . import resume

        return vars(resume)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "VerifyConfig",
    "VerifyResult",
    "VerifySummary",
    "CrossCheckAnswer",
    "verify_puzzle",
    "verify_records",
    "verify_text",
    "verify_chunk",
    "redundant_clues",
    "redundant_eliminations",
    "JsonlWriter",
    "CsvWriter",
    "open_writer",
    "resume_state",
    "ResumeState",
    "ResumeCheck",
    "ResumeMismatch",
    "record_identity",
    "CSV_COLUMNS",
    "TIMING_FIELDS",
    "DEFAULT_CHUNK_SIZE",
    "NOT_ASKED",
    "VERDICT_ORDER",
    "TASK_SECONDS",
    "FIRST_TASK_RECORDS",
    "PROBE_RECORDS",
    "MAX_TASK_RECORDS",
    "NOTED_MALFORMED",
    "TextChunk",
    "text_chunk",
    "disagreement_report",
    "executor_kind",
    "make_executor",
    "releases_gil",
    "reads_raw_lines",
    "reads_raw_blocks",
]
