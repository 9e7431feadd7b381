"""Canonical forms (minlex) of puzzles and grids: isomorph detection and deduplication.

Two puzzles are *equivalent* when one becomes the other by a geometric transformation
(transposition when the boxes are square; a permutation of the bands, of the rows within
each band, of the stacks, of the columns within each stack) followed by a relabelling of
the digits. The canonical form (*minlex*) of a puzzle is the lexicographically smallest
row-major string over the whole geometric group, blank = 0 (smaller than every digit), the
digits of each candidate relabelled 1, 2, 3 ... in order of first appearance. Two puzzles
are equivalent exactly when their canonical forms are equal.

>>> from sudoku_model.grid import Grid
>>> g = Grid.parse("1..." "...." "...." "...2")
>>> c = canonical(g)
>>> c.grid.to_line(), c.automorphisms
('.......1.....2..', 4)
>>> c.transform.apply(g) == c.grid
True

For 9x9 the compiled minlex (``sudoku_model._minlex``, built from ``sudoku_model/minlex.c``)
is an optional accelerator, imported lazily. The pure-Python search below is exact for
every shape and is the reference the C code is tested against; without the extension
everything still works, slower.

Only classic rules are canonicalised: a variant (diagonals, windoku, anti-knight, jigsaw...)
has a smaller symmetry group of its own, so :class:`CanonVariantError` is raised rather than
answer with the classic group.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from .errors import SudokuError
from .geometry import Shape
from .grid import Grid
from .puzzle import Puzzle
from .solving import DEFAULT_BUDGET, Budget

__all__ = [
    "Canonical",
    "CanonBudgetError",
    "CanonVariantError",
    "Transform",
    "canonical",
    "canonical_field",
    "canonical_key",
    "equivalence",
    "group_order",
    "native_available",
]


class CanonVariantError(SudokuError, ValueError):
    """The puzzle has variant rules, whose symmetry group is not the classic one."""


class CanonBudgetError(SudokuError):
    """The budget ran out before the canonical form was found (the exact Python search on a
    large, sparse grid: a 16x16 with one clue has a huge automorphism group to walk)."""


@dataclass(frozen=True)
class Transform:
    """A geometric transformation plus a digit relabelling.

    Applied to a grid ``g``: transpose it when ``transpose`` is set, then output cell
    ``(i, j)`` takes the value at ``(rows[i], cols[j])``, relabelled by ``digits`` (a
    permutation of ``0..n`` with ``digits[0] == 0``).
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]

    @classmethod
    def identity(cls, shape: Shape) -> Transform:
        n = shape.size
        return cls(False, tuple(range(n)), tuple(range(n)), tuple(range(n + 1)))

    def _source(self, i: int, j: int) -> tuple[int, int]:
        """The input cell (row, col) that output cell (i, j) reads."""
        if self.transpose:
            return self.cols[j], self.rows[i]
        return self.rows[i], self.cols[j]

    def is_valid_for(self, shape: Shape) -> bool:
        """True when this is an element of ``shape``'s group (bands, stacks respected)."""
        n = shape.size
        if sorted(self.rows) != list(range(n)) or sorted(self.cols) != list(range(n)):
            return False
        if sorted(self.digits) != list(range(n + 1)) or self.digits[0] != 0:
            return False
        if self.transpose and shape.box_rows != shape.box_cols:
            return False
        return _respects(self.rows, shape.box_rows) and _respects(self.cols, shape.box_cols)

    def apply(self, grid: Grid) -> Grid:
        """The transformed grid.

        Raises:
            ValueError: when the transformation is not one of the grid's shape.
        """
        shape = grid.shape
        if not self.is_valid_for(shape):
            raise ValueError(f"{self!r} is not a transformation of a {shape.name} grid")
        n = shape.size
        v = grid.values
        d = self.digits
        out = []
        for i in range(n):
            for j in range(n):
                r, c = self._source(i, j)
                out.append(d[v[r * n + c]])
        return Grid._trusted(shape, tuple(out))

    def inverse(self) -> Transform:
        """The transformation that undoes this one."""
        n = len(self.rows)
        rinv = [0] * n
        cinv = [0] * n
        for i, r in enumerate(self.rows):
            rinv[r] = i
        for j, c in enumerate(self.cols):
            cinv[c] = j
        dinv = [0] * len(self.digits)
        for a, b in enumerate(self.digits):
            dinv[b] = a
        if self.transpose:
            return Transform(True, tuple(cinv), tuple(rinv), tuple(dinv))
        return Transform(False, tuple(rinv), tuple(cinv), tuple(dinv))

    def then(self, other: Transform) -> Transform:
        """The transformation that applies this one, then ``other``."""
        n = len(self.rows)

        def source(i: int, j: int) -> tuple[int, int]:
            a, b = other._source(i, j)
            return self._source(a, b)

        t = self.transpose != other.transpose
        if t:
            rows = tuple(source(i, 0)[1] for i in range(n))
            cols = tuple(source(0, j)[0] for j in range(n))
        else:
            rows = tuple(source(i, 0)[0] for i in range(n))
            cols = tuple(source(0, j)[1] for j in range(n))
        digits = tuple(other.digits[x] for x in self.digits)
        return Transform(t, rows, cols, digits)

    def describe(self) -> str:
        """One line: ``transpose=no rows=012345678 cols=... digits=1->3,...``."""

        def seq(xs: tuple[int, ...]) -> str:
            return ",".join(str(x) for x in xs) if len(xs) > 10 else "".join(map(str, xs))

        maps = ",".join(f"{a}->{b}" for a, b in enumerate(self.digits) if a)
        return (
            f"transpose={'yes' if self.transpose else 'no'} rows={seq(self.rows)} "
            f"cols={seq(self.cols)} digits={maps}"
        )


