"""The all-different rules and the classic variants by name: rows, columns, boxes,
diagonals, windoku windows, jigsaw regions (:class:`~.kinds.AllDifferent` units), and the
anti-knight and anti-king pairs (:class:`~.kinds.Different`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import ShapeError
from ..geometry import Shape
from .kinds import AllDifferent, Different


def rows_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("rows", shape.rows)


def columns_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("columns", shape.columns)


def boxes_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("boxes", shape.boxes)


def diagonals_rule(shape: Shape) -> AllDifferent:
    n = shape.size
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + (n - 1 - i) for i in range(n))
    return AllDifferent("diagonals", (main, anti))


def windoku_rule(shape: Shape) -> AllDifferent:
    """Extra box-sized windows one cell in from the edges, one empty line between them."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    tops = list(range(1, n - br + 1, br + 1))
    lefts = list(range(1, n - bc + 1, bc + 1))
    units = tuple(
        tuple((top + i) * n + left + j for i in range(br) for j in range(bc))
        for top in tops
        for left in lefts
    )
    if not units:
        raise ShapeError(f"windoku has no window on a {shape.name} grid")
    return AllDifferent("windoku", units)


def regions_rule(shape: Shape, labels: Sequence[int]) -> AllDifferent:
    """Jigsaw regions from one label per cell: n regions of n cells each.

    Raises:
        ShapeError: when there are not exactly n labels used n times each.
    """
    n = shape.size
    if len(labels) != shape.cell_count:
        raise ShapeError(f"regions need one label per cell ({shape.cell_count}), got {len(labels)}")
    groups: dict[int, list[int]] = {}
    for cell, label in enumerate(labels):
        groups.setdefault(label, []).append(cell)
    if len(groups) != n:
        raise ShapeError(f"a {n}x{n} jigsaw needs {n} regions, got {len(groups)}")
    for label, cells in groups.items():
        if len(cells) != n:
            raise ShapeError(f"region {label!r} has {len(cells)} cells; each needs {n}")
    ordered = sorted(groups.values(), key=lambda cells: cells[0])
    return AllDifferent("regions", tuple(tuple(c) for c in ordered))


def _offset_pairs(shape: Shape, name: str, moves: Iterable[tuple[int, int]]) -> Different:
    n = shape.size
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < n and 0 <= c2 < n:
                    a, b = r * n + c, r2 * n + c2
                    pairs.add((min(a, b), max(a, b)))
    return Different(name, tuple(sorted(pairs)))


def anti_knight_rule(shape: Shape) -> Different:
    return _offset_pairs(shape, "anti-knight", [(1, 2), (2, 1), (1, -2), (2, -1)])


def anti_king_rule(shape: Shape) -> Different:
    # Orthogonal neighbours already share a row or column: only the diagonal steps matter.
    return _offset_pairs(shape, "anti-king", [(1, 1), (1, -1)])


#: Variant names accepted by :meth:`RuleSet.build` (``jigsaw`` needs ``regions``).
VARIANTS = ("classic", "diagonal", "windoku", "jigsaw", "anti-knight", "anti-king")

_VARIANT_ALIASES = {
    "x": "diagonal",
    "diagonals": "diagonal",
    "x-sudoku": "diagonal",
    "window": "windoku",
    "hyper": "windoku",
    "irregular": "jigsaw",
    "regions": "jigsaw",
    "antiknight": "anti-knight",
    "anti_knight": "anti-knight",
    "antiking": "anti-king",
    "anti_king": "anti-king",
}


def canonical_variant(name: str) -> str:
    """The canonical name of a variant (``"x"`` -> ``"diagonal"``).

    Raises:
        ValueError: for an unknown variant, listing the known ones.
    """
    key = name.strip().lower()
    key = _VARIANT_ALIASES.get(key, key)
    if key not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return key
