"""The SE rater on pencilmark (sukaku) puzzles against SukakuExplainer's own ratings of the
same 729-character lines (tests/data/se-pencilmark-120.txt), and the start state it takes
from candidates."""

from __future__ import annotations

import pytest

from sudoku_model.se import State, rate_se, rate_se_pencilmark
from tests.datafiles import data_file

ROWS = [
    line.split()
    for line in data_file("se-pencilmark-120.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def masks_of(line: str) -> list[int]:
    return [sum(1 << d for d in range(9) if line[9 * c + d] != ".") for c in range(81)]


def test_the_data_is_what_it_says() -> None:
    assert len(ROWS) == 120
    assert all(len(line) == 729 and rating.count("/") == 2 for line, rating in ROWS)


def test_every_rating_equals_sukakuexplainers() -> None:
    got = []
    for line, _ in ROWS:
        r = rate_se_pencilmark(masks_of(line), seconds=60)
        got.append(f"{r.er}/{r.ep}/{r.ed}")
    assert got == [rating for _, rating in ROWS]


def test_a_single_candidate_no_peer_has_is_a_value_and_one_a_peer_has_is_not() -> None:
    masks = [0x1FF] * 81
    masks[0] = 1 << 4  # r1c1: only 5, and 5 stays a candidate of its peers
    state = State.from_candidates(masks)
    assert state.values[0] == 0 and state.cands[0] == 1 << 4
    for peer in range(1, 9):  # no peer of r1c1 keeps the 5 ... in its row only
        masks[peer] &= ~(1 << 4)
    assert State.from_candidates(masks).values[0] == 0  # the column and box still have it
    for peer in (9, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72):
        masks[peer] &= ~(1 << 4)
    state = State.from_candidates(masks)
    assert state.values[0] == 5 and state.cands[0] == 0


def test_candidates_from_the_givens_rate_like_the_givens() -> None:
    """A classic puzzle written with the candidates its givens leave rates as the puzzle
    (the givens' eliminations are what SE starts from either way)."""
    _, puzzle, er = data_file("se-rated-2000.txt").read_text().split("\n")[0].split()
    values = [0 if ch in ".0" else int(ch) for ch in puzzle]
    state = State.from_values(values)
    masks = [state.cands[c] or 1 << (values[c] - 1) for c in range(81)]
    a, b = rate_se(values, seconds=30), rate_se_pencilmark(masks, seconds=30)
    assert a.status == "rated" and a.er == float(er)
    assert (a.status, a.er, a.ep, a.ed) == (b.status, b.er, b.ep, b.ed)


@pytest.mark.parametrize("bad", [[0x1FF] * 80, [0] + [0x1FF] * 80, [512] + [0x1FF] * 80])
def test_bad_masks_raise(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        rate_se_pencilmark(bad)
