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

The classic-rules native backend has a fast path: a whole chunk is answered by one call
into C that releases the GIL (``native_backtrack`` batch API), so threads overlap solving
with reading and formatting.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import IO, Any

from .errors import ParseError
from .executor import Executor, chunks
from .grid import Grid
from .puzzle import Puzzle
from .solving import DEFAULT_BUDGET, Backend, Budget, Verdict, VerdictKind

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
    """

    backend: str = "native"
    cross_check: tuple[str, ...] = ()
    minimal: bool = False
    budget: Budget = DEFAULT_BUDGET
    validate: bool = True

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
    differ (``None`` when they agree).
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
        """The JSON object of one output line (see the module docstring for fields)."""
        p = self.puzzle
        shape = p.shape if p is not None else None
        d: dict[str, Any] = {
            "source": self.source,
            "line": self.line,
            "input": self.input,
            "position": self.position,
            "puzzle": _line_of(p.givens.values) if p is not None else None,
            "clues": _clues(p) if p is not None else None,
        }
        if p is not None and not _is_classic(p.rules):
            d["rules"] = p.rules.to_json()
        d["verdict"] = self.verdict.value
        if self.solution is not None:
            d["solution"] = _line_of(self.solution.values)
        if self.witnesses:
            d["witnesses"] = [_line_of(w.values) for w in self.witnesses]
            assert shape is not None
            d["differing_cells"] = [shape.cell_name(c) for c in self.differing_cells]
        if self.error is not None:
            d["error"] = {
                "message": self.error.message,
                "line": self.error.line,
                "column": self.error.column,
            }
            d["text"] = self.text
        if self.conflicts:
            d["conflicts"] = list(self.conflicts)
        if self.redundant is not None and shape is not None:
            d["redundant_clues"] = [shape.cell_name(c) for c in self.redundant]
            d["minimal"] = self.is_minimal
            if self.redundant_unknown:
                d["redundant_unknown"] = [shape.cell_name(c) for c in self.redundant_unknown]
        if self.cross_check:
            d["cross_check"] = [a.to_json() for a in self.cross_check]
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
            or not _is_classic(p.rules)
            or self.verdict is _K.UNKNOWN
            and "refused" in self.stats
        ):
            return _json(self.to_json()) + "\n"
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
    return _cached(("src", source), lambda: '{"source":' + _json(source) + ',"line":')


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
_BACKENDS: dict[str, tuple[Backend, str]] = {}


def _backend(name_or_backend: str | Backend) -> tuple[Backend, str]:
    """A cached backend instance (one per process and name) and its version."""
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


def _evidence_problem(puzzle: Puzzle, v: Verdict) -> str | None:
    """Why the evidence of a verdict is wrong (a backend bug), or None when it holds."""
    if v.kind is _K.UNIQUE:
        if v.solution is None or not puzzle.is_solution(v.solution):
            return f"{v.backend} answered unique with a grid that does not solve the puzzle"
    elif v.kind is _K.MULTIPLE:
        if (
            len(v.witnesses) < 2
            or v.witnesses[0] == v.witnesses[1]
            or not all(puzzle.is_solution(w) for w in v.witnesses)
        ):
            return f"{v.backend} answered multiple without two different valid solutions"
    return None


def redundant_clues(
    puzzle: Puzzle,
    solution: Grid,
    *,
    backend: str | Backend = "native",
    budget: Budget | None = None,
) -> tuple[list[int], list[int]]:
    """The clues of a unique puzzle that can be removed one at a time keeping it unique.

    Clue ``c`` is redundant exactly when "the other clues + (cell c != its digit)" has no
    solution: one search per clue. A backend primitive answers that directly; otherwise
    each clue is
    removed and the rest asked for a solution other than ``solution``. Used: native
    ``keeps_unique_without`` (forbidden pairs), PySAT ``digit_is_forced`` (assumptions),
    else ``check_unique(smaller, solution=solution)`` (one search for another solution).

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
    givens = puzzle.givens
    keeps_unique_without = getattr(b, "keeps_unique_without", None)  # native
    digit_is_forced = getattr(b, "digit_is_forced", None)  # pysat
    for cell in givens.filled_cells():
        keeps: bool | None
        if callable(keeps_unique_without):
            keeps = keeps_unique_without(puzzle, cell, solution, budget=budget)
        elif callable(digit_is_forced):
            smaller = puzzle.with_givens(givens.without([cell]))
            try:
                keeps = digit_is_forced(smaller, cell, solution.values[cell], budget=budget)
            except TimeoutError:
                keeps = None
        else:
            smaller = puzzle.with_givens(givens.without([cell]))
            kind = b.check_unique(smaller, solution=solution, budget=budget).kind
            keeps = True if kind is _K.UNIQUE else None if kind is _K.UNKNOWN else False
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


