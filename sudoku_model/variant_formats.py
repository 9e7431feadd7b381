"""Files of variant puzzles: the ``constraints`` of the variant JSON, the killer CSV, and
f-puzzles JSON (plain or lz-string compressed).

:mod:`sudoku_model.formats` calls in here; this module imports nothing of ``formats`` at
import time (its records are built through a late import).

Variant JSON ``constraints`` (cells are ``"r1c1"`` strings, 1-based, any case)::

    "constraints": [
      {"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3},
                                   {"cells": ["r2c1", "r3c1"]}]},
      {"type": "little-killer", "lines": [{"cells": ["r1c2", "r2c3"], "sum": 9}]},
      {"type": "arrow", "arrows": [{"circle": ["r1c1"], "shaft": ["r2c2", "r3c3"]}]},
      {"type": "thermometer", "lines": [["r1c1", "r1c2", "r1c3"]]},
      {"type": "kropki", "white": [["r1c1", "r1c2"]], "black": [], "negative": false},
      {"type": "xv", "x": [["r1c1", "r2c1"]], "v": [], "negative": false},
      {"type": "greater-than", "pairs": [["r1c1", "r1c2"]]},
      {"type": "non-consecutive"},
      {"type": "even-odd", "even": ["r1c1"], "odd": ["r9c9"]},
      {"type": "sandwich", "rows": [10, null, ...], "columns": [null, 0, ...]},
      {"type": "distinct", "name": "extra region 1", "units": [["r1c1", "r2c2", ...]]},
      {"type": "relation", "name": "...", "pairs": [[...]], "allowed": [[1, 2], ...]},
      {"type": "sum", "name": "...", "groups": [{"cells": [...], "weights": [...],
                                                 "total": 0, "distinct": false}]},
      {"type": "table", "name": "...", "scopes": [["r1c1", "r1c2", "r2c1"], ...],
       "allowed": [[1, 2, 3], ...]}
    ]

An arrow's circle of two cells reads as a two-digit number, its first cell the tens. A
greater-than pair names the bigger cell first. A killer cage without ``"sum"`` only holds
different digits (f-puzzles has such cages): it is the all-different unit of the rule named
``cages without totals``. ``distinct`` carries any other all-different units beyond the
named variants (an f-puzzles extra region, one diagonal, disjoint groups). ``relation``,
``sum`` and ``table`` are the raw kinds (:class:`~sudoku_model.rules.Relation`,
:class:`~sudoku_model.rules.Sum`, :class:`~sudoku_model.rules.Table`: the digit tuples
allowed on each scope of cells, in order): whatever :func:`constraints_to_json` cannot name
otherwise is written that way, so every rule set round-trips.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import ParseError, ShapeError
from .geometry import Shape, shape_for_cell_count, shape_for_size
from .grid import Grid
from .puzzle import Puzzle
from .rules import (
    CANDIDATES_RULE,
    AllDifferent,
    Domain,
    Relation,
    Rule,
    RuleError,
    RuleSet,
    Sandwich,
    Sum,
    SumGroup,
    Table,
    arrow_rule,
    greater_than_rule,
    killer_rule,
    kropki_rules,
    nonconsecutive_rule,
    parity_rule,
    sandwich_rule,
    sum_lines_rule,
    thermometer_rule,
    xv_rules,
)

if TYPE_CHECKING:
    from .formats import Record

__all__ = [
    "CONSTRAINT_TYPES",
    "constraints_from_json",
    "constraints_to_json",
    "decompress_lz_base64",
    "fpuzzles_records",
    "is_killer_csv_header",
    "killer_csv_records",
    "parse_cell",
    "puzzle_from_fpuzzles",
]

#: The ``type`` values of the variant JSON ``constraints`` list.
CONSTRAINT_TYPES = (
    "killer",
    "little-killer",
    "arrow",
    "thermometer",
    "kropki",
    "xv",
    "greater-than",
    "non-consecutive",
    "even-odd",
    "sandwich",
    "distinct",
    "relation",
    "sum",
    "table",
)

#: The rule holding the cages without totals (all-different units; the display draws them
#: as cages).
PLAIN_CAGES = "cages without totals"

_CELL = re.compile(r"\s*[rR](\d+)\s*[cC](\d+)\s*")


def parse_cell(text: object, shape: Shape, *, outside: bool = False) -> int | tuple[int, int]:
    """The index of a ``"r3c7"`` cell (1-based). With ``outside``, the 0-based
    ``(row, col)`` pair, which may lie one step outside the grid (f-puzzles clues).

    Raises:
        ValueError: for anything else, or a cell outside the grid.
    """
    m = _CELL.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f'{json.dumps(text)} is not a cell like "r1c1"')
    r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
    n = shape.size
    if outside:
        if not (-1 <= r <= n and -1 <= c <= n):
            raise ValueError(f"{text} is outside the {n}x{n} grid")
        return r, c
    if not (0 <= r < n and 0 <= c < n):
        raise ValueError(f"{text} is outside the {n}x{n} grid")
    return r * n + c


def _cells(raw: object, shape: Shape, what: str) -> list[int]:
    if not isinstance(raw, list):
        raise ValueError(f"{what} must be a list of cells, got {json.dumps(raw)[:60]}")
    return [parse_cell(x, shape) for x in raw]  # type: ignore[misc]


def _pairs(raw: object, shape: Shape, what: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise ValueError(f"{what} must be a list of cell pairs")
    out = []
    for p in raw:
        cells = _cells(p, shape, what)
        if len(cells) != 2:
            raise ValueError(f"{what}: {json.dumps(p)} is not two cells")
        out.append((cells[0], cells[1]))
    return out


def _number(raw: object, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"{what} must be a whole number, got {json.dumps(raw)[:40]}")
    return raw


def _clues(raw: object, n: int, what: str) -> dict[int, int]:
    if raw is None:
        return {}
    if not isinstance(raw, list) or len(raw) != n:
        raise ValueError(f'"{what}" must be a list of {n} numbers or nulls')
    return {i: _number(v, what) for i, v in enumerate(raw) if v is not None}


def constraints_from_json(raw: object, shape: Shape) -> list[Rule]:
    """The rules of a variant JSON ``constraints`` list (see the module docs).

    Raises:
        ValueError: naming the entry (its index and type) and what is wrong, including
            the :class:`~sudoku_model.rules.RuleError` of a rule that cannot hold.
    """
    if not isinstance(raw, list):
        raise ValueError('"constraints" must be a list of objects')
    rules: list[Rule] = []
    for k, entry in enumerate(raw, 1):
        kind = entry.get("type") if isinstance(entry, dict) else None
        try:
            if kind not in CONSTRAINT_TYPES:
                raise ValueError(
                    f"unknown type {json.dumps(kind)}; known: {', '.join(CONSTRAINT_TYPES)}"
                )
            assert isinstance(entry, dict)
            rules.extend(_constraint(kind, entry, shape))
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError) as exc:
            # a field of the wrong type (a number where a list of cells belongs...): still
            # an error naming the entry, never another exception
            detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            if isinstance(exc, (TypeError, AttributeError, IndexError)):
                detail = f"a field of the wrong type ({exc})"
            raise ValueError(f"constraint {k} ({_short_json(kind)}): {detail}") from None
    return rules


def _short_json(value: object) -> str:
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _constraint(kind: str, e: Mapping[str, Any], shape: Shape) -> list[Rule]:
    n = shape.size
    if kind == "killer":
        if not isinstance(e["cages"], list):
            raise ValueError('"cages" must be a list of objects')
        summed, plain = [], []
        for c in e["cages"]:
            cells = _cells(c["cells"], shape, "cells")
            if c.get("sum") is None:
                plain.append(tuple(cells))
            else:
                summed.append((cells, _number(c["sum"], "sum")))
        out: list[Rule] = [killer_rule(shape, summed)] if summed else []
        if plain:
            out.append(AllDifferent(PLAIN_CAGES, tuple(plain)))
        return out
    if kind == "distinct":
        units = e["units"]
        if not isinstance(units, list) or not units:
            raise ValueError('"units" must be a non-empty list of cell lists')
        return [
            AllDifferent(str(e["name"]), tuple(tuple(_cells(u, shape, "units")) for u in units))
        ]
    if kind == "little-killer":
        lines = [(_cells(c["cells"], shape, "cells"), _number(c["sum"], "sum")) for c in e["lines"]]
        return [sum_lines_rule(shape, lines)]
    if kind == "arrow":
        arrows = [
            (_cells(a["circle"], shape, "circle"), _cells(a["shaft"], shape, "shaft"))
            for a in e["arrows"]
        ]
        return [arrow_rule(shape, arrows)]
    if kind == "thermometer":
        return [thermometer_rule(shape, [_cells(t, shape, "line") for t in e["lines"]])]
    if kind == "kropki":
        white = _pairs(e.get("white", []), shape, "white")
        black = _pairs(e.get("black", []), shape, "black")
        return list(kropki_rules(shape, white, black, negative=bool(e.get("negative"))))
    if kind == "xv":
        xs = _pairs(e.get("x", []), shape, "x")
        vs = _pairs(e.get("v", []), shape, "v")
        return list(xv_rules(shape, xs, vs, negative=bool(e.get("negative"))))
    if kind == "greater-than":
        return [greater_than_rule(shape, _pairs(e["pairs"], shape, "pairs"))]
    if kind == "non-consecutive":
        return [nonconsecutive_rule(shape)]
    if kind == "even-odd":
        even = _cells(e.get("even", []), shape, "even")
        odd = _cells(e.get("odd", []), shape, "odd")
        return [parity_rule(shape, even, odd)]
    if kind == "sandwich":
        return [
            sandwich_rule(
                shape, _clues(e.get("rows"), n, "rows"), _clues(e.get("columns"), n, "columns")
            )
        ]
    if kind == "relation":
        allowed = frozenset(
            (_number(p[0], "allowed"), _number(p[1], "allowed")) for p in e["allowed"]
        )
        rule: Relation | Sum | Table = Relation(
            str(e["name"]), tuple(_pairs(e["pairs"], shape, "pairs")), allowed
        )
    elif kind == "table":
        scopes = e["scopes"]
        rows = e["allowed"]
        if not isinstance(scopes, list) or not isinstance(rows, list):
            raise ValueError('"scopes" and "allowed" must be lists')
        rule = Table(
            str(e["name"]),
            tuple(tuple(_cells(scope, shape, "scopes")) for scope in scopes),
            frozenset(tuple(_number(d, "allowed") for d in _row(row)) for row in rows),
        )
    else:  # "sum"
        groups = []
        for g in e["groups"]:
            cells = _cells(g["cells"], shape, "cells")
            weights = [_number(w, "weights") for w in g.get("weights", [1] * len(cells))]
            groups.append(
                SumGroup(
                    tuple(cells),
                    tuple(weights),
                    _number(g["total"], "total"),
                    bool(g.get("distinct")),
                )
            )
        rule = Sum(str(e["name"]), tuple(groups))
    rule.validate(shape)
    return [rule]


def _row(raw: object) -> list[object]:
    if not isinstance(raw, list):
        raise ValueError(f"an allowed entry must be a list of digits, got {_short_json(raw)}")
    return raw


# -- writing -------------------------------------------------------------------------------
def _names(shape: Shape, cells: Iterable[int]) -> list[str]:
    return [shape.cell_name(c) for c in cells]


def _chains(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Thermometer paths back from their pairs (each path's pairs were consecutive)."""
    paths: list[list[int]] = []
    for a, b in pairs:
        if paths and paths[-1][-1] == a:
            paths[-1].append(b)
        else:
            paths.append([a, b])
    return paths


