"""Renban, whisper, palindrome and negative kropki puzzles from ``sudoku_model.generate``
and ``sudoku generate --variant ...``: unique by a backend other than the one that made
them, every line of 3 to 8 touching cells holding its rule on the solution (checked here
digit by digit, not through the rules), every dot of the solution given, and the same
seed giving the same puzzle."""

from __future__ import annotations

import io

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, VerdictKind, get_backend
from sudoku_model.cli import main
from sudoku_model.formats import iter_records
from sudoku_model.generate import (
    DrawnOptions,
    GeneratedPuzzle,
    GenerationSpec,
    ImpossibleRequestError,
    generate,
)
from sudoku_model.records import check_record
from sudoku_model.rule_marks import rule_marks

PYSAT = get_backend("pysat")
S6, S9 = Shape(2, 3), Shape(3, 3)


def _touch(n: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return max(abs(ra - rb), abs(ca - cb)) == 1


def _holds(kind: str, n: int, digits: list[int]) -> bool:
    if kind == "whisper":
        return all(abs(a - b) >= (n + 1) // 2 for a, b in zip(digits, digits[1:]))
    if kind == "renban":
        return sorted(digits) == list(range(min(digits), min(digits) + len(digits)))
    return digits == digits[::-1]


def _check_unique(made: GeneratedPuzzle) -> None:
    verdict = PYSAT.check_unique(made.puzzle)
    assert verdict.kind is VerdictKind.UNIQUE and verdict.solution == made.solution
    assert made.puzzle.rules.violations(made.solution.values) == []
    for c in made.puzzle.givens.filled_cells():
        assert made.puzzle.givens.values[c] == made.solution.values[c]


def _check_lines(kind: str, made: GeneratedPuzzle) -> None:
    shape = made.puzzle.shape
    n = shape.size
    s = made.solution.values
    lines = rule_marks(made.puzzle.rules).lines
    assert len(lines) == made.lines and lines
    assert {line.look for line in lines} == {"whisper" if kind == "whisper" else kind}
    cells = [c for line in lines for c in line.cells]
    assert len(cells) == len(set(cells))  # lines do not share cells
    for line in lines:
        assert 3 <= len(line.cells) <= 8
        assert all(_touch(n, a, b) for a, b in zip(line.cells, line.cells[1:]))
        assert _holds(kind, n, [s[c] for c in line.cells]), (kind, line)
    assert f"{made.lines} lines" in made.describe()


@pytest.mark.parametrize("kind", ["renban", "whisper", "palindrome"])
@pytest.mark.parametrize(("shape", "count"), [(S6, 3), (S9, 2)], ids=["6x6", "9x9"])
def test_line_puzzles_are_unique_and_their_lines_hold(kind: str, shape: Shape, count: int) -> None:
    spec = GenerationSpec(RuleSet.classic(shape), drawn=DrawnOptions(kind))
    made = list(generate(spec, count=count, seed=7))
    assert len(made) == count
    for m in made:
        _check_unique(m)
        _check_lines(kind, m)


@pytest.mark.parametrize("shape", [S6, S9], ids=["6x6", "9x9"])
def test_negative_kropki_puzzles_give_every_dot_of_the_solution(shape: Shape) -> None:
    spec = GenerationSpec(RuleSet.classic(shape), drawn=DrawnOptions("kropki-negative"))
    n = shape.size
    for m in generate(spec, count=3, seed=3):
        _check_unique(m)
        s = m.solution.values
        marks = rule_marks(m.puzzle.rules)
        dots = {(e.a, e.b): e.look for e in marks.edges}
        assert len(dots) == m.dots
        assert any("neither consecutive nor double" in c for c in marks.captions)
        for a in range(n * n):
            for b in (a + 1, a + n):
                if b >= n * n or (b == a + 1 and b % n == 0):
                    continue
                x, y = s[a], s[b]
                want = (
                    "white-dot"
                    if abs(x - y) == 1
                    else "black-dot"
                    if x == 2 * y or y == 2 * x
                    else None
                )
                assert dots.get((a, b)) == want, (a, b, x, y)


@pytest.mark.parametrize("kind", ["renban", "whisper", "palindrome", "kropki-negative"])
def test_the_same_seed_gives_the_same_puzzle(kind: str) -> None:
    spec = GenerationSpec(RuleSet.classic(S6), drawn=DrawnOptions(kind))
    first = [(m.puzzle, m.solution) for m in generate(spec, count=2, seed=21)]
    again = [(m.puzzle, m.solution) for m in generate(spec, count=2, seed=21)]
    other = [(m.puzzle, m.solution) for m in generate(spec, count=2, seed=22)]
    assert first == again and first != other


def test_a_variant_base_is_kept() -> None:
    spec = GenerationSpec(RuleSet.build(S6, ["diagonal"]), drawn=DrawnOptions("whisper"))
    (m,) = generate(spec, count=1, seed=1)
    assert "diagonal" in m.puzzle.rules.variants
    _check_unique(m)
    _check_lines("whisper", m)


@pytest.mark.parametrize(
    "options",
    [
        {"drawn": DrawnOptions("zigzag")},
        {"drawn": DrawnOptions("renban"), "symmetry": "rot180"},
        {"drawn": DrawnOptions("whisper"), "clues": 10},
    ],
)
def test_requests_that_cannot_apply_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ImpossibleRequestError):
        GenerationSpec(RuleSet.classic(S6), **options)  # type: ignore[arg-type]


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["generate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("variant", ["renban", "whisper", "palindrome", "kropki-negative"])
def test_cli_variants_write_records_that_read_back_unique_and_reproducible(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    args = ("--variant", variant, "--size", "6", "-n", "2", "--seed", "4")
    code, out, err = _cli(capsys, *args)
    assert code == 0, err
    assert ("dots min" if variant == "kropki-negative" else "lines min") in err
    recs = list(iter_records(io.StringIO(out), source="<out>", fmt="jsonl"))
    assert len(recs) == 2 and all(r.error is None for r in recs)
    for rec in recs:
        puzzle: Puzzle = rec.puzzle
        assert PYSAT.check_unique(puzzle).kind is VerdictKind.UNIQUE
        marks = rule_marks(puzzle.rules)
        assert marks.edges if variant == "kropki-negative" else marks.lines
    import json

    assert all(check_record(json.loads(line)) == [] for line in out.splitlines())
    code, again, err = _cli(capsys, *args)
    strip = [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in out.splitlines()]
    twice = [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in again.splitlines()]
    assert strip == twice


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "renban,whisper"], "at a time"),
        (["--variant", "renban", "--to", "line"], "cannot hold the lines"),
        (["--variant", "kropki-negative", "--to", "csv"], "cannot hold the dots"),
        (["--variant", "palindrome", "--symmetry", "rot180"], "do not apply"),
        (["--variant", "whisper,killer"], "do not combine"),
    ],
)
def test_cli_refusals(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = _cli(capsys, *args)
    assert code == 2 and out == "" and message in err


@pytest.mark.parametrize("kind", ["renban", "kropki-negative"])
def test_deadlines_keep_the_puzzles_or_fail_cleanly(kind: str) -> None:
    import dataclasses

    from sudoku_model.generate import GenerationError, engine_for, generate_one

    spec = GenerationSpec(RuleSet.classic(S6), drawn=DrawnOptions(kind))
    plain = [m.puzzle for m in generate(spec, count=2, seed=5)]
    timed = dataclasses.replace(spec, max_seconds=600.0)
    assert [m.puzzle for m in generate(timed, count=2, seed=5)] == plain
    engine = engine_for("native")
    passed = dataclasses.replace(spec, rules=RuleSet.classic(S9), max_seconds=0.0)
    with pytest.raises(GenerationError, match="deadline"):
        generate_one(passed, engine, seed=1)
    assert generate_one(spec, engine, seed=1).puzzle.rules.constraint_rules
