"""Nested dynamic forcing chains: SE's levels 2-5 ("+ Forcing Chains" 9.5 up to
"+ Dynamic Forcing Chains (+ Forcing Chains)" 11.0), their rule parents, names, soundness
on a forum puzzle where they fire, and the budget."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_model import Puzzle
from sudoku_model.se import PRODUCERS, State, apply_step, chaining, native, rate_se
from sudoku_model.se.chaining import NAKED, NO_CAUSE, nested_suffix
from sudoku_model.se.steps import SEStep
from sudoku_model.solving import get_backend
from tests.datafiles import hardest_rows, needs_external
from tests.se_reference import NATIVE_PLUS_RULES, dynamic_chains, static_all

needs_hardest = needs_external("hardest-1106-ratings.csv")
HERE = Path(__file__).parent


def _forum(label: str) -> tuple[list[int], tuple[float, float, float]]:
    rows = hardest_rows()
    row = next(r for r in rows if f"-{label}" in r[1])
    values = [0 if ch in ".0" else int(ch) for ch in row[0]]
    return values, (float(row[5]), float(row[6]), float(row[7]))


def _solution(values: list[int]) -> tuple[int, ...]:
    result = get_backend("native").solve(Puzzle.parse("".join(map(str, values))))
    assert result.solution is not None
    return tuple(result.solution.values)


def _key(cell: int, digit: int, on: bool) -> int:
    return ((cell * 9 + digit - 1) << 1) | int(on)


def test_producers_follow_se_order_names_and_floors() -> None:
    nested = [p for p in PRODUCERS if p.floor >= 9.5]
    assert [(p.name, p.floor) for p in nested] == [
        ("Dynamic Forcing Chains (+ Forcing Chains)", 9.5),
        ("Dynamic Forcing Chains (+ Multiple Forcing Chains)", 10.0),
        ("Dynamic Forcing Chains (+ Dynamic Forcing Chains)", 10.5),
        ("Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", 11.0),
    ]
    assert PRODUCERS[-5].name == "Dynamic Forcing Chains (+)"
    assert nested_suffix(1) == " (+)" and nested_suffix(0) == ""


def test_rule_parents_are_the_outer_removals_an_inner_single_rests_on() -> None:
    # An inner chain r1c1=1 (assumed) -> r1c2<>1 -> r1c2=2 (naked single) -> r2c2<>2
    # -> r3c2=2 (hidden single in column 2). The outer chain removed r1c2<>3 (which
    # made r1c2 bivalue) and r4c2<>2 (which left column 2 two places for 2).
    source = [0] * 81
    grid = [0] * 81
    source[0] = grid[0] = 0b11
    source[1], grid[1] = 0b111, 0b011
    for cell in (10, 19):
        source[cell] = grid[cell] = 0b10
    source[28], grid[28] = 0b10, 0
    root = (_key(0, 1, True), (), NO_CAUSE)
    off1 = (_key(1, 1, False), (root,), NO_CAUSE)
    on2 = (_key(1, 2, True), (off1,), NAKED)
    off2 = (_key(10, 2, False), (on2,), NO_CAUSE)
    column2 = 18 + 1
    end = (_key(19, 2, True), (off2,), column2)
    hint = chaining._Hint("Forcing Chain", 7.0, 5, 4, ((19, 1),), None, (19,), (end,))
    # SE's order: breadth first from the end of the chain.
    assert dynamic_chains._chain_rule_parents(hint, source, grid) == [
        _key(28, 2, False),
        _key(1, 3, False),
    ]
    # Nothing removed from the units it rests on: no parents, the hint does not count.
    assert dynamic_chains._chain_rule_parents(hint, source, source) == []
    # A cell forcing chain's assumptions rest on their cell: r1c1 lost 3.
    source0 = list(source)
    source0[0] = 0b111
    cell_hint = chaining._Hint("Cell", 8.0, 1, 5, (), None, (0,), (root,), NAKED)
    assert dynamic_chains._chain_rule_parents(cell_hint, source0, grid) == [_key(0, 3, False)]


def test_a_reversed_cycle_negates_every_potential_and_keeps_its_cause() -> None:
    root = (_key(0, 1, True), (), NO_CAUSE)
    off = (_key(1, 1, False), (root,), NO_CAUSE)
    on = (_key(1, 2, True), (off,), NAKED)
    off2 = (_key(0, 2, False), (on,), NO_CAUSE)
    dst = (_key(0, 1, True), (off2,), NAKED)
    rev = static_all._reversed_cycle(dst)
    keys = []
    node = rev
    while True:
        keys.append((node[0], node[2]))
        if not node[1]:
            break
        node = node[1][0]
    # Head is the negated root; each potential negated, with its own cause (an off
    # potential's is its link's unit: the cell, else the first of box, row, column that
    # r1c1 and r1c2 share: box 0).
    assert keys == [
        (_key(0, 1, False), NO_CAUSE),
        (_key(1, 1, True), 0),
        (_key(1, 2, False), NAKED),
        (_key(0, 2, True), 0),
        (_key(0, 1, False), NAKED),
    ]


@pytest.mark.slow
@needs_hardest
def test_level_2_fires_on_a_forum_puzzle_as_se_and_every_hint_is_sound() -> None:
    # HardestSudokusThread-00252 (forum ER/EP/ED 10.2/10.2/2.6): up to "+" the rater is
    # stuck after two steps; level 2 ("+ Forcing Chains") gives SE's 10.2 step.
    values, (er, _, _) = _forum("00252")
    solution = _solution(values)
    before = rate_se(values, seconds=120, producers=[p for p in PRODUCERS if p.floor < 9.5])
    assert before.status == "stuck" and before.er_above == 9.0
    state = State.from_values(values)
    for step in before.steps:
        apply_step(state, step)
    advanced = dynamic_chains._nested_advanced(state.values, 2, None, NATIVE_PLUS_RULES)
    producer = dynamic_chains._Multiple(False, True, True, 2, advanced)
    hints = producer.hints(state.cands, None)
    assert len(hints) >= 20
    nested = 0
    for hint in hints:
        for c, d in hint.elims:
            assert state.cands[c] >> (d - 1) & 1 and solution[c] != d, hint.name
        if hint.placement is not None:
            assert solution[hint.placement[0]] == hint.placement[1], hint.name
        nested += any(not isinstance(n[2], int) for t in hint.targets for n in chaining._chain(t))
    assert nested > 0  # the nested chains do take part
    best = next(iter(native.multiple_chains(state, multiple=True, dynamic=True, level=2)))
    assert best.technique == "Dynamic Contradiction Forcing Chain (+ Forcing Chains)"
    assert best.er == er
    assert best.eliminations == ((0, 4),)
    # The C search gives the reference's best hint (rating, complexity, kind, cells), and
    # up to "+" there is none: the hint rests on the nested chains.
    first = min(range(len(hints)), key=lambda i: (hints[i].rank(), i))
    assert best == hints[first].step()
    assert not list(native.multiple_chains(state, multiple=True, dynamic=True, level=1))


@needs_hardest
def test_a_budget_inside_the_nested_levels_gives_er_above() -> None:
    # An 11.9 puzzle (level 5 in SE, about 2 s to rate whole here): a small budget stops
    # inside the chains with a lower bound, never a hang; the steps taken before are sound.
    values, (er, _, _) = _forum("00208")
    assert er == 11.9
    r = rate_se(values, seconds=0.5)
    assert r.status == "budget" and r.er is None
    assert r.er_above is not None and r.er_above <= er  # reached or exceeded
    solution = _solution(values)
    for step in r.steps:
        for c, d in step.eliminations:
            assert solution[c] != d


# -- the C search (se_nested.c) against the Python reference ---------------------------


def _reference(state: State, level: int) -> tuple[list[SEStep], int]:
    """The reference's best hint of nesting ``level`` (as a list, empty when none), and the
    number of its hints whose chains pass through a nested hint."""
    advanced = dynamic_chains._nested_advanced(state.values, level, None, NATIVE_PLUS_RULES)
    hints = dynamic_chains._Multiple(False, True, True, level, advanced).hints(state.cands, None)
    nested = sum(
        any(not isinstance(n[2], int) for t in h.targets for n in chaining._chain(t)) for h in hints
    )
    if not hints:
        return [], nested
    first = min(range(len(hints)), key=lambda i: (hints[i].rank(), i))
    return [hints[first].step()], nested


def _compare_nested(state: State, levels: tuple[int, ...]) -> tuple[int, int]:
    """C against the reference at each level: (hints found, hints resting on nesting)."""
    found = nested = 0
    for level in levels:
        expected, uses = _reference(state, level)
        got = list(native.multiple_chains(state, multiple=True, dynamic=True, level=level))
        assert got == expected, (level, state.values, state.cands)
        found += bool(expected)
        nested += uses
    return found, nested


def _thinned_states(every: int, stride: int, rate: float, most: int, seed: int) -> Iterator[State]:
    """States along the ratings of the tests' sample, with candidates removed at random
    (other cells bivalue, other singles: the nested rules fire on the chains' grids), of at
    most ``most`` candidates (the Python reference is slow on full grids)."""
    rng = random.Random(seed)
    rows = [
        ln.split()
        for ln in (HERE / "se_rated_sample.txt").read_text().splitlines()
        if ln and not ln.startswith("#")
    ]
    for row in rows[::every]:
        values = [int(ch) for ch in row[1]]
        state = State.from_values(values)
        for i, step in enumerate(rate_se(values, seconds=60).steps):
            if i % stride == 0:
                cands = list(state.cands)
                for c in range(81):
                    for d in range(9):
                        if cands[c] >> d & 1 and cands[c] & (cands[c] - 1) and rng.random() < rate:
                            cands[c] &= ~(1 << d)
                if sum(bin(m).count("1") for m in cands) <= most:
                    yield State(state.values, cands)
            apply_step(state, step)


def _has_forcing_chain(cands: list[int]) -> bool:
    """Whether some candidate's "on" leads to its "off", or its "off" to its "on", under
    the grid's xy links (the reference's static chains)."""
    tables = static_all._static_tables(cands, True, True)
    for cell in range(81):
        if cands[cell] & (cands[cell] - 1):
            for d0 in range(9):
                if cands[cell] >> d0 & 1:
                    on_key = ((cell * 9 + d0) << 1) | 1
                    if any(static_all._first_forcing(tables, k) for k in (on_key, on_key ^ 1)):
                        return True
    return False


def test_c_nested_chains_give_the_python_hint_on_thinned_states() -> None:
    found = nested = states = free = 0
    for state in _thinned_states(every=16, stride=5, rate=0.12, most=60, seed=3):
        f, n = _compare_nested(state, (2, 3, 4, 5))
        found += f
        nested += n
        states += 1
        free += not _has_forcing_chain(state.cands)
    assert states >= 10 and found >= 20
    assert nested >= 500  # hints whose chains nest others took part in the choice
    # The static rule takes one path from a grid without forcing chains (where the rater
    # runs it) and another from a grid with some: both were compared.
    assert 3 <= free <= states - 3


@needs_hardest
def test_c_nested_chains_give_the_python_hint_where_the_rater_first_nests() -> None:
    # Where the rater takes a nested chain, its grid has no forcing chain of its own: the
    # static rule then searches a forcing chain only where one can pass a link that grid
    # lacks (se_nested_static.c, st_filter). This forum puzzle's first such step rests on
    # chains through them.
    values, _ = _forum("00086")
    state = State.from_values(values)
    for step in rate_se(values, seconds=60).steps:
        if step.technique.endswith(nested_suffix(2)):
            break
        apply_step(state, step)
    assert not _has_forcing_chain(state.cands)
    found, nested = _compare_nested(state, (2,))
    assert found == 1 and nested > 0


@pytest.mark.slow
def test_c_nested_chains_on_larger_thinned_states() -> None:
    found = nested = 0
    for state in _thinned_states(every=10, stride=4, rate=0.1, most=95, seed=8):
        f, n = _compare_nested(state, (2, 3, 4, 5))
        found += f
        nested += n
    assert found >= 60 and nested >= 5000


@pytest.mark.slow
@needs_hardest
def test_c_nested_chains_where_only_nesting_solves() -> None:
    # Forum puzzles with a few more givens from their solution (seeded), rated up to "+"
    # until stuck: level 1 has no hint there, so level 2's best rests on nested chains.
    rows = hardest_rows()
    below = [p for p in PRODUCERS if p.floor < 9.5]
    compared = 0
    for label, extra in (("01108", 11), ("00245", 1)):
        row = next(r for r in rows if f"-{label}" in r[1])
        values = [0 if ch in ".0" else int(ch) for ch in row[0]]
        solution = _solution(values)
        rng = random.Random(row[1])
        for _trial in range(extra + 1):
            grid = list(values)
            empty = [c for c in range(81) if not grid[c]]
            for c in rng.sample(empty, rng.randint(1, 4)):
                grid[c] = solution[c]
        r = rate_se(grid, seconds=60, producers=below)
        assert r.status == "stuck"
        state = State.from_values(grid)
        for step in r.steps:
            apply_step(state, step)
        assert not list(native.multiple_chains(state, multiple=True, dynamic=True, level=1))
        found, _ = _compare_nested(state, (2,))
        compared += found
    assert compared == 2


def test_c_nested_chains_keep_the_budget_and_refuse_bad_input() -> None:
    from sudoku_model.se import _core

    row = next(
        ln.split()
        for ln in (HERE / "se_rated_sample.txt").read_text().splitlines()
        if ln and not ln.startswith("#")
    )
    state = State.from_values([int(ch) for ch in row[1]])
    with pytest.raises(chaining.ChainBudgetExceeded):
        list(native.multiple_chains(state, multiple=True, dynamic=True, level=2, deadline=0.0))
    with pytest.raises(ValueError, match="multiple and dynamic"):
        list(native.multiple_chains(state, multiple=True, level=3))
    with pytest.raises(ValueError, match="nesting level"):
        _core.nested_chains(state.values, state.cands, 1)
    with pytest.raises(ValueError, match="81 cells"):
        _core.nested_chains([0] * 81, [0] * 80, 2)
    # No candidates at all: no chain to start, no hint.
    assert _core.nested_chains([0] * 81, [0] * 81, 5) is None