def _variant_rules(rules: RuleSet) -> frozenset[Rule]:
    """The rules that the rule set's variant names and regions stand for (what
    ``"variants"`` and ``"regions"`` of the JSON already say)."""
    names = [v for v in rules.variants if v != "classic"]
    try:
        return frozenset(RuleSet.build(rules.shape, names, rules.regions).rules)
    except (ValueError, ShapeError):
        return frozenset()


def constraints_to_json(rules: RuleSet) -> list[dict[str, Any]]:
    """The ``constraints`` list of a rule set (empty when its variant names say it all).

    Rules made by the constructors of :mod:`sudoku_model.rules` are written by their
    names; any other relation, sum, domain or sandwich in its raw form, tables as
    ``table``; all-different
    units beyond the variants' as ``distinct`` (cages without totals as killer cages
    without ``"sum"``). Reading the list back with :func:`constraints_from_json` (after
    the variants) gives equal rules, in the same order.
    """
    shape = rules.shape
    out: list[dict[str, Any]] = []
    pending_dots: dict[str, Any] | None = None
    named = _variant_rules(rules)
    for rule in rules.rules:
        if isinstance(rule, AllDifferent) and rule not in named:
            pending_dots = None
            units = [_names(shape, u) for u in rule.units]
            if rule.name == PLAIN_CAGES:
                out.append({"type": "killer", "cages": [{"cells": u} for u in units]})
            else:
                out.append({"type": "distinct", "name": rule.name, "units": units})
            continue
        if isinstance(rule, Table) and rule not in named:
            pending_dots = None
            out.append(
                {
                    "type": "table",
                    "name": rule.name,
                    "scopes": [_names(shape, scope) for scope in rule.scopes],
                    "allowed": sorted([list(t) for t in rule.allowed]),
                }
            )
            continue
        if not isinstance(rule, (Relation, Domain, Sum, Sandwich)):
            continue
        if isinstance(rule, Domain) and rule.name == CANDIDATES_RULE:
            continue  # a pencilmark puzzle's candidates: its "puzzle" line says them
        name = rule.name
        if isinstance(rule, Relation) and name.startswith(("kropki ", "XV ")):
            family = "kropki" if name.startswith("kropki") else "xv"
            keys = {"kropki white": "white", "kropki black": "black", "XV x": "x", "XV v": "v"}
            if pending_dots is None or pending_dots["type"] != family:
                pending_dots = {"type": family}
                out.append(pending_dots)
            if name in keys:
                pending_dots[keys[name]] = [_names(shape, p) for p in rule.pairs]
            else:
                pending_dots["negative"] = True
            continue
        pending_dots = None
        if isinstance(rule, Relation) and name == "thermometers":
            out.append(
                {"type": "thermometer", "lines": [_names(shape, p) for p in _chains(rule.pairs)]}
            )
        elif isinstance(rule, Relation) and name == "greater-than":
            out.append({"type": "greater-than", "pairs": [_names(shape, p) for p in rule.pairs]})
        elif isinstance(rule, Relation) and name == "non-consecutive":
            out.append({"type": "non-consecutive"})
        elif isinstance(rule, Relation):
            out.append(
                {
                    "type": "relation",
                    "name": name,
                    "pairs": [_names(shape, p) for p in rule.pairs],
                    "allowed": sorted([list(p) for p in rule.allowed]),
                }
            )
        elif isinstance(rule, Domain):
            even = [shape.cell_name(c) for c, ds in rule.cells if min(ds) % 2 == 0]
            odd = [shape.cell_name(c) for c, ds in rule.cells if min(ds) % 2 == 1]
            out.append({"type": "even-odd", "even": even, "odd": odd})
        elif isinstance(rule, Sum) and name == "killer":
            cages = [{"cells": _names(shape, g.cells), "sum": g.total} for g in rule.groups]
            out.append({"type": "killer", "cages": cages})
        elif isinstance(rule, Sum) and name == "little killer":
            lines = [{"cells": _names(shape, g.cells), "sum": g.total} for g in rule.groups]
            out.append({"type": "little-killer", "lines": lines})
        elif isinstance(rule, Sum) and name == "arrows":
            arrows = []
            for g in rule.groups:
                circle = [c for c, w in zip(g.cells, g.weights) if w < 0]
                shaft = [c for c, w in zip(g.cells, g.weights) if w > 0]
                arrows.append({"circle": _names(shape, circle), "shaft": _names(shape, shaft)})
            out.append({"type": "arrow", "arrows": arrows})
        elif isinstance(rule, Sum):
            groups = [
                {
                    "cells": _names(shape, g.cells),
                    "weights": list(g.weights),
                    "total": g.total,
                    "distinct": g.distinct,
                }
                for g in rule.groups
            ]
            out.append({"type": "sum", "name": name, "groups": groups})
        elif isinstance(rule, Sandwich):
            rows: list[int | None] = [None] * shape.size
            columns: list[int | None] = [None] * shape.size
            for line, total in rule.lines:
                if line in shape.rows:
                    rows[shape.rows.index(line)] = total
                else:
                    columns[shape.columns.index(line)] = total
            out.append({"type": "sandwich", "rows": rows, "columns": columns})
    return out


