"""The ``certificate`` primitive: every solver declared able to certify writes
DRAT proofs that an independent checker accepts; the others are refused with the reason."""

from __future__ import annotations

import pytest

from sudoku_model import Budget, Puzzle
from sudoku_model.backends.sat import NO_PROOF, PROOF_SOLVERS, SOLVERS
from sudoku_model.certcnf import normalize, rule_clauses
from sudoku_model.solving import CertificationUnsupported, VerdictKind, get_backend

dratify = pytest.importorskip("dratify")

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
UNSOLVABLE = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."


def check(cert: object) -> object:
    from dratify import CNF, check_proof, from_dimacs

    clauses = [*cert.rule_clauses, *cert.puzzle_clauses]  # type: ignore[attr-defined]
    formula = CNF(cert.num_vars)  # type: ignore[attr-defined]
    for c in clauses:
        formula.add(from_dimacs(lit) for lit in c)
    return check_proof(formula, cert.proof, engine="python")  # type: ignore[attr-defined]


@pytest.mark.parametrize("solver", sorted(PROOF_SOLVERS))
def test_every_certifying_solver_writes_checkable_proofs(solver: str) -> None:
    backend = get_backend(f"pysat:{solver}")
    budget = Budget() if solver == "lingeling" else None
    for text, kind in ((HARD, VerdictKind.UNIQUE), (UNSOLVABLE, VerdictKind.UNSOLVABLE)):
        puzzle = Puzzle.parse(text)
        cert = backend.certificate(puzzle.rules, puzzle.givens, budget=budget)
        assert cert.verdict is kind
        assert cert.proof is not None and cert.proof.endswith("\n0\n")
        result = check(cert)
        assert result.ok, (solver, result)  # type: ignore[attr-defined]


@pytest.mark.parametrize("solver", sorted(set(NO_PROOF) & set(SOLVERS)))
def test_solvers_without_trusted_proofs_are_refused(solver: str) -> None:
    backend = get_backend(f"pysat:{solver}")
    reason = backend.certificate_refusal()
    assert reason is not None and NO_PROOF[solver] in reason
    puzzle = Puzzle.parse(HARD)
    with pytest.raises(CertificationUnsupported, match="cannot certify"):
        backend.certificate(puzzle.rules, puzzle.givens)


def test_maplesat_is_refused_for_its_wrong_proofs() -> None:
    reason = get_backend("pysat:maplesat").certificate_refusal()
    assert reason is not None and "proofs are wrong" in reason


@pytest.mark.parametrize("name", ["native", "cpsat", "logic"])
def test_backends_without_proofs_cannot_certify(name: str) -> None:
    backend = get_backend(name)
    assert "cannot certify" in (backend.certificate_refusal() or "")
    puzzle = Puzzle.parse(HARD)
    with pytest.raises(CertificationUnsupported, match="no proof-logging solver"):
        backend.certificate(puzzle.rules, puzzle.givens)


def test_a_spent_budget_certifies_nothing() -> None:
    puzzle = Puzzle.parse(HARD)
    cert = get_backend("pysat").certificate(puzzle.rules, puzzle.givens, budget=Budget(conflicts=1))
    assert cert.verdict is VerdictKind.UNKNOWN and cert.proof is None


def test_the_formula_is_rules_givens_and_blocking_clause() -> None:
    puzzle = Puzzle.parse(HARD)
    cert = get_backend("pysat").certificate(puzzle.rules, puzzle.givens)
    assert cert.solution is not None and puzzle.is_solution(cert.solution)
    givens = [(c * 9 + v,) for c, v in enumerate(puzzle.givens.values) if v]
    assert list(cert.puzzle_clauses[:-1]) == givens
    blocking = cert.puzzle_clauses[-1]
    assert len(blocking) == 81 - puzzle.clues
    assert all(-lit in {c * 9 + v for c, v in enumerate(cert.solution.values)} for lit in blocking)
    # the rules part the solver was loaded with is the certificate encoding
    assert normalize(cert.rule_clauses) == normalize(rule_clauses(puzzle.rules))
