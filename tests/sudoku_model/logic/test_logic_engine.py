"""The candidate-grid engine: events, dirty units, singles propagation, search."""

from __future__ import annotations

import random

import pytest

from sudoku_model import Puzzle
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.logic import CandidateGrid, search, tables_for
from sudoku_model.rules import RuleSet


def _lines(name: str) -> list[str]:
    with open(bundled_path(name)) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def test_placing_touches_only_the_units_of_changed_cells():
    rules = RuleSet.classic(Shape(3, 3))
    t = tables_for(rules)
    grid = CandidateGrid(t)
    grid.dirty.clear()
    grid.place(0, 5)
    expected = set(t.cell_units[0])
    for p in t.peers[0]:
        expected.update(t.cell_units[p])
    assert grid.dirty == expected
    assert 26 not in grid.dirty  # box 9 shares no cell with r1c1's peers
    assert all(not grid.cands[p] >> 4 & 1 for p in t.peers[0])
    assert all(grid.cands[c] == t.all_mask for c in range(81) if c != 0 and c not in t.peer_sets[0])
    grid.dirty.clear()
    assert grid.eliminate(80, 1 << 2)
    assert grid.dirty == set(t.cell_units[80])
    assert not grid.eliminate(80, 1 << 2)  # nothing left to remove: no event


def test_a_cell_left_with_one_candidate_joins_the_queue_and_none_breaks():
    grid = CandidateGrid(tables_for(RuleSet.classic(Shape(2, 2))))
    grid.queue.clear()
    grid.eliminate(0, 0b0110)
    assert grid.queue == [] and grid.broken is None
    grid.eliminate(0, 0b0001)
    assert grid.queue == [0]
    grid.eliminate(0, 0b1000)
    assert grid.broken is not None


def test_anti_knight_pairs_are_peers():
    rules = RuleSet.build(Shape(3, 3), ["anti-knight"])
    grid = CandidateGrid(tables_for(rules))
    grid.place(0, 1)  # r1c1; r2c3 and r3c2 are a knight's move away
    assert not grid.cands[1 * 9 + 2] & 1 and not grid.cands[2 * 9 + 1] & 1
    assert grid.cands[4 * 9 + 4] & 1


@pytest.mark.parametrize("line", _lines("easy50")[:10])
def test_propagate_singles_matches_a_naive_singles_solver(line):
    puzzle = Puzzle.parse(line)
    grid = CandidateGrid.from_puzzle(puzzle)
    assert grid.propagate_singles()
    assert grid.values == _naive_singles(puzzle)


def _naive_singles(puzzle: Puzzle) -> list[int]:
    """Rescan everything after every placement: slow, obviously right."""
    rules = puzzle.rules
    n = puzzle.size
    vals = list(puzzle.givens.values)
    while True:
        cand = {
            c: set(range(1, n + 1)) - {vals[p] for p in rules.peers[c]}
            for c in range(len(vals))
            if not vals[c]
        }
        single = next(((c, s) for c, s in cand.items() if len(s) == 1), None)
        if single:
            vals[single[0]] = single[1].pop()
            continue
        hidden = None
        for unit in rules.full_units:
            for d in range(1, n + 1):
                if d in (vals[c] for c in unit):
                    continue
                places = [c for c in unit if not vals[c] and d in cand[c]]
                if len(places) == 1:
                    hidden = (places[0], d)
                    break
            if hidden:
                break
        if not hidden:
            return vals
        vals[hidden[0]] = hidden[1]


def test_clashing_givens_break_the_grid():
    grid = CandidateGrid.from_puzzle(Puzzle.parse("11.............."))
    assert grid.broken is not None


def test_search_counts_the_empty_4x4_grid():
    found = search(CandidateGrid.from_puzzle(Puzzle.empty(Shape(2, 2))), limit=1000)
    assert found.complete and len(found.solutions) == 288
    assert len(set(found.solutions)) == 288
    puzzle = Puzzle.empty(Shape(2, 2))
    assert all(puzzle.is_solution(Grid(puzzle.shape, s)) for s in found.solutions)


def test_search_respects_limits_and_budgets():
    grid = CandidateGrid.from_puzzle(Puzzle.empty(Shape(3, 3)))
    found = search(grid, limit=3)
    assert len(found.solutions) == 3 and not found.complete
    found = search(grid, limit=10, node_limit=5)
    assert found.stopped_by_budget and not found.complete
    assert grid.empty == 81  # the input grid is left alone


@pytest.mark.parametrize("record", _lines("counts-43"))
def test_search_counts_match_the_counts_file(record):
    text, count, *solution = record.split(":")
    puzzle = Puzzle.parse(text)
    if puzzle.conflicts():
        assert int(count) == 0
        return
    found = search(CandidateGrid.from_puzzle(puzzle), limit=int(count) + 1)
    assert found.complete and len(found.solutions) == int(count)
    if solution:
        assert Grid.parse(solution[0]).values == found.solutions[0]


@pytest.mark.parametrize("box", [(2, 3), (2, 4), (3, 4), (4, 4), (5, 5)])
def test_search_solves_larger_shapes(box):
    shape = Shape(*box)
    solution = _pattern_solution(shape)
    rng = random.Random(box[0] * 100 + box[1])
    cells = list(range(shape.cell_count))
    rng.shuffle(cells)
    puzzle = Puzzle(Grid(shape, solution)).with_givens(
        Grid(shape, solution).without(cells[: shape.cell_count // 2])
    )
    found = search(CandidateGrid.from_puzzle(puzzle), limit=1)
    assert found.solutions and puzzle.is_solution(Grid(shape, found.solutions[0]))


def _pattern_solution(shape: Shape) -> list[int]:
    """The textbook valid grid: (box_cols*(r % box_rows) + r // box_rows + c) % n + 1."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.size
    return [(bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n)]
