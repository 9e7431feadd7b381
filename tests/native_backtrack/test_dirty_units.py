"""The generic search sweeps hidden singles and locked pairs only in the units a change
touched (generic.c: dirty units), and the removal pass starts its searches from the
peers' digit masks it keeps (nb_solve_seen): both reach the states of the full sweeps,
so nodes, guesses and answers are those of the search before these changes."""

from __future__ import annotations

from sudoku_model import RuleSet, Shape
from sudoku_model.backends.native import _compile

RULES16 = RuleSet.classic(Shape(4, 4))

#: Minimal 16x16 puzzles of `generate_one(seed=puzzle_seed(2518, i))`, i = 0..2, with the
#: nodes and guesses of a count to 2 and of the same count without their first clue,
#: recorded with the build before the dirty-unit sweeps (commit 1345585).
PINNED = [
    (
        "...G..7.C.1..35..7..4.G...2.....D.4..3..5A.F.C....E.A...D.7..2...4..95......81..BD.5"
        "7..6.3..E.....A.E....F9.B.6G328...D.6.......C1..5F.G...9D.........98..36.........B.D7"
        "E..A.C.45B.36E.8...F.1......AF1..8.G...16..D.2....E.B....F4...7.......8.E.8.....C..2..A",
        (823, 411),
        (41, 26),
    ),
    (
        "9B.8CG6.4..7........F....EC...B4...4...A.2...8....A7...5F...E..67.....5.....9.81.A5."
        ".....B6..F....2B.....1.E...33.F..9C72.A.6.5....C..G.......2..7...31.E9GC.....39....45"
        "..F1....G.A7..F......3E8.E2.47B....A.C.....5.3..CD.4....5....9...1...DF..B..A.....38...",
        (56405, 28202),
        (30, 25),
    ),
    (
        "5E..F1G..3B7...A.D.8.A..5.F6..3C...A...84..126...C..4..6........B..2E.....3.4.F5.6EF"
        "..4.7.G...D.C..D....E..F.A12..4..9..A...G.C.A.G...87C.........C.....6....1.E2.1.D43.."
        "985.............FD...G4..9....1.4.832A.G5..78........E6.....BA3D...F......35.......C..8",
        (1163, 581),
        (469, 242),
    ),
]


def _values(line: str) -> bytes:
    return bytes(0 if ch == "." else int(ch, 17) for ch in line)


def test_counts_take_the_nodes_of_the_full_sweeps() -> None:
    model = _compile(RULES16)
    for line, whole, minus_first in PINNED:
        givens = _values(line)
        count, _, _, nodes, guesses = model.solve(givens, limit=2, keep=0)
        assert (count, (nodes, guesses)) == (1, whole)
        first = next(c for c in range(256) if givens[c])
        fewer = bytearray(givens)
        fewer[first] = 0
        count, _, _, nodes, guesses = model.solve(bytes(fewer), limit=2, keep=0)
        assert (count, (nodes, guesses)) == (2, minus_first)


def test_the_removal_pass_searches_like_solve() -> None:
    # Every clue of a minimal puzzle is necessary and none is forced by singles, so the
    # pass answers each with one search: its nodes are those of Model.solve asking the
    # same question from the givens (the peers' walk that nb_solve_seen skips).
    model = _compile(RULES16)
    line = PINNED[0][0]
    givens = _values(line)
    count, _, (known,), _, _ = model.solve(givens, limit=1, keep=1)
    assert count == 1
    clues = [c for c in range(256) if givens[c]]
    for cell in clues[::4]:
        fewer = bytearray(givens)
        fewer[cell] = 0
        _, answers, stopped, _, nodes, _ = model.remove_clues(givens, known, [[cell]], probe=True)
        assert (answers, stopped) == (b"\x00", -1)
        found, _, _, plain, _ = model.solve(
            bytes(fewer), limit=1, keep=0, prefer=known, forbidden=((cell, known[cell]),)
        )
        assert found == 1 and nodes == plain > 0