# -- killer CSV ----------------------------------------------------------------------------
def is_killer_csv_header(fields: Sequence[str]) -> bool:
    """True for the header of the krazydad killer CSV (``puzz_color`` and ``puzz_hint``)."""
    names = {f.strip().strip("\ufeff\"' ").lower() for f in fields}
    return {"puzz_color", "puzz_hint"} <= names


def killer_from_letters(letters: str, totals: Sequence[int], shape: Shape) -> RuleSet:
    """Classic rules plus killer cages: one letter per cell (same letter, same cage) and the
    totals in order of each letter's first appearance.

    Raises:
        ValueError: for a letter count other than n*n or a total count other than the
            number of cages; RuleError for a cage whose total cannot be reached.
    """
    if len(letters) != shape.cell_count:
        raise ValueError(f"{len(letters)} cage letters for {shape.cell_count} cells")
    order = list(dict.fromkeys(letters))
    if len(order) != len(totals):
        raise ValueError(f"{len(order)} cages but {len(totals)} totals")
    members: dict[str, list[int]] = {}
    for cell, letter in enumerate(letters):
        members.setdefault(letter, []).append(cell)
    cages = [(members[letter], total) for letter, total in zip(order, totals)]
    return RuleSet.classic(shape).with_rules([killer_rule(shape, cages)])


