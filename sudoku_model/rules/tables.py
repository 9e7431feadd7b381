"""Constructors of the rules stated as :class:`~.kinds.Table` lists of allowed digit tuples:
between and lockout lines, quadruples, equality, rellik, look-and-say cages and lunchboxes,
segment sum lines, value indexing lines, X-sums and skyscrapers, and the global rules on
every 2x2 square (entropy, modulo 3) or column (Dutch flatmates).

Each builds the list of tuples from the rule's definition (by a search that drops a prefix
as soon as it cannot be extended), groups the scopes that share one list into one rule,
and returns validated rules. A list longer than :data:`~.kinds.MAX_TABLE_ROWS` is refused
with a :class:`~.kinds.RuleError`; the lists of the last few parameters are cached (they
are immutable). Rule names carry what the list depends on, in
parentheses (``"quadruples (1, 4, 6, 7)"``, ``"x-sums (8, -)"``), so that one rule is one
list."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

from ..geometry import Shape
from .kinds import MAX_TABLE_ROWS, RuleError, Table, _as_cells, _check_in_grid

__all__ = [
    "between_rule",
    "dutch_flatmates_rules",
    "equality_cage_rules",
    "global_entropy_rule",
    "global_mod_rule",
    "lockout_rules",
    "look_and_say_rules",
    "lunchbox_rules",
    "quadruple_rules",
    "rellik_cage_rules",
    "segment_sum_rules",
    "skyscraper_rules",
    "value_indexing_rules",
    "x_sum_rules",
]

Digits = tuple[int, ...]
State = TypeVar("State")
#: The most tuples a search for a house rule (X-sums, skyscrapers) may visit before the
#: clue at the other end filters them.
_MAX_VISITED = 3 * MAX_TABLE_ROWS


def _collect(name: str, tuples: Iterable[Digits], limit: int = MAX_TABLE_ROWS) -> frozenset[Digits]:
    """The tuples as a set; RuleError once there are more than ``limit``."""
    out: set[Digits] = set()
    for t in tuples:
        out.add(t)
        if len(out) > limit:
            raise RuleError(f"rule {name!r} needs more than {limit:,} digit tuples")
    return frozenset(out)


def _search(
    n: int,
    length: int,
    start: State,
    step: Callable[[State, int, int], State | None],
    *,
    distinct: bool,
    accept: Callable[[State], bool] | None = None,
) -> Iterator[Digits]:
    """Every tuple of ``length`` digits 1..n (pairwise different with ``distinct``) that
    ``step`` never rejects: ``step(state, digit, cells_left_after)`` gives the state after
    the digit or None to drop the prefix; ``accept`` checks the last state."""
    prefix: list[int] = []

    def walk(state: State) -> Iterator[Digits]:
        if len(prefix) == length:
            if accept is None or accept(state):
                yield tuple(prefix)
            return
        left = length - len(prefix) - 1
        for d in range(1, n + 1):
            if distinct and d in prefix:
                continue
            after = step(state, d, left)
            if after is None:
                continue
            prefix.append(d)
            yield from walk(after)
            prefix.pop()

    yield from walk(start)


def _path(shape: Shape, name: str, k: int, cells: Iterable[int], least: int) -> Digits:
    """Checked cells of item ``k``: inside the grid, at least ``least`` of them, none twice."""
    out = _as_cells(cells, f"rule {name!r}")
    _check_in_grid(shape, name, out)
    if len(out) < least:
        raise RuleError(f"rule {name!r}: item {k} has {len(out)} cells, fewer than {least}")
    if len(set(out)) != len(out):
        raise RuleError(f"rule {name!r}: item {k} repeats a cell")
    return out


_Key = TypeVar("_Key")


def _tables(
    shape: Shape,
    groups: dict[_Key, list[Digits]],
    name_of: Callable[[_Key], str],
    table_of: Callable[[_Key], frozenset[Digits]],
) -> tuple[Table, ...]:
    """One validated Table per key (in order of first appearance), its scopes the key's."""
    rules = []
    for key, scopes in groups.items():
        name = name_of(key)
        rule = Table(name, tuple(dict.fromkeys(scopes)), table_of(key))
        rule.validate(shape)
        rules.append(rule)
    return tuple(rules)


