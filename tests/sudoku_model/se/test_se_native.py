"""The SE rater's C searches (the C files of sudoku_model/se/ through sudoku_model.se.native)
against the Python techniques, the reference: the same hints, in the same order and form,
on every state along rated puzzles and on thinned states that reach rarer patterns; and
the same ratings and step lists from the rater with and without them."""

from __future__ import annotations

import collections
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sudoku_model.se import PRODUCERS, State, apply_step, chaining, native, rate_se
from sudoku_model.se.steps import SEStep
from tests.datafiles import data_file
from tests.se_reference import (
    NATIVE_PLUS_RULES,
    PLUS_RULES,
    PYTHON_PRODUCERS,
    aligned,
    basic,
    dynamic_chains,
    strong_links,
    unique,
    wings,
)

HERE = Path(__file__).parent
SE_2000 = data_file("se-rated-2000.txt")

Search = Callable[[State], Iterator[SEStep]]


def _pairs() -> list[tuple[str, Search, Search]]:
    """(name, Python reference, C search) for every technique that has both."""
    out: list[tuple[str, Search, Search]] = [
        ("hidden singles", basic.hidden_singles, native.hidden_singles),
        ("naked singles", basic.naked_singles, native.naked_singles),
        ("direct pointing", basic.direct_pointing, native.direct_pointing),
        ("locking", basic.locking, native.locking),
        ("turbot fish", strong_links.turbot_fish, native.turbot_fish),
        ("three strong links", strong_links.three_strong_links, native.three_strong_links),
        ("unique loops", unique.unique_loops, native.unique_loops),
        ("bug", unique.bug, native.bug),
    ]
    for k in (2, 3):
        out.append(
            (
                f"direct hidden {k}",
                lambda s, k=k: basic.direct_hidden_sets(s, k),
                lambda s, k=k: native.direct_hidden_sets(s, k),
            )
        )
    for k in (2, 3, 4):
        out.append(
            (
                f"hidden {k}",
                lambda s, k=k: basic.hidden_sets(s, k),
                lambda s, k=k: native.hidden_sets(s, k),
            )
        )
        out.append(
            (
                f"naked {k}",
                lambda s, k=k: basic.naked_sets(s, k),
                lambda s, k=k: native.naked_sets(s, k),
            )
        )
        out.append((f"fish {k}", lambda s, k=k: basic.fish(s, k), lambda s, k=k: native.fish(s, k)))
    for xyz in (False, True):
        out.append(
            (
                f"xy wings {xyz}",
                lambda s, x=xyz: basic.xy_wings(s, x),
                lambda s, x=xyz: native.xy_wings(s, x),
            )
        )
    for k in (2, 3):
        out.append(
            (
                f"aligned {k}",
                lambda s, k=k: aligned.aligned_exclusion(s, k),
                lambda s, k=k: native.aligned_exclusion(s, k),
            )
        )
    for k in (3, 4, 5, 6):
        out.append(
            (f"wing {k}", lambda s, k=k: wings.als_wing(s, k), lambda s, k=k: native.als_wing(s, k))
        )
    return out


PAIRS = _pairs()


