"""The rules of a puzzle as text, one line per kind (the listing of ``sudoku show``): every
mark :func:`sudoku_model.rule_marks.rule_marks` reads from the rules (cages, thermometers,
arrows, dots and signs, even and odd cells, sum lines, variant lines, clues outside the
grid, quadruples) with its cells named, the captions of what has no mark (the global
rules, the legends of the table kinds), and the all-different units and pairs beyond the
named variants (an f-puzzles extra region, a single diagonal). Rows, columns, boxes,
jigsaw regions and the named variants are left to the grid and the header; the candidates
of a pencilmark puzzle to its grid.

>>> from sudoku_model.geometry import Shape
>>> from sudoku_model.rules import RuleSet, killer_rule
>>> s = Shape(2, 2)
>>> describe_rules(RuleSet.classic(s).with_rules([killer_rule(s, [((0, 1), 3)])]))
['killer cages: the digits differ and sum to the total: r1c1,r1c2 (3)']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .geometry import Shape
from .rule_lines import describe_lines
from .rule_marks import Cage, OutsideClue, rule_marks
from .rules import CANDIDATES_RULE, AllDifferent, Different, RuleSet

__all__ = ["describe_rules"]

#: All-different rules the grid or the header already shows.
_SHOWN_UNITS = frozenset(
    {
        "rows",
        "columns",
        "boxes",
        "regions",
        "diagonals",
        "windoku",
        "anti-knight",
        "anti-king",
        "cages without totals",  # listed with the cages
    }
)

_CAGE_LABELS = {
    "killer": "killer cages: the digits differ and sum to the total",
    "plain": "cages without totals: the digits differ",
}

#: The start of the caption that says the rule of a table kind's cages, clues or
#: quadruples: the caption becomes the label of their line (a kind is listed once).
_CAPTION_OF = {
    "equality": "equality cages (",
    "rellik": "rellik cages (",
    "look-and-say": "look-and-say cages (",
    "x-sum": "x-sums (",
    "skyscraper": "skyscrapers (",
    "quadruples": "quadruples:",
}

_EDGE_LABELS = {
    "white-dot": ("white dots: the two digits are consecutive", "|"),
    "black-dot": ("black dots: one digit is double the other", "|"),
    "X": ("X: the two digits sum to 10", "|"),
    "V": ("V: the two digits sum to 5", "|"),
    "greater": ("greater-than signs (the bigger digit first)", ">"),
}

_DIRECTIONS = {(1, 1): "down-right", (1, -1): "down-left", (-1, 1): "up-right", (-1, -1): "up-left"}


def _cells(shape: Shape, cells: Iterable[int], sep: str = ",") -> str:
    return sep.join(shape.cell_name(c) for c in cells)


class _Captions:
    """The captions of the marks, each given out once: as the label of the line of its
    kind, or at the end for those no line took."""

    def __init__(self, captions: Iterable[str]) -> None:
        self.left = list(captions)
        self._labels: dict[str, str] = {}

    def label(self, look: str, default: str) -> str:
        """The caption of ``look`` (taken out of those left the first time), else
        ``default``."""
        if look not in self._labels:
            prefix = _CAPTION_OF.get(look)
            found = [c for c in self.left if prefix is not None and c.startswith(prefix)]
            if found:
                self.left.remove(found[0])
            self._labels[look] = found[0] if found else default
        return self._labels[look]


def _grouped(entries: Iterable[tuple[str, str]]) -> list[str]:
    """``label: item; item`` for each label, in order of first appearance."""
    kinds: dict[str, list[str]] = {}
    for label, item in entries:
        kinds.setdefault(label, []).append(item)
    return [f"{label}: {'; '.join(items)}" for label, items in kinds.items()]


def _cage_entries(
    shape: Shape, cages: Sequence[Cage], captions: _Captions
) -> Iterator[tuple[str, str]]:
    for cage in cages:
        look = "plain" if cage.look == "killer" and cage.total is None else cage.look
        label = captions.label(look, _CAGE_LABELS.get(look, f"{look} cages"))
        corner = cage.corner
        item = _cells(shape, cage.cells) + (f" ({corner})" if corner is not None else "")
        yield label, item


def _clue_entry(n: int, clue: OutsideClue, captions: _Captions) -> tuple[str, str]:
    """The label and item of a clue outside the grid: the row or column it is read along
    and the side it stands on, or a little killer's first cell and direction."""
    if clue.direction is not None:
        sr, sc = clue.direction
        first = (clue.row + sr) * n + clue.col + sc
        label = "little killers: the digits along a diagonal sum to the total, repeats allowed"
        return label, f"r{first // n + 1}c{first % n + 1} {_DIRECTIONS[(sr, sc)]} ({clue.text})"
    if clue.col in (-1, n):
        where = f"row {clue.row + 1} from the {'left' if clue.col == -1 else 'right'}"
    else:
        where = f"column {clue.col + 1} from the {'top' if clue.row == -1 else 'bottom'}"
    if clue.look == "sandwich":
        label = f"sandwiches: the digits between the 1 and the {n} sum to the clue"
    else:
        label = captions.label(clue.look, f"{clue.look} clues")
    return label, f"{where} ({clue.text})"


