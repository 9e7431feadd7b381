"""sudoku_model.verify: verdicts with evidence, minimality, cross-checks, parallel runs,
resume state. Facts used: every 17-clue puzzle is unique and minimal; deleting a clue from
one makes it non-unique; counts-43 carries each puzzle's solution count."""

from __future__ import annotations

import json
import random

import pytest

from sudoku_model import VerdictKind, formats
from sudoku_model.backends.sat import PySATBackend
from sudoku_model.data import bundled_path
from sudoku_model.solving import Verdict
from sudoku_model.verify import (
    TIMING_FIELDS,
    CsvWriter,
    JsonlWriter,
    VerifyResult,
    VerifySummary,
    redundant_clues,
    resume_state,
    verify_puzzle,
    verify_records,
)
from sudoku_model.verify.answering import _check_published

K = VerdictKind


def records(name: str) -> list[formats.Record]:
    return list(formats.iter_records(bundled_path(name), source=f"bundled:{name}"))


@pytest.fixture(scope="module")
def seventeen() -> list[formats.Record]:
    return records("17-clue")


def without_timing(d: dict) -> dict:
    d = {k: v for k, v in d.items() if k not in TIMING_FIELDS}
    if "cross_check" in d:
        d["cross_check"] = [
            {k: v for k, v in a.items() if k != "seconds"} for a in d["cross_check"]
        ]
    return d


# -- 17-clue facts ----------------------------------------------------------------------------
@pytest.mark.slow
def test_whole_17_clue_list_is_unique_with_native(seventeen):
    results = list(verify_records(seventeen, backend="native"))
    assert len(results) == len(seventeen) == 49158
    assert [r.line for r in results] == [r.line for r in seventeen]  # input order
    assert all(r.verdict is K.UNIQUE for r in results)
    assert all(r.disagreement is None for r in results)  # solutions validated in C
    # independent check in Python on a sample of the solutions
    for r in random.Random(1).sample(results, 300):
        assert r.puzzle.is_solution(r.solution)


def test_17_clue_sample_is_minimal(seventeen):
    sample = random.Random(2).sample(seventeen, 12)
    for backend in ("native", "pysat"):
        results = list(verify_records(sample, backend=backend, minimal=True))
        assert all(r.verdict is K.UNIQUE for r in results)
        assert all(r.redundant == () and r.is_minimal for r in results), backend


def test_an_added_clue_is_redundant(seventeen):
    # a 17-clue puzzle plus one cell of its solution: that clue is redundant (removing it
    # gives back the unique original), whichever way the backend answers
    rng = random.Random(3)
    for rec in rng.sample(seventeen, 4):
        base = verify_puzzle(rec.puzzle)
        cell = rng.choice(rec.puzzle.givens.empty_cells())
        bigger = rec.puzzle.with_givens(
            rec.puzzle.givens.with_value(cell, base.solution.values[cell])
        )
        for backend in ("native", "pysat"):
            red, unknown = redundant_clues(bigger, base.solution, backend=backend)
            assert cell in red and not unknown
        r = verify_puzzle(bigger, minimal=True)
        assert r.is_minimal is False and cell in r.redundant
        assert r.to_json()["redundant_clues"][0].startswith("r")


def test_17_clue_minus_one_clue_is_multiple_with_valid_witnesses(seventeen):
    rng = random.Random(4)
    smaller = []
    for rec in rng.sample(seventeen, 60):
        cell = rng.choice(rec.puzzle.givens.filled_cells())
        smaller.append(
            rec._replace(puzzle=rec.puzzle.with_givens(rec.puzzle.givens.without([cell])))
        )
    for backend in ("native", "pysat"):
        for r in verify_records(smaller, backend=backend):
            assert r.verdict is K.MULTIPLE, backend
            a, b = r.witnesses
            assert a != b
            assert r.puzzle.is_solution(a) and r.puzzle.is_solution(b)
            assert r.differing_cells == a.differences(b) and len(r.differing_cells) >= 4
            d = r.to_json()
            assert d["witnesses"] == [a.to_line(), b.to_line()]
            assert d["differing_cells"] == [r.puzzle.shape.cell_name(c) for c in r.differing_cells]