def _respects(perm: tuple[int, ...], block: int) -> bool:
    """True when ``perm`` moves whole blocks of ``block`` consecutive indices."""
    for start in range(0, len(perm), block):
        chunk = perm[start : start + block]
        first = chunk[0] // block
        if any(x // block != first for x in chunk):
            return False
    return True


@dataclass(frozen=True)
class Canonical:
    """The canonical form of a grid, how many transformations reach it, and one of them.

    ``automorphisms`` counts the geometric transformations that map the input to itself up
    to a relabelling of digits (1 for most puzzles); ``transform`` maps the input onto
    ``grid``.
    """

    grid: Grid
    automorphisms: int
    transform: Transform

    @property
    def line(self) -> str:
        return self.grid.to_line()


def group_order(shape: Shape) -> int:
    """The number of geometric transformations of ``shape`` (3,359,232 for 9x9).

    >>> group_order(Shape(3, 3)), group_order(Shape(2, 3))
    (3359232, 3456)
    """
    from math import factorial

    bands = shape.size // shape.box_rows
    stacks = shape.size // shape.box_cols
    rows = factorial(bands) * factorial(shape.box_rows) ** bands
    cols = factorial(stacks) * factorial(shape.box_cols) ** stacks
    return rows * cols * (2 if shape.box_rows == shape.box_cols else 1)


def _grid_of(item: Grid | Puzzle) -> Grid:
    if isinstance(item, Puzzle):
        if not item.rules.is_classic:
            extra = "+".join(v for v in item.rules.variants if v != "classic") or "non-classic"
            raise CanonVariantError(
                f"canonical forms are defined for classic rules only; this puzzle has the "
                f"{extra} variant, whose symmetry group is smaller"
            )
        return item.givens
    if isinstance(item, Grid):
        return item
    raise TypeError(f"expected a Grid or a Puzzle, got {type(item).__name__}")


_native: Any = None


def native_available() -> bool:
    """True when the compiled 9x9 minlex (``sudoku_model._minlex``) loads."""
    global _native
    if _native is None:
        try:
            from . import _minlex

            _native = _minlex
        except ImportError:
            _native = False
    return bool(_native)


def canonical(
    item: Grid | Puzzle, *, method: str = "auto", budget: Budget | None = None
) -> Canonical:
    """The canonical form of a grid or of a classic puzzle's givens.

    Args:
        item: a grid (puzzle givens or a full solution) or a :class:`Puzzle`.
        method: ``auto`` (C for 9x9 when compiled, else Python), ``python`` (the reference
            search) or ``native`` (C only; 9x9 only).
        budget: for the Python search (``seconds``, and ``nodes`` of its row-by-row
            search); 60 s when None. The C search for 9x9 is bounded and takes none.

    Raises:
        CanonVariantError: a puzzle with variant rules.
        CanonBudgetError: the Python search spent the budget first.
        ValueError: an unknown method, or ``native`` asked for where it does not apply.
    """
    grid = _grid_of(item)
    shape = grid.shape
    if method not in ("auto", "python", "native"):
        raise ValueError(f"unknown method {method!r}: auto, python or native")
    use_native = shape == Shape(3, 3) and method != "python" and native_available()
    if method == "native" and not use_native:
        raise ValueError("the native minlex handles 9x9 only and needs the compiled extension")
    if use_native:
        return _canonical_native(grid)
    return _canonical_python(grid, DEFAULT_BUDGET if budget is None else budget)


def canonical_key(item: Grid | Puzzle, *, budget: Budget | None = None) -> str:
    """The canonical form as a line (``.`` for blanks): equal keys = equivalent puzzles.
    A pencilmark puzzle's is its canonical candidates line
    (:func:`sudoku_model.canon_candidates.canonical_candidates`).

    Raises:
        CanonVariantError: a puzzle with variant rules.
        CanonBudgetError: as :func:`canonical`.
    """
    if isinstance(item, Puzzle) and item.is_pencilmark:
        from .canon_candidates import canonical_candidates

        return canonical_candidates(item, budget=budget)[0]
    return canonical(item, budget=budget).grid.to_line()


def canonical_field(puzzle: Puzzle, *, budget: Budget | None = None) -> str | None:
    """The value of a ``canonical`` record field: the canonical line, or None for a puzzle
    whose rules have no canonical form here (variants) or whose search spent the budget.
    Never raises for a valid puzzle."""
    try:
        return canonical_key(puzzle, budget=budget)
    except (CanonVariantError, CanonBudgetError):
        return None


def equivalence(
    a: Grid | Puzzle, b: Grid | Puzzle, *, budget: Budget | None = None
) -> Transform | None:
    """A transformation mapping ``a`` onto ``b``, or None when they are not equivalent.

    Raises:
        CanonVariantError: a puzzle with variant rules.
        CanonBudgetError: as :func:`canonical` (for each of the two).
    """
    ga, gb = _grid_of(a), _grid_of(b)
    if ga.shape != gb.shape:
        return None
    ca, cb = canonical(ga, budget=budget), canonical(gb, budget=budget)
    if ca.grid != cb.grid:
        return None
    return ca.transform.then(cb.transform.inverse())


# -- the native path ----------------------------------------------------------------------
def _canonical_native(grid: Grid) -> Canonical:
    out, count, transpose, rows, cols, digits = _native.minlex9(bytes(grid.values))
    return Canonical(
        Grid._trusted(grid.shape, tuple(out)),
        count,
        Transform(bool(transpose), tuple(rows), tuple(cols), tuple(digits)),
    )


# -- the reference search -----------------------------------------------------------------
def _canonical_python(grid: Grid, budget: Budget) -> Canonical:
    best, count, transform = _search(grid.values, grid.shape.box_rows, grid.shape.box_cols, budget)
    return Canonical(Grid._trusted(grid.shape, tuple(best)), count, transform)


#: Search nodes between two looks at the clock.
_CLOCK_EVERY = 256


def _search(
    values: tuple[int, ...], box_rows: int, box_cols: int, budget: Budget
) -> tuple[list[int], int, Transform]:
    """Branch and bound over the whole group, row by row.

    The first output row of the minimum is found from clue counts alone (its digits are
    always 1, 2, 3 ... in order, so only where the blanks fall matters: stacks with fewer
    clues first, blanks first within a stack). Only the (transposition, first row, column
    order) triples that produce that row are expanded; the other rows are then chosen one at
    a time, band structure respected, a branch cut as soon as its prefix exceeds the best.
    Every transformation whose string equals the minimum reaches a leaf, so the leaves
    counted are the automorphisms.
    """
    n = box_rows * box_cols
    base = [list(values[r * n : (r + 1) * n]) for r in range(n)]
    grids = [base]
    if box_rows == box_cols:
        grids.append([[base[r][c] for r in range(n)] for c in range(n)])
    stacks = [list(range(s * box_cols, (s + 1) * box_cols)) for s in range(n // box_cols)]
    bands = [list(range(b * box_rows, (b + 1) * box_rows)) for b in range(n // box_rows)]

    def first_row_pattern(row: list[int]) -> tuple[int, ...]:
        counts = sorted(sum(1 for c in st if row[c]) for st in stacks)
        return tuple(bit for k in counts for bit in [0] * (box_cols - k) + [1] * k)

    # Where a row repeats a digit (a clashing puzzle), its relabelled string depends on
    # more than where the blanks fall: every first row and column order is tried then.
    distinct = all(
        len(nz) == len(set(nz)) for g in grids for row in g for nz in [[v for v in row if v]]
    )
    patterns = {(t, r): first_row_pattern(g[r]) for t, g in enumerate(grids) for r in range(n)}
    top = min(patterns.values()) if distinct else ()

    inf = n + 1
    best = [inf] * (n * n)
    state: dict[str, Any] = {"count": 0, "witness": None, "nodes": 0}
    deadline = budget.deadline(time.perf_counter())
    node_limit = budget.nodes

    def column_orders(row: list[int]) -> Iterator[list[int]]:
        per_stack = []
        for st in stacks:
            blanks = [c for c in st if not row[c]] if distinct else []
            clues = [c for c in st if row[c]] if distinct else st
            inside = [list(z) + list(k) for z in permutations(blanks) for k in permutations(clues)]
            per_stack.append((len(clues), inside))
        for order in permutations(range(len(stacks))):
            counts = [per_stack[s][0] for s in order]
            if distinct and any(counts[i] > counts[i + 1] for i in range(len(counts) - 1)):
                continue
            for parts in product(*(per_stack[s][1] for s in order)):
                yield [c for part in parts for c in part]

    def dfs(
        g: list[list[int]],
        t: int,
        cols: list[int],
        p: int,
        rows: list[int],
        band_rows: list[int],
        used_bands: set[int],
        labels: list[int],
        nxt: int,
    ) -> None:
        nodes = state["nodes"] = state["nodes"] + 1
        if (node_limit is not None and nodes > node_limit) or (
            deadline is not None and nodes % _CLOCK_EVERY == 0 and time.perf_counter() > deadline
        ):
            raise CanonBudgetError(f"no canonical form within the budget ({nodes:,} nodes)")
        if p == n:
            if state["count"] == 0:
                state["witness"] = (t, tuple(rows), tuple(cols), tuple(labels))
            state["count"] += 1
            return
        if p % box_rows == 0:
            choices = [(r, b) for b in range(len(bands)) if b not in used_bands for r in bands[b]]
        else:
            choices = [(r, -1) for r in band_rows if r not in rows]
        off = p * n
        for r, b in choices:
            row = g[r]
            lab = labels[:]
            k = nxt
            cmp = 0
            seg = [0] * n
            for j, c in enumerate(cols):
                v = row[c]
                if v:
                    x = lab[v]
                    if not x:
                        k += 1
                        lab[v] = x = k
                else:
                    x = 0
                seg[j] = x
                if cmp == 0:
                    y = best[off + j]
                    if x < y:
                        cmp = -1
                    elif x > y:
                        cmp = 1
                        break
            if cmp > 0:
                continue
            if cmp < 0:
                best[off : off + n] = seg
                best[off + n :] = [inf] * (n * n - off - n)
                state["count"] = 0
            if b >= 0:
                dfs(g, t, cols, p + 1, rows + [r], bands[b], used_bands | {b}, lab, k)
            else:
                dfs(g, t, cols, p + 1, rows + [r], band_rows, used_bands, lab, k)

    for (t, r0), pat in patterns.items():
        if distinct and pat != top:
            continue
        g = grids[t]
        row0 = g[r0]
        band0 = r0 // box_rows
        for cols in column_orders(row0):
            labels = [0] * (n + 1)
            k = 0
            seg = [0] * n
            for j, c in enumerate(cols):
                v = row0[c]
                if v:
                    if not labels[v]:
                        k += 1
                        labels[v] = k
                    seg[j] = labels[v]
            if seg > best[:n]:
                continue
            if seg < best[:n]:
                best[:n] = seg
                best[n:] = [inf] * (n * n - n)
                state["count"] = 0
            dfs(g, t, cols, 1, [r0], bands[band0], {band0}, labels, k)

    t, rows, cols, labels = state["witness"]
    digits = list(labels)
    # Digits absent from the input take the unused labels in increasing order, so the
    # relabelling is a permutation (it matters for mapping a solution back).
    free = iter(sorted(set(range(1, n + 1)) - set(digits[1:])))
    for d in range(1, n + 1):
        if not digits[d]:
            digits[d] = next(free)
    digits[0] = 0
    return best, state["count"], Transform(bool(t), rows, cols, tuple(digits))
