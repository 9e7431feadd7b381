"""Pictures of the variant lines (whispers, renban, palindromes, entropic and modular lines,
region sum lines, zippers, double arrows, equal sums): each line drawn through its cells'
centres, read back from the SVG (cell_size=10 and margin=0 put the centre of cell (r, c)
at x 10c+5, y 10r+5), with a legend line instead of a "not drawn" caption."""

from __future__ import annotations

import json
import re

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.cli import main
from sudoku_model.display import draw
from sudoku_model.formats.iss import puzzle_from_iss
from sudoku_model.rule_marks import Line, rule_marks
from sudoku_model.rules import (
    Relation,
    double_arrow_rule,
    entropic_rule,
    equal_sums_rule,
    kropki_rules,
    modular_rules,
    palindrome_rule,
    region_sum_lines_rule,
    renban_rules,
    whisper_rule,
    zipper_rule,
)
from tests.datafiles import data_file
from tests.sudoku_model.test_display_rules import CELL, centre, elements, near, subpaths

S9 = Shape(3, 3)
S6 = Shape(2, 3)


def cell(r: int, c: int, n: int = 9) -> int:
    return (r - 1) * n + (c - 1)


def svg_of(rules: list, shape: Shape = S9) -> str:
    rs = RuleSet.classic(shape).with_rules(rules)
    return draw(Puzzle(Grid.empty(shape), rs), cell_size=CELL, margin=0.0)


def drawn_paths(svg: str, look: str, n: int = 9) -> list[list[tuple[float, float]]]:
    return [sp for p in elements(svg, "path", f"line-{look}") for sp in subpaths(p)]


def same_path(points: list[tuple[float, float]], cells: list[int], n: int = 9) -> bool:
    want = [centre(c, n) for c in cells]
    return len(points) == len(want) and all(near(p, q) for p, q in zip(points, want))


def captions(svg: str) -> str:
    return " ".join(t.text or "" for t in elements(svg, "text", "caption"))


def assert_drawn(svg: str, look: str, lines: list[list[int]], n: int = 9) -> None:
    paths = drawn_paths(svg, look, n)
    assert len(paths) == len(lines), (look, paths)
    for line in lines:
        assert any(same_path(p, line, n) for p in paths), (look, line, paths)
    assert "not drawn" not in captions(svg)


WHISPER = [cell(1, 1), cell(1, 2), cell(2, 3), cell(3, 3)]
SHORT = [cell(5, 5), cell(6, 6), cell(7, 6)]


def test_german_and_dutch_whispers_are_green_and_orange_lines_with_a_legend() -> None:
    svg = svg_of(
        [whisper_rule(S9, [WHISPER, SHORT]), whisper_rule(S9, [[cell(9, 1), cell(9, 2)]], 4)]
    )
    assert_drawn(svg, "whisper", [WHISPER, SHORT])
    assert_drawn(svg, "dutch-whisper", [[cell(9, 1), cell(9, 2)]])
    text = captions(svg)
    assert "German whispers (green lines)" in text and "at least 5" in text
    assert "Dutch whispers (orange lines)" in text and "at least 4" in text
    assert "#5fcf5f" in svg


def test_renban_lines_of_every_length_even_two_orthogonal_cells() -> None:
    lines = [
        [cell(1, 1), cell(1, 2)],  # a white dot's table: the name says renban
        [cell(3, 3), cell(4, 4), cell(4, 5)],
        [cell(9, 9), cell(8, 9), cell(7, 9), cell(7, 8), cell(6, 7)],
    ]
    rules = renban_rules(S9, lines)
    marks = rule_marks(RuleSet.classic(S9).with_rules(list(rules)))
    assert marks.edges == ()
    svg = svg_of(list(rules))
    assert_drawn(svg, "renban", lines)
    assert "renban (purple lines)" in captions(svg)
    # the same two-cell table under a kropki name stays a white dot
    dots = rule_marks(RuleSet.classic(S9).with_rules(kropki_rules(S9, [lines[0]])))
    assert dots.lines == () and len(dots.edges) == 1


