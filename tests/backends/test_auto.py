"""The ``auto`` backend (the routing policy): it answers like native and pysat on every
size, each answer names the engine that gave it, its routing table is data (a table of
other routes routes otherwise), an engine that does not load leaves its questions to
native, and interrupting it stops every engine it started."""

from __future__ import annotations

import random
import threading
import time
from functools import cache
from pathlib import Path

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.backends.auto import ROUTES, AutoBackend, Route
from sudoku_model.errors import SearchInterrupted
from sudoku_model.solving import DEFAULT_BACKEND, evidence_problem
from tests.rule_instances import random_grid

DATA = Path(__file__).resolve().parent.parent / "data" / "minimal-25x25.txt"
ENGINE = next(route.engine for route in ROUTES if route.question == "search")


def minimal_25() -> Puzzle:
    rules = RuleSet.classic(Shape(5, 5))
    line = next(x for x in DATA.read_text().splitlines() if x and not x.startswith("#"))
    return Puzzle(Grid.parse(line.split()[0], shape=rules.shape), rules)


def holes(shape: Shape, seed: int, empty: int) -> Puzzle:
    """A random full grid with ``empty`` cells emptied (unique or not: both are facts the
    engines must agree on)."""
    values = list(random_grid(shape, random.Random(seed)).values)
    for cell in random.Random(seed + 1).sample(range(shape.cell_count), empty):
        values[cell] = 0
    return Puzzle(Grid(shape, values), RuleSet.classic(shape))


@cache
def nine() -> list[Puzzle]:
    from sudoku_model import formats
    from sudoku_model.data import bundled_path

    out = [r.puzzle for r in formats.iter_records(bundled_path("top95"))][:4]
    out.append(out[0].with_givens(out[0].givens.without(out[0].givens.filled_cells()[:3])))
    return out


@cache
def samples() -> list[Puzzle]:
    sixteen = [holes(Shape(4, 4), seed, empty) for seed, empty in ((1, 120), (2, 160), (3, 200))]
    twenty_five = [holes(Shape(5, 5), 4, 200), holes(Shape(5, 5), 5, 1)]
    return nine() + sixteen + twenty_five


def test_auto_is_the_default() -> None:
    assert DEFAULT_BACKEND == "auto"
    assert isinstance(get_backend(), AutoBackend)


@pytest.mark.slow
def test_auto_answers_like_native_and_pysat_on_every_size() -> None:
    pytest.importorskip("pysat")
    auto, native, pysat = get_backend("auto"), get_backend("native"), get_backend("pysat")
    for puzzle in samples():
        answers = [b.check_unique(puzzle) for b in (auto, native, pysat)]
        assert len({a.kind for a in answers}) == 1, (puzzle.shape.name, answers)
        assert all(evidence_problem(puzzle, a) is None for a in answers)
        if answers[0].kind is VerdictKind.UNIQUE:
            assert answers[0].solution == answers[1].solution == answers[2].solution
        assert auto.solve(puzzle).solution is not None or answers[0].kind in (
            VerdictKind.UNSOLVABLE,
            VerdictKind.CONTRADICTORY,
        )
        assert auto.count(puzzle, limit=2).verdict is answers[0].kind
    rules = samples()[5].rules
    batch = [bytes(p.givens.values) for p in samples()[5:8]]
    assert (
        auto.check_unique_batch(rules, batch).kinds == native.check_unique_batch(rules, batch).kinds
    )


@pytest.mark.slow
def test_a_minimal_25x25_goes_to_the_engine_and_native_alone_stays_in_c() -> None:
    pytest.importorskip("pysat")
    puzzle = minimal_25()
    auto = get_backend("auto")
    verdict = auto.check_unique(puzzle, budget=Budget(seconds=300))
    assert verdict.kind is VerdictKind.UNIQUE and verdict.backend == ENGINE
    assert evidence_problem(puzzle, verdict) is None
    alone = get_backend("native").check_unique(puzzle, budget=Budget(seconds=0.5))
    assert alone.backend == "native" and alone.kind is VerdictKind.UNKNOWN  # C only