def _malformed(record: Any, config: VerifyConfig, options: dict[str, Any]) -> VerifyResult:
    return VerifyResult(
        record.source,
        record.line,
        None,
        _K.MALFORMED,
        config.backend,
        _backend(config.backend)[1],
        0.0,
        error=record.error,
        text=record.text,
        options=options,
    )


def _finish(
    result: VerifyResult, record: Any, config: VerifyConfig, main: Backend, *, validate: bool
) -> VerifyResult:
    """Add validation, minimality and cross-checking to a main-backend result."""
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
    for name in config.cross_check:
        other, version = _backend(name)
        try:
            v = _verdict_on(other, puzzle, config.budget)
            error = v.error
        except Exception as exc:  # a crashing backend is a disagreement, not a lost run
            v = Verdict(_K.UNKNOWN, puzzle, other.name, 0.0)
            error = f"{type(exc).__name__}: {exc}"
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
        if error:
            problems.append(f"{other.name} failed: {error}")
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
    if answers:
        changes["cross_check"] = tuple(answers)
    if problems:
        changes["disagreement"] = "; ".join(problems)
    if config.minimal and result.verdict is _K.UNIQUE and result.solution is not None:
        red, unknown = redundant_clues(puzzle, result.solution, backend=main, budget=config.budget)
        changes["redundant"] = tuple(red)
        changes["redundant_unknown"] = tuple(unknown)
    for key, value in changes.items():
        setattr(result, key, value)
    return result


def verify_chunk(records: Sequence[Any], config: VerifyConfig) -> list[VerifyResult]:
    """Answer a list of records (:class:`sudoku_model.formats.Record`) in order.

    This is the unit of work of every executor (serial, processes, Dask); it creates its
    backends once per process. Malformed records become ``malformed`` results; nothing
    here raises for a bad puzzle.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot be made.
    """
    prepared = _prepare_chunk(records, config)
    solved = _solve_prepared(prepared, config) if prepared is not None else None
    return _build_chunk(records, config, prepared, solved)


def _prepare_chunk(records: Sequence[Any], config: VerifyConfig) -> list[list[Any]] | None:
    """For a backend with a batch call (native ``count_batch``): the chunk's puzzles
    grouped by rule set, as ``[rules, indices, refusal reason, givens, joined givens]``;
    None for other backends."""
    main, _ = _backend(config.backend)
    if not callable(getattr(main, "count_batch", None)):
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


def _solve_prepared(prepared: list[list[Any]], config: VerifyConfig) -> list[Any]:
    """The C part of a chunk, no Python per puzzle: thread workers run only this (the
    batch releases the GIL) while the consumer parses and formats.

    Per group: counts up to 2 keeping the first solution, then (to validate it) the same
    call on the solutions themselves: a complete grid that does not clash is a solution.
    """
    main: Any
    main, _ = _backend(config.backend)
    solved: list[Any] = []
    for rules, _indices, reason, _givens, data in prepared:
        if reason is not None:
            solved.append(None)
            continue
        res = main.count_batch(rules, data, limit=2, keep=1, budget=config.budget)
        check = (
            main.count_batch(rules, res.solutions, limit=1, keep=0, budget=config.budget)
            if config.validate
            else None
        )
        solved.append((res, check))
    return solved


@lru_cache(maxsize=64)
def _options_of(config: VerifyConfig) -> dict[str, Any]:
    # one dict per configuration, shared by its results (the JSON writer caches by identity)
    return config.options_json()


#: Bytes -> mask: nonzero values become 0xFF (which cells hold a given).
_GIVEN_MASK = bytes([0] + [255] * 255)


