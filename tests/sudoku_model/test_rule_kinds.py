"""The constraint rule kinds as data: construction, validation errors, reprs, checkers."""

from __future__ import annotations

import pickle

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.rules import (
    RULE_KINDS,
    Domain,
    Relation,
    RuleError,
    Sandwich,
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

S4 = Shape(2, 2)
S9 = Shape(3, 3)
SOLVED_4 = "1234341221434321"
SOLVED_9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _cell(shape: Shape, r: int, c: int) -> int:
    return shape.cell(r, c)


def test_kinds_are_declared():
    for cls in (Relation, Domain, Sum, Sandwich):
        assert cls.kind in RULE_KINDS


@pytest.mark.parametrize(
    "rule",
    [
        Relation("greater-than", ((0, 1),), frozenset({(2, 1)})),
        Domain("even", ((0, frozenset({2, 4})),)),
        Sum("killer", (SumGroup((0, 1), (1, 1), 3, True),)),
        Sandwich("sandwich", (((0, 1, 2, 3), 0),)),
    ],
)
def test_reprs_reproduce_and_pickle(rule):
    from sudoku_model.rules import Domain, Relation, Sandwich, Sum, SumGroup  # noqa: F401

    assert eval(repr(rule)) == rule
    assert pickle.loads(pickle.dumps(rule)) == rule
    assert hash(eval(repr(rule))) == hash(rule)


def test_lists_are_stored_as_tuples():
    rule = Relation("r", [[0, 1]], {(1, 2)})  # type: ignore[arg-type]
    assert rule.pairs == ((0, 1),) and rule.allowed == frozenset({(1, 2)})
    hash(rule)


def test_ruleset_with_rules_checks_solutions():
    solved = Grid.parse(SOLVED_4)
    base = RuleSet.classic(S4)
    # r1: 1 2 3 4 -> a cage {r1c1, r1c2} = 3 holds; = 4 does not
    good = Puzzle.empty(S4, base.with_rules([killer_rule(S4, [((0, 1), 3)])]))
    bad = Puzzle.empty(S4, base.with_rules([killer_rule(S4, [((0, 1), 4)])]))
    assert good.check(solved).ok
    report = bad.check(solved)
    assert not report.ok and [p.kind for p in report.problems] == ["rule"]
    assert "killer" in report.problems[0].message and "r1c1" in report.problems[0].message
    assert "killer" in repr(good.rules)
    assert good.rules.kinds == {"all_different", "sum"}


def test_each_kind_checks_a_known_solution():
    g = Grid.parse(SOLVED_9)
    v = g.values
    shape = S9
    # build rules that the solution satisfies, and a broken twin of each
    pairs = [(a, a + 1) for a in range(0, 81) if a % 9 < 8]
    white = [p for p in pairs if abs(v[p[0]] - v[p[1]]) == 1][:3]
    black = [p for p in pairs if v[p[0]] == 2 * v[p[1]] or v[p[1]] == 2 * v[p[0]]][:3]
    xs = [p for p in pairs if v[p[0]] + v[p[1]] == 10][:3]
    vs = [p for p in pairs if v[p[0]] + v[p[1]] == 5][:3]
    gt = [(a, b) if v[a] > v[b] else (b, a) for a, b in pairs[:5]]
    thermo = [0, 1] if v[0] < v[1] else [1, 0]
    evens = [c for c in range(81) if v[c] % 2 == 0][:5]
    odds = [c for c in range(81) if v[c] % 2][:5]
    row0 = list(v[:9])
    i, j = sorted((row0.index(1), row0.index(9)))
    sandwich_total = sum(row0[i + 1 : j])
    non_white = next(p for p in pairs if abs(v[p[0]] - v[p[1]]) != 1)
    arrow = next(
        ((a,), (b, d))
        for a in range(81)
        for b in range(81)
        for d in range(81)
        if len({a, b, d}) == 3 and v[a] == v[b] + v[d]
    )
    ok_rules = [
        *kropki_rules(shape, white, black),
        *xv_rules(shape, xs, vs),
        greater_than_rule(shape, gt),
        thermometer_rule(shape, [thermo]),
        parity_rule(shape, evens, odds),
        killer_rule(shape, [((0, 1, 2), v[0] + v[1] + v[2])]),
        sum_lines_rule(shape, [((0, 10, 20), v[0] + v[10] + v[20])]),
        arrow_rule(shape, [arrow]),
        sandwich_rule(shape, rows={0: sandwich_total}),
    ]
    rules = RuleSet.classic(shape).with_rules(ok_rules)
    assert Puzzle.empty(shape, rules).check(g).ok
    broken = [
        kropki_rules(shape, [non_white])[0],
        xv_rules(shape, [vs[0]], [xs[0]])[0],
        greater_than_rule(shape, [(gt[0][1], gt[0][0])]),
        thermometer_rule(shape, [thermo[::-1]]),
        parity_rule(shape, odd=evens[:1]),
        killer_rule(shape, [((0, 1, 2), v[0] + v[1] + v[2] + 1)]),
        sum_lines_rule(shape, [((0, 10, 20), v[0] + v[10] + v[20] + 1)]),
        arrow_rule(shape, [(arrow[0], arrow[1][:1])]),
        sandwich_rule(shape, rows={0: next(t for t in (0, 2, 3, 4, 5) if t != sandwich_total)}),
    ]
    for rule in broken:
        report = Puzzle.empty(shape, RuleSet.classic(shape).with_rules([rule])).check(g)
        assert not report.ok, rule
        assert all(p.kind == "rule" and rule.name in p.message for p in report.problems)


def test_arrow_reads_a_two_cell_circle_as_tens_then_units():
    # circle r1c1,r1c2 = 1,2 -> 12; shaft r2c3..: 3 + 4 + 5 = 12 on a 9x9 solution row
    shape = S9
    rule = arrow_rule(shape, [((0, 1), (9, 10))])
    g = rule.groups[0]
    assert g.weights == (-10, -1, 1, 1) and g.total == 0 and not g.distinct
    values = [0] * 81
    values[0], values[1], values[9], values[10] = 1, 2, 5, 7
    assert rule.violations(values, shape) == []
    values[10] = 6
    assert rule.violations(values, shape)


def test_sandwich_checker_on_partial_lines():
    rule = sandwich_rule(S4, rows={0: 5})  # 1 x y 4 with x + y = 5
    assert rule.violations([1, 2, 3, 4] + [0] * 12, S4) == []
    assert rule.violations([1, 3, 2, 4] + [0] * 12, S4) == []
    assert rule.violations([2, 1, 4, 3] + [0] * 12, S4)  # between: nothing = 0
    assert rule.violations([1, 0, 3, 4] + [0] * 12, S4) == []  # undecided
    assert sandwich_rule(S4, rows={0: 0}).violations([2, 1, 4, 3] + [0] * 12, S4) == []


def test_conflicts_list_givens_breaking_new_kinds():
    rules = RuleSet.classic(S4).with_rules([greater_than_rule(S4, [(0, 1)])])
    p = Puzzle(Grid.parse("12" + "." * 14), rules)
    assert p.is_contradictory and len(p.conflicts()) == 1
    assert "greater-than" in p.conflicts()[0].describe(S4)
    q = Puzzle(Grid.parse("21" + "." * 14), rules)
    assert not q.is_contradictory and q.conflicts() == []


def test_nonconsecutive_and_kropki_negative_cover_every_neighbour_pair():
    assert len(nonconsecutive_rule(S9).pairs) == 2 * 9 * 8
    rules = kropki_rules(S4, white=[(0, 1)], negative=True)
    assert [r.name for r in rules] == ["kropki white", "kropki negative"]
    assert len(rules[1].pairs) == 2 * 4 * 3 - 1
    assert (1, 2) not in rules[1].allowed and (4, 2) not in rules[1].allowed
    assert (1, 4) in rules[1].allowed and (1, 3) in rules[1].allowed


@pytest.mark.parametrize(
    "make,fragment",
    [
        (lambda: killer_rule(S9, [((0, 1), 2)]), "cannot reach total 2"),
        (lambda: killer_rule(S9, [((0, 1), 18)]), "cannot reach total 18"),
        (lambda: killer_rule(S9, [((0, 1), 3), ((1, 2), 5)]), "overlap at r1c2"),
        (lambda: killer_rule(S9, [((0, 81), 10)]), "outside"),
        (lambda: killer_rule(S4, [(tuple(range(5)), 10)]), "cannot reach"),
        (lambda: thermometer_rule(S9, [[0, 2]]), "not a path"),
        (lambda: thermometer_rule(S9, [[0, 1, 0]]), "repeats a cell"),
        (lambda: thermometer_rule(S4, [[0, 1, 2, 3, 7]]), "cannot increase"),
        (lambda: kropki_rules(S9, white=[(0, 10)]), "not orthogonal neighbours"),
        (lambda: kropki_rules(S9, white=[(0, 1)], black=[(1, 0)]), "two dots"),
        (lambda: xv_rules(S4, x=[(0, 1)]), "allows no pair"),
        (lambda: parity_rule(S9, even=[3], odd=[3]), "even and odd"),
        (lambda: sandwich_rule(S4, rows={0: 1}), "cannot be reached"),
        (lambda: sandwich_rule(S4, rows={4: 0}), "outside"),
        (lambda: arrow_rule(S4, [((0,), (1, 2, 3, 5, 6))]), "cannot reach"),
        (lambda: arrow_rule(S9, [((0,), ())]), "needs a circle and a shaft"),
        (lambda: Relation("r", ((0, 0),), frozenset({(1, 2)})), "two different cells"),
        (lambda: Domain("d", ((0, frozenset()),)), "no digit"),
        (lambda: SumGroup((0, 1), (1,), 3, True), "weights"),
        (lambda: SumGroup((0, 1), (1, 0), 3, True), "non-zero"),
        (
            lambda: RuleSet(S4, [Relation("big", ((0, 1),), frozenset({(5, 1)}))]),
            "beyond the digits",
        ),
        (lambda: RuleSet(S4, [Domain("d", ((0, frozenset({7})),))]), "beyond 1..4"),
        (lambda: RuleSet(S4, [Sandwich("s", (((0, 1, 2), 0),))]), "not 4"),
    ],
)
def test_bad_rules_raise_errors_naming_the_rule(make, fragment):
    with pytest.raises(RuleError, match=fragment):
        make()


def test_rule_errors_are_value_errors():
    with pytest.raises(ValueError):
        killer_rule(S9, [((0, 1), 2)])