# -- counts-43 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_counts_43_verdicts(backend):
    recs = records("counts-43")
    results = list(verify_records(recs, backend=backend))
    assert len(results) == 43
    for rec, r in zip(recs, results):
        count, _, solution = rec.comment.partition(":")
        expected = {0: K.UNSOLVABLE, 1: K.UNIQUE}.get(int(count), K.MULTIPLE)
        assert r.verdict is expected, (rec.line, count)
        if expected is K.UNIQUE:
            assert r.solution.to_line() == solution
        assert r.disagreement is None


def test_cross_check_agrees_on_counts_43():
    results = list(verify_records(records("counts-43"), backend="native", cross_check=["pysat"]))
    assert all(r.disagreement is None for r in results)
    assert all(len(r.cross_check) == 1 and r.cross_check[0].verdict is r.verdict for r in results)


def test_cross_check_unknown_is_undecided_not_a_disagreement():
    # issue 13 item 20: a zero conflict budget stops pysat (it counts conflicts) but not
    # native: "unknown" is no answer, so it is counted as undecided, never as disagreeing
    from sudoku_model import Budget

    hard = records("hardest")[:3]
    results = list(
        verify_records(hard, backend="pysat", cross_check=["native"], budget=Budget(conflicts=0))
    )
    r = results[0]
    assert r.verdict is K.UNKNOWN and r.cross_check[0].verdict is K.UNIQUE
    assert r.disagreement is None and r.undecided == (r.backend,)
    assert r.to_json()["undecided"] == [r.backend] and "disagreement" not in r.to_json()
    s = VerifySummary()
    for x in results:
        s.add_result(x)
    assert s.undecided == 3 and s.disagreements == 0
    assert "undecided" in s.table() and "DISAGREEMENTS" not in s.table()
    assert not s.all_unique  # the main backend did not decide: still not a "yes"