def _build_chunk(
    records: Sequence[Any], config: VerifyConfig, prepared: Any, solved: Any
) -> list[VerifyResult]:
    """Results of a chunk from the batch answers (or, for a backend without a batch, by
    asking it one puzzle at a time), plus cross-checks and minimality."""
    main, version = _backend(config.backend)
    options = _options_of(config)
    results: list[Any] = [None] * len(records)
    good: list[int] = []
    for i, rec in enumerate(records):
        if rec.error is not None or rec.puzzle is None:
            results[i] = _malformed(rec, config, options)
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
    validate = config.validate and prepared is None  # a batch validated its evidence in C
    if validate or config.cross_check or config.minimal:
        for i in good:
            results[i] = _finish(results[i], records[i], config, main, validate=validate)
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
    """Fill ``results`` for one rule-set group of a native batch, straight from the C
    buffers.

    ``seconds`` of each result is the batch's wall time divided by its size; ``stats`` holds
    the batch totals (``batch_size``, ``batch_nodes``, ``batch_guesses``). Puzzles with two
    or more solutions are asked again, together, keeping two witnesses. With
    ``config.validate`` a solution or witness that clashes (checked in C), has an empty
    cell or changes a given is reported as a disagreement (a backend bug).
    """
    import native_backtrack as nb

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
    shape = rules.shape
    nc = shape.cell_count
    counts, statuses, raw = res.counts, res.statuses, res.solutions
    multiple = [j for j, c in enumerate(counts) if c >= 2]
    witnesses: dict[int, tuple[bytes, bytes]] = {}
    seconds_total = res.seconds
    if multiple:
        again = backend.count_batch(
            rules, b"".join(givens[j] for j in multiple), limit=2, keep=2, budget=config.budget
        )
        seconds_total += again.seconds
        for k, j in enumerate(multiple):
            base = 2 * k * nc
            witnesses[j] = (
                again.solutions[base : base + nc],
                again.solutions[base + nc : base + 2 * nc],
            )
    bad: set[int] = set()
    if check is not None:
        from_bytes = int.from_bytes
        contradictory = nb.CONTRADICTORY
        evidence: list[tuple[int, bytes]] = []
        for j, count in enumerate(counts):
            if not count:
                continue
            grids = witnesses[j] if j in witnesses else (raw[j * nc : (j + 1) * nc],)
            if j not in witnesses and check.statuses[j] == contradictory:
                bad.add(j)
            if j in witnesses:
                evidence.extend((j, g) for g in grids)
            g = givens[j]
            mask = from_bytes(g.translate(_GIVEN_MASK), "big")
            want = from_bytes(g, "big")
            for grid in grids:
                if 0 in grid or from_bytes(grid, "big") & mask != want:
                    bad.add(j)
        if evidence:
            more = backend.count_batch(
                rules, b"".join(g for _, g in evidence), limit=1, keep=0, budget=config.budget
            )
            for (j, _), status in zip(evidence, more.statuses):
                if status == contradictory:
                    bad.add(j)
    size = len(indices)
    seconds = seconds_total / size
    stats = {"batch_size": size, "batch_nodes": res.nodes, "batch_guesses": res.guesses}
    trusted = Grid._trusted
    exhausted = nb.EXHAUSTED
    for j, i in enumerate(indices):
        rec = records[i]
        count, status = counts[j], statuses[j]
        if j in witnesses:
            a, b = witnesses[j]
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.MULTIPLE,
                name,
                version,
                seconds,
                witnesses=(trusted(shape, tuple(a)), trusted(shape, tuple(b))),
                stats=stats,
                options=options,
            )
            if a == b:
                r.disagreement = f"{name} answered multiple with two equal grids"
        elif count >= 2:  # the second call ran out of budget before finding two again
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.MULTIPLE,
                name,
                version,
                seconds,
                stats=stats,
                options=options,
            )
        elif status == nb.CONTRADICTORY:
            p = rec.puzzle
            r = VerifyResult(
                rec.source,
                rec.line,
                p,
                _K.CONTRADICTORY,
                name,
                version,
                seconds,
                conflicts=tuple(c.describe(shape) for c in p.conflicts()),
                stats=stats,
                options=options,
            )
        elif status != exhausted:
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.UNKNOWN,
                name,
                version,
                seconds,
                stats=stats,
                options=options,
            )
        elif count == 1:
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.UNIQUE,
                name,
                version,
                seconds,
                solution=trusted(shape, tuple(raw[j * nc : (j + 1) * nc])),
                stats=stats,
                options=options,
            )
        else:
            r = VerifyResult(
                rec.source,
                rec.line,
                rec.puzzle,
                _K.UNSOLVABLE,
                name,
                version,
                seconds,
                stats=stats,
                options=options,
            )
        if j in bad and count:
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
    if not isinstance(backend, str):
        _BACKENDS.setdefault(name, (backend, _version(backend)))
    config = VerifyConfig(
        name, tuple(cross_check), minimal, DEFAULT_BUDGET if budget is None else budget
    )
    rec = Record("<puzzle>", 1, puzzle.givens.to_line(), puzzle)
    return verify_chunk([rec], config)[0]


