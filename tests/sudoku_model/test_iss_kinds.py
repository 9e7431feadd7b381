"""The line constraints built from the existing rule kinds (whispers, renban, palindromes,
entropic and modular lines, anti-taxicab, zippers, double arrows, equal sums, region sum
lines, weighted sums): on small grids, the native, pysat and cpsat backends count as many
solutions as a direct enumeration that checks each rule as the puzzle setters state it,
written here without the rule kinds (the 288 4x4 grids, or the completions of a 6x6 grid
with a few cells blanked)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import cache

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.formats.iss import _decode_key
from sudoku_model.formats.iss_write import _encode_key
from sudoku_model.rules import (
    Rule,
    RuleError,
    anti_taxicab_rules,
    double_arrow_rule,
    entropic_rule,
    equal_sums_rule,
    indexing_rules,
    modular_rules,
    palindrome_rule,
    region_sum_lines_rule,
    renban_rules,
    weighted_sums_rule,
    whisper_rule,
    zipper_rule,
)
from sudoku_model.solving import Backend, get_backend

S4, S6 = Shape(2, 2), Shape(2, 3)
BACKENDS = ("native", "pysat", "cpsat")

Values = Sequence[int]


@cache
def backend(name: str) -> Backend:
    return get_backend(name)


@cache
def grids_4x4() -> tuple[tuple[int, ...], ...]:
    out = []
    for values in itertools.product(itertools.permutations(range(1, 5)), repeat=4):
        flat = tuple(d for row in values for d in row)
        if _classic_ok(S4, flat):
            out.append(flat)
    assert len(out) == 288
    return tuple(out)


def _classic_ok(shape: Shape, v: Values) -> bool:
    return all(len({v[c] for c in unit}) == len(unit) for unit in shape.units)


def _random_path(shape: Shape, rng: random.Random, length: int) -> list[int]:
    """A path of distinct cells, each a king's step from the last."""
    n = shape.size
    while True:
        path = [rng.randrange(n * n)]
        while len(path) < length:
            r, c = divmod(path[-1], n)
            steps = [
                (r + dr) * n + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
            ]
            if not steps:
                break
            path.append(rng.choice(steps))
        if len(path) == length:
            return path


def _windows(line: Sequence[int], k: int) -> list[Sequence[int]]:
    return [line[i : i + k] for i in range(max(1, len(line) - k + 1))]


# -- each kind: (rules from random lines, the setter's statement of the rule) ----------------
Case = tuple[list[Rule], Callable[[Values], bool]]


def whisper_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(2, 4)) for _ in range(2)]
    d = rng.choice((2, 2, 3))
    return [whisper_rule(shape, lines, d)], lambda v: all(
        abs(v[a] - v[b]) >= d for line in lines for a, b in zip(line, line[1:])
    )


def renban_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(2, 3)) for _ in range(2)]

    def ok(v: Values) -> bool:
        for line in lines:
            digits = sorted(v[c] for c in line)
            if digits != list(range(digits[0], digits[0] + len(line))):
                return False
        return True

    return list(renban_rules(shape, lines)), ok


def palindrome_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(3, 5)) for _ in range(2)]
    return [palindrome_rule(shape, lines)], lambda v: all(
        [v[c] for c in line] == [v[c] for c in reversed(line)] for line in lines
    )


