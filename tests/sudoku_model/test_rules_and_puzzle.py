"""Rules as data, conflicts() and the solution checker."""

from __future__ import annotations

import pickle

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, ShapeError
from sudoku_model.rules import AllDifferent, Different

SOLVED_9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@pytest.mark.parametrize(
    "variant,extra_units,extra_pairs",
    [
        ("diagonal", 2, 0),
        ("windoku", 4, 0),
        ("anti-knight", 0, None),
        ("anti-king", 0, None),
    ],
)
def test_variant_unit_and_pair_counts(variant, extra_units, extra_pairs):
    shape = Shape(3, 3)
    rules = RuleSet.build(shape, [variant])
    assert len(rules.units) == 27 + extra_units
    if variant == "anti-knight":
        # 8*7*2*2 = 224 knight pairs... counted directly: each cell's knight moves / 2
        knight = sum(
            1
            for r in range(9)
            for c in range(9)
            for dr, dc in [(1, 2), (2, 1), (1, -2), (2, -1)]
            if 0 <= r + dr < 9 and 0 <= c + dc < 9
        )
        assert knight == 224
        # knight moves never share a row or column; the 8 inside each 3x3 box are dropped
        assert len(rules.pairs) == 224 - 9 * 8
    if variant == "anti-king":
        # diagonal neighbours in different boxes only: all others share a box
        assert all(shape.box_of(a) != shape.box_of(b) for a, b in rules.pairs)
        # 128 diagonal steps on the board, 8 inside each of the 9 boxes
        assert len(rules.pairs) == 128 - 9 * 8


def test_peers_follow_the_rules():
    shape = Shape(3, 3)
    assert len(RuleSet.classic(shape).peers[0]) == 20
    assert len(RuleSet.build(shape, ["diagonal"]).peers[0]) == 20 + 6
    assert len(RuleSet.build(shape, ["diagonal"]).peers[1]) == 20
    # anti-king adds the one diagonal neighbour of r1c1 outside its box? none: r2c2 is in box
    assert len(RuleSet.build(shape, ["anti-king"]).peers[0]) == 20
    assert len(RuleSet.build(shape, ["anti-king"]).peers[2]) == 21  # r2c4 is in box 2


def test_rulesets_are_shared_hashable_and_picklable():
    shape = Shape(2, 3)
    assert RuleSet.classic(shape) is RuleSet.build(shape, [])
    a = RuleSet.build(shape, ["x", "anti-king"])
    b = RuleSet.build(shape, ["anti_king", "diagonals"])
    assert a == b and hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) == a
    assert pickle.loads(pickle.dumps(RuleSet.classic(shape))) is RuleSet.classic(shape)
    assert a.kinds == {"all_different", "different"}


def test_jigsaw_regions_replace_boxes():
    shape = Shape(2, 2)
    labels = [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]
    rules = RuleSet.build(shape, ["jigsaw"], regions=labels)
    assert [r.name for r in rules.rules] == ["rows", "columns", "regions"]
    assert rules.regions == tuple(labels)
    with pytest.raises(ShapeError, match="region"):
        RuleSet.build(shape, ["jigsaw"], regions=[0] * 16)
    with pytest.raises(ValueError, match="regions"):
        RuleSet.build(shape, ["jigsaw"])
    with pytest.raises(ValueError, match="unknown variant"):
        RuleSet.build(shape, ["killer-ish"])


def test_windoku_windows_on_other_shapes():
    assert len(RuleSet.build(Shape(4, 4), ["windoku"]).units) == 48 + 9
    with pytest.raises(ShapeError):
        RuleSet(Shape(2, 2), [AllDifferent("bad", ((0, 0, 1),))])
    with pytest.raises(ShapeError):
        RuleSet(Shape(2, 2), [Different("bad", ((0, 16),))])


def test_conflicts_name_the_clash():
    p = Puzzle.parse("1..1" + "." * 77)
    (conflict,) = p.conflicts()
    assert conflict.digit == 1 and conflict.cells == (0, 3) and conflict.unit == "row 1"
    # the same digit twice in a column and a box at once: two conflicts
    p = Puzzle.parse("1........1........" + "." * 63)
    assert {c.unit for c in p.conflicts()} == {"column 1", "box 1"}
    assert Puzzle.parse(SOLVED_9).conflicts() == []
    diag = Puzzle.parse("1" + "." * 9 + "1" + "." * 70, variants=["diagonal"])
    assert any(c.rule == "diagonals" for c in diag.conflicts())
    knight = Puzzle.parse("..1" + "." * 10 + "1" + "." * 67, variants=["anti-knight"])
    assert [c.rule for c in knight.conflicts()] == ["anti-knight"]


def test_checker_accepts_a_solution_and_says_where_a_wrong_one_fails():
    solution = Grid.parse(SOLVED_9)
    puzzle = Puzzle(solution.without(range(0, 81, 2)))
    assert puzzle.check(solution).ok and puzzle.is_solution(solution)
    swapped = list(solution.values)
    swapped[1], swapped[2] = swapped[2], swapped[1]  # r1c2 <-> r1c3: breaks columns
    report = puzzle.check(Grid(solution.shape, swapped))
    assert not report.ok
    kinds = {p.kind for p in report.problems}
    assert kinds == {"given-changed", "duplicate"}
    incomplete = puzzle.check(solution.without([80]))
    assert [p.kind for p in incomplete.problems] == ["empty"]
    with pytest.raises(ValueError):
        puzzle.check(Grid.empty(Shape(2, 2)))


def test_puzzle_value_semantics():
    p = Puzzle.parse("1.3..4.2.1.4..2.")
    q = Puzzle.parse("1.3..4.2.1.4..2.")
    assert p == q and hash(p) == hash(q)
    assert eval(repr(p), {"Puzzle": Puzzle, "Grid": Grid, "Shape": Shape}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    with pytest.raises(AttributeError):
        p.givens = None  # type: ignore[misc]


def test_fast_clash_check_agrees_with_conflicts():
    import random

    rng = random.Random(7)
    solution = Grid.parse(SOLVED_9)
    for variants in ([], ["diagonal"], ["anti-knight"], ["anti-king", "windoku"]):
        rules = RuleSet.build(Shape(3, 3), variants)
        for _ in range(300):
            values = [v if rng.random() < 0.3 else 0 for v in solution.values]
            for _ in range(rng.randrange(3)):
                values[rng.randrange(81)] = rng.randrange(1, 10)
            puzzle = Puzzle(Grid(Shape(3, 3), values), rules)
            assert puzzle.is_contradictory == bool(puzzle.conflicts())
