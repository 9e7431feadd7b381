"""Results display compactly (issue 13 item 25): the repr of a count up to a large limit, a
verdict or a solve result names the count, whether it is exact and the first few grids,
never every grid (as the last line of a notebook cell, through IPython's pretty printer)."""

from __future__ import annotations

import pytest

from sudoku_model import Puzzle, Shape, get_backend
from sudoku_model.solving import REPR_GRIDS


@pytest.fixture(scope="module")
def native():
    return get_backend("native")


def test_a_big_count_prints_a_short_line(native) -> None:
    result = native.count(Puzzle.empty(Shape(3, 3)), limit=20_000)
    assert len(result.solutions) == 10_000  # native keeps at most 10,000 grids
    text = repr(result)
    assert len(text) < 500
    assert "at least 20,000 solutions" in text and "multiple" in text
    assert result.solutions[0].to_line() in text
    assert result.solutions[REPR_GRIDS].to_line() not in text
    assert "9,997 more" in text


def test_an_exact_count_says_so(native) -> None:
    result = native.count(Puzzle.empty(Shape(2, 2)), limit=1000)
    assert "exact 288 solutions" in repr(result) and "285 more" in repr(result)
    one = native.count(Puzzle.parse("1.3..4.2.1.3..2."), limit=10)
    assert "exact 1 solution " in repr(one) and "more" not in repr(one)


def test_verdict_and_solve_result_reprs(native) -> None:
    puzzle = Puzzle.parse("1.3..4.2.1.3..2.")
    verdict = native.check_unique(puzzle)
    assert repr(verdict).startswith("<Verdict unique by native")
    assert verdict.solution.to_line() in repr(verdict)
    several = native.check_unique(Puzzle.empty(Shape(3, 3)))
    assert "witnesses" in repr(several) and len(repr(several)) < 400
    solved = native.solve(puzzle)
    assert repr(solved).startswith("<SolveResult solved by native") and len(repr(solved)) < 200
    clash = native.check_unique(Puzzle.parse("11" + "." * 14))
    assert "contradictory" in repr(clash) and "conflicts" in repr(clash)


def test_notebook_text_display_is_the_compact_repr(native) -> None:
    pretty = pytest.importorskip("IPython.lib.pretty")
    result = native.count(Puzzle.empty(Shape(3, 3)), limit=20_000)
    assert pretty.pretty(result) == repr(result)
