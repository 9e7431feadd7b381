"""`sudoku verify` never mixes or loses results: a resume with other record-changing
options is refused (unless asked for), an output that holds records is never overwritten
without --force, and a record of a puzzle with rules beyond the classic ones names them
whole (killer cages included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_model import formats
from sudoku_model.cli import main
from sudoku_model.data import bundled_path

TOP95 = str(bundled_path("top95"))


def verify(*args: str) -> int:
    return main(["verify", *args, "-q"])


def interrupted_run(tmp_path: Path, *options: str, keep: int = 10, fmt: str = "jsonl") -> Path:
    """An output of the first ``keep`` records of top95 verified with ``options``, as an
    interrupted run leaves it."""
    out = tmp_path / f"out.{fmt}"
    assert verify(TOP95, "-o", str(out), *options) == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[: keep + (fmt == "csv")]))
    return out


@pytest.mark.parametrize(
    ("first", "then", "named"),
    [
        (["--backend", "pysat"], ["--backend", "native"], "--backend"),
        (["--backend", "native"], ["--backend", "pysat"], "--backend"),
        ([], ["--budget-seconds", "5"], "--budget-seconds"),
        ([], ["--budget-nodes", "100000"], "--budget-nodes"),
        (["--budget-seconds", "30"], ["--budget-seconds", "31"], "--budget-seconds"),
        ([], ["--minimal"], "--minimal"),
        (["--minimal"], [], "--minimal"),
        ([], ["--cross-check", "native,pysat"], "--cross-check"),
        ([], ["--canonical"], "--canonical"),
        (["--canonical"], [], "--canonical"),
    ],
    ids=[
        "pysat-then-native",
        "native-then-pysat",
        "budget-seconds",
        "budget-nodes",
        "budget-changed",
        "minimal-added",
        "minimal-dropped",
        "cross-check",
        "canonical-added",
        "canonical-dropped",
    ],
)
def test_resume_with_a_record_changing_option_changed_is_refused(
    tmp_path, capsys, first, then, named
):
    out = interrupted_run(tmp_path, *first)
    before = out.read_bytes()
    capsys.readouterr()
    assert verify(TOP95, "-o", str(out), "--resume", *then) == 2
    err = capsys.readouterr().err
    assert named in err and "--resume-any-settings" in err, err
    assert out.read_bytes() == before  # nothing written, nothing lost
    # said explicitly: the run goes on and mixes both settings in one file
    assert verify(TOP95, "-o", str(out), "--resume", "--resume-any-settings", *then) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["position"] for r in records] == list(range(95))


def test_resume_with_the_same_options_goes_on(tmp_path):
    options = ["--backend", "pysat", "--budget-seconds", "30", "--minimal"]
    out = interrupted_run(tmp_path, *options)
    assert verify(TOP95, "-o", str(out), "--resume", *options) == 0
    assert len(out.read_text().splitlines()) == 95


def test_resume_of_a_csv_output_checks_the_settings_too(tmp_path, capsys):
    out = interrupted_run(tmp_path, "--backend", "pysat", fmt="csv")
    before = out.read_bytes()
    capsys.readouterr()
    assert verify(TOP95, "-o", str(out), "--resume") == 2
    assert "--backend" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert verify(TOP95, "-o", str(out), "--resume", "--backend", "pysat") == 0
    assert len(out.read_text().splitlines()) == 96  # header + 95


def test_output_that_holds_records_is_not_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text("earlier results\n")
    capsys.readouterr()
    assert verify(TOP95, "-o", str(out)) == 2
    err = capsys.readouterr().err
    assert "--force" in err and "--resume" in err
    assert out.read_text() == "earlier results\n"
    assert verify(TOP95, "-o", str(out), "--force") == 0
    assert len(out.read_text().splitlines()) == 95
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert verify(TOP95, "-o", str(empty)) == 0  # nothing in it to lose
    assert verify(TOP95, "-o", str(tmp_path / "new.jsonl")) == 0
    assert verify(TOP95, "-o", str(out), "--resume", "--force") == 2


#: A killer puzzle (krazydad's CSV layout): no givens, 31 cages.
KILLER_CSV = (
    ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder\n"
    "0,KD_Killer_IM1-B1-P1,1,1,1,"
    "KABBBCDDEEAAFBCGGHIJAFKLMMHIJNNKLOOPPJJJJQQPPPJRRSTUUPPJVWSTXXYZVVWabccYZVaaabddee,"
    '"11,25,14,9,12,15,4,14,6,40,3,15,9,8,12,38,11,15,13,6,4,17,7,13,10,6,26,4,15,11,12",'
    "184652793526793184739184562653278419941365827278941356895427631412836975367519248,\n"
)


def test_a_killer_record_names_its_cages(tmp_path):
    path = tmp_path / "killer.csv"
    path.write_text(KILLER_CSV)
    out = tmp_path / "out.jsonl"
    assert verify(str(path), "-o", str(out)) == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["verdict"] == "unique" and record["clues"] == 0
    rules = record["rules"]
    assert [c["type"] for c in rules["constraints"]] == ["killer"]
    assert len(rules["constraints"][0]["cages"]) == 31
    # the record alone rebuilds the puzzle that was verified
    (original,) = list(formats.iter_records(str(path)))
    rebuilt, _ = formats.puzzle_from_json({**rules, "puzzle": record["puzzle"]})
    assert rebuilt.rules == original.puzzle.rules
    assert rebuilt.givens == original.puzzle.givens


def test_a_classic_record_has_no_rules_field(tmp_path):
    out = tmp_path / "out.jsonl"
    assert verify(TOP95, "-o", str(out)) == 0
    assert all("rules" not in json.loads(line) for line in out.read_text().splitlines())