# -- lines -----------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def between_table(n: int) -> frozenset[Digits]:
    """(end, end, middle) triples with the middle digit strictly between the ends'."""
    return frozenset(
        (a, b, m)
        for a in range(1, n + 1)
        for b in range(1, n + 1)
        for m in range(min(a, b) + 1, max(a, b))
    )


def between_rule(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "between lines"
) -> Table:
    """Between lines: every cell strictly inside a line holds a digit strictly between the
    digits of its two end cells. One scope (first end, last end, middle cell) per middle
    cell.

    Raises:
        RuleError: for a line of fewer than three cells, one that repeats a cell, or a cell
            outside the grid.
    """
    scopes: list[Digits] = []
    for k, path in enumerate(lines, 1):
        cells = _path(shape, name, k, path, 3)
        scopes += [(cells[0], cells[-1], m) for m in cells[1:-1]]
    return _tables(shape, {0: scopes}, lambda _: name, lambda _: between_table(shape.size))[0]


@lru_cache(maxsize=16)
def lockout_table(n: int, difference: int, middle: bool) -> frozenset[Digits]:
    """(end, end[, middle]) tuples: the ends differ by at least ``difference`` (and at least
    1), the middle digit lies outside the closed range of the ends'."""
    least = max(difference, 1)
    out: set[Digits] = set()
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            if abs(a - b) < least:
                continue
            if not middle:
                out.add((a, b))
                continue
            lo, hi = min(a, b), max(a, b)
            out.update((a, b, m) for m in range(1, n + 1) if m < lo or m > hi)
    return frozenset(out)


def lockout_rules(
    shape: Shape, lines: Iterable[tuple[int, Sequence[int]]], name: str = "lockout lines"
) -> tuple[Table, ...]:
    """Lockout lines ``(difference, cells)``: the two end cells' digits differ by at least
    the difference, and no cell strictly inside the line holds a digit in the closed range
    between them. One rule ``NAME (d)`` per difference, over (first end, last end, middle
    cell) triples, and ``NAME (d): ends`` over the ends of lines without middle cells.

    Raises:
        RuleError: for a negative difference or one no digits reach, a line of fewer than
            two cells, one that repeats a cell, or a cell outside the grid.
    """
    groups: dict[tuple[int, bool], list[Digits]] = {}
    for k, (difference, path) in enumerate(lines, 1):
        if not isinstance(difference, int) or difference < 0:
            raise RuleError(f"rule {name!r}: difference {difference!r} is not a number >= 0")
        cells = _path(shape, name, k, path, 2)
        middle = len(cells) > 2
        scopes = groups.setdefault((difference, middle), [])
        if middle:
            scopes += [(cells[0], cells[-1], m) for m in cells[1:-1]]
        else:
            scopes.append(cells)
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({key[0]})" + ("" if key[1] else ": ends"),
        lambda key: lockout_table(shape.size, *key),
    )


@lru_cache(maxsize=16)
def segment_sum_table(n: int, total: int, length: int, loop: bool) -> frozenset[Digits]:
    """Tuples of ``length`` digits that cut into runs of consecutive digits each summing to
    ``total``; on a loop, the runs may wrap around from the last digit to the first."""

    def step(partial: int, d: int, left: int) -> int | None:
        s = partial + d
        if s > total:
            return None
        return 0 if s == total else s

    name = f"segment sum {'loops' if loop else 'lines'} ({total}, {length} cells)"
    line = _collect(name, _search(n, length, 0, step, distinct=False, accept=lambda s: s == 0))
    if not loop:
        return line
    return _collect(name, (t[i:] + t[:i] for t in line for i in range(length)))


