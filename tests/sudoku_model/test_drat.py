"""The native DRAT checker (sudoku_model/drat.c) on small formulas whose answers are
known by hand, every rule of the README's checker list: RUP, RAT on the first literal,
deletions honoured (units ignored), the empty clause required, strict parsing, the budget,
the undo between checks, failed allocations, and its independence from the solver."""

from __future__ import annotations

import re
import threading
import tomllib
from pathlib import Path

import pytest

from sudoku_model import Puzzle, _drat, _drat_testing, certcnf, drat
from sudoku_model.drat import (
    DRAT_INVALID,
    DRAT_MALFORMED,
    DRAT_UNKNOWN,
    DRAT_VALID,
    DratChecker,
)
from sudoku_model.solving import get_backend

ROOT = Path(__file__).resolve().parents[2]
#: All four clauses over variables 1 and 2: unsatisfiable, but unit propagation alone
#: finds no conflict.
XOR = [(1, 2), (1, -2), (-1, 2), (-1, -2)]
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def check(clauses: list[tuple[int, ...]], proof: str, num_vars: int = 2, **kw: float) -> object:
    return DratChecker(num_vars, clauses).check([], proof.encode(), **kw)


def test_rup_refutation() -> None:
    result = check(XOR, "1 0\n0\n")
    assert result.valid and result.lemmas == 2 and result.rat_lemmas == 0


def test_a_lemma_that_is_not_rup_nor_rat() -> None:
    result = DratChecker(2, XOR[:3]).check([], b"-1 0\n0\n")  # satisfiable: 1 and 2
    assert result.status == DRAT_INVALID and result.step == 1 and result.clause == (-1,)
    assert result.reason.startswith("clause is neither RUP nor RAT")


def test_the_empty_clause_is_required() -> None:
    result = check(XOR, "1 0\n")
    assert result.status == DRAT_INVALID and result.step == -1
    assert result.reason == "every step verified, but the proof never derives the empty clause"


def test_a_formula_refuted_by_unit_propagation_needs_no_proof() -> None:
    assert check([(1,), (-1, 2), (-2,)], "").valid


def test_rat_on_the_first_literal() -> None:
    # 3 is a fresh variable: no clause holds -3, so "3" is RAT (vacuously), not RUP
    result = check(XOR, "3 0\n1 0\n0\n")
    assert result.valid and result.rat_lemmas == 1
    # (3 -1) is RAT on 3, not on -1: the pivot is the first literal as written
    result = check([(1, 2)], "3 -1 0\n", num_vars=3)
    assert result.status == DRAT_INVALID and result.step == -1 and result.rat_lemmas == 1
    result = check([(1, 2)], "-1 3 0\n", num_vars=3)
    assert result.status == DRAT_INVALID and result.step == 1 and result.clause == (-1, 3)
    result = check(XOR, "3 0\n-3 0\n")
    assert result.status == DRAT_INVALID and result.step == 2  # resolvent with (3): empty


def test_deletions_are_honoured() -> None:
    # without (1 2), "1" is no longer RUP
    assert check(XOR, "1 0\n0\n").valid
    result = check(XOR, "d 2 1 0\n1 0\n0\n")  # a clause is a set: literal order is free
    assert result.status == DRAT_INVALID and result.step == 2 and result.deletions == 1
    # a RAT step sees only the clauses present: with (3 4) deleted, "-3" is RAT
    assert check(XOR, "3 4 0\n-3 0\n", num_vars=4).status == DRAT_INVALID
    result = check(XOR, "3 4 0\nd 3 4 0\n-3 0\n1 0\n0\n", num_vars=4)
    assert result.valid and result.rat_lemmas == 2


def test_unit_deletions_and_absent_clauses_are_ignored() -> None:
    formula = [(1,), (-1, 2, 3), (-1, 2, -3), (-1, -2, 3), (-1, -2, -3)]
    result = check(formula, "d 1 0\nd 1 2 0\n2 0\n0\n", num_vars=3)
    assert result.valid and result.ignored_deletions == 2 and result.deletions == 0


