"""Pictures of the table-based variant kinds (between, lockout, segment sum, lunchbox and
value indexing lines; equality, rellik and look-and-say cages; quadruples; x-sum and
skyscraper clues; the global rules as captions): the marks read from a rule set built
with the constructors and from the matching Interactive Sudoku Solver example, the SVG
drawn from them (cell_size=10 and margin=0 put the centre of cell (r, c) at x 10c+5,
y 10r+5 when no clue band stands left or on top), and the editor's decorations."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.display import draw
from sudoku_model.editor import layout
from sudoku_model.formats.iss import puzzle_from_iss
from sudoku_model.rule_lines import describe_lines
from sudoku_model.rule_marks import Cage, OutsideClue, Quadruple, RuleMarks, rule_marks
from sudoku_model.rule_tables_marks import path_order
from sudoku_model.rules import (
    Table,
    between_rule,
    dutch_flatmates_rules,
    equality_cage_rules,
    global_entropy_rule,
    global_mod_rule,
    lockout_rules,
    look_and_say_rules,
    lunchbox_rules,
    quadruple_rules,
    rellik_cage_rules,
    segment_sum_rules,
    skyscraper_rules,
    value_indexing_rules,
    x_sum_rules,
)
from tests.datafiles import data_file
from tests.editor.test_browser import browser, page, server  # noqa: F401 (fixtures)
from tests.sudoku_model.test_display_rules import CELL, centre, elements, near, subpaths, xy

S9 = Shape(3, 3)
S6 = Shape(2, 3)


def cell(r: int, c: int, n: int = 9) -> int:
    return (r - 1) * n + (c - 1)


def marks_of(rules: list[Any], shape: Shape = S9) -> RuleMarks:
    return rule_marks(RuleSet.classic(shape).with_rules(rules))


def svg_of(rules: list[Any], shape: Shape = S9) -> str:
    rs = RuleSet.classic(shape).with_rules(rules)
    return draw(Puzzle(Grid.empty(shape), rs), cell_size=CELL, margin=0.0)


def captions(svg: str) -> str:
    return " ".join(t.text or "" for t in elements(svg, "text", "caption"))


def drawn_paths(svg: str, look: str) -> list[list[tuple[float, float]]]:
    return [sp for p in elements(svg, "path", f"line-{look}") for sp in subpaths(p)]


def assert_line_drawn(svg: str, look: str, cells: tuple[int, ...], n: int = 9) -> None:
    want = [centre(c, n) for c in cells]
    paths = drawn_paths(svg, look)
    found = [p for p in paths if len(p) == len(want) and all(map(near, p, want))]
    assert found, (look, cells, paths)


def iss_marks(name: str) -> tuple[RuleMarks, Puzzle]:
    examples = json.loads(data_file("iss-examples.json").read_text())
    [example] = [e for e in examples if e["name"] == name]
    puzzle = puzzle_from_iss(example["input"])
    return rule_marks(puzzle.rules), puzzle


def iss_svg(puzzle: Puzzle) -> str:
    return draw(puzzle, cell_size=CELL, margin=0.0)


def no_table_caption(marks: RuleMarks) -> None:
    assert not any("digit-tuple table" in c for c in marks.captions), marks.captions


# -- lines -----------------------------------------------------------------------------------
BETWEEN = [cell(1, 1), cell(1, 2), cell(2, 3), cell(3, 3), cell(3, 4)]


def test_between_lines_run_end_to_end_with_circles_at_both_ends() -> None:
    marks = marks_of([between_rule(S9, [BETWEEN])])
    [line] = marks.lines
    assert line.cells == tuple(BETWEEN) and line.look == "between"
    no_table_caption(marks)
    svg = svg_of([between_rule(S9, [BETWEEN])])
    assert_line_drawn(svg, "between", tuple(BETWEEN))
    ends = [xy(e, "cx", "cy") for e in elements(svg, "circle", "line-between-end")]
    assert len(ends) == 2
    assert near(ends[0], centre(BETWEEN[0])) and near(ends[1], centre(BETWEEN[-1]))
    assert "between lines (grey lines circled at both ends)" in captions(svg)
    assert "not drawn" not in captions(svg)


def test_between_lines_from_iss() -> None:
    marks, puzzle = iss_marks("Sudoku Variants Series (173) - Between Lines Sudoku")
    between = [line for line in marks.lines if line.look == "between"]
    # Between~R9C5~R8C5~R7C5~R6C5~R5C9: the first line of the example, in path order
    assert between[0].cells == (76, 68, 60, 52, 44)
    no_table_caption(marks)
    assert_line_drawn(iss_svg(puzzle), "between", between[0].cells)


def test_lockout_lines_with_and_without_middle_cells() -> None:
    long = [cell(1, 1), cell(2, 1), cell(2, 2), cell(3, 3)]
    short = [cell(9, 8), cell(9, 9)]
    rules = list(lockout_rules(S9, [(4, long), (3, short)]))
    assert {r.name for r in rules} == {"lockout lines (4)", "lockout lines (3): ends"}
    marks = marks_of(rules)
    assert {(line.cells, line.look) for line in marks.lines} == {
        (tuple(long), "lockout"),
        (tuple(short), "lockout"),
    }
    svg = svg_of(rules)
    assert_line_drawn(svg, "lockout", tuple(long))
    assert_line_drawn(svg, "lockout", tuple(short))
    diamonds = elements(svg, "path", "line-lockout-end")
    assert len(diamonds) == 4
    # a diamond's corners stand around its end cell's centre
    first = subpaths(diamonds[0])[0]
    cx = sum(x for x, _ in first) / len(first)
    cy = sum(y for _, y in first) / len(first)
    assert near((cx, cy), centre(long[0]))
    text = captions(svg)
    assert "differ by at least 4" in text and "differ by at least 3" in text


def test_lockout_lines_from_iss_keep_the_path_order() -> None:
    marks, puzzle = iss_marks("Lockout Lines (DSM 23 Quali Training)")
    cells = [line.cells for line in marks.lines if line.look == "lockout"]
    # Lockout~4~R4C6~R3C6~R2C6~R1C6~R2C7~R1C8~R2C8~R3C8~R4C8: a diagonal step kept
    want = tuple(cell(r, c) for r, c in [(4, 6), (3, 6), (2, 6), (1, 6), (2, 7), (1, 8)])
    assert any(c[:6] == want and c[-1] == cell(4, 8) for c in cells), cells
    no_table_caption(marks)
    assert_line_drawn(iss_svg(puzzle), "lockout", cells[0])


def test_segment_sum_lines_and_loops_say_their_total_in_the_legend() -> None:
    line = [cell(1, 1), cell(1, 2), cell(1, 3)]
    loop = [cell(5, 5), cell(5, 6), cell(6, 6), cell(6, 5)]
    rules = list(segment_sum_rules(S9, [(10, line, False), (10, loop, True)]))
    marks = marks_of(rules)
    got = {m.cells for m in marks.lines if m.look == "segment-sum"}
    assert got == {tuple(line), (*loop, loop[0])}
    svg = svg_of(rules)
    assert_line_drawn(svg, "segment-sum", tuple(line))
    assert_line_drawn(svg, "segment-sum", (*loop, loop[0]))
    assert "runs that each sum to 10" in captions(svg)


def test_ten_lines_from_iss() -> None:
    marks, puzzle = iss_marks("10 Lines")
    lines = [m.cells for m in marks.lines if m.look == "segment-sum"]
    assert (2, 1, 0, 9, 18) in lines
    no_table_caption(marks)
    assert_line_drawn(iss_svg(puzzle), "segment-sum", (2, 1, 0, 9, 18))


def test_lunchboxes_are_lines_with_their_total_at_the_first_cell() -> None:
    box = [cell(2, 1), cell(2, 2), cell(2, 3), cell(2, 4)]
    rules = list(lunchbox_rules(S9, [(7, box)]))
    [line] = marks_of(rules).lines
    assert (line.cells, line.look, line.text) == (tuple(box), "lunchbox", "7")
    [text] = describe_lines([line], S9)
    assert text.endswith(": r2c1-r2c2-r2c3-r2c4 (7)")
    svg = svg_of(rules)
    assert_line_drawn(svg, "lunchbox", tuple(box))
    [total] = elements(svg, "text", "line-text")
    assert total.text == "7"
    x, y = xy(total)
    assert 0 <= x <= CELL and CELL <= y <= 2 * CELL  # in cell r2c1


def test_lunchboxes_from_iss() -> None:
    marks, puzzle = iss_marks("Normal Lunchbox")
    lines = {m.cells: m.text for m in marks.lines if m.look == "lunchbox"}
    assert lines[(1, 0, 9, 18, 27)] == "11" and lines[(2, 3, 4, 5, 6)] == "7"
    assert_line_drawn(iss_svg(puzzle), "lunchbox", (2, 3, 4, 5, 6))


def test_value_indexing_lines_join_their_rules() -> None:
    path = [cell(1, 1), cell(1, 2), cell(1, 3), cell(1, 4), cell(1, 5)]
    rules = list(value_indexing_rules(S9, [path]))
    assert len(rules) == 3  # one rule per position on the line
    [line] = marks_of(rules).lines
    assert line.cells == tuple(path) and line.look == "value-indexing"
    assert_line_drawn(svg_of(rules), "value-indexing", tuple(path))


def test_value_indexing_from_iss() -> None:
    marks, puzzle = iss_marks("Slingshot sudoku")
    lines = [m.cells for m in marks.lines if m.look == "value-indexing"]
    assert (3, 12, 11, 10, 9) in lines
    no_table_caption(marks)
    assert_line_drawn(iss_svg(puzzle), "value-indexing", (3, 12, 11, 10, 9))


# -- cages and quadruples --------------------------------------------------------------------
def corner_texts(svg: str, css: str) -> list[tuple[str, tuple[float, float]]]:
    return [(t.text or "", xy(t)) for t in elements(svg, "text", css)]


def in_cell(p: tuple[float, float], c: int, n: int = 9) -> bool:
    r, k = divmod(c, n)
    return k * CELL <= p[0] <= (k + 1) * CELL and r * CELL <= p[1] <= (r + 1) * CELL


@pytest.mark.parametrize(
    ("rules", "look", "text"),
    [
        (lambda: equality_cage_rules(S9, [[cell(1, 2), cell(1, 1)]]), "equality", "="),
        (lambda: rellik_cage_rules(S9, [(5, [cell(1, 2), cell(1, 1)])]), "rellik", "\u22605"),
        (
            lambda: look_and_say_rules(S9, [("1324", [cell(1, 2), cell(1, 1), cell(2, 1)])]),
            "look-and-say",
            "1324",
        ),
    ],
)
def test_table_cages_are_dashed_with_their_corner_text(rules: Any, look: str, text: str) -> None:
    built = list(rules())
    marks = marks_of(built)
    [cage] = marks.cages
    assert cage.look == look and cage.total is None and cage.corner == text
    assert cage.cells[:2] == (cell(1, 1), cell(1, 2))
    no_table_caption(marks)
    svg = svg_of(built)
    assert len(elements(svg, "path", "cage")) == 1
    [(got, at)] = corner_texts(svg, f"cage-{look}")
    assert got == text and in_cell(at, cell(1, 1))
    assert f"{look} cages (dashed" in captions(svg)


def test_equality_rellik_and_look_and_say_cages_from_iss() -> None:
    marks, _ = iss_marks("Equality cages")
    assert Cage((0, 1, 9, 10), None, "equality", "=") in marks.cages
    marks, puzzle = iss_marks("6x6: Rellik cages")
    assert Cage((2, 7, 8), None, "rellik", "\u22605") in marks.cages
    no_table_caption(marks)
    texts = corner_texts(iss_svg(puzzle), "cage-rellik")
    assert any(t == "\u22605" and in_cell(p, 2, 6) for t, p in texts), texts
    marks, _ = iss_marks("Look-and-Say Killer")
    assert Cage((2, 3, 11, 12), None, "look-and-say", "1324") in marks.cages


def test_quadruples_are_circles_on_the_shared_corner() -> None:
    rules = list(quadruple_rules(S9, [(cell(1, 1), [1, 4, 6, 7]), (cell(5, 5), [2, 3])]))
    marks = marks_of(rules)
    assert set(marks.quadruples) == {
        Quadruple(cell(1, 1), (1, 4, 6, 7)),
        Quadruple(cell(5, 5), (2, 3)),
    }
    no_table_caption(marks)
    svg = svg_of(rules)
    circles = sorted(xy(e, "cx", "cy") for e in elements(svg, "circle", "quadruple"))
    assert near(circles[0], (CELL, CELL)) and near(circles[1], (5 * CELL, 5 * CELL))
    digits = [t.text for t in elements(svg, "text", "quadruple-digits")]
    assert sorted(digits) == ["1 4", "2 3", "6 7"]


def test_quadruples_from_iss() -> None:
    marks, puzzle = iss_marks("Quadruple X")
    assert Quadruple(0, (1, 4, 6, 7)) in marks.quadruples
    circles = [xy(e, "cx", "cy") for e in elements(iss_svg(puzzle), "circle", "quadruple")]
    assert any(near(c, (CELL, CELL)) for c in circles)


# -- outside the grid ------------------------------------------------------------------------
def test_x_sums_and_skyscrapers_stand_outside_the_row_and_column_ends() -> None:
    row = S9.rows[2]
    column = S9.columns[4][::-1]  # read from the bottom
    x_sums = list(x_sum_rules(S9, [(row, 15, None)]))
    skys = list(skyscraper_rules(S9, [(column, 3, 2)]))
    marks = marks_of([*x_sums, *skys])
    assert marks.outside == (
        OutsideClue(2, -1, "15", None, "x-sum"),
        OutsideClue(9, 4, "3", None, "skyscraper"),
        OutsideClue(-1, 4, "2", None, "skyscraper"),
    )
    no_table_caption(marks)
    svg = svg_of([*x_sums, *skys])
    clues = {t.text: xy(t) for t in elements(svg, "text", "x-sum-clue")}
    clues |= {t.text: xy(t) for t in elements(svg, "text", "skyscraper-clue")}
    assert [t.text for t in elements(svg, "text", "x-sum-clue")] == ["15"]
    band = clues["15"][0] * 2  # the left band, the clue in its middle
    top = clues["2"][1] * 2
    # left of row 3, above column 5 (the grid shifted by the bands)
    assert near(clues["15"], (band / 2, centre(cell(3, 1), 9, band, top)[1]))
    assert near(clues["2"], (centre(cell(1, 5), 9, band, top)[0], top / 2))
    assert band > 0 and top > 0
    assert clues["3"][1] > top + 9 * CELL  # under the grid
    text = captions(svg)
    assert "x-sums (clues outside the grid)" in text
    assert "skyscrapers (clues outside the grid)" in text


def test_x_sums_and_skyscrapers_from_iss() -> None:
    marks, _ = iss_marks("X-Sum")
    assert OutsideClue(-1, 1, "27", None, "x-sum") in marks.outside
    assert OutsideClue(9, 1, "27", None, "x-sum") in marks.outside
    no_table_caption(marks)
    marks, puzzle = iss_marks("Skyscraper")
    assert OutsideClue(-1, 4, "5", None, "skyscraper") in marks.outside
    assert OutsideClue(1, -1, "2", None, "skyscraper") in marks.outside
    assert any(t.text == "5" for t in elements(iss_svg(puzzle), "text", "skyscraper-clue"))


# -- global rules ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (lambda: [global_entropy_rule(S9)], "global entropy: every 2x2 square"),
        (lambda: [global_mod_rule(S9)], "global mod 3: every 2x2 square"),
        (lambda: list(dutch_flatmates_rules(S9)), "dutch flatmates: every middle digit"),
    ],
)
def test_global_rules_are_one_caption(rules: Any, words: str) -> None:
    marks = marks_of(rules())
    assert len(marks.captions) == 1 and marks.captions[0].startswith(words)
    assert marks.lines == () and marks.cages == ()
    assert words in captions(svg_of(rules()))


@pytest.mark.parametrize(
    "name",
    ["[New Constraint] Entropy Sudoku", "Global mod 3", "Dutch Flat Mates (Kropki)"],
)
def test_global_rules_from_iss(name: str) -> None:
    marks, _ = iss_marks(name)
    no_table_caption(marks)
    assert not any("not drawn" in c for c in marks.captions)


# -- hand-made tables ------------------------------------------------------------------------
PAIRS = frozenset({(1, 2), (2, 1)})


@pytest.mark.parametrize(
    ("name", "scopes"),
    [
        ("my own table", ((0, 1),)),
        ("between lines", ((0, 1),)),  # scopes of two cells: no between line
        ("quadruples (1, 2)", ((0, 1),)),
        ("x-sums (3, -)", ((0, 1),)),  # not a row or column
        ("value indexing (1 of 3)", ((0, 1),)),
        ("quadruples (one)", ((0, 1),)),
    ],
)
def test_a_hand_made_table_the_marks_cannot_read_keeps_its_caption(
    name: str, scopes: tuple[tuple[int, ...], ...]
) -> None:
    rule = Table(name, scopes, PAIRS)
    marks = marks_of([rule])
    assert marks.captions == (f"{name}: 1 cell groups with a digit-tuple table (not drawn)",)
    assert marks.lines == () and marks.cages == () and marks.quadruples == ()
    assert "(not drawn)" in captions(svg_of([rule]))
    texts = [d["text"] for d in layout(RuleSet.classic(S9).with_rules([rule]))["decorations"]]
    assert f"{name}: 1 cell groups with a digit-tuple table (not drawn)" in texts


def test_a_path_is_put_in_order_when_the_given_order_does_not_chain() -> None:
    # r1c1 .. r1c4 given out of order: rebuilt from adjacency
    assert path_order(9, 0, [2, 1], 3) == (0, 1, 2, 3)
    # a diagonal step the given order makes is kept
    assert path_order(9, 0, [10, 2], None) == (0, 10, 2)


# -- the editor ------------------------------------------------------------------------------
def test_editor_layout_has_decorations_for_the_table_kinds() -> None:
    rules = RuleSet.classic(S9).with_rules(
        [
            between_rule(S9, [BETWEEN]),
            *lockout_rules(S9, [(4, [cell(9, 1), cell(9, 2), cell(9, 3)])]),
            *lunchbox_rules(S9, [(7, [cell(7, 1), cell(7, 2), cell(7, 3)])]),
            *rellik_cage_rules(S9, [(5, [cell(5, 5), cell(5, 6)])]),
            *quadruple_rules(S9, [(cell(6, 6), [1, 2])]),
            *x_sum_rules(S9, [(S9.rows[0], 15, None)]),
            global_entropy_rule(S9),
        ]
    )
    decorations = layout(rules)["decorations"]
    lines = {d["style"]: d for d in decorations if d["kind"] == "line"}
    assert lines["between"]["cells"] == BETWEEN
    assert lines["between"]["circle"] == [BETWEEN[0], BETWEEN[-1]]
    assert lines["lockout"]["diamond"] == [cell(9, 1), cell(9, 3)]
    assert lines["lunchbox"]["text"] == "7"
    [cage] = [d for d in decorations if d["kind"] == "cage"]
    assert cage == {
        "kind": "cage",
        "cells": [cell(5, 5), cell(5, 6)],
        "text": "\u22605",
        "style": "rellik",
    }
    assert {"kind": "quad", "cells": [cell(6, 6)], "text": "1 2"} in decorations
    assert {"kind": "outside", "row": 0, "col": -1, "text": "15", "style": "x-sum"} in decorations
    texts = [d["text"] for d in decorations if d["kind"] == "caption"]
    assert any(t.startswith("global entropy") for t in texts)
    assert any(t.startswith("between lines (grey lines") for t in texts)
    assert not any("not drawn" in t or ": table" in t for t in texts), texts


KIND_NAMES = [
    "between lines",
    "lockout lines (4)",
    "lockout lines (4): ends",
    "segment sum lines (10, 3 cells)",
    "segment sum loops (10, 3 cells)",
    "lunchboxes (5, 3 cells)",
    "value indexing (2 of 3)",
    "quadruples (1, 2)",
    "equality cages (2 cells)",
    "rellik cages (5, 2 cells)",
    "look-and-say cages (1324, 4 cells)",
    "x-sums (3, -)",
    "skyscrapers (-, 2)",
    "global entropy",
    "dutch flatmates: top",
]


@pytest.mark.parametrize("name", KIND_NAMES)
@pytest.mark.parametrize(
    "scopes",
    [((0,),), ((80, 0),), ((0, 1, 2),), ((40, 41, 49, 50),), (S9.rows[8],), ((3, 5, 7), (0, 1, 2))],
)
def test_any_scopes_under_a_kind_name_draw_or_keep_a_caption(
    name: str, scopes: tuple[tuple[int, ...], ...]
) -> None:
    k = len(scopes[0])
    allowed = frozenset({tuple(range(1, k + 1))})
    rule = Table(name, scopes, allowed)
    marks = marks_of([rule])
    drawn = marks.lines or marks.cages or marks.quadruples or marks.outside or marks.captions
    assert drawn
    draw(Puzzle(Grid.empty(S9), RuleSet.classic(S9).with_rules([rule])), cell_size=CELL)
    assert layout(RuleSet.classic(S9).with_rules([rule]))["decorations"]


# -- the editor's page in a browser (skipped without chromium or Playwright) -----------------
def _expected(marks: RuleMarks, selector: str) -> int:
    """How many of ``selector`` the editor's page draws for these marks."""
    looks = [line.look for line in marks.lines]
    return {
        "circle.quad": len(marks.quadruples),
        "polyline.line-between": looks.count("between"),
        "polygon.line-end": 2 * looks.count("lockout"),
        "text.cage-label": sum(c.corner is not None for c in marks.cages),
        "text.outside-x-sum": sum(c.look == "x-sum" for c in marks.outside),
    }[selector]


@pytest.mark.browser
@pytest.mark.parametrize(
    ("name", "selector"),
    [
        ("Quadruple X", "circle.quad"),
        ("Sudoku Variants Series (173) - Between Lines Sudoku", "polyline.line-between"),
        ("Lockout Lines (DSM 23 Quali Training)", "polygon.line-end"),
        ("6x6: Rellik cages", "text.cage-label"),
        ("X-Sum", "text.outside-x-sum"),
    ],
)
def test_the_editor_page_draws_the_table_kinds(page: Any, name: str, selector: str) -> None:  # noqa: F811
    from tests.editor.test_browser import load_text

    marks, _ = iss_marks(name)
    examples = json.loads(data_file("iss-examples.json").read_text())
    [example] = [e for e in examples if e["name"] == name]
    load_text(page, example["input"])
    page.wait_for_selector(selector)
    want = _expected(marks, selector)
    assert want > 0 and page.locator(selector).count() == want
    assert "digit-tuple table" not in page.inner_text("[data-role=captions]")
