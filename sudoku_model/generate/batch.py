"""Batches: puzzle i of a batch made from its own seed, in a worker thread or in worker
processes, yielded in index order (the same output for any number of jobs).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial

from ..solving import DEFAULT_BACKEND, Backend, Budget
from .engine import GenerationEngine, engine_for
from .one_puzzle import generate_one
from .spec import GeneratedPuzzle, GenerationSpec, parse_levels, puzzle_seed


@dataclass
class _WorkerState:
    spec: GenerationSpec | None = None
    engine: GenerationEngine | None = None
    seed: int = 0


_WORKER = _WorkerState()


def _worker_init(spec: GenerationSpec, backend_name: str, budget: Budget | None, seed: int) -> None:
    _WORKER.spec = spec
    _WORKER.engine = engine_for(backend_name, budget=budget)
    _WORKER.seed = seed


def _worker_make(indices: list[int]) -> list[GeneratedPuzzle]:
    assert _WORKER.spec is not None and _WORKER.engine is not None
    return _make(_WORKER.spec, _WORKER.engine, _WORKER.seed, indices)


def _make(
    spec: GenerationSpec, engine: GenerationEngine, seed: int, indices: list[int]
) -> list[GeneratedPuzzle]:
    return [generate_one(spec, engine, seed=puzzle_seed(seed, i), index=i) for i in indices]


def generate(
    spec: GenerationSpec,
    *,
    count: int = 1,
    seed: int | None = None,
    backend: Backend | str = DEFAULT_BACKEND,
    jobs: int = 1,
    budget: Budget | None = None,
    level: str | Iterable[str] | None = None,
    level_tries: int | None = None,
) -> Iterator[GeneratedPuzzle]:
    """Make ``count`` puzzles, yielded in index order as they are ready.

    Puzzle i uses the seed :func:`puzzle_seed` (seed, i), so the output is the same for
    any ``jobs``. ``seed=None`` draws one from the operating system. With ``jobs`` > 1 the
    puzzles are made in that many worker processes (``backend`` must then be a name).
    ``budget`` limits each solver call; a call that runs out keeps its clue (the puzzle
    stays unique; its minimality is reported unknown). ``level`` and ``level_tries``, when
    given, replace the spec's (see :class:`GenerationSpec`): only puzzles graded at one of
    those levels are kept, each carrying its level and score.

    >>> from sudoku_model import RuleSet, Shape
    >>> spec = GenerationSpec(RuleSet.classic(Shape(2, 2)))
    >>> [p.puzzle.is_classic for p in generate(spec, count=2, seed=7)]  # doctest: +SKIP
    [True, True]

    Raises:
        GenerationError: when a puzzle could not be made within its tries.
        ValueError: for count < 0 or jobs < 1, or jobs > 1 with a backend object, or an
            unknown level.
    """
    if level is not None or level_tries is not None:
        spec = replace(
            spec,
            level=spec.level if level is None else parse_levels(level),
            level_tries=spec.level_tries if level_tries is None else level_tries,
        )
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    from ..executor import chunks, executor_for

    # Small chunks keep the order-preserving stream flowing and the workers balanced.
    size = max(1, min(64, count // (jobs * 8)))
    if jobs == 1 or count <= 1:
        # One puzzle at a time in a worker thread (the main thread stays free to notice a
        # signal while a search runs): the same stream as with processes.
        work: Callable[[list[int]], list[GeneratedPuzzle]] = partial(
            _make, spec, engine_for(backend, budget=budget), seed
        )
        executor = executor_for()
        on_stop = [backend.interrupt] if isinstance(backend, Backend) else []
    else:
        if not isinstance(backend, str):
            raise ValueError("with jobs > 1 pass the backend by name (each worker loads its own)")
        # The removal loop is Python work (threads would queue on the GIL): processes.
        executor = executor_for(
            jobs=jobs,
            python_work=True,
            initializer=_worker_init,
            initargs=(spec, backend, budget, seed),
        )
        work, on_stop = _worker_make, []
    for _, made in executor.map(work, chunks(range(count), size, first=1), on_stop=on_stop):
        yield from made