def test_palindromes_of_even_and_odd_length() -> None:
    even = [cell(1, 1), cell(2, 2), cell(3, 2), cell(4, 1)]
    odd = [cell(6, 5), cell(6, 6), cell(6, 7), cell(7, 8), cell(8, 8)]
    svg = svg_of([palindrome_rule(S9, [even, odd])])
    # the middle of an odd line is in no pair: found as the cell between the inner cells
    assert_drawn(svg, "palindrome", [even, odd])
    # a knight's move apart, two cells touch both inner cells: the first is taken
    bent = [cell(9, 1), cell(9, 2), cell(9, 3), cell(8, 4), cell(9, 5)]
    svg = svg_of([palindrome_rule(S9, [bent])])
    drawn = [cell(9, 1), cell(9, 2), cell(8, 3), cell(8, 4), cell(9, 5)]
    assert_drawn(svg, "palindrome", [drawn])
    assert "palindromes (grey lines)" in captions(svg)


def test_entropic_and_modular_lines() -> None:
    entropic = [cell(1, 1), cell(1, 2), cell(1, 3), cell(2, 4), cell(3, 4)]
    long = [cell(5, 1), cell(5, 2), cell(5, 3), cell(6, 3), cell(7, 3), cell(8, 3), cell(9, 3)]
    short = [cell(9, 8), cell(9, 9)]
    svg = svg_of([entropic_rule(S9, [entropic]), *modular_rules(S9, [long, short])])
    assert_drawn(svg, "entropic", [entropic])
    assert_drawn(svg, "modular", [long, short])
    text = captions(svg)
    assert "entropic lines (teal lines)" in text and "modular lines (gold lines)" in text


def test_region_sum_lines_through_three_boxes() -> None:
    line = [cell(1, 2), cell(2, 3), cell(3, 4), cell(4, 4), cell(4, 5), cell(5, 6), cell(6, 7)]
    svg = svg_of([region_sum_lines_rule(S9, [line], S9.boxes)])
    assert_drawn(svg, "region-sum", [line])
    assert "region sum lines (blue lines)" in captions(svg)


def test_zippers_of_odd_and_even_length() -> None:
    odd = [cell(1, 1), cell(1, 2), cell(1, 3), cell(2, 3), cell(3, 3)]
    even = [cell(5, 5), cell(5, 6), cell(6, 6), cell(7, 6), cell(7, 7), cell(7, 8)]
    rules = [zipper_rule(S9, [odd, even])]
    svg = svg_of(rules)
    assert_drawn(svg, "zipper", [odd, even])
    assert rule_marks(RuleSet.classic(S9).with_rules(rules)).arrows == ()


def test_double_arrows_have_a_circle_at_each_end() -> None:
    line = [cell(2, 2), cell(2, 3), cell(3, 4), cell(3, 5)]
    svg = svg_of([double_arrow_rule(S9, [line])])
    assert_drawn(svg, "double-arrow", [line])
    ends = [
        (float(e.get("cx", "nan")), float(e.get("cy", "nan")))
        for e in elements(svg, "circle", "line-double-arrow-end")
    ]
    assert len(ends) == 2
    assert near(ends[0], centre(line[0])) and near(ends[1], centre(line[-1]))


def test_equal_sum_segments_are_lines() -> None:
    rows = [[cell(1, 1), cell(1, 2), cell(1, 3)], [cell(3, 1), cell(3, 2), cell(3, 3)]]
    svg = svg_of([equal_sums_rule(S9, [rows])])
    assert_drawn(svg, "equal-sum", rows)


def test_the_look_comes_from_the_table_not_the_name() -> None:
    table = frozenset((a, b) for a in range(1, 10) for b in range(1, 10) if abs(a - b) >= 5)
    rule = Relation("my lines", ((0, 1), (1, 2), (2, 11)), table)
    assert rule_marks(RuleSet.classic(S9).with_rules([rule])).lines == (
        Line(
            (0, 1, 2, 11), "whisper", "German whispers: neighbours on a line differ by at least 5"
        ),
    )


def test_a_residue_table_is_a_modular_line_only_by_name() -> None:
    parity = frozenset((a, b) for a in range(1, 10) for b in range(1, 10) if a % 2 != b % 2)
    pair = Relation("Pair 1", ((0, 1),), parity)
    marks = rule_marks(RuleSet.classic(S9).with_rules([pair]))
    assert marks.lines == () and "not drawn" in marks.captions[0]
    (different,) = modular_rules(S9, [[0, 1]], 2)
    marks = rule_marks(RuleSet.classic(S9).with_rules([different]))
    assert [(line.cells, line.look) for line in marks.lines] == [((0, 1), "modular")]


def test_lines_on_a_6x6_grid() -> None:
    line = [cell(1, 1, 6), cell(2, 2, 6), cell(3, 3, 6)]
    svg = svg_of(list(renban_rules(S6, [line])) + [whisper_rule(S6, [[0, 1]], 3)], S6)
    assert_drawn(svg, "renban", [line], 6)
    assert_drawn(svg, "whisper", [[0, 1]], 6)