def _unit_entries(rules: RuleSet) -> Iterator[tuple[str, str]]:
    shape = rules.shape
    for rule in rules.rules:
        if rule.name in _SHOWN_UNITS:
            continue
        if isinstance(rule, AllDifferent):
            for unit in rule.units:
                yield f"{rule.name}: the digits differ", _cells(shape, unit)
        elif isinstance(rule, Different):
            for a, b in rule.pairs:
                yield f"{rule.name}: the two digits differ", _cells(shape, (a, b), "|")


def describe_rules(rules: RuleSet) -> list[str]:
    """One text line per kind of rule of ``rules`` beyond rows, columns, boxes, regions
    and the named variants: its label (with what it means when no caption says it), then
    each item's cells and clue (``killer cages: ...: r1c1,r1c2 (3); r3c3,r4c3 (7)``),
    then the captions of :func:`~sudoku_model.rule_marks.rule_marks` no line took as its
    label (a table kind's caption labels its line)."""
    shape, n = rules.shape, rules.shape.size
    marks = rule_marks(rules)
    captions = _Captions(c for c in marks.captions if not c.startswith(f"{CANDIDATES_RULE}:"))
    out = _grouped(_unit_entries(rules))
    out += _grouped(_cage_entries(shape, marks.cages, captions))
    out += _grouped(
        (
            "thermometers: the digits rise from the bulb",
            _cells(shape, t.cells, "-") + ("" if t.bulb else " (a branch)"),
        )
        for t in marks.thermometers
    )
    out += _grouped(
        (
            "arrows: the digits on the shaft sum to the number in the circle",
            f"{_cells(shape, a.circle)} <- {_cells(shape, a.shaft, '-')}",
        )
        for a in marks.arrows
    )
    out += _grouped(
        (_EDGE_LABELS[e.look][0], _cells(shape, (e.a, e.b), _EDGE_LABELS[e.look][1]))
        for e in marks.edges
    )
    out += _grouped((f"{c.look} cells", shape.cell_name(c.cell)) for c in marks.cells)
    out += _grouped(
        (
            "sum lines: the digits sum to the total, repeats allowed",
            f"{_cells(shape, s.cells, '-')} ({s.total})",
        )
        for s in marks.sum_lines
    )
    out += describe_lines(marks.lines, shape)
    out += _grouped(_clue_entry(n, clue, captions) for clue in marks.outside)
    out += _grouped(
        (
            captions.label("quadruples", "quadruples"),
            f"{_cells(shape, (q.corner, q.corner + n + 1), '-')} ({', '.join(map(str, q.digits))})",
        )
        for q in marks.quadruples
    )
    return out + captions.left
