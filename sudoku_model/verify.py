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
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import IO, Any, NamedTuple

from . import records as record_schema
from .errors import ParseError
from .executor import Executor, chunks
from .grid import Grid
from .puzzle import Puzzle
from .solving import (
    DEFAULT_BUDGET,
    PLAIN_KINDS,
    Backend,
    Budget,
    UniqueBatch,
    Verdict,
    VerdictKind,
    evidence_problem,
)

__all__ = [
    "VerifyConfig",
    "VerifyResult",
    "VerifySummary",
    "CrossCheckAnswer",
    "verify_puzzle",
    "verify_records",
    "verify_chunk",
    "redundant_clues",
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
    "executor_kind",
]

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


# -- the backends of one process -----------------------------------------------------------
#: Backends this module made by name (one per process and name). A backend object passed
#: in by a caller is never stored here: later look-ups by name must not get it.
_BACKENDS: dict[str, tuple[Backend, str]] = {}


def _backend(name_or_backend: str | Backend) -> tuple[Backend, str]:
    """The backend (made by name once per process and cached; an object is used as it
    is, uncached) and its version."""
    if isinstance(name_or_backend, Backend):
        return name_or_backend, _version(name_or_backend)
    hit = _BACKENDS.get(name_or_backend)
    if hit is None:
        from .solving import get_backend

        b = get_backend(name_or_backend)
        hit = _BACKENDS[name_or_backend] = (b, _version(b))
    return hit


def _version(backend: Backend) -> str:
    try:
        return str(backend.version())
    except Exception:  # a version string is never worth failing a run
        return "unknown"


# -- answering one record ------------------------------------------------------------------
def _verdict_on(backend: Backend, puzzle: Puzzle, budget: Budget) -> Verdict:
    """check_unique, with a refusal (unsupported rule or size) turned into an ``unknown``
    verdict that carries the reason."""
    from .errors import UnsupportedPuzzleError

    try:
        return backend.check_unique(puzzle, budget=budget)
    except UnsupportedPuzzleError as exc:
        return Verdict(_K.UNKNOWN, puzzle, backend.name, 0.0, error=str(exc))


_evidence_problem = evidence_problem  # the one check, shared with compare


def redundant_clues(
    puzzle: Puzzle,
    solution: Grid,
    *,
    backend: str | Backend = "native",
    budget: Budget | None = None,
) -> tuple[list[int], list[int]]:
    """The clues of a unique puzzle that can be removed one at a time keeping it unique.

    Clue ``c`` is redundant exactly when "the other clues + (cell c != its digit)" has no
    solution: one question per clue to the backend's removal oracle
    (:meth:`~sudoku_model.solving.Backend.removal_oracle`: native forbidden pairs, PySAT
    assumptions, else ``check_unique(smaller, solution=solution)``).

    Returns:
        (redundant cells, cells whose check ran out of budget), both sorted.

    Raises:
        ValueError: when ``solution`` does not solve the puzzle.
    """
    b, _ = _backend(backend)
    budget = DEFAULT_BUDGET if budget is None else budget
    if not puzzle.is_solution(solution):
        raise ValueError("the solution given to redundant_clues does not solve the puzzle")
    red: list[int] = []
    unknown: list[int] = []
    values = bytearray(puzzle.givens.values)
    with b.removal_oracle(puzzle.rules, solution, budget=budget) as oracle:
        for cell in puzzle.givens.filled_cells():
            values[cell] = 0
            keeps = oracle.still_unique(values, (cell,))
            values[cell] = solution.values[cell]
            if keeps:
                red.append(cell)
            elif keeps is None:
                unknown.append(cell)
    return red, unknown


def _result_from(
    record: Any, verdict: Verdict, version: str, config: VerifyConfig, options: dict[str, Any]
) -> VerifyResult:
    """A result from the main verdict, before minimality and cross-checking."""
    stats = dict(verdict.stats)
    if verdict.error:
        stats["refused"] = verdict.error
    return VerifyResult(
        record.source,
        record.line,
        record.puzzle,
        verdict.kind,
        verdict.backend,
        version,
        verdict.seconds,
        solution=verdict.solution if verdict.kind is _K.UNIQUE else None,
        witnesses=tuple(verdict.witnesses[:2]) if verdict.kind is _K.MULTIPLE else (),
        conflicts=verdict.conflicts,
        stats=stats,
        options=options,
    )


def _malformed(
    record: Any, config: VerifyConfig, options: dict[str, Any], version: str | None = None
) -> VerifyResult:
    return VerifyResult(
        record.source,
        record.line,
        None,
        _K.MALFORMED,
        config.backend,
        _backend(config.backend)[1] if version is None else version,
        0.0,
        error=record.error,
        text=record.text,
        options=options,
    )


def _finish(
    result: VerifyResult, record: Any, config: VerifyConfig, main: Backend, *, validate: bool
) -> VerifyResult:
    """Add validation, minimality, cross-checking and the comparison with a published
    solution to a main-backend result."""
    puzzle = record.puzzle
    changes: dict[str, Any] = {}
    problems: list[str] = []
    if result.disagreement is not None:
        problems.append(result.disagreement)
    if validate and result.verdict in (_K.UNIQUE, _K.MULTIPLE):
        problem = _evidence_problem(
            puzzle,
            Verdict(
                result.verdict,
                puzzle,
                result.backend,
                0.0,
                solution=result.solution,
                witnesses=result.witnesses,
            ),
        )
        if problem:
            problems.append(problem)
    answers: list[CrossCheckAnswer] = []
    # "unknown" (a spent budget) and a refusal are no answer: they disagree with nothing,
    # and are counted apart so that real disagreements stay loud
    undecided: list[str] = []
    if config.cross_check and result.verdict is _K.UNKNOWN:
        undecided.append(result.backend)
    for name in config.cross_check:
        other, version = _backend(name)
        crashed = False
        try:
            v = _verdict_on(other, puzzle, config.budget)
            error = v.error
        except Exception as exc:  # a crashing backend is a disagreement, not a lost run
            v = Verdict(_K.UNKNOWN, puzzle, other.name, 0.0)
            error = f"{type(exc).__name__}: {exc}"
            crashed = True
        answers.append(
            CrossCheckAnswer(
                other.name,
                version,
                v.kind,
                v.solution if v.kind is _K.UNIQUE else None,
                v.seconds,
                error,
            )
        )
        if crashed:
            problems.append(f"{other.name} failed: {error}")
        elif v.kind is _K.UNKNOWN:
            undecided.append(other.name)
        elif result.verdict is _K.UNKNOWN:
            if config.validate:
                problem = _evidence_problem(puzzle, v)
                if problem:
                    problems.append(problem)
        elif v.kind is not result.verdict:
            problems.append(
                f"{result.backend} says {result.verdict.value}, {other.name} says {v.kind.value}"
            )
        elif v.kind is _K.UNIQUE and v.solution != result.solution:
            problems.append(
                f"{result.backend} and {other.name} both say unique but give different solutions"
            )
        elif config.validate:
            problem = _evidence_problem(puzzle, v)
            if problem:
                problems.append(problem)
    if undecided:
        changes["undecided"] = tuple(undecided)
    if answers:
        changes["cross_check"] = tuple(answers)
    problem = _check_published(result, record)
    if problem:
        problems.append(problem)
    if problems:
        changes["disagreement"] = "; ".join(problems)
    if config.minimal and result.verdict is _K.UNIQUE and result.solution is not None:
        red, unknown = redundant_clues(puzzle, result.solution, backend=main, budget=config.budget)
        changes["redundant"] = tuple(red)
        changes["redundant_unknown"] = tuple(unknown)
    for key, value in changes.items():
        setattr(result, key, value)
    return result


