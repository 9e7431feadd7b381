"""Writing verify results: the CSV columns and the writers of each format."""

from __future__ import annotations

from typing import IO, Any

from .. import records as record_schema
from .results import VerifyResult

# -- writing and resuming ------------------------------------------------------------------
#: Columns of the CSV output (see :func:`sudoku_model.records.csv_row` for how lists and
#: objects are written).
CSV_COLUMNS = (
    "schema",
    "command",
    "source",
    "line",
    "input",
    "position",
    "puzzle",
    "clues",
    "verdict",
    "solution",
    "witness1",
    "witness2",
    "differing_cells",
    "error",
    "error_line",
    "error_column",
    "text",
    "conflicts",
    "published_solution",
    "published_cells",
    "redundant_clues",
    "redundant_unknown",
    "minimal",
    "undecided",
    "disagreement",
    "cross_check",
    "backend",
    "backend_version",
    "options",
    "seconds",
    "stats",
    "rules",
    "canonical",
)


#: One :class:`VerifyResult` (its :meth:`~VerifyResult.to_json_line`) per line.
JsonlWriter = record_schema.JsonlWriter


class CsvWriter(record_schema.CsvWriter):
    """The :data:`CSV_COLUMNS`, one row per result (header first unless appending)."""

    def __init__(self, out: IO[str], *, header: bool = True) -> None:
        super().__init__(out, CSV_COLUMNS, header=header)

    @staticmethod
    def row(result: VerifyResult) -> list[Any]:
        return record_schema.csv_row(result.to_json(), CSV_COLUMNS)


def open_writer(
    out: IO[str], fmt: str, *, header: bool = True
) -> record_schema.JsonlWriter | record_schema.JsonWriter | record_schema.CsvWriter:
    """A writer of verify results: ``jsonl``, ``json`` (an array) or ``csv``.

    Raises:
        ValueError: for another format name.
    """
    return record_schema.open_writer(out, fmt, columns=CSV_COLUMNS, header=header)
