"""Answering records: one puzzle at a time or a chunk per rule set through the batch
fast path, then validation, minimality, cross-checking and the published solution."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..grid import Grid
from ..puzzle import Puzzle
from ..solving import (
    DEFAULT_BACKEND,
    DEFAULT_BUDGET,
    Backend,
    Budget,
    UniqueBatch,
    Verdict,
    evidence_problem,
)
from .engines import _backend
from .results import _K, CrossCheckAnswer, VerifyConfig, VerifyResult


# -- answering one record ------------------------------------------------------------------
def _verdict_on(backend: Backend, puzzle: Puzzle, budget: Budget) -> Verdict:
    """check_unique, with a refusal (unsupported rule or size) turned into an ``unknown``
    verdict that carries the reason."""
    from ..errors import UnsupportedPuzzleError

    try:
        return backend.check_unique(puzzle, budget=budget)
    except UnsupportedPuzzleError as exc:
        return Verdict(_K.UNKNOWN, puzzle, backend.engine_name(), 0.0, error=str(exc))


_evidence_problem = evidence_problem  # the one check, shared with compare


def redundant_clues(
    puzzle: Puzzle,
    solution: Grid,
    *,
    backend: str | Backend = DEFAULT_BACKEND,
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


def redundant_eliminations(
    puzzle: Puzzle,
    solution: Grid,
    *,
    backend: str | Backend = DEFAULT_BACKEND,
    budget: Budget | None = None,
) -> tuple[list[int], list[int]]:
    """The eliminations of a unique pencilmark puzzle that can be undone one at a time
    keeping it unique, as positions ``n*cell + digit - 1`` of its pencilmark line.

    Restoring digit d at cell c keeps the puzzle unique exactly when no solution puts d at
    c with every other cell's candidates unchanged: d is the digit of a given peer, or
    the puzzle with c restricted to {d} has no solution (one solve per elimination).

    Returns:
        (redundant eliminations, eliminations whose check ran out of budget), sorted.

    Raises:
        ValueError: when ``solution`` does not solve the puzzle.
    """
    from ..solving import SolveStatus

    b, _ = _backend(backend)
    budget = DEFAULT_BUDGET if budget is None else budget
    if not puzzle.is_solution(solution):
        raise ValueError("the solution given to redundant_eliminations does not solve the puzzle")
    n = puzzle.size
    cands = list(puzzle.candidates)
    givens = puzzle.givens.values
    base = _rules_without_candidates(puzzle)
    red: list[int] = []
    unknown: list[int] = []
    for cell, digits in enumerate(puzzle.candidates):
        seen = {givens[p] for p in puzzle.rules.peers[cell]}
        for d in range(1, n + 1):
            if d in digits:
                continue
            if d in seen:
                red.append(n * cell + d - 1)
                continue
            cands[cell] = frozenset((d,))
            status = b.solve(Puzzle.from_candidates(cands, rules=base), budget=budget).status
            cands[cell] = digits
            if status in (SolveStatus.UNSOLVABLE, SolveStatus.CONTRADICTORY):
                red.append(n * cell + d - 1)
            elif status is SolveStatus.UNKNOWN:
                unknown.append(n * cell + d - 1)
    return red, unknown


def _rules_without_candidates(puzzle: Puzzle) -> Any:
    from ..formats.pencilmark import rules_without_candidates

    return rules_without_candidates(puzzle.rules)


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
        _backend(config.backend)[0].engine_name(),
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
        find = redundant_eliminations if puzzle.is_pencilmark else redundant_clues
        red, unknown = find(puzzle, result.solution, backend=main, budget=config.budget)
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
        from ..canon import canonical_field

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
    name = backend.engine_name()
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
    backend: str | Backend = DEFAULT_BACKEND,
    cross_check: Sequence[str] = (),
    minimal: bool = False,
    budget: Budget | None = None,
) -> VerifyResult:
    """Verify one puzzle (see :class:`VerifyResult`).

    Raises:
        BackendNotFoundError, BackendUnavailableError: for an unknown or missing backend.
    """
    from ..formats import Record

    name = backend if isinstance(backend, str) else backend.name
    config = VerifyConfig(
        name, tuple(cross_check), minimal, DEFAULT_BUDGET if budget is None else budget
    )
    rec = Record("<puzzle>", 1, puzzle.givens.to_line(), puzzle)
    return verify_chunk([rec], config, None if isinstance(backend, str) else backend)[0]


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
