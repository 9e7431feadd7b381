"""Every workflow with a backend written from the contract alone: a pure-Python backtracker
in this file that implements only what :class:`~sudoku_model.solving.Backend` requires
(``_search``), registered as ``minimal`` with :func:`sudoku_model.solving.register_backend`
for these tests. Its answers are checked by the native backend. (``sudoku rate`` grades with
the logic solver and asks no backend anything, so there is nothing of it to run here.)"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, VerdictKind, formats, get_backend
from sudoku_model.cli import main
from sudoku_model.compare import compare
from sudoku_model.data import bundled_path
from sudoku_model.generate import GenerationSpec, generate
from sudoku_model.grid import Grid
from sudoku_model.solving import (
    Backend,
    Budget,
    available_backends,
    register_backend,
    unregister_backend,
)
from sudoku_model.verify import redundant_clues, verify_puzzle, verify_records

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minimal_backend import NAME, MinimalBackend, create  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def registered():
    register_backend(NAME, create)
    yield
    unregister_backend(NAME)


@pytest.fixture(scope="module")
def native() -> Backend:
    return get_backend("native")


def records(name: str, first: int | None = None) -> list[formats.Record]:
    out = list(formats.iter_records(bundled_path(name), source=f"bundled:{name}"))
    return out[:first] if first else out


def mixed() -> list[formats.Record]:
    """Easy puzzles (unique), the same with clues dropped (multiple), clashing givens
    (contradictory), an unsolvable 4x4 and a malformed line: every verdict, each fast
    for a plain backtracker."""
    easy = [r.puzzle.givens.to_line() for r in records("easy50", 8)]
    lines = easy[:4]
    for line in easy[4:]:
        cells = [i for i, ch in enumerate(line) if ch != "."][:12]
        lines.append("".join("." if i in cells else ch for i, ch in enumerate(line)))
    lines += ["11" + "." * 79, "12.....4......3.", "12x"]  # clash, no candidate for r1c3
    return list(formats.iter_records(io.StringIO("\n".join(lines) + "\n"), source="mixed"))


def test_it_is_registered_and_uses_only_defaults() -> None:
    assert NAME in available_backends()
    backend = get_backend(NAME)
    assert isinstance(backend, MinimalBackend)
    assert backend.capabilities.fast_paths == frozenset()
    with pytest.raises(ValueError, match="colon"):
        register_backend("bad:name", lambda sub: backend)


def test_verify_matches_native(native: Backend) -> None:
    recs = mixed()
    mine = list(verify_records(recs, backend=NAME))
    theirs = list(verify_records(recs, backend="native"))
    assert [r.verdict for r in mine] == [r.verdict for r in theirs]
    assert {r.verdict.value for r in mine} == {
        "unique",
        "multiple",
        "contradictory",
        "unsolvable",
        "malformed",
    }
    for r in mine:
        assert r.disagreement is None and r.backend == NAME
        if r.verdict is VerdictKind.UNIQUE:
            assert native.check_unique(r.puzzle).solution == r.solution


def test_verify_minimal_and_cross_check(native: Backend) -> None:
    recs = records("easy50", 3)
    mine = list(verify_records(recs, backend=NAME, minimal=True, cross_check=["native"]))
    for r in mine:
        assert r.disagreement is None
        assert (r.redundant, r.redundant_unknown) == (
            tuple(redundant_clues(r.puzzle, r.solution, backend=native)[0]),
            (),
        )


def test_verify_cli_in_worker_processes(tmp_path, capsys) -> None:
    # the executor registers it again in its worker processes
    out = tmp_path / "out.jsonl"
    source = tmp_path / "in.txt"
    source.write_text("\n".join(r.text for r in mixed()[:-1]) + "\n")  # no malformed line
    code = main(["verify", str(source), "--backend", NAME, "--jobs", "2", "-o", str(out)])
    assert code == 1  # some puzzles are not unique
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 10 and {d["backend"] for d in lines} == {NAME}


def test_a_backend_object_does_not_replace_the_one_made_by_name(monkeypatch) -> None:
    from sudoku_model.verify import engines as verify

    monkeypatch.delitem(verify._BACKENDS, "native", raising=False)
    puzzle = records("easy50", 1)[0].puzzle
    mine = MinimalBackend()
    mine.name = "native"  # an impostor under a registered name
    assert verify_puzzle(puzzle, backend=mine).backend == "native"
    assert "native" not in verify._BACKENDS
    assert verify._backend("native")[0] is not mine


@pytest.mark.parametrize(("box", "symmetry"), [((2, 2), "none"), ((3, 3), "rot180")])
def test_generate_unique_and_minimal(native: Backend, box: tuple[int, int], symmetry: str) -> None:
    rules = RuleSet.classic(Shape(*box))
    spec = GenerationSpec(rules, symmetry=symmetry)
    made = list(generate(spec, count=3, seed=5, backend=NAME))
    for m in made:
        assert m.backend == NAME
        assert native.check_unique(m.puzzle).solution == m.solution
        values = list(m.puzzle.givens.values)
        if m.minimal:
            for cell in (c for c, v in enumerate(values) if v):
                values[cell] = 0
                smaller = Puzzle(Grid._trusted(rules.shape, tuple(values)), rules)
                assert native.count(smaller, limit=2).count == 2
                values[cell] = m.solution.values[cell]
        else:
            assert symmetry != "none"  # only symmetric puzzles may be group-minimal only
            assert m.group_minimal is True


def test_compare_agrees_with_native() -> None:
    puzzles = [r.puzzle for r in mixed() if r.puzzle is not None]
    result = compare(puzzles, backends=[NAME, "native"], task="unique", warmup=False)
    assert result.agreed
    counted = compare(puzzles[:10], backends=[NAME, "native"], task="count", limit=50)
    assert counted.agreed


@pytest.mark.timing
def test_budget_spent_is_unknown() -> None:
    backend = get_backend(NAME)
    verdict = backend.check_unique(Puzzle.empty(Shape(3, 3)), budget=Budget(nodes=3))
    assert verdict.kind is VerdictKind.MULTIPLE or verdict.kind is VerdictKind.UNKNOWN
    start = time.perf_counter()
    counted = backend.count(Puzzle.empty(Shape(3, 3)), limit=10**9, budget=Budget(seconds=0.2))
    assert not counted.complete and time.perf_counter() - start < 2


def test_the_template_polls_interrupt_and_refuses_what_it_lacks() -> None:
    import threading

    from sudoku_model.errors import NotSupported, SearchInterrupted

    backend = create()
    box: list[object] = []

    def work() -> None:
        try:
            box.append(backend.count(Puzzle.empty(Shape(3, 3)), limit=10**7))
        except SearchInterrupted as exc:
            box.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    time.sleep(0.2)
    backend.interrupt()
    thread.join(10)
    assert isinstance(box[0], SearchInterrupted)
    backend.clear_interrupt()
    puzzle = Puzzle.parse(".2..3....1....4.")
    assert backend.check_unique(puzzle).kind is VerdictKind.UNIQUE
    caps = backend.capabilities
    assert not (caps.fast_paths or caps.bulk_verify or caps.certifies or caps.sub_solvers)
    with pytest.raises(NotSupported):
        backend.certificate(puzzle.rules, puzzle.givens)
    with pytest.raises(NotSupported):  # an undeclared path: the contract's typed refusal
        backend.verify_plain_lines(puzzle.givens.to_line(), 1)
    with pytest.raises(ValueError, match="no sub-solver"):
        create("fast")
    with backend:  # close() is the contract's: nothing held here
        pass
