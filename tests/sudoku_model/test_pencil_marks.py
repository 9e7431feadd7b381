"""Pencil marks under all the rules (sudoku_model.pencil_marks) and where they are drawn:
on a killer puzzle the marks are the digits the cages and the givens' peers leave (checked
against an independent enumeration of each cage's digit sets), never the true digit
removed, and no mark's box overlaps a cage total's."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.cli import main
from sudoku_model.display import draw
from sudoku_model.formats import puzzle_to_json
from sudoku_model.pencil_marks import candidates, mark_boxes
from sudoku_model.rules import killer_rule

SVG_NS = "{http://www.w3.org/2000/svg}"
S9 = Shape(3, 3)
SOLUTION = Grid.parse(
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)


def _cages() -> list[tuple[list[int], int]]:
    """Cages of two or three cells along each row (the last one of a row wraps nothing),
    totals from SOLUTION: 2, 3, 2, 2 cells per row."""
    out = []
    for r in range(9):
        start = 0
        for width in (2, 3, 2, 2):
            cells = [r * 9 + start + i for i in range(width)]
            out.append((cells, sum(SOLUTION.values[c] for c in cells)))
            start += width
    return out


def _killer(givens: dict[int, int]) -> Puzzle:
    values = [0] * 81
    for c, v in givens.items():
        values[c] = v
    rules = RuleSet.classic(S9).with_rules([killer_rule(S9, _cages())])
    return Puzzle(Grid(S9, tuple(values)), rules)


def _cage_digits(size: int, total: int, placed: set[int]) -> set[int]:
    """The test's own enumeration: digits of distinct-digit sets of ``size`` summing to
    ``total`` that hold every placed digit."""
    out: set[int] = set()
    for combo in itertools.combinations(range(1, 10), size):
        if sum(combo) == total and placed <= set(combo):
            out |= set(combo) - placed
    return out


GIVENS = {0: 5, 13: 9, 40: 5, 57: 5, 80: 9}  # digits of SOLUTION


def test_killer_marks_respect_cages_and_peers() -> None:
    puzzle = _killer(GIVENS)
    values = puzzle.givens.values
    marks = candidates(puzzle.rules, values)
    peers = puzzle.rules.peers
    for cells, total in _cages():
        placed = {values[c] for c in cells if values[c]}
        allowed = _cage_digits(len(cells), total, placed)
        for c in cells:
            if values[c]:
                assert marks[c] == frozenset()
                continue
            # sound: the solution's digit is never removed
            assert SOLUTION.values[c] in marks[c]
            # the cage's digit sets and the givens' peers both hold
            assert marks[c] <= allowed, (c, sorted(marks[c]), sorted(allowed))
            assert not marks[c] & {values[p] for p in peers[c]}
    # and they do prune: far fewer than 9 marks a cell
    assert sum(len(m) for m in marks) < 0.6 * 9 * (81 - len(GIVENS))
    # a two-cell cage of 17 holds 8 and 9 only
    assert candidates(RuleSet.classic(S9).with_rules([killer_rule(S9, [([0, 1], 17)])]), [0] * 81)[
        0
    ] == frozenset({8, 9})


def test_contradictory_digits_fall_back_to_the_peers() -> None:
    rules = RuleSet.classic(S9).with_rules([killer_rule(S9, [([0, 1], 3)])])
    values = [0] * 81
    values[0] = 9  # breaks the cage of 3: the drawing still shows marks from the peers
    marks = candidates(rules, values)
    assert marks[1] == frozenset(range(1, 9))


def _boxes(svg: str) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Boxes (x0, y0, x1, y1) of the pencil marks (text centred on x, y: a digit is about
    0.62 em wide and 0.75 em tall) and of the cage totals' background patches."""
    root = ET.fromstring(svg)
    marks, totals = [], []
    for e in root.iter(f"{SVG_NS}text"):
        if e.get("class") == "pencil":
            x, y, s = (float(e.get(k, "nan")) for k in ("x", "y", "font-size"))
            marks.append((x - 0.31 * s, y - 0.375 * s, x + 0.31 * s, y + 0.375 * s))
    for e in root.iter(f"{SVG_NS}rect"):
        if e.get("class") == "cage-total-background":
            x, y, w, h = (float(e.get(k, "nan")) for k in ("x", "y", "width", "height"))
            totals.append((x, y, x + w, y + h))
    return marks, totals


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("cell_size", [None, 20.0, 60.0])
def test_no_mark_overlaps_a_cage_total(cell_size: float | None) -> None:
    puzzle = _killer(GIVENS)
    options = {} if cell_size is None else {"cell_size": cell_size}
    svg = str(draw(puzzle, pencil_marks=True, **options))
    marks, totals = _boxes(svg)
    assert len(marks) == sum(len(m) for m in candidates(puzzle.rules, puzzle.givens.values))
    assert len(totals) == len(_cages())
    clashes = [(m, t) for m in marks for t in totals if _overlap(m, t)]
    assert not clashes, clashes[:3]


def test_mark_layouts_stay_in_the_cell_and_below_the_label() -> None:
    for n in (4, 6, 9, 16, 25):
        plain, _ = mark_boxes(n)
        inside, below = mark_boxes(n, 0.35)
        assert inside.size == below.size
        for box in (plain, inside, below):
            for d in range(1, n + 1):
                x, y = box.centre(d)
                assert x - box.size * 0.31 >= 0 and x + box.size * 0.31 <= 1
                assert y - box.size * 0.375 >= 0 and y + box.size * 0.375 <= 1
        assert min(below.centre(d)[1] for d in range(1, n + 1)) - below.size * 0.375 > 0.35


def test_render_pencil_marks_of_a_killer_through_the_cli(tmp_path: Path) -> None:
    puzzle = _killer(GIVENS)
    source = tmp_path / "killer.json"
    import json

    source.write_text(json.dumps(puzzle_to_json(puzzle)), encoding="utf-8")
    out = tmp_path / "k.svg"
    code = main(["render", str(source), "--pencil-marks", "--page", "board", "--to", str(out)])
    assert code == 0
    marks, totals = _boxes(out.read_text(encoding="utf-8"))
    assert totals and marks
    assert len(marks) == sum(len(m) for m in candidates(puzzle.rules, puzzle.givens.values))
    assert not any(_overlap(m, t) for m in marks for t in totals)
