"""The compiled core on facts: known counts, every 17-clue puzzle unique, the fast 9x9 path
equal to the generic path, budgets, streaming, randomised search, threads."""

from __future__ import annotations

import gzip
import random
import threading
import time

import pytest

from sudoku_model import native_backtrack as nb
from sudoku_model.data import bundled_path
from sudoku_model.geometry import Shape
from sudoku_model.rules import RuleSet


def model_of(rules: RuleSet) -> nb.Model:
    return nb.Model(rules.shape.size, rules.units, rules.pairs)


def read_lines(name: str) -> list[str]:
    path = bundled_path(name)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def givens_of(text: str) -> bytes:
    return bytes(0 if ch in ".0" else int(ch) for ch in text[:81])


def is_valid_solution(rules: RuleSet, givens: bytes, grid: bytes) -> bool:
    n = rules.shape.size
    if any(not 1 <= v <= n for v in grid):
        return False
    if any(g and g != v for g, v in zip(givens, grid)):
        return False
    if any(len({grid[c] for c in unit}) != len(unit) for unit in rules.units):
        return False
    return all(grid[a] != grid[b] for a, b in rules.pairs)


CLASSIC9 = RuleSet.classic(Shape(3, 3))


@pytest.fixture(scope="module")
def m9() -> nb.Model:
    return model_of(CLASSIC9)


@pytest.fixture(scope="module")
def seventeen() -> list[bytes]:
    return [givens_of(t) for t in read_lines("17-clue")]


def test_empty_4x4_has_288_solutions() -> None:
    m = model_of(RuleSet.classic(Shape(2, 2)))
    count, status, sols, nodes, guesses = m.solve(bytes(16), limit=10_000, keep=0)
    assert (count, status, sols) == (288, nb.EXHAUSTED, [])
    count, status, sols, _, _ = m.solve(bytes(16), limit=10_000)
    assert len(set(sols)) == 288
    assert all(is_valid_solution(RuleSet.classic(Shape(2, 2)), bytes(16), s) for s in sols)


def test_classic9_model_is_detected(m9: nb.Model) -> None:
    assert m9.classic9
    assert not model_of(RuleSet.build(Shape(3, 3), ["diagonal"])).classic9
    # the same constraints given as a different unit list still count as classic
    reordered = nb.Model(9, list(reversed(CLASSIC9.units)), [])
    assert reordered.classic9


def test_every_17_clue_puzzle_is_unique_in_one_batch(m9: nb.Model, seventeen: list[bytes]) -> None:
    data = b"".join(seventeen)
    start = time.perf_counter()
    counts, statuses, sols, nodes, guesses = m9.batch(data, limit=2, keep=1)
    seconds = time.perf_counter() - start
    assert len(counts) == len(seventeen) == 49158
    assert set(counts) == {1}
    assert set(statuses) == {nb.EXHAUSTED}
    for i in range(0, len(seventeen), 997):
        assert is_valid_solution(CLASSIC9, seventeen[i], sols[81 * i : 81 * i + 81])
    assert seconds < 30  # ~0.4 s unloaded; generous for a busy CI machine


def test_deleting_any_clue_of_a_17_makes_it_non_unique(
    m9: nb.Model, seventeen: list[bytes]
) -> None:
    rng = random.Random(17)
    sample = rng.sample(seventeen, 3000)
    reduced = []
    for g in sample:
        cells = [c for c in range(81) if g[c]]
        cell = rng.choice(cells)
        reduced.append(g[:cell] + b"\0" + g[cell + 1 :])
    counts, statuses, _, _, _ = m9.batch(b"".join(reduced), limit=2)
    assert set(counts) == {2}
    assert set(statuses) == {nb.LIMIT}


