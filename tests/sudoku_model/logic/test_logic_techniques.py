"""Each technique on hand-made positions: one where it must fire (with the exact
eliminations a human would make) and one where it must not."""

from __future__ import annotations

from sudoku_model import Puzzle
from sudoku_model.geometry import Shape
from sudoku_model.logic import CandidateGrid, apply_step, tables_for
from sudoku_model.logic.techniques import (
    TECHNIQUES,
    hidden_pair,
    hidden_quad,
    hidden_single,
    hidden_triple,
    jellyfish,
    locked_claiming,
    locked_pointing,
    naked_pair,
    naked_quad,
    naked_single,
    naked_triple,
    simple_colouring,
    swordfish,
    x_chain,
    x_wing,
    xy_chain,
    xy_wing,
    xyz_wing,
)
from sudoku_model.rules import RuleSet

CLASSIC = RuleSet.classic(Shape(3, 3))


def cell(name: str, n: int = 9) -> int:
    """``"r3c7"`` -> cell index."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1


def mask(digits: str | list[int]) -> int:
    out = 0
    for d in digits:
        out |= 1 << (int(d) - 1)
    return out


def position(
    marks: dict[str, str] | None = None,
    *,
    without: dict[str, list[str]] | None = None,
    rules: RuleSet = CLASSIC,
) -> CandidateGrid:
    """A grid with every cell empty and every candidate possible, except ``marks``
    (cell name -> its candidates) and ``without`` (digit -> cells that lose it).

    The single queue and dirty units are cleared so only the technique under test acts.
    """
    grid = CandidateGrid(tables_for(rules))
    n = rules.shape.size
    for name, digits in (marks or {}).items():
        grid.cands[cell(name, n)] = mask(digits)
    for digit, names in (without or {}).items():
        for name in names:
            grid.cands[cell(name, n)] &= ~mask(digit)
    grid.queue.clear()
    grid.dirty.clear()
    return grid


def row_cells(r: int, cols: range | list[int]) -> list[str]:
    return [f"r{r}c{c}" for c in cols]


def col_cells(c: int, rows: range | list[int]) -> list[str]:
    return [f"r{r}c{c}" for r in rows]


def names(step_pairs: tuple[tuple[int, int], ...], n: int = 9) -> set[tuple[str, int]]:
    """Step placements/eliminations as {("r1c2", digit)}."""
    return {(f"r{c // n + 1}c{c % n + 1}", d) for c, d in step_pairs}


# -- singles -------------------------------------------------------------------------------
def test_naked_single_fires_on_a_cell_with_one_candidate():
    grid = CandidateGrid.from_puzzle(Puzzle.parse("1.3..4.2.1.3..2."))
    step = naked_single(grid)
    assert step is not None and step.technique == "naked_single"
    ((c, d),) = step.placements
    assert grid.cands[c] == 1 << (d - 1)
    assert "1234341221434321"[c] == str(d)


def test_naked_single_does_not_fire_on_an_empty_grid():
    assert naked_single(CandidateGrid.from_puzzle(Puzzle.empty(Shape(3, 3)))) is None


def test_hidden_single_fires_where_a_digit_has_one_place_in_a_unit():
    grid = position(without={"5": row_cells(1, [1, 2, 3, 5, 6, 7, 8, 9])})
    grid.dirty.update(range(27))
    step = hidden_single(grid)
    assert step is not None and names(step.placements) == {("r1c4", 5)}
    assert "row 1" in step.explanation and "r1c4" in step.explanation


def test_hidden_single_does_not_fire_when_every_digit_has_two_places():
    grid = position(without={"5": row_cells(1, [1, 2, 3, 5, 6, 7, 8])})
    grid.dirty.update(range(27))
    assert hidden_single(grid) is None
    assert grid.broken is None


def test_hidden_single_reports_a_digit_with_no_place():
    grid = position(without={"5": row_cells(1, range(1, 10))})
    grid.dirty.update(range(27))
    assert hidden_single(grid) is None
    assert grid.broken is not None and "5" in grid.broken


def test_hidden_single_ignores_units_shorter_than_n():
    # A 3-cell unit needs no digit: a digit absent from it is no contradiction.
    from sudoku_model.rules import AllDifferent, boxes_rule, columns_rule, rows_rule

    shape = Shape(3, 3)
    rules = RuleSet(
        shape,
        (
            rows_rule(shape),
            columns_rule(shape),
            boxes_rule(shape),
            AllDifferent("short", ((0, 10, 20),)),
        ),
    )
    grid = position(without={"5": ["r1c1", "r2c2", "r3c3"]}, rules=rules)
    grid.dirty.add(27)
    assert hidden_single(grid) is None and grid.broken is None


# -- locked candidates ---------------------------------------------------------------------
def test_pointing_removes_the_digit_from_the_rest_of_the_line():
    box1_not_row1 = [f"r{r}c{c}" for r in (2, 3) for c in (1, 2, 3)] + ["r1c3"]
    grid = position(without={"7": box1_not_row1})
    step = locked_pointing(grid)
    assert step is not None
    assert names(step.eliminations) == {(f"r1c{c}", 7) for c in range(4, 10)}
    assert set(step.cells) == {cell("r1c1"), cell("r1c2")}
    assert locked_claiming(grid) is None


def test_claiming_removes_the_digit_from_the_rest_of_the_box():
    grid = position(without={"7": row_cells(1, range(4, 10))})
    step = locked_claiming(grid)
    assert step is not None
    assert names(step.eliminations) == {(f"r{r}c{c}", 7) for r in (2, 3) for c in (1, 2, 3)}
    assert locked_pointing(grid) is None


def test_locked_candidates_do_not_fire_on_a_fresh_grid():
    grid = position()
    assert locked_pointing(grid) is None and locked_claiming(grid) is None


def test_locked_candidates_work_between_a_diagonal_and_a_box():
    rules = RuleSet.build(Shape(3, 3), ["diagonal"])
    # On the main diagonal, 4 fits only in box 1 (r1c1, r2c2, r3c3): box 1 loses it elsewhere.
    grid = position(without={"4": [f"r{i}c{i}" for i in range(4, 10)]}, rules=rules)
    step = locked_pointing(grid)
    assert step is not None
    assert {cell("r1c1"), cell("r2c2"), cell("r3c3")} == set(step.cells)
    assert names(step.eliminations) >= {("r1c2", 4), ("r3c1", 4)}
    assert all(c not in step.cells for c, _ in step.eliminations)


# -- subsets -------------------------------------------------------------------------------
def test_naked_pair():
    grid = position({"r1c1": "12", "r1c2": "12"})
    step = naked_pair(grid)
    assert step is not None and step.digits == (1, 2)
    # The first unit examined is row 1; box 1 gives a second step.
    assert names(step.eliminations) == {(f"r1c{c}", d) for c in range(3, 10) for d in (1, 2)}
    apply_step(grid, step)
    step = naked_pair(grid)
    assert step is not None and step.units == (18,)
    assert names(step.eliminations) == {
        (f"r{r}c{c}", d) for r in (2, 3) for c in (1, 2, 3) for d in (1, 2)
    }
    assert naked_pair(position({"r1c1": "12", "r1c2": "13"})) is None


def test_naked_triple_and_quad():
    grid = position({"r1c1": "12", "r1c5": "23", "r1c9": "13"})
    assert naked_pair(grid) is None
    step = naked_triple(grid)
    assert step is not None and step.digits == (1, 2, 3)
    assert names(step.eliminations) == {
        (f"r1c{c}", d) for c in (2, 3, 4, 6, 7, 8) for d in (1, 2, 3)
    }
    grid = position({"r1c1": "12", "r1c5": "23", "r1c9": "34", "r1c2": "14"})
    assert naked_triple(grid) is None
    step = naked_quad(grid)
    assert step is not None and step.digits == (1, 2, 3, 4)
    assert naked_quad(position({"r1c1": "12", "r1c5": "23", "r1c9": "34", "r1c2": "15"})) is None


def test_hidden_pair():
    grid = position(without={"1": row_cells(1, range(3, 10)), "2": row_cells(1, range(3, 10))})
    step = hidden_pair(grid)
    assert step is not None and step.digits == (1, 2)
    assert names(step.eliminations) == {(f"r1c{c}", d) for c in (1, 2) for d in range(3, 10)}
    grid = position(
        without={"1": row_cells(1, range(3, 10)), "2": row_cells(1, [2] + list(range(4, 10)))}
    )
    assert hidden_pair(grid) is None


def test_hidden_triple_and_quad():
    outside = row_cells(1, range(4, 10))
    grid = position(without={"1": outside, "2": outside, "3": outside})
    assert hidden_pair(grid) is None
    step = hidden_triple(grid)
    assert step is not None and step.digits == (1, 2, 3)
    assert names(step.eliminations) == {(f"r1c{c}", d) for c in (1, 2, 3) for d in range(4, 10)}
    outside = row_cells(1, range(5, 10))
    grid = position(without={"1": outside, "2": outside, "3": outside, "4": outside})
    assert hidden_triple(grid) is None
    step = hidden_quad(grid)
    assert step is not None and step.digits == (1, 2, 3, 4)
    grid = position(without={"1": outside, "2": outside, "3": outside, "4": outside[1:]})
    assert hidden_quad(grid) is None


# -- fish ----------------------------------------------------------------------------------
def _only(digit: str, keep: dict[int, list[int]], *, by: str = "row") -> dict[str, list[str]]:
    """Remove ``digit`` from the given lines except at the listed positions."""
    cells = []
    for line, positions in keep.items():
        others = [i for i in range(1, 10) if i not in positions]
        cells += row_cells(line, others) if by == "row" else col_cells(line, others)
    return {digit: cells}


def test_x_wing_on_rows():
    grid = position(without=_only("4", {1: [2, 7], 5: [2, 7]}))
    step = x_wing(grid)
    assert step is not None and step.technique == "x_wing"
    assert names(step.eliminations) == {
        (f"r{r}c{c}", 4) for c in (2, 7) for r in (2, 3, 4, 6, 7, 8, 9)
    }
    assert x_wing(position(without=_only("4", {1: [2, 7], 5: [2, 8]}))) is None


def test_x_wing_on_columns():
    grid = position(without=_only("4", {3: [1, 6], 8: [1, 6]}, by="column"))
    step = x_wing(grid)
    assert step is not None
    assert names(step.eliminations) == {
        (f"r{r}c{c}", 4) for r in (1, 6) for c in (1, 2, 4, 5, 6, 7, 9)
    }
    assert "column 3" in step.explanation and "row 6" in step.explanation


def test_swordfish():
    grid = position(without=_only("4", {1: [2, 7], 5: [7, 9], 9: [2, 9]}))
    assert x_wing(grid) is None
    step = swordfish(grid)
    assert step is not None
    assert names(step.eliminations) == {
        (f"r{r}c{c}", 4) for c in (2, 7, 9) for r in (2, 3, 4, 6, 7, 8)
    }
    assert swordfish(position(without=_only("4", {1: [2, 7], 5: [7, 9], 9: [2, 8]}))) is None


def test_jellyfish():
    grid = position(without=_only("4", {1: [1, 2], 4: [2, 3], 6: [3, 5], 8: [1, 5]}))
    assert x_wing(grid) is None and swordfish(grid) is None
    step = jellyfish(grid)
    assert step is not None
    assert names(step.eliminations) == {
        (f"r{r}c{c}", 4) for c in (1, 2, 3, 5) for r in (2, 3, 5, 7, 9)
    }
    assert (
        jellyfish(position(without=_only("4", {1: [1, 2], 4: [2, 3], 6: [3, 5], 8: [1, 6]})))
        is None
    )


# -- wings ---------------------------------------------------------------------------------
def test_xy_wing():
    grid = position({"r5c5": "12", "r5c1": "13", "r1c5": "23"})
    step = xy_wing(grid)
    assert step is not None and names(step.eliminations) == {("r1c1", 3)}
    assert set(step.cells) == {cell("r5c5"), cell("r5c1"), cell("r1c5")}
    assert xy_wing(position({"r5c5": "12", "r5c1": "13", "r1c5": "24"})) is None


def test_xyz_wing():
    grid = position({"r1c1": "123", "r1c5": "13", "r2c2": "23"})
    assert xy_wing(grid) is None
    step = xyz_wing(grid)
    assert step is not None and names(step.eliminations) == {("r1c2", 3), ("r1c3", 3)}
    assert xyz_wing(position({"r1c1": "123", "r1c5": "13", "r2c2": "24"})) is None


# -- chains --------------------------------------------------------------------------------
def _digit_only_at(digit: str, keep: list[str]) -> dict[str, list[str]]:
    return {
        digit: [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if f"r{r}c{c}" not in keep]
    }


# Digit 1 only at these cells. Strong links: box 1 (r1c2-r3c3), column 2 (r1c2-r5c2),
# row 5 (r5c2-r5c8); r3c8 sees r3c3 and r5c8, the two ends of opposite colours.
CHAIN_CELLS = ["r1c2", "r3c3", "r5c2", "r5c8", "r3c8", "r3c5", "r8c8"]


def test_simple_colouring_trap():
    grid = position(without=_digit_only_at("1", CHAIN_CELLS))
    step = simple_colouring(grid)
    assert step is not None and names(step.eliminations) == {("r3c8", 1)}
    assert "see both" in step.explanation


def test_simple_colouring_wrap():
    # Strong links row 1, column 7, row 5, column 3 colour r1c1, r5c7, r2c3 alike; box 1
    # holds r1c1 and r2c3 (and r3c2, so it is no strong link): that colour is false.
    grid = position(without=_digit_only_at("1", ["r1c1", "r1c7", "r5c7", "r5c3", "r2c3", "r3c2"]))
    step = simple_colouring(grid)
    assert step is not None
    assert names(step.eliminations) == {("r1c1", 1), ("r5c7", 1), ("r2c3", 1)}


def test_x_chain():
    grid = position(without=_digit_only_at("1", CHAIN_CELLS))
    step = x_chain(grid)
    assert step is not None and names(step.eliminations) == {("r3c8", 1)}
    assert len(step.cells) == 4 and step.cells[0] in (cell("r3c3"), cell("r5c8"))


def test_chains_do_not_fire_when_the_chain_is_broken():
    grid = position(without=_digit_only_at("1", ["r1c2", "r3c3", "r5c8", "r3c8", "r3c5", "r8c8"]))
    assert simple_colouring(grid) is None and x_chain(grid) is None


def test_xy_chain():
    marks = {"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c9": "14"}
    grid = position(marks)
    assert xy_wing(grid) is None
    step = xy_chain(grid)
    assert step is not None and names(step.eliminations) == {("r1c9", 1), ("r5c1", 1)}
    assert len(step.cells) == 4
    assert xy_chain(position({**marks, "r5c9": "45"})) is None


def test_wings_and_chains_use_anti_knight_peers():
    rules = RuleSet.build(Shape(3, 3), ["anti-knight"])
    # r3c2 is a knight's move from r1c1 and from r5c3... pincers r1c1 {1,3} and r5c3 {2,3}
    # around a pivot r5c1 {1,2}: r3c2 sees both pincers only through knight moves.
    grid = position({"r5c1": "12", "r1c1": "13", "r5c3": "23"}, rules=rules)
    step = xy_wing(grid)
    assert step is not None and ("r3c2", 3) in names(step.eliminations)
    classic = position({"r5c1": "12", "r1c1": "13", "r5c3": "23"}, rules=CLASSIC)
    step = xy_wing(classic)
    assert step is None or ("r3c2", 3) not in names(step.eliminations)


def test_technique_table_is_ordered_and_sound_by_default():
    from sudoku_model.logic.techniques import LEVELS

    ranks = [LEVELS.index(t.level) for t in TECHNIQUES]
    assert ranks == sorted(ranks)
    assert not any(t.assumes_uniqueness for t in TECHNIQUES)
