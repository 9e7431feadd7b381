"""A wall-clock deadline per generated puzzle (``GenerationSpec(max_seconds=...)``,
``sudoku generate --budget-seconds``): every search of the puzzle ends by it, the clues
whose test was cut stay (the puzzle is still unique, its minimality unknown), a generous
deadline changes no puzzle, and the backend works again after a deadline stopped it."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from sudoku_model import RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.deadline import Watchdog
from sudoku_model.generate import (
    GenerationError,
    GenerationSpec,
    ImpossibleRequestError,
    KillerOptions,
    engine_for,
    generate,
    generate_one,
    puzzle_seed,
)


def test_watchdog_fires_once_after_its_deadline() -> None:
    fired = threading.Event()
    calls: list[float] = []
    dog = Watchdog(lambda: (calls.append(time.perf_counter()), fired.set()))
    start = time.perf_counter()
    dog.arm(0.05)
    assert fired.wait(5)
    assert calls[0] - start >= 0.05 and dog.fired
    time.sleep(0.05)
    assert len(calls) == 1
    assert dog.disarm() is True and dog.fired is False


def test_watchdog_disarmed_in_time_never_fires() -> None:
    calls: list[int] = []
    dog = Watchdog(lambda: calls.append(1))
    for _ in range(50):
        dog.arm(0.2)
        assert dog.disarm() is False
    time.sleep(0.3)
    assert calls == []
    with pytest.raises(ValueError):
        dog.arm(-1)


SPECS = [
    GenerationSpec(RuleSet.classic(Shape(3, 3))),
    GenerationSpec(RuleSet.classic(Shape(3, 3)), symmetry="rot180"),
    GenerationSpec(RuleSet.classic(Shape(3, 3)), clues=30),
    GenerationSpec(RuleSet.build(Shape(3, 3), ["diagonal"])),
    GenerationSpec(RuleSet.classic(Shape(4, 4))),
    GenerationSpec(RuleSet.classic(Shape(2, 3)), killer=KillerOptions()),
]


# The Python removal loop (pysat) is left out on 16x16, where it takes seconds a puzzle.
CASES = [
    (spec, backend)
    for spec in SPECS
    for backend in ("native", "pysat")
    if backend == "native" or spec.rules.shape.size < 16
]


@pytest.mark.parametrize(
    "spec,backend", CASES, ids=lambda x: x if isinstance(x, str) else x.rules.shape.name
)
def test_a_generous_deadline_changes_no_puzzle(spec, backend) -> None:
    timed = dataclasses.replace(spec, max_seconds=600.0)
    plain = list(generate(spec, count=3, seed=11, backend=backend))
    within = list(generate(timed, count=3, seed=11, backend=backend))
    assert [p.puzzle for p in within] == [p.puzzle for p in plain]
    assert [p.minimal for p in within] == [p.minimal for p in plain]


def test_a_passed_deadline_fails_and_the_backend_works_again() -> None:
    native = get_backend("native")
    engine = engine_for(native)
    spec = GenerationSpec(RuleSet.classic(Shape(5, 5)), max_seconds=0.0)
    start = time.perf_counter()
    with pytest.raises(GenerationError, match="deadline of 0 s per puzzle"):
        generate_one(spec, engine, seed=1)
    assert time.perf_counter() - start < 2.0
    # Nothing of the deadline is left behind: the same engine makes the next puzzle.
    made = generate_one(
        dataclasses.replace(spec, rules=RuleSet.classic(Shape(3, 3)), max_seconds=None),
        engine,
        seed=1,
    )
    assert made.minimal is True


def test_a_cut_25x25_puzzle_is_unique_with_minimality_unknown() -> None:
    """The removal pass of a 25x25 puzzle takes far longer than its deadline: the search
    in flight is stopped, what the pass removed before stays removed."""
    native = get_backend("native")
    engine = engine_for(native)
    spec = GenerationSpec(RuleSet.classic(Shape(5, 5)), max_seconds=1.0)
    made = None
    for index in range(3):  # on a loaded machine even the full grid may miss it
        start = time.perf_counter()
        try:
            made = generate_one(spec, engine, seed=puzzle_seed(7, index))
        except GenerationError as exc:
            assert "deadline" in str(exc)
        assert time.perf_counter() - start < 1.0 + 3.0
        if made is not None:
            break
    assert made is not None, "no full 25x25 grid (a few ms) within 1 s, three times"
    assert made.minimal is None and made.clues < 625
    checker = get_backend("pysat")
    verdict = checker.check_unique(made.puzzle, solution=made.solution)
    assert verdict.kind is VerdictKind.UNIQUE
    again = generate_one(GenerationSpec(RuleSet.classic(Shape(2, 2))), engine, seed=3)
    assert again.minimal is True


def test_bad_deadlines_are_refused() -> None:
    for bad in (-1, float("nan"), "1", True):
        with pytest.raises(ImpossibleRequestError, match="max_seconds"):
            GenerationSpec(RuleSet.classic(Shape(3, 3)), max_seconds=bad)
    # Infinity means no deadline.
    spec = GenerationSpec(RuleSet.classic(Shape(2, 2)), max_seconds=float("inf"))
    assert len(list(generate(spec, count=2, seed=1))) == 2
