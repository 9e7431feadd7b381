"""compare(): every installed backend on counts-43 gives the file's counts and verdicts and
agrees; a wrong backend is caught and listed; failures to load are reported."""

from __future__ import annotations

import random
import statistics
import sys

import pytest

from sudoku_model.compare import Comparison, compare, load_puzzles, percentile
from sudoku_model.puzzle import Puzzle
from sudoku_model.solving import Backend, Budget, SearchOutcome, available_backends, get_backend

#: Every installed backend but mip, which needs 1-5 s for each hard puzzle of counts-43
#: (the contract suite and the CLI test that compares every installed backend have it).
CANDIDATES = [*(n for n in available_backends() if n != "mip"), "pysat:glucose4"]


def _loadable() -> list[str]:
    names = []
    for name in CANDIDATES:
        try:
            get_backend(name)
        except Exception:  # not installed here: the CLI test checks it is reported
            continue
        names.append(name)
    return names


BACKENDS = _loadable()
#: The backend used where one is enough: the fastest when it is installed.
ONE = "native" if "native" in BACKENDS else (BACKENDS or ["native"])[0]
pytestmark = pytest.mark.skipif(not BACKENDS, reason="no backend installed")


class _Entry:
    def __init__(self, entry, count: int) -> None:  # type: ignore[no-untyped-def]
        self.entry = entry
        self.comment_count = count


def _counts_entries() -> list[_Entry]:
    """counts-43 with the number of solutions its lines carry (``puzzle:count[:sol]``)."""
    from sudoku_model.data import bundled_path
    from sudoku_model.formats import iter_records

    entries = load_puzzles("bundled:counts-43")
    records = list(iter_records(bundled_path("counts-43")))
    assert len(entries) == len(records) == 43
    return [_Entry(entry, int(rec.comment.split(":")[0])) for entry, rec in zip(entries, records)]


@pytest.fixture(scope="module")
def counts43() -> list[_Entry]:
    return _counts_entries()


def test_unique_task_matches_the_file_and_all_agree(counts43) -> None:
    result = compare(
        [e.entry for e in counts43], backends=BACKENDS, task="unique", budget=Budget(seconds=30)
    )
    assert result.failures == {}
    assert result.backends == [get_backend(n).name for n in BACKENDS]
    for e in counts43:
        expected = {0: "unsolvable", 1: "unique"}.get(e.comment_count, "multiple")
        for backend in result.backends:
            assert result.answer(e.entry.index, backend) == expected
    assert result.agreed and result.disagreements == []
    for s in result.summary():
        assert s.puzzles == 43 and s.unknown == 0 and s.errors == 0
        assert s.solved == sum(1 for e in counts43 if e.comment_count > 0)
        assert s.median_seconds <= s.p90_seconds <= s.max_seconds
        assert s.answers == {"multiple": 15, "unique": 18, "unsolvable": 10}


def test_count_task_reports_exact_counts_and_lower_bounds(counts43) -> None:
    limit = 20
    entries = counts43[:30]
    result = compare(
        [e.entry for e in entries],
        backends=BACKENDS,
        task="count",
        limit=limit,
        budget=Budget(seconds=30),
    )
    for e in entries:
        expected = str(e.comment_count) if e.comment_count < limit else f">={limit}"
        for backend in result.backends:
            assert result.answer(e.entry.index, backend) == expected
    assert result.agreed


def test_solve_task_and_repeats(counts43) -> None:
    entries = [e.entry for e in counts43[:6]] + [e.entry for e in counts43 if e.comment_count == 0][
        :2
    ]
    pair = [ONE] + [b for b in BACKENDS if b != ONE][:1]
    result = compare(entries, backends=pair, task="solve", repeat=3)
    assert len(result.runs) == len(entries) * len(result.backends) * 3
    for entry in result.puzzles:
        for backend in result.backends:
            times = [
                r.seconds
                for r in result.runs
                if r.puzzle_index == entry.index and r.backend == backend
            ]
            assert result.seconds(entry.index, backend) == statistics.median(times)
    summary = result.summary()[0]
    assert summary.answers == {"solved": 6, "unsolvable": 2}
    assert summary.solved == 6
    rows = result.rows()
    assert len(rows) == len(entries) * len(result.backends)
    assert {r["answer"] for r in rows} == {"solved", "unsolvable"}


class _ClaimsUniqueAfterOneSolution(Backend):
    """Deliberately wrong: stops at the first solution and says the search was complete.

    Wraps a real backend, so its solutions are genuine; only its uniqueness claims lie.
    """

    name = "wrong-on-purpose"

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.capabilities = inner.capabilities  # type: ignore[misc]

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        outcome = self.inner._search(puzzle, limit=1, budget=budget)
        return SearchOutcome(outcome.solutions, True, outcome.stats)


def test_a_disagreement_is_listed_never_averaged_away(counts43) -> None:
    real = get_backend(ONE)
    wrong = _ClaimsUniqueAfterOneSolution(get_backend(ONE))
    result = compare([e.entry for e in counts43], backends=[real, wrong], task="unique")
    multiple = {e.entry.index for e in counts43 if e.comment_count > 1}
    assert not result.agreed
    assert {d.puzzle_index for d in result.disagreements} == multiple
    for d in result.disagreements:
        assert d.answers == {real.name: "multiple", "wrong-on-purpose": "unique"}
        assert d.source == "bundled:counts-43" and d.line == d.puzzle_index + 1
    assert all(r["agreed"] == (r["puzzle_index"] not in multiple) for r in result.rows())


def test_a_backend_that_fails_to_load_is_reported() -> None:
    puzzles = [e.puzzle for e in load_puzzles("bundled:top95", first=3)]
    result = compare(puzzles, backends=["no-such-backend", ONE])
    assert list(result.failures) == ["no-such-backend"]
    assert "no backend named" in result.failures["no-such-backend"]
    assert "no-such-backend: FAILED TO LOAD" in result.table()
    assert any(r.get("failed_to_load") for r in result.summary_rows())


def test_percentile_is_numpy_linear_interpolation() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(8)
    for size in (1, 2, 7, 100):
        values = sorted(rng.random() for _ in range(size))
        for q in (0, 10, 50, 90, 100):
            assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)))
    with pytest.raises(ValueError):
        percentile([], 50)


def test_data_frames(counts43) -> None:
    pytest.importorskip("pandas")
    result = compare([e.entry for e in counts43[:5]], backends=BACKENDS, task="unique")
    rows = result.to_dataframe()
    assert len(rows) == 5 * len(result.backends)
    assert set(rows["backend"]) == set(result.backends)
    summary = result.to_dataframe("summary")
    assert list(summary.index) == result.backends
    assert (summary["median_seconds"] > 0).all()
    runs = result.to_dataframe("runs")
    assert len(runs) == len(result.runs)
    with pytest.raises(ValueError):
        result.to_dataframe("nonsense")


def test_missing_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    result = Comparison("solve", 1, 1, Budget(), [], {}, {}, [], [], {})
    monkeypatch.setitem(sys.modules, "pandas", None)  # makes `import pandas` fail
    with pytest.raises(ImportError, match="notebooks"):
        result.to_dataframe()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        compare([], backends=BACKENDS)
    with pytest.raises(ValueError):
        compare(["." * 81], backends=BACKENDS, task="fly")
    with pytest.raises(ValueError):
        compare(["." * 81], backends=BACKENDS, repeat=0)
