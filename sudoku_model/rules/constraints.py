"""Constructors of the constraint kinds, one per variant family: kropki dots and XV signs
(with their negative constraints), thermometers, greater-than signs, non-consecutive,
even and odd cells, killer cages, little killer and sum lines, arrows and sandwich clues.
Each checks its input against the shape and returns a validated rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ..geometry import Shape
from .kinds import (
    Domain,
    Relation,
    RuleError,
    Sandwich,
    Sum,
    SumGroup,
    _as_cells,
    _check_in_grid,
    _names,
)


def _pair_table(n: int, test: Callable[[int, int], bool]) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if test(a, b))


def _orthogonal_pairs(shape: Shape) -> list[tuple[int, int]]:
    n = shape.size
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                out.append((r * n + c, (r + 1) * n + c))
    return out


def _neighbour_pairs(
    shape: Shape, name: str, pairs: Iterable[Sequence[int]], *, ordered: bool = False
) -> list[tuple[int, int]]:
    """Checked pairs of orthogonal neighbours; sorted within each pair unless ``ordered``."""
    n = shape.size
    out: dict[tuple[int, int], None] = {}
    for p in pairs:
        pair = _as_cells(p, f"rule {name!r}")
        if len(pair) != 2:
            raise RuleError(f"rule {name!r}: {p!r} is not a pair of cells")
        _check_in_grid(shape, name, pair)
        (ra, ca), (rb, cb) = divmod(pair[0], n), divmod(pair[1], n)
        if abs(ra - rb) + abs(ca - cb) != 1:
            raise RuleError(f"rule {name!r}: {_names(shape, pair)} are not orthogonal neighbours")
        a, b = pair
        out[(a, b) if ordered else (min(a, b), max(a, b))] = None
    return list(out)


def kropki_rules(
    shape: Shape,
    white: Iterable[Sequence[int]] = (),
    black: Iterable[Sequence[int]] = (),
    *,
    negative: bool = False,
) -> tuple[Relation, ...]:
    """Kropki dots between orthogonal neighbours: a white dot joins consecutive digits,
    a black dot digits where one is double the other. With ``negative``, every
    neighbour pair without a dot is neither consecutive nor in ratio 2.

    Returns the non-empty rules among ``kropki white``, ``kropki black``,
    ``kropki negative``.

    Raises:
        RuleError: for a dot between cells that are not neighbours, or two dots on a pair.
    """
    return _edge_mark_rules(
        shape,
        "kropki",
        "dots",
        ("kropki white", white, lambda x, y: abs(x - y) == 1),
        ("kropki black", black, lambda x, y: x == 2 * y or y == 2 * x),
        negative,
    )


def xv_rules(
    shape: Shape,
    x: Iterable[Sequence[int]] = (),
    v: Iterable[Sequence[int]] = (),
    *,
    negative: bool = False,
) -> tuple[Relation, ...]:
    """XV signs between orthogonal neighbours: X joins digits summing to 10, V digits
    summing to 5. With ``negative``, no other neighbour pair sums to 5 or 10.

    Returns the non-empty rules among ``XV x``, ``XV v``, ``XV negative``.

    Raises:
        RuleError: for a sign between cells that are not neighbours, two signs on a pair,
            or a sum the grid's digits cannot make (an X on a 4x4 grid).
    """
    return _edge_mark_rules(
        shape,
        "XV",
        "signs",
        ("XV x", x, lambda a, b: a + b == 10),
        ("XV v", v, lambda a, b: a + b == 5),
        negative,
    )


def _edge_mark_rules(
    shape: Shape,
    family: str,
    marks: str,
    first: tuple[str, Iterable[Sequence[int]], Callable[[int, int], bool]],
    second: tuple[str, Iterable[Sequence[int]], Callable[[int, int], bool]],
    negative: bool,
) -> tuple[Relation, ...]:
    """Two kinds of marks between orthogonal neighbours (kropki dots, XV signs), each a
    relation, and with ``negative`` a third: every unmarked neighbour pair is in neither
    relation. Returns the non-empty rules, validated.

    Raises:
        RuleError: for a mark between cells that are not neighbours, two marks on one
            pair, or a relation no digits of the grid satisfy.
    """
    n = shape.size
    kinds = [
        (name, _neighbour_pairs(shape, name, pairs), ok) for name, pairs, ok in (first, second)
    ]
    both = set(kinds[0][1]) & set(kinds[1][1])
    if both:
        raise RuleError(f"rule {family!r}: {_names(shape, min(both))} have two {marks}")
    rules = [Relation(name, tuple(pairs), _pair_table(n, ok)) for name, pairs, ok in kinds if pairs]
    if negative:
        marked = set(kinds[0][1]) | set(kinds[1][1])
        rest = tuple(p for p in _orthogonal_pairs(shape) if p not in marked)
        oks = [ok for _, _, ok in kinds]
        table = _pair_table(n, lambda a, b: not any(ok(a, b) for ok in oks))
        rules.append(Relation(f"{family} negative", rest, table))
    for rule in rules:
        rule.validate(shape)
    return tuple(rules)


def thermometer_rule(
    shape: Shape, thermometers: Iterable[Sequence[int]], name: str = "thermometers"
) -> Relation:
    """Digits strictly increase along each thermometer, from its bulb (first cell).

    Raises:
        RuleError: for a thermometer that is not a path (a repeated cell, a step to a cell
            that does not touch the previous one orthogonally or diagonally), a cell outside
            the grid, or more cells than digits.
    """
    n = shape.size
    pairs: dict[tuple[int, int], None] = {}
    for k, path in enumerate(thermometers, 1):
        cells = _as_cells(path, f"rule {name!r}")
        _check_in_grid(shape, name, cells)
        if not cells:
            raise RuleError(f"rule {name!r}: thermometer {k} has no cell")
        if len(set(cells)) != len(cells):
            raise RuleError(f"rule {name!r}: thermometer {k} repeats a cell")
        if len(cells) > n:
            raise RuleError(
                f"rule {name!r}: thermometer {k} has {len(cells)} cells; digits 1..{n} "
                f"cannot increase along more than {n}"
            )
        for a, b in zip(cells, cells[1:]):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            if max(abs(ra - rb), abs(ca - cb)) != 1:
                raise RuleError(
                    f"rule {name!r}: thermometer {k} is not a path "
                    f"({_names(shape, (a, b))} do not touch)"
                )
            pairs[(a, b)] = None
    rule = Relation(name, tuple(pairs), _pair_table(n, lambda a, b: a < b))
    rule.validate(shape)
    return rule


def greater_than_rule(
    shape: Shape, signs: Iterable[Sequence[int]], name: str = "greater-than"
) -> Relation:
    """Each sign ``(big, small)`` between orthogonal neighbours: big's digit is larger.

    Raises:
        RuleError: for cells that are not neighbours or outside the grid.
    """
    pairs = _neighbour_pairs(shape, name, signs, ordered=True)
    rule = Relation(name, tuple(pairs), _pair_table(shape.size, lambda a, b: a > b))
    rule.validate(shape)
    return rule


def nonconsecutive_rule(shape: Shape) -> Relation:
    """Orthogonal neighbours never hold consecutive digits."""
    pairs = tuple(_orthogonal_pairs(shape))
    return Relation("non-consecutive", pairs, _pair_table(shape.size, lambda a, b: abs(a - b) != 1))


def parity_rule(
    shape: Shape, even: Iterable[int] = (), odd: Iterable[int] = (), name: str = "even/odd"
) -> Domain:
    """Even cells hold even digits, odd cells odd digits.

    Raises:
        RuleError: for a cell marked both, or outside the grid.
    """
    n = shape.size
    evens = _as_cells(even, f"rule {name!r}")
    odds = _as_cells(odd, f"rule {name!r}")
    _check_in_grid(shape, name, evens + odds)
    both = set(evens) & set(odds)
    if both:
        raise RuleError(f"rule {name!r}: {_names(shape, (min(both),))} is marked even and odd")
    even_digits = frozenset(range(2, n + 1, 2))
    odd_digits = frozenset(range(1, n + 1, 2))
    cells = [(c, even_digits) for c in dict.fromkeys(evens)]
    cells += [(c, odd_digits) for c in dict.fromkeys(odds)]
    rule = Domain(name, tuple(sorted(cells)))
    rule.validate(shape)
    return rule


def killer_rule(
    shape: Shape, cages: Iterable[tuple[Iterable[int], int]], name: str = "killer"
) -> Sum:
    """Killer cages: each ``(cells, total)`` holds different digits summing to the total.

    Raises:
        RuleError: for overlapping cages, a cell outside the grid, or a total no distinct
            digits 1..n can reach.
    """
    groups = []
    owner: dict[int, int] = {}
    for k, (cells, total) in enumerate(cages, 1):
        cs = _as_cells(cells, f"rule {name!r}")
        _check_in_grid(shape, name, cs)
        for c in cs:
            if c in owner and owner[c] != k:
                raise RuleError(
                    f"rule {name!r}: cages {owner[c]} and {k} overlap at {shape.cell_name(c)}"
                )
            owner[c] = k
        try:
            groups.append(SumGroup(cs, (1,) * len(cs), total, True))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: cage {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def sum_lines_rule(
    shape: Shape, lines: Iterable[tuple[Iterable[int], int]], name: str = "little killer"
) -> Sum:
    """Lines (little killer diagonals, sum lines) whose digits, repeats allowed, sum to a
    total.

    Raises:
        RuleError: for a cell outside the grid or an unreachable total.
    """
    groups = []
    for k, (cells, total) in enumerate(lines, 1):
        cs = _as_cells(cells, f"rule {name!r}")
        try:
            groups.append(SumGroup(cs, (1,) * len(cs), total, False))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: line {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def arrow_rule(
    shape: Shape, arrows: Iterable[tuple[Sequence[int], Sequence[int]]], name: str = "arrows"
) -> Sum:
    """Arrows ``(circle, shaft)``: the digits on the shaft sum to the circle's number.

    A circle of one cell holds the sum; a circle of two cells (a "pill") reads as a
    two-digit decimal number, its first cell the tens (so on grids above 9x9 a digit of 10
    or more in the tens cell still counts ten per unit).

    Raises:
        RuleError: for an empty circle or shaft, a cell in both, or an arrow no digits can
            satisfy.
    """
    groups = []
    for k, (circle, shaft) in enumerate(arrows, 1):
        head = _as_cells(circle, f"rule {name!r}")
        body = _as_cells(shaft, f"rule {name!r}")
        if not head or not body:
            raise RuleError(f"rule {name!r}: arrow {k} needs a circle and a shaft")
        weights = tuple(-(10 ** (len(head) - 1 - i)) for i in range(len(head)))
        try:
            groups.append(SumGroup(head + body, weights + (1,) * len(body), 0, False))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: arrow {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def sandwich_rule(
    shape: Shape,
    rows: Mapping[int, int] | None = None,
    columns: Mapping[int, int] | None = None,
    name: str = "sandwich",
) -> Sandwich:
    """Sandwich clues by 0-based row and column index: the digits between the 1 and the n
    of that row or column sum to the clue.

    Raises:
        RuleError: for an index outside the grid or an unreachable total.
    """
    n = shape.size
    lines = []
    for label, clues, units in (("row", rows, shape.rows), ("column", columns, shape.columns)):
        for index, total in sorted((clues or {}).items()):
            if not isinstance(index, int) or not 0 <= index < n:
                raise RuleError(f"rule {name!r}: {label} {index!r} is outside the grid")
            lines.append((units[index], total))
    rule = Sandwich(name, tuple(lines))
    rule.validate(shape)
    return rule
