"""The default backend's hand-over from 16x16 up (``auto``'s removal route): calls whose
short native first try runs out are answered by the SAT fallback, and the puzzle is still
unique and minimal; ``native`` alone never hands over."""

from __future__ import annotations

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, get_backend
from sudoku_model.backends.native import NativeRemovalOracle
from sudoku_model.generate import GenerationSpec, engine_for, generate_one


@pytest.mark.slow
def test_fallback_answers_keep_16x16_puzzles_unique_and_minimal(monkeypatch) -> None:
    pytest.importorskip("pysat")
    rules = RuleSet.classic(Shape(4, 4))
    engine = engine_for("auto")
    # almost every solver call goes to the fallback
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES", 3)
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES_BY_SIZE", {})
    made = generate_one(GenerationSpec(rules), engine, seed=11)
    assert engine.fallback_calls > 20
    assert made.minimal is True
    native = get_backend("native")
    puzzle = made.puzzle
    assert native.count(puzzle, limit=2).count == 1
    values = list(puzzle.givens.values)
    for cell in [c for c, v in enumerate(values) if v][:12]:
        values[cell] = 0
        reduced = Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
        assert native.count(reduced, limit=2).count == 2  # every clue is necessary
        values[cell] = puzzle.givens.values[cell]


def test_small_grids_never_use_the_fallback(monkeypatch) -> None:
    engine = engine_for("auto")
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES", 1)
    generate_one(GenerationSpec(RuleSet.classic(Shape(3, 3))), engine, seed=3)
    assert engine.fallback_calls == 0


def test_native_alone_never_hands_over(monkeypatch) -> None:
    # native is native only: the fallback is the routing policy's (auto), not native's
    engine = engine_for("native")
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES", 1)
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES_BY_SIZE", {})
    made = generate_one(GenerationSpec(RuleSet.classic(Shape(4, 4))), engine, seed=11)
    assert engine.fallback_calls == 0
    assert made.minimal is True


@pytest.mark.slow
def test_fallback_sessions_handle_symmetric_groups_and_new_grids(monkeypatch) -> None:
    pytest.importorskip("pysat")
    rules = RuleSet.classic(Shape(4, 4))
    engine = engine_for("auto")
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES", 3)
    monkeypatch.setattr(NativeRemovalOracle, "FIRST_TRY_NODES_BY_SIZE", {})
    native = get_backend("native")
    spec = GenerationSpec(rules, symmetry="rot180")
    made = [generate_one(spec, engine, seed=seed) for seed in (5, 6)]  # one session per grid
    assert engine.fallback_calls > 20
    for m in made:
        assert native.count(m.puzzle, limit=2).count == 1
        values = m.puzzle.givens.values
        assert all(bool(values[c]) == bool(values[255 - c]) for c in range(256))
        assert m.group_minimal is True
    assert made[0].puzzle != made[1].puzzle
