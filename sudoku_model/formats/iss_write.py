"""Writing Interactive Sudoku Solver strings (the format is described in :mod:`.iss`):
named kinds where a rule's table and cells are theirs, any other relation as a ``Pair``
table, any other sum as a ``Sum`` with coefficients, so that a written string reads back
with the same solutions."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from ..geometry import Shape
from ..puzzle import Puzzle
from ..rules import (
    AllDifferent,
    Different,
    Domain,
    Relation,
    Rule,
    RuleError,
    Sandwich,
    Sum,
    Table,
    anti_king_rule,
    anti_knight_rule,
    anti_taxicab_rules,
    boxes_rule,
    columns_rule,
    diagonals_rule,
    rows_rule,
)
from ..rules import tables as table_rules
from .iss import _B64, _ID_DIGITS, MAX_ISS_SIZE, iss_box, iss_windows

__all__ = ["puzzle_to_iss"]


def _encode_key(allowed: Iterable[tuple[int, int]], n: int) -> str:
    """The ISS pair table of a set of allowed (a, b) pairs (see :func:`_decode_key`)."""
    words = [0] * ((n * n + 5) // 6)
    for a, b in allowed:
        bit = (a - 1) * n + (b - 1)
        words[bit // 6] |= 1 << bit % 6
    while words and not words[-1]:
        words.pop()
    return "".join(_B64[w] for w in words)


def _cell_id(shape: Shape, cell: int) -> str:
    r, c = divmod(cell, shape.size)
    return f"R{_ID_DIGITS[r]}C{_ID_DIGITS[c]}"


def _item(kind: str, *args: object) -> str:
    return "." + "~".join([kind, *(str(a) for a in args)])


def _table(n: int, ok: Callable[[int, int], bool]) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if ok(a, b))


def _orthogonal(n: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def _chains(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    paths: list[list[int]] = []
    for a, b in pairs:
        if paths and paths[-1][-1] == a:
            paths[-1].append(b)
        else:
            paths.append([a, b])
    return paths


def puzzle_to_iss(puzzle: Puzzle) -> str:
    """The ISS string of a puzzle. Reading it back gives a puzzle with the same solutions.

    Raises:
        ValueError: for a grid above 16x16, a rule set without rows or columns, a
            sandwich line that is not a row or column, weights beyond ISS's -100..100, or a
            table rule that no ISS kind states (see :func:`_table_items`).
    """

    shape = puzzle.shape
    n = shape.size
    if n > MAX_ISS_SIZE:
        raise ValueError(f"ISS strings hold grids up to {MAX_ISS_SIZE}x{MAX_ISS_SIZE}")
    rules = puzzle.rules.rules
    if rows_rule(shape) not in rules or columns_rule(shape) not in rules:
        raise ValueError("an ISS string always has rows and columns all different")
    cid = lambda c: _cell_id(shape, c)  # noqa: E731
    out: list[str] = []
    if n != 9:
        out.append(_item("Shape", f"{n}x{n}"))
    regions = puzzle.rules.regions
    has_boxes = boxes_rule(shape) in rules
    if not has_boxes or iss_box(n) != (shape.box_rows, shape.box_cols):
        labels = regions if regions is not None else [shape.box_of(c) for c in range(n * n)]
        if not has_boxes and regions is None:
            raise ValueError("an ISS string without boxes needs jigsaw regions")
        symbols = "0123456789abcdefghijklmnopqrstuvwxyz"
        order = {label: k for k, label in enumerate(dict.fromkeys(labels))}
        out.append(_item("NoBoxes"))
        out.append(_item("Jigsaw", "".join(symbols[order[label]] for label in labels)))
    candidates: dict[int, frozenset[int]] = {
        c: frozenset({v}) for c, v in enumerate(puzzle.givens.values) if v
    }
    main = tuple(i * n + i for i in range(n))
    anti = tuple((n - 1 - i) * n + i for i in range(n))
    skip: set[Rule] = {rows_rule(shape), columns_rule(shape), boxes_rule(shape)}
    windows = set(iss_windows(n))
    taxicab = set(anti_taxicab_rules(shape))
    if taxicab and taxicab <= set(rules):
        out.append(_item("AntiTaxicab"))
        skip |= taxicab
    for kind, made in _global_tables(rules, shape).items():
        out.append(_item(kind))
        skip |= made
    indexing_items, indexing_rules = _value_indexing_items(rules, shape, cid)
    skip |= indexing_rules
    strict = _strict_items(rules, n)
    for rule in rules:
        if rule in strict:
            out.append(strict[rule])
            continue
        if indexing_rules and rule in indexing_rules:
            out += indexing_items
            indexing_items = []
            continue
        if rule in skip or (isinstance(rule, AllDifferent) and rule.name == "regions"):
            continue
        if isinstance(rule, AllDifferent) and windows and set(rule.units) == windows:
            out.append(_item("Windoku"))
            continue
        if isinstance(rule, AllDifferent):
            if rule == diagonals_rule(shape):
                out += [_item("Diagonal", 1), _item("Diagonal", -1)]
                continue
            for unit in rule.units:
                if unit == main:
                    out.append(_item("Diagonal", -1))
                elif unit == anti:
                    out.append(_item("Diagonal", 1))
                else:
                    out.append(_item("AllDifferent", *map(cid, unit)))
        elif isinstance(rule, Different):
            if rule == anti_knight_rule(shape):
                out.append(_item("AntiKnight"))
            elif rule == anti_king_rule(shape):
                out.append(_item("AntiKing"))
            else:
                out += [_item("AllDifferent", cid(a), cid(b)) for a, b in rule.pairs]
        elif isinstance(rule, Domain):
            for c, digits in rule.cells:
                candidates[c] = candidates.get(c, digits) & digits
        elif isinstance(rule, Relation):
            out += _relation_items(rule, n, cid)
        elif isinstance(rule, Sum):
            out += _sum_items(rule, cid)
        elif isinstance(rule, Table):
            out += _table_items(rule, shape, cid)
        elif isinstance(rule, Sandwich):
            for line, total in rule.lines:
                ids = [f"R{r + 1}" for r in range(n) if line in _both_ways(shape.rows[r])]
                ids += [f"C{c + 1}" for c in range(n) if line in _both_ways(shape.columns[c])]
                if not ids:
                    raise ValueError(f"rule {rule.name!r}: a sandwich line is not a row or column")
                out.append(_item("Sandwich", total, ids[0]))
    givens = []
    for c, digits in sorted(candidates.items()):
        if not digits:
            raise ValueError(f"{shape.cell_name(c)} has no candidate left")
        givens.append("_".join([cid(c), *map(str, sorted(digits))]))
    if givens:
        out.append(_item("", *givens))
    return "".join(out) or _item("Shape", f"{n}x{n}")


def _none_of(oks: Sequence[Callable[[int, int], bool]]) -> Callable[[int, int], bool]:
    return lambda a, b: not any(ok(a, b) for ok in oks)


def _apart(d: int) -> Callable[[int, int], bool]:
    return lambda a, b: abs(a - b) >= d


def _strict_items(rules: Sequence[Rule], n: int) -> dict[Rule, str]:
    """The relations that ISS's global switches say: ``AntiConsecutive``, and
    ``StrictKropki`` / ``StrictXV`` (every neighbour pair without a mark of the family is
    in neither of its relations)."""
    everywhere = {
        (a, b) for a in range(n * n) for b in (a + 1, a + n) if b < n * n and _orthogonal(n, a, b)
    }
    relations = [r for r in rules if isinstance(r, Relation)]
    out: dict[Rule, str] = {}
    families = {
        "StrictKropki": [lambda a, b: abs(a - b) == 1, lambda a, b: a == 2 * b or b == 2 * a],
        "StrictXV": [lambda a, b: a + b == 10, lambda a, b: a + b == 5],
    }
    for kind, oks in families.items():
        tables = [_table(n, ok) for ok in oks]
        marked = {
            tuple(sorted(p))
            for r in relations
            if r.allowed in tables and all(_orthogonal(n, *p) for p in r.pairs)
            for p in r.pairs
        }
        negative = _table(n, _none_of(oks))
        for r in relations:
            pairs = {tuple(sorted(p)) for p in r.pairs}
            if r.allowed == negative and pairs == everywhere - marked and not pairs & marked:
                out[r] = _item(kind)
    for r in relations:
        if r.allowed == _table(n, lambda a, b: abs(a - b) != 1):
            if {tuple(sorted(p)) for p in r.pairs} == everywhere:
                out[r] = _item("AntiConsecutive")
    return out


def _both_ways(unit: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return unit, unit[::-1]


def _relation_items(rule: Relation, n: int, cid: Callable[[int], str]) -> list[str]:
    """A relation as named marks when its table and pairs are theirs, else a Pair table."""
    allowed = rule.allowed
    pairs = rule.pairs
    adjacent = all(_orthogonal(n, a, b) for a, b in pairs)
    named = {
        "WhiteDot": _table(n, lambda a, b: abs(a - b) == 1),
        "BlackDot": _table(n, lambda a, b: a == 2 * b or b == 2 * a),
        "X": _table(n, lambda a, b: a + b == 10),
        "V": _table(n, lambda a, b: a + b == 5),
        "GreaterThan": _table(n, lambda a, b: a > b),
    }
    if adjacent:
        for kind, table in named.items():
            if allowed == table:
                return [_item(kind, cid(a), cid(b)) for a, b in pairs]
    if allowed == _table(n, lambda a, b: a < b):
        return [_item("Thermo", *map(cid, path)) for path in _chains(pairs)]
    for d in range(1, n):
        if allowed == _table(n, _apart(d)):
            return [_item("Whisper", d, *map(cid, path)) for path in _chains(pairs)]
    if allowed == _table(n, lambda a, b: a == b):
        return [_item("Palindrome", cid(a), cid(b)) for a, b in pairs]
    lines = _cliques(pairs)
    if lines and all(allowed == _table(n, _within(len(line))) for line in lines):
        return [_item("Renban", *map(cid, line)) for line in lines]
    items = [cid(c) if c is not None else "" for c in _joined(pairs)]
    return [_item("Pair", _encode_key(allowed, n), *items)]


def _within(k: int) -> Callable[[int, int], bool]:
    return lambda a, b: 0 < abs(a - b) < k


def _cliques(pairs: Sequence[tuple[int, int]]) -> list[list[int]] | None:
    """The cells of each connected group of pairs when every group holds all its pairs
    once (renban lines), in order of appearance; None otherwise."""
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    seen: set[int] = set()
    lines = []
    for start in neighbours:
        if start in seen:
            continue
        line, todo = [], [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            line.append(c)
            for d in neighbours[c]:
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        lines.append(sorted(line, key=list(neighbours).index))
    complete = all(len(neighbours[c]) == len(line) - 1 for line in lines for c in line)
    unique = len({frozenset(p) for p in pairs}) == len(pairs)
    return lines if complete and unique else None


def _joined(pairs: Sequence[tuple[int, int]]) -> list[int | None]:
    """Pairs as ISS consecutive-pair groups: chains, separated by an empty item (None)."""
    out: list[int | None] = []
    for path in _chains(pairs):
        if out:
            out.append(None)
        out += path
    return out


def _sum_items(rule: Sum, cid: Callable[[int], str]) -> list[str]:
    """Sum groups as cages, arrows or ISS sums with coefficients (plus AllDifferent for a
    weighted distinct group)."""
    out = []
    for g in rule.groups:
        ids = [cid(c) for c in g.cells]
        if g.distinct and all(w == 1 for w in g.weights):
            out.append(_item("Cage", g.total, *ids))
            continue
        if (
            not g.distinct
            and g.total == 0
            and g.weights[0] == -1
            and all(w == 1 for w in g.weights[1:])
            and len(ids) > 1
        ):
            out.append(_item("Arrow", *ids))
            continue
        if any(abs(w) > 100 for w in g.weights):
            raise ValueError(f"rule {rule.name!r}: ISS coefficients stay within -100..100")
        head = str(g.total)
        if any(w != 1 for w in g.weights):
            head += "_=_" + "_".join(map(str, g.weights))
        out.append(_item("Sum", head, *ids))
        if g.distinct:
            out.append(_item("AllDifferent", *ids))
    return out


# -- table rules -----------------------------------------------------------------------------
_NUMBER = r"(\d+)"
_CLUE = r"(\d+|-)"
#: The table rules ISS names, by the name their constructor gives them (see
#: :mod:`sudoku_model.rules.tables`).
_TABLE_NAMES = {
    "between": re.compile(r"between lines"),
    "lockout": re.compile(rf"lockout lines \({_NUMBER}\)(: ends)?"),
    "quad": re.compile(r"quadruples \(([\d, ]+)\)"),
    "equality": re.compile(rf"equality cages \({_NUMBER} cells\)"),
    "rellik": re.compile(rf"rellik cages \({_NUMBER}, {_NUMBER} cells\)"),
    "segment": re.compile(rf"segment sum (lines|loops) \({_NUMBER}, {_NUMBER} cells\)"),
    "look and say": re.compile(rf"look-and-say cages \({_NUMBER}, {_NUMBER} cells\)"),
    "lunchbox": re.compile(rf"lunchboxes \({_NUMBER}, {_NUMBER} cells\)"),
    "x-sum": re.compile(rf"x-sums \({_CLUE}, {_CLUE}\)"),
    "skyscraper": re.compile(rf"skyscrapers \({_CLUE}, {_CLUE}\)"),
}


#: The global table rules ISS names by a flag, by the name of their (first) rule.
_GLOBAL_TABLES: dict[str, tuple[str, Callable[[Shape], Sequence[Table]]]] = {
    "global entropy": ("GlobalEntropy", lambda shape: (table_rules.global_entropy_rule(shape),)),
    "global mod 3": ("GlobalMod", lambda shape: (table_rules.global_mod_rule(shape),)),
    "dutch flatmates": ("DutchFlatmates", table_rules.dutch_flatmates_rules),
}


def _global_tables(rules: Sequence[Rule], shape: Shape) -> dict[str, set[Rule]]:
    """The ISS flags whose rules are all in ``rules``, with those rules."""
    out: dict[str, set[Rule]] = {}
    names = {r.name for r in rules}
    for name, (kind, make) in _GLOBAL_TABLES.items():
        if name not in names:
            continue
        try:
            made: set[Rule] = set(make(shape))
        except RuleError:
            continue
        if made <= set(rules):
            out[kind] = made
    return out


_VALUE_INDEXING = re.compile(r"value indexing \((\d+) of (\d+)\)")


def _value_indexing_items(
    rules: Sequence[Rule], shape: Shape, cid: Callable[[int], str]
) -> tuple[list[str], set[Rule]]:
    """The ValueIndexing lines of the value indexing rules (which split each line by
    position), and those rules; none when the lines do not rebuild the very same rules."""
    found = [
        (r, m) for r in rules if isinstance(r, Table) and (m := _VALUE_INDEXING.fullmatch(r.name))
    ]
    if not found:
        return [], set()
    lines: dict[tuple[int, int], dict[int, int]] = {}
    for rule, m in found:
        j = int(m.group(1))
        for control, value, cell in rule.scopes:
            lines.setdefault((value, control), {})[j] = cell
    cells = [[v, c, *(at[j] for j in sorted(at))] for (v, c), at in lines.items()]
    try:
        again = table_rules.value_indexing_rules(shape, cells)
    except RuleError:
        again = ()
    if set(again) != {r for r, _ in found}:
        raise ValueError("value indexing rules that no ValueIndexing lines state")
    return [_item("ValueIndexing", *map(cid, line)) for line in cells], set(again)


def _table_items(rule: Table, shape: Shape, cid: Callable[[int], str]) -> list[str]:
    """A table rule as the ISS items of the kind its name says, when its constructor,
    given what the items hold, builds the very same rule (name, scopes and tuples).

    Raises:
        ValueError: for a table rule of no ISS kind, or one whose tuples are not those of
            its kind.
    """
    for kind, pattern in _TABLE_NAMES.items():
        m = pattern.fullmatch(rule.name)
        if m is None:
            continue
        try:
            items, again = _table_kind(kind, m.groups(), rule, shape, cid)
        except RuleError:
            break
        if rule in again:
            return items
        break
    raise ValueError(f"rule {rule.name!r}: a table of digit tuples that no ISS kind states")


def _ends_lines(scopes: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """(end, end, middle) scopes as lines: consecutive scopes sharing their ends."""
    lines: list[list[int]] = []
    for a, b, m in scopes:
        if lines and (lines[-1][0], lines[-1][-1]) == (a, b):
            lines[-1].insert(-1, m)
        else:
            lines.append([a, m, b])
    return lines


def _house_id(shape: Shape, cells: tuple[int, ...]) -> tuple[str, bool]:
    """``R3`` or ``C3`` of a row or column, and whether ``cells`` run backwards."""
    for prefix, houses in (("R", shape.rows), ("C", shape.columns)):
        for k, house in enumerate(houses, 1):
            if cells in (house, house[::-1]):
                return f"{prefix}{k}", cells != house
    raise RuleError("not a row or column")


def _table_kind(
    kind: str,
    groups: tuple[str | None, ...],
    rule: Table,
    shape: Shape,
    cid: Callable[[int], str],
) -> tuple[list[str], Sequence[Table]]:
    """The ISS items of a table rule of ``kind`` (its name's fields in ``groups``), and the
    rules its constructor makes of the same lines, cages or clues."""
    scopes = rule.scopes
    ids = lambda cells: [cid(c) for c in cells]  # noqa: E731
    if kind == "between":
        lines = _ends_lines(scopes)
        return [_item("Between", *ids(x)) for x in lines], [table_rules.between_rule(shape, lines)]
    if kind == "lockout":
        d = int(groups[0] or 0)
        lines = [list(s) for s in scopes] if groups[1] else _ends_lines(scopes)
        items = [_item("Lockout", d, *ids(x)) for x in lines]
        return items, table_rules.lockout_rules(shape, [(d, x) for x in lines])
    if kind == "quad":
        values = [int(v) for v in (groups[0] or "").split(", ")]
        corners = [s[0] for s in scopes]
        items = [_item("Quad", cid(c), *values) for c in corners]
        return items, table_rules.quadruple_rules(shape, [(c, values) for c in corners])
    if kind == "equality":
        return [_item("EqualityCage", *ids(s)) for s in scopes], (
            table_rules.equality_cage_rules(shape, scopes)
        )
    if kind in ("rellik", "lunchbox"):
        total = int(groups[0] or 0)
        name, make = (
            ("RellikCage", table_rules.rellik_cage_rules)
            if kind == "rellik"
            else ("Lunchbox", table_rules.lunchbox_rules)
        )
        return [_item(name, total, *ids(s)) for s in scopes], make(
            shape, [(total, s) for s in scopes]
        )
    if kind == "segment":
        loop = groups[0] == "loops"
        total = int(groups[1] or 0)
        tail = ["LOOP"] if loop else []
        items = [_item("SumLine", total, *ids(s), *tail) for s in scopes]
        return items, table_rules.segment_sum_rules(shape, [(total, s, loop) for s in scopes])
    if kind == "look and say":
        clue = groups[0] or ""
        items = [_item("LookAndSay", clue, *ids(s)) for s in scopes]
        return items, table_rules.look_and_say_rules(shape, [(clue, s) for s in scopes])
    # x-sums and skyscrapers: a clue at each end of a row or column
    start, end = (None if g == "-" else int(g or 0) for g in groups)
    outside = "XSum" if kind == "x-sum" else "Skyscraper"
    make_outside = table_rules.x_sum_rules if kind == "x-sum" else table_rules.skyscraper_rules
    items = []
    for s in scopes:
        house, backwards = _house_id(shape, s)
        first, last = (end, start) if backwards else (start, end)
        items.append(
            _item(outside, house, "" if first is None else first, "" if last is None else last)
        )
    return items, make_outside(shape, [(s, start, end) for s in scopes])