def _check_published(result: VerifyResult, record: Any) -> str | None:
    """Compare the solution the input carried (``record.solution``) with the answer:
    set ``result.published`` (and ``published_cells`` for a mismatch). Returns a
    disagreement when the published grid solves a puzzle the backend called unsolvable
    or contradictory (one of them is wrong), else None."""
    published: Grid | None = record.solution
    puzzle: Puzzle | None = record.puzzle
    if published is None or puzzle is None:
        return None
    if published.shape != puzzle.shape:
        result.published = "mismatch"
        return None
    if result.verdict is _K.UNIQUE and result.solution is not None:
        if published == result.solution:
            result.published = "matches"
            return None
        result.published = "mismatch"
        result.published_cells = tuple(published.differences(result.solution))
        if puzzle.is_solution(published):  # a second solution: "unique" is wrong
            return f"{result.backend} says unique but the published solution is another one"
        return None
    report = puzzle.check(published)
    if not report.ok:
        result.published = "mismatch"
        result.published_cells = tuple(sorted({c for p in report.problems for c in p.cells}))
        return None
    result.published = "one_of_several" if result.verdict is _K.MULTIPLE else "valid"
    if result.verdict in (_K.UNSOLVABLE, _K.CONTRADICTORY):
        return (
            f"{result.backend} says {result.verdict.value} but the published solution "
            "solves the puzzle"
        )
    return None


def verify_chunk(
    records: Sequence[Any], config: VerifyConfig, backend: Backend | None = None
) -> list[VerifyResult]:
    """Answer a list of records (:class:`sudoku_model.formats.Record`) in order.

    This is the unit of work of every executor (serial, processes, Dask); it creates its
    backends once per process (``backend``, when given, is used as the main backend
    instead of the one named by ``config.backend``, and is not cached). Malformed records
    become ``malformed`` results; nothing here raises for a bad puzzle.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot be made.
    """
    prepared = _prepare_chunk(records, config, backend)
    solved = _solve_prepared(prepared, config, backend) if prepared is not None else None
    return _build_chunk(records, config, prepared, solved, backend)


def _main(config: VerifyConfig, backend: Backend | None) -> tuple[Backend, str]:
    return _backend(config.backend if backend is None else backend)


def _prepare_chunk(
    records: Sequence[Any], config: VerifyConfig, backend: Backend | None = None
) -> list[list[Any]] | None:
    """For a backend with the ``check_unique_batch`` fast path: the chunk's puzzles
    grouped by rule set, as ``[rules, indices, refusal reason, givens, joined givens]``;
    None for other backends (they are asked one puzzle at a time)."""
    main, _ = _main(config, backend)
    if "check_unique_batch" not in main.capabilities.fast_paths:
        return None
    groups: dict[Any, list[int]] = {}
    for i, rec in enumerate(records):
        if rec.error is None and rec.puzzle is not None:
            groups.setdefault(rec.puzzle.rules, []).append(i)
    prepared = []
    for rules, indices in groups.items():
        reason = main.supports(records[indices[0]].puzzle)
        givens = [bytes(records[i].puzzle.givens.values) for i in indices]
        prepared.append([rules, indices, reason, givens, b"".join(givens)])
    return prepared


def _solve_prepared(
    prepared: list[list[Any]], config: VerifyConfig, backend: Backend | None = None
) -> list[Any]:
    """The solver part of a chunk, no Python per puzzle: thread workers run only this
    (native's batch releases the GIL) while the consumer parses and formats.

    Per group: one ``check_unique_batch``, then (to validate the evidence) the same call
    on the grids it gave: a complete grid that does not clash is a solution, so each must
    come back ``unique``. Returns per group None (refused) or (answers, grid owners,
    their answers).
    """
    main, _ = _main(config, backend)
    solved: list[Any] = []
    for rules, _indices, reason, _givens, data in prepared:
        if reason is not None:
            solved.append(None)
            continue
        res = main.check_unique_batch(rules, data, budget=config.budget)
        check: tuple[list[int], UniqueBatch] | None = None
        if config.validate:
            owners, grids = _evidence_grids(res)
            if owners:
                check = (owners, main.check_unique_batch(rules, grids, budget=config.budget))
        solved.append((res, check))
    return solved


def _evidence_grids(res: UniqueBatch) -> tuple[list[int], bytes]:
    """Every grid a batch gave as evidence (unique: the solution; multiple: both
    witnesses), joined, with the index of the puzzle each belongs to."""
    nc = res.rules.shape.cell_count
    raw = res.solutions
    witnesses = res.witnesses
    unique = _K.UNIQUE
    owners: list[int] = []
    grids: list[bytes] = []
    for j, kind in enumerate(res.kinds):
        if kind is unique:
            owners.append(j)
            grids.append(raw[j * nc : (j + 1) * nc])
        elif j in witnesses:
            a, b = witnesses[j]
            owners += (j, j)
            grids += (a, b)
    return owners, b"".join(grids)


@lru_cache(maxsize=64)
def _options_of(config: VerifyConfig) -> dict[str, Any]:
    # one dict per configuration, shared by its results (the JSON writer caches by identity)
    return config.options_json()


