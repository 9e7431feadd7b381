"""Making one puzzle from its seed: a random full grid, the removal pass in random order,
the minimality tests, the level loop (grade, retry from a derived seed) and the
per-puzzle deadline (see :mod:`sudoku_model.generate` for the method).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..errors import SearchInterrupted
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from ..solving import DEFAULT_BACKEND, Backend, Budget, VerdictKind
from .engine import GenerationEngine, engine_for
from .killer import generate_killer_one
from .lines import generate_drawn_one
from .shuffle import _shuffle
from .spec import (
    DEFAULT_MAX_TRIES,
    LEVEL_NAMES,
    GeneratedPuzzle,
    GenerationError,
    GenerationSpec,
    ImpossibleRequestError,
    _deadline_error,
    level_seed,
)
from .symmetry import symmetry_orbits


def random_full_grid(
    rules: RuleSet,
    *,
    seed: int,
    backend: Backend | str = DEFAULT_BACKEND,
    start: Grid | None = None,
) -> Grid | None:
    """A random complete grid of ``rules`` (extending ``start`` when given) from ``seed``,
    or None when ``start`` has no solution. Not uniform: see :mod:`sudoku_model.generate`.

    Raises:
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot load.
    """
    engine = engine_for(backend)
    rng = random.Random(seed)
    for _ in range(DEFAULT_MAX_TRIES["plain"]):
        grid = engine.random_full_grid(rules, rng, start=start)
        if grid is not None:
            return grid
    return None


def _first_necessary_failure(
    engine: GenerationEngine,
    rules: RuleSet,
    values: bytearray | list[int],
    groups: Sequence[Sequence[int]],
    solution: Grid,
) -> bool | None:
    """Minimality over ``groups``: False when some group can be removed keeping the puzzle
    unique, None when a budget stopped a test, True when every group is necessary."""
    if not groups:
        return True
    return engine.all_necessary(rules, solution, values, groups)


def generate_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int = 0
) -> GeneratedPuzzle:
    """Make one puzzle from ``seed`` (see :mod:`sudoku_model.generate` for the method), within
    ``spec.max_seconds`` of wall-clock time when it is set.

    With ``spec.level``, puzzles are made from :func:`level_seed` (``seed``, t) for
    t = 0, 1, ... and graded until one has a wanted level.

    Raises:
        GenerationError: when no puzzle met the request within ``spec.tries`` full grids
            (the message says what was tried), or none had a wanted level within
            ``spec.graded_tries`` (the message counts the levels reached), or the
            deadline passed before a full grid (or a killer puzzle) was made.
        ImpossibleRequestError: when the starting grid has no solution.
    """
    if spec.max_seconds is None:
        return _generate_one(spec, engine, seed=seed, index=index)
    with engine.deadline(spec.max_seconds):
        try:
            return _generate_one(spec, engine, seed=seed, index=index)
        except SearchInterrupted as exc:
            engine._cut(exc)
            raise _deadline_error(spec) from None


def _generate_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int
) -> GeneratedPuzzle:
    if spec.level is not None:
        return _generate_at_level(spec, engine, seed=seed, index=index)
    if spec.killer is not None:
        return generate_killer_one(spec, engine, seed=seed, index=index)
    if spec.drawn is not None:
        return generate_drawn_one(spec, engine, seed=seed, index=index)
    began = time.perf_counter()
    rules = spec.rules
    shape = rules.shape
    rng = random.Random(seed)
    fixed = frozenset(spec.start.filled_cells()) if spec.start is not None else frozenset()
    orbits = symmetry_orbits(shape, spec.symmetry)
    removable = [o for o in orbits if not fixed.intersection(o)] if fixed else list(orbits)
    best_seen: int | None = None
    no_grid = 0
    for attempt in range(1, spec.tries + 1):
        solution = engine.random_full_grid(rules, rng, start=spec.start)
        if engine.expired:
            raise _deadline_error(spec)
        if solution is None:
            no_grid += 1
            if spec.start is not None and no_grid >= 3:
                raise ImpossibleRequestError(
                    "the starting grid has no solution (or none was found within the budget)"
                )
            continue
        if spec.pattern is not None:
            values = bytearray(v if c in spec.pattern else 0 for c, v in enumerate(solution.values))
            emptied = [c for c in range(shape.cell_count) if c not in spec.pattern]
            if engine.still_unique(rules, values, emptied, solution) is not True:
                continue
            strict = _first_necessary_failure(
                engine, rules, values, [(c,) for c in sorted(spec.pattern)], solution
            )
            return _result(
                spec, engine, index, seed, values, solution, strict, strict, attempt, began
            )
        order = removable[:]
        _shuffle(order, rng)
        done = engine.remove_groups(rules, solution, solution.values, order, target=spec.clues)
        values = bytearray(done.givens)
        clues = done.clues
        answers = done.answers
        visited = len(answers)
        unvisited = order[visited:]
        unknown = None in answers
        if spec.clues is not None and clues > spec.clues:
            best_seen = clues if best_seen is None else min(best_seen, clues)
            continue
        # Group-minimal: every visited orbit was necessary; test the unvisited ones.
        group_minimal: bool | None = None if unknown else True
        necessary_unvisited = False
        if unvisited:
            tested = _first_necessary_failure(engine, rules, values, unvisited, solution)
            if tested is False:
                group_minimal = False
            elif tested is None:
                group_minimal = None
            else:
                necessary_unvisited = True
        if group_minimal is False:
            minimal: bool | None = False  # a removable orbit: each of its clues can go
        elif spec.symmetry == "none" and not fixed:
            minimal = group_minimal
        else:
            # Clues shown necessary on their own need no second test.
            necessary = {o[0] for o, a in zip(order, answers) if a is False and len(o) == 1}
            if necessary_unvisited:
                necessary.update(o[0] for o in unvisited if len(o) == 1)
            singles = [(c,) for c in range(shape.cell_count) if values[c] and c not in necessary]
            minimal = _first_necessary_failure(engine, rules, values, singles, solution)
            if minimal is True and group_minimal is None:
                group_minimal = True
        return _result(
            spec, engine, index, seed, values, solution, minimal, group_minimal, attempt, began
        )
    if spec.pattern is not None:
        raise GenerationError(
            f"no grid out of {spec.tries} made the pattern "
            f"({len(spec.pattern)} clues) unique; try --max-tries or "
            "another pattern"
        )
    if spec.clues is not None:
        raise GenerationError(
            f"no puzzle with at most {spec.clues} clues in {spec.tries} "
            f"tries (fewest reached: {best_seen}); try a larger --clues "
            "or --max-tries"
        )
    raise GenerationError(f"no full grid found in {spec.tries} tries (budget too small?)")


def _generate_at_level(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int
) -> GeneratedPuzzle:
    """Make and grade puzzles from the derived seeds until one has a wanted level."""
    from ..logic import grade  # loaded only when grading

    plain = replace(spec, level=None, level_tries=None)
    wanted = spec.level or ()
    seen: list[str] = []
    seconds = 0.0
    for attempt in range(spec.graded_tries):
        made = generate_one(plain, engine, seed=level_seed(seed, attempt), index=index)
        left = engine.time_left()
        graded = grade(made.puzzle, keep_steps=False, budget=None if left is None else Budget(left))
        seconds += made.seconds + graded.seconds
        if graded.verdict is VerdictKind.UNIQUE and graded.level is not None:
            level = graded.level
        elif graded.verdict is VerdictKind.UNKNOWN:
            level = "unknown"
        else:  # the generator and the grader disagree: one of them has a bug
            raise AssertionError(
                f"the grader says {graded.verdict.value} for the generated "
                f"puzzle {made.puzzle.givens.to_line()}"
            )
        seen.append(level)
        if level in wanted:
            return replace(
                made,
                seconds=seconds,
                level=level,
                score=graded.score,
                hardest=graded.hardest,
                levels_seen=tuple(seen),
            )
    reached = Counter(seen)
    counts = ", ".join(
        f"{name} {reached[name]}" for name in (*LEVEL_NAMES, "unknown") if reached[name]
    )
    wanted_text = " or ".join(wanted)
    tries = f"{len(seen)} tries" if len(seen) != 1 else "1 try"
    error = GenerationError(
        f"no puzzle of level {wanted_text} in {tries} (levels "
        f"reached: {counts}); levels are calibrated on 9x9 puzzles; try "
        "a larger --max-tries or another --level"
    )
    error.levels_seen = {name: reached[name] for name in (*LEVEL_NAMES, "unknown") if reached[name]}
    raise error


def _result(
    spec: GenerationSpec,
    engine: GenerationEngine,
    index: int,
    seed: int,
    values: bytearray,
    solution: Grid,
    minimal: bool | None,
    group_minimal: bool | None,
    tries: int,
    began: float,
) -> GeneratedPuzzle:
    puzzle = Puzzle(Grid._trusted(spec.rules.shape, tuple(values)), spec.rules)
    # The frozen dataclass's __init__ sets its 15 fields one object.__setattr__ at a time
    # (a few us, 2-4% of a minimal 9x9 puzzle); the instance dict takes the same values in
    # one call, and the fields left out read their class defaults. The same object as the
    # constructor's (equal, same hash and pickle: a test compares).
    made: GeneratedPuzzle = object.__new__(GeneratedPuzzle)
    made.__dict__.update(
        index=index,
        seed=seed,
        puzzle=puzzle,
        solution=solution,
        minimal=minimal,
        group_minimal=group_minimal,
        tries=tries,
        seconds=time.perf_counter() - began,
        backend=engine.name,
        symmetry=spec.symmetry,
    )
    return made
