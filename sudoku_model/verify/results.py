"""What verify computes and how a result reads: the configuration, the result of one
record, the answer of a cross-checking backend."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import records as record_schema
from ..errors import ParseError
from ..grid import Grid
from ..puzzle import Puzzle
from ..solving import (
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

    backend: str = "native"
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
        d: dict[str, Any] = {
            "backend": self.backend,
            "backend_version": self.version,
            "verdict": self.verdict.value,
            "seconds": round(self.seconds, 6),
        }
        if self.solution is not None:
            d["solution"] = _line_of(self.solution.values)
        if self.error:
            d["error"] = self.error
        return d


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
        """The record of this result (fields: :mod:`sudoku_model.records`)."""
        p = self.puzzle
        shape = p.shape if p is not None else None
        d = record_schema.head(
            "verify", self.source, self.line, position=self.position, input_id=self.input
        )
        d["puzzle"] = _line_of(p.givens.values) if p is not None else None
        d["clues"] = _clues(p) if p is not None else None
        if p is not None and not _is_classic(p.rules):
            d["rules"] = p.rules.to_json()
        d["verdict"] = self.verdict.value
        if self.solution is not None:
            d["solution"] = _line_of(self.solution.values)
        if self.witnesses:
            d["witnesses"] = [_line_of(w.values) for w in self.witnesses]
            assert shape is not None
            d["differing_cells"] = [shape.cell_name(c) for c in self.differing_cells]
        if self.error is not None or p is None:
            d.update(record_schema.error_fields(self.error, self.text))
        if self.conflicts:
            d["conflicts"] = list(self.conflicts)
        if self.canonical != NOT_ASKED and p is not None:
            d["canonical"] = self.canonical
        if self.published is not None:
            d["published_solution"] = self.published
            if self.published_cells and shape is not None:
                d["published_cells"] = [shape.cell_name(c) for c in self.published_cells]
        if self.redundant is not None and shape is not None:
            d["redundant_clues"] = [shape.cell_name(c) for c in self.redundant]
            d["minimal"] = self.is_minimal
            if self.redundant_unknown:
                d["redundant_unknown"] = [shape.cell_name(c) for c in self.redundant_unknown]
        if self.cross_check:
            d["cross_check"] = [a.to_json() for a in self.cross_check]
        if self.undecided:
            d["undecided"] = list(self.undecided)
        if self.disagreement is not None:
            d["disagreement"] = self.disagreement
        d["backend"] = self.backend
        d["backend_version"] = self.backend_version
        d["options"] = self.options
        d["seconds"] = round(self.seconds, 6)
        d["stats"] = self.stats
        return d

    def to_json_line(self) -> str:
        """:meth:`to_json` as one compact JSON line (with its newline), built from
        cached pieces for the common verdicts: formatting must not be the bottleneck."""
        p = self.puzzle
        if (
            p is None
            or self.error is not None
            or self.conflicts
            or self.cross_check
            or self.disagreement is not None
            or self.redundant is not None
            or self.published_cells
            or self.canonical != NOT_ASKED
            or not _is_classic(p.rules)
            or self.verdict is _K.UNKNOWN
            and "refused" in self.stats
        ):
            return record_schema.dumps(self.to_json()) + "\n"
        parts = [
            _source_head(self.source),
            str(self.line),
            ',"input":',
            str(self.input),
            ',"position":',
            str(self.position),
            ',"puzzle":"',
            _line_of(p.givens.values),
            '","clues":',
            str(_clues(p)),
            ',"verdict":"',
            self.verdict.value,
            '"',
        ]
        if self.solution is not None:
            parts += [',"solution":"', _line_of(self.solution.values), '"']
        if self.witnesses:
            w0, w1 = self.witnesses[0], self.witnesses[1]
            shape = p.shape
            parts += [
                ',"witnesses":["',
                _line_of(w0.values),
                '","',
                _line_of(w1.values),
                '"],"differing_cells":',
                _json([shape.cell_name(c) for c in w0.differences(w1)]),
            ]
        if self.published is not None:
            parts += [',"published_solution":"', self.published, '"']
        parts += [
            _tail(self.backend, self.backend_version, self.options),
            repr(round(self.seconds, 6)),
            ',"stats":',
            _stats_json(self.stats),
            "}\n",
        ]
        return "".join(parts)


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


# -- fast formatting pieces ----------------------------------------------------------------
_LINE_TABLE = bytes(
    [ord(".")] + [ord(c) for c in "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + [ord("?")] * (256 - 36)
)


def _line_of(values: tuple[int, ...]) -> str:
    """Grid values as a line of symbols (1-9A-Z, '.' for empty), without a Python loop."""
    return bytes(values).translate(_LINE_TABLE).decode("ascii")


def _clues(puzzle: Puzzle) -> int:
    values = puzzle.givens.values
    return len(values) - values.count(0)


_CLASSIC: dict[int, tuple[Any, bool]] = {}


def _is_classic(rules: Any) -> bool:
    # rule sets are shared by the records of a file: remember the answer per object
    hit = _CLASSIC.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_CLASSIC) > 256:
            _CLASSIC.clear()
        hit = _CLASSIC[id(rules)] = (rules, rules.is_classic)
    return hit[1]


_PIECES: dict[Any, str] = {}


def _cached(key: Any, make: Callable[[], str]) -> str:
    piece = _PIECES.get(key)
    if piece is None:
        if len(_PIECES) > 256:
            _PIECES.clear()
        piece = _PIECES[key] = make()
    return piece


def _source_head(source: str) -> str:
    return _cached(("src", source), lambda: _HEAD + _json(source) + ',"line":')


#: The start of every verify record: schema version and command (records.head's order).
_HEAD = f'{{"schema":{record_schema.SCHEMA_VERSION},"command":"verify","source":'


def _tail(backend: str, version: str, options: dict[str, Any]) -> str:
    # options dicts are shared by every result of a run: key by identity, and keep the
    # object in the cache so its id cannot be reused while cached
    hit = _TAILS.get(id(options))
    if hit is None or hit[0] is not options or hit[1] != (backend, version):
        if len(_TAILS) > 64:
            _TAILS.clear()
        hit = _TAILS[id(options)] = (
            options,
            (backend, version),
            (
                ',"backend":'
                + _json(backend)
                + ',"backend_version":'
                + _json(version)
                + ',"options":'
                + _json(options)
                + ',"seconds":'
            ),
        )
    return hit[2]


_TAILS: dict[int, tuple[Any, tuple[str, str], str]] = {}
_STATS: dict[int, tuple[Any, str]] = {}


def _stats_json(stats: dict[str, Any]) -> str:
    if not stats:
        return "{}"
    if "batch_size" in stats:  # one dict shared by a whole batch: format it once
        hit = _STATS.get(id(stats))
        if hit is None or hit[0] is not stats:
            if len(_STATS) > 64:
                _STATS.clear()
            hit = _STATS[id(stats)] = (stats, _json(stats))
        return hit[1]
    return _json(stats)