def segment_sum_rules(
    shape: Shape,
    lines: Iterable[tuple[int, Sequence[int], bool]],
    name: str = "segment sum lines",
) -> tuple[Table, ...]:
    """Segment sum lines ``(total, cells, loop)`` (10 lines when the total is 10): each line
    cuts into runs of consecutive cells, each run summing to the total; a loop's runs may
    wrap around from its last cell to its first. One rule ``NAME (total, k cells)`` per
    total and length, and ``segment sum loops (total, k cells)`` for loops.

    Raises:
        RuleError: for a total below 1, a line that repeats a cell or leaves the grid, a
            line no digits can cut so, or one whose list of tuples is too long.
    """
    groups: dict[tuple[int, int, bool], list[Digits]] = {}
    for k, (total, path, loop) in enumerate(lines, 1):
        if not isinstance(total, int) or total < 1:
            raise RuleError(f"rule {name!r}: total {total!r} is not a number >= 1")
        cells = _path(shape, name, k, path, 1)
        groups.setdefault((total, len(cells), bool(loop)), []).append(cells)
    loops = name.replace("lines", "loops") if "lines" in name else f"{name} loops"
    return _tables(
        shape,
        groups,
        lambda key: f"{loops if key[2] else name} ({key[0]}, {key[1]} cells)",
        lambda key: segment_sum_table(shape.size, *key),
    )


@lru_cache(maxsize=64)
def value_indexing_table(n: int, j: int, m: int) -> frozenset[Digits]:
    """(control, value, j-th cell) triples of a line of ``m`` indexed cells: the control
    digit is at most ``m``, and when it is ``j`` the j-th cell holds the value cell's
    digit."""
    digits = range(1, n + 1)
    return frozenset(
        (k, v, c)
        for k in range(1, min(m, n) + 1)
        for v in digits
        for c in digits
        if k != j or c == v
    )


def value_indexing_rules(
    shape: Shape, lines: Iterable[Sequence[int]], name: str = "value indexing"
) -> tuple[Table, ...]:
    """Value indexing lines ``(value cell, control cell, cell 1, ..., cell m)``: the
    control cell's digit k is at most m, and cell k of the line holds the value cell's
    digit. As (control, value, cell j) triples, one rule ``NAME (j of m)`` per position
    and line length.

    Raises:
        RuleError: for a line of fewer than three cells, one that repeats a cell, or a cell
            outside the grid.
    """
    groups: dict[tuple[int, int], list[Digits]] = {}
    for k, path in enumerate(lines, 1):
        cells = _path(shape, name, k, path, 3)
        value, control, indexed = cells[0], cells[1], cells[2:]
        for j, c in enumerate(indexed, 1):
            groups.setdefault((j, len(indexed)), []).append((control, value, c))
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({key[0]} of {key[1]})",
        lambda key: value_indexing_table(shape.size, *key),
    )


# -- cages -----------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def quadruple_table(n: int, values: tuple[int, ...]) -> frozenset[Digits]:
    """Tuples of four digits holding every listed value (a value listed twice, twice)."""
    need = {v: values.count(v) for v in values}
    return frozenset(
        t
        for t in itertools.product(range(1, n + 1), repeat=4)
        if all(t.count(v) >= c for v, c in need.items())
    )