def test_a_root_assignment_stays_when_its_reason_is_deleted() -> None:
    # 2 follows from 1 and (-1 2) at the root; deleting (-1 2) leaves 2 assigned, as in
    # drat-trim and dratify, so "3" (RUP only with 2 true) still follows
    formula = [(1,), (-1, 2), (-2, 3, 4), (-2, 3, -4), (-2, -3, 4), (-2, -3, -4)]
    result = check(formula, "d -1 2 0\n3 0\n0\n", num_vars=4)
    assert result.valid and result.deletions == 1
    import dratify

    cnf = dratify.CNF(4)
    for c in formula:
        cnf.add(dratify.from_dimacs(x) for x in c)
    assert dratify.check_proof(cnf, "d -1 2 0\n3 0\n0\n", engine="python").ok


def test_repeated_literals_are_one() -> None:
    # "1 1" is the unit clause 1: it propagates at the root like one
    assert check(XOR, "1 1 0\n0\n").valid
    assert check(XOR, "1 1 0\n0\n").clause == ()


@pytest.mark.parametrize(
    ("proof", "reason"),
    [
        ("1 x 0\n", "proof line 1: bad token 'x'"),
        ("1 0\n2 d 0\n", "proof line 2: 'd' inside a clause (a deletion can only start one)"),
        ("1 0\n1 2\n", "proof line 2: clause not terminated by 0 before the end of the proof"),
        ("-0\n", "proof line 1: bad token '-0'"),
        ("+1 0\n", "proof line 1: bad token '+1'"),
        ("d1 0\n", "proof line 1: bad token 'd1'"),
        ("1 0\n\xe9 0\n", "proof line 2: bad token '\\xc3\\xa9'"),
        ("99999999999999999999 0\n", "proof line 1: literal '99999999999999999999' names"),
    ],
)
def test_malformed_proofs_name_the_line(proof: str, reason: str) -> None:
    result = check(XOR, proof)
    assert result.status == DRAT_MALFORMED and result.reason.startswith(reason)


def test_comments_blanks_and_line_breaks_are_whitespace() -> None:
    assert check(XOR, "c a comment\n\n  1\r\n 0 0 c\n").status == DRAT_MALFORMED
    assert check(XOR, "c a comment\n\n  1\r\n 0 0\n").valid


def test_variables_beyond_the_formula_grow_the_checker() -> None:
    checker = DratChecker(2, XOR)
    assert checker.check([], b"9 0\n1 0\n0\n").valid  # a fresh variable, RAT
    assert checker.check([], b"1 0\n0\n").valid
    big = checker.check([], b"100000 0\n")
    assert big.status == DRAT_MALFORMED and "names a variable beyond" in big.reason


def _sudoku() -> tuple[DratChecker, list[tuple[int, ...]], bytes]:
    puzzle = Puzzle.parse(HARD)
    cert = get_backend("pysat").certificate(puzzle.rules, puzzle.givens)
    assert cert.proof is not None
    checker = DratChecker(729, certcnf.rule_clauses(puzzle.rules))
    return checker, [tuple(c) for c in cert.puzzle_clauses], cert.proof.encode()


