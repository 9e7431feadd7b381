"""The PySAT backend beyond the shared contract: solver names, refusals, every solver on the
counts-43 facts, encodings, conflict budgets, solver recycling, enumeration interleaved with
checks, and the generator's two helpers."""

from __future__ import annotations

import math
import random
import sys

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, formats, get_backend
from sudoku_model.backends.sat import (
    RECYCLE_AFTER,
    SOLVERS,
    PySATBackend,
    calls,
    create,
    internals,
    resolve_solver_name,
)
from sudoku_model.backends.sat import engine as sat_engine
from sudoku_model.data import bundled_path
from sudoku_model.errors import SearchInterrupted, UnsupportedPuzzleError

#: The tests of the fast path itself (C entry points, grid reader): skipped where the fence
#: of backends.sat.internals is closed (SUDOKU_MODEL_PYSAT_FAST=0, an untested python-sat).
fast_path_only = pytest.mark.skipif(
    not internals.fast_path_enabled(),
    reason=f"the PySAT fast path is off: {internals.fast_path_refusal()}",
)


def records(name: str, k: int | None = None) -> list[tuple[Puzzle, str]]:
    out = []
    for record in formats.iter_records(bundled_path(name)):
        out.append((record.puzzle, record.comment))
        if k is not None and len(out) == k:
            break
    return out


def test_names_and_aliases() -> None:
    assert get_backend("pysat").name == "pysat:cadical195"
    assert get_backend("sat:g4").name == "pysat:glucose4"
    assert resolve_solver_name("cadical") == "cadical195"
    assert resolve_solver_name("m22") == "minisat22"
    assert resolve_solver_name("MapleChrono") == "maplechrono"


@pytest.mark.parametrize("name", ["kissat", "kissat404", "ks"])
def test_kissat_is_refused_with_the_reason(name: str) -> None:
    with pytest.raises(ValueError, match="assumptions"):
        create(name)


def test_unknown_solver_and_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown PySAT solver"):
        create("nosuchsolver")
    with pytest.raises(ValueError):
        create("cadical195", encoding="tiny")
    with pytest.raises(ValueError):
        create("cadical195", recycle_after=0)


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_every_solver_reproduces_counts_43(solver: str) -> None:
    # Puzzles with up to 13 solutions (the 600-800 ones take the maple solvers ~20 s).
    backend = create(solver)
    # Lingeling refuses every finite budget (it cannot be stopped): it runs unlimited.
    budget = Budget() if solver == "lingeling" else None
    try:
        for puzzle, comment in records("counts-43"):
            expected = int(comment.split(":")[0])
            if expected > 20:
                continue
            result = backend.count(puzzle, limit=100, budget=budget)
            assert (result.count, result.complete) == (expected, True), (solver, puzzle)
            assert all(puzzle.check(g).ok for g in result.solutions)
        assert backend.count(Puzzle.empty(Shape(2, 2)), limit=300, budget=budget).count == 288
    finally:
        backend.close()


@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended", "augmented"])
@pytest.mark.parametrize("amo", ["pairwise", "seqcounter"])
def test_every_encoding_gives_the_same_answers(encoding: str, amo: str) -> None:
    backend = create("cadical195", encoding=encoding, amo=amo)
    for puzzle, comment in records("counts-43")[::4]:
        assert backend.count(puzzle, limit=1000).count == int(comment.split(":")[0])
    puzzle = records("17-clue", 1)[0][0]
    assert backend.check_unique(puzzle).kind is VerdictKind.UNIQUE
    backend.close()


