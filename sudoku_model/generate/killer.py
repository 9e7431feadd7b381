"""Killer puzzles (``sudoku generate --variant killer``): cages drawn on a full grid, split
until the cages alone give a unique puzzle, merged while it stays unique, then the
givens left over removed (see :func:`generate_killer_one`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..geometry import Shape
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from ..solving import VerdictKind
from .engine import GenerationEngine
from .spec import GeneratedPuzzle, GenerationError, GenerationSpec, _deadline_error


def _cage_neighbours(shape: Shape, cell: int) -> list[int]:
    n = shape.size
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def _draw_cages(
    shape: Shape, solution: Sequence[int], rng: random.Random, max_cage: int
) -> list[list[int]]:
    """Cover the grid with connected cages of distinct digits of ``solution``: each
    grows from a random free cell, one random free neighbour at a time, toward a size
    drawn from 2..max_cage (a cell boxed in by other cages stays a cage of one)."""
    owner = [-1] * shape.cell_count
    order = list(range(shape.cell_count))
    rng.shuffle(order)
    cages: list[list[int]] = []
    for seed_cell in order:
        if owner[seed_cell] >= 0:
            continue
        target = rng.randint(2, max_cage)
        cage = [seed_cell]
        owner[seed_cell] = len(cages)
        digits = {solution[seed_cell]}
        while len(cage) < target:
            options = sorted(
                {
                    x
                    for c in cage
                    for x in _cage_neighbours(shape, c)
                    if owner[x] < 0 and solution[x] not in digits
                }
            )
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            owner[pick] = len(cages)
            digits.add(solution[pick])
        cages.append(cage)
    return cages


def _killer_rules(
    base: RuleSet, cages: Sequence[Sequence[int]], solution: Sequence[int]
) -> RuleSet:
    from ..rules import killer_rule

    shape = base.shape
    totals = [(tuple(sorted(c)), sum(solution[x] for x in c)) for c in cages]
    return base.with_rules([killer_rule(shape, sorted(totals))])


def _split_cage(shape: Shape, cage: list[int], at: int) -> list[list[int]]:
    """Split ``cage`` into connected pieces: the half of it nearest to ``at`` (breadth
    first), then the connected parts of the rest."""
    members = set(cage)
    seen = [at]
    for c in seen:
        seen.extend(x for x in _cage_neighbours(shape, c) if x in members and x not in seen)
    near = seen[: (len(cage) + 1) // 2]
    rest = members - set(near)
    pieces = [near]
    while rest:
        part = [min(rest)]
        rest.discard(part[0])
        for c in part:
            more = [x for x in _cage_neighbours(shape, c) if x in rest]
            rest.difference_update(more)
            part.extend(more)
        pieces.append(part)
    return pieces


#: Search nodes (native, logic) or conflicts (SAT) one uniqueness check of a cage layout
#: may take before it counts as "not known unique". Layouts near the edge of uniqueness
#: can cost a backtracker 10^5 nodes and more (seconds); a merge that needs that much is
#: not made, so generation stays fast (native 9x9: mostly under 20 ms a check) and the
#: puzzles stay within reach of a solver without learning.
KILLER_CHECK_NODES = 20_000


def _killer_verdict(
    engine: GenerationEngine, base: RuleSet, cages: list[list[int]], solution: Grid
) -> Any:
    rules = _killer_rules(base, cages, solution.values)
    puzzle = Puzzle.empty(base.shape, rules)
    limit = engine.budget_now()
    budget = replace(
        limit,
        nodes=min(limit.nodes or KILLER_CHECK_NODES, KILLER_CHECK_NODES),
        conflicts=min(limit.conflicts or KILLER_CHECK_NODES, KILLER_CHECK_NODES),
    )
    return engine.backend.check_unique(puzzle, solution=solution, budget=budget)


def generate_killer_one(
    spec: GenerationSpec, engine: GenerationEngine, *, seed: int, index: int = 0
) -> GeneratedPuzzle:
    """Make one unique killer puzzle from ``seed``.

    1. A random full grid S of ``spec.rules`` (the base rules: classic or variants).
    2. Cages drawn on S (:func:`_draw_cages`), totals from S.
    3. **Split** while not unique: a cell where a second solution differs from S is taken
       from its cage (the cage is split in two connected halves around it), until the
       cages alone give a unique puzzle (cages of one cell always do in the end).
    4. **Merge** while unique: adjacent cages (together at most ``max_cage`` cells, with
       distinct digits) are joined, in random order, when the puzzle stays unique (as
       shown within :data:`KILLER_CHECK_NODES`).
    5. **Givens**: cages of one cell left over become givens, then givens are removed in
       random order while the puzzle stays unique (a removed given leaves its cell without
       a cage); ``minimal`` says whether every given left is necessary.

    Reports the cage count (``cages``) and the givens (``clues``).

    Raises:
        GenerationError: when no full grid was found within ``spec.tries``.
    """
    options = spec.killer
    assert options is not None
    began = time.perf_counter()
    base = spec.rules
    shape = base.shape
    largest = options.largest(shape.size)
    rng = random.Random(seed)
    for attempt in range(1, spec.tries + 1):
        solution = engine.random_full_grid(base, rng)
        if engine.expired:
            raise _deadline_error(spec)
        if solution is None:
            continue
        s = solution.values
        cages = _draw_cages(shape, s, rng, largest)
        # 3. split while not unique
        for _ in range(shape.cell_count):
            verdict = _killer_verdict(engine, base, cages, solution)
            if verdict.kind is VerdictKind.UNIQUE:
                break
            splittable = [k for k, cage in enumerate(cages) if len(cage) > 1]
            if not splittable:
                break
            other = next((w for w in verdict.witnesses if w != solution), None)
            if other is not None:
                owner = {c: k for k, cage in enumerate(cages) for c in cage}
                differ = [c for c in range(shape.cell_count) if other.values[c] != s[c]]
                choices = [c for c in differ if len(cages[owner[c]]) > 1]
            else:  # budget spent: split somewhere
                choices = [c for k in splittable for c in cages[k]]
                owner = {c: k for k, cage in enumerate(cages) for c in cage}
            if not choices:
                break
            at = rng.choice(choices)
            k = owner[at]
            cages[k : k + 1] = _split_cage(shape, cages[k], at)
        else:
            continue
        if _killer_verdict(engine, base, cages, solution).kind is not VerdictKind.UNIQUE:
            continue  # budget spent on every split: try another grid
        # 4. merge while unique
        pairs = sorted(
            {
                (min(a, b), max(a, b))
                for a in range(shape.cell_count)
                for b in _cage_neighbours(shape, a)
            }
        )
        rng.shuffle(pairs)
        for a, b in pairs:
            owner = {c: k for k, cage in enumerate(cages) for c in cage}
            ka, kb = owner[a], owner[b]
            if ka == kb or len(cages[ka]) + len(cages[kb]) > largest:
                continue
            if {s[c] for c in cages[ka]} & {s[c] for c in cages[kb]}:
                continue
            trial = [cage for k, cage in enumerate(cages) if k not in (ka, kb)]
            trial.append(cages[ka] + cages[kb])
            if _killer_verdict(engine, base, trial, solution).kind is VerdictKind.UNIQUE:
                cages = trial
        # 5. single cells become givens, removed while unique
        values = bytearray(shape.cell_count)
        for cage in cages:
            if len(cage) == 1:
                values[cage[0]] = s[cage[0]]
        cages = [cage for cage in cages if len(cage) > 1]
        rules = _killer_rules(base, cages, s)
        givens = [c for c in range(shape.cell_count) if values[c]]
        rng.shuffle(givens)
        done = engine.remove_groups(rules, solution, values, [(c,) for c in givens])
        minimal: bool | None = None if None in done.answers else True
        puzzle = Puzzle(Grid._trusted(shape, tuple(done.givens)), rules)
        return GeneratedPuzzle(
            index,
            seed,
            puzzle,
            solution,
            minimal,
            minimal,
            attempt,
            time.perf_counter() - began,
            engine.name,
            cages=len(cages),
        )
    raise GenerationError(f"no killer puzzle made in {spec.tries} tries (budget too small?)")
