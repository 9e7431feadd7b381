"""Canonical forms (minlex) of pencilmark puzzles: the smallest candidates line over the
classic symmetry group.

A pencilmark puzzle is its candidate grid: per cell, the set of digits still allowed. Its
canonical form is the lexicographically smallest pencilmark line (``.`` before a digit)
over the same group as :mod:`sudoku_model.canon` (transposition for square boxes, band and
row, stack and column permutations) and every relabelling of the digits. Two pencilmark
puzzles are equivalent exactly when their canonical lines are equal.

The search goes row by row. For one placement of the rows and columns the best
relabelling follows without search: the digits form an ordered partition, refined cell
by cell (each class splits into the digits not in the cell's set, then those in it),
which is the smallest string that placement allows. At each output row every tied
placement is kept, so the search is exact; it is pure Python (the compiled minlex of
:mod:`sudoku_model.canon` knows givens, not candidate sets), a fraction of a second for
typical 9x9 puzzles, longer for very symmetric ones (bounded by the budget).

>>> from sudoku_model.puzzle import Puzzle
>>> a = Puzzle.from_candidates([{1, 2}, {3}, {4}, {1, 2}] + [range(1, 5)] * 12)
>>> b = Puzzle.from_candidates([{4}, {1, 3}, {2}, {1, 3}] + [range(1, 5)] * 12)
>>> canonical_candidates(a)[0] == canonical_candidates(b)[0]
True
"""

from __future__ import annotations

import time
from itertools import permutations, product
from math import factorial, prod

from .canon import CanonBudgetError, CanonVariantError
from .puzzle import Puzzle, rules_without_candidates
from .solving import DEFAULT_BUDGET, Budget

__all__ = ["canonical_candidates"]

#: A placement being extended: (grid of masks as rows, column order, source bands used,
#: source rows left in the current band, the digit partition as classes of bit masks).
_State = tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
]


def _orders(groups: int, size: int) -> list[tuple[int, ...]]:
    """Every order of ``groups`` groups of ``size`` consecutive lines, lines permuted
    inside each group."""
    out = []
    inner = list(permutations(range(size)))
    for outer in permutations(range(groups)):
        for choice in product(inner, repeat=groups):
            out.append(
                tuple(g * size + choice[k][i] for k, g in enumerate(outer) for i in range(size))
            )
    return out


def _refine(
    row: tuple[int, ...],
    cols: tuple[int, ...],
    partition: tuple[int, ...],
    best: tuple[int, ...] | None,
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The code of one row (per cell, the bits of its candidates in label order) and the
    refined partition (classes of digits as bit masks), or None as soon as the code is
    above ``best``."""
    code: list[int] = []
    tied = best is not None
    for k, c in enumerate(cols):
        mask = row[c]
        bits = 0
        refined: list[int] = []
        for cls in partition:
            out = cls & ~mask
            inn = cls & mask
            bits = (bits << cls.bit_count()) | ((1 << inn.bit_count()) - 1)
            if out:
                refined.append(out)
            if inn:
                refined.append(inn)
        partition = tuple(refined)
        if tied:
            assert best is not None
            if bits > best[k]:
                return None
            tied = bits == best[k]
        code.append(bits)
    return tuple(code), partition


def canonical_candidates(puzzle: Puzzle, *, budget: Budget | None = None) -> tuple[str, int]:
    """The canonical pencilmark line of a puzzle (a plain puzzle is the candidate grid of
    its givens) and its number of automorphisms (group elements, digit relabellings
    included, that leave the candidate grid unchanged).

    Raises:
        CanonVariantError: rules other than the classic ones beside the candidates.
        CanonBudgetError: the search spent the budget (``seconds``; 60 s when None).
    """
    if not rules_without_candidates(puzzle.rules).is_classic:
        raise CanonVariantError(
            "canonical forms are defined for classic rules only; this puzzle has rules "
            "beyond the classic ones and its candidates"
        )
    budget = DEFAULT_BUDGET if budget is None else budget
    deadline = time.monotonic() + (budget.seconds if budget.seconds is not None else 60.0)
    shape = puzzle.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    masks = [sum(1 << (d - 1) for d in ds) for ds in puzzle.candidates]
    grids = [tuple(tuple(masks[r * n + c] for c in range(n)) for r in range(n))]
    if br == bc:
        grids.append(tuple(tuple(masks[c * n + r] for c in range(n)) for r in range(n)))
    # columns: stacks of bc columns (br stacks); rows: bands of br rows (bc bands)
    col_orders = _orders(br, bc)
    start = ((1 << n) - 1,)
    states: list[_State] = [(g, cols, (), (), start) for g in grids for cols in col_orders]
    codes: list[tuple[int, ...]] = []
    work = 0
    for k in range(n):
        best: tuple[int, ...] | None = None
        kept: list[_State] = []
        for grid, cols, bands, left, partition in states:
            if k % br == 0:
                choices = [
                    (
                        r,
                        bands + (r // br,),
                        tuple(x for x in range(r - r % br, r - r % br + br) if x != r),
                    )
                    for r in range(n)
                    if r // br not in bands
                ]
            else:
                choices = [(r, bands, tuple(x for x in left if x != r)) for r in left]
            for r, new_bands, new_left in choices:
                found = _refine(grid[r], cols, partition, best)
                work += 1
                if work % 4096 == 0 and time.monotonic() > deadline:
                    raise CanonBudgetError(
                        "the canonical form of this candidate grid was not found within the budget"
                    )
                if found is None:
                    continue
                code, refined = found
                if best is None or code < best:
                    best, kept = code, []
                if code == best:
                    kept.append((grid, cols, new_bands, new_left, refined))
        assert best is not None
        codes.append(best)
        states = kept
    automorphisms = sum(prod(factorial(cls.bit_count()) for cls in state[4]) for state in states)
    line = []
    for code in codes:
        for bits in code:
            line.append(
                "".join(shape_symbol(d + 1) if bits >> (n - 1 - d) & 1 else "." for d in range(n))
            )
    return "".join(line), automorphisms


def shape_symbol(value: int) -> str:
    """The default alphabet's symbol of a digit (1-9, then A-Z)."""
    return "123456789ABCDEFGHIJKLMNOP"[value - 1]