def counts43() -> list[tuple[bytes, int, str | None]]:
    out = []
    for line in read_lines("counts-43"):
        parts = line.split(":")
        out.append((givens_of(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else None))
    return out


@pytest.mark.parametrize("fast", [True, False], ids=["fast9", "generic"])
def test_counts_43_reproduced_exactly(m9: nb.Model, fast: bool) -> None:
    cases = counts43()
    assert len(cases) == 43
    for givens, expected, solution in cases:
        count, status, sols, _, _ = m9.solve(givens, limit=10_000, fast=fast)
        assert (count, status) == (expected, nb.EXHAUSTED)
        assert len(set(sols)) == expected
        assert all(is_valid_solution(CLASSIC9, givens, s) for s in sols)
        if solution is not None:
            assert sols == [givens_of(solution)]


@pytest.mark.parametrize("name", ["forum-hardest-1106", "top95", "magictour-top1465"])
def test_fast_path_and_generic_path_agree(m9: nb.Model, name: str) -> None:
    puzzles = [givens_of(t) for t in read_lines(name)][:400]
    rng = random.Random(name)
    # also non-unique and unsolvable variants of them
    more = []
    for g in puzzles[:100]:
        cells = [c for c in range(81) if g[c]]
        c = rng.choice(cells)
        more.append(g[:c] + b"\0" + g[c + 1 :])
        empty = [c for c in range(81) if not g[c]]
        c = rng.choice(empty)
        more.append(g[:c] + bytes([rng.randint(1, 9)]) + g[c + 1 :])
    data = b"".join(puzzles + more)
    fast = m9.batch(data, limit=3, keep=3)
    slow = m9.batch(data, limit=3, keep=3, fast=False)
    assert fast[0] == slow[0] and fast[1] == slow[1]
    for i, count in enumerate(fast[0]):
        a = {fast[2][243 * i + 81 * k : 243 * i + 81 * k + 81] for k in range(min(count, 3))}
        b = {slow[2][243 * i + 81 * k : 243 * i + 81 * k + 81] for k in range(min(count, 3))}
        if fast[1][i] == nb.EXHAUSTED:
            assert a == b  # every solution found: the same set
        for s in a:
            assert is_valid_solution(CLASSIC9, data[81 * i : 81 * i + 81], s)


# -- variants against a brute force ---------------------------------------------------------
def brute_count(rules: RuleSet, givens: bytes, cap: int = 100_000) -> list[bytes]:
    """Plain backtracking over cells in order, peers checked one by one (no propagation)."""
    n, nc = rules.shape.size, rules.shape.cell_count
    peers = [sorted(p) for p in rules.peers]
    grid = list(givens)
    out: list[bytes] = []

    def go(cell: int) -> None:
        if len(out) >= cap:
            return
        while cell < nc and givens[cell]:
            cell += 1
        if cell == nc:
            out.append(bytes(grid))
            return
        for d in range(1, n + 1):
            if all(grid[p] != d for p in peers[cell]):
                grid[cell] = d
                go(cell + 1)
                grid[cell] = 0

    if all(not givens[c] or all(givens[p] != givens[c] for p in peers[c]) for c in range(nc)):
        go(0)
    return out


JIGSAW_4 = [0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
JIGSAW_6 = [
    0,
    0,
    0,
    1,
    1,
    1,
    0,
    0,
    2,
    2,
    1,
    1,
    0,
    3,
    2,
    2,
    2,
    1,
    3,
    3,
    3,
    2,
    4,
    4,
    3,
    5,
    5,
    5,
    4,
    4,
    3,
    5,
    5,
    5,
    4,
    4,
]


@pytest.mark.parametrize(
    "variants,regions",
    [
        (["diagonal"], None),
        (["windoku"], None),
        (["anti-knight"], None),
        (["anti-king"], None),
        (["diagonal", "anti-king"], None),
        (["jigsaw"], JIGSAW_4),
    ],
)
def test_4x4_variants_match_brute_force(variants: list[str], regions: list[int] | None) -> None:
    rules = RuleSet.build(Shape(2, 2), variants, regions=regions)
    m = model_of(rules)
    expected = brute_count(rules, bytes(16))
    count, status, sols, _, _ = m.solve(bytes(16), limit=10_000)
    assert (count, status) == (len(expected), nb.EXHAUSTED)
    assert sorted(sols) == sorted(expected)


@pytest.mark.parametrize(
    "variants,regions",
    [
        (["diagonal"], None),
        (["windoku"], None),
        (["anti-knight"], None),
        (["anti-king"], None),
        (["jigsaw"], JIGSAW_6),
        ([], None),
    ],
)
def test_6x6_variants_with_givens_match_brute_force(
    variants: list[str], regions: list[int] | None
) -> None:
    rules = RuleSet.build(Shape(2, 3), variants, regions=regions)
    m = model_of(rules)
    rng = random.Random(str(variants))
    checked = 0
    for seed in range(40):
        full = m.search(bytes(36), seed=seed).run(1)[1]
        if not full:
            pytest.skip("variant has no 6x6 solution")
        keep = rng.sample(range(36), 14)
        givens = bytes(full[0][c] if c in keep else 0 for c in range(36))
        expected = brute_count(rules, givens)
        count, status, sols, _, _ = m.solve(givens, limit=100_000)
        assert (count, status) == (len(expected), nb.EXHAUSTED)
        assert sorted(sols) == sorted(expected)
        checked += 1
    assert checked == 40


# -- answers and budgets ----------------------------------------------------------------------
def test_contradictory_and_unsolvable_answer_fast(m9: nb.Model) -> None:
    clash = bytearray(81)
    clash[0] = clash[8] = 5
    for fast in (True, False):
        assert m9.solve(bytes(clash), limit=2, fast=fast)[:2] == (0, nb.CONTRADICTORY)
    # no direct clash, but r1c9 can hold no digit (1..8 in its row, 9 in its column)
    unsolvable = bytearray(81)
    unsolvable[0:8] = bytes(range(1, 9))
    unsolvable[9 * 4 + 8] = 9
    for fast in (True, False):
        count, status, sols, nodes, _ = m9.solve(bytes(unsolvable), limit=2, fast=fast)
        assert (count, status, sols) == (0, nb.EXHAUSTED, [])
    counts, statuses, *_ = m9.batch(bytes(clash) + bytes(unsolvable) + bytes([10]) + bytes(80))
    assert counts == [0, 0, 0]
    assert list(statuses) == [nb.CONTRADICTORY, nb.EXHAUSTED, nb.INVALID]


def test_clashing_givens_every_pair_of_cells(m9: nb.Model) -> None:
    """The classic 9x9 path checks its own givens: every pair of cells holding the same
    digit is contradictory exactly when the two share a row, column or box, and a value
    over 9 is invalid before any clash."""
    pairs = [(a, b) for a in range(81) for b in range(a + 1, 81)]
    data = bytearray()
    for a, b in pairs:
        grid = bytearray(81)
        grid[a] = grid[b] = 1 + (a + b) % 9
        data += grid
    counts, statuses, *_ = m9.batch(bytes(data), limit=1)
    for (a, b), count, status in zip(pairs, counts, statuses, strict=True):
        peers = a // 9 == b // 9 or a % 9 == b % 9 or (a // 27, a % 9 // 3) == (b // 27, b % 9 // 3)
        if peers:
            assert (count, status) == (0, nb.CONTRADICTORY), (a, b)
        else:
            assert (count, status) == (1, nb.LIMIT), (a, b)
    clash_and_ten = bytearray(81)
    clash_and_ten[0] = clash_and_ten[1] = 4
    clash_and_ten[80] = 10
    assert list(m9.batch(bytes(clash_and_ten))[1]) == [nb.INVALID]


def test_bad_givens_raise(m9: nb.Model) -> None:
    with pytest.raises(ValueError):
        m9.solve(bytes(80))
    with pytest.raises(ValueError):
        m9.solve(bytes([10]) + bytes(80))
    with pytest.raises(ValueError):
        nb.Model(3, [], [])
    with pytest.raises(ValueError):
        nb.Model(4, [[0, 1, 99]], [])


@pytest.mark.parametrize("fast", [True, False])
def test_budgets_answer_unknown_not_hang(m9: nb.Model, fast: bool) -> None:
    empty = bytes(81)  # ~6.7e21 solutions
    start = time.perf_counter()
    count, status, _, nodes, _ = m9.solve(empty, limit=10**12, keep=0, nodes=5000, fast=fast)
    assert status == nb.BUDGET and nodes <= 5001 and count > 0
    count, status, *_ = m9.solve(empty, limit=10**12, keep=0, seconds=0.2, fast=fast)
    assert status == nb.BUDGET
    assert time.perf_counter() - start < 3
    # a 10^8-solution puzzle: the first rows of a grid only
    top = givens_of("123456789456789123" + "." * 63)
    count, status, *_ = m9.solve(top, limit=10**9, keep=0, seconds=0.1, fast=fast)
    assert status == nb.BUDGET
    counts, statuses, *_ = m9.batch(empty * 3, limit=10**9, keep=0, seconds=0.05, fast=fast)
    assert list(statuses) == [nb.BUDGET] * 3
    assert time.perf_counter() - start < 5


def test_empty_grids_of_every_size_answer_quickly() -> None:
    for br, bc in [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5)]:
        rules = RuleSet.classic(Shape(br, bc))
        m = model_of(rules)
        nc = rules.shape.cell_count
        start = time.perf_counter()
        count, status, sols, _, _ = m.solve(bytes(nc), limit=2, seconds=2.0)
        assert time.perf_counter() - start < 4
        assert status in (nb.LIMIT, nb.BUDGET)
        for s in sols:
            assert is_valid_solution(rules, bytes(nc), s)


@pytest.mark.parametrize("shape", [Shape(4, 4), Shape(5, 5)], ids=["16x16", "25x25"])
def test_big_puzzles_solve(shape: Shape) -> None:
    rules = RuleSet.classic(shape)
    m = model_of(rules)
    nc = shape.cell_count
    full = m.search(bytes(nc), seed=3).run(1, seconds=10)[1][0]
    assert is_valid_solution(rules, bytes(nc), full)
    rng = random.Random(5)
    givens = bytes(v if rng.random() < 0.55 else 0 for v in full)
    count, status, sols, _, _ = m.solve(givens, limit=2, seconds=20)
    assert count >= 1 and status in (nb.EXHAUSTED, nb.LIMIT)
    assert all(is_valid_solution(rules, givens, s) for s in sols)
    if count == 1:
        assert sols == [full]


def test_search_streams_and_resumes() -> None:
    m = model_of(RuleSet.classic(Shape(2, 2)))
    search = m.search(bytes(16))
    seen: list[bytes] = []
    while True:
        status, chunk = search.run(7)
        seen.extend(chunk)
        if status == nb.EXHAUSTED:
            break
        assert status == nb.LIMIT and len(chunk) == 7
    assert len(seen) == len(set(seen)) == 288
    assert search.run(5) == (nb.EXHAUSTED, [])
    # a budget stop can be resumed without losing or repeating solutions
    search = m.search(bytes(16))
    got: list[bytes] = []
    for _ in range(10_000):
        status, chunk = search.run(1000, nodes=3)
        got.extend(chunk)
        if status == nb.EXHAUSTED:
            break
    assert sorted(got) == sorted(seen)


def test_seeded_search_is_random_and_reproducible(m9: nb.Model) -> None:
    grids = [m9.search(bytes(81), seed=s).run(1)[1][0] for s in range(20)]
    assert len(set(grids)) == 20
    assert all(is_valid_solution(CLASSIC9, bytes(81), g) for g in grids)
    assert m9.search(bytes(81), seed=7).run(1)[1][0] == grids[7]


@pytest.mark.parametrize("fast", [True, False])
def test_forbidden_and_avoid(m9: nb.Model, fast: bool) -> None:
    givens, _, solution = counts43()[0]
    assert solution is not None
    sol = givens_of(solution)
    empty_cell = givens.index(0)
    # the unique solution, forbidden at one cell: nothing left
    count, status, *_ = m9.solve(
        givens, limit=2, fast=fast, forbidden=[(empty_cell, sol[empty_cell])]
    )
    assert (count, status) == (0, nb.EXHAUSTED)
    count, status, *_ = m9.solve(givens, limit=2, fast=fast, avoid=sol)
    assert (count, status) == (0, nb.EXHAUSTED)
    # a clue removed from a 17: the other solution, found by excluding the known digit
    g17 = givens_of(read_lines("17-clue")[0])
    sol17 = m9.solve(g17)[2][0]
    clue = next(c for c in range(81) if g17[c])
    reduced = g17[:clue] + b"\0" + g17[clue + 1 :]
    count, status, sols, _, _ = m9.solve(
        reduced, limit=1, fast=fast, forbidden=[(clue, sol17[clue])]
    )
    assert count == 1 and sols[0][clue] != sol17[clue]
    count, status, sols, _, _ = m9.solve(reduced, limit=1, fast=fast, avoid=sol17)
    assert count == 1 and sols[0] != sol17


def test_batch_releases_the_gil(m9: nb.Model, seventeen: list[bytes]) -> None:
    data = b"".join(seventeen[:20000])
    ticks = 0
    running = True

    def spin() -> None:
        nonlocal ticks
        while running:
            ticks += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        before = ticks
        m9.batch(data, limit=2)
        during = ticks - before
    finally:
        running = False
        spinner.join()
    # with the GIL held the spinner could not tick at all during the call
    assert during > 1000


def test_threads_run_batches_in_parallel(m9: nb.Model, seventeen: list[bytes]) -> None:
    data = b"".join(seventeen[:10000])
    results: list[list[int]] = [[], []]

    def work(k: int) -> None:
        results[k] = m9.batch(data, limit=2)[0]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] == [1] * 10000


