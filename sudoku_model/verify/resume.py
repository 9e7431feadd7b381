"""Resuming an interrupted run: what an output file holds, and the check that it is the
output of the same inputs."""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..errors import SudokuError
from ..records import grid_line
from ..solving import (
    VerdictKind,
)
from .output import CSV_COLUMNS
from .results import VerifyConfig
from .summary import VerifySummary


class ResumeMismatch(SudokuError, ValueError):
    """The records of an output file are not the results of the input given now."""


#: Distinct backend names and option sets remembered from an output (a run writes one
#: option set and one or two backend names; more means the file mixes runs already).
_MAX_SETTINGS = 8
#: The command-line option behind each budget key of a record's ``options``.
_BUDGET_OPTIONS = {
    "seconds": "--budget-seconds",
    "nodes": "--budget-nodes",
    "conflicts": "--budget-conflicts",
}


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
    #: The settings the records were written with: the backend names, the distinct
    #: ``options`` objects, and whether puzzles carry a ``canonical`` field (None: no
    #: record says).
    backends: set[str] = field(default_factory=set)
    options: list[dict[str, Any]] = field(default_factory=list)
    canonical: bool | None = None
    _hash: Any = field(default_factory=lambda: _identity_hash(), repr=False)

    def done(self, input_index: int, position: int) -> bool:
        """True when the record at ``position`` of input ``input_index`` is already written."""
        return self.last is not None and (input_index, position) <= self.last

    def settings_problem(self, config: VerifyConfig, backend_names: set[str]) -> str | None:
        """Why the records already in the output were written with other settings than
        ``config`` (a record-changing option: backend, budget, ``--minimal``,
        ``--cross-check``, ``--canonical``), naming the option; None when they agree (or
        the output is empty). ``backend_names``: the names the main backend's records
        carry (the name asked and the backend's own)."""
        if self.backends and not self.backends & backend_names:
            return (
                f"its records were written by --backend {', '.join(sorted(self.backends))}, "
                f"not {min(backend_names, key=len)}"
            )
        want = config.options_json()
        for had in self.options:
            if had == want:
                continue
            budget, wanted = had.get("budget"), want["budget"]
            if budget != wanted:
                keys = set(budget) | set(wanted) if isinstance(budget, dict) else set(wanted)
                changed = sorted(
                    k
                    for k in keys
                    if not isinstance(budget, dict) or budget.get(k) != wanted.get(k)
                )
                names = ", ".join(_BUDGET_OPTIONS.get(k, f"budget {k}") for k in changed)
                return f"its records were written with another budget ({names or 'budget'})"
            if had.get("minimal") != want["minimal"]:
                return (
                    "its records were written "
                    + ("with" if had.get("minimal") else "without")
                    + " --minimal"
                )
            if had.get("cross_check") != want["cross_check"]:
                return "its records were written with another --cross-check"
            return "its records were written with other options"
        if self.canonical is not None and self.canonical != config.canonical:
            return (
                "its records were written "
                + ("with" if self.canonical else "without")
                + " --canonical"
            )
        return None

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
                        _settings_add(
                            state,
                            row[col["backend"]],
                            json.loads(row[col["options"]]),
                            # an empty cell is an absent field or a null one: no evidence
                            True if row[col["canonical"]] else None,
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
                    _settings_add(
                        state,
                        str(d["backend"]),
                        d["options"],
                        None if d["verdict"] == "malformed" else "canonical" in d,
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


def _settings_add(state: ResumeState, backend: str, options: Any, canonical: bool | None) -> None:
    """Remember the settings of one record (a few distinct values at most)."""
    if backend not in state.backends and len(state.backends) < _MAX_SETTINGS:
        state.backends.add(backend)
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    if options not in state.options and len(state.options) < _MAX_SETTINGS:
        state.options.append(options)
    if canonical is not None and state.canonical is not True:
        state.canonical = canonical


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
