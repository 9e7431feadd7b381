"""Pencilmark puzzles: the model (candidates as a domain rule), the two text formats and
JSON both ways, records, verify (verdicts, witnesses, --minimal), certificates, canon and
dedup, show and render; every backend on the shared sets (a sample here, all in `slow`)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import pickle
import random
from pathlib import Path

import pytest

from sudoku_model import Budget, Grid, Puzzle, RuleSet, Shape
from sudoku_model.canon_candidates import canonical_candidates
from sudoku_model.certificates import certify_records, check_certificates, load_manifest
from sudoku_model.cli import main
from sudoku_model.formats import iter_records, write_records
from sudoku_model.formats.pencilmark import (
    format_pencilmark_line,
    format_pmgrid,
    read_pencilmark_line,
    read_pmgrid,
)
from sudoku_model.records import verify_record
from sudoku_model.rules import CANDIDATES_RULE, Domain
from sudoku_model.solving import get_backend
from sudoku_model.verify import redundant_eliminations
from tests.datafiles import PENCILMARK_SETS, pencilmark_set

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SMALL = ".2..3....1....4."  # 4x4, unique


def peer_candidates(puzzle: Puzzle) -> Puzzle:
    """The pencilmark puzzle of a plain one: each empty cell keeps the digits no given
    peer holds."""
    values = puzzle.givens.values
    n = puzzle.size
    sets = [
        {v} if v else set(range(1, n + 1)) - {values[p] for p in puzzle.rules.peers[c]}
        for c, v in enumerate(values)
    ]
    return Puzzle.from_candidates(sets)


EASY = peer_candidates(Puzzle.parse(HARD))


def minimal_pencilmark(seed: int) -> Puzzle:
    """A minimal pencilmark puzzle: HARD's solution as one-candidate cells, then
    candidates restored in a seeded order while the puzzle stays unique."""
    native = get_backend("native")
    solution = native.solve(Puzzle.parse(HARD)).solution
    assert solution is not None
    cands = [{v} for v in solution.values]
    order = [(c, d) for c in range(81) for d in range(1, 10) if d != solution.values[c]]
    random.Random(seed).shuffle(order)
    for c, d in order:
        cands[c].add(d)
        if native.count(Puzzle.from_candidates(cands), limit=2).count != 1:
            cands[c].discard(d)
    return Puzzle.from_candidates(cands)


@functools.cache
def minimal() -> Puzzle:
    return minimal_pencilmark(5)


def sample(name: str, count: int | None = None) -> list[str]:
    path = pencilmark_set(name)
    if path is None:
        pytest.skip(f"needs ../shared/data/pencilmark/{name}")
    lines = [ln.split()[0] for ln in path.read_text().splitlines() if ln.strip()]
    return lines[:count] if count else lines


# -- the model -------------------------------------------------------------------------------
def test_from_candidates_makes_givens_and_one_candidates_rule() -> None:
    sets = [{1, 2}, {1, 2, 3, 4}, {3}] + [set(range(1, 5))] * 13
    p = Puzzle.from_candidates(sets)
    assert p.givens.values[:3] == (0, 0, 3) and p.clues == 1
    extra = [r for r in p.rules.rules if isinstance(r, Domain)]
    assert extra == [Domain(CANDIDATES_RULE, ((0, frozenset({1, 2})),))]
    assert p.rules.rules[:3] == RuleSet.classic(Shape(2, 2)).rules
    assert p.is_pencilmark and p.candidates[0] == {1, 2} and p.candidates[2] == {3}
    assert p.candidates[1] == {1, 2, 3, 4}
    q = pickle.loads(pickle.dumps(p))
    assert q == p and hash(q) == hash(p)
    assert Puzzle.from_candidates(sets) == p


def test_from_candidates_without_restrictions_is_the_plain_puzzle() -> None:
    plain = Puzzle.parse(SMALL)
    sets = [{v} if v else range(1, 5) for v in plain.givens.values]
    p = Puzzle.from_candidates(sets)
    assert p == plain and not p.is_pencilmark and p.rules is RuleSet.classic(Shape(2, 2))


def test_from_candidates_keeps_variant_rules() -> None:
    rules = RuleSet.build(Shape(3, 3), ["diagonal"])
    sets = [{1, 2}] + [range(1, 10)] * 80
    p = Puzzle.from_candidates(sets, rules=rules)
    assert p.rules.variants == ("diagonal",) and p.is_pencilmark


@pytest.mark.parametrize(
    ("bad", "message"),
    [({}, "r1c2 has no candidate"), ({5}, "r1c2: candidate 5 is not a digit 1..4")],
)
def test_from_candidates_names_the_cell(bad: set[int], message: str) -> None:
    sets = [range(1, 5), bad] + [range(1, 5)] * 14
    with pytest.raises(ValueError, match=message):
        Puzzle.from_candidates(sets)


# -- formats -------------------------------------------------------------------------------
def test_pencilmark_line_round_trip_and_comment() -> None:
    line = format_pencilmark_line(EASY)
    assert len(line) == 729
    recs = list(iter_records([line + "  # easy one\n"]))
    assert recs[0].puzzle == EASY and recs[0].comment == "easy one"
    zeros = line.replace(".", "0")
    assert read_pencilmark_line(zeros) == EASY


def test_plain_puzzle_written_as_pencilmark() -> None:
    plain = Puzzle.parse(HARD)
    line = format_pencilmark_line(plain)
    assert line[:9] == "...4....." and line[9:18] == "123456789"
    assert read_pencilmark_line(line) == plain


def test_pmgrid_round_trip_with_and_without_separators() -> None:
    for separators in (True, False):
        text = format_pmgrid(EASY, separators=separators)
        assert read_pmgrid(text.splitlines()) == EASY
    first = format_pmgrid(EASY).splitlines()[0].split()
    assert first[0] == "4" and first[3] == "|"


def test_hodoku_style_pm_grid_is_inferred() -> None:
    rows = format_pmgrid(EASY, separators=False).splitlines()
    cells = [r.split() for r in rows]
    lines = [".---------.---------.---------."]
    for k, row in enumerate(cells):
        if k in (3, 6):
            lines.append(":---------+---------+---------:")
        parts = [" ".join(row[b : b + 3]) for b in (0, 3, 6)]
        lines.append("| " + " | ".join(parts) + " |")
    lines.append("'---------'---------'---------'")
    recs = list(iter_records(lines + [""] + lines))
    assert [r.puzzle for r in recs] == [EASY, EASY]


@pytest.mark.parametrize("fmt", ["pencilmark", "pmgrid", "json", "jsonl", "csv"])
@pytest.mark.parametrize(
    "puzzle",
    [EASY, Puzzle.from_candidates([{1, 2}, {3}] + [range(1, 5)] * 14)],
    ids=["9x9", "4x4"],
)
def test_every_format_round_trips(fmt: str, puzzle: Puzzle, tmp_path: Path) -> None:
    out = io.StringIO()
    solution = get_backend("native").solve(puzzle).solution
    write_records([(puzzle, solution)], fmt, out)
    path = tmp_path / f"p.{fmt if fmt in ('json', 'jsonl', 'csv') else 'txt'}"
    path.write_text(out.getvalue())
    # a 4x4 pencilmark line has an 8x8 line's length: named (or the shape given)
    small = puzzle.size == 4
    named = "pencilmark" if fmt == "pencilmark" and small else "auto"
    shape = Shape(2, 2) if small and fmt == "csv" else None
    recs = list(iter_records(path, fmt=named, shape=shape))
    assert [r.puzzle for r in recs] == [puzzle]
    if fmt != "pmgrid":
        assert recs[0].solution == solution


def test_convert_writes_both_formats(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(format_pencilmark_line(EASY) + "\n")
    grid, back = tmp_path / "g.txt", tmp_path / "l.txt"
    assert main(["convert", str(src), "--to", "pmgrid", "-o", str(grid)]) == 0
    assert main(["convert", str(grid), "--to", "pencilmark", "-o", str(back)]) == 0
    assert back.read_text() == src.read_text()


def test_a_64_character_line_is_an_8x8_puzzle_unless_named() -> None:
    line = format_pencilmark_line(Puzzle.parse(SMALL))
    assert next(iter(iter_records([line]))).puzzle.size == 8  # type: ignore[union-attr]
    rec = next(iter(iter_records([line], fmt="pencilmark")))
    assert rec.puzzle == Puzzle.parse(SMALL)
    rec = next(iter(iter_records([line], shape=Shape(2, 2))))
    assert rec.puzzle == Puzzle.parse(SMALL)


def test_malformed_records_cost_only_themselves() -> None:
    good = format_pencilmark_line(EASY)
    empty_cell = "........." + good[9:]
    wrong_place = "5" + good[1:]
    recs = list(iter_records([good, empty_cell, wrong_place, good[:700], good], source="f"))
    assert [r.ok for r in recs] == [True, False, False, False, True]
    e1, e2, e3 = (r.error for r in recs[1:4])
    assert e1 is not None and str(e1).startswith("f:2:1: r1c1 has no candidate")
    assert e2 is not None and e2.column == 1 and "place of digit 1" in e2.message
    assert e3 is not None and "700 characters" in e3.message


def test_pmgrid_cell_without_candidate_is_malformed() -> None:
    rows = format_pmgrid(EASY, separators=False).splitlines()
    cells = rows[0].split()
    cells[2] = "."
    rows[0] = " ".join(cells)
    recs = list(iter_records(rows, source="g", fmt="pmgrid"))
    assert len(recs) == 1 and recs[0].error is not None
    assert recs[0].error.line == 1 and "r1c3 has no candidate" in recs[0].error.message


# -- verify, records, witnesses, minimal ---------------------------------------------------------
def test_record_puzzle_is_the_candidates_line_and_reads_back() -> None:
    from sudoku_model.verify import verify_puzzle

    result = verify_puzzle(EASY, backend="native")
    d = verify_record(result)
    assert d["verdict"] == "unique" and "rules" not in d
    assert read_pencilmark_line(d["puzzle"]) == EASY
    assert d["solution"] == get_backend("native").solve(Puzzle.parse(HARD)).solution.to_line()  # type: ignore[union-attr]


def restored_to_multiple(puzzle: Puzzle) -> Puzzle:
    """The puzzle with one eliminated candidate restored so that it has 2 solutions (the
    first such candidate, found by trying; a given becomes a cell of two candidates)."""
    native = get_backend("native")
    cands = list(puzzle.candidates)
    for cell, digits in enumerate(cands):
        for d in range(1, puzzle.size + 1):
            if d in digits:
                continue
            cands[cell] = digits | {d}
            trial = Puzzle.from_candidates(cands)
            if native.count(trial, limit=3).count == 2:
                return trial
            cands[cell] = digits
    raise AssertionError("no candidate restores a second solution")


@pytest.mark.parametrize("backend", ["native", "pysat", "cpsat", "auto"])
def test_a_restored_candidate_gives_multiple_with_two_witnesses(backend: str) -> None:
    several = restored_to_multiple(minimal())
    v = get_backend(backend).check_unique(several)
    assert v.kind.value == "multiple"
    a, b = v.witnesses[:2]
    assert a != b and several.is_solution(a) and several.is_solution(b)


def test_verify_cli_on_a_restored_candidate(tmp_path: Path) -> None:
    several = restored_to_multiple(minimal())
    src = tmp_path / "m.txt"
    src.write_text(format_pencilmark_line(several) + "\n")
    out = tmp_path / "out.jsonl"
    main(["verify", str(src), "-o", str(out), "-q"])
    d = json.loads(out.read_text())
    assert d["verdict"] == "multiple" and len(d["witnesses"]) == 2
    for w in d["witnesses"]:
        assert several.is_solution(Grid.parse(w))


def test_redundant_eliminations_match_restoring_each_one() -> None:
    puzzle = peer_candidates(Puzzle.parse(SMALL))
    native = get_backend("native")
    solution = native.solve(puzzle).solution
    assert solution is not None
    red, unknown = redundant_eliminations(puzzle, solution, backend="pysat")
    assert unknown == []
    n = puzzle.size
    expected = []
    cands = list(puzzle.candidates)
    for cell, digits in enumerate(puzzle.candidates):
        for d in range(1, n + 1):
            if d not in digits:
                cands[cell] = digits | {d}
                if native.count(Puzzle.from_candidates(cands), limit=2).count == 1:
                    expected.append(n * cell + d - 1)
                cands[cell] = digits
    assert red == expected and expected


def test_verify_minimal_lists_eliminations(tmp_path: Path) -> None:
    src = tmp_path / "e.txt"
    src.write_text(format_pencilmark_line(peer_candidates(Puzzle.parse(SMALL))) + "\n")
    out = tmp_path / "out.jsonl"
    main(["verify", str(src), "--format", "pencilmark", "--minimal", "-o", str(out), "-q"])
    d = json.loads(out.read_text())
    assert d["minimal"] is False
    assert d["redundant_clues"] and all("<>" in x for x in d["redundant_clues"])


# -- certificates --------------------------------------------------------------------------------
def test_certificates_of_pencilmark_puzzles(tmp_path: Path) -> None:
    several = restored_to_multiple(minimal())
    recs = list(iter_records([format_pencilmark_line(EASY), format_pencilmark_line(several)]))
    out = tmp_path / "c"
    certifier = certify_records(recs, out)
    assert [e["verdict"] for e in certifier.entries] == ["unique", "multiple"]
    checks = list(check_certificates(out, checker="dratify-python"))
    assert [c.reason for c in checks] == ["", ""]
    # a candidate added to the CNF: one elimination (a negative unit clause) dropped
    _, manifest = load_manifest(out)
    entry = manifest["puzzles"][0]
    cnf = out / entry["files"]["cnf"]["path"]
    lines = cnf.read_text().splitlines()
    dropped = next(ln for ln in lines if ln.startswith("-") and len(ln.split()) == 2)
    kept = [ln for ln in lines if ln != dropped]
    count = sum(1 for ln in kept if ln and ln[0] not in "cp")
    cnf.write_text("\n".join(f"p cnf 729 {count}" if ln.startswith("p ") else ln for ln in kept))
    entry["files"]["cnf"]["sha256"] = hashlib.sha256(cnf.read_bytes()).hexdigest()
    (out / "manifest.json").write_text(json.dumps(manifest))
    reasons = [c.reason for c in check_certificates(out, checker="dratify-python")]
    assert reasons[0].endswith(f"clause '{dropped}' of the encoding is missing")
    assert reasons[1] == ""


# -- canon and dedup -----------------------------------------------------------------------------
def transformed(puzzle: Puzzle, rnd: random.Random) -> Puzzle:
    """A random member of the puzzle's class: bands, rows, stacks, columns, transposition
    and digits permuted."""
    bands = rnd.sample(range(3), 3)
    rows = [b * 3 + i for b in bands for i in rnd.sample(range(3), 3)]
    stacks = rnd.sample(range(3), 3)
    cols = [s * 3 + i for s in stacks for i in rnd.sample(range(3), 3)]
    digits = rnd.sample(range(1, 10), 9)
    flip = rnd.random() < 0.5
    cands = puzzle.candidates
    sets = []
    for r in range(9):
        for c in range(9):
            src = cols[c] * 9 + rows[r] if flip else rows[r] * 9 + cols[c]
            sets.append({digits[d - 1] for d in cands[src]})
    return Puzzle.from_candidates(sets)


def test_canonical_candidates_is_invariant_and_separates() -> None:
    rnd = random.Random(7)
    line, count = canonical_candidates(EASY)
    assert count >= 1 and len(line) == 729
    for _ in range(3):
        assert canonical_candidates(transformed(EASY, rnd))[0] == line
    other = restored_to_multiple(minimal())
    assert canonical_candidates(other)[0] != line


def test_canon_and_dedup_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rnd = random.Random(3)
    other = restored_to_multiple(minimal())
    puzzles = [EASY, transformed(EASY, rnd), other, transformed(other, rnd)]
    src = tmp_path / "in.txt"
    src.write_text("".join(format_pencilmark_line(p) + "\n" for p in puzzles))
    assert main(["canon", str(src)]) == 0
    keys = [ln.split()[0] for ln in capsys.readouterr().out.splitlines()]
    assert keys[0] == keys[1] != keys[2] == keys[3]
    out = tmp_path / "d.txt"
    assert main(["dedup", str(src), "-o", str(out)]) == 0
    assert [read_pencilmark_line(ln) for ln in out.read_text().splitlines()] == [EASY, other]


def test_canon_budget_is_kept() -> None:
    from sudoku_model.canon import CanonBudgetError

    open_grid = Puzzle.from_candidates([{1, 2}] + [range(1, 10)] * 80)
    with pytest.raises(CanonBudgetError):
        canonical_candidates(open_grid, budget=Budget(seconds=0.2))


# -- show and render -----------------------------------------------------------------------------
def test_show_prints_the_pm_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(format_pencilmark_line(EASY) + "\n")
    assert main(["show", str(src)]) == 0
    shown = capsys.readouterr().out.splitlines()[1:]
    assert read_pmgrid(shown) == EASY


def test_render_draws_the_candidates_small(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(format_pencilmark_line(EASY) + "\n")
    svg = tmp_path / "p.svg"
    assert main(["render", str(src), "--to", str(svg)]) == 0
    text = svg.read_text()
    drawn = sum(len(c) for c, v in zip(EASY.candidates, EASY.givens.values) if not v)
    assert text.count('class="pencil"') == drawn
    assert "restricted digits" not in text


# -- the shared sets -----------------------------------------------------------------------------
TRACTABLE = ["gurobi_hard-50.txt", "minisat_bt_020-029k-200.txt"]


@pytest.mark.parametrize("backend", ["native", "pysat", "cpsat"])
@pytest.mark.parametrize("name", TRACTABLE)
def test_backends_agree_on_a_sample(name: str, backend: str) -> None:
    b = get_backend(backend)
    # CP-SAT takes seconds a puzzle here: its first one in the default run, all in slow
    for line in sample(name, 1 if backend == "cpsat" else 3):
        v = b.check_unique(read_pencilmark_line(line))
        assert v.kind.value == "unique", (name, line[:40], v.kind)


@pytest.mark.parametrize("name", TRACTABLE)
def test_verify_cli_default_backend_on_a_sample(name: str, tmp_path: Path) -> None:
    src = tmp_path / "s.txt"
    src.write_text("\n".join(sample(name, 3)) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["verify", str(src), "-o", str(out), "-q"]) == 0
    records = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert [r["verdict"] for r in records] == ["unique"] * 3
    assert [r["puzzle"] for r in records] == sample(name, 3)


#: (backend, set, how many of its puzzles; None: all) for the slow run. auto (the default)
#: answers gurobi_hard whole and a part of the two bigger sets (about 3 s a puzzle on
#: minisat_bt_1m+, where auto sends them to mip:highs; the 020-029k puzzles it answers with
#: native, whose share below is larger); each engine takes the sets and the part of them it
#: answers in seconds: on minisat_bt_1m+ native, pysat and cpsat need 20-60 s a puzzle,
#: pysat about 1.5 s and cpsat seconds on the others.
AUTO_SHARE = {"minisat_bt_1m+-20.txt": 6, "minisat_bt_020-029k-200.txt": 40}
EVERY_SHARED_PUZZLE = [
    *(("auto", name, AUTO_SHARE.get(name)) for name in PENCILMARK_SETS),
    ("native", "gurobi_hard-50.txt", None),
    ("native", "minisat_bt_020-029k-200.txt", 50),
    ("pysat", "gurobi_hard-50.txt", 10),
    ("pysat", "minisat_bt_020-029k-200.txt", 5),
    ("cpsat", "gurobi_hard-50.txt", 3),
    ("cpsat", "minisat_bt_020-029k-200.txt", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "name", "count"), EVERY_SHARED_PUZZLE)
def test_every_backend_answers_unique_on_the_shared_sets(
    backend: str, name: str, count: int | None, tmp_path: Path
) -> None:
    lines = sample(name, count)
    src = tmp_path / name
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    main(["verify", str(src), "--backend", backend, "--budget-seconds", "3600", "-o", str(out)])
    verdicts = [json.loads(ln)["verdict"] for ln in out.read_text().splitlines()]
    assert verdicts == ["unique"] * len(lines)


@pytest.mark.slow
@pytest.mark.parametrize("name", PENCILMARK_SETS)
def test_logic_never_disagrees_on_the_shared_sets(name: str) -> None:
    logic = get_backend("logic")
    for line in sample(name, 3):
        v = logic.check_unique(read_pencilmark_line(line), budget=Budget(seconds=5))
        assert v.kind.value in ("unique", "unknown")


def test_verify_certify_and_check_certificate_cli(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(format_pencilmark_line(EASY) + "\n" + format_pencilmark_line(minimal()) + "\n")
    certs = tmp_path / "certs"
    out = tmp_path / "out.jsonl"
    assert main(["verify", str(src), "--certify", str(certs), "-o", str(out), "-q"]) == 0
    assert main(["check-certificate", str(certs)]) == 0


def test_candidates_combine_with_a_variant() -> None:
    rules = RuleSet.build(Shape(3, 3), ["diagonal"])
    p = Puzzle.from_candidates(minimal().candidates, rules=rules)
    assert p.is_pencilmark and p.rules.variants == ("diagonal",)
    counts = {b: get_backend(b).count(p, limit=2).count for b in ("native", "pysat", "cpsat")}
    assert len(set(counts.values())) == 1, counts
    line = format_pencilmark_line(p)
    out = io.StringIO()
    write_records([(p, None)], "jsonl", out)
    assert next(iter(iter_records(io.StringIO(out.getvalue()), source="x.jsonl"))).puzzle == p
    assert read_pencilmark_line(line, rules=rules) == p