def test_the_routing_table_is_data() -> None:
    pytest.importorskip("pysat")
    puzzle = nine()[0]  # 9x9: no route of the default table takes it
    assert get_backend("auto").check_unique(puzzle).backend == "native"
    # a table that sends 9x9 searches to SAT at once (no native try)
    to_sat = AutoBackend(routes=(Route("search", 9, ENGINE),))
    verdict = to_sat.check_unique(puzzle)
    assert verdict.backend == ENGINE and verdict.kind is VerdictKind.UNIQUE
    assert to_sat.capabilities.routing  # declared, shown by `sudoku backends`
    to_sat.close()


def test_an_engine_that_does_not_load_leaves_its_questions_to_native() -> None:
    missing = AutoBackend(routes=(Route("search", 9, "no-such-backend"),))
    puzzle = nine()[0]
    verdict = missing.check_unique(puzzle)
    assert verdict.backend == "native" and verdict.kind is VerdictKind.UNIQUE


def test_interrupting_auto_stops_the_engine_it_started() -> None:
    pytest.importorskip("pysat")
    auto = AutoBackend()
    puzzle = minimal_25()  # native's first try does not settle it: CaDiCaL works seconds
    box: list[object] = []

    def work() -> None:
        try:
            box.append(auto.check_unique(puzzle, budget=Budget(seconds=120)))
        except SearchInterrupted as exc:
            box.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    deadline = time.perf_counter() + 10
    while not auto._engines and time.perf_counter() < deadline:  # the SAT engine started
        time.sleep(0.01)
    assert auto._engines and thread.is_alive()
    time.sleep(0.2)
    start = time.perf_counter()
    auto.interrupt()
    thread.join(10)
    assert not thread.is_alive()
    assert time.perf_counter() - start < 2.0
    assert isinstance(box[0], SearchInterrupted), box
    auto.clear_interrupt()
    easy = nine()[0]
    assert auto.check_unique(easy).kind is VerdictKind.UNIQUE
    auto.close()


def _pencilmark(seed: int) -> Puzzle:
    """A unique minimal 9x9 pencilmark puzzle (seeded)."""
    from sudoku_model.generate.pencilmark import generate_pencilmark

    rules = RuleSet.classic(Shape(3, 3))
    return generate_pencilmark(rules, seed=seed, backend=get_backend("native")).puzzle


def test_pencilmark_routing_reads_the_candidate_count_and_is_deterministic() -> None:
    pytest.importorskip("pysat")
    puzzle = _pencilmark(3)
    count = sum(map(len, puzzle.candidates))
    above = AutoBackend(
        routes=(Route("search", 9, ENGINE, first_try_nodes=0, pencilmark_min_candidates=count),)
    )
    below = AutoBackend(routes=(Route("search", 9, ENGINE, pencilmark_min_candidates=count + 1),))
    for _ in range(2):  # the same puzzle and budget: the same engine, every time
        assert above.check_unique(puzzle).backend == ENGINE
        assert below.check_unique(puzzle).backend == "native"
    plain = nine()[0]  # a route for pencilmark puzzles takes no plain puzzle
    assert above.check_unique(plain).backend == "native"
    # verify asks in batches: a batch of such puzzles takes the same route
    givens = bytes(puzzle.givens.values)
    batch = above.check_unique_batch(puzzle.rules, givens)
    assert batch.backend == ENGINE and batch.kinds == [VerdictKind.UNIQUE]
    assert below.check_unique_batch(puzzle.rules, givens).backend == "native"
    above.close()
    below.close()