# -- batches -------------------------------------------------------------------------------
def _verify_task(task: tuple[list[Any], VerifyConfig]) -> list[VerifyResult]:
    """The unit of work sent to a worker process or a Dask worker: one chunk."""
    return verify_chunk(*task)


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
    # make the backends here first: an unknown name fails before any work is sent
    in_process = [_backend(config.backend)[0]] + [_backend(n)[0] for n in config.cross_check]
    if executor is None:
        kind = executor_kind(
            backend, cross_check=cross_check, minimal=minimal, jobs=jobs, dask=dask, threads=threads
        )
        executor = Executor(kind=kind, jobs=jobs, dask=dask)
    batch = executor.kind in ("serial", "threads") and _prepare_chunk([], config) is not None
    items: Iterable[Any]
    fn: Callable[[Any], Any]
    if batch:
        # This thread prepares and builds the results while the workers run only the C
        # part, so the workers hardly ever wait for the GIL.
        items = ((chunk, _prepare_chunk(chunk, config)) for chunk in chunks(records, chunk_size))
        fn = partial(_solve_task, config)
    else:
        items = ((chunk, config) for chunk in chunks(records, chunk_size))
        fn = _verify_task
    # Inputs told apart for library callers (the command line sets them exactly): a new
    # input starts where the source changes or the positions start again.
    source, position, input_index = None, -1, -1
    try:
        for (chunk, extra), answer in executor.map(
            fn, items, on_wait=on_wait, on_stop=[b.interrupt for b in in_process]
        ):
            done = _build_chunk(chunk, config, extra, answer) if batch else answer
            for r, rec in zip(done, chunk):
                if rec.source != source or rec.position <= position:
                    input_index += 1
                source, position = rec.source, rec.position
                r.position, r.input = position, input_index
            if on_chunk is not None:
                on_chunk(done)
            yield from done
    finally:
        executor.close(kill=True)  # a no-op after a complete run
        for b in in_process:
            b.clear_interrupt()


def _has_batch(name: str) -> bool:
    b, _ = _backend(name)
    return callable(getattr(b, "count_batch", None))


# -- summary -------------------------------------------------------------------------------
VERDICT_ORDER = tuple(_K)


@dataclass
class VerifySummary:
    """Counts per verdict, disagreements, time and rate of a run."""

    counts: dict[VerdictKind, int] = field(default_factory=lambda: {k: 0 for k in _K})
    disagreements: int = 0
    not_minimal: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    def add(
        self, verdict: VerdictKind, *, disagreement: bool = False, not_minimal: bool = False
    ) -> None:
        self.counts[verdict] += 1
        self.disagreements += disagreement
        self.not_minimal += not_minimal

    def add_result(self, r: VerifyResult) -> None:
        self.add(r.verdict, disagreement=r.disagreement is not None, not_minimal=bool(r.redundant))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def all_unique(self) -> bool:
        return self.counts[_K.UNIQUE] == self.total and not self.disagreements

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
#: Columns of the CSV output (lists and objects are written as JSON text).
CSV_COLUMNS = (
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
    "conflicts",
    "redundant_clues",
    "minimal",
    "disagreement",
    "cross_check",
    "backend",
    "backend_version",
    "options",
    "seconds",
    "stats",
    "rules",
)


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class JsonlWriter:
    """One JSON object per line; :meth:`flush` after each chunk."""

    fmt = "jsonl"

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, result: VerifyResult) -> None:
        self.out.write(result.to_json_line())

    def write_many(self, results: Iterable[VerifyResult]) -> None:
        self.out.write("".join([r.to_json_line() for r in results]))

    def flush(self) -> None:
        self.out.flush()


class CsvWriter:
    """The :data:`CSV_COLUMNS`, one row per result (header first unless appending)."""

    fmt = "csv"

    def __init__(self, out: IO[str], *, header: bool = True) -> None:
        self.out = out
        self._csv = csv.writer(out, lineterminator="\n")
        if header:
            self._csv.writerow(CSV_COLUMNS)

    @staticmethod
    def row(result: VerifyResult) -> list[Any]:
        d = result.to_json()
        err = d.get("error") or {}
        wit = d.get("witnesses") or [None, None]

        def js(key: str) -> str:
            v = d.get(key)
            return "" if v is None else _json(v)

        return [
            d["source"],
            d["line"],
            d["input"],
            d["position"],
            d["puzzle"] or "",
            d["clues"] if d["clues"] is not None else "",
            d["verdict"],
            d.get("solution", ""),
            wit[0] or "",
            wit[1] or "",
            " ".join(d.get("differing_cells", [])),
            err.get("message", ""),
            err.get("line", ""),
            err.get("column", ""),
            js("conflicts"),
            " ".join(d.get("redundant_clues", [])),
            "" if d.get("minimal") is None else str(d["minimal"]).lower(),
            d.get("disagreement", ""),
            js("cross_check"),
            d["backend"],
            d["backend_version"],
            js("options"),
            d["seconds"],
            js("stats"),
            js("rules"),
        ]

    def write(self, result: VerifyResult) -> None:
        self._csv.writerow(self.row(result))

    def write_many(self, results: Iterable[VerifyResult]) -> None:
        self._csv.writerows(self.row(r) for r in results)

    def flush(self) -> None:
        self.out.flush()


def open_writer(out: IO[str], fmt: str, *, header: bool = True) -> JsonlWriter | CsvWriter:
    """A writer for ``jsonl`` or ``csv``.

    Raises:
        ValueError: for another format name.
    """
    if fmt == "jsonl":
        return JsonlWriter(out)
    if fmt == "csv":
        return CsvWriter(out, header=header)
    raise ValueError(f"unknown output format {fmt!r}; known: jsonl, csv")


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
