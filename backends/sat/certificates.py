"""Certificates of the PySAT backend: a verdict and a DRAT refutation of exactly the
certified formula (see :meth:`sudoku_model.solving.Backend.certificate`).

Which solvers' proofs are trusted is :data:`backends.sat.solvers.PROOF_SOLVERS`; whether
this python-sat hands CaDiCaL's proofs out whole is the version check
:func:`backends.sat.internals.flushes_cadical_proofs`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from sudoku_model.certcnf import candidate_clauses, uncertifiable
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle, rules_without_candidates
from sudoku_model.rules import RuleSet
from sudoku_model.solving import Budget, Certificate, CertificationUnsupported, VerdictKind

from ..cnf import encode_rules
from .engine import Engine, ProofEngine, Run
from .internals import flushes_cadical_proofs, quiet_solve_limited
from .solvers import NO_PROOF, PROOF_SOLVERS, import_pysat

if TYPE_CHECKING:
    from .backend import PySATBackend

__all__ = ["CERTIFICATE_ENCODING", "certificate_refusal", "certify"]

#: The certificate encoding (``sudoku_model.certcnf`` rebuilds it independently): the
#: extended encoding with pairwise at-most-one of :mod:`backends.cnf`, the givens as unit
#: clauses and, for ``unique``, the blocking clause of the solution.
CERTIFICATE_ENCODING = "sudoku-cert-1"


def certificate_refusal(solver_name: str) -> str | None:
    """None when this solver writes trusted DRAT proofs (:data:`PROOF_SOLVERS`), else
    why it cannot certify."""
    if solver_name in PROOF_SOLVERS:
        if solver_name.startswith("cadical") and not flushes_cadical_proofs():
            import pysat

            return (
                f"pysat:{solver_name} cannot certify with python-sat "
                f"{pysat.__version__}: before 1.9.dev16 its CaDiCaL proofs arrive "
                "truncated (unflushed); upgrade python-sat, or certify with pysat:glucose4"
            )
        return None
    why = NO_PROOF.get(solver_name, "its proofs were not validated for certificates")
    return (
        f"pysat:{solver_name} cannot certify: {why}; certify with pysat:cadical195 "
        f"(the default) or one of {', '.join(sorted(PROOF_SOLVERS))}"
    )


def certify(
    backend: PySATBackend, rules: RuleSet, givens: Grid, *, budget: Budget | None = None
) -> Certificate:
    """``backend.certificate(rules, givens)`` (see
    :meth:`sudoku_model.solving.Backend.certificate`). The verdict comes from the backend's
    ``check_unique`` (the long-lived solver); the refutation from a fresh solver created
    with ``with_proof=True`` and loaded with exactly the certified formula (encoding
    :data:`CERTIFICATE_ENCODING`), solved once without assumptions, so the proof covers
    that formula and nothing else. One budget covers both searches.

    Raises:
        CertificationUnsupported: for a solver without trusted proofs, or a rule kind
            the certificate encoding lacks.
        ValueError: when ``givens`` has another shape than ``rules``.
        RuntimeError: when the proof solver finds a model of a formula the verdict
            says has none (a solver bug; nothing is certified).
        SearchInterrupted: after the backend's ``interrupt()``.
    """
    start = time.perf_counter()
    refusal = backend.certificate_refusal()
    if refusal is not None:
        raise CertificationUnsupported(refusal)
    puzzle = Puzzle(givens, rules)
    # a pencilmark puzzle's candidates are puzzle clauses (eliminations as negative
    # units), its other rules the rules CNF
    rules = rules_without_candidates(rules)
    # Refused generically: a rule kind added later (killer cages, thermometers) is
    # never certified silently under an encoding that lacks it.
    odd_rules = uncertifiable(rules)
    if odd_rules is not None:
        raise CertificationUnsupported(odd_rules)
    backend._require_supported(puzzle)
    budget = backend._budget(budget)
    run = Run(budget)
    backend._refuse_budget(run)
    version = backend.version()

    def answer(kind: VerdictKind, **fields: Any) -> Certificate:
        return Certificate(
            kind,
            puzzle,
            backend.name,
            version,
            CERTIFICATE_ENCODING,
            time.perf_counter() - start,
            **fields,
        )

    if puzzle.is_contradictory:
        cells = puzzle.conflicts()[0].cells
        return answer(VerdictKind.CONTRADICTORY, clash=(cells[0], cells[1]))
    verdict = backend.check_unique(puzzle, budget=budget)
    if verdict.kind is VerdictKind.MULTIPLE:
        return answer(VerdictKind.MULTIPLE, witnesses=verdict.witnesses[:2])
    if verdict.kind not in (VerdictKind.UNIQUE, VerdictKind.UNSOLVABLE):
        return answer(VerdictKind.UNKNOWN)
    n = puzzle.size
    values = givens.values
    clauses: list[tuple[int, ...]] = [(c * n + v,) for c, v in enumerate(values) if v]
    clauses += candidate_clauses(n, puzzle.candidates)
    solution = verdict.solution
    if solution is not None:
        clauses.append(
            tuple(-(c * n + s) for c, (g, s) in enumerate(zip(values, solution.values)) if not g)
        )
    cnf = encode_rules(rules, encoding="extended", amo="pairwise")
    solvers = import_pysat()
    solver = solvers.Solver(name=backend.solver_name, with_proof=True)
    try:
        solver.append_formula(cnf.clauses)
        solver.append_formula(clauses)
        quiet = None
        if backend.info.limited and not backend.info.interrupt:
            quiet = quiet_solve_limited(solver, backend.solver_name)
        result = backend._call(cast(Engine, ProofEngine(solver, quiet)), [], run)
        if result is None:
            return answer(VerdictKind.UNKNOWN)
        if result:
            raise RuntimeError(
                f"{backend.name} answered {verdict.kind.value}, but the proof solver found a "
                "model of the formula that should have none: a solver bug, not certified"
            )
        lines = solver.get_proof()
    finally:
        solver.delete()
    # Some solvers stop at a conflict found by propagation at the root without writing
    # the empty clause; it is a RUP step like any other, checked like any other.
    if not lines or lines[-1].strip() != "0":
        lines.append("0")
    return answer(
        verdict.kind,
        solution=solution,
        rule_clauses=cnf.clauses,
        puzzle_clauses=tuple(clauses),
        num_vars=cnf.num_vars,
        proof="\n".join(lines) + "\n",
    )
