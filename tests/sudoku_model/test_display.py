"""Pictures: well-formed SVG with one text element per filled cell, rules drawn, verdicts
with their witnesses, pages for printing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import islice
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.data import bundled_path
from sudoku_model.display import (
    PAGE_SIZES,
    book_pages,
    candidates,
    draw,
    grid_svg,
    puzzle_svg,
    verdict_svg,
    write_pages,
)
from sudoku_model.formats import iter_records
from sudoku_model.solving import Verdict, VerdictKind, available_backends, get_backend

SVG_NS = "{http://www.w3.org/2000/svg}"


def _elements(svg: str, tag: str, css: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{SVG_NS}svg"
    found = root.iter(f"{SVG_NS}{tag}")
    if css is None:
        return list(found)
    return [e for e in found if css in (e.get("class") or "").split()]


def _pattern_grid(shape: Shape) -> Grid:
    """The textbook valid full grid of a shape: row r is the first row shifted."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    return Grid(shape, [((r % br) * bc + r // br + c) % n + 1 for r in range(n) for c in range(n)])


def _top95(count: int) -> list[Puzzle]:
    return [rec.puzzle for rec in islice(iter_records(bundled_path("top95")), count)]


def test_one_text_element_per_filled_cell_of_a_puzzle() -> None:
    for puzzle in _top95(5):
        svg = puzzle._repr_svg_()
        texts = _elements(svg, "text")
        assert len(texts) == puzzle.clues
        for t in texts:
            assert t.get("font-weight") == "bold"  # givens are bold
        drawn = sorted(t.text for t in texts)
        assert drawn == sorted(str(v) for v in puzzle.givens.values if v)
        assert puzzle_svg(puzzle) == svg
        assert svg in puzzle._repr_html_()


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_every_size_draws_a_full_grid(box: tuple[int, int]) -> None:
    shape = Shape(*box)
    grid = _pattern_grid(shape)
    assert RuleSet.classic(shape) and Puzzle(grid).conflicts() == []
    svg = grid._repr_svg_()
    assert svg == grid_svg(grid)
    assert len(_elements(svg, "text")) == shape.cell_count
    # the outer border plus box borders: box rows and columns - 1 of each, merged per line
    n = shape.size
    region_lines = _elements(svg, "line", "region-line")
    assert len(region_lines) == (n // shape.box_rows - 1) + (n // shape.box_cols - 1)
    half = grid.without(range(0, shape.cell_count, 2))
    assert len(_elements(half._repr_svg_(), "text")) == half.clues
    assert len(svg) < 120_000  # a 25x25 grid stays a small document


def test_solved_digits_are_lighter_than_givens() -> None:
    solution = _pattern_grid(Shape(3, 3))
    puzzle = Puzzle(solution.without(range(0, 81, 3)))
    svg = draw(puzzle, solution=solution)
    texts = _elements(svg, "text")
    given = [t for t in texts if "given" in t.get("class", "")]
    solved = [t for t in texts if "solved" in t.get("class", "")]
    assert (len(given), len(solved)) == (puzzle.clues, 81 - puzzle.clues)
    assert all(t.get("font-weight") is None for t in solved)
    assert {t.get("fill") for t in given}.isdisjoint({t.get("fill") for t in solved})


def test_pencil_marks_are_the_digits_no_peer_holds() -> None:
    shape = Shape(3, 3)
    full = _pattern_grid(shape)
    holes = [0, 40, 80]
    puzzle = Puzzle(full.without(holes))
    svg = draw(puzzle, pencil_marks=True)
    pencil = _elements(svg, "text", "pencil")
    # one empty cell per row, column and box: its only candidate is the digit removed
    assert sorted(t.text for t in pencil) == sorted(str(full[c]) for c in holes)
    assert len(_elements(svg, "text", "digit")) == puzzle.clues
    assert len(_elements(draw(puzzle), "text")) == puzzle.clues  # off by default

    empty = Puzzle.empty(shape)
    cands = candidates(empty.rules, empty.givens.values)
    assert all(c == frozenset(range(1, 10)) for c in cands)


def test_variant_regions_are_drawn() -> None:
    line = _top95(1)[0].to_line()
    diag = Puzzle.parse(line, variants=["diagonal"])
    assert len(_elements(draw(diag), "line", "diagonal")) == 2
    windoku = Puzzle.parse(line, variants=["windoku"])
    assert len(_elements(draw(windoku), "rect", "window")) == 4
    knight = Puzzle.parse(line, variants=["anti-knight"])
    captions = _elements(draw(knight), "text", "caption")
    # one caption, wrapped to the board's width
    text = " ".join(t.text or "" for t in captions)
    assert text == "anti-knight: cells a knight's move apart differ"
    assert len(_elements(draw(knight), "text", "digit")) == knight.clues


def test_jigsaw_region_lines_separate_different_regions() -> None:
    regions = [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]
    puzzle = Puzzle.parse("1...............", regions=regions)
    svg = draw(puzzle, cell_size=10.0, margin=0.0)
    lines = _elements(svg, "line", "region-line")
    assert lines
    edges = 0
    for ln in lines:
        x1, y1, x2, y2 = (float(ln.get(a)) for a in ("x1", "y1", "x2", "y2"))
        if x1 == x2:  # vertical: cells left and right of it in each row it spans
            col = int(x1 / 10)
            for row in range(int(min(y1, y2) / 10), int(max(y1, y2) / 10)):
                assert regions[row * 4 + col - 1] != regions[row * 4 + col]
                edges += 1
        else:
            row = int(y1 / 10)
            for col in range(int(min(x1, x2) / 10), int(max(x1, x2) / 10)):
                assert regions[(row - 1) * 4 + col] != regions[row * 4 + col]
                edges += 1
    expected = sum(
        1 for r in range(4) for c in range(1, 4) if regions[r * 4 + c - 1] != regions[r * 4 + c]
    ) + sum(
        1 for r in range(1, 4) for c in range(4) if regions[(r - 1) * 4 + c] != regions[r * 4 + c]
    )
    assert edges == expected


def test_multiple_verdict_shows_both_witnesses_with_differences_highlighted() -> None:
    shape = Shape(2, 2)
    first = _pattern_grid(shape)
    second = Grid(shape, [{1: 2, 2: 1}.get(v, v) for v in first.values])  # swap digits 1, 2
    same = [c for c in range(16) if first[c] == second[c]]
    puzzle = Puzzle(first.restricted_to(same))
    assert puzzle.is_solution(first) and puzzle.is_solution(second)
    verdict = Verdict(VerdictKind.MULTIPLE, puzzle, "hand-made", 0.0, witnesses=(first, second))
    svg = verdict._repr_svg_()
    assert svg == verdict_svg(verdict)
    assert len(_elements(svg, "text", "digit")) == 32
    assert len(_elements(svg, "rect", "highlight")) == 2 * len(verdict.differing_cells)
    assert "multiple" in _elements(svg, "text", "caption")[0].text


@pytest.mark.skipif("native" not in available_backends(), reason="native backend missing")
def test_verdicts_from_a_backend_are_drawn() -> None:
    backend = get_backend("native")
    rec = next(iter_records(bundled_path("17-clue")))
    puzzle = rec.puzzle
    unique = backend.check_unique(puzzle)
    assert unique.kind is VerdictKind.UNIQUE
    svg = unique._repr_svg_()
    assert len(_elements(svg, "text", "given")) == 17
    assert len(_elements(svg, "text", "solved")) == 81 - 17
    weaker = puzzle.with_givens(puzzle.givens.without([puzzle.givens.filled_cells()[0]]))
    multiple = backend.check_unique(weaker)
    assert multiple.kind is VerdictKind.MULTIPLE
    svg = multiple._repr_svg_()
    assert len(_elements(svg, "rect", "highlight")) == 2 * len(multiple.differing_cells) > 0
    clash = Puzzle.parse("11" + "." * 79)
    svg = backend.check_unique(clash)._repr_svg_()
    assert len(_elements(svg, "rect", "highlight")) == 2


def test_book_pages_and_svg_files(tmp_path) -> None:
    puzzles = _top95(8)
    items = [(p, None, str(k + 1)) for k, p in enumerate(puzzles)]
    pages = book_pages(items, per_page=6, solutions=True)
    assert len(pages) == 4
    assert (pages[0].width, pages[0].height) == PAGE_SIZES["a4"]
    written = write_pages(pages[:2], tmp_path / "book.svg")
    assert [p.rsplit("/", 1)[-1] for p in written] == ["book-1.svg", "book-2.svg"]
    first = Path(written[0]).read_text(encoding="utf-8")
    assert len(_elements(first, "text", "digit")) == sum(p.clues for p in puzzles[:6])
    with pytest.raises(ValueError):
        write_pages(pages, tmp_path / "book.gif")
    with pytest.raises(ValueError):
        book_pages(items, per_page=0)


def test_png_and_pdf_through_matplotlib(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    pages = book_pages([(p, None, "x") for p in _top95(3)], per_page=2)
    png = write_pages(pages[:1], tmp_path / "page.png")
    assert Path(png[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = write_pages(pages, tmp_path / "book.pdf")
    data = Path(pdf[0]).read_bytes()
    assert data.startswith(b"%PDF")
    assert len(pages) == 2
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", data)) == 2  # one PDF page per page


def test_draw_refuses_other_objects() -> None:
    with pytest.raises(TypeError):
        draw("not a puzzle")  # type: ignore[arg-type]