def killer_csv_records(
    content: Iterator[tuple[int, str, str]],
    header: Sequence[str],
    name: str,
    shape: Shape | None,
    variants: Sequence[str],
    *,
    delimiter: str = ",",
) -> Iterator[Record]:
    """Records of the krazydad killer CSV (``puzz_color``: ``K`` then one cage letter per
    cell; ``puzz_hint``: the cage totals in order of first appearance; ``solved``: the
    solution), the header already read. No givens. Other columns go to ``Record.extra``.
    ``variants`` are added to the classic rules.
    """
    import csv

    from .formats import Record

    names = [f.strip().strip("\ufeff\"' ").lower() for f in header]
    color, hint = names.index("puzz_color"), names.index("puzz_hint")
    solved = names.index("solved") if "solved" in names else -1
    for lineno, text, _ in content:

        def bad(msg: str, column: int = 1, text: str = text, lineno: int = lineno) -> Record:
            err = ParseError(msg, source=name, line=lineno, column=column, text=text)
            return Record(name, lineno, text, None, err)

        try:
            fields = next(csv.reader([text], delimiter=delimiter), [])
        except csv.Error as exc:
            yield bad(f"bad CSV row: {exc}")
            continue
        if max(color, hint, solved) >= len(fields):
            yield bad(f"row has {len(fields)} fields; the header names {len(names)}", len(text))
            continue
        column = max(text.find(fields[color]), 0) + 1
        letters = fields[color].strip()
        if letters[:1] == "K" and len(letters) - 1 in (16, 36, 81, 144, 256):
            letters = letters[1:]  # krazydad's marker letter before the cells
        try:
            shp = shape or shape_for_cell_count(len(letters))
            totals = [_total(t) for t in fields[hint].split(",") if t.strip()]
            rules = killer_from_letters(letters, totals, shp)
            if variants:
                built = RuleSet.build(shp, variants)
                rules = built.with_rules(rules.constraint_rules)
            solution = None
            if solved >= 0 and fields[solved].strip():
                solution = Grid.parse(fields[solved].strip(), shape=shp)
        except (ValueError, ShapeError) as exc:
            what = "puzz_hint" if "total" in str(exc) else "puzz_color"
            yield bad(f"{what}: {exc}", column)
            continue
        # fields beyond the header's (a row with more fields than the header) are kept
        # under column names of their own
        extra = {
            ((header[i].strip() if i < len(header) else "") or f"column{i + 1}"): f
            for i, f in enumerate(fields)
            if i not in (color, hint, solved)
        }
        yield Record(
            name, lineno, text, Puzzle(Grid.empty(shp), rules), None, "", solution, extra=extra
        )