def _puzzles(path: Path, every: int = 1) -> list[list[int]]:
    rows = [ln.split() for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    return [[int(ch) for ch in row[1]] for row in rows[::every]]


def _compare(state: State, seen: collections.Counter[str]) -> None:
    for name, python, c in PAIRS:
        expected = list(python(state))
        got = list(c(state))
        assert got == expected, (name, state.values, state.cands)
        seen[name] += len(expected)
        # The first hint alone (what the rater asks for) is the first of the full list.
        assert next(iter(c(state)), None) == (expected[0] if expected else None)


def _path_states(values: list[int]) -> Iterator[State]:
    """The state before every step of the puzzle's rating."""
    r = rate_se(values, seconds=60)
    state = State.from_values(values)
    for step in r.steps:
        yield state
        apply_step(state, step)


@pytest.mark.slow
def test_c_searches_give_the_python_hints_along_rated_paths() -> None:
    seen: collections.Counter[str] = collections.Counter()
    states = 0
    for values in _puzzles(HERE / "se_rated_sample.txt", every=8):
        for state in _path_states(values):
            _compare(state, seen)
            states += 1
    assert states > 130
    # The comparison is not of empty lists: every family found hints on the way.
    rare = {"hidden 4", "fish 4", "naked 4", "hidden 3", "fish 3", "bug"}
    common = {n for n, _, _ in PAIRS} - rare
    assert all(seen[n] > 0 for n in common), seen


def test_the_strong_link_searches_memo_of_hintless_digits_never_hides_a_hint() -> None:
    # Turbot fish and three strong links skip a digit whose cells are the same as at a call
    # that found nothing for it. Along rated paths, forwards, backwards and with the states
    # thinned at random between two calls on the same state, every call gives the
    # reference's hints.
    rng = random.Random(5)
    pairs = [
        (strong_links.turbot_fish, native.turbot_fish),
        (strong_links.three_strong_links, native.three_strong_links),
    ]
    reference: dict[tuple[int, tuple[int, ...]], list[SEStep]] = {}
    found = 0
    for values in _puzzles(HERE / "se_rated_sample.txt", every=30):
        states = [State(list(s.values), list(s.cands)) for s in _path_states(values)]
        for state in states + states[::-1]:
            thinned = list(state.cands)
            for c in range(81):
                if thinned[c] & (thinned[c] - 1) and rng.random() < 0.2:
                    thinned[c] &= ~(1 << rng.choice([d for d in range(9) if thinned[c] >> d & 1]))
            for s in (state, State(state.values, thinned), state):
                for i, (python, c) in enumerate(pairs):
                    key = (i, tuple(s.cands))
                    if key not in reference:
                        reference[key] = list(python(s))
                    assert list(c(s)) == reference[key]
                    found += len(reference[key])
    assert found > 100, found


@pytest.mark.slow
def test_c_searches_give_the_python_hints_on_thinned_and_random_states() -> None:
    # Candidates removed at random (seeded) from states along rated paths, and empty
    # grids with random candidates: the masks need not be consistent for a search, and
    # these reach the quads, jellyfish, grouped links and three strong links that real
    # paths rarely show.
    rng = random.Random(17)
    seen: collections.Counter[str] = collections.Counter()
    for values in _puzzles(HERE / "se_rated_sample.txt", every=7):
        for i, state in enumerate(_path_states(values)):
            if i % 5:
                continue
            cands = list(state.cands)
            for c in range(81):
                for d in range(9):
                    if cands[c] >> d & 1 and rng.random() < 0.25 and cands[c] & (cands[c] - 1):
                        cands[c] &= ~(1 << d)
            _compare(State(state.values, cands), seen)
    for _ in range(25):
        digits = rng.randint(2, 9)
        cands = [0] * 81
        for c in range(81):
            while cands[c] & (cands[c] - 1) == 0:  # two candidates at least
                cands[c] = sum(1 << d for d in rng.sample(range(9), rng.randint(2, digits)))
        _compare(State([0] * 81, cands), seen)
    # (a BUG needs a grid of bivalue cells: test_c_unique_loops_and_bug_... finds them)
    assert all(seen[n] > 0 for n, _, _ in PAIRS if n != "bug"), seen


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
def test_the_rater_takes_the_same_steps_with_and_without_c() -> None:
    for values in _puzzles(HERE / "se_rated_sample.txt", every=6):
        fast = rate_se(values, seconds=120)
        reference = rate_se(values, seconds=120, producers=PYTHON_PRODUCERS)
        assert fast.status == reference.status == "rated"
        assert (fast.er, fast.ep, fast.ed) == (reference.er, reference.ep, reference.ed)
        assert fast.steps == reference.steps
    assert PRODUCERS is not PYTHON_PRODUCERS
    assert [p.name for p in PRODUCERS] == [p.name for p in PYTHON_PRODUCERS]


@pytest.mark.slow
def test_c_searches_along_a_spread_sample_of_se_rated_2000() -> None:
    seen: collections.Counter[str] = collections.Counter()
    for values in _puzzles(SE_2000, every=400):
        for state in _path_states(values):
            _compare(state, seen)
    assert sum(seen.values()) > 250


def test_c_unique_loops_and_bug_give_the_python_hints() -> None:
    # Puzzles of se-rated-2000 whose rating paths show unique rectangles and loops of
    # every type and BUGs of every type: every state along each path, and the same state
    # with one candidate fewer in every cell (seeded), against the Python reference, all
    # hints in order (names, ratings, eliminations, cells).
    from sudoku_model.se import _core as _se

    rng = random.Random(11)
    names: collections.Counter[str] = collections.Counter()
    several = 0  # states where a limit of 2 cut a list short
    pairs = ((unique.unique_loops, native.unique_loops), (unique.bug, native.bug))
    for values in _puzzles(HERE / "se_unique_sample.txt"):
        for state in _path_states(values):
            cands = [m & ~(1 << rng.randrange(9)) or m for m in state.cands]
            for s in (state, State(state.values, cands)):
                for python, c in pairs:
                    expected = list(python(s))
                    assert list(c(s)) == expected, (s.values, s.cands)
                    names.update(h.technique for h in expected)
                for search in (_se.unique_loop_hints, _se.bug):
                    every = search(s.values, s.cands)
                    assert search(s.values, s.cands, 2) == every[:2]
                    several += len(every) > 2
    # Not a comparison of empty lists: every type met, rectangles and longer loops.
    for k in (1, 2, 3, 4):
        loops = sum(
            n
            for name, n in names.items()
            if name.startswith("Unique") and name.endswith(f"type {k}")
        )
        assert loops >= 3, (k, names)
        assert names[f"BUG type {k}"] >= 1, (k, names)
    assert names["Unique Loop 6 type 1"] >= 3 and names["Unique Loop 8 type 1"] >= 1, names
    assert several >= 5


def test_c_searches_refuse_malformed_states() -> None:
    from sudoku_model.se import _core as _se

    with pytest.raises(ValueError, match="81 cells"):
        _se.turbot_fish([0] * 80)
    with pytest.raises(ValueError, match="outside"):
        _se.three_strong_links([512] + [0] * 80)
    with pytest.raises(ValueError, match="outside"):
        _se.hidden_singles([10] + [0] * 80, [0] * 81)
    with pytest.raises(ValueError, match="degree"):
        _se.fish([0] * 81, [0] * 81, 5)
    with pytest.raises(TypeError):
        _se.locking([0] * 81, ["x"] * 81)
    with pytest.raises(ValueError, match="81 cells"):
        _se.unique_loop_hints([0] * 81, [0] * 80)
    with pytest.raises(ValueError, match="outside"):
        _se.bug([10] + [0] * 80, [0] * 81)


# -- chains -------------------------------------------------------------------------------


def _chain_states(every: int) -> Iterator[State]:
    """States along rated paths: the tests' own sample, and a spread sample of
    se-rated-2000."""
    for values in _puzzles(HERE / "se_rated_sample.txt", every=every):
        yield from _path_states(values)
    for values in _puzzles(SE_2000, every=40 * every)[1::2]:
        yield from _path_states(values)


@pytest.mark.slow
def test_c_static_chains_give_the_python_hint_along_rated_paths() -> None:
    # The best cycle or forcing chain of every state (not only those where the rater
    # used one): the same name, rating, complexity, kind, eliminations and placement.
    names: collections.Counter[str] = collections.Counter()
    states = 0
    for state in _chain_states(every=3):
        expected = list(chaining.cycles_and_forcing_chains(state))
        assert list(native.cycles_and_forcing_chains(state)) == expected, state.cands
        states += 1
        names.update(s.technique for s in expected)
    assert states > 200
    kinds = {
        "Bidirectional X-Cycle",
        "Bidirectional Y-Cycle",
        "Bidirectional Cycle",
        "Forcing X-Chain",
        "Forcing Chain",
    }
    assert kinds <= set(names), names


def test_c_static_chains_give_the_python_hint_on_thinned_states() -> None:
    # Candidates removed at random (seeded): longer chains, rarer cycles, grids with
    # no hint at all.
    rng = random.Random(23)
    found = 0
    for values in _puzzles(HERE / "se_rated_sample.txt", every=4):
        for i, state in enumerate(_path_states(values)):
            if i % 4:
                continue
            cands = list(state.cands)
            for c in range(81):
                for d in range(9):
                    if cands[c] >> d & 1 and rng.random() < 0.2 and cands[c] & (cands[c] - 1):
                        cands[c] &= ~(1 << d)
            thinned = State(state.values, cands)
            expected = list(chaining.cycles_and_forcing_chains(thinned))
            assert list(native.cycles_and_forcing_chains(thinned)) == expected, cands
            found += bool(expected)
    assert found > 10


def test_c_static_chains_keep_the_budget() -> None:
    state = next(s for s in _path_states(_puzzles(HERE / "se_rated_sample.txt")[0]))
    with pytest.raises(chaining.ChainBudgetExceeded):
        list(native.cycles_and_forcing_chains(state, deadline=0.0))
    from sudoku_model.se import _core as _se

    with pytest.raises(ValueError, match="81 cells"):
        _se.cycles_and_forcing_chains([0] * 80)


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
def test_c_plus_rules_give_the_python_hints() -> None:
    # What a dynamic chain "+" applies on its grid: the C searches' hints, all of them,
    # in the same order, along rated paths and on thinned grids.
    rng = random.Random(5)
    seen = 0
    for values in _puzzles(HERE / "se_rated_sample.txt", every=3):
        for state in _path_states(values):
            cands = [m & ~(1 << rng.randrange(9)) or m for m in state.cands]
            for s in (state, State(state.values, cands)):
                for python, c in zip(PLUS_RULES, NATIVE_PLUS_RULES, strict=True):
                    expected = list(python(s))
                    assert list(c(s)) == expected
                    seen += len(expected)
    assert seen > 100


# -- multiple and dynamic chains ------------------------------------------------------------

TOP1465 = Path(__file__).resolve().parents[3] / "sudoku_model" / "data" / "magictour-top1465.txt"

#: The producers that run in C: Nishio, multiple, dynamic and dynamic "+" forcing chains.
_MULTIPLE_MODES: tuple[dict[str, object], ...] = (
    {"nishio": True, "dynamic": True},
    {"multiple": True},
    {"multiple": True, "dynamic": True},
    {"multiple": True, "dynamic": True, "level": 1},
)


def _top1465(*indices: int) -> list[list[int]]:
    """Puzzles of top1465 by their index in the file (comments not counted)."""
    lines = [ln for ln in TOP1465.read_text().splitlines() if len(ln) >= 81 and ln[0] != "#"]
    return [[int(ch) if ch.isdigit() else 0 for ch in lines[i][:81]] for i in indices]


def _compare_multiple(state: State, names: collections.Counter[str]) -> None:
    for mode in _MULTIPLE_MODES:
        expected = list(
            dynamic_chains.multiple_chains(state, plus_rules=NATIVE_PLUS_RULES, **mode)  # type: ignore[arg-type]
        )
        got = list(native.multiple_chains(state, **mode))  # type: ignore[arg-type]
        assert got == expected, (mode, state.values, state.cands)
        names.update(s.technique for s in expected)


@pytest.mark.slow
def test_c_multiple_chains_give_the_python_hint_along_rated_paths() -> None:
    # States along the rating of two top1465 puzzles of ER 9.4 and 9.0 (a dynamic
    # contradiction and a dynamic cell forcing chain at their hardest) and of the tests'
    # sample: the best hint of each producer, its name, rating, complexity, kind,
    # eliminations, placement and cells.
    names: collections.Counter[str] = collections.Counter()
    states = 0
    for values in _top1465(186, 228):
        for i, state in enumerate(_path_states(values)):
            if i % 8 == 0:
                _compare_multiple(state, names)
                states += 1
    for values in _puzzles(HERE / "se_rated_sample.txt", every=24):
        for i, state in enumerate(_path_states(values)):
            if i % 4 == 0:
                _compare_multiple(state, names)
                states += 1
    assert states > 40
    kinds = {
        "Nishio Forcing Chain",
        "Region Forcing Chain",
        "Dynamic Contradiction Forcing Chain",
        "Dynamic Region Forcing Chain",
        "Dynamic Cell Forcing Chain",
        "Dynamic Double Forcing Chain (+)",
        "Dynamic Contradiction Forcing Chain (+)",
    }
    assert kinds <= set(names), names


@pytest.mark.slow
def test_c_multiple_chains_give_the_python_hint_on_thinned_states() -> None:
    # Candidates removed at random (seeded): other cells bivalue, other contradictions,
    # grids where no producer has a hint.
    rng = random.Random(31)
    found = compared = 0
    names: collections.Counter[str] = collections.Counter()
    for values in _puzzles(HERE / "se_rated_sample.txt", every=12):
        for i, state in enumerate(_path_states(values)):
            if i % 6:
                continue
            cands = list(state.cands)
            for c in range(81):
                for d in range(9):
                    if cands[c] >> d & 1 and rng.random() < 0.15 and cands[c] & (cands[c] - 1):
                        cands[c] &= ~(1 << d)
            before = sum(names.values())
            _compare_multiple(State(state.values, cands), names)
            found += sum(names.values()) > before
            compared += 1
    assert compared > 10 and found > 5


@pytest.mark.slow
def test_c_multiple_chains_along_more_of_top1465() -> None:
    names: collections.Counter[str] = collections.Counter()
    # Every sixth state of three more 9.x puzzles (ER 9.2, 9.4, 9.0).
    for values in _top1465(6, 279, 297):
        for i, state in enumerate(_path_states(values)):
            if i % 6 == 0:
                _compare_multiple(state, names)
    assert sum(names.values()) > 50


def test_c_multiple_chains_keep_the_budget_and_refuse_bad_input() -> None:
    state = State.from_values(_top1465(0)[0])
    with pytest.raises(chaining.ChainBudgetExceeded):
        list(native.multiple_chains(state, multiple=True, dynamic=True, level=1, deadline=0.0))
    from sudoku_model.se import _core as _se

    with pytest.raises(ValueError, match="81 cells"):
        _se.multiple_chains([0] * 81, [0] * 80, False, True, True, True)
    with pytest.raises(ValueError, match="dynamic"):
        _se.multiple_chains([0] * 81, [511] * 81, False, True, False, True)
    # No candidates at all: no chain to start, no hint.
    assert _se.multiple_chains([0] * 81, [0] * 81, False, True, True, True) is None
