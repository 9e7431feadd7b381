"""Minimal pencilmark puzzles: clues that are candidates.

A pencilmark puzzle lists, for every cell, the digits still allowed (see
:mod:`sudoku_model.solving.candidates` for how it is held: givens for one-candidate cells,
a Domain rule "candidates" for the others). Made like the plain puzzles, top-down:

1. a random full grid S from the seed (the backend's ``random_solution``);
2. every elimination present: each cell holds S's digit alone (n*n*(n-1) eliminations);
3. the eliminations, in an order drawn from the same seed, are each undone (the candidate
   restored) when the puzzle stays unique with it, through the backend's
   ``restore_candidates`` (the native backend runs the whole pass in C). Restoring a
   candidate only adds solutions, so an elimination found necessary stays necessary: one
   pass gives a **minimal** puzzle (no elimination can be undone).

With ``eliminations=K`` the pass stops once at most K eliminations are left (the puzzle is
then unique but not known to be minimal); a grid whose minimal puzzle still needs more than
K is replaced by another, up to ``max_tries`` grids.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..formats.pencilmark import format_pencilmark_line
from ..grid import Grid
from ..puzzle import Puzzle
from ..rules import RuleSet
from ..solving import DEFAULT_BACKEND, Backend, Budget, get_backend
from ..solving.candidates import UNKNOWN, candidate_puzzle
from .spec import GenerationError, puzzle_seed

#: Grids tried per puzzle with an elimination target before giving up.
MAX_TRIES = 20


class PencilmarkGenerationError(GenerationError):
    """No grid gave a puzzle with at most the eliminations asked for."""


@dataclass(frozen=True)
class PencilmarkPuzzle:
    """A generated pencilmark puzzle: its candidate masks (bit d-1 = digit d), as a
    :class:`Puzzle`, its solution, how many eliminations it has and whether it is minimal
    (None: not known, when the pass stopped at a target or a search ran out of budget)."""

    puzzle: Puzzle
    solution: Grid
    masks: tuple[int, ...]
    eliminations: int
    minimal: bool | None
    seed: int
    index: int = 0
    tries: int = 1

    def line(self) -> str:
        """The puzzle as one line of n*n*n characters: character n*cell+d is the digit d+1
        while it is a candidate, ``.`` once eliminated (the 729-character line at 9x9).

        Raises:
            ValueError: for a grid above 9x9 (no one-character digits).
        """
        if self.solution.shape.size > 9:
            raise ValueError("candidate lines hold digits 1..9, not a grid above 9x9")
        return format_pencilmark_line(self.puzzle)

    def describe(self) -> str:
        """The annotation written after the line: eliminations and minimality."""
        word = {True: "minimal", False: "not minimal", None: "minimality unknown"}
        return f"{self.eliminations} eliminations, {word[self.minimal]}"


def generate_pencilmark(
    rules: RuleSet,
    *,
    seed: int,
    index: int = 0,
    eliminations: int | None = None,
    backend: Backend | str = DEFAULT_BACKEND,
    budget: Budget | None = None,
    max_tries: int = MAX_TRIES,
) -> PencilmarkPuzzle:
    """Make pencilmark puzzle ``index`` of the batch seeded ``seed`` (see the module
    docstring); the same arguments give the same puzzle.

    Raises:
        PencilmarkGenerationError: when no grid in ``max_tries`` gives at most
            ``eliminations`` eliminations, or no full grid is found.
        BackendNotFoundError, BackendUnavailableError: for a backend that cannot load.
        UnsupportedPuzzleError: for rules the backend lacks.
    """
    engine = get_backend(backend) if isinstance(backend, str) else backend
    own = puzzle_seed(seed, index)
    rng = random.Random(own)
    n = rules.shape.size
    tries = max_tries if eliminations is not None else 1
    for attempt in range(1, tries + 1):
        solution = engine.random_solution(rules, rng, budget=budget)
        if solution is None:
            break
        masks = [1 << (v - 1) for v in solution.values]
        order = [(c, d) for c in range(len(masks)) for d in range(1, n + 1) if d != solution[c]]
        rng.shuffle(order)
        final, answers = engine.restore_candidates(
            rules, solution, masks, order, target=eliminations, budget=budget
        )
        left = sum(n - bin(m).count("1") for m in final)
        if eliminations is not None and left > eliminations:
            continue
        complete = len(answers) == len(order) and UNKNOWN not in answers
        return PencilmarkPuzzle(
            puzzle=candidate_puzzle(rules, final),
            solution=solution,
            masks=tuple(final),
            eliminations=left,
            minimal=True if complete else None,
            seed=own,
            index=index,
            tries=attempt,
        )
    raise PencilmarkGenerationError(
        f"no pencilmark puzzle with at most {eliminations} eliminations in {tries} grids"
        if eliminations is not None
        else "no full grid found"
    )


def generate_pencilmark_batch(
    rules: RuleSet,
    count: int,
    *,
    seed: int,
    eliminations: int | None = None,
    backend: Backend | str = DEFAULT_BACKEND,
    budget: Budget | None = None,
) -> Iterator[PencilmarkPuzzle]:
    """Puzzles 0..count-1 of the batch seeded ``seed``, one after the other (see
    :func:`generate_pencilmark`, which raises what this raises)."""
    engine = get_backend(backend) if isinstance(backend, str) else backend
    for index in range(count):
        yield generate_pencilmark(
            rules,
            seed=seed,
            index=index,
            eliminations=eliminations,
            backend=engine,
            budget=budget,
        )