def _total(text: str) -> int:
    """A cage total of ``puzz_hint``.

    Raises:
        ValueError: for anything but a whole number (naming it as a total).
    """
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"cage total {text.strip()[:20]!r} is not a whole number") from None


# -- f-puzzles -----------------------------------------------------------------------------
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


#: The longest text :func:`decompress_lz_base64` writes (characters): far above any
#: puzzle's JSON, far below what would exhaust memory (the dictionary holds as much again).
MAX_LZ_TEXT = 1 << 23


def decompress_lz_base64(text: str) -> str:
    """lz-string's ``decompressFromBase64`` (the ``load=`` parameter of f-puzzles links).

    The stream is a sequence of codes of a growing bit width, read least significant bit
    first from 6-bit base64 digits: code 0 or 1 brings a new 8- or 16-bit character, 2
    ends the text, higher codes name dictionary entries (LZW with the "previous entry plus
    first character of the next" rule).

    The text may not grow beyond :data:`MAX_LZ_TEXT` characters: a stream of a few
    kilobytes can name entries that grow by one character a code, and so megabytes of
    text per kilobyte.

    Raises:
        ValueError: for a character outside base64, a stream that is not lz-string, or a
            text that would grow beyond :data:`MAX_LZ_TEXT` characters.
    """
    text = text.strip().replace(" ", "+")
    values = []
    for ch in text:
        v = _B64.find(ch)
        if v < 0:
            raise ValueError(f"{ch!r} is not a base64 character")
        values.append(v)
    if not values:
        return ""
    position = 0  # bit index in the stream
    total_bits = len(values) * 6

    def read(width: int) -> int:
        nonlocal position
        if position + width > total_bits + 6:
            raise ValueError("the lz-string stream ends in the middle of a code")
        out = 0
        for k in range(width):
            index, bit = divmod(position, 6)
            if index < len(values) and values[index] & (32 >> bit):
                out |= 1 << k
            position += 1
        return out

    dictionary: list[str] = ["", "", ""]
    width = 3
    budget = 4  # codes left before the width grows
    head = read(2)
    if head == 2:
        return ""
    if head not in (0, 1):
        raise ValueError("not an lz-string stream")
    w = chr(read(8 if head == 0 else 16))
    dictionary.append(w)
    result = [w]
    length = 1
    while True:
        code = read(width)
        if code in (0, 1):
            dictionary.append(chr(read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            budget -= 1
            if budget == 0:
                budget = 1 << width
                width += 1
        elif code == 2:
            # JavaScript strings are UTF-16: join the surrogate pairs into characters
            return "".join(result).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = w + w[0]
        else:
            raise ValueError("not an lz-string stream (a code names no entry)")
        length += len(entry)
        if length > MAX_LZ_TEXT:
            raise ValueError(f"the lz-string text grows beyond {MAX_LZ_TEXT:,} characters")
        result.append(entry)
        dictionary.append(w + entry[0])
        budget -= 1
        w = entry
        if budget == 0:
            budget = 1 << width
            width += 1


#: f-puzzles keys that draw without constraining (titles, colours, pencil marks...).
_FPUZZLES_COSMETIC = {
    "size", "grid", "title", "author", "ruleset", "solution", "cage", "text", "line",
    "circle", "rectangle", "disabledlogic", "truecandidatesoptions", "highlight",
}  # fmt: skip
_FPUZZLES_SUPPORTED = {
    "killercage", "littlekillersum", "arrow", "thermometer", "difference", "ratio", "xv",
    "negative", "nonconsecutive", "even", "odd", "sandwichsum", "diagonal+", "diagonal-",
    "antiknight", "antiking", "extraregion", "disjointgroups",
}  # fmt: skip


def _fpuzzles_object(text: str) -> Any:
    s = text.strip()
    if "load=" in s:
        s = s.split("load=", 1)[1].split("&", 1)[0]
        from urllib.parse import unquote

        s = unquote(s)
    if s.startswith("{"):
        return json.loads(s)
    return json.loads(decompress_lz_base64(s))


def _value(entry: Mapping[str, Any], what: str) -> int:
    raw = entry.get("value")
    try:
        return int(str(raw).strip())
    except ValueError:
        raise ValueError(f"{what} has no numeric value ({json.dumps(raw)})") from None


def puzzle_from_fpuzzles(obj: Any) -> tuple[Puzzle, Grid | None]:
    """A puzzle from an f-puzzles object (``json.loads`` of the text, or of
    :func:`decompress_lz_base64` of a link's ``load=`` string), with its solution when the
    file has one.

    Supported: givens, regions, killer cages, little killers, arrows, thermometers, kropki
    (difference and ratio dots, default values), XV, the negative constraints of these,
    non-consecutive, even/odd, sandwich sums, diagonals, anti-knight, anti-king, extra
    regions, disjoint groups. Cosmetic keys (lines, circles, text...) are ignored.

    Raises:
        ValueError: naming the first unsupported constraint, or what is malformed (a
            field of the wrong type included: never another exception, whatever the
            object holds); ShapeError for an unsupported size; RuleError for a rule that
            cannot hold.
    """
    try:
        return _puzzle_from_fpuzzles(obj)
    except (TypeError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        raise ValueError(f"a field of the wrong type ({type(exc).__name__}: {exc})") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _entries(obj: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The list of objects under ``key`` (empty when absent or empty).

    Raises:
        ValueError: when it is not a list of objects.
    """
    raw = obj.get(key)
    if not raw:
        return []
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise ValueError(f'"{key}" must be a list of objects, got {_short_json(raw)}')
    return raw


def _lines_of(entry: Mapping[str, Any], key: str) -> list[Any]:
    raw = entry.get("lines")
    if not raw:
        return []
    if not isinstance(raw, list):
        raise ValueError(f'"{key}": "lines" must be a list of cell lists, got {_short_json(raw)}')
    return raw


def _two(cells: list[int], key: str) -> tuple[int, int]:
    if len(cells) != 2:
        raise ValueError(f'"{key}": a mark joins two cells, got {len(cells)}')
    return cells[0], cells[1]


def _puzzle_from_fpuzzles(obj: Any) -> tuple[Puzzle, Grid | None]:
    if not isinstance(obj, dict) or not isinstance(obj.get("grid"), list):
        raise ValueError('an f-puzzles object needs "size" and "grid"')
    unsupported = sorted(
        k for k, v in obj.items() if k not in _FPUZZLES_COSMETIC | _FPUZZLES_SUPPORTED and v
    )
    if unsupported:
        raise ValueError(f"unsupported f-puzzles constraint {unsupported[0]!r}")
    shape = shape_for_size(_number(obj.get("size"), "size"))
    n = shape.size
    grid = obj["grid"]
    if len(grid) != n or any(not isinstance(row, list) or len(row) != n for row in grid):
        raise ValueError(f'"grid" must be {n} rows of {n} cells')
    values = [0] * (n * n)
    labels = [shape.box_of(c) for c in range(n * n)]
    custom_regions = False
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise ValueError(f"grid cell r{r + 1}c{c + 1} is not an object")
            if cell.get("given") and cell.get("value"):
                values[r * n + c] = _number(cell["value"], f"r{r + 1}c{c + 1}")
            if "region" in cell and cell["region"] is not None:
                labels[r * n + c] = _number(cell["region"], "region")
                custom_regions = True
    variants = []
    if obj.get("antiknight"):
        variants.append("anti-knight")
    if obj.get("antiking"):
        variants.append("anti-king")
    rules = RuleSet.build(shape, variants, labels if custom_regions else None)

    def cells_of(raw: Any, what: str) -> list[int]:
        return _cells(raw, shape, what)

    extra: list[Rule] = []
    units = []
    if obj.get("diagonal-"):
        units.append(("diagonal-", tuple(i * n + i for i in range(n))))
    if obj.get("diagonal+"):
        units.append(("diagonal+", tuple((n - 1 - i) * n + i for i in range(n))))
    for k, region in enumerate(_entries(obj, "extraregion"), 1):
        units.append((f"extra region {k}", tuple(cells_of(region.get("cells"), "extraregion"))))
    if obj.get("disjointgroups"):
        groups = tuple(tuple(box[i] for box in shape.boxes) for i in range(n))
        units.extend((f"disjoint group {i + 1}", g) for i, g in enumerate(groups))
    for label, unit in units:
        extra.append(AllDifferent(label, (unit,)))
    cages, plain_cages = [], []
    for cage in _entries(obj, "killercage"):
        cells = cells_of(cage.get("cells"), "killercage")
        if cage.get("value") in (None, ""):
            plain_cages.append(tuple(cells))
        else:
            cages.append((cells, _value(cage, "killercage")))
    if cages:
        extra.append(killer_rule(shape, cages))
    if plain_cages:
        extra.append(AllDifferent(PLAIN_CAGES, tuple(plain_cages)))
    lines = []
    for clue in _entries(obj, "littlekillersum"):
        if clue.get("value") in (None, ""):
            continue
        lines.append(
            (cells_of(clue.get("cells"), "littlekillersum"), _value(clue, "littlekillersum"))
        )
    if lines:
        extra.append(sum_lines_rule(shape, lines))
    arrows = []
    for arrow in _entries(obj, "arrow"):
        circle = cells_of(arrow.get("cells"), "arrow")
        for line in _lines_of(arrow, "arrow"):
            shaft = [c for c in cells_of(line, "arrow") if c not in circle]
            arrows.append((circle, shaft))
    if arrows:
        extra.append(arrow_rule(shape, arrows))
    thermos = [
        cells_of(line, "thermometer")
        for t in _entries(obj, "thermometer")
        for line in _lines_of(t, "thermometer")
    ]
    if thermos:
        extra.append(thermometer_rule(shape, thermos))
    raw_negative = obj.get("negative") or []
    if not isinstance(raw_negative, list) or not all(isinstance(k, str) for k in raw_negative):
        raise ValueError(f'"negative" must be a list of names, got {_short_json(raw_negative)}')
    negative = set(raw_negative)
    dots: dict[str, list[tuple[int, int]]] = {"difference": [], "ratio": []}
    for key, default in (("difference", 1), ("ratio", 2)):
        for dot in _entries(obj, key):
            if dot.get("value") not in (None, "") and _value(dot, key) != default:
                raise ValueError(
                    f"unsupported f-puzzles constraint {key!r} with value {dot['value']}"
                )
            dots[key].append(_two(cells_of(dot.get("cells"), key), key))
    if dots["difference"] or dots["ratio"] or negative & {"difference", "ratio"}:
        both = {"difference", "ratio"} <= negative
        extra.extend(kropki_rules(shape, dots["difference"], dots["ratio"], negative=both))
        if not both and negative & {"difference", "ratio"}:
            raise ValueError(
                "unsupported f-puzzles constraint 'negative' for only one kind of kropki dot"
            )
    xs: list[tuple[int, int]] = []
    vs: list[tuple[int, int]] = []
    for sign in _entries(obj, "xv"):
        a, b = _two(cells_of(sign.get("cells"), "xv"), "xv")
        value = str(sign.get("value", "")).upper()
        if value not in ("X", "V"):
            raise ValueError(f"xv sign with value {json.dumps(sign.get('value'))}")
        (xs if value == "X" else vs).append((a, b))
    if xs or vs or "xv" in negative:
        extra.extend(xv_rules(shape, xs, vs, negative="xv" in negative))
    if obj.get("nonconsecutive"):
        extra.append(nonconsecutive_rule(shape))
    even = [cells_of([e.get("cell")], "even")[0] for e in _entries(obj, "even")]
    odd = [cells_of([e.get("cell")], "odd")[0] for e in _entries(obj, "odd")]
    if even or odd:
        extra.append(parity_rule(shape, even, odd))
    rows: dict[int, int] = {}
    columns: dict[int, int] = {}
    for clue in _entries(obj, "sandwichsum"):
        r, c = parse_cell(clue.get("cell"), shape, outside=True)  # type: ignore[misc]
        total = _value(clue, "sandwichsum")
        if r in (-1, n) and 0 <= c < n:
            columns[c] = total
        elif c in (-1, n) and 0 <= r < n:
            rows[r] = total
        else:
            raise ValueError(
                f"sandwichsum clue at {clue.get('cell')} is not beside a row or column"
            )
    if rows or columns:
        extra.append(sandwich_rule(shape, rows, columns))
    solution = None
    raw_solution = obj.get("solution")
    if (
        isinstance(raw_solution, list)
        and len(raw_solution) == n * n
        and all(isinstance(v, int) and 1 <= v <= n for v in raw_solution)
    ):
        solution = Grid(shape, raw_solution)
    return Puzzle(Grid(shape, values), rules.with_rules(extra) if extra else rules), solution


def fpuzzles_records(
    content: Iterable[tuple[int, str]], name: str, variants: Sequence[str] = ()
) -> Iterator[Record]:
    """One record per f-puzzles link, compressed string or one-line JSON object.

    ``variants`` are refused (an f-puzzles file names its own rules): a record saying so.
    """
    from .formats.record import one_puzzle_a_line

    def parse(text: str) -> tuple[Puzzle, Grid | None]:
        return puzzle_from_fpuzzles(_fpuzzles_object(text))

    # puzzle_from_fpuzzles turns every wrongly typed field into a ValueError;
    # json.JSONDecodeError and UnicodeError are ValueErrors too
    return one_puzzle_a_line(
        content,
        name,
        variants,
        parse,
        "f-puzzles",
        (ValueError, ShapeError, RuleError, RecursionError),
    )
