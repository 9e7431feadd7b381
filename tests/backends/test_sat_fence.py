"""The PySAT backend's fence around PySAT's internals (``backends.sat.internals``: open only
for the tested python-sat versions and unless ``SUDOKU_MODEL_PYSAT_FAST=0``) and its
``close()``."""

from __future__ import annotations

import gc
import os
import random

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape, VerdictKind, formats, get_backend
from sudoku_model.backends.sat import create, internals
from sudoku_model.data import bundled_path

SWITCHED_OFF = os.environ.get(internals.ENV_SWITCH, "").strip().lower() in {
    "0",
    "false",
    "no",
    "off",
}


def records(name: str, k: int) -> list[Puzzle]:
    out = []
    for record in formats.iter_records(bundled_path(name)):
        out.append(record.puzzle)
        if len(out) == k:
            break
    return out


@pytest.mark.skipif(SWITCHED_OFF, reason=f"{internals.ENV_SWITCH} switches the fast path off")
def test_the_fence_is_open_for_the_installed_python_sat() -> None:
    # an untested python-sat runs the public path (correct, slower): this says so instead
    # of losing the speed silently; run the backend suite with it, then add it to
    # TESTED_VERSIONS and to the pin in pyproject.toml
    assert internals.fast_path_refusal() is None


