"""Pictures of the rules beyond all-different (issue 16 item 4): every kind drawn where it
belongs, read back from the SVG structure (cell_size=10 and margin=0 put cell (r, c) at
x 10c..10c+10, y 10r..10r+10 unless clues outside the grid widen a margin)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.cli import main
from sudoku_model.display import PAGE_SIZES, book_pages, candidates, draw, write_pages
from sudoku_model.formats import iter_records
from sudoku_model.rule_marks import (
    Arrow,
    Cage,
    EdgeMark,
    OutsideClue,
    SumLine,
    Thermometer,
    rule_marks,
)
from sudoku_model.rules import (
    AllDifferent,
    Domain,
    Relation,
    Sum,
    SumGroup,
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
from tests.datafiles import data_file

SVG_NS = "{http://www.w3.org/2000/svg}"
S9 = Shape(3, 3)
S4 = Shape(2, 2)
KILLER_CSV = data_file("killer-generated.csv")
CELL = 10.0


def cell(r: int, c: int, n: int = 9) -> int:
    """Index of the 1-based cell rNcM."""
    return (r - 1) * n + (c - 1)


def svg_of(shape: Shape, rules: list, values: Grid | None = None) -> str:
    rs = RuleSet.classic(shape).with_rules(rules)
    return draw(Puzzle(values or Grid.empty(shape), rs), cell_size=CELL, margin=0.0)


def elements(svg: str, tag: str, css: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # raises on malformed XML
    return [e for e in root.iter(f"{SVG_NS}{tag}") if css in (e.get("class") or "").split()]


def subpaths(path: ET.Element) -> list[list[tuple[float, float]]]:
    out: list[list[tuple[float, float]]] = []
    for command, x, y in re.findall(r"([ML])([-\d.]+) ([-\d.]+)", path.get("d", "")):
        if command == "M":
            out.append([])
        out[-1].append((float(x), float(y)))
    return out


def centre(c: int, n: int = 9, left: float = 0.0, top: float = 0.0) -> tuple[float, float]:
    r, k = divmod(c, n)
    return left + (k + 0.5) * CELL, top + (r + 0.5) * CELL


def xy(e: ET.Element, a: str = "x", b: str = "y") -> tuple[float, float]:
    return float(e.get(a, "nan")), float(e.get(b, "nan"))


def near(p: tuple[float, float], q: tuple[float, float], tol: float = 0.05) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


# -- killer cages ----------------------------------------------------------------------------
CAGES = [
    ([cell(1, 1), cell(1, 2), cell(2, 1)], 12),  # an L
    ([cell(5, 5)], 5),  # one cell
    # a ring of eight around r8c8: an outline and a hole
    (
        [cell(7, 7), cell(7, 8), cell(7, 9), cell(8, 7), cell(8, 9)]
        + [cell(9, 7), cell(9, 8), cell(9, 9)],
        40,
    ),
    ([cell(3, 3), cell(4, 4)], 9),  # two cells touching at a corner
]


def test_one_dashed_path_per_cage_inset_from_the_cell_borders() -> None:
    svg = svg_of(S9, [killer_rule(S9, CAGES)])
    paths = elements(svg, "path", "cage")
    assert len(paths) == len(CAGES)
    for path, (cells, _) in zip(paths, CAGES):
        assert path.get("stroke-dasharray") and path.get("fill") == "none"
        loops = subpaths(path)
        assert path.get("d", "").count("Z") == len(loops)
        inside = {divmod(c, 9) for c in cells}
        for loop in loops:
            for x, y in loop:
                # every corner is 0.1 cell inside the border of a cell of the cage
                fx, fy = x / CELL % 1, y / CELL % 1
                assert round(fx, 3) in (0.1, 0.9) and round(fy, 3) in (0.1, 0.9), (x, y)
                assert (int(y // CELL), int(x // CELL)) in inside
    # the ring has an outer outline and a hole; the diagonal pair keeps two outlines
    assert [len(subpaths(p)) for p in paths] == [1, 1, 2, 2]
    assert len(subpaths(paths[0])[0]) == 6  # an L has six corners


def test_cage_totals_in_the_top_left_corner_of_the_first_cell() -> None:
    svg = svg_of(S9, [killer_rule(S9, CAGES)])
    totals = elements(svg, "text", "cage-total")
    assert [t.text for t in totals] == [str(total) for _, total in CAGES]
    for t, (cells, _) in zip(totals, CAGES):
        r, c = divmod(min(cells), 9)
        x, y = xy(t)
        assert c * CELL < x < (c + 0.3) * CELL and r * CELL < y < (r + 0.4) * CELL
        assert t.get("text-anchor") == "start"
    # each total sits on a background patch that interrupts the dashed line under it
    assert len(elements(svg, "rect", "cage-total-background")) == len(CAGES)


def test_one_cell_cages_on_a_checkerboard_are_squares() -> None:
    """Cells touching only at corners: each cage keeps its own square outline."""
    svg = svg_of(S9, [killer_rule(S9, [([c], 5) for c in range(0, 81, 2)])])
    paths = elements(svg, "path", "cage")
    assert len(paths) == 41 and all(len(subpaths(p)) == 1 for p in paths)
    assert all(len(subpaths(p)[0]) == 4 for p in paths)  # one cell: a square


def test_the_first_killer_csv_puzzle_renders_every_cage() -> None:
    record = next(iter_records(KILLER_CSV))
    assert record.puzzle is not None and record.solution is not None
    with open(KILLER_CSV, encoding="utf-8") as f:
        f.readline()
        row = f.readline()
    hint = row.split('"')[1].split(",")
    letters = row.split(",")[1][1:]
    svg = draw(record.puzzle, solution=record.solution, cell_size=CELL, margin=0.0)
    paths = elements(svg, "path", "cage")
    assert len(paths) == len(set(letters)) == len(hint) == 36
    assert all(len(subpaths(p)) == 1 for p in paths)  # connected cages without holes
    totals = elements(svg, "text", "cage-total")
    # totals are listed by the letters' first appearance, which is each cage's first cell
    assert [t.text for t in totals] == hint
    firsts = [letters.index(letter) for letter in dict.fromkeys(letters)]
    for t, first in zip(totals, firsts):
        r, c = divmod(first, 9)
        x, y = xy(t)
        assert c * CELL < x < (c + 0.5) * CELL and r * CELL < y < (r + 0.5) * CELL
    assert len(elements(svg, "text", "digit")) == 81


# -- lines: thermometers, arrows, sum lines ----------------------------------------------------
def test_thermometers_bulb_and_tube() -> None:
    main_tube = [cell(4, 1), cell(5, 1), cell(6, 2), cell(6, 3)]
    branch = [cell(4, 1), cell(4, 2)]
    other = [cell(9, 9), cell(8, 9)]
    svg = svg_of(S9, [thermometer_rule(S9, [main_tube, branch, other])])
    tubes = elements(svg, "path", "thermometer")
    assert len(tubes) == 3
    assert all(t.get("stroke-linecap") == "round" for t in tubes)
    assert [subpaths(t)[0] for t in tubes] == [
        [centre(c) for c in main_tube],
        [centre(c) for c in branch],
        [centre(c) for c in other],
    ]
    bulbs = elements(svg, "circle", "thermometer-bulb")
    # the branch leaves the first tube at its bulb: no bulb of its own
    assert [xy(b, "cx", "cy") for b in bulbs] == [centre(main_tube[0]), centre(other[0])]
    assert all(float(b.get("r", 0)) > CELL * 0.3 for b in bulbs)


def test_arrows_circle_shaft_and_head() -> None:
    one = ([cell(4, 4)], [cell(5, 4), cell(6, 4), cell(6, 5)])
    pill = ([cell(2, 7), cell(2, 8)], [cell(3, 8), cell(4, 8)])
    svg = svg_of(S9, [arrow_rule(S9, [one, pill])])
    circles = elements(svg, "circle", "arrow-circle")
    assert [xy(c, "cx", "cy") for c in circles] == [centre(cell(4, 4))]
    assert circles[0].get("fill") == "none"
    pills = elements(svg, "path", "arrow-circle")
    assert len(pills) == 1
    outline = subpaths(pills[0])[0]
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    # around both cells of row 2, columns 7 and 8
    assert 60 < min(xs) < 65 and 75 < max(xs) < 80 and 10 < min(ys) < 15 and 15 < max(ys) < 20
    shafts = elements(svg, "path", "arrow")
    assert len(shafts) == 2
    for path, (circle, shaft) in zip(shafts, [one, pill]):
        line, head = subpaths(path)
        # from the circle's rim through every shaft cell, then a two-armed head at the tip
        assert [p for p in line if p in {centre(c) for c in shaft}] == [centre(c) for c in shaft]
        start = line[0]
        assert (
            min(
                abs(((start[0] - x) ** 2 + (start[1] - y) ** 2) ** 0.5 - 4.0)
                for x, y in (centre(c) for c in circle)
            )
            < 0.05
        )
        assert len(head) == 3 and head[1] == line[-1]
        last = centre(shaft[-1])
        assert ((line[-1][0] - last[0]) ** 2 + (line[-1][1] - last[1]) ** 2) ** 0.5 < CELL * 0.3


def test_little_killer_totals_outside_the_grid_and_sum_lines_inside() -> None:
    lines = [
        ([cell(1, 2), cell(2, 3), cell(3, 4)], 15),  # from above column 1, down-right
        ([cell(9, 9)], 9),  # a corner cell: the clue beyond the corner
        ([cell(4, 9), cell(5, 9)], 8),  # not a diagonal: a sum line
    ]
    rule = sum_lines_rule(S9, lines)
    marks = rule_marks(RuleSet.classic(S9).with_rules([rule]))
    assert marks.outside == (
        OutsideClue(-1, 0, "15", (1, 1)),
        OutsideClue(9, 9, "9", (-1, -1)),
    )
    assert marks.sum_lines == (SumLine((cell(4, 9), cell(5, 9)), 8),)
    assert marks.bands(9) == (False, True, True, True)
    svg = svg_of(S9, [rule])
    band = CELL * 0.8
    clues = elements(svg, "text", "little-killer-clue")
    assert [c.text for c in clues] == ["15", "9"]
    (x1, y1), (x2, y2) = xy(clues[0]), xy(clues[1])
    assert y1 < band and 0 < x1 < CELL  # above the grid, over column 1
    assert x2 > 9 * CELL and y2 > band + 9 * CELL  # beyond the bottom-right corner
    arrows = elements(svg, "path", "little-killer-arrow")
    assert len(arrows) == 2
    (start, tip), _ = subpaths(arrows[0])
    assert tip[0] > start[0] and tip[1] > start[1]  # pointing down-right
    assert len(elements(svg, "path", "sum-line")) == 1
    assert [t.text for t in elements(svg, "text", "sum-line-total")] == ["8"]


def test_a_little_killer_listed_from_either_end_finds_the_outside_end() -> None:
    diagonal = [cell(9, 1), cell(8, 2), cell(7, 3)]  # from the bottom edge, up-right
    for cells in (diagonal, diagonal[::-1]):
        marks = rule_marks(RuleSet.classic(S9).with_rules([sum_lines_rule(S9, [(cells, 12)])]))
        assert marks.outside == (OutsideClue(9, -1, "12", (-1, 1)),)
    inner = [cell(4, 4), cell(5, 5)]  # touches no border: drawn as a line
    marks = rule_marks(RuleSet.classic(S9).with_rules([sum_lines_rule(S9, [(inner, 5)])]))
    assert marks.outside == () and marks.sum_lines == (SumLine(tuple(inner), 5),)


# -- marks on edges and in cells -------------------------------------------------------------
def test_kropki_dots_on_the_edge_between_their_cells() -> None:
    white = [(cell(8, 1), cell(8, 2)), (cell(1, 1), cell(2, 1))]
    black = [(cell(8, 2), cell(9, 2))]
    svg = svg_of(S9, [*kropki_rules(S9, white, black)])
    whites = elements(svg, "circle", "kropki-white")
    blacks = elements(svg, "circle", "kropki-black")
    assert len(whites) == 2 and len(blacks) == 1
    assert {w.get("fill") for w in whites} == {"#ffffff"}
    assert {b.get("fill") for b in blacks} == {"#000000"}
    for dot, (a, b) in zip([*whites, *blacks], [*white, *black]):
        (xa, ya), (xb, yb) = centre(a), centre(b)
        assert near(xy(dot, "cx", "cy"), ((xa + xb) / 2, (ya + yb) / 2))
    assert elements(svg, "text", "caption") == []
    negative = svg_of(S9, [*kropki_rules(S9, white, black, negative=True)])
    assert len(elements(negative, "circle", "kropki-white")) == 2
    caption = " ".join(t.text or "" for t in elements(negative, "text", "caption"))
    assert "without a dot" in caption


def test_xv_letters_and_greater_than_signs_on_edges() -> None:
    x = [(cell(7, 3), cell(7, 4))]
    v = [(cell(8, 4), cell(9, 4))]
    signs = [(cell(5, 6), cell(5, 7)), (cell(4, 6), cell(3, 6))]  # (bigger, smaller)
    svg = svg_of(S9, [*xv_rules(S9, x, v), greater_than_rule(S9, signs)])
    letters = elements(svg, "text", "xv")
    assert [t.text for t in letters] == ["X", "V"]
    for t, (a, b) in zip(letters, x + v):
        (xa, ya), (xb, yb) = centre(a), centre(b)
        assert near(xy(t), ((xa + xb) / 2, (ya + yb) / 2))
        assert t.get("font-weight") == "bold"
    marks = elements(svg, "path", "greater-than")
    assert len(marks) == 2
    for path, (big, small) in zip(marks, signs):
        arm1, tip, arm2 = subpaths(path)[0]
        dist = lambda p, c: (p[0] - centre(c)[0]) ** 2 + (p[1] - centre(c)[1]) ** 2  # noqa: E731
        # the point of the sign is toward the smaller digit, its open side toward the bigger
        assert dist(tip, small) < dist(tip, big)
        assert dist(arm1, big) < dist(arm1, small) and dist(arm2, big) < dist(arm2, small)


def test_even_squares_and_odd_circles() -> None:
    even, odd = [cell(9, 1), cell(2, 2)], [cell(7, 1)]
    svg = svg_of(S9, [parity_rule(S9, even, odd)])
    squares = elements(svg, "rect", "even")
    circles = elements(svg, "circle", "odd")
    assert len(squares) == 2 and len(circles) == 1
    for sq, c in zip(squares, sorted(even)):
        x, y = xy(sq)
        w, h = float(sq.get("width", 0)), float(sq.get("height", 0))
        assert w == h and near((x + w / 2, y + h / 2), centre(c))
    assert near(xy(circles[0], "cx", "cy"), centre(odd[0]))
    # drawn under the grid lines: the first grid line comes after the marks
    root = ET.fromstring(svg)
    classes = [e.get("class") for e in root]
    assert classes.index("even") < classes.index("cell-line")
    assert classes.index("odd") < classes.index("cell-line")


def test_sandwich_clues_left_of_rows_and_above_columns() -> None:
    rule = sandwich_rule(S9, rows={0: 10, 4: 0}, columns={1: 7, 8: 35})
    svg = svg_of(S9, [rule])
    band = CELL * 0.8
    clues = {t.text: xy(t) for t in elements(svg, "text", "sandwich-clue")}
    assert set(clues) == {"10", "0", "7", "35"}
    assert near(clues["10"], (band / 2, band + 0.5 * CELL))  # left of row 1
    assert near(clues["0"], (band / 2, band + 4.5 * CELL))  # left of row 5
    assert near(clues["7"], (band + 1.5 * CELL, band / 2))  # above column 2
    assert near(clues["35"], (band + 8.5 * CELL, band / 2))  # above column 9
    root = ET.fromstring(svg)
    # the grid moves right and down by the band; nothing is added right or below
    assert float(root.get("width", 0)) == band + 9 * CELL
    border = elements(svg, "line", "border")[0]
    assert xy(border, "x1", "y1") == (band, band)


# -- deriving the look from the rule's structure ---------------------------------------------
def test_the_look_comes_from_the_table_not_the_name() -> None:
    consecutive = frozenset((a, b) for a in range(1, 5) for b in range(1, 5) if abs(a - b) == 1)
    less = frozenset((a, b) for a in range(1, 5) for b in range(1, 5) if a < b)
    rules = [
        Relation("my dots", ((0, 1),), consecutive),
        Relation("steps", ((4, 5),), less),  # orthogonal, not a thermometer by name: a sign
        Relation("my thermo", ((8, 9), (9, 10)), less),
        Relation("odd table", ((12, 13),), frozenset({(1, 3)})),
        Domain("low", ((15, frozenset({1, 2})),)),
        Sum("weighted", (SumGroup((2, 3), (2, 1), 7, False),)),
        AllDifferent("cages without totals", ((6, 7),)),
    ]
    marks = rule_marks(RuleSet.classic(S4).with_rules(rules))
    assert marks.edges == (EdgeMark(0, 1, "white-dot"), EdgeMark(5, 4, "greater"))
    assert marks.thermometers == (Thermometer((8, 9, 10), True),)
    assert marks.cages == (Cage((6, 7), None),)
    assert marks.arrows == ()
    assert [c.split(":")[0] for c in marks.captions] == ["odd table", "low", "weighted"]
    svg = draw(Puzzle(Grid.empty(S4), RuleSet.classic(S4).with_rules(rules)))
    captions = " ".join(t.text or "" for t in elements(svg, "text", "caption"))
    assert "odd table" in captions and "weighted" in captions
    assert len(elements(svg, "path", "cage")) == 1
    assert elements(svg, "text", "cage-total") == []


def test_constructors_name_their_rules_and_all_kinds_are_recognised() -> None:
    rules = [
        killer_rule(S9, [([0, 1], 3)]),
        arrow_rule(S9, [([20], [21, 22])]),
        nonconsecutive_rule(S9),
        *xv_rules(S9, [(30, 31)], negative=True),
    ]
    marks = rule_marks(RuleSet.classic(S9).with_rules(rules))
    assert marks.cages == (Cage((0, 1), 3),)
    assert marks.arrows == (Arrow((20,), (21, 22)),)
    assert marks.edges == (EdgeMark(30, 31, "X"),)
    assert any("non-consecutive" in c for c in marks.captions)
    assert any("neither 10 nor 5" in c for c in marks.captions)


def test_pencil_marks_respect_even_cells_and_dots() -> None:
    rules = RuleSet.classic(S9).with_rules([parity_rule(S9, even=[0])])
    assert candidates(rules, [0] * 81)[0] == frozenset({2, 4, 6, 8})


# -- pages, files, the command line ----------------------------------------------------------
VARIANT = {
    "size": 4,
    "puzzle": "................",
    "constraints": [
        {"type": "killer", "cages": [{"cells": ["r1c1", "r2c1"], "sum": 4}]},
        {"type": "kropki", "white": [["r1c1", "r1c2"]], "black": [["r3c3", "r3c4"]]},
        {"type": "thermometer", "lines": [["r3c2", "r3c3"]]},
        {"type": "sandwich", "rows": [5, None, None, None]},
        {"type": "even-odd", "even": ["r4c4"]},
    ],
}


def test_render_a_variant_json_file(tmp_path: Path, capsys) -> None:
    source = tmp_path / "variant.json"
    source.write_text(json.dumps(VARIANT), encoding="utf-8")
    target = tmp_path / "v.svg"
    assert main(["render", str(source), "--to", str(target), "--page", "board"]) == 0
    assert "1 puzzle(s) on 1 page(s)" in capsys.readouterr().out
    svg = target.read_text(encoding="utf-8")
    assert len(elements(svg, "path", "cage")) == 1
    assert [t.text for t in elements(svg, "text", "cage-total")] == ["4"]
    assert len(elements(svg, "circle", "kropki-white")) == 1
    assert len(elements(svg, "circle", "kropki-black")) == 1
    assert len(elements(svg, "circle", "thermometer-bulb")) == 1
    assert [t.text for t in elements(svg, "text", "sandwich-clue")] == ["5"]
    assert len(elements(svg, "rect", "even")) == 1


def test_pages_with_outside_clues_fit_their_slots(tmp_path: Path) -> None:
    rules = RuleSet.classic(S9).with_rules(
        [sandwich_rule(S9, rows=dict.fromkeys(range(9), 0), columns=dict.fromkeys(range(9), 0))]
    )
    puzzle = Puzzle(Grid.empty(S9), rules)
    pages = book_pages([(puzzle, None, str(k)) for k in range(6)], per_page=6)
    width, height = PAGE_SIZES["a4"]
    for e in ET.fromstring(pages[0].to_svg()).iter():
        for a in ("x", "x1", "x2", "cx"):
            if e.get(a) is not None:
                assert 0 <= float(e.get(a, 0)) <= width
        for a in ("y", "y1", "y2", "cy"):
            if e.get(a) is not None:
                assert 0 <= float(e.get(a, 0)) <= height
    assert len(elements(pages[0].to_svg(), "text", "sandwich-clue")) == 6 * 18


def test_png_and_pdf_paint_every_mark(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rules = [
        killer_rule(S9, CAGES),
        thermometer_rule(S9, [[cell(4, 1), cell(5, 1)]]),
        arrow_rule(S9, [([cell(2, 7), cell(2, 8)], [cell(3, 8), cell(4, 8)])]),
        *kropki_rules(S9, [(cell(8, 1), cell(8, 2))], [(cell(8, 2), cell(9, 2))]),
        greater_than_rule(S9, [(cell(5, 6), cell(5, 7))]),
        parity_rule(S9, [cell(9, 1)], [cell(7, 1)]),
        sandwich_rule(S9, rows={0: 10}),
        sum_lines_rule(S9, [([cell(1, 2), cell(2, 3)], 9)]),
    ]
    puzzle = Puzzle(Grid.empty(S9), RuleSet.classic(S9).with_rules(rules))
    pages = book_pages([(puzzle, None, "all kinds")], page="board")
    png = write_pages(pages, tmp_path / "kinds.png")
    assert Path(png[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = write_pages(pages, tmp_path / "kinds.pdf")
    assert Path(pdf[0]).read_bytes().startswith(b"%PDF")


def test_reference_render_example_runs(tmp_path: Path, capsys, monkeypatch) -> None:
    reference = Path(__file__).resolve().parents[2] / "sudoku_model/docs/REFERENCE.md"
    readme = reference.read_text(encoding="utf-8")
    start = readme.index("<!-- render-variant-example -->")
    block = readme[start:].split("```json", 1)[1].split("```", 1)[0]
    (tmp_path / "killer.json").write_text(block, encoding="utf-8")
    command = readme[start:].split("```sh", 1)[1].split("```", 1)[0].split()
    assert command[:2] == ["sudoku", "render"]
    monkeypatch.chdir(tmp_path)
    assert main(command[1:]) == 0
    svg = (tmp_path / "killer.svg").read_text(encoding="utf-8")
    assert len(elements(svg, "path", "cage")) == 2
    assert len(elements(svg, "circle", "kropki-white")) == 1
    assert len(elements(svg, "path", "arrow")) == 1


def test_a_single_diagonal_unit_draws_one_diagonal() -> None:
    """f-puzzles files name each diagonal on its own ("diagonal+"): found by its cells."""
    anti = tuple((8 - i) * 9 + i for i in range(9))
    svg = svg_of(S9, [AllDifferent("diagonal+", (anti,))])
    lines = elements(svg, "line", "diagonal")
    assert len(lines) == 1
    assert (xy(lines[0], "x1", "y1"), xy(lines[0], "x2", "y2")) == ((90.0, 0.0), (0.0, 90.0))