#: Bytes -> mask: nonzero values become 0xFF (which cells hold a given).
_GIVEN_MASK = bytes([0] + [255] * 255)


def _build_chunk(
    records: Sequence[Any],
    config: VerifyConfig,
    prepared: Any,
    solved: Any,
    backend: Backend | None = None,
) -> list[VerifyResult]:
    """Results of a chunk from the batch answers (or, for a backend without a batch, by
    asking it one puzzle at a time), plus cross-checks and minimality."""
    main, version = _main(config, backend)
    options = _options_of(config)
    results: list[Any] = [None] * len(records)
    good: list[int] = []
    for i, rec in enumerate(records):
        if rec.error is not None or rec.puzzle is None:
            results[i] = _malformed(rec, config, options, version)
        else:
            good.append(i)
    if prepared is not None:
        for group, answer in zip(prepared, solved):
            _batch_results(main, version, records, group, answer, config, options, results)
    else:
        for i in good:
            results[i] = _result_from(
                records[i],
                _verdict_on(main, records[i].puzzle, config.budget),
                version,
                config,
                options,
            )
    validate = config.validate and prepared is None  # a batch validated its evidence
    every = validate or bool(config.cross_check) or config.minimal
    for i in good:
        if every or records[i].solution is not None:  # a published solution is compared
            results[i] = _finish(results[i], records[i], config, main, validate=validate)
    if config.canonical:
        from .canon import canonical_field

        for i in good:
            results[i].canonical = canonical_field(records[i].puzzle, budget=config.budget)
    return results


def _batch_results(
    backend: Any,
    version: str,
    records: Sequence[Any],
    group: list[Any],
    answer: Any,
    config: VerifyConfig,
    options: dict[str, Any],
    results: list[Any],
) -> None:
    """Fill ``results`` for one rule-set group of a batch, straight from its columns.

    ``seconds`` of each result is the batch's wall time divided by its size; ``stats`` holds
    the batch totals (``batch_size``, then ``batch_`` + each counter of the backend). With
    ``config.validate`` a solution or witness that clashes (the validating batch did not
    answer unique), has an empty cell or changes a given is reported as a disagreement
    (a backend bug).
    """
    name = backend.name
    rules, indices, reason, givens, _data = group
    if reason is not None:
        for i in indices:
            rec = records[i]
            results[i] = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.UNKNOWN,
                name,
                version,
                0.0,
                stats={"refused": reason},
                options=options,
            )
        return
    res, check = answer
    name = res.backend  # the engine that answered (native routes large grids elsewhere)
    shape = rules.shape
    nc = shape.cell_count
    kinds, raw, witnesses = res.kinds, res.solutions, res.witnesses
    bad: set[int] = set()
    if check is not None:
        owners, answers = check
        from_bytes = int.from_bytes
        unique = _K.UNIQUE
        checked = answers.solutions
        for k, (j, kind) in enumerate(zip(owners, answers.kinds)):
            grid = checked[k * nc : (k + 1) * nc] if kind is unique else b"\0"
            g = givens[j]
            if (
                kind is not unique
                or 0 in grid
                or from_bytes(grid, "big") & from_bytes(g.translate(_GIVEN_MASK), "big")
                != from_bytes(g, "big")
            ):
                bad.add(j)
    size = len(indices)
    seconds = res.seconds / size
    stats = {"batch_size": size, **{f"batch_{k}": v for k, v in res.stats.items()}}
    trusted = Grid._trusted
    multiple, unique, contradictory = _K.MULTIPLE, _K.UNIQUE, _K.CONTRADICTORY
    for j, i in enumerate(indices):
        rec = records[i]
        kind = kinds[j]
        if kind is multiple:
            pair = witnesses.get(j)
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                kind,
                name,
                version,
                seconds,
                witnesses=()
                if pair is None  # the second search ran out of budget before two again
                else (trusted(shape, tuple(pair[0])), trusted(shape, tuple(pair[1]))),
                stats=stats,
                options=options,
            )
            if pair is not None and pair[0] == pair[1]:
                r.disagreement = f"{name} answered multiple with two equal grids"
        elif kind is unique:
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                kind,
                name,
                version,
                seconds,
                solution=trusted(shape, tuple(raw[j * nc : (j + 1) * nc])),
                stats=stats,
                options=options,
            )
        elif kind is contradictory:
            r = _clash_result(rec, name, version, seconds, stats, options)
        else:  # unsolvable, unknown
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                kind,
                name,
                version,
                seconds,
                stats=stats,
                options=options,
            )
        if j in bad:
            r.disagreement = (
                f"{name} answered {r.verdict.value} with a grid that does not solve the puzzle"
            )
        results[i] = r


def verify_puzzle(
    puzzle: Puzzle,
    *,
    backend: str | Backend = "native",
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    budget: Budget | None = None,
) -> VerifyResult:
    """Verify one puzzle (see :class:`VerifyResult`).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    from .formats import Record

    name = backend if isinstance(backend, str) else backend.name
    config = VerifyConfig(
        name, tuple(cross_check), minimal, DEFAULT_BUDGET if budget is None else budget
    )
    rec = Record("<puzzle>", 1, puzzle.givens.to_line(), puzzle)
    return verify_chunk([rec], config, None if isinstance(backend, str) else backend)[0]


# -- batches -------------------------------------------------------------------------------
def _solve_task(config: VerifyConfig, task: tuple[list[Any], Any]) -> Any:
    """The unit of work of a thread worker: only the C part of a prepared chunk."""
    _chunk, prepared = task
    return _solve_prepared(prepared, config) if prepared is not None else None


def executor_kind(
    backend: str,
    *,
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    jobs: int = 1,
    dask: str | None = None,
    threads: bool | None = None,
) -> str:
    """How :func:`verify_records` runs a configuration (see :mod:`sudoku_model.executor`):
    ``dask`` when asked; threads when the backend declares ``releases_gil`` and has a batch
    call and nothing else is computed (``threads=False`` forbids them); processes for
    ``jobs`` > 1 otherwise; else serial.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    if dask:
        return "dask"
    main, _ = _backend(backend)
    batch = main.capabilities.releases_gil and _has_batch(backend) and not cross_check
    if batch and not minimal and threads is not False:
        return "threads" if jobs > 1 else "serial"
    return "processes" if jobs > 1 else "serial"