def test_the_budget_answers_unknown() -> None:
    checker, clauses, proof = _sudoku()
    done = checker.check(clauses, proof)
    assert done.valid and done.work > 100
    short = checker.check(clauses, proof, work=done.work // 2)
    assert short.status == DRAT_UNKNOWN and short.reason.startswith("budget spent after")
    assert checker.check(clauses, proof, seconds=0.0).status == DRAT_UNKNOWN
    assert checker.check(clauses, proof, work=done.work).valid


def test_each_check_is_undone() -> None:
    checker, clauses, proof = _sudoku()
    rules = checker.num_clauses
    lines = proof.decode().splitlines()
    # deleting rule clauses, adding lemmas, failing half-way, running out of budget,
    # a malformed proof: none of it stays for the next check
    spoilers = [
        b"d "
        + " ".join(map(str, certcnf.rule_clauses(Puzzle.parse(HARD).rules)[5])).encode()
        + b" 0\n"
        + proof,
        ("5 0\n" + "\n".join(lines)).encode(),
        proof[: len(proof) // 2],
        b"1 2 x 0\n",
    ]
    for spoiler in spoilers:
        checker.check(clauses, spoiler)
        checker.check(clauses, spoiler, work=50)
        assert checker.check(clauses, proof).valid
    assert checker.num_clauses == rules
    # the rules alone (no givens) are satisfiable: the proof fails at its first lemma
    # that needs the givens, exactly as on a fresh checker
    fresh = DratChecker(729, certcnf.rule_clauses(Puzzle.parse(HARD).rules))
    used, new = checker.check([], proof), fresh.check([], proof)
    assert used.status == DRAT_INVALID and used[:4] == new[:4]


def test_failed_allocations_raise_memory_error_and_leave_the_checker_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The checker's test build (the same drat.c with the fault hook) under the wrapper.
    monkeypatch.setattr(drat, "_drat", _drat_testing)
    checker, clauses, proof = _sudoku()
    failures = 0
    try:
        for k in range(60):
            _drat_testing.fail_allocation_after(k)
            try:
                result = checker.check(clauses, proof)
            except MemoryError:
                failures += 1
            else:
                assert result.valid
            _drat_testing.fail_allocation_after(-1)
            assert checker.check(clauses, proof).valid
        for k in range(0, 60, 3):
            _drat_testing.fail_allocation_after(k)
            with pytest.raises(MemoryError):
                DratChecker(729, certcnf.rule_clauses(Puzzle.parse(HARD).rules))
    finally:
        _drat_testing.fail_allocation_after(-1)
    assert 5 <= failures < 60


def test_the_hook_is_in_the_test_build_only() -> None:
    assert "fail_allocation_after" in dir(_drat_testing)
    assert [name for name in dir(_drat) if not name.startswith("__")] == [
        "Formula",
        "INVALID",
        "MALFORMED",
        "UNKNOWN",
        "VALID",
    ]
    assert _drat_testing.Formula is not _drat.Formula


def test_bad_clauses_are_refused() -> None:
    with pytest.raises(ValueError, match="literal 3 outside 1..2"):
        DratChecker(2, [(1, 3)])
    with pytest.raises(ValueError, match="literal 0 inside clause"):
        DratChecker(2, [(1, 0, 2)])
    with pytest.raises(ValueError, match="outside"):
        DratChecker(2, XOR).check([(-7,)], b"0\n")
    with pytest.raises(TypeError, match="int32"):
        _drat.Formula(2, b"\x01\x00\x00\x00\x00\x00\x00\x00")


def test_threads_each_with_a_checker_agree() -> None:
    checker, clauses, proof = _sudoku()
    # the work count depends on which literals happen to be watched: not compared
    expected = checker.check(clauses, proof)[:8]
    out: list[object] = []

    def work() -> None:
        own = DratChecker(729, certcnf.rule_clauses(Puzzle.parse(HARD).rules))
        out.extend(own.check(clauses, proof)[:8] for _ in range(5))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [expected] * 15


def test_the_checker_shares_no_code_with_the_solver() -> None:
    source = (ROOT / "sudoku_model" / "drat.c").read_text()
    includes = re.findall(r"#include\s*[<\"]([^>\"]+)[>\"]", source)
    assert includes and set(includes) <= {
        "Python.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
        "time.h",
    }
    with open(ROOT / "pyproject.toml", "rb") as f:
        modules = tomllib.load(f)["tool"]["setuptools"]["ext-modules"]
    assert [m["sources"] for m in modules if m["name"].startswith("sudoku_model._drat")] == [
        ["sudoku_model/drat.c"],
        ["sudoku_model/drat.c"],
    ]
    assert DRAT_VALID == 0 and {DRAT_INVALID, DRAT_MALFORMED, DRAT_UNKNOWN} == {1, 2, 3}