class _Liar(PySATBackend):
    """A deliberately wrong backend: calls every puzzle unsolvable."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "liar"

    def check_unique(self, puzzle, *, solution=None, budget=None):
        return Verdict(K.UNSOLVABLE, puzzle, self.name, 0.0)


def test_real_disagreement_stays_loud_next_to_undecided():
    from sudoku_model import Budget

    puzzle = records("hardest")[0].puzzle
    wrong = verify_puzzle(puzzle, backend=_Liar(), cross_check=["native"])
    assert wrong.verdict is K.UNSOLVABLE and wrong.undecided == ()
    assert "liar says unsolvable, native says unique" in wrong.disagreement
    # a budget that leaves the cross-checker undecided hides nothing either
    both = verify_puzzle(puzzle, backend=_Liar(), cross_check=["pysat"], budget=Budget(conflicts=0))
    assert both.undecided == ("pysat:cadical195",) and both.disagreement is None
    s = VerifySummary()
    s.add_result(wrong)
    assert s.disagreements == 1 and "DISAGREEMENTS" in s.table()


# -- published solutions (issue 13 item 5) ----------------------------------------------------
def _c43() -> list[tuple[str, int, str]]:
    rows = [ln.split(":") for ln in bundled_path("counts-43").read_text().splitlines()]
    return [(p, int(c), rest[0]) for p, c, *rest in rows if rest and rest[0]]


def _with_published(pairs: list[tuple[str, str]]) -> list[formats.Record]:
    lines = ["puzzle,solution"] + [f"{p},{s}" for p, s in pairs]
    return list(formats.iter_records(lines, source="pub.csv", fmt="csv"))


def _wrong_copy(solution: str) -> str:
    # swap two different digits of the first row: still a full grid, no longer the answer
    j = next(j for j in range(1, 9) if solution[j] != solution[0])
    row = list(solution)
    row[0], row[j] = row[j], row[0]
    return "".join(row)


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_published_solution_matches_or_mismatches_loudly(backend):
    unique = [(p, sol) for p, c, sol in _c43() if c == 1][:3]
    good, other = unique[0], unique[1]
    wrong = _wrong_copy(good[1])
    recs = _with_published([good, (good[0], wrong), (other[0], good[1])])
    r_ok, r_bad, r_foreign = verify_records(recs, backend=backend)
    assert r_ok.verdict is K.UNIQUE and r_ok.published == "matches" and not r_ok.published_cells
    assert r_bad.verdict is K.UNIQUE and r_bad.published == "mismatch"
    shape = r_bad.puzzle.shape
    assert [shape.cell_name(c) for c in r_bad.published_cells] == [
        shape.cell_name(i) for i in range(81) if wrong[i] != good[1][i]
    ]
    d = r_bad.to_json()
    assert d["published_solution"] == "mismatch" and len(d["published_cells"]) == 2
    assert json.loads(r_bad.to_json_line()) == d and json.loads(r_ok.to_json_line()) == (
        r_ok.to_json()
    )
    assert r_foreign.published == "mismatch" and len(r_foreign.published_cells) > 2
    assert r_ok.disagreement is None and r_bad.disagreement is None
    s = VerifySummary()
    for r in (r_ok, r_bad, r_foreign):
        s.add_result(r)
    assert s.published_matches == 1 and s.published_mismatches == 2
    assert not s.all_unique  # every puzzle is unique, but a published grid is wrong
    assert "PUBLISHED" in s.table() and "MISMATCHES" in s.table()


def test_published_solution_of_a_multiple_puzzle(seventeen):
    # a 17-clue puzzle minus a clue has several solutions, the original's among them
    rec = seventeen[5]
    solution = verify_puzzle(rec.puzzle).solution.to_line()
    cell = rec.puzzle.givens.filled_cells()[0]
    multi = (rec.puzzle.givens.without([cell]).to_line(), solution)
    recs = _with_published([multi, (multi[0], _wrong_copy(multi[1]))])
    one, bad = verify_records(recs)
    assert one.verdict is K.MULTIPLE and one.published == "one_of_several"
    assert bad.verdict is K.MULTIPLE and bad.published == "mismatch" and bad.published_cells
    # a puzzle called unsolvable while the input carries a valid solution: one is wrong
    called = VerifyResult("pub.csv", 2, recs[0].puzzle, K.UNSOLVABLE, "liar", "0", 0.0)
    assert "published solution solves the puzzle" in _check_published(called, recs[0])
    assert called.published == "valid"


def test_no_published_solution_no_field(seventeen):
    r = next(iter(verify_records(seventeen[:1])))
    assert r.published is None and "published_solution" not in r.to_json()


# -- mixed input -------------------------------------------------------------------------------
def mixed_lines() -> tuple[list[str], list[VerdictKind]]:
    c43 = [ln.split(":") for ln in bundled_path("counts-43").read_text().splitlines()]
    unique = next(p for p, c, *_ in c43 if c == "1")
    unsolvable = next(p for p, c, *_ in c43 if c == "0")
    multiple = next(p for p, c, *_ in c43 if int(c) > 1)
    clash = "11" + unique[2:] if unique[0] == "." else unique[0] * 2 + unique[2:]
    lines = [
        unique,
        "this is not a puzzle",
        clash,
        unsolvable,
        unique[:-1],
        multiple,
        unique[:40] + "x" + unique[41:],
    ]
    kinds = [
        K.UNIQUE,
        K.MALFORMED,
        K.CONTRADICTORY,
        K.UNSOLVABLE,
        K.MALFORMED,
        K.MULTIPLE,
        K.MALFORMED,
    ]
    return lines, kinds


@pytest.mark.parametrize("backend", ["native", "pysat"])
def test_mixed_file_one_right_record_each(backend):
    lines, kinds = mixed_lines()
    recs = list(formats.iter_records(lines, source="mixed"))
    results = list(verify_records(recs, backend=backend, chunk_size=3))
    assert [r.verdict for r in results] == kinds
    assert [r.line for r in results] == list(range(1, len(lines) + 1))
    bad = results[6].to_json()
    assert bad["error"] == {"message": "bad symbol 'x'", "line": 7, "column": 41}
    assert bad["text"] == lines[6]
    assert results[2].conflicts and "repeated" in results[2].conflicts[0]


def test_json_line_equals_to_json(seventeen):
    lines, _ = mixed_lines()
    recs = list(formats.iter_records(lines, source="mixed")) + seventeen[:50]
    for r in verify_records(recs, minimal=True):
        assert json.loads(r.to_json_line()) == r.to_json()


# -- parallel and distributed ---------------------------------------------------------------
def test_jobs_2_same_records_as_serial(seventeen):
    lines, _ = mixed_lines()
    recs = list(formats.iter_records(lines, source="mixed")) + seventeen[:700]
    serial = [without_timing(r.to_json()) for r in verify_records(recs, chunk_size=64)]
    threads = [
        without_timing(r.to_json())  # native batch: threads
        for r in verify_records(recs, jobs=2, chunk_size=64, threads=True)
    ]
    processes = [
        without_timing(r.to_json())  # minimality: processes
        for r in verify_records(recs[:80], jobs=2, chunk_size=8, minimal=True)
    ]
    serial_min = [
        without_timing(r.to_json()) for r in verify_records(recs[:80], chunk_size=8, minimal=True)
    ]
    assert threads == serial
    assert processes == serial_min


@pytest.mark.slow
def test_dask_local_same_records_as_serial(seventeen):
    pytest.importorskip("dask.distributed")
    lines, _ = mixed_lines()
    recs = list(formats.iter_records(lines, source="mixed")) + seventeen[:300]
    serial = [without_timing(r.to_json()) for r in verify_records(recs, chunk_size=50)]
    distributed = [
        without_timing(r.to_json()) for r in verify_records(recs, dask="local", chunk_size=50)
    ]
    assert distributed == serial


# -- writing and resuming ----------------------------------------------------------------------
def test_resume_state_drops_torn_line_and_knows_what_is_done(tmp_path):
    recs = records("top95")[:10] + list(
        formats.iter_records(records("top95")[10].text.splitlines(), source="other")
    )
    out = tmp_path / "out.jsonl"
    with open(out, "w") as f:
        w = JsonlWriter(f)
        w.write_many(verify_records(recs))
        f.write('{"source":"other","line":2,"puz')  # a torn write
    state = resume_state(out, "jsonl")
    assert out.read_text().endswith("}\n") and state.records == 11
    assert state.done(0, 9) and state.done(1, 0)  # (input, position)
    assert not state.done(1, 1) and not state.done(2, 0)
    assert state.summary.counts[K.UNIQUE] == 11


def test_resume_state_csv(tmp_path):
    out = tmp_path / "out.csv"
    with open(out, "w", newline="") as f:
        w = CsvWriter(f)
        w.write_many(verify_records(records("counts-43")[:5]))
        f.write("bundled:counts-43,6,..")
    state = resume_state(out, "csv")
    assert state.records == 5 and state.has_header and state.last == (0, 4)
    with pytest.raises(ValueError):
        resume_state(out, "jsonl")


def test_summary_table():
    s = VerifySummary()
    for k in (K.UNIQUE, K.UNIQUE, K.MULTIPLE, K.MALFORMED):
        s.add(k)
    s.seconds = 2.0
    table = s.table()
    assert "unique" in table and "multiple" in table and "malformed" in table
    assert "unsolvable" not in table and "4 verified" in table and "2 puzzles/s" in table
    assert not s.all_unique
