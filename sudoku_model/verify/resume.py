"""Resuming an interrupted run: what an output file holds, and the check that it is the
output of the same inputs."""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..records import grid_line
from ..solving import (
    VerdictKind,
)
from .output import CSV_COLUMNS
from .summary import VerifySummary


class ResumeMismatch(ValueError):
    """The records of an output file are not the results of the input given now."""


def record_identity(input_index: int, record: Any) -> str:
    """What identifies an input record in an output file: its input's index, its position
    in that input and its givens (as written in the ``puzzle`` field; empty when malformed).
    A hash of these, in order, tells whether an output belongs to an input."""
    p = record.puzzle
    text = grid_line(p.givens.values) if p is not None and record.error is None else ""
    return f"{input_index}:{record.position}:{text}\n"


@dataclass
class ResumeState:
    """What an earlier run wrote: its records form a prefix of its input, in input order,
    so they are described by the last ``(input, position)`` written, their number, a hash
    of their identities (:func:`record_identity`) and their verdict counts. Never the set
    of keys: memory stays constant however long the output."""

    last: tuple[int, int] | None = None
    records: int = 0
    summary: VerifySummary = field(default_factory=VerifySummary)
    has_header: bool = False
    digest: str = ""
    _hash: Any = field(default_factory=lambda: _identity_hash(), repr=False)

    def done(self, input_index: int, position: int) -> bool:
        """True when the record at ``position`` of input ``input_index`` is already written."""
        return self.last is not None and (input_index, position) <= self.last

    def checker(self) -> ResumeCheck:
        """A fresh check that the skipped input records are the ones written."""
        return ResumeCheck(self)


def _identity_hash() -> Any:
    import hashlib

    return hashlib.blake2b(digest_size=16)


class ResumeCheck:
    """Feed it the input records that a resumed run skips (:meth:`skip`), then call
    :meth:`finish` before the first record that is verified: it raises
    :class:`ResumeMismatch` unless the skipped records are exactly those of the output."""

    def __init__(self, state: ResumeState) -> None:
        self.state = state
        self.count = 0
        self._hash = _identity_hash()
        self.finished = False

    def skip(self, input_index: int, record: Any) -> None:
        self.count += 1
        self._hash.update(record_identity(input_index, record).encode())

    def finish(self) -> None:
        """Raises:
        ResumeMismatch: the output holds other records than the input's first ones."""
        if self.finished:
            return
        self.finished = True
        if self.count != self.state.records or self._hash.hexdigest() != self.state.digest:
            raise ResumeMismatch(
                f"the {self.state.records:,} records in the output are not the results of "
                f"the first {self.state.records:,} puzzles of these inputs ({self.count:,} "
                "of them match by position, but not by content): resume only into the "
                "output of the same inputs, or write to another file"
                if self.count == self.state.records
                else f"the output holds {self.state.records:,} records but these inputs have "
                f"only {self.count:,} puzzles up to its last position: it is the output of "
                "other inputs; resume only into the output of the same inputs"
            )


def resume_state(path: str | os.PathLike[str], fmt: str) -> ResumeState:
    """Read an output file of an earlier run, cut off a torn last line (an interrupted
    write) and say which records it holds (see :class:`ResumeState`).

    Raises:
        OSError: when the file cannot be read or truncated.
        ValueError: when a complete line of the file is not a verify record, a record has no
            position (written by an older version), or the records are not in input order
            without gaps (not the output of one run).
    """
    state = ResumeState()
    p = os.fspath(path)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        state.digest = state._hash.hexdigest()
        return state
    _truncate_torn_tail(p)
    with open(p, encoding="utf-8", newline="") as f:
        if fmt == "csv":
            reader = csv.reader(f)
            header = next(reader, None)
            if header is not None:
                if tuple(header) != CSV_COLUMNS:
                    raise ValueError(
                        f"{p}: not a verify CSV file of this version (header {header[:4]}...)"
                    )
                state.has_header = True
                col = {name: i for i, name in enumerate(CSV_COLUMNS)}
                for k, row in enumerate(reader, 2):
                    if not row:
                        continue
                    try:
                        _resume_add(
                            state,
                            int(row[col["input"]]),
                            int(row[col["position"]]),
                            row[col["puzzle"]] if row[col["verdict"]] != "malformed" else "",
                            VerdictKind(row[col["verdict"]]),
                            bool(row[col["disagreement"]]),
                            bool(row[col["redundant_clues"]]),
                        )
                    except (ValueError, IndexError) as exc:
                        raise ValueError(f"{p}:{k}: not a verify record ({exc})") from None
        else:
            for k, text in enumerate(f, 1):
                if not text.strip():
                    continue
                try:
                    d = json.loads(text)
                    if "position" not in d or "input" not in d:
                        raise ValueError(
                            "no input/position fields: written by an older version, which "
                            "cannot be resumed (start again without --resume)"
                        )
                    _resume_add(
                        state,
                        int(d["input"]),
                        int(d["position"]),
                        d["puzzle"] if d["verdict"] != "malformed" else "",
                        VerdictKind(d["verdict"]),
                        "disagreement" in d,
                        bool(d.get("redundant_clues")),
                    )
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise ValueError(f"{p}:{k}: not a verify record ({exc})") from None
    state.digest = state._hash.hexdigest()
    return state


def _resume_add(
    state: ResumeState,
    input_index: int,
    position: int,
    puzzle: str | None,
    verdict: VerdictKind,
    disagreement: bool,
    not_minimal: bool,
) -> None:
    key = (input_index, position)
    last = state.last
    follows = (
        position == 0
        if last is None
        else key == (last[0], last[1] + 1) or (input_index > last[0] and position == 0)
    )
    if not follows:
        raise ValueError(
            f"record for input {input_index} position {position} after "
            f"{'the start' if last is None else f'input {last[0]} position {last[1]}'}: the "
            "records are not one run's output in input order"
        )
    state.last = key
    state.records += 1
    state._hash.update(f"{input_index}:{position}:{puzzle or ''}\n".encode())
    state.summary.add(verdict, disagreement=disagreement, not_minimal=not_minimal)


def _truncate_torn_tail(path: str) -> None:
    """Drop a last line without its newline (a write cut short)."""
    with open(path, "rb+") as f:
        size = f.seek(0, io.SEEK_END)
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        # walk back to the previous newline
        pos = size
        block = 65536
        while pos > 0:
            start = max(0, pos - block)
            f.seek(start)
            data = f.read(pos - start)
            i = data.rfind(b"\n")
            if i >= 0:
                f.truncate(start + i + 1)
                return
            pos = start
        f.truncate(0)
