"""The ``mip:highs`` backend (HiGHS on a 0/1 programme) against brute force and the others.

The contract suite (tests/backends/test_contract.py) and the differential tests run on it
like on every registered backend; here: every rule kind it declares against brute force over
all 288 4x4 grids and against pysat on 6x6 and 9x9 instances, counting by disjoint
sub-problems against the native backend's solution sets, the no-good cut of uniqueness,
a sample of top95, killer and 16x16 puzzles against native, the refusal of sandwich
rules, budgets, interruption and the message when highspy is missing.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from pathlib import Path

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, formats
from sudoku_model.data import bundled_path
from sudoku_model.errors import BackendUnavailableError, SearchInterrupted, UnsupportedPuzzleError
from sudoku_model.rules import Domain
from sudoku_model.solving import Backend, get_backend

pytest.importorskip("highspy", reason="the mip extra (highspy) is not installed")

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rule_instances import killer_puzzles  # noqa: E402
from test_rule_encodings import (  # noqa: E402
    MAKERS,
    S4,
    S6,
    S9,
    all_4x4_grids,
    counts_agree,
    random_full_grid,
)

LINEAR_KINDS = sorted(k for k in MAKERS if k != "sandwich")


@pytest.fixture(scope="module")
def mip() -> Backend:
    return get_backend("mip:highs")


@pytest.fixture(scope="module")
def native() -> Backend:
    return get_backend("native")


def collection(name: str) -> list[tuple[Puzzle, str]]:
    return [(r.puzzle, r.comment) for r in formats.iter_records(bundled_path(name))]


def test_name_and_aliases() -> None:
    assert get_backend("mip").name == "mip:highs"
    assert get_backend("mip:highs").name == "mip:highs"
    with pytest.raises(ValueError, match="highs"):
        get_backend("mip:gurobi")
    with pytest.raises(ValueError, match="threads"):
        get_backend("mip", threads=0)
    with pytest.raises(ValueError, match="refused option"):
        get_backend("mip", options={"no_such_option": 1})


def test_empty_4x4_has_288_distinct_solutions(mip: Backend) -> None:
    grids = list(mip.solutions(Puzzle.empty(S4)))
    assert len(grids) == 288 == len(set(grids))
    assert set(grids) == set(all_4x4_grids())


@pytest.mark.parametrize("kind", LINEAR_KINDS)
def test_4x4_counts_equal_brute_force(mip: Backend, kind: str) -> None:
    rng = random.Random(f"mip brute {kind}")
    grids = all_4x4_grids()
    for _ in range(4):
        solution = rng.choice(grids)
        extra = MAKERS[kind](S4, solution.values, rng)
        if not extra:
            continue
        puzzle = Puzzle.empty(S4, RuleSet.classic(S4).with_rules(extra))
        expected = {g for g in grids if puzzle.is_solution(g)}
        count = mip.count(puzzle, limit=300)
        assert count.complete and count.count == len(expected), (kind, extra)
        assert set(count.solutions) == expected


@pytest.mark.parametrize("kind", LINEAR_KINDS)
@pytest.mark.parametrize("shape", [S6, S9], ids=["6x6", "9x9"])
def test_agrees_with_pysat_per_kind(kind: str, shape: Shape) -> None:
    rng = random.Random(f"mip {kind} {shape}")
    keep = {6: 0.35, 9: 0.5}[shape.size]
    for _ in range(2):
        solution = random_full_grid(shape, rng)
        extra = MAKERS[kind](shape, solution.values, rng)
        if not extra:
            continue
        rules = RuleSet.classic(shape).with_rules(extra)
        givens = [v if rng.random() < keep else 0 for v in solution.values]
        counts_agree(Puzzle(Grid(shape, givens), rules), ["pysat", "mip:highs"], limit=4)


def test_candidates_restrict_cells(mip: Backend) -> None:
    """A domain rule per cell (pencilmarks): the count equals brute force over 4x4."""
    rng = random.Random(7)
    grids = all_4x4_grids()
    solution = rng.choice(grids)
    cells = []
    for c, v in enumerate(solution.values):
        others = [d for d in range(1, 5) if d != v]
        cells.append((c, frozenset([v, *rng.sample(others, rng.randint(0, 2))])))
    rules = RuleSet.classic(S4).with_rules([Domain("candidates", tuple(cells))])
    puzzle = Puzzle.empty(S4, rules)
    expected = sum(1 for g in grids if puzzle.is_solution(g))
    count = mip.count(puzzle, limit=300)
    assert count.complete and count.count == expected >= 1


def test_counting_by_parts_gives_natives_solution_sets(mip: Backend, native: Backend) -> None:
    """The multi-solution puzzles of counts-43 up to 200 solutions: the disjoint
    sub-problems give exactly native's solutions, each once, and counting up to a limit
    stops there."""
    several = [p for p, c in collection("counts-43") if 1 < int(c.partition(":")[0]) <= 200]
    assert len(several) >= 8
    for puzzle in several:
        ours = mip.count(puzzle, limit=1000)
        theirs = native.count(puzzle, limit=1000)
        assert ours.complete and theirs.complete
        assert len(set(ours.solutions)) == ours.count == theirs.count
        assert set(ours.solutions) == set(theirs.solutions)
        assert ours.stats["solves"] <= ours.count + 1  # about one solve per solution
        part = mip.count(puzzle, limit=theirs.count - 1)
        assert (part.count, part.complete) == (theirs.count - 1, False)
        assert set(part.solutions) <= set(theirs.solutions)


def test_the_601_solutions_are_counted_quickly(mip: Backend) -> None:
    puzzle = next(p for p, c in collection("counts-43") if c.partition(":")[0] == "601")
    start = time.process_time()
    result = mip.count(puzzle, limit=1000)
    assert (result.count, result.complete) == (601, True)
    assert time.process_time() - start < 20  # a few seconds; a cut per solution took minutes


def test_uniqueness_by_a_no_good_cut(mip: Backend, native: Backend) -> None:
    """check_unique with and without the known solution, unique and multiple, against
    native; the known-solution path is one solve."""
    rng = random.Random(5)
    for puzzle, _ in rng.sample(collection("top95"), 3):
        verdict = mip.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE
        assert verdict.solution == native.check_unique(puzzle).solution
        again = mip.check_unique(puzzle, solution=verdict.solution)
        assert again.kind is VerdictKind.UNIQUE and again.stats["solves"] <= 1
        fewer = puzzle.with_givens(puzzle.givens.without(puzzle.givens.filled_cells()[:6]))
        multiple = mip.check_unique(fewer, solution=verdict.solution)
        assert multiple.kind is VerdictKind.MULTIPLE
        assert multiple.witnesses[1] != verdict.solution
        assert fewer.is_solution(multiple.witnesses[1])


def test_agrees_with_native_on_samples(mip: Backend, native: Backend) -> None:
    """20 puzzles of top95, 5 killer puzzles of tests/data (empty grids, cages only) and
    random 4x4/6x6 puzzles: the same verdicts and solutions as native."""
    rng = random.Random(20)
    puzzles = [p for p, _ in rng.sample(collection("top95"), 20)]
    killers = rng.sample(killer_puzzles(), 5)
    puzzles += [puzzle for puzzle, _ in killers]
    for shape in (S4, S6):
        for _ in range(6):
            solution = random_full_grid(shape, rng)
            puzzles.append(Puzzle(solution.without(rng.sample(range(shape.cell_count), 12))))
    for puzzle in puzzles:
        ours = mip.check_unique(puzzle)
        theirs = native.check_unique(puzzle)
        assert ours.kind is theirs.kind, puzzle
        if ours.kind is VerdictKind.UNIQUE:
            assert ours.solution == theirs.solution
    for puzzle, solution in killers:
        assert mip.check_unique(puzzle).solution == solution


def test_sandwich_is_refused_before_solving(mip: Backend) -> None:
    rng = random.Random(3)
    solution = random_full_grid(S9, rng)
    rules = RuleSet.classic(S9).with_rules(MAKERS["sandwich"](S9, solution.values, rng))
    puzzle = Puzzle.empty(S9, rules)
    assert "sandwich" in (mip.supports(puzzle) or "")
    assert "sandwich" not in mip.capabilities.rule_kinds
    with pytest.raises(UnsupportedPuzzleError):
        mip.check_unique(puzzle)


def test_a_full_grid_is_unique_and_complete(mip: Backend) -> None:
    solution = random_full_grid(S9, random.Random(1))
    verdict = mip.check_unique(Puzzle(solution, RuleSet.classic(S9)))
    assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == solution
    count = mip.count(Puzzle(solution, RuleSet.classic(S9)), limit=5)
    assert (count.count, count.complete) == (1, True)


def test_node_budget_answers_unknown(mip: Backend) -> None:
    result = mip.count(Puzzle.empty(S9), limit=10**6, budget=Budget(nodes=0))
    assert not result.complete and result.verdict is VerdictKind.UNKNOWN
    result = mip.count(Puzzle.empty(S9), limit=10**6, budget=Budget(nodes=30))
    assert not result.complete and result.budget_exhausted
    assert 0 < result.count <= 30 and result.stats["nodes"] <= 30


def test_seconds_budget_stops_a_count(mip: Backend) -> None:
    start = time.perf_counter()
    result = mip.count(Puzzle.empty(S9), limit=10**6, budget=Budget(seconds=0.3))
    assert time.perf_counter() - start < 3
    assert not result.complete and result.budget_exhausted and result.count > 0


def test_interrupt_stops_a_search_in_flight() -> None:
    backend = get_backend("mip:highs")
    timer = threading.Timer(0.3, backend.interrupt)
    timer.start()
    try:
        with pytest.raises(SearchInterrupted):
            backend.count(Puzzle.empty(Shape(4, 4)), limit=10**6)
    finally:
        timer.cancel()
    with pytest.raises(SearchInterrupted):  # until cleared
        backend.solve(Puzzle.empty(S4))
    backend.clear_interrupt()
    assert backend.solve(Puzzle.empty(S4)).solution is not None


def test_no_banner_on_standard_output(capfd: pytest.CaptureFixture[str]) -> None:
    """HiGHS prints a header when its log callback is set with output on: never ours."""
    get_backend("mip:highs").solve(Puzzle.empty(S9))
    assert capfd.readouterr().out == ""


def test_missing_highspy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sudoku_model.backends.mip as mip_module

    monkeypatch.setitem(sys.modules, "highspy", None)  # import highspy -> ImportError
    with pytest.raises(BackendUnavailableError, match=r"sudoku-model\[mip\]"):
        mip_module.create()
