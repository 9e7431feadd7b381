"""The C core refuses what would corrupt it and says what happened: a second
``Model.__init__``, malformed pairs and forbidden pairs, running out of memory (MemoryError,
never a budget answer), the stop flag (``interrupt``), counters read while a run is going."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from sudoku_model import native_backtrack as nb
from sudoku_model.geometry import Shape
from sudoku_model.native_backtrack import _testing
from sudoku_model.rules import RuleSet

RULES4 = RuleSet.classic(Shape(2, 2))
RULES6 = RuleSet.classic(Shape(2, 3))
RULES9 = RuleSet.classic(Shape(3, 3))
RULES16 = RuleSet.classic(Shape(4, 4))


def model_of(rules: RuleSet) -> nb.Model:
    return nb.Model(rules.shape.size, rules.units, rules.pairs)


@pytest.fixture(autouse=True)
def _disarmed() -> Iterator[None]:
    # The stop flag and the allocation fault are process-wide: never leak them.
    yield
    _testing.fail_allocation_after(-1)
    nb.clear_interrupt()


# -- Model.__init__ once ---------------------------------------------------------------------
def test_a_model_cannot_be_initialised_twice() -> None:
    m = model_of(RULES4)
    search = m.search(bytes(16))
    with pytest.raises(RuntimeError, match="immutable"):
        m.__init__(4, RULES4.units, [])  # type: ignore[misc]
    with pytest.raises(RuntimeError, match="immutable"):
        m.__init__(9, RULES9.units, [])  # type: ignore[misc]
    # the refused call changed nothing: the model and its live search still work
    assert m.n == 4
    assert m.solve(bytes(16), limit=1000, keep=0)[:2] == (288, nb.EXHAUSTED)
    status, sols = search.run(1000)
    assert (status, len(sols)) == (nb.EXHAUSTED, 288)


def test_reinitialising_during_a_batch_without_the_gil_is_refused() -> None:
    m = model_of(RULES16)
    data = bytes(256) * 4
    result: list[object] = []
    worker = threading.Thread(
        target=lambda: result.append(m.batch(data, limit=10**9, keep=0, seconds=0.3))
    )
    worker.start()
    time.sleep(0.05)
    with pytest.raises(RuntimeError, match="immutable"):
        m.__init__(4, RULES4.units, [])  # type: ignore[misc]
    worker.join()
    counts, statuses, _, _, _ = result[0]  # type: ignore[misc]
    assert list(statuses) == [nb.BUDGET] * 4 and all(c > 0 for c in counts)


def test_a_failed_first_init_may_be_retried() -> None:
    m = nb.Model.__new__(nb.Model)
    with pytest.raises(ValueError):
        m.__init__(4, [[0, 99]], [])  # type: ignore[misc]
    with pytest.raises(RuntimeError, match="not initialised"):
        m.solve(bytes(16))
    m.__init__(4, RULES4.units, [])  # type: ignore[misc]
    assert m.solve(bytes(16), limit=1000, keep=0)[0] == 288


# -- malformed pairs and forbidden pairs -----------------------------------------------------
@pytest.mark.parametrize(
    "pairs, message",
    [
        ([0, 5, 7], "even length"),
        ([0, 16], "outside the grid"),
        ([-1, 3], "outside the grid"),
        ([0, 2**70], "outside the grid"),
        ([(0, 5), (1, 16)], "outside the grid"),
        ([(0, 5), (1, 2, 3)], r"pairs\[1\] is not a pair"),
        ([(0, 5), (1,)], r"pairs\[1\] is not a pair"),
        ([(0, 5), "ab"], r"pairs\[1\] is not a pair"),
    ],
)
def test_malformed_pairs_are_refused(pairs: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        nb.Model(4, RULES4.units, pairs)


def test_pairs_flat_or_as_tuples_mean_the_same() -> None:
    flat = nb.Model(4, RULES4.units, [0, 10, 3, 12])
    tuples = nb.Model(4, RULES4.units, [(0, 10), (3, 12)])
    assert flat.solve(bytes(16), limit=1000, keep=0) == tuples.solve(bytes(16), limit=1000, keep=0)
    assert flat.solve(bytes(16), limit=1000, keep=0)[0] < 288


def test_a_unit_cell_outside_the_grid_is_named() -> None:
    with pytest.raises(ValueError, match="cell 16 is outside the grid"):
        nb.Model(4, [[0, 1, 2, 16]], [])


@pytest.mark.parametrize("pair", [(16, 1), (-1, 1), (0, 0), (0, 5), (0, -3)])
def test_forbidden_pairs_outside_the_grid_are_refused(pair: tuple[int, int]) -> None:
    m = model_of(RULES4)
    with pytest.raises(ValueError, match=r"forbidden\[1\]"):
        m.solve(bytes(16), forbidden=[(0, 1), pair])
    with pytest.raises(ValueError, match=r"forbidden\[1\]"):
        m.search(bytes(16), forbidden=[(0, 1), pair])


def test_forbidden_pairs_in_range_still_work() -> None:
    m = model_of(RULES4)
    count = m.solve(bytes(16), limit=1000, keep=0, forbidden=[(0, 1)])[0]
    assert count == 288 * 3 // 4


# -- out of memory ---------------------------------------------------------------------------
# The test build (native_backtrack._testing: the same sources with the fault hook) makes an
# allocation fail; its models are its own.
def hooked_model_of(rules: RuleSet) -> _testing.Model:
    return _testing.Model(rules.shape.size, rules.units, rules.pairs)


def test_running_out_of_memory_mid_search_raises_memory_error() -> None:
    m = hooked_model_of(RULES16)
    search = m.search(bytes(256))  # everything the search needs up front is allocated
    # The empty 16x16 grid goes deeper than the first 16 saved frames: growing the stack
    # is the first allocation of the run.
    _testing.fail_allocation_after(0)
    with pytest.raises(MemoryError):
        search.run(1)
    # the search state survived: it goes on and finds a valid grid
    status, sols = search.run(1)
    assert status == nb.LIMIT and len(sols) == 1 and sorted(sols[0][:16]) == list(range(1, 17))


def test_no_allocation_failure_is_ever_reported_as_a_spent_budget() -> None:
    m = hooked_model_of(RULES16)
    outcomes = []
    for k in range(12):
        _testing.fail_allocation_after(k)
        try:
            count, status, _, _, _ = m.solve(bytes(256), limit=1, fast=False)
        except MemoryError:
            outcomes.append("MemoryError")
        else:
            outcomes.append(nb.STATUS_NAMES[status])
        _testing.fail_allocation_after(-1)
    assert "budget" not in outcomes
    assert outcomes[0] == "MemoryError" and outcomes[-1] == "limit"
    # one of them failed while searching (after the set-up allocations had succeeded)
    assert outcomes.count("MemoryError") >= 5


def test_out_of_memory_in_a_batch_and_in_a_model_build() -> None:
    m = hooked_model_of(RULES16)
    _testing.fail_allocation_after(0)
    with pytest.raises(MemoryError):
        m.batch(bytes(256) * 2, limit=2)
    _testing.fail_allocation_after(0)
    with pytest.raises(MemoryError):
        hooked_model_of(RULES16)  # the locked-candidate tables
    _testing.fail_allocation_after(-1)
    assert m.batch(bytes(256), limit=2)[1] == bytes([nb.LIMIT])


def test_the_hooks_are_in_the_test_build_only() -> None:
    from sudoku_model.native_backtrack import _core

    hooks = {"fail_allocation_after", "c9_isa"}
    api = {name for name in dir(_core) if not name.startswith("__")}
    # the one private name is the capsule of the C API the bulk reader calls (no hook)
    assert not hooks & api and [name for name in api if name.startswith("_")] == ["_C_API"]
    assert {name for name in dir(_testing) if not name.startswith("__")} == api | hooks
    assert _testing.Model is not _core.Model  # a copy of its own, state included


# -- the stop flag ---------------------------------------------------------------------------
def _in_thread(fn: object) -> tuple[threading.Thread, list]:
    out: list = []

    def run() -> None:
        start = time.perf_counter()
        out.append(fn())  # type: ignore[operator]
        out.append(time.perf_counter() - start)

    t = threading.Thread(target=run)
    t.start()
    return t, out


@pytest.mark.timing
@pytest.mark.parametrize("rules, fast", [(RULES9, True), (RULES9, False), (RULES16, False)])
def test_interrupt_stops_a_solve_in_another_thread(rules: RuleSet, fast: bool) -> None:
    m = model_of(rules)
    empty = bytes(rules.shape.cell_count)
    t, out = _in_thread(lambda: m.solve(empty, limit=10**12, keep=0, fast=fast, seconds=30))
    time.sleep(0.2)
    asked = time.perf_counter()
    nb.interrupt()
    t.join(5)
    stopped = time.perf_counter() - asked
    assert not t.is_alive()
    count, status, _, nodes, _ = out[0]
    assert status == nb.INTERRUPTED and count > 0 and nodes > 0
    assert stopped < 0.1, stopped
    assert nb.interrupted()
    # while the flag is up, a new search stops at once; after clearing it runs again
    assert m.solve(empty, limit=10**6, keep=0, fast=fast)[1] == nb.INTERRUPTED
    nb.clear_interrupt()
    assert not nb.interrupted()
    assert m.solve(empty, limit=5, keep=0, fast=fast)[:2] == (5, nb.LIMIT)


@pytest.mark.timing
def test_interrupt_stops_a_batch_and_marks_the_rest() -> None:
    m = model_of(RULES16)
    data = bytes(256) * 20  # each puzzle would take its whole 10 s budget
    t, out = _in_thread(lambda: m.batch(data, limit=10**12, keep=0, seconds=10))
    time.sleep(0.2)
    asked = time.perf_counter()
    nb.interrupt()
    t.join(5)
    assert time.perf_counter() - asked < 0.1
    counts, statuses, _, _, _ = out[0]
    assert list(statuses) == [nb.INTERRUPTED] * 20
    assert counts[0] > 0 and counts[1:] == [0] * 19


def test_an_interrupted_search_resumes_where_it_stopped() -> None:
    m = model_of(RULES6)
    search = m.search(bytes(36))
    total = 0
    nb.interrupt()
    status, sols = search.run(100)
    assert status == nb.INTERRUPTED and sols == []
    nb.clear_interrupt()
    while True:
        status, sols = search.run(100_000)
        total += len(sols)
        if status == nb.EXHAUSTED:
            break
        if total >= 300_000:
            nb.interrupt()  # mid-way: the next run stops, the one after goes on
            assert search.run(100_000)[0] == nb.INTERRUPTED
            nb.clear_interrupt()
            break
    status, sols = search.run(1000)
    assert status == nb.LIMIT and len(sols) == 1000 and len(set(sols)) == 1000


# -- counters while a run is going -----------------------------------------------------------
def test_counters_of_a_running_search_are_the_last_published_ones() -> None:
    m = model_of(RULES6)
    search = m.search(bytes(36))
    search.run(10)
    before = (search.nodes, search.guesses)
    assert before[0] > 0
    t, out = _in_thread(lambda: search.run(400_000, seconds=2))
    seen = set()
    while t.is_alive():
        seen.add((search.nodes, search.guesses))
    t.join()
    assert seen <= {before, (search.nodes, search.guesses)}
    assert search.nodes > before[0]
    with pytest.raises(RuntimeError, match="already running"):
        t2, _ = _in_thread(lambda: search.run(400_000, seconds=2))
        time.sleep(0.01)
        search.run(1)
    t2.join()