def quadruple_rules(
    shape: Shape, quads: Iterable[tuple[int, Sequence[int]]], name: str = "quadruples"
) -> tuple[Table, ...]:
    """Quadruples ``(top_left, values)``: the 2x2 square whose top-left cell is given holds
    each value (a value listed k times at least k times). Scopes are (top left, top right,
    bottom left, bottom right); one rule ``NAME (values)`` per list of values.

    Raises:
        RuleError: for a square that leaves the grid, no values or more than four, or a
            value outside 1..n.
    """
    n = shape.size
    groups: dict[tuple[int, ...], list[Digits]] = {}
    for k, (corner, values) in enumerate(quads, 1):
        _check_in_grid(shape, name, _as_cells((corner,), f"rule {name!r}"))
        r, c = divmod(corner, n)
        if r == n - 1 or c == n - 1:
            raise RuleError(
                f"rule {name!r}: quadruple {k} at {shape.cell_name(corner)} leaves the grid"
            )
        key = tuple(sorted(values))
        if not 1 <= len(key) <= 4 or not all(isinstance(v, int) and 1 <= v <= n for v in key):
            raise RuleError(f"rule {name!r}: quadruple {k} needs one to four digits 1..{n}")
        groups.setdefault(key, []).append((corner, corner + 1, corner + n, corner + n + 1))
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({', '.join(map(str, key))})",
        lambda key: quadruple_table(n, key),
    )


def _cages(
    shape: Shape, name: str, cages: Iterable[Sequence[int]], least: int = 1
) -> Iterator[tuple[int, Digits]]:
    for k, cells in enumerate(cages, 1):
        yield k, _path(shape, name, k, cells, least)


Counts = tuple[int, int, int, int]


@lru_cache(maxsize=16)
def equality_table(n: int, length: int) -> frozenset[Digits]:
    """Tuples of ``length`` different digits, as many even as odd and as many low as high
    (low: 1..n//2, high: the n//2 largest; on an odd n the middle digit is neither and is
    left out)."""
    half = n // 2
    cap = length // 2

    def step(
        counts: tuple[int, int, int, int], d: int, left: int
    ) -> tuple[int, int, int, int] | None:
        even, odd, low, high = counts
        if d % 2:
            odd += 1
        else:
            even += 1
        if d <= half:
            low += 1
        elif d > n - half:
            high += 1
        else:
            return None
        if max(even, odd, low, high) > cap:
            return None
        return even, odd, low, high

    if length % 2:
        return frozenset()
    name = f"equality cages ({length} cells)"
    return _collect(name, _search(n, length, (0, 0, 0, 0), step, distinct=True))


def equality_cage_rules(
    shape: Shape, cages: Iterable[Sequence[int]], name: str = "equality cages"
) -> tuple[Table, ...]:
    """Equality cages: different digits, as many even as odd and as many low as high (on a
    grid of odd size the middle digit is not allowed). One rule ``NAME (k cells)`` per
    cage size.

    Raises:
        RuleError: for a cage of an odd number of cells or more than n, one that repeats a
            cell, or a cell outside the grid.
    """
    groups: dict[int, list[Digits]] = {}
    for k, cells in _cages(shape, name, cages):
        if len(cells) % 2:
            raise RuleError(f"rule {name!r}: cage {k} has an odd number of cells")
        groups.setdefault(len(cells), []).append(cells)
    return _tables(
        shape,
        groups,
        lambda size: f"{name} ({size} cells)",
        lambda size: equality_table(shape.size, size),
    )


@lru_cache(maxsize=16)
def rellik_table(n: int, total: int, length: int) -> frozenset[Digits]:
    """Tuples of ``length`` different digits no subset of which (one digit or more) sums
    to ``total``."""

    def step(sums: frozenset[int], d: int, left: int) -> frozenset[int] | None:
        if total - d in sums:
            return None
        return sums | {s + d for s in sums}

    name = f"rellik cages ({total}, {length} cells)"
    return _collect(name, _search(n, length, frozenset({0}), step, distinct=True))


def rellik_cage_rules(
    shape: Shape, cages: Iterable[tuple[int, Sequence[int]]], name: str = "rellik cages"
) -> tuple[Table, ...]:
    """Rellik cages ``(total, cells)``: different digits, and no selection of one or more
    of them sums to the total. One rule ``NAME (total, k cells)`` per total and size.

    Raises:
        RuleError: for a total below 1, a cage that repeats a cell or leaves the grid, or
            one no digits can fill.
    """
    groups: dict[tuple[int, int], list[Digits]] = {}
    for k, (total, cells) in enumerate(cages, 1):
        if not isinstance(total, int) or total < 1:
            raise RuleError(f"rule {name!r}: total {total!r} is not a number >= 1")
        cs = _path(shape, name, k, cells, 1)
        groups.setdefault((total, len(cs)), []).append(cs)
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({key[0]}, {key[1]} cells)",
        lambda key: rellik_table(shape.size, *key),
    )


