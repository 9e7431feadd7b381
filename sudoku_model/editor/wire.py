"""The editor's wire format: puzzles as JSON objects, validated, and the layout the page
draws (regions, shaded units, lines, captions) derived from the rules as data.

A puzzle on the wire is the variant JSON file format's rule fields (``box`` or ``size``,
``variants``, ``regions``, ``constraints``: killer cages, thermometers, arrows, dots...; see
:mod:`sudoku_model.formats` and :mod:`sudoku_model.variant_formats`) plus two lists of
whole numbers, one per cell, row-major, 0 for empty:

* ``givens``: the clues (the puzzle itself);
* ``values``: what the grid shows now, givens included (optional: the givens);

and, for a pencilmark puzzle (clues given as candidates), ``candidates``: one list of
digits per cell, the cell's candidate clues, ``[]`` where the cell is not restricted
(optional; a list of all n digits is no restriction either). They become the puzzle's
candidates rule (:meth:`sudoku_model.Puzzle.from_candidates`), so every question asked of
the puzzle respects them.

>>> obj = {"box": [2, 2], "givens": [0, 2] + [0] * 14}
>>> edit = decode_puzzle(obj)
>>> edit.puzzle.clues, edit.rules.shape
(1, Shape(2, 2))
>>> encode_puzzle(edit.puzzle)["givens"][:3]
[0, 2, 0]
>>> pm = decode_puzzle({"box": [2, 2], "givens": [0] * 16, "candidates": [[1, 2]] + [[]] * 15})
>>> pm.puzzle.is_pencilmark, encode_puzzle(pm.puzzle)["candidates"][:2]
(True, [[1, 2], []])

The rule fields are read by :func:`sudoku_model.formats.puzzle_from_json`, so a rule kind
that the file format learns is accepted here without a change but one: its field name goes
into :data:`RULE_FIELDS`. The page draws rules from :func:`layout`, whose decorations are
generic (``line``, ``shade``, ``cage``, ``dot``, ``mark``, ``outside``, ``caption``); the
all-different rules are drawn through :data:`DECORATORS`, every other rule (relations,
domains, sums, sandwiches) through :func:`sudoku_model.rule_marks.rule_marks`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError, ShapeError, SudokuError
from ..geometry import Shape, shape_for_size
from ..grid import DEFAULT_ALPHABET, Grid
from ..puzzle import Puzzle, rules_without_candidates
from ..rules import CANDIDATES_RULE, AllDifferent, ConstraintRule, Different, Domain, Rule, RuleSet

__all__ = [
    "ApiError",
    "DECORATORS",
    "EditedPuzzle",
    "RULE_FIELDS",
    "decode_puzzle",
    "decode_rules",
    "encode_puzzle",
    "layout",
]

#: The rule fields of a puzzle object (those of the variant JSON file format).
RULE_FIELDS = ("box", "size", "variants", "regions", "constraints")
#: The value fields the editor adds.
VALUE_FIELDS = ("givens", "values", "candidates")


class ApiError(SudokuError):
    """A request the editor refuses: an HTTP status, a short code and a message for a
    person; ``field`` names the offending request field when there is one."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            error["field"] = self.field
        return {"error": error}


def bad(message: str, field: str | None = None) -> ApiError:
    """A 400 "bad request" error."""
    return ApiError(400, "bad_request", message, field)