@pytest.mark.parametrize("solver", ["minisat22", "glucose42"])
def test_augmented_encoding_with_other_solvers(solver: str) -> None:
    backend = create(solver, encoding="augmented")
    assert backend.name == f"pysat:{solver}[augmented,pairwise]"
    for puzzle, _ in records("forum-hardest-1106", 5):
        verdict = backend.check_unique(puzzle)
        assert verdict.kind is VerdictKind.UNIQUE and puzzle.check(verdict.solution).ok
    # a 17-clue puzzle with a clue deleted has several solutions
    puzzle = records("17-clue", 1)[0][0]
    fewer = puzzle.with_givens(puzzle.givens.without([puzzle.givens.filled_cells()[0]]))
    verdict = backend.check_unique(fewer)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert all(fewer.check(g).ok for g in verdict.witnesses)
    backend.close()


JIGSAW_6X6 = (
    0,
    0,
    0,
    1,
    1,
    1,
    0,
    0,
    2,
    1,
    1,
    1,
    0,
    2,
    2,
    2,
    3,
    3,
    4,
    4,
    2,
    2,
    3,
    3,
    4,
    4,
    5,
    5,
    3,
    3,
    4,
    4,
    5,
    5,
    5,
    5,
)


@pytest.mark.parametrize(
    ("shape", "variants"),
    [
        (Shape(2, 3), ()),
        (Shape(3, 2), ()),
        (Shape(2, 3), ("jigsaw",)),
        (Shape(3, 3), ("diagonal",)),
        (Shape(3, 3), ("windoku",)),
        (Shape(3, 3), ("anti-knight",)),
    ],
)
def test_augmented_and_extended_agree_on_random_puzzles(
    shape: Shape, variants: tuple[str, ...]
) -> None:
    regions = JIGSAW_6X6 if "jigsaw" in variants else None
    rules = RuleSet.build(shape, variants, regions)
    augmented = create("cadical195", encoding="augmented")
    extended = create("minisat22", encoding="extended")
    rng = random.Random(7)
    cells = list(range(shape.cell_count))
    for k in range(12):
        full = augmented.random_model(Puzzle.empty(shape, rules), rng=rng)
        assert full is not None and Puzzle.empty(shape, rules).check(full).ok
        keep = shape.cell_count * rng.randint(15, 45) // 81
        puzzle = Puzzle(full.without(rng.sample(cells, shape.cell_count - keep)), rules)
        a, b = augmented.count(puzzle, limit=30), extended.count(puzzle, limit=30)
        assert (a.count, a.complete) == (b.count, b.complete), (k, puzzle.to_line())
        if a.complete:
            assert set(a.solutions) == set(b.solutions)
        assert len(set(a.solutions)) == a.count
        assert all(puzzle.check(g).ok for g in a.solutions)
    augmented.close()
    extended.close()


def test_solver_options_reach_cadical_and_are_checked() -> None:
    from sudoku_model.backends.sat import CADICAL_TUNING

    assert create("cadical195").solver_options == CADICAL_TUNING
    assert create("cadical195", solver_options={}).solver_options == {}
    assert create("minisat22").solver_options == {}
    empty = Puzzle.empty(Shape(3, 3))
    tuned = create("cadical195", solver_options=CADICAL_TUNING)
    plain = create("cadical195", solver_options={})
    negative = create("cadical195", solver_options={"phase": 0})
    # phase steering comes with the default tuning only
    assert create("cadical195").phased and not tuned.phased and not create("minisat22").phased
    # the tuning leaves the first decisions alone; a negative initial phase changes them
    assert tuned.solve(empty).solution == plain.solve(empty).solution
    assert negative.solve(empty).solution != plain.solve(empty).solution
    for puzzle, _ in records("top95", 5):
        assert negative.check_unique(puzzle).kind is VerdictKind.UNIQUE
    with pytest.raises(ValueError, match="solver_options"):
        create("minisat22", solver_options={"chrono": 0})
    with pytest.raises(ValueError, match="integers"):
        create("cadical195", solver_options={"chrono": "off"})
    for b in (tuned, plain, negative):
        b.close()