@pytest.mark.parametrize("value", ["0", "false", "No", " off "])
def test_the_switch_closes_the_fence(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(internals.ENV_SWITCH, value)
    refusal = internals.fast_path_refusal()
    assert refusal is not None and internals.ENV_SWITCH in refusal
    assert not internals.fast_path_enabled()
    assert internals.grid_reader("cadical195") is None


def test_an_untested_python_sat_closes_the_fence(monkeypatch: pytest.MonkeyPatch) -> None:
    import pysat

    monkeypatch.delenv(internals.ENV_SWITCH, raising=False)
    monkeypatch.setattr(pysat, "__version__", "1.9.dev9999")
    refusal = internals.fast_path_refusal()
    assert refusal is not None and "1.9.dev9999" in refusal
    assert not internals.fast_path_enabled()


def test_cadical_proofs_are_whole_from_1_9_dev16() -> None:
    flushes = internals.flushes_cadical_proofs
    assert not flushes("1.8.dev30") and not flushes("1.9.dev15")
    assert flushes("1.9.dev16") and flushes("1.9.dev24") and flushes("1.9") and flushes("2.0")
    assert flushes("unknown")  # an unknown scheme is newer than any known


def _workload() -> tuple[list[object], set[tuple[bool, ...]]]:
    """Every path of the backend that calls a solver: checks (unique, multiple, unsolvable),
    a count, an enumeration, a certificate, the removal oracle in the shared solver and in
    a session, a removal session, the forced-digit test, a random model, a 25x25 check in
    a fresh solver with the reduced CNF."""
    backend = create("cadical195")
    out: list[object] = []
    puzzles = records("top95", 3)
    for puzzle in records("17-clue.txt.gz", 3):  # less one clue: several solutions
        values = list(puzzle.givens.values)
        values[next(c for c, v in enumerate(values) if v)] = 0
        puzzles.append(Puzzle(Grid(puzzle.shape, values), puzzle.rules))
    for puzzle in puzzles:
        verdict = backend.check_unique(puzzle)
        out.append((verdict.kind, verdict.solution))
        if verdict.kind is VerdictKind.MULTIPLE:
            (a, b) = verdict.witnesses
            assert a != b and puzzle.check(a).ok and puzzle.check(b).ok
    first = puzzles[0]
    solution = backend.check_unique(first).solution
    assert solution is not None
    values = list(first.givens.values)
    cell = next(c for c, v in enumerate(values) if not v)
    clash = list(values)
    clash[cell] = 1 if solution.values[cell] != 1 else 2
    out.append(backend.check_unique(Puzzle(Grid(first.shape, clash), first.rules)).kind)
    out.append(backend.count(puzzles[3], limit=5).count)
    out.append(len(list(backend.solutions(puzzles[4], limit=3))))
    certificate = backend.certificate(first.rules, first.givens)
    out.append((certificate.verdict, certificate.solution, certificate.proof is not None))
    full = list(solution.values)
    for cell in range(0, 81, 9):
        full[cell] = 0
    for after in (None, 0):
        oracle = create("cadical195", removal_session_after=after).removal_oracle(
            first.rules, solution
        )
        out.append(oracle.still_unique(full, [0, 9]))
        out.append(oracle.still_unique(full, list(range(0, 81, 9))))
        oracle.close()
    session = backend.removal_session(first.rules, solution)
    out.append(session.still_unique(full, [0], fix=[1]))
    session.close()
    out.append(backend.digit_is_forced(first, cell, solution.values[cell]))
    grid = backend.random_model(Puzzle.empty(first.shape, first.rules))
    assert grid is not None and Puzzle.empty(first.shape, first.rules).check(grid).ok
    out.append(backend.check_unique(_large()).kind)  # a fresh solver, reduced CNF
    paths = {
        (engine.direct is not None, engine.reader is not None, engine.solve_limited is not None)
        for table in (backend._engines, backend._random_engines)
        for engine in table.values()
    }
    backend.close()
    return out, paths


def _large() -> Puzzle:
    """A 25x25 puzzle with half of a random full grid given."""
    rules = RuleSet.classic(Shape(5, 5))
    rng = random.Random(25)
    grid = get_backend("native").random_solution(rules, rng)
    assert grid is not None
    values = [v if rng.random() < 0.5 else 0 for v in grid.values]
    return Puzzle(Grid(rules.shape, values), rules)


def test_a_closed_fence_binds_nothing_and_answers_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened, opened_paths = _workload()
    if not SWITCHED_OFF:
        assert opened_paths == {(True, True, True)}
    monkeypatch.setenv(internals.ENV_SWITCH, "0")
    before = internals.bindings_made()
    closed, closed_paths = _workload()
    assert internals.bindings_made() == before  # no binding to PySAT's internals at all
    # no engine has C entry points, a grid reader or a quiet solve
    assert closed_paths == {(False, False, False)}
    assert closed == opened  # the same answers


def test_close_deletes_every_solver_and_the_backend_builds_new_ones() -> None:
    backend = create("cadical195", removal_session_after=0)
    puzzle = records("top95", 1)[0]
    verdict = backend.check_unique(puzzle)
    solution = verdict.solution
    assert solution is not None
    assert backend.random_model(Puzzle.empty(puzzle.shape, puzzle.rules)) is not None
    oracle = backend.removal_oracle(puzzle.rules, solution)
    givens = list(solution.values)
    givens[0] = 0
    assert oracle.still_unique(givens, [0]) is True  # in a removal session of its own
    session = backend.removal_session(puzzle.rules, solution)
    assert session.still_unique(givens, [0]) is True
    held = [e.solver for e in backend._engines.values()]
    held += [e.solver for e in backend._random_engines.values()]
    assert oracle._session is not None and oracle._session._engine is not None
    assert session._engine is not None
    held += [oracle._session._engine.solver, session._engine.solver]
    assert len(held) == 4 and all(s.solver is not None for s in held)
    backend.close()
    # PySAT's Solver.delete() frees the C solver and drops it
    assert all(s.solver is None for s in held)
    assert not backend._engines and not backend._random_engines
    assert session.closed
    with pytest.raises(ValueError, match="closed"):
        session.still_unique(givens, [0])
    # the backend and the oracle stay usable: they build new solvers
    again = backend.check_unique(puzzle)
    assert again.kind is VerdictKind.UNIQUE and again.solution == solution
    assert oracle.still_unique(givens, [0]) is True
    assert oracle._session is not None and oracle._session._engine is not None
    kept = oracle._session._engine.solver
    oracle.close()
    assert kept.solver is None and oracle._session is None
    backend.close()
    backend.close()  # closing twice is harmless


def test_a_forgotten_backend_is_closed_when_collected() -> None:
    backend = create("cadical195")
    backend.check_unique(records("top95", 1)[0])
    held = [e.solver for e in backend._engines.values()]
    assert held and all(s.solver is not None for s in held)
    del backend
    gc.collect()
    assert all(s.solver is None for s in held)