def entropic_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(2, 5)) for _ in range(2)]
    third = shape.size // 3

    def ok(v: Values) -> bool:
        return all(
            len({(v[c] - 1) // third for c in w}) == len(w)
            for line in lines
            for w in _windows(line, 3)
        )

    return [entropic_rule(shape, lines)], ok


def modular_case(shape: Shape, rng: random.Random) -> Case:
    m = rng.choice((2, 3))
    lines = [_random_path(shape, rng, rng.randint(2, 5)) for _ in range(2)]

    def ok(v: Values) -> bool:
        return all(
            len({v[c] % m for c in w}) == len(w) for line in lines for w in _windows(line, m)
        )

    return list(modular_rules(shape, lines, m)), ok


def anti_taxicab_case(shape: Shape, rng: random.Random) -> Case:
    n = shape.size

    def ok(v: Values) -> bool:
        for a, b in itertools.combinations(range(n * n), 2):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            if v[a] == v[b] == abs(ra - rb) + abs(ca - cb):
                return False
        return True

    return list(anti_taxicab_rules(shape)), ok


def zipper_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(3, 6)) for _ in range(2)]

    def ok(v: Values) -> bool:
        for line in lines:
            k = len(line)
            total = v[line[k // 2]] if k % 2 else v[line[0]] + v[line[-1]]
            if any(v[line[i]] + v[line[-1 - i]] != total for i in range(k // 2)):
                return False
        return True

    return [zipper_rule(shape, lines)], ok


def double_arrow_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(3, 4)) for _ in range(2)]
    return [double_arrow_rule(shape, lines)], lambda v: all(
        sum(v[c] for c in line[1:-1]) == v[line[0]] + v[line[-1]] for line in lines
    )


def equal_sums_case(shape: Shape, rng: random.Random) -> Case:
    cells = rng.sample(range(shape.cell_count), 6)
    segments = [cells[:1], cells[1:3], cells[3:6]] if rng.random() < 0.5 else [cells[:3], cells[3:]]
    return [
        equal_sums_rule(shape, [segments])
    ], lambda v: len({sum(v[c] for c in s) for s in segments}) == 1


def region_sum_case(shape: Shape, rng: random.Random) -> Case:
    lines = [_random_path(shape, rng, rng.randint(3, 5)) for _ in range(2)]

    def ok(v: Values) -> bool:
        for line in lines:
            runs: list[list[int]] = []
            for c in line:
                if runs and shape.box_of(runs[-1][-1]) == shape.box_of(c):
                    runs[-1].append(c)
                else:
                    runs.append([c])
            if len({sum(v[c] for c in run) for run in runs}) > 1:
                return False
        return True

    return [region_sum_lines_rule(shape, lines, shape.boxes)], ok


def weighted_sum_case(shape: Shape, rng: random.Random) -> Case:
    cells = rng.sample(range(shape.cell_count), 4)
    weights = [rng.choice((1, 2, -1, -2)) for _ in cells]
    target = [rng.randint(1, shape.size) for _ in cells]
    total = sum(w * d for w, d in zip(weights, target))
    return [
        weighted_sums_rule(shape, [(cells, weights, total)])
    ], lambda v: sum(w * v[c] for c, w in zip(cells, weights)) == total


def indexing_case(shape: Shape, rng: random.Random) -> Case:
    """Column indexing on a few cells of one column, and a numbered room clue."""
    n = shape.size
    col = rng.randrange(n)
    controls = [r * n + col for r in rng.sample(range(n), 2)]
    clues = [(x, [x - x % n + j for j in range(n)], col + 1) for x in controls]
    k = rng.randrange(n)
    line = list(shape.rows[k] if rng.random() < 0.5 else shape.columns[k])
    if rng.random() < 0.5:
        line.reverse()
    clue = rng.randint(1, n)
    clues.append((line[0], line, clue))

    def ok(v: Values) -> bool:
        row_ok = all(v[x - x % n + v[x] - 1] == col + 1 for x in controls)
        return row_ok and v[line[v[line[0]] - 1]] == clue

    return list(indexing_rules(shape, clues)), ok


CASES: dict[str, Callable[[Shape, random.Random], Case]] = {
    "whisper": whisper_case,
    "renban": renban_case,
    "palindrome": palindrome_case,
    "modular": modular_case,
    "anti-taxicab": anti_taxicab_case,
    "zipper": zipper_case,
    "double arrow": double_arrow_case,
    "equal sums": equal_sums_case,
    "region sum line": region_sum_case,
    "weighted sum": weighted_sum_case,
    "indexing": indexing_case,
}


def _counts(puzzle: Puzzle) -> dict[str, int]:
    out = {}
    for name in BACKENDS:
        count = backend(name).count(puzzle, limit=400)
        assert count.complete, name
        out[name] = count.count
    return out


@pytest.mark.parametrize("kind", sorted(CASES))
def test_4x4_counts_equal_direct_enumeration(kind: str) -> None:
    rng = random.Random(f"iss kinds {kind}")
    grids = grids_4x4()
    for _ in range(1 if kind == "anti-taxicab" else 5):  # anti-taxicab has no lines
        try:
            rules, ok = CASES[kind](S4, rng)
        except RuleError:
            continue  # a random line no digits can satisfy (a sum out of reach)
        puzzle = Puzzle.empty(S4, RuleSet.classic(S4).with_rules(rules))
        expected = sum(1 for v in grids if ok(v))
        assert _counts(puzzle) == dict.fromkeys(BACKENDS, expected), (kind, rules)
        for v in grids:  # the rule's own checker agrees too
            assert puzzle.is_solution(Grid(S4, v)) == ok(v)


def _random_full_grid(shape: Shape, rng: random.Random) -> list[int]:
    """A random solution of the classic rules, by randomised backtracking."""
    n = shape.size
    values = [0] * shape.cell_count

    def fill(cell: int) -> bool:
        if cell == len(values):
            return True
        used = {values[p] for p in shape.peers[cell]}
        digits = [d for d in range(1, n + 1) if d not in used]
        rng.shuffle(digits)
        for d in digits:
            values[cell] = d
            if fill(cell + 1):
                return True
        values[cell] = 0
        return False

    assert fill(0)
    return values


def _completions(shape: Shape, givens: list[int], ok: Callable[[Values], bool]) -> int:
    blanks = [c for c, v in enumerate(givens) if not v]
    count = 0
    values = list(givens)
    for digits in itertools.product(range(1, shape.size + 1), repeat=len(blanks)):
        for c, d in zip(blanks, digits):
            values[c] = d
        if _classic_ok(shape, values) and ok(values):
            count += 1
    return count


@pytest.mark.parametrize("kind", ["entropic", *sorted(CASES)])
def test_6x6_counts_equal_direct_enumeration(kind: str) -> None:
    """On 6x6 grids (entropic lines need a size divisible by 3): a random full grid with
    six cells blanked, every completion enumerated."""
    make = entropic_case if kind == "entropic" else CASES[kind]
    rng = random.Random(f"iss kinds 6x6 {kind}")
    for _ in range(3):
        full = _random_full_grid(S6, rng)
        try:
            rules, ok = make(S6, rng)
        except RuleError:
            continue
        givens = list(full)
        for c in rng.sample(range(36), 6):
            givens[c] = 0
        puzzle = Puzzle(Grid(S6, givens), RuleSet.classic(S6).with_rules(rules))
        expected = _completions(S6, givens, ok)
        assert _counts(puzzle) == dict.fromkeys(BACKENDS, expected), (kind, rules)


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_pair_keys_round_trip(n: int) -> None:
    rng = random.Random(n)
    for _ in range(20):
        allowed = frozenset(
            (a, b) for a in range(1, n + 1) for b in range(1, n + 1) if rng.random() < 0.3
        )
        assert _decode_key(_encode_key(allowed, n), n) == allowed


def test_pair_key_matches_a_published_table() -> None:
    # ISS's "1:3" relation from its Entropic connections example (the digit in the first
    # cell is 1/3 of the second's, or 3 times it)
    allowed = _decode_key("EAEBEAAQAAAAE", 9)
    assert allowed == frozenset({(1, 3), (3, 1), (2, 6), (6, 2), (3, 9), (9, 3)})


def test_renban_and_modular_refuse_lines_that_cannot_hold() -> None:
    with pytest.raises(RuleError, match="repeats a cell"):
        renban_rules(S4, [[0, 1, 0]])
    with pytest.raises(RuleError, match="more than 4 cells"):
        renban_rules(S4, [[0, 1, 2, 3, 7]])
    with pytest.raises(RuleError, match="modulus"):
        modular_rules(S4, [[0, 1]], 5)
    with pytest.raises(RuleError, match="three equal groups"):
        entropic_rule(S4, [[0, 1]])
    with pytest.raises(RuleError, match="no pair"):
        whisper_rule(S4, [[0, 1]], 4)


@pytest.mark.parametrize("kind", ["entropic", *sorted(CASES)])
def test_each_kind_round_trips_through_iss(kind: str) -> None:
    """Written as an ISS string and read back: the same solutions (pysat; as many, up to
    30, and the same grids when there are fewer)."""
    from sudoku_model.formats.iss import puzzle_from_iss
    from sudoku_model.formats.iss_write import puzzle_to_iss

    make = entropic_case if kind == "entropic" else CASES[kind]
    rng = random.Random(f"iss round trip {kind}")
    pysat = backend("pysat")
    for _ in range(3):
        try:
            rules, _ok = make(S6, rng)
        except RuleError:
            continue
        full = _random_full_grid(S6, rng)
        givens = [v if rng.random() < 0.3 else 0 for v in full]
        puzzle = Puzzle(Grid(S6, givens), RuleSet.classic(S6).with_rules(rules))
        back = puzzle_from_iss(puzzle_to_iss(puzzle))
        first, second = (set(pysat.solutions(p, limit=30)) for p in (puzzle, back))
        assert len(first) == len(second)
        if len(first) < 30:  # all of them: the same grids
            assert first == second