def test_auto_race_answers_like_auto_on_every_size() -> None:
    pytest.importorskip("pysat")
    sequential = AutoBackend()
    racing = get_backend("auto:race")
    assert isinstance(racing, AutoBackend) and racing.race and racing.name == "auto:race"
    for puzzle in samples():
        one = sequential.check_unique(puzzle)
        two = racing.check_unique(puzzle)
        assert two.kind is one.kind, puzzle
        assert racing.count(puzzle, limit=2).count == sequential.count(puzzle, limit=2).count
        solved = racing.solve(puzzle)
        assert solved.solution is not None and puzzle.check(solved.solution).ok
    sequential.close()
    racing.close()


def test_a_race_returns_the_first_engine_to_settle_and_stops_the_other() -> None:
    pytest.importorskip("pysat")
    racing = AutoBackend(race=True)
    sparse = holes(Shape(5, 5), 6, 500)  # two solutions in ms: native wins the race
    assert racing.check_unique(sparse, budget=Budget(seconds=60)).backend == "native"
    start = time.perf_counter()
    # native never ends this search within its 120 s: CaDiCaL answers, native is stopped
    verdict = racing.check_unique(minimal_25(), budget=Budget(seconds=120))
    assert verdict.kind is VerdictKind.UNIQUE and verdict.backend == ENGINE
    assert time.perf_counter() - start < 60
    # neither engine stays interrupted: the next races run
    assert racing.check_unique(sparse).kind is VerdictKind.MULTIPLE
    racing.close()


def test_interrupting_a_race_stops_both_engines() -> None:
    pytest.importorskip("pysat")
    racing = AutoBackend(race=True)
    box: list[object] = []

    def work() -> None:
        try:
            box.append(racing.check_unique(minimal_25(), budget=Budget(seconds=120)))
        except SearchInterrupted as exc:
            box.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    deadline = time.perf_counter() + 10
    while len(racing._engines) < 2 and time.perf_counter() < deadline:  # racer and engine
        time.sleep(0.01)
    time.sleep(0.2)
    start = time.perf_counter()
    racing.interrupt()
    thread.join(10)
    assert not thread.is_alive() and time.perf_counter() - start < 2.0
    assert isinstance(box[0], SearchInterrupted), box
    racing.clear_interrupt()
    assert racing.check_unique(nine()[0]).kind is VerdictKind.UNIQUE
    racing.close()


def _iss_example(name: str) -> Puzzle:
    import json

    from sudoku_model.formats.iss import puzzle_from_iss

    data = Path(__file__).resolve().parent.parent / "data" / "iss-examples.json"
    example = next(e for e in json.loads(data.read_text()) if e["name"] == name)
    return puzzle_from_iss(example["input"])


def test_variant_puzzles_native_does_not_settle_in_its_try_go_to_cadical() -> None:
    pytest.importorskip("pysat")
    from sudoku_model.backends.auto import VARIANT_FIRST_TRY_NODES

    auto = AutoBackend()
    hard = _iss_example("'Leven")  # native: about 140,000 nodes; CaDiCaL: tens of ms
    easy = _iss_example("Killer")  # native: one node
    native = get_backend("native")
    assert native.check_unique(hard).stats["nodes"] > VARIANT_FIRST_TRY_NODES
    for _ in range(2):  # the same puzzle and budget: the same engine, every time
        verdict = auto.check_unique(hard)
        assert verdict.kind is VerdictKind.UNIQUE and verdict.backend == "pysat:cadical195"
        assert auto.check_unique(easy).backend == "native"
    # verify asks in batches: a batch of one such puzzle takes the route, a longer one not
    one = auto.check_unique_batch(hard.rules, bytes(hard.givens.values))
    assert one.backend == "pysat:cadical195" and one.kinds == [VerdictKind.UNIQUE]
    assert auto.check_unique_batch(easy.rules, bytes(easy.givens.values)).backend == "native"
    two = auto.check_unique_batch(hard.rules, bytes(hard.givens.values) * 2)
    assert two.backend == "native"
    # pencilmark puzzles (their candidates their one constraint rule) are no variant
    assert auto.check_unique(_pencilmark(3)).backend == "native"
    auto.close()