def test_lingeling_declares_no_budget_and_refuses_a_finite_one() -> None:
    backend = create("lingeling")
    assert backend.capabilities.budgets == ()
    assert "refused" in backend.capabilities.notes
    puzzle = Puzzle.parse("1.3..4.2.1.3..2.")
    for budget in (None, Budget(seconds=2), Budget(conflicts=100)):
        with pytest.raises(UnsupportedPuzzleError, match="cannot honour"):
            backend.check_unique(puzzle, budget=budget)
    assert backend.check_unique(puzzle, budget=Budget()).kind is VerdictKind.UNIQUE
    assert backend.check_unique(puzzle, budget=Budget(seconds=math.inf)).kind.value == "unique"
    backend.close()


@pytest.mark.parametrize("solver", ["cadical195", "minisat22", "maplechrono"])
def test_a_conflict_budget_ends_in_unknown(solver: str) -> None:
    backend = create(solver)
    for puzzle, _ in records("forum-hardest-1106", 5):
        verdict = backend.check_unique(puzzle, budget=Budget(conflicts=1))
        assert verdict.kind is VerdictKind.UNKNOWN
        # a few over: solvers test the limit only where propagation ends without a conflict,
        # so a run of conflicts in a row is counted whole (up to 6 on these five puzzles,
        # unloaded), and a call that crosses a signal slice (0.05 s, on a loaded machine) is
        # resumed with what is left, after a restart that may start such a run again
        assert verdict.stats["conflicts"] <= 16
        full = backend.check_unique(puzzle)
        assert full.kind is VerdictKind.UNIQUE  # still usable
        assert full.stats["conflicts"] > 2 * verdict.stats["conflicts"]  # the budget did stop it
    backend.close()


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_a_time_budget_stops_a_long_enumeration(solver: str) -> None:
    # cadical has no interrupt (slices of conflicts); glucose is interrupted by the watchdog
    backend = create(solver)
    result = backend.count(Puzzle.empty(Shape(4, 4)), limit=10**6, budget=Budget(seconds=0.3))
    assert result.budget_exhausted and not result.complete and result.seconds < 3
    assert backend.count(Puzzle.empty(Shape(2, 2)), limit=300).count == 288
    backend.close()


def test_recycling_keeps_answers_right() -> None:
    backend = create("cadical195", recycle_after=3)
    puzzles = records("top95", 12)
    first = [backend.check_unique(p) for p, _ in puzzles]
    engine = backend._engines[puzzles[0][0].rules]
    assert engine.generation >= 4  # rebuilt every three retired guards
    assert all(v.kind is VerdictKind.UNIQUE for v in first)
    assert [backend.check_unique(p).solution for p, _ in puzzles] == [v.solution for v in first]
    backend.close()


def test_enumeration_interleaved_with_checks() -> None:
    backend = create("cadical195", recycle_after=2)
    empty = Puzzle.empty(Shape(2, 2))
    iterator = backend.solutions(empty)
    seen = []
    for k, grid in enumerate(iterator):
        seen.append(grid)
        if k % 50 == 0:  # other questions on the same solver between two solutions
            assert backend.check_unique(empty).kind is VerdictKind.MULTIPLE
            assert backend.count(empty, limit=5).count == 5
    assert len(set(seen)) == 288 and iterator.complete
    # an abandoned iterator retires its guard: later answers are unaffected
    partial = backend.solutions(empty)
    next(partial)
    partial.close()
    assert backend.count(empty, limit=1000).count == 288
    backend.close()


def test_digit_is_forced_matches_uniqueness() -> None:
    backend = create()
    rng = random.Random(5)
    for puzzle, _ in records("17-clue", 8):
        solution = backend.solve(puzzle).solution
        cell = rng.choice(puzzle.givens.filled_cells())
        fewer = puzzle.with_givens(puzzle.givens.without([cell]))
        # no 16-clue puzzle is unique, so the removed digit is never forced
        empty_cell = puzzle.givens.empty_cells()[0]
        wrong = solution[empty_cell] % 9 + 1
        for prefer in (None, solution):  # phases set to a known solution: same answers
            assert backend.digit_is_forced(fewer, cell, solution[cell], prefer=prefer) is False
            assert (
                backend.digit_is_forced(puzzle, empty_cell, solution[empty_cell], prefer=prefer)
                is True
            )
            assert backend.digit_is_forced(puzzle, empty_cell, wrong, prefer=prefer) is False
    with pytest.raises(IndexError):
        backend.digit_is_forced(Puzzle.empty(Shape(2, 2)), 16, 1)
    backend.close()


