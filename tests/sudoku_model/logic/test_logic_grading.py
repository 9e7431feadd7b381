"""Grades: levels, scores, verdicts for puzzles that are not proper."""

from __future__ import annotations

from sudoku_model import Puzzle
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.logic import LEVELS, SINGLES, grade
from sudoku_model.solving import Budget, VerdictKind


def _lines(name: str) -> list[str]:
    with open(bundled_path(name)) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def test_singles_puzzle_is_easy_and_scores_its_steps():
    line = _lines("easy50")[0]
    g = grade(Puzzle.parse(line))
    assert g.verdict is VerdictKind.UNIQUE and g.level == "easy" and g.guesses == 0
    assert set(g.histogram) <= {"naked_single", "hidden_single"}
    empty_cells = Puzzle.parse(line).givens.to_line().count(".")
    assert sum(g.histogram.values()) == len(g.steps) == empty_cells
    assert g.score >= len(g.steps)  # every step scores at least 1
    assert g.solution is not None and Puzzle.parse(line).is_solution(g.solution)


def test_levels_follow_the_hardest_technique():
    seen = set()
    for line in _lines("top95"):
        g = grade(Puzzle.parse(line), keep_steps=False)
        assert g.verdict is VerdictKind.UNIQUE
        seen.add(g.level)
        if g.level == "extreme":
            assert g.hardest == "search" and g.guesses > 0
        else:
            assert g.guesses == 0 and g.level in LEVELS[:4]
    assert "extreme" in seen and "medium" in seen and "easy" not in seen


def test_singles_only_grade_needs_search_on_hard_puzzles():
    line = _lines("top95")[0]
    g = grade(Puzzle.parse(line), techniques=SINGLES)
    assert g.level == "extreme" and g.guesses > 0 and g.verdict is VerdictKind.UNIQUE


def test_a_puzzle_with_two_solutions_is_never_reported_solved():
    import gzip

    with gzip.open(bundled_path("17-clue"), "rt") as f:
        seventeen = next(ln.strip() for ln in f if ln.strip() and not ln.startswith("#"))
    puzzle = Puzzle.parse(seventeen)
    assert puzzle.clues == 17
    assert grade(puzzle).verdict is VerdictKind.UNIQUE
    for cell in puzzle.givens.filled_cells()[:4]:
        g = grade(puzzle.with_givens(puzzle.givens.without([cell])))
        assert g.verdict is VerdictKind.MULTIPLE
        assert g.level is None and g.solution is None


def test_unsolvable_and_contradictory():
    contradictory = grade(Puzzle.parse("11.............."))
    assert contradictory.verdict is VerdictKind.CONTRADICTORY and contradictory.level is None
    # Legal givens but no solution: logic finds the contradiction.
    g = grade(Puzzle.parse("1.3..4.2.1.4..2."))
    assert g.verdict is VerdictKind.UNSOLVABLE and g.level is None and g.solution is None
    for record in _lines("counts-43"):
        text, count, *_ = record.split(":")
        puzzle = Puzzle.parse(text)
        g = grade(puzzle)
        expected = {
            0: {VerdictKind.UNSOLVABLE, VerdictKind.CONTRADICTORY},
            1: {VerdictKind.UNIQUE},
        }.get(int(count), {VerdictKind.MULTIPLE})
        assert g.verdict in expected, (record, g.verdict)


def test_budget_gives_unknown():
    line = _lines("top95")[0]
    g = grade(Puzzle.parse(line), techniques=SINGLES, budget=Budget(nodes=1))
    assert g.verdict is VerdictKind.UNKNOWN and g.level is None


def test_empty_grids_are_multiple():
    for shape in (Shape(2, 2), Shape(2, 3)):
        assert grade(Puzzle.empty(shape)).verdict is VerdictKind.MULTIPLE


def test_to_json_has_the_rate_fields():
    d = grade(Puzzle.parse(_lines("top95")[3])).to_json()
    assert set(d) == {"verdict", "level", "score", "hardest", "techniques", "guesses", "seconds"}