# -- the same lines read from Interactive Sudoku Solver strings ------------------------------
ISS = {e["name"]: e["input"] for e in json.loads(data_file("iss-examples.json").read_text())}


def iss_lines(text: str, kind: str) -> list[list[int]]:
    """The cells of each ``.KIND~...`` constraint of an ISS string (numbers skipped)."""
    out = []
    for part in text.split("."):
        tokens = part.split("~")
        if tokens[0] == kind:
            out.append([cell(int(r), int(c)) for r, c in re.findall(r"R(\d+)C(\d+)", part)])
    return out


@pytest.mark.parametrize(
    ("name", "kind", "look"),
    [
        ("German Whispers", "Whisper", "whisper"),
        ("'Leven", "Renban", "renban"),
        ("The Zip that Zips the Zips", "Zipper", "zipper"),
        ("Modular Lines 1", "Modular", "modular"),
        ("Double arrow", "DoubleArrow", "double-arrow"),
        ("Entropic connections", "Entropic", "entropic"),
    ],
)
def test_iss_examples_draw_every_line(name: str, kind: str, look: str) -> None:
    puzzle = puzzle_from_iss(ISS[name])
    lines = iss_lines(ISS[name], kind)
    assert lines
    svg = draw(puzzle, cell_size=CELL, margin=0.0)
    paths = drawn_paths(svg, look)
    for line in lines:
        assert any(same_path(p, line) for p in paths), (line, paths)
    # only the plain pair table of that puzzle stays a caption
    assert all(c.startswith("Pair 1:") for c in rule_marks(puzzle.rules).captions)


def test_iss_palindromes_and_region_sum_lines() -> None:
    text = ISS["Sudoku Variants Series (013) - Palindrome Sudoku"]
    svg = draw(puzzle_from_iss(text), cell_size=CELL, margin=0.0)
    paths = drawn_paths(svg, "palindrome")
    for line in iss_lines(text, "Palindrome"):
        assert any(same_path(p, line) for p in paths), line
    text = ISS["Raw Spaghetti"]
    svg = draw(puzzle_from_iss(text), cell_size=CELL, margin=0.0)
    paths = drawn_paths(svg, "region-sum")
    boxes = {c: k for k, box in enumerate(S9.boxes) for c in box}
    crossing = [
        line for line in iss_lines(text, "RegionSumLine") if len({boxes[c] for c in line}) > 1
    ]
    assert crossing
    for line in crossing:
        assert any(same_path(p, line) for p in paths), line
    assert "not drawn" not in captions(svg)


def test_iss_magic_square_draws_its_rows_and_columns() -> None:
    svg = draw(puzzle_from_iss(ISS["Magic square"]), cell_size=CELL, margin=0.0)
    paths = drawn_paths(svg, "equal-sum")
    for k in (4, 5, 6):
        assert any(same_path(p, [cell(k, 4), cell(k, 5), cell(k, 6)]) for p in paths)
        assert any(same_path(p, [cell(4, k), cell(5, k), cell(6, k)]) for p in paths)
    assert "not drawn" not in captions(svg)


def test_show_names_the_lines_under_the_grid(tmp_path, capsys) -> None:
    path = tmp_path / "whispers.iss"
    path.write_text(ISS["German Whispers"] + "\n")
    assert main(["show", str(path), "--format", "iss"]) == 0
    out = capsys.readouterr().out
    assert "# German whispers: neighbours on a line differ by at least 5: r8c1-r7c1-r7c2" in out


def test_png_pages_paint_the_lines(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from sudoku_model.display import book_pages, write_pages

    rules = [
        whisper_rule(S9, [WHISPER]),
        double_arrow_rule(S9, [[cell(5, 5), cell(5, 6), cell(5, 7)]]),
    ]
    puzzle = Puzzle(Grid.empty(S9), RuleSet.classic(S9).with_rules(rules))
    pages = book_pages([(puzzle, None, "lines")], page="board")
    plain = book_pages([(Puzzle(Grid.empty(S9), RuleSet.classic(S9)), None, "lines")], page="board")
    png = write_pages(pages, tmp_path / "lines.png")
    bare = write_pages(plain, tmp_path / "bare.png")
    data = (tmp_path / "lines.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and png and bare
    assert data != (tmp_path / "bare.png").read_bytes()