@pytest.mark.parametrize(
    ("shape", "variants"),
    [(Shape(3, 3), ()), (Shape(2, 3), ()), (Shape(3, 3), ("anti-knight",)), (Shape(4, 4), ())],
)
def test_random_solution_is_valid_and_varied(shape: Shape, variants: tuple[str, ...]) -> None:
    backend = create()
    rng = random.Random(11)
    puzzle = Puzzle.empty(shape, RuleSet.build(shape, variants))
    grids = [backend.random_model(puzzle, rng=rng) for _ in range(20)]
    assert all(g is not None and puzzle.check(g).ok for g in grids)
    assert len(set(grids)) >= 15
    # same seeds on a fresh backend, same grids
    one, two = create(), create()
    assert [one.random_model(puzzle, rng=random.Random(s)) for s in range(3)] == [
        two.random_model(puzzle, rng=random.Random(s)) for s in range(3)
    ]
    for b in (backend, one, two):
        b.close()


def test_random_solution_respects_givens_and_reports_none() -> None:
    backend = create()
    puzzle, _ = records("counts-43", 1)[0]
    assert backend.random_model(puzzle, rng=random.Random(1)) == backend.solve(puzzle).solution
    values = [0] * 16
    values[0], values[1], values[7], values[14] = 1, 2, 4, 3  # no candidate for r1c3
    assert backend.random_model(Puzzle(Grid(Shape(2, 2), values))) is None
    backend.close()


def test_stats_and_version() -> None:
    backend = create()
    verdict = backend.check_unique(records("forum-hardest-1106", 1)[0][0])
    assert set(verdict.stats) == {"conflicts", "decisions", "propagations"}
    assert verdict.stats["propagations"] > 0
    assert backend.version().startswith("python-sat ")
    assert isinstance(backend, PySATBackend)
    backend.close()


# -- removal sessions (the generator's SAT calls from 16x16 up) --------------------------------
def _removal_walk(shape: Shape, seed: int) -> None:
    """A removal pass driven by a session, each answer checked against the native backend."""
    rules = RuleSet.classic(shape)
    native = get_backend("native")
    rng = random.Random(seed)
    solution = native.solve(Puzzle.empty(shape, rules)).solution
    assert solution is not None
    backend = create("cadical195")
    session = backend.removal_session(rules, solution)
    values = list(solution.values)
    necessary: set[int] = set()
    order = list(range(shape.cell_count))
    rng.shuffle(order)
    for cell in order:
        values[cell] = 0
        answer = session.still_unique(values, (cell,), fix=necessary)
        truth = native.count(Puzzle(Grid._trusted(shape, tuple(values)), rules), limit=2).count
        assert answer is (truth == 1)
        if not answer:
            values[cell] = solution.values[cell]
            necessary.add(cell)
    assert session.fixed <= necessary and len(session.fixed) > 0
    # a group: emptying two necessary clues together can only stay ambiguous
    a, b = sorted(necessary)[:2]
    values[a] = values[b] = 0
    with pytest.raises(ValueError, match="fixed clue"):
        session.still_unique(values, (a, b))
    fresh = backend.removal_session(rules, solution)
    assert fresh.still_unique(values, (a, b)) is False
    clue = next(i for i, v in enumerate(values) if v)
    for bad_removed in ((), (shape.cell_count,), (a, clue)):  # none, outside, a given
        with pytest.raises(ValueError, match="removed cells"):
            fresh.still_unique(values, bad_removed)
    with pytest.raises(ValueError, match="values; the grid has"):
        fresh.still_unique(values[:-1], (a,))
    backend.close()
    with pytest.raises(ValueError, match="closed"):
        session.still_unique(values, (a, b))


