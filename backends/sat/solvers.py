"""The PySAT solvers this backend offers, refuses and trusts for proofs, their aliases and
the CaDiCaL options it sets (all through PySAT's public API)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sudoku_model.errors import BackendUnavailableError

DEFAULT_SOLVER = "cadical195"


@dataclass(frozen=True)
class SolverInfo:
    """What a PySAT solver can do, as far as this backend is concerned."""

    name: str
    interrupt: bool  # solve_limited + interrupt(): exact seconds budgets
    limited: bool  # solve_limited with a conflict budget
    phases: bool  # set_phases (random solutions)
    notes: str = ""
    configurable: bool = False  # configure(): CaDiCaL options, set before any clause


#: Every PySAT solver that honours assumptions, by canonical PySAT name.
SOLVERS: dict[str, SolverInfo] = {
    s.name: s
    for s in [
        SolverInfo("cadical195", False, True, True, "CaDiCaL 1.9.5 (default)", True),
        SolverInfo("cadical153", False, True, True, "CaDiCaL 1.5.3", True),
        SolverInfo("cadical103", False, True, False, "CaDiCaL 1.0.3; no set_phases"),
        SolverInfo("cadical300", False, True, True, "CaDiCaL 3.0.0", True),
        SolverInfo("glucose3", True, True, True, "Glucose 3.0"),
        SolverInfo(
            "glucose4", True, True, True, "Glucose 4.1; checks the conflict budget only at restarts"
        ),
        SolverInfo(
            "glucose42",
            True,
            True,
            True,
            "Glucose 4.2.1; checks the conflict budget only at restarts",
        ),
        SolverInfo("gluecard3", True, True, True, "Gluecard 3"),
        SolverInfo("gluecard4", True, True, True, "Gluecard 4"),
        SolverInfo("maplechrono", True, True, True, "MapleLCMDistChronoBT"),
        SolverInfo("maplecm", True, True, True, "Maple_CM"),
        SolverInfo("maplesat", True, True, True, "MapleCOMSPS_LRB"),
        SolverInfo("mergesat3", True, True, True, "MergeSat 3"),
        SolverInfo("minicard", True, True, True, "Minicard 1.2"),
        SolverInfo("minisat22", True, True, True, "MiniSat 2.2"),
        SolverInfo("minisatep", True, True, True, "MiniSat with extended propagation"),
        SolverInfo(
            "lingeling",
            False,
            False,
            True,
            "Lingeling: PySAT can neither limit nor interrupt it, so it takes no budget: a "
            "finite seconds or conflicts budget (the default 60 s too) is refused; run it "
            "with an unlimited one (Budget(), CLI --budget-seconds inf). SIGTERM waits for "
            "the solve to end; Ctrl-C stops it and throws the solver away",
        ),
    ]
}

#: CaDiCaL options set by default (``solver_options=None``), measured on uniqueness checks of
#: 9x9 puzzles with a long-lived solver (tests/benchmarks/bench_sat.py): the searches are
#: ~10-100 conflicts each, where eager subsumption of recent learnt clauses, the radix heap
#: used while shrinking learnt clauses and chronological backtracking cost more than they
#: save (together 10-17% less CPU time, slightly fewer conflicts).
CADICAL_TUNING: dict[str, int] = {"eagersubsume": 0, "shrinkreap": 0, "chrono": 0}

#: CaDiCaL options of the reduced-CNF searches (:class:`ReducedCNF`) under the default
#: tuning: stable mode only, and every decision tries a digit first (initial phase true,
#: forced). On three minimal 25x25 puzzles 1.78 / 0.49 / 0.35 s CPU per uniqueness check
#: against 2.82 / 0.75 / 0.58 s with :data:`CADICAL_TUNING` and positive phases set by
#: ``set_phases`` (2.19 / 0.56 / 0.48 s with stable mode alone; Glucose 4 4.67 / 0.71 /
#: 0.39, MiniSat 2.2 3.74 / 0.67 / 0.43).
REDUCED_TUNING: dict[str, int] = {
    **CADICAL_TUNING,
    "stabilizeonly": 1,
    "forcephase": 1,
    "phase": 1,
}

#: Solvers PySAT knows that this backend refuses, with the reason.
REFUSED: dict[str, str] = {
    "kissat404": "Kissat ignores assumptions (PySAT warns and drops them), and this backend "
    "passes the givens as assumptions",
    "cryptosat": "CryptoMiniSat is not built into the PySAT wheels",
    "minisatgh": "MiniSat (GitHub) is not built into the PySAT wheels",
    "ergo": "not validated with this backend",
}

#: Solvers whose DRAT proofs (``with_proof=True``, ``get_proof()``) are trusted for
#: certificates: each was checked valid by dratify on small formulas and on Sudoku
#: certificates (tests/backends/test_certificates.py).
PROOF_SOLVERS = frozenset(
    {
        "cadical103",
        "cadical153",
        "cadical195",
        "cadical300",
        "glucose3",
        "glucose4",
        "glucose42",
        "gluecard3",
        "gluecard4",
        "lingeling",
        "maplechrono",
        "maplecm",
    }
)

#: Why the other solvers cannot certify.
NO_PROOF: dict[str, str] = {
    "maplesat": "MapleSAT's DRAT proofs are wrong (PySAT issue 139): its certificates would "
    "not check",
    "mergesat3": "MergeSat 3 writes no proofs in PySAT",
    "minisat22": "MiniSat 2.2 writes no proofs in PySAT",
    "minisatep": "MiniSat with extended propagation writes no proofs in PySAT",
    "minicard": "Minicard writes no proofs in PySAT",
}


# Our aliases on top of PySAT's (PySAT's "cd" means the old CaDiCaL 1.0.3; "cadical" here
# means the default).
_EXTRA_ALIASES = {
    "cadical": "cadical195",
    "glucose": "glucose4",
    "minisat": "minisat22",
    "gluecard": "gluecard4",
    "maple": "maplesat",
    "mergesat": "mergesat3",
}


def import_pysat() -> Any:
    try:
        import pysat.solvers as solvers
    except ImportError as exc:  # pragma: no cover - python-sat is a core dependency
        raise BackendUnavailableError(
            "the pysat backend needs the python-sat package: pip install python-sat"
        ) from exc
    return solvers


def resolve_solver_name(name: str | None) -> str:
    """The canonical PySAT name of a solver name or alias (``g4`` -> ``glucose4``).

    Raises:
        ValueError: for an unknown name, or a solver this backend refuses (with the reason).
    """
    if not name:
        return DEFAULT_SOLVER
    key = name.strip().lower()
    if key in SOLVERS or key in REFUSED:
        canonical = key
    elif key in _EXTRA_ALIASES:
        canonical = _EXTRA_ALIASES[key]
    else:
        names = import_pysat().SolverNames
        canonical = next(
            (
                attr
                for attr, aliases in vars(names).items()
                if not attr.startswith("_") and key in aliases
            ),
            "",
        )
    if canonical in REFUSED:
        raise ValueError(f"pysat:{name} is refused: {REFUSED[canonical]}")
    if canonical not in SOLVERS:
        raise ValueError(f"unknown PySAT solver {name!r}; known: {', '.join(SOLVERS)}")
    return canonical


def solver_names() -> list[str]:
    """Canonical names of the selectable solvers (``pysat:<name>``)."""
    return list(SOLVERS)