def releases_gil(backend: str, cross_check: Sequence[str] = ()) -> bool:
    """Whether every backend of a run releases the GIL while it searches (its searches can
    run in this process beside other threads; see ``Executor.work_while_starting``).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    return all(_backend(name)[0].capabilities.releases_gil for name in (backend, *cross_check))


def verify_records(
    records: Iterable[Any],
    *,
    backend: str = "native",
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    budget: Budget | None = None,
    jobs: int = 1,
    dask: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    threads: bool | None = None,
    validate: bool = True,
    canonical: bool = False,
    on_chunk: Callable[[list[VerifyResult]], None] | None = None,
    on_wait: Callable[[], None] | None = None,
    executor: Executor | None = None,
) -> Iterator[VerifyResult]:
    """Verify a stream of records (:func:`sudoku_model.formats.iter_records`), in order.

    Reads ``records`` lazily: at most a few chunks are in flight, so memory stays
    constant. The work runs on one :class:`~sudoku_model.executor.Executor`, of the kind
    :func:`executor_kind` chooses (``jobs`` threads for native, ``jobs`` processes for the
    other backends, ``dask`` a scheduler address or ``"local"``), or on ``executor`` when
    given (made beforehand, e.g. to fail on an unreachable scheduler before opening an
    output). Each result carries its record's ``position``. ``on_chunk`` is called with
    each chunk's results as they come; ``on_wait`` every 0.1 s while waiting for one.

    With ``canonical``, each result also carries its puzzle's canonical form
    (:attr:`VerifyResult.canonical`; None for variant rules or a spent budget).

    Inside :func:`sudoku_model.executor.stop_on_signals`, SIGINT or SIGTERM stops the run:
    the backends are interrupted, the chunks already finished are yielded (and passed to
    ``on_chunk``), nothing of the chunks in flight, and
    :class:`~sudoku_model.executor.Interrupted` is raised.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
        ImportError: for ``dask`` without the ``dask`` extra installed.
        ConnectionError: for a Dask scheduler that cannot be reached.
        ValueError: for ``jobs`` or ``chunk_size`` below 1, or a malformed ``dask`` address.
        Interrupted: after a signal, see above.
    """
    if jobs < 1 or chunk_size < 1:
        raise ValueError("jobs and chunk_size must be at least 1")
    config = VerifyConfig(
        backend, tuple(cross_check), minimal, DEFAULT_BUDGET if budget is None else budget, validate
    )
    if canonical:
        from dataclasses import replace

        config = replace(config, canonical=True)
    # make the backends here first: an unknown name fails before any work is sent
    in_process = [_backend(config.backend)[0]] + [_backend(n)[0] for n in config.cross_check]
    if executor is None:
        kind = executor_kind(
            backend, cross_check=cross_check, minimal=minimal, jobs=jobs, dask=dask, threads=threads
        )
        executor = Executor(
            kind=kind,
            jobs=jobs,
            dask=dask,
            work_while_starting=releases_gil(backend, cross_check),
        )
    for _, results in _result_chunks(
        _numbered(records), config, executor, chunk_size, on_wait, in_process
    ):
        if on_chunk is not None:
            on_chunk(results)
        yield from results


def _numbered(records: Iterable[Any]) -> Iterator[tuple[int, Any]]:
    """(input index, record): for library callers (the command line numbers its inputs
    itself), a new input starts where the source changes or the positions start again."""
    source, position, index = None, -1, -1
    for rec in records:
        if rec.source != source or rec.position <= position:
            index += 1
        source, position = rec.source, rec.position
        yield index, rec


def _parsed(items: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The items with every unparsed line (:class:`~sudoku_model.formats.RawLine`, and
    the lines of a :class:`~sudoku_model.formats.RawBlock`) parsed."""
    from .formats import RawLine

    for index, item in _line_items(items):
        yield index, (item.reader.record(item) if item.__class__ is RawLine else item)