def look_and_say_counts(clue: str, n: int) -> dict[int, int]:
    """A look-and-say clue's (count, value) digit pairs as {value: count}.

    Raises:
        RuleError: for a clue that is not pairs of digits, a value outside 1..n, or a value
            named twice.
    """
    if not clue or len(clue) % 2 or not clue.isdigit():
        raise RuleError(f"look-and-say clue {clue!r} is not (count, value) digit pairs")
    out: dict[int, int] = {}
    for i in range(0, len(clue), 2):
        count, value = int(clue[i]), int(clue[i + 1])
        if not 1 <= value <= n:
            raise RuleError(f"look-and-say clue {clue!r}: {value} is not a digit 1..{n}")
        if value in out:
            raise RuleError(f"look-and-say clue {clue!r} names {value} twice")
        out[value] = count
    return out


@lru_cache(maxsize=16)
def look_and_say_table(n: int, clue: str, length: int) -> frozenset[Digits]:
    """Tuples of ``length`` digits holding each value of the clue exactly as many times as
    it says (a count of 0: not at all); other digits are free."""
    need = look_and_say_counts(clue, n)
    values = sorted(need)

    def step(counts: tuple[int, ...], d: int, left: int) -> tuple[int, ...] | None:
        if d in need:
            i = values.index(d)
            counts = counts[:i] + (counts[i] + 1,) + counts[i + 1 :]
            if counts[i] > need[d]:
                return None
        if sum(need[v] - c for v, c in zip(values, counts)) > left:
            return None
        return counts

    name = f"look-and-say cages ({clue}, {length} cells)"
    return _collect(name, _search(n, length, (0,) * len(values), step, distinct=False))


def look_and_say_rules(
    shape: Shape, cages: Iterable[tuple[str, Sequence[int]]], name: str = "look-and-say cages"
) -> tuple[Table, ...]:
    """Look-and-say cages ``(clue, cells)``: the clue reads as (count, value) digit pairs,
    ``1324`` meaning exactly one 3 and exactly two 4s; a count of 0 means the value does
    not appear; digits the clue does not name are free, and may repeat. One rule
    ``NAME (clue, k cells)`` per clue and size.

    Raises:
        RuleError: for a clue that is not digit pairs, names a value twice or outside
            1..n, a cage that repeats a cell or leaves the grid, counts no cage of its size
            holds, or a list of tuples too long.
    """
    groups: dict[tuple[str, int], list[Digits]] = {}
    for k, (clue, cells) in enumerate(cages, 1):
        try:
            look_and_say_counts(clue, shape.size)
        except RuleError as exc:
            raise RuleError(f"rule {name!r}: cage {k}: {exc}") from None
        cs = _path(shape, name, k, cells, 1)
        groups.setdefault((clue, len(cs)), []).append(cs)
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({key[0]}, {key[1]} cells)",
        lambda key: look_and_say_table(shape.size, *key),
    )


def _lunchboxes(n: int, total: int, length: int) -> Iterator[Digits]:
    positions = range(length)
    for chosen in itertools.combinations(range(1, n + 1), length):
        lo, hi, middle = chosen[0], chosen[-1], chosen[1:-1]
        for i, j in itertools.permutations(positions, 2):
            a, b = min(i, j), max(i, j)
            for inside in itertools.combinations(middle, b - a - 1):
                if sum(inside) != total:
                    continue
                outside = [d for d in middle if d not in inside]
                for p in itertools.permutations(inside):
                    for q in itertools.permutations(outside):
                        rest = iter(q)
                        t = [0] * length
                        t[i], t[j] = lo, hi
                        t[a + 1 : b] = p
                        for x in positions:
                            if not t[x]:
                                t[x] = next(rest)
                        yield tuple(t)


