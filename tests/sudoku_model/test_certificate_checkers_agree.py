"""The native DRAT checker agrees with dratify: on 300 certificates of mixed
puzzles (17-clue, hardest, unsolvable, 4x4, 6x6, jigsaw, anti-knight, diagonal, 16x16) and
on a mutation of each proof (a lemma dropped, a literal flipped, the proof truncated with or
without the empty clause, a lemma moved first, a lemma's literals reordered so its RAT pivot
changes, a rule clause or a deletion added or removed, a foreign unit or an extension
variable), both give the same valid/invalid answer every time."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, certcnf
from sudoku_model.certificates import _check_dratify, _check_native
from sudoku_model.data import bundled_path
from sudoku_model.formats import iter_records
from sudoku_model.solving import Certificate, get_backend
from tests.datafiles import data_file

JIGSAW_REGIONS = [0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 0, 2, 2, 2, 3, 3]
JIGSAW_REGIONS += [4, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 3, 4, 4, 5, 5, 5, 5]
Clauses = list[tuple[int, ...]]


def mixed_puzzles() -> list[Puzzle]:
    def sample(name: str, every: int, count: int) -> list[Puzzle]:
        puzzles = [r.puzzle for r in iter_records(bundled_path(name)) if r.puzzle]
        return puzzles[::every][:count]

    puzzles = sample("17-clue", 200, 200)
    puzzles += sample("counts-43", 1, 43)  # unique, unsolvable, several (no proof)
    puzzles += sample("forum-hardest-1106", 15, 70)
    puzzles += sample("top95", 2, 40)
    puzzles += [
        Puzzle.parse(".2..3....1....4."),
        Puzzle.parse("......34...23..."),
        Puzzle.parse("6........25....4..4.6..1...3..3....4", shape=Shape(2, 3)),
        Puzzle.parse(
            "....4.1.....6........3....2..4...4.1", shape=Shape(2, 3), regions=JIGSAW_REGIONS
        ),
    ]
    variants = sample("top95", 7, 14)
    for variant, some in (("anti-knight", variants[:7]), ("diagonal", variants[7:])):
        rules = RuleSet.build(Shape(3, 3), [variant])
        puzzles += [Puzzle(p.givens, rules) for p in some]
    path16 = data_file("16x16-generated.csv")
    puzzles += [r.puzzle for r in list(iter_records(path16))[:2] if r.puzzle]
    return puzzles


def mutate(proof: str, rules: Clauses, n_vars: int, kind: str, rng: random.Random) -> str:
    lines = proof.splitlines()
    lemmas = [k for k, ln in enumerate(lines[:-1]) if not ln.startswith("d")] or [0]
    k = rng.choice(lemmas)
    lits = lines[k].split()[:-1]
    if kind == "drop":
        lines[k : k + 1] = []
    elif kind == "flip" and lits:
        i = rng.randrange(len(lits))
        lits[i] = str(-int(lits[i]))
        lines[k] = " ".join(lits) + " 0"
    elif kind == "truncate":
        lines = lines[:k]
    elif kind == "truncate+empty":
        lines = [*lines[:k], "0"]
    elif kind == "first":
        lines = [lines[k], *lines[:k], *lines[k + 1 :]]
    elif kind == "pivot" and len(lits) > 1:
        lines[k] = " ".join(lits[1:] + lits[:1]) + " 0"
    elif kind == "delete-rule":
        lines.insert(k, "d " + " ".join(map(str, rng.choice(rules))) + " 0")
    elif kind == "keep-deleted":
        deletions = [j for j, ln in enumerate(lines) if ln.startswith("d")]
        if deletions:
            del lines[rng.choice(deletions)]
    elif kind == "unit":
        v = rng.randrange(1, n_vars + 1)
        lines.insert(k, f"{rng.choice((v, -v))} 0")
    elif kind == "extension":
        v = rng.randrange(1, n_vars + 1)
        lines[k:k] = [f"{n_vars + 1} {-v} 0", f"{-(n_vars + 1)} {v} 0"]
    return "\n".join(lines) + "\n"


KINDS = (
    "drop",
    "flip",
    "truncate",
    "truncate+empty",
    "first",
    "pivot",
    "delete-rule",
    "keep-deleted",
    "unit",
    "extension",
)


@pytest.mark.slow
def test_native_and_dratify_agree_on_certificates_and_mutations() -> None:
    rng = random.Random(14)
    backend = get_backend("pysat")
    certs: list[Certificate] = []
    for puzzle in mixed_puzzles():
        cert = backend.certificate(puzzle.rules, puzzle.givens)
        if cert.proof is not None:
            certs.append(cert)
    assert len(certs) >= 300
    rules_of: dict[object, Clauses] = {}
    answers: Counter[tuple[str, bool]] = Counter()
    disagreements = []
    for index, cert in enumerate(certs):
        assert cert.proof is not None
        rules = cert.puzzle.rules
        if rules not in rules_of:
            rules_of[rules] = [tuple(c) for c in certcnf.rule_clauses(rules)]
        rule_part = rules_of[rules]
        puzzle_part = [tuple(c) for c in cert.puzzle_clauses]
        n_vars = rules.shape.size**3
        kind = KINDS[index % len(KINDS)]
        for label, proof in (
            ("original", cert.proof),
            (kind, mutate(cert.proof, rule_part, n_vars, kind, rng)),
        ):
            data = proof.encode()
            native = _check_native(rule_part, puzzle_part, n_vars, data, "p")
            dratify = _check_dratify(rule_part, puzzle_part, n_vars, data, "p", "dratify")
            answers[(label, native is None)] += 1
            if (native is None) != (dratify is None):
                disagreements.append((index, label, native, dratify))
    assert disagreements == []
    assert answers[("original", True)] == len(certs)
    # the sample is only a test if the mutations are caught often enough
    rejected = sum(n for (label, valid), n in answers.items() if not valid)
    assert rejected >= 60, answers
    for kind in ("flip", "truncate", "truncate+empty", "unit"):
        assert answers[(kind, False)] > 0, answers


def test_the_native_checker_itself_rejects_a_proof_without_the_empty_clause() -> None:
    # check-certificate refuses such a proof before any checker runs; the checker would too
    puzzle = Puzzle.parse(
        "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
    )
    cert = get_backend("pysat").certificate(puzzle.rules, puzzle.givens)
    assert cert.proof is not None and cert.proof.splitlines()[-1] == "0"
    proof = "\n".join(cert.proof.splitlines()[:-1]) + "\n"
    reason = _check_native(
        [tuple(c) for c in certcnf.rule_clauses(puzzle.rules)],
        [tuple(c) for c in cert.puzzle_clauses],
        729,
        proof.encode(),
        "p",
    )
    assert reason is not None and "never derives the empty clause" in reason


# -- the native checker behind check-certificate ------------------------------------------
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _one_certificate(tmp_path: Path) -> tuple[Path, Path]:
    from sudoku_model.certificates import certify_records
    from sudoku_model.formats import Record

    puzzle = Puzzle.parse(HARD)
    out = tmp_path / "c"
    certify_records([Record("<t>", 1, HARD, puzzle, position=0)], out)
    return out, out / "puzzles" / "000000.drat"


def _rehash(root: Path) -> None:
    import hashlib
    import json

    manifest = json.loads((root / "manifest.json").read_text())
    for entry in manifest["puzzles"]:
        for info in entry.get("files", {}).values():
            info["sha256"] = hashlib.sha256((root / info["path"]).read_bytes()).hexdigest()
    (root / "manifest.json").write_text(json.dumps(manifest))


def test_native_is_the_default_checker(tmp_path: Path) -> None:
    import subprocess
    import sys

    from sudoku_model.certificates import DEFAULT_CHECKER

    assert DEFAULT_CHECKER == "native"
    out, _ = _one_certificate(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", "check-certificate", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "1 of 1 valid" in run.stderr and "(native;" in run.stderr


def test_a_malformed_proof_is_an_invalid_certificate_naming_the_line(tmp_path: Path) -> None:
    from sudoku_model.certificates import check_certificates

    out, proof = _one_certificate(tmp_path)
    lines = proof.read_text().splitlines()
    proof.write_text("\n".join([lines[0], "1 2 x 0", *lines[1:]]) + "\n")
    _rehash(out)
    (check,) = check_certificates(out)
    assert not check.valid
    assert check.reason == "proof puzzles/000000.drat unreadable: proof line 2: bad token 'x'"


def test_a_check_past_its_budget_is_not_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_model import certificates

    out, _ = _one_certificate(tmp_path)
    monkeypatch.setattr(certificates, "NATIVE_SECONDS", 0.0)
    (check,) = certificates.check_certificates(out)
    assert not check.valid
    assert check.reason.startswith(
        "proof puzzles/000000.drat: not checked within 0 s: budget spent after"
    )


def test_the_rules_are_loaded_once_per_thread() -> None:
    from sudoku_model.certificates import _native_checker

    rules = [tuple(c) for c in certcnf.rule_clauses(Puzzle.parse(HARD).rules)]
    first = _native_checker(rules, 729)
    assert _native_checker(rules, 729) is first
    assert _native_checker(list(rules), 729) is not first  # another rules list, its own


def test_running_out_of_memory_is_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from sudoku_model import _drat_testing, certificates, drat
    from sudoku_model.certificates import check_certificates

    out, _ = _one_certificate(tmp_path)
    # The checker's test build (the same drat.c with the fault hook), with no checker kept
    # from an earlier test.
    monkeypatch.setattr(drat, "_drat", _drat_testing)
    monkeypatch.setattr(certificates, "_NATIVE", threading.local())
    _drat_testing.fail_allocation_after(0)
    try:
        (check,) = check_certificates(out)
    finally:
        _drat_testing.fail_allocation_after(-1)
    assert check.reason == (
        "proof puzzles/000000.drat: not checked: the native checker ran out of memory"
    )
    (check,) = check_certificates(out)
    assert check.valid