@dataclass(frozen=True)
class EditedPuzzle:
    """A puzzle being edited: its rules, its givens and what the grid shows now."""

    rules: RuleSet
    givens: Grid
    values: Grid

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle of the givens alone."""
        return Puzzle(self.givens, self.rules)

    @property
    def current(self) -> Puzzle:
        """The grid as it stands, every filled cell taken as a clue (what is counted)."""
        return Puzzle(self.values, self.rules)


def _whole(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f'"{field}" must be a whole number, got {type(value).__name__}', field)
    return value


def decode_shape(obj: dict[str, Any]) -> Shape:
    """The shape named by ``box`` ([rows, columns]) or ``size`` (n).

    Raises:
        ApiError: 400 when neither is there or the shape is not supported.
    """
    try:
        if "box" in obj:
            box = obj["box"]
            if not (isinstance(box, list) and len(box) == 2):
                raise bad('"box" must be [rows, columns]', "box")
            return Shape(_whole(box[0], "box"), _whole(box[1], "box"))
        if "size" in obj:
            return shape_for_size(_whole(obj["size"], "size"))
    except ShapeError as exc:
        raise bad(f"bad shape: {exc}", "box" if "box" in obj else "size") from None
    raise bad('a puzzle needs "box" ([rows, columns]) or "size"', "box")


def decode_rules(obj: Any, *, allowed: tuple[str, ...] = RULE_FIELDS) -> RuleSet:
    """The rule set of a puzzle object's rule fields.

    Raises:
        ApiError: 400 for a field that is not allowed, a bad shape or bad rule data.
    """
    from ..formats import puzzle_from_json

    if not isinstance(obj, dict):
        raise bad("a puzzle must be a JSON object", "puzzle")
    unknown = sorted(k for k in obj if k not in allowed)
    if unknown:
        raise bad(
            f"unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(allowed)}",
            unknown[0],
        )
    shape = decode_shape(obj)
    fields = {k: obj[k] for k in RULE_FIELDS if k in obj and k not in ("box", "size")}
    fields["puzzle"] = "." * shape.cell_count
    try:
        puzzle, _ = puzzle_from_json(fields, shape=shape, source="<request>")
    except ParseError as exc:
        raise bad(f"bad rule data: {exc.message}", "rules") from None
    return puzzle.rules


def _cells(raw: Any, field: str, shape: Shape) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise bad(f'"{field}" must be a list of {shape.cell_count} whole numbers', field)
    if len(raw) != shape.cell_count:
        raise bad(
            f'"{field}" has {len(raw)} cells; a {shape.name} grid has {shape.cell_count}', field
        )
    n = shape.size
    out = []
    for i, v in enumerate(raw):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= n:
            raise bad(
                f'"{field}": cell {shape.cell_name(i)} holds {v!r}; '
                f"a {n}x{n} grid takes 0 (empty) to {n}",
                field,
            )
        out.append(v)
    return tuple(out)


def decode_puzzle(obj: Any) -> EditedPuzzle:
    """Read and check a puzzle object (see the module notes).

    Raises:
        ApiError: 400 naming the field for anything malformed: a missing or unknown field,
            a shape that is not supported, bad rule data, a wrong number of cells, a value
            outside 0..n, a given that ``values`` changes.
    """
    rules = decode_rules(obj, allowed=RULE_FIELDS + VALUE_FIELDS)
    shape = rules.shape
    if "givens" not in obj:
        raise bad('missing "givens" (one whole number per cell, 0 for empty)', "givens")
    givens = _cells(obj["givens"], "givens", shape)
    values = givens if obj.get("values") is None else _cells(obj["values"], "values", shape)
    changed = [c for c, g in enumerate(givens) if g and values[c] != g]
    if changed:
        raise bad(
            '"values" changes the givens at ' + ", ".join(shape.cell_name(c) for c in changed[:5]),
            "values",
        )
    if obj.get("candidates") is not None:
        rules = _with_candidates(rules, obj["candidates"])
    return EditedPuzzle(rules, Grid._trusted(shape, givens), Grid._trusted(shape, values))


def _with_candidates(rules: RuleSet, raw: Any) -> RuleSet:
    """``rules`` plus the candidates rule of a ``candidates`` field (see the module notes).

    Raises:
        ApiError: 400 for a list of the wrong length or an entry that is not a list of
            distinct digits 1..n.
    """
    shape = rules.shape
    n = shape.size
    if not isinstance(raw, list) or len(raw) != shape.cell_count:
        raise bad(
            f'"candidates" must be a list of {shape.cell_count} lists of digits', "candidates"
        )
    restricted: list[tuple[int, frozenset[int]]] = []
    for cell, digits in enumerate(raw):
        if not isinstance(digits, list) or not all(
            not isinstance(d, bool) and isinstance(d, int) and 1 <= d <= n for d in digits
        ):
            raise bad(
                f'"candidates": cell {shape.cell_name(cell)} must list digits 1..{n}, '
                f"got {digits!r}"[:200],
                "candidates",
            )
        if len(set(digits)) != len(digits):
            raise bad(
                f'"candidates": cell {shape.cell_name(cell)} lists a digit twice', "candidates"
            )
        if digits and len(digits) < n:
            restricted.append((cell, frozenset(digits)))
    if not restricted:
        return rules
    return rules_without_candidates(rules).with_rules([Domain(CANDIDATES_RULE, tuple(restricted))])


def encode_rules(rules: RuleSet) -> dict[str, Any]:
    """The rule fields of a rule set (``box``, ``variants``, ``regions`` when a jigsaw,
    ``constraints`` when it has killer cages, dots, other constraint rules or all-different
    units beyond its variants')."""
    from ..variant_formats import constraints_to_json

    d = rules.to_json()
    d["variants"] = [v for v in rules.variants if v not in ("classic", "jigsaw")]
    # extra all-different units are no constraint rules, but the list holds them too
    constraints = constraints_to_json(rules)
    if constraints:
        d["constraints"] = constraints
    return d


def encode_puzzle(puzzle: Puzzle, values: Grid | None = None) -> dict[str, Any]:
    """The wire object of a puzzle (``values``: what the grid shows; the givens if None)."""
    d = encode_rules(puzzle.rules)
    d["givens"] = list(puzzle.givens.values)
    d["values"] = list((values or puzzle.givens).values)
    if puzzle.is_pencilmark:
        n = puzzle.size
        d["candidates"] = [
            sorted(ds) if not given and len(ds) < n else []
            for given, ds in zip(puzzle.givens.values, puzzle.candidates, strict=True)
        ]
    return d


# -- layout: what the page draws -----------------------------------------------------------
Decoration = dict[str, Any]
#: Rule name -> the decorations that draw it (a function of the rule and the shape).
#: Rows, columns and boxes/regions need none: the page draws cells and region borders.
DECORATORS: dict[str, Callable[[Rule, Shape], list[Decoration]]] = {}


def _diagonals(rule: Rule, shape: Shape) -> list[Decoration]:
    assert isinstance(rule, AllDifferent)
    return [{"kind": "line", "cells": list(unit), "style": "diagonal"} for unit in rule.units]


def _windows(rule: Rule, shape: Shape) -> list[Decoration]:
    assert isinstance(rule, AllDifferent)
    return [{"kind": "shade", "cells": list(unit), "style": "window"} for unit in rule.units]


def _caption(text: str) -> Callable[[Rule, Shape], list[Decoration]]:
    return lambda rule, shape: [{"kind": "caption", "text": text, "rule": rule.name}]


DECORATORS.update(
    {
        "diagonals": _diagonals,
        "windoku": _windows,
        # As in the SVG output: rules the grid cannot show are named under it.
        "anti-knight": _caption("anti-knight: cells a knight's move apart differ"),
        "anti-king": _caption("anti-king: diagonally touching cells differ"),
    }
)

_DRAWN_BY_GRID = ("rows", "columns", "boxes", "regions")
#: All-different units that :func:`sudoku_model.rule_marks.rule_marks` draws (as cages).
_DRAWN_BY_MARKS = ("cages without totals",)


def _sign(n: int, bigger: int, smaller: int) -> str:
    """The greater-than sign between two orthogonal neighbours, its point at the smaller."""
    (ra, ca), (rb, cb) = divmod(bigger, n), divmod(smaller, n)
    if ra == rb:
        return ">" if cb > ca else "<"
    return "\u2228" if rb > ra else "\u2227"  # v or ^


def _mark_decorations(rules: RuleSet) -> list[Decoration]:
    """The decorations of the rules that are not all-different (killer cages, dots...),
    from :func:`sudoku_model.rule_marks.rule_marks`; what it cannot picture it names, and
    those names become captions."""
    from ..display.decorations import line_legend
    from ..rule_marks import rule_marks

    marks = rule_marks(rules)
    n = rules.shape.size
    out: list[Decoration] = []
    for cage in marks.cages:
        d: Decoration = {"kind": "cage", "cells": list(cage.cells)}
        if cage.corner is not None:
            d["text"] = cage.corner
        if cage.look != "killer":
            d["style"] = cage.look
        out.append(d)
    for thermo in marks.thermometers:
        out.append(
            {"kind": "line", "cells": list(thermo.cells), "style": "thermo", "bulb": thermo.bulb}
        )
    for arrow in marks.arrows:
        out.append(
            {
                "kind": "line",
                "cells": [arrow.circle[-1], *arrow.shaft],
                "style": "arrow",
                "circle": list(arrow.circle),
            }
        )
    for edge in marks.edges:
        cells = [edge.a, edge.b]
        if edge.look in ("white-dot", "black-dot"):
            out.append({"kind": "dot", "cells": cells, "style": edge.look.split("-")[0]})
        else:
            d = {"kind": "edge", "cells": cells, "text": edge.look}
            if edge.look == "greater":
                d.update(style="greater", text=_sign(n, edge.a, edge.b))
            out.append(d)
    for mark in marks.cells:
        out.append({"kind": "shade", "cells": [mark.cell], "style": mark.look})
    for line in marks.sum_lines:
        out.append(
            {"kind": "line", "cells": list(line.cells), "style": "sum", "text": str(line.total)}
        )
    for variant_line in marks.lines:
        d = {"kind": "line", "cells": list(variant_line.cells), "style": variant_line.look}
        ends = [variant_line.cells[0], variant_line.cells[-1]]
        if variant_line.look in ("double-arrow", "between"):
            d["circle"] = ends
        elif variant_line.look == "lockout":
            d["diamond"] = ends
        if variant_line.text is not None:
            d["text"] = variant_line.text
        out.append(d)
    for quad in marks.quadruples:
        text = " ".join(map(str, quad.digits))
        out.append({"kind": "quad", "cells": [quad.corner], "text": text})
    for clue in marks.outside:
        d = {"kind": "outside", "row": clue.row, "col": clue.col, "text": clue.text}
        if clue.direction is not None:
            d["direction"] = list(clue.direction)
        if clue.look != "sandwich":
            d["style"] = clue.look
        out.append(d)
    legend = [*line_legend(marks), *marks.captions]
    out.extend({"kind": "caption", "text": text, "rule": "constraints"} for text in legend)
    return out


def layout(rules: RuleSet) -> dict[str, Any]:
    """What the page needs to draw a grid of these rules: ``size``, ``box``, the
    ``symbols`` of values 1..n, the ``regions`` label of each cell (thick borders between
    different labels: boxes, or the jigsaw regions), and ``decorations``, a list of
    ``{"kind": ..., "cells": [...], "style": ..., "text": ...}`` where kind is

    * ``shade`` (style ``window``, ``even``: a grey square, ``odd``: a grey circle);
    * ``line`` (style ``diagonal``; ``thermo`` with ``bulb``; ``arrow`` from the last
      ``circle`` cell along the shaft; ``sum`` with its total as ``text``; a variant line's
      look, with ``circle`` or ``diamond`` end cells and a lunchbox's total as ``text``);
    * ``cage`` (dashed outline, its total as ``text`` when it has one; style ``equality``,
      ``rellik`` or ``look-and-say`` with that cage's corner ``text``);
    * ``quad``: a quadruple's digits (``text``) in a circle on the bottom-right corner of
      its one cell;
    * ``dot`` (style ``white`` or ``black``) and ``edge`` (``text`` X or V; style
      ``greater`` for a greater-than sign, the bigger cell first, its ``text`` the sign)
      on the edge between its two cells;
    * ``outside``: ``text`` at ``row``, ``col`` one step outside the grid (-1 or n), with
      a little killer's ``direction``, and style ``x-sum`` or ``skyscraper`` for those
      clues;
    * ``caption``: a line of text under the grid.

    A rule with nothing to draw is named in a caption, never silently left out."""
    shape = rules.shape
    regions = rules.regions
    labels = (
        list(regions) if regions is not None else [shape.box_of(c) for c in range(shape.cell_count)]
    )
    decorations: list[Decoration] = []
    for rule in rules.rules:
        if rule.name in _DRAWN_BY_GRID + _DRAWN_BY_MARKS or isinstance(rule, ConstraintRule):
            continue
        draw = DECORATORS.get(rule.name)
        if draw is not None:
            decorations.extend(draw(rule, shape))
        else:
            what = "all different" if isinstance(rule, AllDifferent) else "different pairs"
            if not isinstance(rule, (AllDifferent, Different)):
                what = getattr(rule, "kind", "rule")
            decorations.append(
                {"kind": "caption", "text": f"{rule.name}: {what}", "rule": rule.name}
            )
    # a pencilmark puzzle's candidates are clues, drawn in the cells from the puzzle's
    # ``candidates`` field, not a rule to picture
    decorations.extend(_mark_decorations(rules_without_candidates(rules)))
    return {
        "size": shape.size,
        "box": [shape.box_rows, shape.box_cols],
        "symbols": DEFAULT_ALPHABET.symbols[: shape.size],
        "regions": labels,
        "variants": [v for v in rules.variants if v != "classic"],
        "decorations": decorations,
    }
