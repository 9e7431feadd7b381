"""Certificates: round trips on every shape and variant the encoder knows, the
negative controls of the issue (each rejected with its reason), the independent encoder
against the PySAT backend's encoding, and refusals."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sudoku_model import Puzzle, RuleSet, Shape, certcnf
from sudoku_model.certificates import (
    CertificateFormatError,
    certify_records,
    check_certificates,
    load_manifest,
)
from sudoku_model.data import bundled_path
from sudoku_model.formats import Record, iter_records
from sudoku_model.grid import Grid
from sudoku_model.rules import AllDifferent
from sudoku_model.solving import CertificationUnsupported, get_backend
from tests.datafiles import data_file

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
JIGSAW_REGIONS = [0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 0, 2, 2, 2, 3, 3]
JIGSAW_REGIONS += [4, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 3, 4, 4, 5, 5, 5, 5]
JIGSAW = "....4.1.....6........3....2..4...4.1"  # unique, from sudoku generate --regions
#: From counts-43: no solution, and unit propagation alone does not show it.
UNSOLVABLE = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
ANTI_KNIGHT = ".4..........3.........2...........1.29.7...5....8.....4.....19......5...3........"


def records(puzzles: list[Puzzle], source: str = "<test>") -> list[Record]:
    return [Record(source, k + 1, p.givens.to_line(), p, position=k) for k, p in enumerate(puzzles)]


def round_trip(tmp_path: Path, puzzles: list[Puzzle], checker: str = "dratify") -> list[Any]:
    out = tmp_path / "certs"
    certifier = certify_records(records(puzzles), out)
    checks = list(check_certificates(out, checker=checker))
    assert [c.reason for c in checks if not c.valid] == []
    assert len(checks) == len(puzzles)
    return certifier.entries


def test_top95_round_trip(tmp_path: Path) -> None:
    recs = list(iter_records(bundled_path("top95")))
    out = tmp_path / "c"
    certifier = certify_records(recs, out)
    assert certifier.counts == {"unique": 95}
    checks = list(check_certificates(out))
    assert len(checks) == 95 and all(c.valid for c in checks), [c.reason for c in checks][:3]


def test_forum_hardest_round_trip(tmp_path: Path) -> None:
    # A sample (every 8th) keeps the suite fast; the benchmark certifies whole lists.
    recs = list(iter_records(bundled_path("forum-hardest-1106")))[::8]
    out = tmp_path / "c"
    certify_records(recs, out)
    checks = list(check_certificates(out))
    assert len(checks) == len(recs) and all(c.valid for c in checks)


def test_counts_43_every_verdict(tmp_path: Path) -> None:
    # 18 unique, 10 without solution, 15 with several: proofs for the first two kinds,
    # witnesses for the third, and every one checks.
    recs = list(iter_records(bundled_path("counts-43")))
    out = tmp_path / "c"
    certifier = certify_records(recs, out)
    assert certifier.counts == {"unique": 18, "unsolvable": 10, "multiple": 15}
    for entry, rec in zip(certifier.entries, recs):
        count = int(rec.comment.split(":")[0]) if rec.comment else None
        if count is not None:
            expected = {0: "unsolvable", 1: "unique"}.get(count, "multiple")
            assert entry["verdict"] == expected
    checks = list(check_certificates(out))
    assert all(c.valid for c in checks), [c.reason for c in checks if not c.valid]


def test_small_shapes_variants_and_contradictions(tmp_path: Path) -> None:
    puzzles = [
        Puzzle.parse(".2..3....1....4."),  # 4x4 unique
        Puzzle.parse("......34...23..."),  # 4x4 unsolvable
        Puzzle.parse("12......34......"),  # 4x4 several
        Puzzle.parse("11..............", shape=Shape(2, 2)),  # 4x4 contradictory
        Puzzle.parse("6........25....4..4.6..1...3..3....4", shape=Shape(2, 3)),  # 6x6
        Puzzle.parse(JIGSAW, shape=Shape(2, 3), regions=JIGSAW_REGIONS),
        Puzzle.parse(ANTI_KNIGHT, variants=["anti-knight"]),
        Puzzle.parse(HARD, variants=["diagonal"]),
    ]
    entries = round_trip(tmp_path, puzzles)
    verdicts = [e["verdict"] for e in entries]
    assert verdicts[:4] == ["unique", "unsolvable", "multiple", "contradictory"]
    assert verdicts[4:6] == ["unique", "unique"]
    assert entries[6]["rules"]["variants"] == ["anti-knight"]
    assert entries[5]["rules"]["regions"] == JIGSAW_REGIONS


def test_16x16_round_trip(tmp_path: Path) -> None:
    path = data_file("16x16-generated.csv")
    recs = list(iter_records(path))[:2]
    out = tmp_path / "c"
    certify_records(recs, out)
    checks = list(check_certificates(out))
    assert [c.verdict for c in checks] == ["unique", "unique"] and all(c.valid for c in checks)


def test_pure_python_engine_agrees(tmp_path: Path) -> None:
    round_trip(tmp_path, [Puzzle.parse(HARD), Puzzle.parse("......34...23...")], "dratify-python")


# -- the independent encoder ---------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.classic(Shape(3, 3)),
        RuleSet.classic(Shape(2, 3)),
        RuleSet.build(Shape(3, 3), ["anti-knight", "diagonal"]),
        RuleSet.build(Shape(3, 3), ["windoku", "anti-king"]),
        RuleSet.build(Shape(2, 3), [], JIGSAW_REGIONS),
    ],
    ids=repr,
)
def test_encoder_matches_the_backend_encoding_as_a_clause_set(rules: RuleSet) -> None:
    from sudoku_model.backends.cnf import encode_rules

    ours = certcnf.rule_clauses(rules)
    theirs = encode_rules(rules, encoding="extended", amo="pairwise").clauses
    assert certcnf.normalize(ours) == certcnf.normalize(theirs)


def test_variable_mapping_is_the_documented_one() -> None:
    # cell (r, c) holds d <=> r*n*n + c*n + d: row 2, column 5, digit 7 of a 9x9 grid
    rules = RuleSet.classic(Shape(3, 3))
    givens = [0] * 81
    givens[2 * 9 + 5] = 7
    assert certcnf.given_clauses(9, givens) == [(2 * 81 + 5 * 9 + 7,)]
    # the first clause says cell (0, 0) holds a digit: variables 1..9
    assert certcnf.rule_clauses(rules)[0] == tuple(range(1, 10))


def test_dimacs_parser_names_the_problem() -> None:
    with pytest.raises(certcnf.DimacsError, match="x.cnf:2: 'a' is not a literal"):
        certcnf.parse_dimacs("p cnf 3 1\n1 a 0\n", "x.cnf")
    with pytest.raises(certcnf.DimacsError, match="declares 2 clauses, the file has 1"):
        certcnf.parse_dimacs("p cnf 3 2\n1 2 0\n", "x.cnf")
    with pytest.raises(certcnf.DimacsError, match="literal 4 above the 3"):
        certcnf.parse_dimacs("p cnf 3 1\n4 0\n", "x.cnf")
    with pytest.raises(certcnf.DimacsError, match="no closing 0"):
        certcnf.parse_dimacs("p cnf 3 1\n1 2\n", "x.cnf")


# -- negative controls ---------------------------------------------------------------------
@dataclass
class Certs:
    root: Path
    manifest: dict[str, Any]

    def entry(self, k: int) -> dict[str, Any]:
        entry: dict[str, Any] = self.manifest["puzzles"][k]
        return entry

    def file(self, k: int, key: str) -> Path:
        return self.root / self.entry(k)["files"][key]["path"]

    def rehash(self) -> None:
        """Make the manifest's sha256 match the (tampered) files, so that the deeper
        check is the one that must catch the tampering."""
        for entry in self.manifest["puzzles"]:
            for info in entry.get("files", {}).values():
                info["sha256"] = hashlib.sha256((self.root / info["path"]).read_bytes()).hexdigest()
        for name, info in self.manifest["rules_files"].items():
            info["sha256"] = hashlib.sha256((self.root / name).read_bytes()).hexdigest()
        self.save()

    def save(self) -> None:
        (self.root / "manifest.json").write_text(json.dumps(self.manifest))

    def reasons(self, checker: str = "dratify-python") -> list[str]:
        return [c.reason for c in check_certificates(self.root, checker=checker)]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("certs") / "c"
    # 0: unique, 1: unsolvable, 2: multiple, 3: contradictory
    puzzles = [
        Puzzle.parse(HARD),
        Puzzle.parse(UNSOLVABLE),
        Puzzle.parse("12......34......"),
        Puzzle.parse("11..............", shape=Shape(2, 2)),
    ]
    certify_records(records(puzzles), out)
    return out


@pytest.fixture
def certs(pristine: Path, tmp_path: Path) -> Certs:
    root = tmp_path / "c"
    shutil.copytree(pristine, root)
    _, manifest = load_manifest(root)
    return Certs(root, manifest)


#: Every negative control runs under each checker: they must all reject it (the native
#: checker, our own, agrees with dratify on each).
CHECKERS = ["native", "dratify-python", "dratify"]
if shutil.which("drat-trim"):
    CHECKERS.append("drat-trim")


@pytest.mark.parametrize("checker", CHECKERS)
def test_pristine_certificates_are_valid(certs: Certs, checker: str) -> None:
    assert certs.reasons(checker) == ["", "", "", ""]


@pytest.mark.parametrize("checker", CHECKERS)
def test_empty_proof(certs: Certs, checker: str) -> None:
    certs.file(0, "proof").write_text("")
    certs.rehash()
    assert certs.reasons(checker)[0].endswith("truncated: it does not end with the empty clause")


@pytest.mark.parametrize("checker", CHECKERS)
def test_truncated_proof_without_the_empty_clause(certs: Certs, checker: str) -> None:
    proof = certs.file(1, "proof")
    lines = proof.read_text().splitlines()
    assert lines[-1] == "0"
    proof.write_text("\n".join(lines[:-1]) + "\n")
    certs.rehash()
    name = certs.entry(1)["files"]["proof"]["path"]
    reason = certs.reasons(checker)[1]
    assert reason == f"proof {name}: truncated: it does not end with the empty clause"


def test_dratify_itself_rejects_a_proof_without_the_empty_clause(certs: Certs) -> None:
    # the check above comes first; the checker would catch it too
    from sudoku_model.certificates import _check_dratify

    lines = certs.file(1, "proof").read_bytes().splitlines()
    assert lines[-1] == b"0"
    proof = b"\n".join(lines[:-1]) + b"\n"
    rules = RuleSet.classic(Shape(3, 3))
    givens = Puzzle.parse(UNSOLVABLE).givens.values
    reason = _check_dratify(
        certcnf.rule_clauses(rules), certcnf.given_clauses(9, givens), 729, proof, "p", "dratify"
    )
    assert reason is not None and "never derives the empty clause" in reason


@pytest.mark.parametrize("checker", CHECKERS)
def test_a_proof_step_that_does_not_follow(certs: Certs, checker: str) -> None:
    proof = certs.file(0, "proof")
    proof.write_text("5 0\n" + proof.read_text())  # "cell 0 holds 5": not RUP, not RAT
    certs.rehash()
    reason = certs.reasons(checker)[0]
    assert "neither RUP nor RAT" in reason and "(step 1: '5 0')" in reason


@pytest.mark.parametrize("checker", CHECKERS)
def test_formula_without_the_blocking_clause(certs: Certs, checker: str) -> None:
    cnf = certs.file(0, "cnf")
    lines = cnf.read_text().splitlines()
    header = next(k for k, ln in enumerate(lines) if ln.startswith("p cnf"))
    clauses = lines[header + 1 :]
    blocking = max(clauses, key=len)
    kept = [c for c in clauses if c != blocking]
    cnf.write_text("\n".join([f"p cnf 729 {len(kept)}", *kept]) + "\n")
    certs.rehash()
    reason = certs.reasons(checker)[0]
    assert "of the encoding is missing" in reason and reason.endswith("is missing")
    assert reason.split("'")[1] == _sorted(blocking) + " 0"


@pytest.mark.parametrize("checker", CHECKERS)
def test_proof_of_another_formula(certs: Certs, checker: str) -> None:
    # The unsolvable puzzle's refutation shipped as the unique puzzle's: it is a proof,
    # but not of this formula.
    shutil.copy(certs.file(1, "proof"), certs.file(0, "proof"))
    certs.rehash()
    word = "the native checker" if checker == "native" else "dratify"
    assert f"rejected by {word}: clause is neither RUP nor RAT" in certs.reasons(checker)[0]


@pytest.mark.parametrize("checker", CHECKERS)
def test_wrong_solution(certs: Certs, checker: str) -> None:
    entry = certs.entry(0)
    s = list(entry["solution"])
    free = [k for k, ch in enumerate(entry["puzzle"]) if ch == "."]
    a, b = free[0], next(k for k in free[1:] if s[k] != s[free[0]])
    s[a], s[b] = s[b], s[a]
    entry["solution"] = "".join(s)
    certs.save()
    assert certs.reasons(checker)[0].startswith("the solution is wrong: ")


@pytest.mark.parametrize("checker", CHECKERS)
def test_cnf_with_a_rule_clause_dropped(certs: Certs, checker: str) -> None:
    name = certs.entry(0)["rules_cnf"]
    path = certs.root / name
    lines = path.read_text().splitlines()
    header = next(k for k, ln in enumerate(lines) if ln.startswith("p cnf"))
    dropped = lines.pop(header + 1000)
    lines[header] = f"p cnf 729 {len(lines) - header - 1}"
    path.write_text("\n".join(lines) + "\n")
    certs.rehash()
    reason = certs.reasons(checker)[0]
    assert reason == f"{name}: clause '{_sorted(dropped)} 0' of the encoding is missing"


@pytest.mark.parametrize("checker", CHECKERS)
def test_cnf_with_an_extra_clause_not_implied(certs: Certs, checker: str) -> None:
    cnf = certs.file(1, "cnf")
    lines = cnf.read_text().splitlines()
    # cell (0,0) is not 1 or cell (0,1) is not 3: the rules do not imply it
    lines.append("-1 -12 0")
    n_clauses = sum(1 for ln in lines if ln and ln[0] not in "cp")
    lines = [f"p cnf 729 {n_clauses}" if ln.startswith("p cnf") else ln for ln in lines]
    cnf.write_text("\n".join(lines) + "\n")
    certs.rehash()
    assert certs.reasons(checker)[1].endswith("clause '-12 -1 0' is not in the encoding")


@pytest.mark.parametrize("checker", CHECKERS)
def test_manifest_sha256_mismatch(certs: Certs, checker: str) -> None:
    proof = certs.file(0, "proof")
    proof.write_text(proof.read_text() + "c appended\n")  # content changed, hash not
    reason = certs.reasons(checker)[0]
    assert (
        reason
        == f"proof {certs.entry(0)['files']['proof']['path']}: sha256 does not match the manifest"
    )


def test_witnesses_and_clash_are_checked(certs: Certs) -> None:
    certs.entry(2)["witnesses"][1] = certs.entry(2)["witnesses"][0]
    certs.entry(3)["clash"] = [0, 5]
    certs.save()
    reasons = certs.reasons()
    assert reasons[2] == "multiple: the two witnesses are the same grid"
    assert reasons[3] == "contradictory: cells 0 and 5 do not hold the same given"


def test_unreadable_manifest(tmp_path: Path) -> None:
    with pytest.raises(CertificateFormatError, match="no such file"):
        load_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(CertificateFormatError, match=r"manifest.json:1:2: not JSON"):
        load_manifest(tmp_path)


def _sorted(clause_line: str) -> str:
    lits = sorted(int(x) for x in clause_line.split()[:-1])
    return " ".join(map(str, lits))


# -- drat-trim's format rules ----------------------------------------------------------------
DRAT_LINE = re.compile(r"^(d )?(-?[1-9][0-9]* )*0$")


def test_proofs_are_plain_text_drat(pristine: Path) -> None:
    _, manifest = load_manifest(pristine)
    for entry in manifest["puzzles"]:
        if "files" in entry:
            text = (pristine / entry["files"]["proof"]["path"]).read_text(encoding="ascii")
            lines = text.splitlines()
            assert lines and all(DRAT_LINE.match(ln) for ln in lines)
            assert lines[-1] == "0"


# -- refusals --------------------------------------------------------------------------------
def test_unknown_rule_kinds_are_refused_generically() -> None:
    # What a rule class of another branch could look like: a new kind string, or a new
    # class reusing a known kind. Neither is certified under an encoding that lacks it.
    @dataclass(frozen=True)
    class Thermometer(AllDifferent):
        kind: ClassVar[str] = "thermometer"

    @dataclass(frozen=True)
    class Lookalike(AllDifferent):
        pass

    rules = RuleSet.classic(Shape(2, 2))
    for rule, word in (
        (Thermometer("thermo", ((0, 1),)), "thermometer"),
        (Lookalike("odd", ((0, 5),)), "all_different"),
    ):
        odd = RuleSet(rules.shape, (*rules.rules, rule), ["classic"])
        reason = certcnf.uncertifiable(odd)
        assert reason is not None and f"{word} cannot be certified" in reason
        with pytest.raises(ValueError, match=word):
            certcnf.rule_clauses(odd)
        with pytest.raises(CertificationUnsupported, match=f"{word} cannot be certified"):
            get_backend("pysat").certificate(odd, Grid.empty(Shape(2, 2)))


def test_certify_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    with pytest.raises(ValueError, match="not empty"):
        certify_records([], tmp_path)


def test_grid_lines_round_trip_for_large_shapes() -> None:
    grid = Grid.empty(Shape(5, 5))
    assert Grid.parse(grid.to_line(), shape=Shape(5, 5)) == grid