@lru_cache(maxsize=16)
def lunchbox_table(n: int, total: int, length: int) -> frozenset[Digits]:
    """Tuples of ``length`` different digits whose digits strictly between (by position)
    the smallest and the largest sum to ``total``."""
    return _collect(f"lunchboxes ({total}, {length} cells)", _lunchboxes(n, total, length))


def lunchbox_rules(
    shape: Shape, boxes: Iterable[tuple[int, Sequence[int]]], name: str = "lunchboxes"
) -> tuple[Table, ...]:
    """Lunchboxes ``(total, cells)``: different digits, and those of the cells between the
    cell of the smallest digit and the cell of the largest, in the order given, sum to the
    total (0 when they are neighbours). One rule ``NAME (total, k cells)`` per total and
    size.

    Raises:
        RuleError: for a negative total, fewer than two cells, a repeated cell, a cell
            outside the grid, a total no digits reach, or a list of tuples too long.
    """
    groups: dict[tuple[int, int], list[Digits]] = {}
    for k, (total, cells) in enumerate(boxes, 1):
        if not isinstance(total, int) or total < 0:
            raise RuleError(f"rule {name!r}: total {total!r} is not a number >= 0")
        cs = _path(shape, name, k, cells, 2)
        groups.setdefault((total, len(cs)), []).append(cs)
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({key[0]}, {key[1]} cells)",
        lambda key: lunchbox_table(shape.size, *key),
    )


# -- outside clues on a row or column --------------------------------------------------------
Clue = int | None


def _house_lines(shape: Shape, name: str, k: int, line: Sequence[int]) -> Digits:
    cells = _as_cells(line, f"rule {name!r}")
    houses = [*shape.rows, *shape.columns]
    if cells not in houses and cells[::-1] not in houses:
        raise RuleError(f"rule {name!r}: clue {k} is not on a row or column")
    return cells


def _clue_text(clue: Clue) -> str:
    return "-" if clue is None else str(clue)


def _x_sum_perms(n: int, total: int) -> Iterator[Digits]:
    """Permutations of 1..n whose first k digits sum to ``total``, k the first digit."""
    digits = range(1, n + 1)
    for k in digits:
        others = [d for d in digits if d != k]
        for chosen in itertools.combinations(others, k - 1):
            if sum(chosen) + k != total:
                continue
            rest = [d for d in others if d not in chosen]
            for p in itertools.permutations(chosen):
                for q in itertools.permutations(rest):
                    yield (k, *p, *q)


def _records(values: Digits, seen: int) -> Iterator[Digits]:
    """Orderings of ``values`` (sorted) with ``seen`` digits larger than every digit before
    them: the largest value comes after an ordering of a subset of the others with one
    fewer such digit, and the remaining values follow in any order."""
    if not values:
        if seen == 0:
            yield ()
        return
    if seen <= 0:
        return
    top, rest = values[-1], values[:-1]
    for size in range(seen - 1, len(rest) + 1):
        for before in itertools.combinations(rest, size):
            after = [d for d in rest if d not in before]
            for head in _records(before, seen - 1):  # lazily: never a list of them all
                for tail in itertools.permutations(after):
                    yield (*head, top, *tail)


def _skyscraper_perms(n: int, seen: int) -> Iterator[Digits]:
    """Permutations of 1..n with ``seen`` digits larger than every digit before them."""
    return _records(tuple(range(1, n + 1)), seen)


