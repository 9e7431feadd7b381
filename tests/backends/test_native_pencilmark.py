"""Pencilmark (candidate) puzzles on the native backend: the classic 9x9 kernel takes
candidate masks, and its answers agree with pysat's and with the generic kernel's on the
shared pencilmark sets (first puzzles of each) and on multi-solution cases made by
restoring one eliminated candidate."""

from __future__ import annotations

import random

import pytest

from sudoku_model import RuleSet, Shape, get_backend
from sudoku_model.solving.candidates import candidate_puzzle
from tests.datafiles import shared_data

SHAPE = Shape(3, 3)
RULES = RuleSet.classic(SHAPE)
NATIVE = get_backend("native")
GENERIC = get_backend("native", fast=False)
SETS = ("gurobi_hard-50.txt", "minisat_bt_020-029k-200.txt", "minisat_bt_1m+-20.txt")


def masks_of(line: str) -> list[int]:
    """The 81 candidate masks of a 729-character line ('.' or '0': eliminated)."""
    return [sum(1 << d for d in range(9) if line[9 * c + d] not in ".0") for c in range(81)]


def first_lines(name: str, k: int) -> list[str]:
    path = shared_data(f"pencilmark/{name}")
    if path is None:
        pytest.skip(f"needs ../shared/data/pencilmark/{name} (not in the repository)")
    return [ln.strip()[:729] for ln in path.read_text().splitlines() if ln.strip()][:k]


def fits(grid: tuple[int, ...], masks: list[int]) -> bool:
    return all(masks[c] >> (v - 1) & 1 for c, v in enumerate(grid))


def test_candidate_masks_take_the_classic_kernel() -> None:
    line = "".join("123456789" for _ in range(81))
    masks = masks_of(line)
    masks[0] = 0b11
    puzzle = candidate_puzzle(RULES, masks)
    assert NATIVE.model(puzzle.rules).classic9  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", SETS[:2])
def test_native_agrees_with_pysat_on_shared_sets(name: str) -> None:
    pysat = get_backend("pysat")
    for line in first_lines(name, 3):
        masks = masks_of(line)
        puzzle = candidate_puzzle(RULES, masks)
        ours = NATIVE.count(puzzle, limit=2)
        theirs = pysat.count(puzzle, limit=2)
        assert ours.count == theirs.count == 1
        assert ours.solutions[0] == theirs.solutions[0]
        assert fits(ours.solutions[0].values, masks)


def test_fast_and_generic_kernels_agree_on_a_hard_puzzle() -> None:
    line = first_lines("gurobi_hard-50.txt", 1)[0]
    puzzle = candidate_puzzle(RULES, masks_of(line))
    fast = NATIVE.count(puzzle, limit=2)
    generic = GENERIC.count(puzzle, limit=2)
    assert fast.count == generic.count == 1
    assert fast.solutions == generic.solutions


def test_one_restored_candidate_makes_two_solutions() -> None:
    pysat = get_backend("pysat")
    rng = random.Random(3)
    line = first_lines("gurobi_hard-50.txt", 1)[0]
    masks = masks_of(line)
    elims = [(c, d) for c in range(81) for d in range(9) if not masks[c] >> d & 1]
    rng.shuffle(elims)
    for c, d in elims:
        trial = list(masks)
        trial[c] |= 1 << d
        puzzle = candidate_puzzle(RULES, trial)
        three = NATIVE.count(puzzle, limit=3)
        if three.count != 2 or not three.complete:
            continue
        for backend in (NATIVE, GENERIC, pysat):
            res = backend.count(puzzle, limit=2)
            assert res.count == 2
            assert all(puzzle.is_solution(s) and fits(s.values, trial) for s in res.solutions)
        assert {s for s in three.solutions} == {s for s in GENERIC.count(puzzle, limit=3).solutions}
        return
    pytest.fail("no single restored candidate gave exactly two solutions")


def test_a_contradictory_domain_has_no_solution() -> None:
    masks = [0x1FF] * 81
    masks[0] = masks[1] = masks[2] = 0b11  # three cells of a row share two digits
    puzzle = candidate_puzzle(RULES, masks)
    assert NATIVE.count(puzzle, limit=1).count == 0
    assert GENERIC.count(puzzle, limit=1).count == 0
