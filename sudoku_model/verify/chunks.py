"""A chunk of records as text, ready to write, with its counts and notes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from .output import CsvWriter
from .results import VerifyResult
from .summary import VerifySummary

# -- batches written as text: the workers parse, verify and format ----------------------------
#: Seconds of work one task should hold, per executor kind: a few per cent of it goes to
#: the cost of a task, measured on a loaded 2-core machine (tests/benchmarks/
#: bench_scaling.py --overhead): a Dask round trip 6-9 ms of wall time and about 4 ms of
#: the client's CPU (the LocalCluster's scheduler runs in the client's process), a
#: process-pool task 0.3-1.5 ms (each task also wakes this process up: on a machine whose
#: cores are all busy, that costs the workers more than the figure says). Short enough
#: that the last tasks of a run leave no worker idle for long, and that memory (at most
#: two tasks per worker in flight) stays small.
TASK_SECONDS = {"dask": 0.25, "processes": 0.2}
#: Records of the first tasks, before any has come back to say how long a record takes;
#: then each next one twice as long, up to :data:`PROBE_RECORDS`.
FIRST_TASK_RECORDS = 16
PROBE_RECORDS = 256
#: The most records in one task, whatever the rate (memory: input and output text of a
#: task are held twice, by the worker and by this process).
MAX_TASK_RECORDS = 20_000
#: Malformed records a chunk quotes on standard error (the command line shows 20 in all).
NOTED_MALFORMED = 20


@dataclass(slots=True)
class TextChunk:
    """The records of one chunk, ready to write, with what the writer needs to know.

    ``text``: the records as JSONL lines or CSV rows (no header), in input order;
    ``count`` records; ``summary`` their counts; ``notes`` what to tell the user, in
    order: ``("malformed", first line of the error)`` (at most :data:`NOTED_MALFORMED`
    a chunk) and ``("disagreement", report)`` (:func:`disagreement_report`);
    ``seconds`` and ``cpu`` the wall and CPU time the worker spent on it (worker processes
    and Dask only); ``nbytes`` the bytes of input text it covers (line ends included).
    """

    text: str
    count: int
    summary: VerifySummary
    notes: list[tuple[str, str]]
    seconds: float = 0.0
    cpu: float = 0.0
    nbytes: int = 0


def text_chunk(results: Sequence[VerifyResult], fmt: str = "jsonl") -> TextChunk:
    """Format a chunk of results as ``jsonl`` or ``csv`` (the rows of
    :data:`CSV_COLUMNS`, no header): the same bytes, wherever it runs, as the writers of
    :func:`open_writer` write.

    Raises:
        ValueError: for another format.
    """
    if fmt == "jsonl":
        text = "".join([r.to_json_line() for r in results])
    elif fmt == "csv":
        buf = io.StringIO()
        CsvWriter(buf, header=False).write_many(results)
        text = buf.getvalue()
    else:
        raise ValueError(f"unknown output format {fmt!r}: jsonl or csv")
    summary = VerifySummary()
    notes: list[tuple[str, str]] = []
    malformed = 0
    for r in results:
        summary.add_result(r)
        if r.error is not None:
            malformed += 1
            if malformed <= NOTED_MALFORMED:
                notes.append(("malformed", str(r.error).splitlines()[0]))
        if r.disagreement is not None:
            notes.append(("disagreement", disagreement_report(r)))
    return TextChunk(text, len(results), summary, notes)


def disagreement_report(r: VerifyResult) -> str:
    """The lines that tell a user where and how backends disagree about a result."""
    d = r.to_json()
    lines = [
        f"sudoku verify: DISAGREEMENT at {r.source}:{r.line}: {r.disagreement}",
        f"  puzzle      {d.get('puzzle')}",
        f"  {r.backend:<11} {r.verdict.value} "
        f"{d.get('solution') or ' '.join(d.get('witnesses', []))}",
    ]
    for a in r.cross_check:
        sol = a.solution.to_line() if a.solution is not None else ""
        lines.append(f"  {a.backend:<11} {a.verdict.value} {sol}{a.error or ''}")
    return "\n".join(lines)