def _line_items(items: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The items with every :class:`~sudoku_model.formats.RawBlock` given as its lines
    (:class:`~sudoku_model.formats.RawLine`)."""
    from .formats import RawBlock

    for index, item in items:
        if item.__class__ is RawBlock:
            for line in item.raw_lines():
                yield index, line
        else:
            yield index, item


def _result_chunks(
    items: Iterable[tuple[int, Any]],
    config: VerifyConfig,
    executor: Executor,
    chunk_size: int,
    on_wait: Callable[[], None] | None,
    in_process: list[Backend],
) -> Iterator[tuple[list[tuple[int, Any]], list[VerifyResult]]]:
    """The results of ``(input index, record)`` items, chunk by chunk, in order, each with
    its input index (and its record's position) set, with the chunk of items."""
    batch = executor.kind in ("serial", "threads") and _prepare_chunk([], config) is not None
    tasks: Iterable[Any]
    fn: Callable[[Any], Any]
    if batch:
        # This thread prepares and builds the results while the workers run only the C
        # part, so the workers hardly ever wait for the GIL.
        tasks = (
            (chunk, _prepare_chunk([rec for _, rec in chunk], config))
            for chunk in chunks(items, chunk_size)
        )
        fn = partial(_solve_task, config)
    else:
        tasks = ((chunk, config) for chunk in chunks(items, chunk_size))
        fn = _verify_numbered_task
    try:
        for (chunk, extra), answer in executor.map(
            fn, tasks, on_wait=on_wait, on_stop=[b.interrupt for b in in_process]
        ):
            done = (
                _build_chunk([rec for _, rec in chunk], config, extra, answer) if batch else answer
            )
            for r, (index, rec) in zip(done, chunk):
                r.position, r.input = rec.position, index
            yield chunk, done
    finally:
        executor.close(kill=True)  # a no-op after a complete run
        for b in in_process:
            b.clear_interrupt()


def _verify_numbered_task(task: tuple[list[tuple[int, Any]], VerifyConfig]) -> list[VerifyResult]:
    """The unit of work sent to a worker process or a Dask worker: one chunk of
    ``(input index, record)``."""
    chunk, config = task
    return verify_chunk([rec for _, rec in chunk], config)


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


class _TextTask(NamedTuple):
    """What a worker gets: either consecutive unparsed lines of one line-format input
    (``reader``, ``input``, ``first`` position, ``lines`` numbers, ``texts``) or parsed
    ``records`` with the ``inputs`` they belong to; ``nbytes`` stays with the parent.
    ``sizes``: the lines of each text when some are blocks (a
    :class:`~sudoku_model.formats.RawBlock`'s lines joined by newlines), None when every
    text is one line."""

    config: VerifyConfig
    fmt: str
    reader: Any
    input: int
    first: int
    lines: list[int]
    texts: list[str]
    records: list[Any]
    inputs: list[int]
    nbytes: int
    sizes: list[int] | None = None

    def line_texts(self) -> list[str]:
        """The texts, one per line."""
        if self.sizes is None:
            return self.texts
        out: list[str] = []
        for text, k in zip(self.texts, self.sizes):
            if k == 1:
                out.append(text)
            else:
                out += text.split("\n")
        return out


def _text_task(task: _TextTask) -> TextChunk:
    """The unit of work of a worker process or a Dask worker: parse, verify, format."""
    # thread time: a task may run in a thread of the parent (while a LocalCluster starts),
    # whose other threads' CPU is not this task's
    start, cpu = time.perf_counter(), time.thread_time()
    if (
        task.reader is not None
        and _plain_reader(task.reader)
        and _bulk_backend(task.config, task.fmt) is not None
    ):
        # the bulk path, as in one process (threads): the same bytes, none of the Python
        # per puzzle that parsing and formatting cost (40 us a record on native, which
        # held --dask local to 1.3x one process)
        lines = _BulkLines(
            task.reader, task.input, task.first, task.lines, task.texts, len(task.lines)
        )
        bulk = _bulk_chunk(task.config, lines)
        if bulk is not None:
            bulk.seconds = time.perf_counter() - start
            bulk.cpu = time.thread_time() - cpu
            return bulk
    if task.reader is not None:
        records = task.reader.records(zip(task.lines, task.line_texts()), task.first)
        inputs: Iterable[int] = itertools.repeat(task.input)
    else:
        records, inputs = task.records, task.inputs
    results = verify_chunk(records, task.config)
    for r, rec, index in zip(results, records, inputs):
        r.position, r.input = rec.position, index
    chunk = text_chunk(results, task.fmt)
    chunk.seconds = time.perf_counter() - start
    chunk.cpu = time.thread_time() - cpu
    return chunk


class _TaskSizer:
    """Records per task: ``fixed`` when given, else enough for :data:`TASK_SECONDS` of
    worker CPU at the rate measured on the tasks come back so far (a moving average; CPU,
    not wall time: on a busy machine a worker's wall time stretches, the cost of a task in
    this process does not shrink)."""

    def __init__(self, kind: str, fixed: int | None) -> None:
        self.fixed = fixed
        self.target = TASK_SECONDS.get(kind, TASK_SECONDS["processes"])
        self.per_record: float | None = None
        self._probe = FIRST_TASK_RECORDS

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.per_record is None:
            size, self._probe = self._probe, min(PROBE_RECORDS, 2 * self._probe)
            return size
        return max(FIRST_TASK_RECORDS, min(MAX_TASK_RECORDS, int(self.target / self.per_record)))

    def observe(self, chunk: TextChunk) -> None:
        if chunk.count and chunk.cpu > 0:
            rate = chunk.cpu / chunk.count
            last = self.per_record
            self.per_record = rate if last is None else 0.7 * last + 0.3 * rate


class _TaskCut:
    """The task being filled: unparsed lines of one input, in a row, or parsed records."""

    def __init__(self, config: VerifyConfig, fmt: str) -> None:
        self.config, self.fmt = config, fmt
        self._reset()

    def _reset(self) -> None:
        self.reader: Any = None
        self.index = self.first = self.nbytes = 0
        self.lines: list[int] = []
        self.texts: list[str] = []
        self.sizes: list[int] | None = None
        self.records: list[Any] = []
        self.inputs: list[int] = []

    def follows(self, index: int, line: Any) -> bool:
        """Whether an unparsed line or block continues the lines of this task."""
        return (
            line.reader is self.reader
            and index == self.index
            and line.position == self.first + len(self.lines)
        )

    def add_line(self, index: int, line: Any) -> int:
        if not self.texts:
            self.reader, self.index, self.first = line.reader, index, line.position
        self.texts.append(line.text)
        self.lines.append(line.line)
        if self.sizes is not None:
            self.sizes.append(1)
        self.nbytes += len(line.text) + 1
        return len(self.lines)

    def add_block(self, index: int, block: Any) -> int:
        """Add a :class:`~sudoku_model.formats.RawBlock` whole: no Python object per line
        on this side (the parent of a Dask run reads, cuts and writes; per line, that was
        a fifth of its CPU)."""
        if not self.texts:
            self.reader, self.index, self.first = block.reader, index, block.position
        if self.sizes is None:
            self.sizes = [1] * len(self.texts)
        self.texts.append(block.text)
        self.sizes.append(block.nlines)
        self.lines += range(block.line, block.line + block.nlines)
        self.nbytes += len(block.text) + 1
        return len(self.lines)

    def add_record(self, index: int, record: Any) -> int:
        self.records.append(record)
        self.inputs.append(index)
        self.nbytes += len(record.text) + 1
        return len(self.records)

    def take(self) -> _TextTask:
        task = _TextTask(
            self.config,
            self.fmt,
            self.reader if self.texts else None,
            self.index,
            self.first,
            self.lines,
            self.texts,
            self.records,
            self.inputs,
            self.nbytes,
            self.sizes,
        )
        self._reset()
        return task


def _text_tasks(
    items: Iterable[tuple[int, Any]], config: VerifyConfig, fmt: str, sizer: _TaskSizer
) -> Iterator[_TextTask]:
    """Group ``(input index, record or unparsed line)`` items into tasks of the sizes
    ``sizer`` says: unparsed lines of one input, in a row, travel as text; parsed records
    as they are."""
    from .formats import RawBlock, RawLine

    cut = _TaskCut(config, fmt)
    want = sizer.size()
    for index, item in items:
        cls = item.__class__
        if cls is RawBlock or cls is RawLine:
            if cut.records or (cut.texts and not cut.follows(index, item)):
                yield cut.take()
                want = sizer.size()
            if cls is RawLine:
                full = cut.add_line(index, item) >= want
            else:
                # cut where lines one by one would be cut: the same tasks, the same bytes
                # (the task is never full here: a full one was taken)
                while item.nlines > want - len(cut.lines):
                    head, item = item.split(want - len(cut.lines))
                    cut.add_block(index, head)
                    yield cut.take()
                    want = sizer.size()
                full = cut.add_block(index, item) >= want
        else:
            if cut.texts:
                yield cut.take()
                want = sizer.size()
            full = cut.add_record(index, item) >= want
        if full:
            yield cut.take()
            want = sizer.size()
    if cut.texts or cut.records:
        yield cut.take()


def verify_text(
    items: Iterable[tuple[int, Any]],
    *,
    config: VerifyConfig,
    executor: Executor,
    fmt: str = "jsonl",
    chunk_size: int | None = None,
    on_wait: Callable[[], None] | None = None,
    on_results: Callable[[list[VerifyResult]], None] | None = None,
) -> Iterator[TextChunk]:
    """Verify ``(input index, item)`` pairs and yield the records as text, chunk by chunk,
    in input order: what ``sudoku verify`` writes.

    An item is a :class:`~sudoku_model.formats.Record` or, better for worker processes
    and Dask, an unparsed :class:`~sudoku_model.formats.RawLine` (``iter_records(...,
    raw=True)``): then this process only reads lines and writes text, while the workers
    parse, verify and format (the same code, so the same bytes, as in this process).
    Threads and the serial kind run the batch path of :func:`verify_records` here;
    ``on_results`` (those kinds only: elsewhere the results stay in the workers) is called
    with each chunk's :class:`VerifyResult` objects before its text is yielded (``sudoku
    verify --certify`` certifies them).

    ``chunk_size``: records per chunk; None chooses it: 512 for threads and serial, and for
    processes and Dask from the rate measured on the chunks done so far (see
    :data:`TASK_SECONDS`). The executor is closed when the iteration ends. Signals: as
    :func:`verify_records` (the finished chunks are yielded, then
    :class:`~sudoku_model.executor.Interrupted` is raised).

    Raises:
        ValueError: for a format other than ``jsonl`` or ``csv``, or ``chunk_size`` below 1.
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
        Interrupted: after a signal.
    """
    if fmt not in ("jsonl", "csv"):
        executor.close(kill=True)
        raise ValueError(f"unknown output format {fmt!r}: jsonl or csv")
    if chunk_size is not None and chunk_size < 1:
        executor.close(kill=True)
        raise ValueError("chunk_size must be at least 1")
    in_process = [_backend(config.backend)[0]] + [_backend(n)[0] for n in config.cross_check]
    if executor.kind in ("serial", "threads") and _bulk_backend(config, fmt, on_results):
        yield from _bulk_text_chunks(
            items, config, executor, chunk_size or DEFAULT_CHUNK_SIZE, on_wait, in_process
        )
        return
    if executor.kind in ("serial", "threads"):
        for done, results in _result_chunks(
            _parsed(items), config, executor, chunk_size or DEFAULT_CHUNK_SIZE, on_wait, in_process
        ):
            chunk = text_chunk(results, fmt)
            chunk.nbytes = sum(len(rec.text) + 1 for _, rec in done)
            if on_results is not None:
                on_results(results)
            yield chunk
        return
    if on_results is not None:
        executor.close(kill=True)
        raise ValueError("on_results needs the serial or threads executor")
    sizer = _TaskSizer(executor.kind, chunk_size)
    for task, chunk in executor.map(
        _text_task, _text_tasks(items, config, fmt, sizer), on_wait=on_wait
    ):
        sizer.observe(chunk)
        chunk.nbytes = task.nbytes
        yield chunk


# -- the bulk path (issue 18): plain classic 9x9 lines read, answered and written in C -------
# A chunk of unparsed lines of one plain reader (default alphabet, no variant, 9x9 or
# inferred shape) goes to the backend's verify_plain_lines: one call reads the plain lines
# and answers them as the batch path would, one more writes their records. Lines that
# are not plain are parsed here as the general path parses them: if they are all malformed
# (their records are those of the general path; the batch holds the plain lines only, as it
# would), the chunk is done; if one of them is a puzzle (a comment, other blanks), or the
# evidence does not check out, the whole chunk takes the general path. Chunks have the
# general path's sizes, so batch sizes and counters are the same: the records are the same
# bytes (tests/sudoku_model/test_verify_bulk.py compares them).
def _bulk_backend(
    config: VerifyConfig, fmt: str, on_results: Callable[..., Any] | None = None
) -> Backend | None:
    """The main backend when the run can take the bulk path (JSONL, nothing computed but
    the verdict, a backend that has one), else None."""
    if (
        fmt != "jsonl"
        or on_results is not None
        or config.cross_check
        or config.minimal
        or config.canonical
    ):
        return None
    main, _ = _backend(config.backend)
    return main if main.verify_plain_lines("", 0, budget=config.budget) is not None else None


def reads_raw_lines(kind: str, config: VerifyConfig, fmt: str, *, on_results: bool = False) -> bool:
    """Whether :func:`verify_text` should be given unparsed lines
    (``iter_records(..., raw=True)``): worker processes and Dask parse them, and the bulk
    path reads plain lines in C. ``on_results``: the caller will pass ``on_results``.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    if kind in ("processes", "dask"):
        return True
    return _bulk_backend(config, fmt, (lambda _: None) if on_results else None) is not None


def reads_raw_blocks(
    kind: str, config: VerifyConfig, fmt: str, *, on_results: bool = False
) -> bool:
    """Whether :func:`verify_text` should be given plain lines in blocks
    (``iter_records(..., raw=True, blocks=True)``): the bulk path in this process (the
    serial and threads kinds) hands a block's text to C as it is, and worker processes
    and Dask get blocks in their tasks, with no Python object per line in this process
    either way.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    return reads_raw_lines(kind, config, fmt, on_results=on_results)


_PLAIN_READERS: dict[int, tuple[Any, bool]] = {}


def _plain_reader(reader: Any) -> bool:
    """Whether a line reader reads plain lines as the bulk path does: classic 9x9 rules,
    the default alphabet."""
    hit = _PLAIN_READERS.get(id(reader))
    if hit is None or hit[0] is not reader:
        from .geometry import Shape
        from .gridtext import DEFAULT_ALPHABET

        if len(_PLAIN_READERS) > 64:
            _PLAIN_READERS.clear()
        hit = _PLAIN_READERS[id(reader)] = (
            reader,
            reader.shape in (None, Shape(3, 3))
            and not reader.variants
            and reader.alphabet == DEFAULT_ALPHABET,
        )
    return hit[1]


class _BulkLines(NamedTuple):
    """A chunk the bulk path may answer: ``nlines`` consecutive unparsed lines of one
    plain reader, numbered ``lines``, the first at position ``first``; ``texts`` are pieces
    of one or more lines each (a RawLine's text, a RawBlock's), to be joined by newlines
    (in the worker thread, not here)."""

    reader: Any
    input: int
    first: int
    lines: list[int]
    texts: list[str]
    nlines: int


def _bulk_lines(chunk: list[tuple[int, Any]]) -> _BulkLines | None:
    """The chunk (RawLine and RawBlock items) as :class:`_BulkLines`, or None when it is
    anything else (parsed records, two inputs, another reader, a gap in the positions)."""
    from .formats import RawBlock, RawLine

    index, first = chunk[0]
    if first.__class__ is not RawLine and first.__class__ is not RawBlock:
        return None
    reader = first.reader
    if chunk[-1][0] != index or not _plain_reader(reader):
        return None
    lines: list[int] = []
    texts: list[str] = []
    for i, item in chunk:
        cls = item.__class__
        if (cls is not RawLine and cls is not RawBlock) or item.reader is not reader:
            return None
        if item.position != first.position + len(lines) or i != index:
            return None
        if cls is RawBlock:
            lines += range(item.line, item.line + item.nlines)
        else:
            lines.append(item.line)
        texts.append(item.text)
    return _BulkLines(reader, index, first.position, lines, texts, len(lines))


def _block_chunks(items: Iterable[tuple[int, Any]], size: int) -> Iterator[list[tuple[int, Any]]]:
    """:func:`~sudoku_model.executor.chunks` (the same sizes, counted in records) over
    items among which a :class:`~sudoku_model.formats.RawBlock` counts as its lines: a
    block that crosses the end of a chunk is split there."""
    from .formats import RawBlock

    want = max(1, min(size, size // 16))
    chunk: list[tuple[int, Any]] = []
    have = 0
    for index, item in items:
        while item.__class__ is RawBlock and item.nlines > want - have:
            head, item = item.split(want - have)
            chunk.append((index, head))
            yield chunk
            chunk, have, want = [], 0, min(size, 2 * want)
        chunk.append((index, item))
        have += item.nlines if item.__class__ is RawBlock else 1
        if have >= want:
            yield chunk
            chunk, have, want = [], 0, min(size, 2 * want)
    if chunk:
        yield chunk


#: Verdict counts of a chunk from the bulk codes (sudoku_model.solving.PLAIN_KINDS; the
#: lines that are not plain are the malformed ones when the chunk is done in bulk).
_CODE_KINDS = tuple(k if k is not None else _K.MALFORMED for k in PLAIN_KINDS)


def _bulk_chunk(config: VerifyConfig, lines: _BulkLines) -> TextChunk | None:
    """The records of a chunk of plain-reader lines as text, or None when the chunk must
    take the general path (see the comment above). Runs in a worker thread: apart from
    the lines that are not plain, no Python per puzzle."""
    main, version = _backend(config.backend)
    count = lines.nlines
    joined = "\n".join(lines.texts)
    answer = main.verify_plain_lines(joined, count, budget=config.budget)
    if answer is None or not answer.evidence_ok:
        return None
    codes = answer.codes
    options = _bulk_options(config)
    size = answer.size
    seconds = answer.seconds / size if size else 0.0
    stats = {"batch_size": size, **{f"batch_{k}": v for k, v in answer.stats.items()}}
    inserts: list[str | None] = [None] * count
    notes: list[tuple[str, str]] = []
    odd = codes.count(_ODD_CODE) + codes.count(_CLASH_CODE)
    if odd:
        reader, first, nums = lines.reader, lines.first, lines.lines
        texts = joined.split("\n")
        for j, code in enumerate(codes):
            if code != _ODD_CODE and code != _CLASH_CODE:
                continue
            rec = reader.records([(nums[j], texts[j])], first + j)[0]
            if code == _ODD_CODE:
                if rec.error is None:  # a puzzle after all: the general path reads it
                    return None
                r = _malformed(rec, config, options, version)
                if len(notes) < NOTED_MALFORMED:
                    notes.append(("malformed", str(r.error).splitlines()[0]))
            else:
                r = _clash_result(rec, main.name, version, seconds, stats, options)
            r.position, r.input = rec.position, lines.input
            inserts[j] = r.to_json_line()
    head = _source_head(lines.reader.source)
    middle = f',"input":{lines.input},"position":'
    tail = (
        _tail(main.name, version, options)
        + repr(round(seconds, 6))
        + ',"stats":'
        + _json(stats)
        + "}\n"
    )
    text = answer.records(lines.lines, lines.first, head, middle, tail, inserts)
    summary = VerifySummary()
    for code, kind in enumerate(_CODE_KINDS):
        summary.counts[kind] += codes.count(code)
    chunk = TextChunk(text, count, summary, notes)
    chunk.nbytes = len(joined) + 1
    return chunk


_BULK_OPTIONS: dict[VerifyConfig, dict[str, Any]] = {}


def _bulk_options(config: VerifyConfig) -> dict[str, Any]:
    """The options of a configuration, one dict for every chunk of it: the record tail
    that holds them is cached by the dict's identity (:func:`_tail`), so a dict per chunk
    formatted it anew each time. Callers never change it."""
    options = _BULK_OPTIONS.get(config)
    if options is None:
        if len(_BULK_OPTIONS) > 16:
            _BULK_OPTIONS.clear()
        options = _BULK_OPTIONS[config] = _options_of(config)
    return options


_ODD_CODE = PLAIN_KINDS.index(None)
_CLASH_CODE = PLAIN_KINDS.index(_K.CONTRADICTORY)


def _bulk_task(config: VerifyConfig, task: tuple[str, Any, Any]) -> Any:
    """The unit of work of a thread worker on the bulk path: a bulk chunk whole, or the C
    part of a prepared general chunk (as :func:`_solve_task`)."""
    kind, _chunk, extra = task
    if kind == "bulk":
        return _bulk_chunk(config, extra)
    return _solve_prepared(extra, config) if extra is not None else None


def _bulk_text_chunks(
    items: Iterable[tuple[int, Any]],
    config: VerifyConfig,
    executor: Executor,
    chunk_size: int,
    on_wait: Callable[[], None] | None,
    in_process: list[Backend],
) -> Iterator[TextChunk]:
    """:func:`verify_text` on the bulk path: each chunk (the general path's sizes) in bulk
    when it can be, else parsed and answered as :func:`_result_chunks` does."""

    def general(chunk: list[tuple[int, Any]]) -> tuple[str, Any, Any]:
        parsed = list(_parsed(chunk))  # blocks, too, as their lines
        return ("batch", parsed, _prepare_chunk([rec for _, rec in parsed], config))

    def task(chunk: list[tuple[int, Any]]) -> tuple[str, Any, Any]:
        lines = _bulk_lines(chunk)
        return ("bulk", chunk, lines) if lines is not None else general(chunk)

    try:
        for (kind, chunk, extra), answer in executor.map(
            partial(_bulk_task, config),
            (task(chunk) for chunk in _block_chunks(items, chunk_size)),
            on_wait=on_wait,
            on_stop=[b.interrupt for b in in_process],
        ):
            if kind == "bulk":
                if answer is not None:
                    yield answer
                    continue
                kind, chunk, extra = general(chunk)  # answered here, the general way
                answer = _solve_prepared(extra, config)
            records = [rec for _, rec in chunk]
            done = _build_chunk(records, config, extra, answer)
            for r, (index, rec) in zip(done, chunk):
                r.position, r.input = rec.position, index
            text = text_chunk(done, "jsonl")
            text.nbytes = sum(len(rec.text) + 1 for rec in records)
            yield text
    finally:
        executor.close(kill=True)  # a no-op after a complete run
        for b in in_process:
            b.clear_interrupt()


def _clash_result(
    rec: Any,
    name: str,
    version: str,
    seconds: float,
    stats: dict[str, Any],
    options: dict[str, Any],
) -> VerifyResult:
    """The result of a contradictory puzzle of a batch (its record names the clash)."""
    p = rec.puzzle
    return VerifyResult(
        rec.source,
        rec.line,
        p,
        _K.CONTRADICTORY,
        name,
        version,
        seconds,
        conflicts=tuple(c.describe(p.shape) for c in p.conflicts()),
        stats=stats,
        options=options,
    )


def _has_batch(name: str) -> bool:
    """Whether the backend declares the ``check_unique_batch`` fast path."""
    b, _ = _backend(name)
    return "check_unique_batch" in b.capabilities.fast_paths


# -- summary -------------------------------------------------------------------------------
VERDICT_ORDER = tuple(_K)


@dataclass
class VerifySummary:
    """Counts per verdict, disagreements, undecided cross-checks, published-solution
    matches and mismatches, time and rate of a run."""

    counts: dict[VerdictKind, int] = field(default_factory=lambda: {k: 0 for k in _K})
    disagreements: int = 0
    not_minimal: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    undecided: int = 0
    published_matches: int = 0
    published_mismatches: int = 0

    def add(
        self,
        verdict: VerdictKind,
        *,
        disagreement: bool = False,
        not_minimal: bool = False,
        undecided: bool = False,
        published: str | None = None,
    ) -> None:
        """Count one result (``published``: its ``published_solution`` word, if any)."""
        self.counts[verdict] += 1
        self.disagreements += disagreement
        self.not_minimal += not_minimal
        self.undecided += undecided
        if published is not None:
            if published == "mismatch":
                self.published_mismatches += 1
            else:
                self.published_matches += 1

    def merge(self, other: VerifySummary) -> None:
        """Add the counts of another summary (of a chunk) to these."""
        for k, n in other.counts.items():
            self.counts[k] += n
        self.disagreements += other.disagreements
        self.not_minimal += other.not_minimal
        self.undecided += other.undecided
        self.published_matches += other.published_matches
        self.published_mismatches += other.published_mismatches

    def add_result(self, r: VerifyResult) -> None:
        self.add(
            r.verdict,
            disagreement=r.disagreement is not None,
            not_minimal=bool(r.redundant),
            undecided=bool(r.undecided),
            published=r.published,
        )

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def all_unique(self) -> bool:
        """The run's answer is "yes": every puzzle unique, no disagreement, no published
        solution that mismatches."""
        return (
            self.counts[_K.UNIQUE] == self.total
            and not self.disagreements
            and not self.published_mismatches
        )

    def table(self, *, computed: int | None = None) -> str:
        """A small readable table: one line per verdict that occurred, then totals."""
        total = self.total
        width = max(8, len(f"{total:,}"))
        lines = []
        for k in VERDICT_ORDER:
            n = self.counts[k]
            if n or k is _K.UNIQUE:
                pct = 100.0 * n / total if total else 0.0
                lines.append(f"  {k.value:<13} {n:>{width},}  {pct:5.1f}%")
        lines.append(f"  {'total':<13} {total:>{width},}")
        if self.disagreements:
            lines.append(f"  {'DISAGREEMENTS':<13} {self.disagreements:>{width},}")
        if self.undecided:
            lines.append(
                f"  {'undecided':<13} {self.undecided:>{width},}  "
                "(a backend answered unknown: not checked, no disagreement)"
            )
        if self.published_matches or self.published_mismatches:
            lines.append(
                f"  {'published ok':<13} {self.published_matches:>{width},}  "
                "(the solution in the input is right)"
            )
        if self.published_mismatches:
            lines.append(
                f"  {'PUBLISHED':<13} {self.published_mismatches:>{width},}  "
                "MISMATCHES: the solution in the input is wrong (see published_cells)"
            )
        if self.not_minimal:
            lines.append(f"  {'not minimal':<13} {self.not_minimal:>{width},}")
        done = (total - self.resumed) if computed is None else computed
        rate = done / self.seconds if self.seconds > 0 else 0.0
        tail = f"  {done:,} verified in {self.seconds:.2f} s ({rate:,.0f} puzzles/s)"
        if self.resumed:
            tail += f"; {self.resumed:,} already in the output (resumed)"
        if self.interrupted:
            tail += "; INTERRUPTED (resume with --resume)"
        lines.append(tail)
        return "\n".join(lines)


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


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


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


class ResumeMismatch(ValueError):
    """The records of an output file are not the results of the input given now."""


def record_identity(input_index: int, record: Any) -> str:
    """What identifies an input record in an output file: its input's index, its position
    in that input and its givens (as written in the ``puzzle`` field; empty when malformed).
    A hash of these, in order, tells whether an output belongs to an input."""
    p = record.puzzle
    text = _line_of(p.givens.values) if p is not None and record.error is None else ""
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