@pytest.mark.parametrize(("shape", "seed"), [(Shape(2, 2), 1), (Shape(2, 3), 2), (Shape(3, 3), 3)])
def test_a_removal_session_agrees_with_the_native_count(shape: Shape, seed: int) -> None:
    _removal_walk(shape, seed)


def test_a_removal_session_needs_a_full_grid_of_its_rules() -> None:
    backend = create("cadical195")
    rules = RuleSet.classic(Shape(2, 2))
    for bad in ("1234341221434312", "123434122143432."):  # a repeat; an empty cell
        with pytest.raises(ValueError, match="full grid"):
            backend.removal_session(rules, Grid.parse(bad))
    with pytest.raises(ValueError, match="full grid"):  # another shape
        backend.removal_session(RuleSet.classic(Shape(3, 3)), Grid.parse("1234341221434321"))
    backend.removal_session(rules, Grid.parse("1234341221434321")).close()


# -- the direct hot path of check_unique ------------------------------------
def _uniqueness_mix() -> list[Puzzle]:
    """Unique (17-clue, hardest), multiple (a 17-clue puzzle less one or two clues: no
    9x9 puzzle of 16 clues is unique), unsolvable and clashing puzzles."""
    unique = [p for p, _ in records("17-clue.txt.gz", 8)] + [p for p, _ in records("hardest", 4)]
    multiple = []
    for k, puzzle in enumerate(unique[:8]):
        values = list(puzzle.givens.values)
        filled = [c for c, v in enumerate(values) if v]
        for cell in filled[k % 5 : k % 5 + 1 + k % 2]:
            values[cell] = 0
        multiple.append(Puzzle(Grid(puzzle.shape, values), puzzle.rules))
    base = unique[0]
    values = list(base.givens.values)
    solution = create("cadical195").solve(base).solution
    assert solution is not None
    # an empty cell with a given in its row
    cell = next(c for c in range(81) if not values[c] and any(values[c // 9 * 9 : c // 9 * 9 + 9]))
    clash = list(values)
    clash[cell] = max(values[cell // 9 * 9 : cell // 9 * 9 + 9])  # a digit of its row
    # another digit that no peer holds: the puzzle was unique, so it has no solution now
    others = []
    for digit in range(1, 10):
        candidate = list(values)
        candidate[cell] = digit
        puzzle = Puzzle(Grid(base.shape, candidate), base.rules)
        if digit != solution.values[cell] and not puzzle.is_contradictory:
            others.append(puzzle)
    return unique + multiple + others[:1] + [Puzzle(Grid(base.shape, clash), base.rules)]


@fast_path_only
def test_the_direct_path_answers_as_the_general_one(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = _uniqueness_mix()
    direct = create("cadical195")
    verdicts = [direct.check_unique(p) for p in puzzles]
    assert direct._engines[puzzles[0].rules].direct is not None
    monkeypatch.setattr(internals.Direct, "of", staticmethod(lambda solver, name: None))
    general = create("cadical195")
    kinds = [v.kind for v in verdicts]
    assert kinds.count(VerdictKind.UNIQUE) == 12 and kinds.count(VerdictKind.MULTIPLE) == 8
    assert VerdictKind.UNSOLVABLE in kinds
    for puzzle, verdict in zip(puzzles, verdicts):
        other = general.check_unique(puzzle)
        assert general._engines[puzzle.rules].direct is None
        # the same solver calls in the same order: the same models, witnesses and counters
        assert (other.kind, other.solution, other.witnesses) == (
            verdict.kind,
            verdict.solution,
            verdict.witnesses,
        )
        assert other.stats == verdict.stats
        for grid in (verdict.solution, *verdict.witnesses):
            if grid is not None:
                assert puzzle.check(grid).ok
        if verdict.kind is VerdictKind.MULTIPLE:
            assert verdict.witnesses[0] != verdict.witnesses[1]
    direct.close()
    general.close()


def test_a_search_beyond_the_first_slice_goes_on_in_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzles = [p for p, _ in records("hardest", 6)] + _uniqueness_mix()[12:16]
    whole = [create("cadical195").check_unique(p) for p in puzzles]
    monkeypatch.setattr(calls, "FIRST_SLICE", 1)  # every search longer than one conflict
    sliced = create("cadical195")
    for puzzle, verdict in zip(puzzles, whole):
        other = sliced.check_unique(puzzle)
        assert other.kind is verdict.kind
        assert other.solution == verdict.solution
        for grid in other.witnesses:
            assert puzzle.check(grid).ok
    sliced.close()


@fast_path_only
def test_an_interrupt_during_the_first_slice_stops_the_check() -> None:
    backend = create("cadical195")
    puzzle = records("hardest", 1)[0][0]
    expected = backend.check_unique(puzzle).solution
    engine = backend._engines[puzzle.rules]
    assert engine.direct is not None
    solve = engine.direct.solve

    def interrupted_meanwhile(handle: object, assumptions: list[int], main: int) -> int:
        solve(handle, assumptions, main)
        backend.interrupt()  # as a signal handler or another thread would, mid-search
        return 0  # the slice ended without an answer

    engine.direct.solve = interrupted_meanwhile
    with pytest.raises(SearchInterrupted):
        backend.check_unique(puzzle)
    assert engine.stale
    backend.clear_interrupt()
    # the interrupted solver is thrown away; the next call builds another and answers
    again = backend.check_unique(puzzle)
    assert again.kind is VerdictKind.UNIQUE and again.solution == expected
    assert backend._engines[puzzle.rules] is not engine
    backend.close()


def test_the_default_backend_rebuilds_its_solver_every_recycle_after_guards() -> None:
    backend = create("cadical195")
    assert backend.recycle_after == RECYCLE_AFTER == 500
    puzzle = records("top95", 1)[0][0]
    backend.check_unique(puzzle)
    engine = backend._engines[puzzle.rules]
    generation = engine.generation
    for _ in range(RECYCLE_AFTER - 1):
        backend.check_unique(puzzle)
    assert engine.generation == generation + 1  # one guard per check: rebuilt once
    backend.close()


# -- the grid of a model read in C (backends/sat/_satread.c; issue 18, item 5) ---------------------
@fast_path_only
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checked on Linux builds")
def test_the_grid_reader_binds_for_the_cadical_solvers_of_this_pysat() -> None:
    # where it does not bind, every model goes through PySAT's whole-model read: correct
    # but ~60 us slower per read; this says so instead of losing the speed silently
    for name in ("cadical153", "cadical195"):
        assert internals.grid_reader(name) is not None, name
    assert internals.grid_reader("cadical300") is None  # its val() takes two arguments
    assert internals.grid_reader("glucose4") is None


def _models(shape: Shape, rules: RuleSet, count: int, seed: int) -> list[Puzzle]:
    """Puzzles with givens taken from random solutions, so that each solve answers SAT."""
    rng = random.Random(seed)
    native = get_backend("native")
    out = []
    for _ in range(count):
        grid = native.random_solution(rules, rng)
        assert grid is not None
        keep = [v if rng.random() < 0.3 else 0 for v in grid.values]
        out.append(Puzzle(Grid(shape, keep), rules))
    return out


@fast_path_only
@pytest.mark.parametrize("solver", ["cadical153", "cadical195"])
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4)])
def test_the_grid_reader_reads_what_pysat_reads(solver: str, box: tuple[int, int]) -> None:
    shape = Shape(*box)
    backend = create(solver)
    variants = RuleSet.build(shape, variants=["diagonal"])
    for rules in (RuleSet.classic(shape), variants):
        for k, puzzle in enumerate(_models(shape, rules, 6, seed=box[0] * 7 + box[1])):
            engine = backend._engine(puzzle.rules)
            assert engine.reader is not None
            for _ in range(k % 3):  # guards after the cell variables, as checks leave
                engine.retire(engine.fresh_guard(), backend.recycle_after)
            run = sat_engine.Run(Budget())
            assert backend._call(engine, engine.assumptions(puzzle.givens.values), run)
            grid = engine.read_grid()
            assert engine.direct is not None
            model = engine.direct.model(engine.direct.handle)
            assert grid is not None and grid == engine.decode(model)[0]
            assert puzzle.check(grid).ok
            assert engine.reader is not None
            givens = puzzle.givens.values
            free = engine.free_literals(grid.values, givens)
            assert engine.reader.with_free(
                engine.direct.handle, shape.size, shape.cell_count, givens
            ) == (grid.values, free, [-lit for lit in free])
    backend.close()


@fast_path_only
def test_the_grid_reader_answers_none_for_a_cell_without_one_digit() -> None:
    from pysat.solvers import Solver

    from sudoku_model.backends.sat import _satread

    read = internals.grid_reader("cadical195")
    assert read is not None
    solver = Solver(name="cadical195")
    direct = internals.Direct.of(solver, "cadical195")
    assert direct is not None
    for clause in ([1], [-2], [-3], [-4]):  # cell 0: digit 1; cell 1: no digit
        direct.add_clause(direct.handle, clause)
    assert direct.solve(direct.handle, [], 0) == 1
    assert read.digits(direct.handle, 2, 1) == (1,)
    assert read.digits(direct.handle, 2, 2) is None
    assert read.digits(direct.handle, 1, 2) is None  # cell 1 (variable 2) false: no digit
    direct.add_clause(direct.handle, [5])
    direct.add_clause(direct.handle, [6])
    assert direct.solve(direct.handle, [], 0) == 1
    assert read.digits(direct.handle, 3, 2) is None  # cell 1 (4, 5, 6): two digits
    # with the givens: the free cells' literals and their negations (cell 0 given)
    assert read.with_free(direct.handle, 3, 1, (0,)) == ((1,), [1], [-1])
    assert read.with_free(direct.handle, 3, 1, (1,)) == ((1,), [], [])
    assert read.with_free(direct.handle, 3, 2, (1, 0)) is None
    with pytest.raises(ValueError, match="one value a cell"):
        read.with_free(direct.handle, 3, 1, (1, 0))
    with pytest.raises(ValueError, match="slot"):
        _satread.grid(99, direct.handle, 2, 1)
    with pytest.raises(ValueError, match="range"):
        _satread.grid(0, direct.handle, 0, 1)
    solver.delete()


@fast_path_only
def test_a_grid_reader_that_misreads_its_test_model_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sudoku_model.backends.sat import _satread

    monkeypatch.setattr(_satread, "grid", lambda slot, handle, size, cells, *givens: (1,) * cells)
    assert internals.bind_grid_reader("cadical195") is None
    monkeypatch.setattr(_satread, "bind", lambda library, symbol: -1)
    assert internals.bind_grid_reader("cadical195") is None


@fast_path_only
def test_without_the_grid_reader_the_checks_answer_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzles = _uniqueness_mix()
    reading = create("cadical195")
    verdicts = [reading.check_unique(p) for p in puzzles]
    assert reading._engines[puzzles[0].rules].reader is not None
    monkeypatch.setattr(sat_engine, "grid_reader", lambda name: None)
    modelling = create("cadical195")
    for puzzle, verdict in zip(puzzles, verdicts):
        other = modelling.check_unique(puzzle)
        engine = modelling._engines[puzzle.rules]
        assert engine.direct is not None and engine.reader is None
        # the same solver calls in the same order: the same models and witnesses
        assert (other.kind, other.solution, other.witnesses, other.stats) == (
            verdict.kind,
            verdict.solution,
            verdict.witnesses,
            verdict.stats,
        )
    reading.close()
    modelling.close()
