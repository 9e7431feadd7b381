"""Constructors of the constraint kinds, one per variant family: kropki dots and XV signs
(with their negative constraints), thermometers, greater-than signs, non-consecutive,
even and odd cells, killer cages, little killer and sum lines, arrows and sandwich clues;
and the line constraints built from the same kinds: whispers, renban, palindromes,
entropic and modular lines, anti-taxicab, equal sums (region sum lines, magic squares),
zippers, double arrows and weighted sums.
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


# -- line constraints of the variant community (whispers, renban, palindromes...) ----------
def _line(shape: Shape, name: str, k: int, path: Sequence[int]) -> tuple[int, ...]:
    cells = _as_cells(path, f"rule {name!r}")
    _check_in_grid(shape, name, cells)
    if not cells:
        raise RuleError(f"rule {name!r}: line {k} has no cell")
    return cells


def _relation(
    name: str, shape: Shape, pairs: Iterable[tuple[int, int]], ok: Callable[[int, int], bool]
) -> Relation:
    rule = Relation(name, tuple(dict.fromkeys(pairs)), _pair_table(shape.size, ok))
    rule.validate(shape)
    return rule


def _within(k: int) -> Callable[[int, int], bool]:
    """Different digits less than ``k`` apart."""
    return lambda a, b: 0 < abs(a - b) < k


def _not_both(d: int) -> Callable[[int, int], bool]:
    """Any pair but (d, d)."""
    return lambda a, b: (a, b) != (d, d)


def whisper_rule(
    shape: Shape, lines: Iterable[Sequence[int]], difference: int = 5, name: str | None = None
) -> Relation:
    """Whispers: neighbours along each line differ by at least ``difference`` (German
    whispers: 5 on a 9x9 grid; Dutch whispers: 4).

    Raises:
        RuleError: for a difference below 1 or one no digits 1..n reach, a cell outside
            the grid, or a step from a cell to itself.
    """
    name = name or f"whispers ({difference})"
    if not isinstance(difference, int) or difference < 1:
        raise RuleError(f"rule {name!r}: difference {difference!r} is not a number >= 1")
    pairs = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        pairs += list(zip(cells, cells[1:]))
    return _relation(name, shape, pairs, lambda a, b: abs(a - b) >= difference)


def renban_rules(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "renban"
) -> tuple[Relation, ...]:
    """Renban lines: each line holds a set of consecutive digits, without repeats, in any
    order. Exact as pairwise relations: distinct digits whose pairwise differences are
    below the line's length span exactly that many consecutive values. One rule per line
    length (the table depends on it).

    Raises:
        RuleError: for a line that repeats a cell, is longer than n, or leaves the grid.
    """
    by_length: dict[int, list[tuple[int, int]]] = {}
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        if len(set(cells)) != len(cells):
            raise RuleError(f"rule {name!r}: line {k} repeats a cell")
        if len(cells) > shape.size:
            raise RuleError(f"rule {name!r}: line {k} has more than {shape.size} cells")
        pairs = by_length.setdefault(len(cells), [])
        pairs += [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]
    return tuple(
        _relation(f"{name} ({k} cells)", shape, pairs, _within(k))
        for k, pairs in sorted(by_length.items())
        if pairs
    )


def palindrome_rule(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "palindromes"
) -> Relation:
    """Palindromes: each line reads the same forwards and backwards (cells at the same
    distance from both ends hold the same digit).

    Raises:
        RuleError: for a cell outside the grid.
    """
    pairs = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        pairs += [
            (cells[i], cells[-1 - i]) for i in range(len(cells) // 2) if cells[i] != cells[-1 - i]
        ]
    return _relation(name, shape, pairs, lambda a, b: a == b)


def entropic_rule(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "entropic lines"
) -> Relation:
    """Entropic lines: every three consecutive cells of a line hold one low, one middle and
    one high digit (1..n in three equal groups: 1-3, 4-6, 7-9 on a 9x9 grid). Exact as
    pairs: cells one or two steps apart along a line are in different groups.

    Raises:
        RuleError: on a grid whose size is not a multiple of 3, for a cell outside it, or
            for a line that comes back to a cell within two steps.
    """
    n = shape.size
    if n % 3:
        raise RuleError(f"rule {name!r}: digits 1..{n} do not split into three equal groups")
    third = n // 3
    pairs = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        for i, a in enumerate(cells):
            for b in cells[i + 1 : i + 3]:
                if a == b:
                    raise RuleError(f"rule {name!r}: line {k} comes back to a cell too soon")
                pairs.append((a, b))
    return _relation(name, shape, pairs, lambda a, b: (a - 1) // third != (b - 1) // third)


def modular_rules(
    shape: Shape, lines: Iterable[Sequence[int]], modulus: int = 3, name: str | None = None
) -> tuple[Relation, ...]:
    """Modular lines: every ``modulus`` consecutive cells of a line hold different residues
    modulo ``modulus``. Exact as pairs: the first ``modulus`` cells of a line have
    different residues, and cells ``modulus`` steps apart the same residue (what the
    windows imply once every residue must appear in each). Returns the non-empty rules
    among ``NAME: different`` and ``NAME: same``.

    Raises:
        RuleError: for a modulus below 2 or above n, a cell outside the grid, or a line
            that comes back to a cell within ``modulus`` steps.
    """
    name = name or f"modular lines ({modulus})"
    if not isinstance(modulus, int) or not 2 <= modulus <= shape.size:
        raise RuleError(f"rule {name!r}: modulus {modulus!r} is not in 2..{shape.size}")
    different, same = [], []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        head = cells[:modulus]
        if len(set(head)) != len(head):
            raise RuleError(f"rule {name!r}: line {k} comes back to a cell too soon")
        different += [(a, b) for i, a in enumerate(head) for b in head[i + 1 :]]
        same += [(a, b) for a, b in zip(cells, cells[modulus:]) if a != b]
    rules = []
    if different:
        rules.append(
            _relation(
                f"{name}: different", shape, different, lambda a, b: a % modulus != b % modulus
            )
        )
    if same:
        rules.append(
            _relation(f"{name}: same", shape, same, lambda a, b: a % modulus == b % modulus)
        )
    return tuple(rules)


def anti_taxicab_rules(shape: Shape, name: str = "anti-taxicab") -> tuple[Relation, ...]:
    """Anti-taxicab: a digit d is never d steps away (moving orthogonally) from the same
    digit. One rule per distance d, over the pairs of cells d steps apart, forbidding
    (d, d); pairs in one row or column are left out (the rows and columns already keep
    them different)."""
    n = shape.size
    rules = []
    for d in range(2, n + 1):
        pairs = []
        for a in range(n * n):
            ra, ca = divmod(a, n)
            for b in range(a + 1, n * n):
                rb, cb = divmod(b, n)
                if abs(ra - rb) + abs(ca - cb) == d and ra != rb and ca != cb:
                    pairs.append((a, b))
        if pairs:
            rules.append(_relation(f"{name} {d}", shape, pairs, _not_both(d)))
    return tuple(rules)


def _equal_sum_groups(segments: Sequence[Sequence[int]]) -> list[SumGroup]:
    """Groups saying that consecutive segments have equal sums (a cell in both cancels)."""
    groups = []
    for left, right in zip(segments, segments[1:]):
        weights: dict[int, int] = {}
        for c in left:
            weights[c] = weights.get(c, 0) + 1
        for c in right:
            weights[c] = weights.get(c, 0) - 1
        kept = [(c, w) for c, w in weights.items() if w]
        if kept:
            cells, ws = zip(*kept)
            groups.append(SumGroup(tuple(cells), tuple(ws), 0, False))
    return groups


def equal_sums_rule(
    shape: Shape, segment_sets: Iterable[Sequence[Sequence[int]]], name: str = "equal sums"
) -> Sum:
    """Sets of segments: within each set every segment has the same digit sum (a magic
    square's lines, region sum lines). Written as differences of consecutive segments
    equal to 0; a set of one segment says nothing.

    Raises:
        RuleError: for an empty segment, a cell outside the grid, or segments no digits can
            balance.
    """
    groups = []
    for k, segments in enumerate(segment_sets, 1):
        segs = [_line(shape, name, k, s) for s in segments]
        try:
            groups += _equal_sum_groups(segs)
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: set {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def region_sum_lines_rule(
    shape: Shape,
    lines: Iterable[Sequence[int]],
    regions: Sequence[Sequence[int]],
    name: str = "region sum lines",
) -> Sum:
    """Region sum lines: each line's runs of consecutive cells inside one region (a box, or
    a jigsaw region) all have the same sum; a line that leaves a region and comes back
    makes a new run.

    Raises:
        RuleError: for a cell outside the grid or in no region.
    """
    owner = {c: k for k, region in enumerate(regions) for c in region}
    segment_sets = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        runs: list[list[int]] = []
        for c in cells:
            if c not in owner:
                raise RuleError(f"rule {name!r}: {shape.cell_name(c)} is in no region")
            if runs and owner[runs[-1][-1]] == owner[c]:
                runs[-1].append(c)
            else:
                runs.append([c])
        segment_sets.append(runs)
    return equal_sums_rule(shape, segment_sets, name)


def zipper_rule(shape: Shape, lines: Iterable[Sequence[int]], name: str = "zippers") -> Sum:
    """Zipper lines: cells at the same distance from the middle of a line sum to the same
    total; on a line of odd length that total is the middle cell's digit.

    Raises:
        RuleError: for a cell outside the grid or a line no digits can satisfy.
    """
    groups = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        half = len(cells) // 2
        pairs = [[cells[i], cells[-1 - i]] for i in range(half)]
        try:
            if len(cells) % 2:
                middle = [cells[half]]
                groups += [g for p in pairs for g in _equal_sum_groups([p, middle])]
            else:
                groups += _equal_sum_groups(pairs)
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: line {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def double_arrow_rule(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "double arrows"
) -> Sum:
    """Double arrows: the digits strictly inside each line sum to the two end cells' sum.

    Raises:
        RuleError: for a line of fewer than three cells, a cell outside the grid, or a
            line no digits can satisfy.
    """
    groups = []
    for k, path in enumerate(lines, 1):
        cells = _line(shape, name, k, path)
        if len(cells) < 3:
            raise RuleError(f"rule {name!r}: line {k} needs two ends and a middle")
        try:
            groups += _equal_sum_groups([list(cells[1:-1]), [cells[0], cells[-1]]])
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: line {k}: {exc}") from None
    rule = Sum(name, tuple(groups))
    rule.validate(shape)
    return rule


def weighted_sums_rule(
    shape: Shape, groups: Iterable[tuple[Sequence[int], Sequence[int], int]], name: str = "sums"
) -> Sum:
    """Groups ``(cells, weights, total)``: the weighted digit sum equals the total (digits
    may repeat; weights may be negative). A cell listed twice has its weights added.

    Raises:
        RuleError: for a cell outside the grid, weights that do not match the cells, or a
            total no digits can reach.
    """
    out = []
    for k, (cells, weights, total) in enumerate(groups, 1):
        cs = _line(shape, name, k, cells)
        if len(weights) != len(cs):
            raise RuleError(
                f"rule {name!r}: group {k} has {len(weights)} weights for {len(cs)} cells"
            )
        merged: dict[int, int] = {}
        for c, w in zip(cs, weights):
            merged[c] = merged.get(c, 0) + w
        kept = [(c, w) for c, w in merged.items() if w]
        if not kept:
            if total != 0:
                raise RuleError(f"rule {name!r}: group {k} has no weight and total {total}")
            continue
        try:
            out.append(SumGroup(tuple(c for c, _ in kept), tuple(w for _, w in kept), total, False))
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: group {k}: {exc}") from None
    rule = Sum(name, tuple(out))
    rule.validate(shape)
    return rule


def _indexed(j: int, value: int, barred: frozenset[int]) -> Callable[[int, int], bool]:
    """The control's digit is not barred, and when it is j the other cell holds value."""
    return lambda a, b: a not in barred and (a != j or b == value)