def _house_table(
    name: str,
    n: int,
    start: Clue,
    end: Clue,
    perms: Callable[[int, int], Iterator[Digits]],
    ok: Callable[[Digits, int], bool],
) -> frozenset[Digits]:
    """Permutations of 1..n meeting the clue at the start (read forwards) and at the end
    (read backwards), generated from one clue and filtered by the other."""
    if start is None and end is None:
        raise RuleError(f"rule {name!r}: a clue at neither end")

    def counted(tuples: Iterator[Digits]) -> Iterator[Digits]:
        """The generated tuples, before any filter; RuleError after too many."""
        for visited, t in enumerate(tuples, 1):
            if visited > _MAX_VISITED:
                raise RuleError(f"rule {name!r} needs too many digit tuples")
            yield t

    if start is not None:
        stream = counted(perms(n, start))
        if end is not None:
            stream = (t for t in stream if ok(t[::-1], end))
    else:
        assert end is not None
        stream = (t[::-1] for t in counted(perms(n, end)))
    return _collect(name, stream)


@lru_cache(maxsize=8)
def x_sum_table(n: int, start: Clue, end: Clue) -> frozenset[Digits]:
    """Permutations of 1..n whose first X digits sum to ``start`` (X the first digit) and
    whose last Y digits sum to ``end`` (Y the last digit); None: no clue at that end."""
    name = f"x-sums ({_clue_text(start)}, {_clue_text(end)})"
    return _house_table(name, n, start, end, _x_sum_perms, lambda t, total: sum(t[: t[0]]) == total)


@lru_cache(maxsize=8)
def skyscraper_table(n: int, start: Clue, end: Clue) -> frozenset[Digits]:
    """Permutations of 1..n in which ``start`` digits are larger than every digit before
    them, and ``end`` digits larger than every digit after them; None: no clue there."""

    def seen(t: Digits, count: int) -> bool:
        top, k = 0, 0
        for d in t:
            if d > top:
                top, k = d, k + 1
        return k == count

    name = f"skyscrapers ({_clue_text(start)}, {_clue_text(end)})"
    return _house_table(name, n, start, end, _skyscraper_perms, seen)


def _outside_rules(
    shape: Shape,
    name: str,
    clues: Iterable[tuple[Sequence[int], Clue, Clue]],
    table: Callable[[int, Clue, Clue], frozenset[Digits]],
    least: int,
) -> tuple[Table, ...]:
    n = shape.size
    groups: dict[tuple[Clue, Clue], list[Digits]] = {}
    for k, (line, start, end) in enumerate(clues, 1):
        cells = _house_lines(shape, name, k, line)
        for clue in (start, end):
            if clue is not None and (not isinstance(clue, int) or not least <= clue):
                raise RuleError(f"rule {name!r}: clue {k}: {clue!r} is not a number >= {least}")
        if start is None and end is None:
            raise RuleError(f"rule {name!r}: clue {k} has a clue at neither end")
        groups.setdefault((start, end), []).append(cells)
    return _tables(
        shape,
        groups,
        lambda key: f"{name} ({_clue_text(key[0])}, {_clue_text(key[1])})",
        lambda key: table(n, *key),
    )


def x_sum_rules(
    shape: Shape, clues: Iterable[tuple[Sequence[int], Clue, Clue]], name: str = "x-sums"
) -> tuple[Table, ...]:
    """X-sums ``(line, start, end)`` on a row or column (``line`` its cells from the start
    end): the first X cells from the start sum to ``start``, X the first cell's digit, and
    likewise from the other end for ``end``; None means no clue at that end. The line is a
    house, so its tuples are only the permutations of 1..n. One rule ``NAME (start, end)``
    per pair of clues (``-`` for none).

    Raises:
        RuleError: for a line that is not a row or column, a clue below 1, a line without
            a clue, a pair of clues no permutation meets, or a list of tuples too long
            (grids above 9x9 may need one).
    """
    return _outside_rules(shape, name, clues, x_sum_table, 1)