def test_counting_search_answers_like_the_first_search_on_hard_and_multi_puzzles(
    m9: nb.Model,
) -> None:
    """Counting without avoid or forbidden pairs hands hard puzzles (50 or more cells open
    after propagation) to the box/band search; an avoid grid that matches no solution (all
    ones) keeps the first search. Same counts, statuses and unique solutions; every grid
    either returns is a solution."""
    hard = [givens_of(t) for t in read_lines("forum-hardest-1106")[:60]]
    top = [givens_of(t) for t in read_lines("magictour-top1465")[::25]]
    rng = random.Random(5)
    multi = []
    for text in read_lines("17-clue")[:40]:
        g = bytearray(givens_of(text))
        g[rng.choice([c for c in range(81) if g[c]])] = 0
        multi.append(bytes(g))
    never = bytes([1] * 81)
    routed = 0
    for givens in hard + top + multi:
        count, status, sols, *_ = m9.solve(givens, limit=2)
        count0, status0, sols0, *_ = m9.solve(givens, limit=2, avoid=never)
        assert (count, status) == (count0, status0)
        for grid in sols + sols0:
            assert is_valid_solution(CLASSIC9, givens, grid)
        if count == 1:
            assert sols == sols0
        routed += count == 2
    assert routed >= 30  # the multi-solution puzzles were counted to 2


def test_grid_values_are_the_bytes_as_ints_in_a_tuple_the_collector_does_not_track():
    import gc

    raw = bytes(random.Random(5).randrange(26) for _ in range(625))
    for cells in (raw, bytearray(raw), memoryview(raw), b""):
        values = nb.grid_values(cells)
        assert type(values) is tuple and values == tuple(cells)
        assert not gc.is_tracked(values)
    # the native backend's grids hold them: a count's 288 solutions of the empty 4x4
    from sudoku_model import Puzzle, get_backend

    result = get_backend("native").count(Puzzle.empty(Shape(2, 2)), limit=1000)
    assert result.count == 288 and len({g.values for g in result.solutions}) == 288
    assert not any(gc.is_tracked(g.values) for g in result.solutions)
    with pytest.raises(TypeError):
        nb.grid_values("1234")  # type: ignore[arg-type]