def indexing_rules(
    shape: Shape,
    clues: Iterable[tuple[int, Sequence[int], int]],
    name: str = "indexing",
) -> tuple[Relation, ...]:
    """Indexing clues ``(control, line, value)``: if the control cell holds k, the k-th
    cell of the line holds ``value`` (numbered rooms: the line is a row or column read
    from the clue, the control its first cell; column indexing: the line is the control's
    row and the value its column number). As pairs: the control with each other cell j
    of the line, "control = j implies that cell = value", and, where the control is itself
    the j-th cell and j is not the value, "control is not j". One rule per table.

    Raises:
        RuleError: for a line longer than n, a cell outside the grid, a control outside
            its line, or a value outside 1..n.
    """
    n = shape.size
    tables: dict[frozenset[tuple[int, int]], list[tuple[int, int]]] = {}
    for k, (control, line, value) in enumerate(clues, 1):
        cells = _line(shape, name, k, line)
        _check_in_grid(shape, name, (control,))
        if len(cells) > n or control not in cells:
            raise RuleError(f"rule {name!r}: clue {k} needs its control cell on a line of <= {n}")
        if not 1 <= value <= n:
            raise RuleError(f"rule {name!r}: clue {k}: {value} is not a digit 1..{n}")
        barred = {j for j, c in enumerate(cells, 1) if c == control and j != value}
        barred |= set(range(len(cells) + 1, n + 1))  # no k-th cell: k is not allowed
        for j, c in enumerate(cells, 1):
            if c == control:
                continue
            table = _pair_table(n, _indexed(j, value, frozenset(barred)))
            tables.setdefault(table, []).append((control, c))
    rules = []
    for m, (table, pairs) in enumerate(tables.items(), 1):
        rule = Relation(f"{name} {m}", tuple(dict.fromkeys(pairs)), table)
        rule.validate(shape)
        rules.append(rule)
    return tuple(rules)