def skyscraper_rules(
    shape: Shape, clues: Iterable[tuple[Sequence[int], Clue, Clue]], name: str = "skyscrapers"
) -> tuple[Table, ...]:
    """Skyscrapers ``(line, start, end)`` on a row or column (``line`` its cells from the
    start end): seen from the start, ``start`` digits are higher than every digit before
    them (the visible buildings), and likewise ``end`` from the other end; None means no
    clue at that end. The line is a house, so its tuples are only the permutations of
    1..n. One rule ``NAME (start, end)`` per pair of clues (``-`` for none).

    Raises:
        RuleError: for a line that is not a row or column, a clue below 1, a line without
            a clue, a pair of clues no permutation meets, or a list of tuples too long
            (grids above 9x9 may need one).
    """
    return _outside_rules(shape, name, clues, skyscraper_table, 1)


# -- global rules ----------------------------------------------------------------------------
def _squares(shape: Shape) -> tuple[Digits, ...]:
    """Every 2x2 square of the grid (overlapping), cells in row order."""
    n = shape.size
    return tuple(
        (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
        for r in range(n - 1)
        for c in range(n - 1)
    )


def _every_group(n: int, group: Callable[[int], int], groups: int) -> frozenset[Digits]:
    return frozenset(
        t
        for t in itertools.product(range(1, n + 1), repeat=4)
        if len({group(d) for d in t}) == groups
    )


def global_entropy_rule(shape: Shape, name: str = "global entropy") -> Table:
    """Global entropy: every 2x2 square holds a low, a middle and a high digit (1..n in
    three equal groups: 1-3, 4-6, 7-9 on a 9x9 grid).

    Raises:
        RuleError: on a grid whose size is not a multiple of 3.
    """
    n = shape.size
    if n % 3:
        raise RuleError(f"rule {name!r}: digits 1..{n} do not split into three equal groups")
    third = n // 3
    table = _every_group(n, lambda d: (d - 1) // third, 3)
    return _tables(shape, {0: list(_squares(shape))}, lambda _: name, lambda _: table)[0]


def global_mod_rule(shape: Shape, name: str = "global mod 3") -> Table:
    """Global modulo 3: every 2x2 square holds a digit of each residue modulo 3 (on a 9x9
    grid one of 1, 4, 7, one of 2, 5, 8 and one of 3, 6, 9).

    Raises:
        RuleError: on a grid whose size is not a multiple of 3.
    """
    n = shape.size
    if n % 3:
        raise RuleError(f"rule {name!r}: digits 1..{n} do not hold each residue equally")
    table = _every_group(n, lambda d: d % 3, 3)
    return _tables(shape, {0: list(_squares(shape))}, lambda _: name, lambda _: table)[0]


def dutch_flatmates_rules(shape: Shape, name: str = "dutch flatmates") -> tuple[Table, ...]:
    """Dutch flatmates: every middle digit (5 on a 9x9 grid, the smaller middle one, n/2, on
    an even size) has a 1 directly above it or an n directly below it. Three rules: ``NAME``
    over (above, cell, below) triples, ``NAME: top`` over (top cell, the one below) and
    ``NAME: bottom`` over (the one above, bottom cell)."""
    n = shape.size
    mid = (n + 1) // 2
    digits = range(1, n + 1)
    triples = frozenset(
        (a, m, b) for a in digits for m in digits for b in digits if m != mid or a == 1 or b == n
    )
    top = frozenset((m, b) for m in digits for b in digits if m != mid or b == n)
    bottom = frozenset((a, m) for a in digits for m in digits if m != mid or a == 1)
    columns = shape.columns
    groups: dict[str, list[Digits]] = {
        name: [col[i - 1 : i + 2] for col in columns for i in range(1, n - 1)],
        f"{name}: top": [col[:2] for col in columns],
        f"{name}: bottom": [col[-2:] for col in columns],
    }
    tables = {name: triples, f"{name}: top": top, f"{name}: bottom": bottom}
    return _tables(shape, groups, lambda key: key, lambda key: tables[key])
